package notify

import (
	"fmt"
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain/l10n"
)

// Kinds of the network giftcard usage notifications.
const (
	KindUsageMarketplace = "network_giftcard_usage_marketplace"
	KindUsageBeneficiary = "network_giftcard_usage_beneficiary"
)

// UsageNotification is what the mails about a use of a network giftcard
// say: one to the card's marketplace, one to its beneficiary.
type UsageNotification struct {
	// Language is the card's; a language the service does not have is
	// written in English.
	Language         string
	MarketplaceName  string
	MarketplaceEmail string // empty: no mail to the marketplace
	PartnerName      string // where the card was used
	BeneficiaryEmail string // empty: no mail to the beneficiary
	CardCode         string
	Value            decimal.Decimal // this use
	RemainingValue   decimal.Decimal // on the card after it
	Currency         string          // ISO 4217
	// Date is the use's, written as the date it is in its own location:
	// give it in the marketplace's time zone.
	Date time.Time
	// Comment is the use's note, shown to the marketplace only: it is
	// written by the partner or the marketplace, for themselves.
	Comment string
}

// UsageMails renders the notification of a use: to the marketplace (the
// card's last four characters only: a mail is forwarded and kept in shared
// inboxes, and the marketplace has the whole code in its dashboard), and to
// the beneficiary (the whole code: it is their card), each in the card's
// language, for the recipients that have an address.
func UsageMails(n UsageNotification) ([]Mail, error) {
	lang := n.Language
	if !slices.Contains(l10n.Languages, lang) {
		lang = "en"
	}
	data := usageData{
		Marketplace: oneLine(n.MarketplaceName),
		Partner:     oneLine(n.PartnerName),
		Value:       l10n.MoneyWriter(n.Value, n.Currency)(lang),
		Remaining:   l10n.MoneyWriter(n.RemainingValue, n.Currency)(lang),
		Date:        l10n.Date(n.Date, n.Date.Location())[lang],
		Comment:     strings.TrimSpace(n.Comment),
	}
	var mails []Mail
	for _, to := range []struct {
		kind, address, code string
		tmpl                mailTemplates
	}{
		{KindUsageMarketplace, n.MarketplaceEmail, lastFour(oneLine(n.CardCode)), usageMarketplace[lang]},
		{KindUsageBeneficiary, n.BeneficiaryEmail, oneLine(n.CardCode), usageBeneficiary[lang]},
	} {
		if to.address == "" {
			continue
		}
		data.Code = to.code
		m, err := to.tmpl.render(to.kind, to.address, lang, data)
		if err != nil {
			return nil, err
		}
		mails = append(mails, m)
	}
	return mails, nil
}

// usageData is what the usage templates read.
type usageData struct {
	Marketplace, Partner, Code, Value, Remaining, Date, Comment string
}

// oneLine keeps a name on one line (a subject is one header line).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// lastFour masks a card code but for its last four characters; a code of
// fewer than eight is masked whole, since four would give away half of it.
func lastFour(code string) string {
	r := []rune(code)
	if len(r) < 8 {
		return "••••"
	}
	return "…" + string(r[len(r)-4:])
}

// mailTemplates are a mail's subject and text in one language.
type mailTemplates struct{ subject, text *template.Template }

func (t mailTemplates) render(kind, to, lang string, data any) (Mail, error) {
	var subject, text strings.Builder
	if err := t.subject.Execute(&subject, data); err != nil {
		return Mail{}, fmt.Errorf("notify: %s subject: %w", kind, err)
	}
	if err := t.text.Execute(&text, data); err != nil {
		return Mail{}, fmt.Errorf("notify: %s text: %w", kind, err)
	}
	m := Mail{Kind: kind, To: to, Subject: subject.String(), Text: text.String(), Language: lang}
	return m, m.Validate()
}

// templates parses a text per language: subjects[lang] and texts[lang],
// which every language has.
func templates(name string, subjects, texts map[string]string) map[string]mailTemplates {
	out := make(map[string]mailTemplates, len(subjects))
	for _, lang := range l10n.Languages {
		if subjects[lang] == "" || texts[lang] == "" {
			panic("notify: " + name + " has no text in " + lang)
		}
		out[lang] = mailTemplates{
			subject: template.Must(template.New(name + "_subject_" + lang).Parse(subjects[lang])),
			text:    template.Must(template.New(name + "_text_" + lang).Parse(texts[lang])),
		}
	}
	return out
}

