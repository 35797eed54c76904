package rest

import (
	"slices"
	"testing"

	"salesplatform/domain"
)

// An id list of the query: spaces and empty items ignored, blank is no
// filter, only commas select nothing, any other item is refused.
func TestIDList(t *testing.T) {
	for raw, want := range map[string][]int64{" 3 ,, 1,2,": {3, 1, 2}, " ": nil, "": nil, ",,": {}} {
		var r domain.Refusals
		got := idList(raw, "id", "Enter a whole number.", &r)
		if !slices.Equal(got, want) || (got == nil) != (want == nil) || len(r.Fields) != 0 {
			t.Errorf("%q: %v %v, want %v", raw, got, r.Fields, want)
		}
	}
	for _, raw := range []string{"1,a", "1.0", "99999999999999999999", "0x10"} {
		var r domain.Refusals
		if got := idList(raw, "id", "Enter a whole number.", &r); got != nil || len(r.Fields) != 1 ||
			r.Fields[0].Path[0] != "id" || r.Fields[0].Message != "Enter a whole number." {
			t.Errorf("%q: %v %+v", raw, got, r.Fields)
		}
	}
}
