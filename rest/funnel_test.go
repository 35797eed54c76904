package rest

import (
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
)

// Every language of the switcher has every text of the pages, with the
// same placeholders as English.
func TestFunnelTextsComplete(t *testing.T) {
	if len(funnelTextsByLang) != len(funnelLanguages) {
		t.Errorf("%d languages of texts, %d in the switcher", len(funnelTextsByLang), len(funnelLanguages))
	}
	en := reflect.ValueOf(*funnelTextsByLang["en"])
	for _, l := range funnelLanguages {
		texts, ok := funnelTextsByLang[l.Code]
		if !ok {
			t.Errorf("%s: no texts", l.Code)
			continue
		}
		v := reflect.ValueOf(*texts)
		for i := range v.NumField() {
			name, s := v.Type().Field(i).Name, v.Field(i).String()
			if s == "" {
				t.Errorf("%s: %s is empty", l.Code, name)
			}
			for _, ph := range []string{"{n}", "{days}", "{address}", "{amount}"} {
				if strings.Contains(en.Field(i).String(), ph) != strings.Contains(s, ph) {
					t.Errorf("%s: %s %q lacks or adds %s", l.Code, name, s, ph)
				}
			}
		}
	}
}

// The customization form maps onto the service's input by line index,
// its refusals named by the line's position in the input as the service's
// are, and back onto the form's fields.
func TestDecodeFunnelCustomization(t *testing.T) {
	form := url.Values{
		"lines.3.quantity": {" 2 "}, "lines.3.variant_id": {"17"}, "lines.3.attribute_values.5": {"red"},
		"lines.0.quantity": {"two"}, "lines.0.variant_id": {""},
		"lines.x.quantity": {"1"}, "lines.1000.quantity": {"1"}, "delivery_mode": {"postal"}, "csrf_token": {"t"},
	}
	in := decodeFunnelCustomization(form)
	if len(in.Lines) != 2 || in.Lines[0].Index != 0 || in.Lines[1].Index != 3 {
		t.Fatalf("lines %+v", in.Lines)
	}
	if q, ok := in.Lines[1].Quantity.Get(); !ok || q != 2 {
		t.Errorf("quantity %+v", in.Lines[1].Quantity)
	}
	if v, ok := in.Lines[1].VariantID.Get(); !ok || v != 17 || in.Lines[1].AttributeValues[5] != "red" {
		t.Errorf("line 3 %+v", in.Lines[1])
	}
	if in.Lines[0].Quantity.Set || in.Lines[0].VariantID.Set || in.Lines[0].AttributeValues != nil {
		t.Errorf("line 0 %+v", in.Lines[0])
	}
	if m, ok := in.DeliveryMode.Get(); !ok || m != "postal" {
		t.Errorf("delivery_mode %+v", in.DeliveryMode)
	}
	if len(in.Fields) != 1 || domain.PathKey(in.Fields[0].Path) != "lines.0.quantity" || in.Fields[0].Message != domain.MsgInteger {
		t.Errorf("refusals %+v", in.Fields)
	}
	// The service names the second input line "lines.1": the form's line 3.
	if got := customizationField(in, []any{"lines", 1, "attribute_values", int64(5)}); got != "lines.3.attribute_values.5" {
		t.Errorf("field %q", got)
	}
	if got := customizationField(in, []any{"delivery_mode"}); got != "" {
		t.Errorf("field %q", got)
	}
}

// A field the form did not show is absent from the input: the
// information step's address is asked only in postal mode.
func TestDecodeFunnelInformation(t *testing.T) {
	in := decodeFunnelInformation(url.Values{"first_name": {" Ada "}, "email": {"ada@example.com"}, "beneficiary_email": {""}})
	if in.FirstName.Value != "Ada" || !in.Email.Set || in.Street.Set || !in.BeneficiaryMail.Set {
		t.Errorf("%+v", in)
	}
	codes := decodeFunnelCodes(url.Values{"coupon": {""}})
	if !codes.Coupon.Set || codes.Giftcard.Set {
		t.Errorf("%+v", codes)
	}
}

// The shop's return_url keeps its query; the reference is added.
func TestWithOrderReference(t *testing.T) {
	for in, want := range map[string]string{
		"https://shop.example.com/thanks":             "https://shop.example.com/thanks?order_reference=R+1%2F2",
		"https://shop.example.com/thanks?b=2&a=x%20y": "https://shop.example.com/thanks?b=2&a=x%20y&order_reference=R+1%2F2",
		"https://shop.example.com/t?x=1#done":         "https://shop.example.com/t?x=1&order_reference=R+1%2F2#done",
		"":                                            "",
		"javascript:alert(1)":                         "",
	} {
		if got := withOrderReference(in, "R 1/2"); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// The language: ?lang= (then its cookie), else Accept-Language, else
// English.
func TestFunnelLanguage(t *testing.T) {
	for _, c := range []struct {
		query, cookie, accept, want string
	}{
		{"de", "", "fr", "de"},
		{"xx", "it", "fr", "it"},
		{"", "", "pt-BR,pt;q=0.9,en;q=0.5", "pt"},
		{"", "", "ja, nl;q=0.3", "nl"},
		{"", "", "ja", "en"},
		{"", "", "", "en"},
		{"", "", "ca-ES", "ca"},
	} {
		r := httptest.NewRequest("GET", "/ecommerce/shop/customization/?lang="+c.query, nil)
		if c.cookie != "" {
			r.Header.Set("Cookie", funnelLangCookie+"="+c.cookie)
		}
		if c.accept != "" {
			r.Header.Set("Accept-Language", c.accept)
		}
		w := httptest.NewRecorder()
		if got := funnelLanguage(w, r); got != c.want {
			t.Errorf("%+v: %s", c, got)
		}
		if set := w.Header().Get("Set-Cookie"); (c.query == c.want) != (set != "") {
			t.Errorf("%+v: Set-Cookie %q", c, set)
		}
	}
}

// An error of a field the page shows is beside it; one of no field shown
// (a line gone meanwhile) is said above the form.
func TestFunnelCustomizationErrors(t *testing.T) {
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "http://shop.example.com/ecommerce/shop/customization/?cart=x", nil)
	fr := &funnelRequest{w: w, r: r, lang: "en", t: funnelTextsOf("en")}
	b := &checkout.Basket{Lines: []*checkout.Line{{Index: 0, ProductID: 7, Quantity: 2}}, Totals: checkout.Totals{Currency: "EUR"}}
	fr.customizationPage(400, b, url.Values{"lines.0.quantity": {"-1"}},
		map[string]string{"lines.0.quantity": "Too few.", "lines.4.index": "This cart has no such line."}, "Fix.")
	body := w.Body.String()
	for _, want := range []string{`<p class="notice" role="alert" id="message">Fix. This cart has no such line.</p>`,
		`value="-1"`, `<span class="error" id="f-lines-0-quantity-error">Too few.</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
