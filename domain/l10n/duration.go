package l10n

import (
	"strings"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Duration formats d in words with CLDR's long unit patterns joined by its
// "unit" list pattern, as Intl.DurationFormat's "long" style does: fr
// "2 heures et 30 minutes", en "2 hours, 30 minutes", de "2 Stunden, 30 Minuten".
// It counts whole days, hours and minutes (seconds are dropped, a negative d
// is zero), leaves out the zero ones, and writes less than a minute as zero
// minutes in the language's plural (fr "0 minute", en "0 minutes").
func Duration(d time.Duration) Localized { return durations(d, "long") }

// DurationShort is Duration with CLDR's short unit patterns and short "unit"
// list pattern (Intl.DurationFormat's "short" style): fr "2 h et 30 min",
// en "2 hr, 30 min", de "2 Std., 30 Min.".
func DurationShort(d time.Duration) Localized { return durations(d, "short") }

func durations(d time.Duration, width string) Localized {
	minutes := int64(max(d, 0) / time.Minute)
	counts := []struct {
		unit string
		n    int64
	}{
		{"day", minutes / (24 * 60)},
		{"hour", minutes / 60 % 24},
		{"minute", minutes % 60},
	}
	return each(func(lang string) string {
		l := locales[lang]
		var parts []string
		for _, c := range counts {
			if c.n > 0 {
				parts = append(parts, l.unit(lang, width, c.unit, c.n))
			}
		}
		if len(parts) == 0 {
			parts = append(parts, l.unit(lang, width, "minute", 0))
		}
		return l.list(width, parts)
	})
}

// unit writes n of unit with the pattern of n's CLDR plural category, or
// "other" when the locale has no pattern of its own for that category.
func (l *locale) unit(lang, width, unit string, n int64) string {
	patterns := l.Units[width][unit]
	p, ok := patterns[pluralCategory(lang, n)]
	if !ok {
		p = patterns["other"]
	}
	return strings.Replace(p, "{0}", formatCount(lang, n), 1)
}

// pluralCategory is the CLDR cardinal plural category of the whole number n
// in lang ("one" for 0 and 1 in French, for 1 only in English).
func pluralCategory(lang string, n int64) string {
	switch plural.Cardinal.MatchPlural(language.Make(cldrLocale(lang)), int(n), 0, 0, 0, 0) {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}

// list joins parts with the CLDR list patterns of width: "2" for two items,
// else "start", "middle"… and "end" (UTS #35, "List Patterns").
func (l *locale) list(width string, parts []string) string {
	p := l.Lists[width]
	join := func(pattern, first, rest string) string {
		return strings.NewReplacer("{0}", first, "{1}", rest).Replace(pattern)
	}
	n := len(parts)
	switch n {
	case 1:
		return parts[0]
	case 2:
		return join(p["2"], parts[0], parts[1])
	}
	s := join(p["end"], parts[n-2], parts[n-1])
	for i := n - 3; i > 0; i-- {
		s = join(p["middle"], parts[i], s)
	}
	return join(p["start"], parts[0], s)
}
