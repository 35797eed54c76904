// Package l10n writes the human-readable "*_formatted" companions that the
// public catalogue API returns beside money amounts, date-times and durations,
// once per language of the service.
//
// Every format, name and separator comes from the Unicode CLDR (version 48),
// never from a table written here:
//
//   - Money: github.com/bojanz/currency, a CLDR 48 currency formatter (symbols,
//     patterns, grouping, fraction digits). One documented divergence of that
//     library: a locale whose CLDR symbol is the ISO code while English has a
//     real symbol gets the English symbol (USD is "$" in it and ca, where
//     CLDR says "USD").
//   - Dates, times, duration units and the lists joining them: the CLDR JSON
//     packages cldr-dates-full, cldr-units-full and cldr-misc-full 48.2.0 (npm),
//     from which internal/cldrgen extracts the few values used for the eight
//     languages into cldr/l10n.json, embedded in the binary; cldr/LICENSE is the
//     Unicode licence they are published under. Regenerate with
//     `go generate ./domain/l10n/` (needs npm).
//   - Plural categories ("1 heure", "2 heures"): golang.org/x/text/feature/plural,
//     CLDR's plural rules.
//
// Why vendor date data rather than use github.com/go-playground/locales: that
// library is generated from CLDR 36 (2019), prints midnight as "0:30 am" in
// English (its issue #41, still open), uses the "am"/"pm" variant where CLDR
// says "AM"/"PM", and has no date-time glue ("{1} 'à' {0}"). No maintained Go
// library carries CLDR unit patterns. So dates and durations read CLDR JSON
// directly, and this package only interprets the handful of CLDR pattern
// fields these locales use (checked when the data is loaded).
//
// CLDR's spaces are kept: U+00A0 (no-break space) and U+202F (narrow no-break
// space) appear in French amounts, English times ("6:30\u202fPM") and units.
//
// "pt" is European Portuguese (CLDR "pt-PT"): the platform sells in Europe,
// and CLDR's plain "pt" is Brazilian.
package l10n

import (
	"strconv"
	"strings"

	"github.com/bojanz/currency"
	"github.com/shopspring/decimal"
)

//go:generate go run ./internal/cldrgen -out cldr

// cldrLocale is the CLDR locale of a service language.
func cldrLocale(lang string) string {
	if lang == "pt" {
		return "pt-PT"
	}
	return lang
}

// Languages are the service's languages, in the order the API lists them.
var Languages = []string{"fr", "en", "es", "it", "de", "nl", "ca", "pt"}

// Localized holds one text per language code; a language without text is absent.
type Localized map[string]string

// each returns the text f gives for every language.
func each(f func(lang string) string) Localized {
	out := make(Localized, len(Languages))
	for _, lang := range Languages {
		out[lang] = f(lang)
	}
	return out
}

// CurrencySymbol is the currency's symbol as CLDR writes it in English ("€",
// "$", "£"), the code itself when CLDR has none.
func CurrencySymbol(code string) string {
	if s, ok := currency.GetSymbol(code, currency.NewLocale("en")); ok {
		return s
	}
	return code
}

// Money formats an amount of a currency (ISO 4217 code, e.g. "EUR") in every
// language, rounded half up to the currency's fraction digits: fr "12,50 €",
// en "€12.50", nl "€ 12,50". A code the library does not know is written
// where the locale puts a currency code: fr "12,50 XBT", en "XBT 12.50".
func Money(amount decimal.Decimal, code string) Localized {
	return each(MoneyWriter(amount, code))
}

// MoneyWriter returns Money's writer of one language: what it writes for
// lang, for a reader that asks for one or two languages rather than all.
func MoneyWriter(amount decimal.Decimal, code string) func(lang string) string {
	code = strings.ToUpper(strings.TrimSpace(code))
	known := code != "" && currency.IsValid(code)
	stand := code
	if !known {
		// Format as a known two-digit currency shown by its code, then put
		// the unknown code in its place.
		stand = "EUR"
	}
	a, err := currency.NewAmount(amount.String(), stand)
	if err != nil { // cannot happen: decimal.String is a valid number
		panic(err)
	}
	digits, _ := currency.GetDigits(stand)
	return func(lang string) string {
		f := currency.NewFormatter(currency.NewLocale(cldrLocale(lang)))
		f.MaxDigits = digits
		if known {
			return f.Format(a)
		}
		if code == "" {
			f.CurrencyDisplay = currency.DisplayNone
			return f.Format(a)
		}
		f.CurrencyDisplay = currency.DisplayCode
		return strings.Replace(f.Format(a), stand, code, 1)
	}
}

// formatCount writes a whole number as lang writes numbers (grouping
// separator and minimum grouping digits from CLDR), through the currency
// formatter with the currency hidden.
func formatCount(lang string, n int64) string {
	a, err := currency.NewAmount(strconv.FormatInt(n, 10), "EUR")
	if err != nil {
		panic(err)
	}
	f := currency.NewFormatter(currency.NewLocale(cldrLocale(lang)))
	f.CurrencyDisplay = currency.DisplayNone
	f.MinDigits = 0
	return f.Format(a)
}
