package notify_test

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain/l10n"
	"salesplatform/domain/notify"
)

func usage(lang string) notify.UsageNotification {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		panic(err)
	}
	return notify.UsageNotification{
		Language:         lang,
		MarketplaceName:  "Marché des Loisirs",
		MarketplaceEmail: "ops@market.example.com",
		PartnerName:      "Château de la Loire",
		BeneficiaryEmail: "Lucía Pérez <lucia@example.com>",
		CardCode:         "NGC-7F3K-9Q2M",
		Value:            decimal.RequireFromString("1234.5"),
		RemainingValue:   decimal.RequireFromString("15"),
		Currency:         "EUR",
		// 23:30 UTC is already the 15th in Paris.
		Date:    time.Date(2026, 3, 14, 23, 30, 0, 0, time.UTC).In(paris),
		Comment: "Dinner for two",
	}
}

func TestUsageMails(t *testing.T) {
	for _, tc := range []struct {
		lang                       string
		marketplace, beneficiary   string // subjects
		marketplaceText, benefText string
	}{
		{
			lang:        "fr",
			marketplace: "Carte cadeau …9Q2M utilisée chez Château de la Loire",
			beneficiary: "Votre carte cadeau Marché des Loisirs a été utilisée",
			marketplaceText: "La carte cadeau …9Q2M (Marché des Loisirs) a été utilisée chez Château de la Loire.\n\n" +
				"Montant\u00a0: 1\u202f234,50\u00a0€\nDate\u00a0: dimanche 15 mars 2026\nValeur restante\u00a0: 15,00\u00a0€\n" +
				"Commentaire\u00a0: Dinner for two\n",
			benefText: "Votre carte cadeau NGC-7F3K-9Q2M a été utilisée chez Château de la Loire.\n\n" +
				"Montant\u00a0: 1\u202f234,50\u00a0€\nDate\u00a0: dimanche 15 mars 2026\nSolde restant\u00a0: 15,00\u00a0€\n\n" +
				"Si vous n'êtes pas à l'origine de cette utilisation, contactez Marché des Loisirs.\n",
		},
		{
			lang:        "de",
			marketplace: "Geschenkkarte …9Q2M bei Château de la Loire eingelöst",
			beneficiary: "Ihre Geschenkkarte von Marché des Loisirs wurde eingelöst",
			marketplaceText: "Die Geschenkkarte …9Q2M (Marché des Loisirs) wurde bei Château de la Loire eingelöst.\n\n" +
				"Betrag: 1.234,50\u00a0€\nDatum: Sonntag, 15. März 2026\nRestwert: 15,00\u00a0€\nKommentar: Dinner for two\n",
			benefText: "Ihre Geschenkkarte NGC-7F3K-9Q2M wurde bei Château de la Loire eingelöst.\n\n" +
				"Betrag: 1.234,50\u00a0€\nDatum: Sonntag, 15. März 2026\nRestguthaben: 15,00\u00a0€\n\n" +
				"Falls Sie diese Einlösung nicht veranlasst haben, wenden Sie sich bitte an Marché des Loisirs.\n",
		},
		{
			lang:        "en",
			marketplace: "Giftcard …9Q2M used at Château de la Loire",
			beneficiary: "Your Marché des Loisirs giftcard has been used",
			marketplaceText: "Giftcard …9Q2M (Marché des Loisirs) has been used at Château de la Loire.\n\n" +
				"Amount: €1,234.50\nDate: Sunday, March 15, 2026\nRemaining value: €15.00\nComment: Dinner for two\n",
			benefText: "Your giftcard NGC-7F3K-9Q2M has been used at Château de la Loire.\n\n" +
				"Amount: €1,234.50\nDate: Sunday, March 15, 2026\nRemaining balance: €15.00\n\n" +
				"If you do not recognise this use, please contact Marché des Loisirs.\n",
		},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			mails, err := notify.UsageMails(usage(tc.lang))
			if err != nil {
				t.Fatal(err)
			}
			if len(mails) != 2 {
				t.Fatalf("%d mails, want 2: %+v", len(mails), mails)
			}
			want := []notify.Mail{
				{Kind: notify.KindUsageMarketplace, To: "ops@market.example.com", Subject: tc.marketplace, Text: tc.marketplaceText, Language: tc.lang},
				{Kind: notify.KindUsageBeneficiary, To: "Lucía Pérez <lucia@example.com>", Subject: tc.beneficiary, Text: tc.benefText, Language: tc.lang},
			}
			for i := range want {
				if mails[i] != want[i] {
					t.Errorf("mail %d:\n got %+q\nwant %+q", i, mails[i], want[i])
				}
			}
		})
	}
}

