package checkout

import (
	"fmt"
	"strings"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
	"salesplatform/domain/notify"
)

// confirmationTexts are the order confirmation's subject and opening, by
// language: the shop's name, then the order's reference.
var confirmationTexts = map[string][2]string{
	"en": {"Your order %[2]s at %[1]s", "Thank you for your order at %[1]s. Its reference is %[2]s."},
	"fr": {"Votre commande %[2]s chez %[1]s", "Merci pour votre commande chez %[1]s. Sa référence est %[2]s."},
	"es": {"Su pedido %[2]s en %[1]s", "Gracias por su pedido en %[1]s. Su referencia es %[2]s."},
	"it": {"Il tuo ordine %[2]s presso %[1]s", "Grazie per il tuo ordine presso %[1]s. Il suo riferimento è %[2]s."},
	"de": {"Ihre Bestellung %[2]s bei %[1]s", "Vielen Dank für Ihre Bestellung bei %[1]s. Ihre Referenz lautet %[2]s."},
	"nl": {"Uw bestelling %[2]s bij %[1]s", "Bedankt voor uw bestelling bij %[1]s. De referentie is %[2]s."},
	"ca": {"La vostra comanda %[2]s a %[1]s", "Gràcies per la vostra comanda a %[1]s. La referència és %[2]s."},
	"pt": {"A sua encomenda %[2]s em %[1]s", "Obrigado pela sua encomenda em %[1]s. A referência é %[2]s."},
}

// totalLabels name the amount paid, by language.
var totalLabels = map[string]string{"en": "Total", "fr": "Total", "es": "Total", "it": "Totale", "de": "Gesamt",
	"nl": "Totaal", "ca": "Total", "pt": "Total"}

// confirmationMail is the buyer's mail of a paid order, in their
// language: the reference, the lines and the total.
func confirmationMail(o *Order, shop string) notify.Mail {
	lang := o.Buyer.Language
	if !domain.IsLanguage(lang) {
		lang = "en"
	}
	t := confirmationTexts[lang]
	shop = strings.Join(strings.Fields(shop), " ") // one line
	var b strings.Builder
	fmt.Fprintf(&b, t[1]+"\n\n", shop, o.Reference)
	for _, l := range o.Lines {
		fmt.Fprintf(&b, "%d × %s: %s\n", l.Quantity, l.Name, l10n.MoneyWriter(l.Total, o.Currency)(lang))
	}
	fmt.Fprintf(&b, "\n%s: %s\n", totalLabels[lang], l10n.MoneyWriter(o.Total, o.Currency)(lang))
	return notify.Mail{Kind: "ecommerce_order_confirmation", To: o.Buyer.Email, Language: lang,
		Subject: fmt.Sprintf(t[0], shop, o.Reference), Text: b.String()}
}
