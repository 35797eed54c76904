package l10n_test

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain/l10n"
)

// The expectations are the outputs of the pinned libraries and CLDR 48 data;
// they were checked against ICU 78 (CLDR 48) through Node's Intl, which agrees
// on every one except where noted. Invisible spaces are written as escapes:
// \u00a0 is CLDR's no-break space, \u202f its narrow no-break space.

func TestLanguages(t *testing.T) {
	want := []string{"fr", "en", "es", "it", "de", "nl", "ca", "pt"}
	if !slices.Equal(l10n.Languages, want) {
		t.Fatalf("Languages = %q, want %q", l10n.Languages, want)
	}
}

func TestMoney(t *testing.T) {
	tests := []struct {
		amount, currency string
		want             l10n.Localized
	}{
		{"12.50", "EUR", l10n.Localized{
			"fr": "12,50\u00a0€",
			"en": "€12.50",
			"es": "12,50\u00a0€",
			"it": "12,50\u00a0€",
			"de": "12,50\u00a0€",
			"nl": "€\u00a012,50",
			"ca": "12,50\u00a0€",
			"pt": "12,50\u00a0€", // European Portuguese (CLDR pt-PT)
		}},
		{"1234.5", "EUR", l10n.Localized{
			"fr": "1\u202f234,50\u00a0€",
			"en": "€1,234.50",
			"es": "1234,50\u00a0€", // CLDR: es and it group from five digits
			"it": "1234,50\u00a0€",
			"de": "1.234,50\u00a0€",
			"nl": "€\u00a01.234,50",
			"ca": "1.234,50\u00a0€",
			"pt": "1234,50\u00a0€", // pt-PT groups from five digits
		}},
		{"0", "EUR", l10n.Localized{
			"fr": "0,00\u00a0€",
			"en": "€0.00",
			"es": "0,00\u00a0€",
			"it": "0,00\u00a0€",
			"de": "0,00\u00a0€",
			"nl": "€\u00a00,00",
			"ca": "0,00\u00a0€",
			"pt": "0,00\u00a0€",
		}},
		{"9.99", "USD", l10n.Localized{
			"fr": "9,99\u00a0$US",
			"en": "$9.99",
			"es": "9,99\u00a0US$",
			"it": "9,99\u00a0$", // CLDR (and ICU) say "9,99\u00a0USD": bojanz/currency's documented choice
			"de": "9,99\u00a0$",
			"nl": "US$\u00a09,99",
			"ca": "9,99\u00a0$", // likewise "9,99\u00a0USD" in CLDR
			"pt": "9,99\u00a0US$",
		}},
		{"12.505", "EUR", l10n.Localized{ // rounded half up to the currency's digits
			"fr": "12,51\u00a0€",
			"en": "€12.51",
			"es": "12,51\u00a0€",
			"it": "12,51\u00a0€",
			"de": "12,51\u00a0€",
			"nl": "€\u00a012,51",
			"ca": "12,51\u00a0€",
			"pt": "12,51\u00a0€",
		}},
		{"12.5", "xbt", l10n.Localized{ // unknown code: number and code
			"fr": "12,50\u00a0XBT",
			"en": "XBT\u00a012.50",
			"es": "12,50\u00a0XBT",
			"it": "12,50\u00a0XBT",
			"de": "12,50\u00a0XBT",
			"nl": "XBT\u00a012,50",
			"ca": "12,50\u00a0XBT",
			"pt": "12,50\u00a0XBT",
		}},
	}
	for _, tt := range tests {
		got := l10n.Money(decimal.RequireFromString(tt.amount), tt.currency)
		check(t, "Money("+tt.amount+", "+tt.currency+")", got, tt.want)
	}
}