// The usage mails' texts. French puts a no-break space before a colon.
var usageMarketplace = templates("usage_marketplace", map[string]string{
	"en": "Giftcard {{.Code}} used at {{.Partner}}",
	"fr": "Carte cadeau {{.Code}} utilisée chez {{.Partner}}",
	"es": "Tarjeta regalo {{.Code}} utilizada en {{.Partner}}",
	"it": "Carta regalo {{.Code}} utilizzata presso {{.Partner}}",
	"de": "Geschenkkarte {{.Code}} bei {{.Partner}} eingelöst",
	"nl": "Cadeaukaart {{.Code}} gebruikt bij {{.Partner}}",
	"ca": "Targeta regal {{.Code}} utilitzada a {{.Partner}}",
	"pt": "Cartão-oferta {{.Code}} utilizado em {{.Partner}}",
}, map[string]string{
	"en": "Giftcard {{.Code}} ({{.Marketplace}}) has been used at {{.Partner}}.\n\n" +
		"Amount: {{.Value}}\nDate: {{.Date}}\nRemaining value: {{.Remaining}}\n{{if .Comment}}Comment: {{.Comment}}\n{{end}}",
	"fr": "La carte cadeau {{.Code}} ({{.Marketplace}}) a été utilisée chez {{.Partner}}.\n\n" +
		"Montant\u00a0: {{.Value}}\nDate\u00a0: {{.Date}}\nValeur restante\u00a0: {{.Remaining}}\n{{if .Comment}}Commentaire\u00a0: {{.Comment}}\n{{end}}",
	"es": "La tarjeta regalo {{.Code}} ({{.Marketplace}}) se ha utilizado en {{.Partner}}.\n\n" +
		"Importe: {{.Value}}\nFecha: {{.Date}}\nValor restante: {{.Remaining}}\n{{if .Comment}}Comentario: {{.Comment}}\n{{end}}",
	"it": "La carta regalo {{.Code}} ({{.Marketplace}}) è stata utilizzata presso {{.Partner}}.\n\n" +
		"Importo: {{.Value}}\nData: {{.Date}}\nValore residuo: {{.Remaining}}\n{{if .Comment}}Commento: {{.Comment}}\n{{end}}",
	"de": "Die Geschenkkarte {{.Code}} ({{.Marketplace}}) wurde bei {{.Partner}} eingelöst.\n\n" +
		"Betrag: {{.Value}}\nDatum: {{.Date}}\nRestwert: {{.Remaining}}\n{{if .Comment}}Kommentar: {{.Comment}}\n{{end}}",
	"nl": "Cadeaukaart {{.Code}} ({{.Marketplace}}) is gebruikt bij {{.Partner}}.\n\n" +
		"Bedrag: {{.Value}}\nDatum: {{.Date}}\nResterende waarde: {{.Remaining}}\n{{if .Comment}}Opmerking: {{.Comment}}\n{{end}}",
	"ca": "La targeta regal {{.Code}} ({{.Marketplace}}) s'ha utilitzat a {{.Partner}}.\n\n" +
		"Import: {{.Value}}\nData: {{.Date}}\nValor restant: {{.Remaining}}\n{{if .Comment}}Comentari: {{.Comment}}\n{{end}}",
	"pt": "O cartão-oferta {{.Code}} ({{.Marketplace}}) foi utilizado em {{.Partner}}.\n\n" +
		"Montante: {{.Value}}\nData: {{.Date}}\nValor restante: {{.Remaining}}\n{{if .Comment}}Comentário: {{.Comment}}\n{{end}}",
})

var usageBeneficiary = templates("usage_beneficiary", map[string]string{
	"en": "Your {{.Marketplace}} giftcard has been used",
	"fr": "Votre carte cadeau {{.Marketplace}} a été utilisée",
	"es": "Se ha utilizado tu tarjeta regalo de {{.Marketplace}}",
	"it": "La tua carta regalo {{.Marketplace}} è stata utilizzata",
	"de": "Ihre Geschenkkarte von {{.Marketplace}} wurde eingelöst",
	"nl": "Je cadeaukaart van {{.Marketplace}} is gebruikt",
	"ca": "{{.Marketplace}}: s'ha utilitzat la teva targeta regal",
	"pt": "{{.Marketplace}}: o seu cartão-oferta foi utilizado",
}, map[string]string{
	"en": "Your giftcard {{.Code}} has been used at {{.Partner}}.\n\n" +
		"Amount: {{.Value}}\nDate: {{.Date}}\nRemaining balance: {{.Remaining}}\n\n" +
		"If you do not recognise this use, please contact {{.Marketplace}}.\n",
	"fr": "Votre carte cadeau {{.Code}} a été utilisée chez {{.Partner}}.\n\n" +
		"Montant\u00a0: {{.Value}}\nDate\u00a0: {{.Date}}\nSolde restant\u00a0: {{.Remaining}}\n\n" +
		"Si vous n'êtes pas à l'origine de cette utilisation, contactez {{.Marketplace}}.\n",
	"es": "Tu tarjeta regalo {{.Code}} se ha utilizado en {{.Partner}}.\n\n" +
		"Importe: {{.Value}}\nFecha: {{.Date}}\nSaldo restante: {{.Remaining}}\n\n" +
		"Si no reconoces este uso, ponte en contacto con {{.Marketplace}}.\n",
	"it": "La tua carta regalo {{.Code}} è stata utilizzata presso {{.Partner}}.\n\n" +
		"Importo: {{.Value}}\nData: {{.Date}}\nSaldo residuo: {{.Remaining}}\n\n" +
		"Se non riconosci questo utilizzo, contatta {{.Marketplace}}.\n",
	"de": "Ihre Geschenkkarte {{.Code}} wurde bei {{.Partner}} eingelöst.\n\n" +
		"Betrag: {{.Value}}\nDatum: {{.Date}}\nRestguthaben: {{.Remaining}}\n\n" +
		"Falls Sie diese Einlösung nicht veranlasst haben, wenden Sie sich bitte an {{.Marketplace}}.\n",
	"nl": "Je cadeaukaart {{.Code}} is gebruikt bij {{.Partner}}.\n\n" +
		"Bedrag: {{.Value}}\nDatum: {{.Date}}\nResterend saldo: {{.Remaining}}\n\n" +
		"Herken je dit gebruik niet? Neem dan contact op met {{.Marketplace}}.\n",
	"ca": "La teva targeta regal {{.Code}} s'ha utilitzat a {{.Partner}}.\n\n" +
		"Import: {{.Value}}\nData: {{.Date}}\nSaldo restant: {{.Remaining}}\n\n" +
		"Si no reconeixes aquest ús, posa't en contacte amb {{.Marketplace}}.\n",
	"pt": "O seu cartão-oferta {{.Code}} foi utilizado em {{.Partner}}.\n\n" +
		"Montante: {{.Value}}\nData: {{.Date}}\nSaldo restante: {{.Remaining}}\n\n" +
		"Se não reconhece esta utilização, contacte {{.Marketplace}}.\n",
})
