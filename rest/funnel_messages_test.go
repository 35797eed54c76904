package rest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/checkout"
	"salesplatform/domain/payments"
)

// checkoutMessages are the checkout's refusals a funnel page may show,
// with the values of a format's message.
var checkoutMessages = map[string]string{
	"MsgCouponUnknown":         checkout.MsgCouponUnknown,
	"MsgCouponInactive":        checkout.MsgCouponInactive,
	"MsgCouponDates":           checkout.MsgCouponDates,
	"MsgCouponUsedUp":          checkout.MsgCouponUsedUp,
	"MsgCouponProducts":        checkout.MsgCouponProducts,
	"MsgCouponMinimum":         fmt.Sprintf(checkout.MsgCouponMinimum, "50.00 EUR"),
	"MsgGiftcardUnknown":       checkout.MsgGiftcardUnknown,
	"MsgGiftcardNotUsable":     checkout.MsgGiftcardNotUsable,
	"MsgGiftcardEmpty":         checkout.MsgGiftcardEmpty,
	"MsgCodeTooLong":           checkout.MsgCodeTooLong,
	"MsgCartEmpty":             checkout.MsgCartEmpty,
	"MsgChooseDelivery":        checkout.MsgChooseDelivery,
	"MsgInformationIncomplete": checkout.MsgInformationIncomplete,
	"MsgNoSuchLine":            checkout.MsgNoSuchLine,
	"MsgVariantInvalid":        checkout.MsgVariantInvalid,
	"MsgAttributeValue":        checkout.MsgAttributeValue,
	"MsgAttributeNone":         checkout.MsgAttributeNone,
	"MsgDeliveryInvalid":       checkout.MsgDeliveryInvalid,
	"MsgCountry":               checkout.MsgCountry,
	"MsgPaymentStarting":       checkout.MsgPaymentStarting,
	"MsgOrderNotFound":         checkout.MsgOrderNotFound,
	"MsgProductUnavailable":    fmt.Sprintf(checkout.MsgProductUnavailable, 3),
	"MsgStockShort":            fmt.Sprintf(checkout.MsgStockShort, 3, 17),
	"MsgCartChanged":           checkout.MsgCartChanged,
	"MsgOutOfStock":            checkout.MsgOutOfStock,
	"MsgMaxQuantity":           fmt.Sprintf(checkout.MsgMaxQuantity, cart.MaxCartQuantity),
}

// backendMessages are the checkout's refusals of the orders' backend,
// which no funnel page shows.
var backendMessages = []string{"MsgRefundUnpaid", "MsgRefundNoCard", "MsgRefundTooMuch", "MsgRefundPositive"}

// The other refusals a funnel page may show: the field rules' and the
// payment hub's.
var sharedFunnelMessages = []string{
	domain.MsgRequired, domain.MsgBlank, domain.MsgNull, domain.MsgEmail, domain.MsgInteger, domain.MsgNullCharacters,
	fmt.Sprintf(domain.MsgMaxLength, 100), fmt.Sprintf(domain.MsgTooManyElements, cart.MaxCartItems), domain.MsgMinZero,
	payments.MsgPartnerCannotTakePayments, payments.MsgCheckoutProviderFailure,
}

// Every exported Msg constant of domain/checkout is either listed above
// or a backend's, so a new refusal cannot reach the pages untranslated.
func TestFunnelMessagesListed(t *testing.T) {
	files, err := filepath.Glob("../domain/checkout/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no checkout sources: %v", err)
	}
	backend := map[string]bool{}
	for _, name := range backendMessages {
		backend[name] = true
	}
	fset := token.NewFileSet()
	found := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				for _, n := range spec.(*ast.ValueSpec).Names {
					if !strings.HasPrefix(n.Name, "Msg") || !n.IsExported() {
						continue
					}
					found++
					if _, ok := checkoutMessages[n.Name]; !ok && !backend[n.Name] {
						t.Errorf("checkout.%s (%s) is not in checkoutMessages: give it its words in funnel_messages.go", n.Name, filepath.Base(path))
					}
				}
			}
		}
	}
	if found != len(checkoutMessages)+len(backendMessages) {
		t.Errorf("%d Msg constants in domain/checkout, %d listed", found, len(checkoutMessages)+len(backendMessages))
	}
}

// Every refusal has its words in every language but English, the values
// of its message in place.
func TestFunnelMessagesTranslated(t *testing.T) {
	msgs := append([]string{}, sharedFunnelMessages...)
	for _, m := range checkoutMessages {
		msgs = append(msgs, m)
	}
	// The values, in order, whatever the separators of an amount.
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return r
			}
			return -1
		}, s)
	}
	for _, msg := range msgs {
		for _, l := range funnelLanguages {
			got := refusal(l.Code, msg)
			switch {
			case got == "" || strings.ContainsAny(got, "{}%"):
				t.Errorf("%s: %q is %q", l.Code, msg, got)
			case l.Code != "en" && got == msg:
				t.Errorf("%s: %q has no words", l.Code, msg)
			case digits(got) != digits(msg):
				t.Errorf("%s: %q gives %q: not its values", l.Code, msg, got)
			}
		}
	}
	// A message the pages do not know is shown as the service words it.
	if got := refusal("fr", "Something new."); got != "Something new." {
		t.Errorf("unknown message: %q", got)
	}
	// The values in place, an amount written as the page writes amounts.
	minimum := fmt.Sprintf(checkout.MsgCouponMinimum, "30.00 EUR")
	for _, c := range []struct{ lang, msg, want string }{
		{"fr", fmt.Sprintf(checkout.MsgStockShort, 2, 5), "Ligne 2 : plus que 5 en stock."},
		{"fr", minimum, "Ce code promo s'applique à partir de 30,00\u00a0€."},
		{"en", minimum, "This coupon applies from €30.00."},
		{"fr", fmt.Sprintf(domain.MsgMaxLength, 64), "Ce champ ne doit pas dépasser 64 caractères."},
		{"en", fmt.Sprintf(domain.MsgMaxLength, 64), fmt.Sprintf(domain.MsgMaxLength, 64)},
		{"fr", checkout.MsgCouponProducts, "Ce code promo ne s'applique pas à ces produits."},
		{"en", domain.MsgInteger, "Enter a whole number."},
	} {
		if got := refusal(c.lang, c.msg); got != c.want {
			t.Errorf("%s: %q is %q, want %q", c.lang, c.msg, got, c.want)
		}
	}
}