func TestDateTime(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	event := time.Date(2026, 3, 14, 17, 30, 0, 0, time.UTC) // 18:30 in Paris

	check(t, "DateTime", l10n.DateTime(event, paris), l10n.Localized{
		"fr": "samedi 14 mars 2026 à 18:30",
		"en": "Saturday, March 14, 2026 at 6:30\u202fPM", // Node prints a plain space: V8 replaces CLDR's U+202F
		"es": "sábado, 14 de marzo de 2026, 18:30",
		"it": "sabato 14 marzo 2026 alle ore 18:30",
		"de": "Samstag, 14. März 2026 um 18:30",
		"nl": "zaterdag 14 maart 2026 om 18:30",
		"ca": "dissabte, 14 de març del 2026, a les 18:30",
		"pt": "sábado, 14 de março de 2026 às 18:30",
	})

	midnight := time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC)
	check(t, "DateTime at midnight, nil location", l10n.DateTime(midnight, nil), l10n.Localized{
		"fr": "jeudi 1 janvier 2026 à 00:05",
		"en": "Thursday, January 1, 2026 at 12:05\u202fAM",
		"es": "jueves, 1 de enero de 2026, 0:05",
		"it": "giovedì 1 gennaio 2026 alle ore 00:05",
		"de": "Donnerstag, 1. Januar 2026 um 00:05",
		"nl": "donderdag 1 januari 2026 om 00:05",
		"ca": "dijous, 1 de gener del 2026, a les 0:05",
		"pt": "quinta-feira, 1 de janeiro de 2026 às 00:05",
	})
}

func TestDate(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	check(t, "Date", l10n.Date(time.Date(2026, 3, 14, 17, 30, 0, 0, time.UTC), paris), l10n.Localized{
		"fr": "samedi 14 mars 2026",
		"en": "Saturday, March 14, 2026",
		"es": "sábado, 14 de marzo de 2026",
		"it": "sabato 14 marzo 2026",
		"de": "Samstag, 14. März 2026",
		"nl": "zaterdag 14 maart 2026",
		"ca": "dissabte, 14 de març del 2026",
		"pt": "sábado, 14 de março de 2026",
	})
	// 23:30 UTC is already the next day in Paris.
	got := l10n.Date(time.Date(2026, 3, 14, 23, 30, 0, 0, time.UTC), paris)
	if got["fr"] != "dimanche 15 mars 2026" {
		t.Errorf("Date in Paris of 23:30 UTC: fr = %+q, want %+q", got["fr"], "dimanche 15 mars 2026")
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want l10n.Localized
	}{
		{2*time.Hour + 30*time.Minute, l10n.Localized{
			"fr": "2\u00a0heures et 30 minutes",
			"en": "2 hours, 30 minutes",
			"es": "2 horas y 30 minutos",
			"it": "2 ore e 30 minuti",
			"de": "2 Stunden, 30 Minuten",
			"nl": "2 uur en 30 minuten",
			"ca": "2 hores i 30 minuts",
			"pt": "2 horas e 30 minutos",
		}},
		{time.Hour, l10n.Localized{
			"fr": "1\u00a0heure",
			"en": "1 hour",
			"es": "1 hora",
			"it": "1 ora",
			"de": "1 Stunde",
			"nl": "1 uur",
			"ca": "1 hora",
			"pt": "1 hora",
		}},
		{90 * time.Minute, l10n.Localized{
			"fr": "1\u00a0heure et 30 minutes",
			"en": "1 hour, 30 minutes",
			"es": "1 hora y 30 minutos",
			"it": "1 ora e 30 minuti",
			"de": "1 Stunde, 30 Minuten",
			"nl": "1 uur en 30 minuten",
			"ca": "1 hora i 30 minuts",
			"pt": "1 hora e 30 minutos",
		}},
		{24*time.Hour + 2*time.Hour, l10n.Localized{
			"fr": "1\u00a0jour et 2\u00a0heures",
			"en": "1 day, 2 hours",
			"es": "1 día y 2 horas",
			"it": "1 giorno e 2 ore",
			"de": "1 Tag, 2 Stunden",
			"nl": "1 dag en 2 uur",
			"ca": "1 dia i 2 hores",
			"pt": "1 dia e 2 horas",
		}},
		{26*time.Hour + 5*time.Minute + 59*time.Second, l10n.Localized{ // three items: start and end patterns
			"fr": "1\u00a0jour, 2\u00a0heures et 5 minutes",
			"en": "1 day, 2 hours, 5 minutes",
			"es": "1 día, 2 horas y 5 minutos",
			"it": "1 giorno, 2 ore e 5 minuti",
			"de": "1 Tag, 2 Stunden und 5 Minuten",
			"nl": "1 dag, 2 uur en 5 minuten",
			"ca": "1 dia, 2 hores i 5 minuts",
			"pt": "1 dia, 2 horas e 5 minutos",
		}},
		{45 * time.Second, l10n.Localized{ // CLDR plural rules: 0 is "one" in fr and pt
			"fr": "0 minute",
			"en": "0 minutes",
			"es": "0 minutos",
			"it": "0 minuti",
			"de": "0 Minuten",
			"nl": "0 minuten",
			"ca": "0 minuts",
			"pt": "0 minutos",
		}},
		{1000 * 24 * time.Hour, l10n.Localized{ // the count is grouped as the language groups numbers
			"fr": "1\u202f000\u00a0jours",
			"en": "1,000 days",
			"es": "1000 días",
			"it": "1000 giorni",
			"de": "1.000 Tage",
			"nl": "1.000 dagen",
			"ca": "1.000 dies",
			"pt": "1000 dias",
		}},
	}
	for _, tt := range tests {
		check(t, "Duration("+tt.d.String()+")", l10n.Duration(tt.d), tt.want)
	}
}

