package domain

import (
	"testing"
	"time"
)

// FuzzParseDateBound: any text the date filters accept names instants the
// database can store, start before end; anything else is a message.
func FuzzParseDateBound(f *testing.F) {
	for _, s := range []string{"2026-03-10", "0001-01-01", "9999-12-31", "0001-01-01T00:00:00+14:00",
		"9999-12-31T23:59:59-14:00", "2026-03-10T10:30", "yesterday", "", "2026-13-01"} {
		f.Add(s)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, loc := range []*time.Location{time.UTC, paris} {
			start, end, msg := ParseDateBound(s, loc)
			if msg != "" {
				continue
			}
			if !InTimeRange(start) || end.After(MaxInputTime) || !end.After(start) {
				t.Fatalf("%q in %s: [%v, %v) accepted", s, loc, start, end)
			}
		}
	})
}
