package graph

import (
	"testing"

	"salesplatform/domain"
)

func TestCursor(t *testing.T) {
	for _, n := range []int{0, 1, 99, maxCursorOffset} {
		got, err := decodeCursor(encodeCursor(n))
		if err != nil || got != n {
			t.Errorf("decode(encode(%d)) = %d, %v", n, got, err)
		}
	}
	for _, bad := range []string{"", "nope", "b2Zmc2V0Oi0x" /* offset:-1 */, "b2Zmc2V0OjAx", /* offset:01 */
		encodeCursor(0) + "=", "b2Zmc2V0OjIxNDc0ODM2NDg=" /* offset:2147483648 */} {
		if _, err := decodeCursor(bad); !domain.IsCode(err, domain.CodeInvalid) {
			t.Errorf("decode(%q) = %v, want an input error", bad, err)
		}
	}
}

func TestNewWindow(t *testing.T) {
	n := func(v int) *int { return &v }
	after := func(offset int) *string { c := encodeCursor(offset); return &c }
	for _, c := range []struct {
		first        *int
		after        *string
		start, count int
		req          domain.PageRequest
	}{
		{nil, nil, 0, domain.DefaultPageSize, domain.PageRequest{Number: 1, Size: domain.DefaultPageSize}},
		{n(1000), nil, 0, domain.MaxPageSize, domain.PageRequest{Number: 1, Size: domain.MaxPageSize}},
		{n(0), nil, 0, 0, domain.PageRequest{Number: 1, Size: 1}}, // one item read, for the count
		{n(10), after(9), 10, 10, domain.PageRequest{Number: 2, Size: 10}},
		{n(10), after(4), 5, 10, domain.PageRequest{Number: 1, Size: 15}},
	} {
		w, err := newWindow(c.first, c.after)
		if err != nil || w.start != c.start || w.first != c.count || w.req != c.req {
			t.Errorf("newWindow(%v, %v) = %+v, %v; want start %d, first %d, %+v", c.first, c.after, w, err, c.start, c.count, c.req)
		}
	}
	if _, err := newWindow(n(-1), nil); !domain.IsCode(err, domain.CodeInvalid) {
		t.Errorf("first: -1 gave %v, want an input error", err)
	}
}

// TestCoveringPage checks that the page read holds the whole window, and
// stays small.
func TestCoveringPage(t *testing.T) {
	for n := 1; n <= domain.MaxPageSize; n++ {
		for start := 0; start < 3000; start++ {
			p := coveringPage(start, n)
			if p.Offset() > start || p.Offset()+p.Size < start+n {
				t.Fatalf("coveringPage(%d, %d) = %+v does not hold the window", start, n, p)
			}
			if p.Size > max(7*n, start+n) {
				t.Fatalf("coveringPage(%d, %d) = %+v reads too much", start, n, p)
			}
		}
	}
}

func TestConnect(t *testing.T) {
	// A window of 2 from offset 5, read through the page [0, 15) of a list
	// of 7.
	w := window{start: 5, first: 2, req: domain.PageRequest{Number: 1, Size: 15}}
	page := &domain.Page[int]{Items: []int{0, 1, 2, 3, 4, 5, 6}, Count: 7, Request: w.req}
	edges, info := connect(w, page, func(c string, i int) [2]any { return [2]any{c, i} })
	if len(edges) != 2 || edges[0] != [2]any{encodeCursor(5), 5} || edges[1] != [2]any{encodeCursor(6), 6} {
		t.Errorf("edges = %v", edges)
	}
	if info.HasNextPage || !info.HasPreviousPage || *info.StartCursor != encodeCursor(5) || *info.EndCursor != encodeCursor(6) {
		t.Errorf("page info = %+v", info)
	}
	w.start = 9
	ints, info := connect(w, page, func(c string, i int) int { return i })
	if len(ints) != 0 || info.StartCursor != nil || info.HasNextPage {
		t.Errorf("past the end: %v, %+v", ints, info)
	}
}