func TestDurationShort(t *testing.T) {
	check(t, "DurationShort(2h30m)", l10n.DurationShort(2*time.Hour+30*time.Minute), l10n.Localized{
		"fr": "2\u202fh et 30\u00a0min",
		"en": "2 hr, 30 min",
		"es": "2 h y 30 min",
		"it": "2 h e 30 min",
		"de": "2 Std., 30 Min.",
		"nl": "2 uur, 30 min",
		"ca": "2 h i 30 min",
		"pt": "2 h e 30 min",
	})
	check(t, "DurationShort(24h1m)", l10n.DurationShort(24*time.Hour+time.Minute), l10n.Localized{
		"fr": "1\u202fj et 1\u00a0min",
		"en": "1 day, 1 min",
		"es": "1 d y 1 min",
		"it": "1 giorno e 1 min",
		"de": "1 Tg., 1 Min.",
		"nl": "1 dag, 1 min",
		"ca": "1 dia i 1 min",
		"pt": "1 dia e 1 min",
	})
}

func TestEveryFunctionGivesEveryLanguage(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 7, 4, 9, 5, 0, 0, time.UTC)
	results := map[string]l10n.Localized{
		"Money EUR":       l10n.Money(decimal.RequireFromString("12.5"), "EUR"),
		"Money negative":  l10n.Money(decimal.RequireFromString("-3"), "GBP"),
		"Money JPY":       l10n.Money(decimal.RequireFromString("1500"), "JPY"),
		"Money unknown":   l10n.Money(decimal.RequireFromString("1"), "ABC"),
		"Money no code":   l10n.Money(decimal.RequireFromString("1"), ""),
		"DateTime":        l10n.DateTime(now, paris),
		"DateTime nil":    l10n.DateTime(now, nil),
		"Date":            l10n.Date(now, paris),
		"Duration":        l10n.Duration(3*time.Hour + 1*time.Minute),
		"Duration zero":   l10n.Duration(0),
		"Duration < 0":    l10n.Duration(-time.Hour),
		"DurationShort":   l10n.DurationShort(49 * time.Hour),
		"DurationShort 0": l10n.DurationShort(0),
	}
	for name, got := range results {
		if len(got) != len(l10n.Languages) {
			t.Errorf("%s: %d languages, want %d: %q", name, len(got), len(l10n.Languages), got)
		}
		for _, lang := range l10n.Languages {
			if got[lang] == "" {
				t.Errorf("%s: no %s text", name, lang)
			}
		}
	}
}

func check(t *testing.T, name string, got, want l10n.Localized) {
	t.Helper()
	for _, lang := range l10n.Languages {
		if got[lang] != want[lang] {
			t.Errorf("%s[%s] = %+q, want %+q", name, lang, got[lang], want[lang])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d languages, want %d", name, len(got), len(want))
	}
}
