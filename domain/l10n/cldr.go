package l10n

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

//go:embed cldr/l10n.json
var cldrJSON []byte

// locale is one language's CLDR data as internal/cldrgen extracts it; see
// Locale there for where each value comes from.
type locale struct {
	DateFull       string                                  `json:"dateFull"`
	TimeShort      string                                  `json:"timeShort"`
	DateTimeAtFull string                                  `json:"dateTimeAtFull"`
	Months         []string                                `json:"months"`
	Days           []string                                `json:"days"`
	DayPeriods     []string                                `json:"dayPeriods"`
	Units          map[string]map[string]map[string]string `json:"units"` // width, unit, plural category
	Lists          map[string]map[string]string            `json:"lists"` // width, part

	dateTime string // DateFull and TimeShort in the DateTimeAtFull glue
}

var locales = load()

// load decodes the embedded data and checks that every pattern uses only the
// fields formatPattern knows, so that a regeneration bringing a new field
// fails every test instead of printing it raw.
func load() map[string]*locale {
	var data struct{ Locales map[string]*locale }
	if err := json.Unmarshal(cldrJSON, &data); err != nil {
		panic("l10n: cldr/l10n.json: " + err.Error())
	}
	sample := time.Date(2026, 12, 31, 0, 5, 0, 0, time.UTC)
	for _, lang := range Languages {
		l := data.Locales[lang]
		if l == nil || len(l.Months) != 12 || len(l.Days) != 7 || len(l.DayPeriods) != 2 {
			panic("l10n: cldr/l10n.json: incomplete data for " + lang)
		}
		l.dateTime = strings.NewReplacer("{1}", l.DateFull, "{0}", l.TimeShort).Replace(l.DateTimeAtFull)
		for _, p := range []string{l.DateFull, l.dateTime} {
			if _, err := formatPattern(p, sample, l); err != nil {
				panic(fmt.Sprintf("l10n: %s pattern %q: %v", lang, p, err))
			}
		}
	}
	return data.Locales
}

// formatPattern formats t with a CLDR date pattern (UTS #35, "Date Field
// Symbol Table"): runs of one ASCII letter are fields, text between
// apostrophes is literal, two apostrophes make one, anything else is copied.
// It knows the fields of the full date and short time patterns of the
// service's locales.
func formatPattern(p string, t time.Time, l *locale) (string, error) {
	var b strings.Builder
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			if strings.HasPrefix(p[i:], "''") {
				b.WriteByte('\'')
				i += 2
				continue
			}
			for i++; i < len(p); i++ {
				if p[i] == '\'' {
					if !strings.HasPrefix(p[i:], "''") {
						break
					}
					i++
				}
				b.WriteByte(p[i])
			}
			i++ // closing quote
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			n := 1
			for i+n < len(p) && p[i+n] == c {
				n++
			}
			s, err := field(c, n, t, l)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// field formats one pattern field: letter c repeated n times.
func field(c byte, n int, t time.Time, l *locale) (string, error) {
	num := func(v int) string {
		s := strconv.Itoa(v)
		return strings.Repeat("0", max(n-len(s), 0)) + s
	}
	switch {
	case c == 'E' && n == 4: // weekday, wide
		return l.Days[t.Weekday()], nil
	case c == 'M' && n == 4: // month, wide
		return l.Months[t.Month()-1], nil
	case c == 'M' && n <= 2:
		return num(int(t.Month())), nil
	case c == 'd' && n <= 2:
		return num(t.Day()), nil
	case c == 'y' && n == 1:
		return strconv.Itoa(t.Year()), nil
	case c == 'H' && n <= 2: // 0-23
		return num(t.Hour()), nil
	case c == 'h' && n <= 2: // 1-12
		return num((t.Hour()+11)%12 + 1), nil
	case c == 'm' && n <= 2:
		return num(t.Minute()), nil
	case c == 'a' && n <= 3: // AM/PM, abbreviated
		return l.DayPeriods[t.Hour()/12], nil
	}
	return "", fmt.Errorf("unsupported field %q", strings.Repeat(string(c), n))
}

// inZone returns t in loc, UTC when loc is nil.
func inZone(t time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc)
}

// DateTime formats an instant in loc (the event's time zone; nil is UTC) as
// a person reads a date and time: CLDR's full date and short time in its
// "at time" glue, e.g. fr "samedi 14 mars 2026 à 18:30", en "Saturday,
// March 14, 2026 at 6:30\u202fPM".
func DateTime(t time.Time, loc *time.Location) Localized {
	t = inZone(t, loc)
	return each(func(lang string) string {
		s, _ := formatPattern(locales[lang].dateTime, t, locales[lang]) // checked by load
		return s
	})
}

// Date formats the calendar date of t in loc (nil is UTC) with CLDR's full
// date pattern, e.g. fr "samedi 14 mars 2026", en "Saturday, March 14, 2026".
func Date(t time.Time, loc *time.Location) Localized {
	t = inZone(t, loc)
	return each(func(lang string) string {
		s, _ := formatPattern(locales[lang].DateFull, t, locales[lang]) // checked by load
		return s
	})
}