func TestUsageMailsEveryLanguage(t *testing.T) {
	for _, lang := range l10n.Languages {
		mails, err := notify.UsageMails(usage(lang))
		if err != nil || len(mails) != 2 {
			t.Fatalf("%s: %d mails, %v", lang, len(mails), err)
		}
		money := l10n.MoneyWriter(decimal.RequireFromString("1234.5"), "EUR")(lang)
		for _, m := range mails {
			if m.Language != lang || !strings.Contains(m.Text, money) || !strings.Contains(m.Text, "Château de la Loire") {
				t.Errorf("%s %s: %+q, want the amount %q and the partner", lang, m.Kind, m, money)
			}
			if strings.Contains(m.Text, "<no value>") || strings.Contains(m.Subject, "{{") {
				t.Errorf("%s %s: a field is missing: %+q", lang, m.Kind, m)
			}
		}
		if strings.Contains(mails[0].Text+mails[0].Subject, "NGC-7F3K") || !strings.Contains(mails[1].Text, "NGC-7F3K-9Q2M") {
			t.Errorf("%s: the marketplace's mail must show the code's last four only, the beneficiary's the whole code", lang)
		}
		if !strings.Contains(mails[0].Text, "Dinner for two") || strings.Contains(mails[1].Text, "Dinner for two") {
			t.Errorf("%s: the comment is for the marketplace only", lang)
		}
	}
}

func TestUsageMailsFallbackAndRecipients(t *testing.T) {
	n := usage("sv")
	n.BeneficiaryEmail = ""
	n.Comment = ""
	n.CardCode = "AB12"
	n.PartnerName = "Spa\r\nBcc: victim@example.com"
	mails, err := notify.UsageMails(n)
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) != 1 || mails[0].Kind != notify.KindUsageMarketplace {
		t.Fatalf("without the beneficiary's address: %+v, want the marketplace's mail alone", mails)
	}
	m := mails[0]
	if m.Language != "en" || m.Subject != "Giftcard •••• used at Spa Bcc: victim@example.com" {
		t.Errorf("unknown language, short code, name on two lines: %+q", m)
	}
	if strings.Contains(m.Text, "Comment") {
		t.Errorf("no comment, yet: %q", m.Text)
	}
}

func TestMailValidate(t *testing.T) {
	ok := notify.Mail{Kind: "test_mail", To: "a@example.com", Subject: "Hi", Text: "Body", Language: "fr"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		change func(*notify.Mail)
		want   string
	}{
		"Kind":         {func(m *notify.Mail) { m.Kind = "Bad Kind" }, "kind"},
		"NoRecipient":  {func(m *notify.Mail) { m.To = "" }, "recipient"},
		"TwoAddresses": {func(m *notify.Mail) { m.To = "a@example.com, b@example.com" }, "recipient"},
		"NoSubject":    {func(m *notify.Mail) { m.Subject = " " }, "no subject"},
		"SubjectLines": {func(m *notify.Mail) { m.Subject = "Hi\r\nBcc: x@example.com" }, "one line"},
		"LongSubject":  {func(m *notify.Mail) { m.Subject = strings.Repeat("é", notify.MaxSubjectRunes+1) }, "longer"},
		"NoText":       {func(m *notify.Mail) { m.Text = "" }, "no text"},
		"LargeBody":    {func(m *notify.Mail) { m.HTML = strings.Repeat("x", notify.MaxBodyBytes) }, "larger"},
		"NotUTF8":      {func(m *notify.Mail) { m.Text = "\xff" }, "UTF-8"},
		"Language":     {func(m *notify.Mail) { m.Language = "sv" }, "language"},
	} {
		t.Run(name, func(t *testing.T) {
			m := ok
			tc.change(&m)
			if err := m.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error about %q", err, tc.want)
			}
		})
	}
}
