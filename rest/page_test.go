package rest

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"testing"

	"salesplatform/domain"
)

func TestToAdminPage(t *testing.T) {
	r := httptest.NewRequest("GET", "http://api.test/api/vouchers/?page=2&page_size=2&code=AB", nil)
	p, err := domain.NewPage([]int{3, 4}, 5, domain.PageRequest{Number: 2, Size: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := toAdminPage(r, p, func(n int) int { return n * 10 })
	if got.Count != 5 || !got.HasPrevious || !got.HasNext || got.CurrentPage != 2 {
		t.Errorf("page fields = %+v", got)
	}
	if !slices.Equal(got.PageRange, []int{1, 2, 3}) || !slices.Equal(got.Results, []int{30, 40}) {
		t.Errorf("page_range %v results %v", got.PageRange, got.Results)
	}
	if got.Previous == nil || *got.Previous != "http://api.test/api/vouchers/?code=AB&page_size=2" {
		t.Errorf("previous = %v", got.Previous)
	}

	empty, _ := domain.NewPage([]int(nil), 0, domain.PageRequest{Number: 1, Size: 20})
	e := toAdminPage(r, empty, func(n int) int { return n })
	if e.HasPrevious || e.HasNext || e.Previous != nil || !slices.Equal(e.PageRange, []int{1}) || len(e.Results) != 0 {
		t.Errorf("empty page = %+v", e)
	}
}

// jsonLocalized writes what a map of every language to its text (nil
// without one) wrote: every language of domain.Languages, in alphabetical
// order, escaped as encoding/json escapes.
func TestJSONLocalizedIsEveryLanguage(t *testing.T) {
	for _, l := range []domain.Localized{nil, {}, {"fr": "Château <b> & \u2028", "en": "Castle"}, {"pt": "", "ca": "x"}} {
		legacy := map[string]*string{}
		for _, lang := range domain.Languages {
			if s, ok := l[lang]; ok {
				legacy[lang] = &s
			} else {
				legacy[lang] = nil
			}
		}
		want, err := json.Marshal(legacy)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(toJSONLocalized(l))
		if err != nil || string(got) != string(want) {
			t.Errorf("%v: got %s, %v; want %s", l, got, err, want)
		}
	}
	if got, _ := json.Marshal(optionalJSONLocalized(nil)); string(got) != "null" {
		t.Errorf("no text: %s", got)
	}
}
