package drf_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/rest/drf"
)

func read(t *testing.T, body string) (drf.Reader, *domain.Refusals) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatal(err)
	}
	var r domain.Refusals
	return drf.New(obj, &r), &r
}

// refusals is the reader's refusals as "path: message" lines.
func refusals(r *domain.Refusals) string {
	var lines []string
	for _, f := range r.Fields {
		lines = append(lines, fmt.Sprintf("%s: %s", domain.PathKey(f.Path), f.Message))
	}
	return strings.Join(lines, "\n")
}

// Each reader takes what DRF's field takes, absent and null apart, and
// refuses the rest with DRF's message, reading it as absent.
func TestReaders(t *testing.T) {
	d, r := read(t, `{"s": 12, "b": "off", "i": "3.0", "pk": 7, "ids": [1, "2"], "m": "12.50", "me": 1E+1, "ms": "-2.5e-1", "day": "1980-05-17T23:30:00-02:00",
		"date": "2026-11-28", "u": " 0b8f1c1e-5d52-4a4f-9e55-1f6c1d1c2b3a ", "n": null,
		"bad_b": "maybe", "bad_i": 3.5, "bad_pk": true, "bad_ids": "1,2", "bad_m": "1e101", "bad_date": "28/11/2026", "bad_u": "x",
		"o": {"email": 5}, "bad_o": []}`)
	if s := d.String("s"); s.Value != "12" || !s.Set {
		t.Errorf("String(12) = %+v", s)
	}
	if b := d.Bool("b"); b.Value || !b.Set {
		t.Errorf(`Bool("off") = %+v`, b)
	}
	if i := d.Int("i"); i.Value != 3 {
		t.Errorf(`Int("3.0") = %+v`, i)
	}
	if pk, ids := d.PK("pk"), d.PKList("ids"); pk.Value != 7 || len(ids.Value) != 2 || ids.Value[1] != 2 {
		t.Errorf("PK, PKList = %+v, %+v", pk, ids)
	}
	if m := d.Decimal("m"); m.Value.String() != "12.5" {
		t.Errorf(`Decimal("12.50") = %+v`, m)
	}
	if me, ms := d.Decimal("me"), d.Decimal("ms"); me.Value.String() != "10" || ms.Value.String() != "-0.25" {
		t.Errorf("Decimal(1E+1), Decimal(\"-2.5e-1\") = %+v, %+v", me, ms)
	}
	if day, date := d.Day("day"), d.Date("date"); day.Value.Format("2006-01-02") != "1980-05-17" || date.Value.Day() != 28 {
		t.Errorf("Day, Date = %v, %v", day.Value, date.Value)
	}
	if u := d.UUID("u"); u.Value.String() != "0b8f1c1e-5d52-4a4f-9e55-1f6c1d1c2b3a" {
		t.Errorf("UUID = %+v", u)
	}
	if n, absent := d.String("n"), d.String("absent"); !n.Set || !n.Null || absent.Set {
		t.Errorf("null, absent = %+v, %+v", n, absent)
	}
	if r.Fields != nil {
		t.Fatalf("refused good values:\n%s", refusals(r))
	}
	if b := d.Bool("bad_b"); b.Set {
		t.Errorf("a refused value is read: %+v", b)
	}
	d.Int("bad_i")
	d.PK("bad_pk")
	d.PKList("bad_ids")
	d.Decimal("bad_m")
	d.Date("bad_date")
	d.UUID("bad_u")
	nested, _, ok := d.Object("o")
	if !ok {
		t.Fatal("Object(o) not read")
	}
	nested.Bool("email")
	d.Object("bad_o")
	want := strings.Join([]string{
		"bad_b: Must be a valid boolean.",
		"bad_i: A valid integer is required.",
		"bad_pk: Incorrect type. Expected pk value, received bool.",
		`bad_ids: Expected a list of items but got type "str".`,
		"bad_m: A valid number is required.",
		"bad_date: Date has wrong format. Use one of these formats instead: YYYY-MM-DD.",
		"bad_u: Must be a valid UUID.",
		"o.email: Must be a valid boolean.",
		`bad_o: Expected a dictionary of items but got type "list".`,
	}, "\n")
	if got := refusals(r); got != want {
		t.Errorf("refusals:\n%s\nwant:\n%s", got, want)
	}
}
