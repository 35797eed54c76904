package graph

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"salesplatform/domain"
)

func intp(v int) *int { return &v }

func strp(s string) *string { return &s }

// wantArgError fails unless err is an input error on arg.
func wantArgError(t *testing.T, err error, arg, what string) {
	t.Helper()
	de, ok := err.(*domain.Error)
	if !ok || de.Code != domain.CodeInvalid || len(de.Fields) != 1 || !reflect.DeepEqual(de.Fields[0].Path, []any{arg}) {
		t.Errorf("%s: error %v, want an input error on %q", what, err, arg)
	}
}

func TestCursor(t *testing.T) {
	for _, n := range []int{0, 1, 99, maxCursorOffset} {
		got, err := decodeCursor("after", encodeCursor(n))
		if err != nil || got != n {
			t.Errorf("decode(encode(%d)) = %d, %v", n, got, err)
		}
	}
	for _, bad := range []string{"", "nope", "b2Zmc2V0Oi0x" /* offset:-1 */, "b2Zmc2V0OjAx", /* offset:01 */
		encodeCursor(0) + "=", "b2Zmc2V0OjIxNDc0ODM2NDg=" /* offset:2147483648 */, encodeKeyCursor(1)} {
		_, err := decodeCursor("before", bad)
		wantArgError(t, err, "before", fmt.Sprintf("decode(%q)", bad))
	}
}

func TestKeyCursor(t *testing.T) {
	for _, id := range []int64{1, 42, 1<<63 - 1} {
		got, err := decodeKeyCursor("after", encodeKeyCursor(id))
		if err != nil || got != id {
			t.Errorf("decode(encode(%d)) = %d, %v", id, got, err)
		}
	}
	if c := encodeKeyCursor(123); c != "azoxMjM" { // base64url("k:123"), unpadded
		t.Errorf("encodeKeyCursor(123) = %q", c)
	}
	for _, bad := range []string{"", "azoxMjM=" /* padded */, "azowMTIz" /* k:0123 */, "azow" /* k:0 */, "azotMQ", /* k:-1 */
		"azoxMjN" /* not canonical: the same bytes as azoxMjM */, "azo" /* k: */, "aWQ6MQ" /* id:1 */, encodeCursor(3)} {
		_, err := decodeKeyCursor("after", bad)
		wantArgError(t, err, "after", fmt.Sprintf("decode(%q)", bad))
	}
}

func TestPageArgsCheck(t *testing.T) {
	wantArgError(t, pageArgs{first: intp(-1)}.check(), "first", "first: -1")
	wantArgError(t, pageArgs{last: intp(-1)}.check(), "last", "last: -1")
	wantArgError(t, pageArgs{first: intp(1), last: intp(1)}.check(), "last", "first and last")
	wantArgError(t, pageArgs{first: intp(0), last: intp(0)}.check(), "last", "first: 0 and last: 0")
	if err := (pageArgs{first: intp(0), after: strp("x"), before: strp("y")}).check(); err != nil {
		t.Errorf("first with after and before: %v", err)
	}
	for _, c := range []struct {
		a        pageArgs
		backward bool
		size     int
	}{
		{pageArgs{}, false, domain.DefaultPageSize},
		{pageArgs{first: intp(5)}, false, 5},
		{pageArgs{first: intp(500), before: strp("c")}, false, domain.MaxPageSize},
		{pageArgs{last: intp(5)}, true, 5},
		{pageArgs{last: intp(5), after: strp("c")}, true, 5},
		{pageArgs{before: strp("c")}, true, domain.DefaultPageSize},
		{pageArgs{after: strp("c"), before: strp("c")}, true, domain.DefaultPageSize},
	} {
		if c.a.backward() != c.backward || c.a.size() != c.size {
			t.Errorf("%+v: backward %v, size %d; want %v, %d", c.a, c.a.backward(), c.a.size(), c.backward, c.size)
		}
	}
}

func TestNewWindow(t *testing.T) {
	cur := func(offset int) *string { return strp(encodeCursor(offset)) }
	for _, c := range []struct {
		a        pageArgs
		start, n int
		toEnd    bool
	}{
		{pageArgs{}, 0, domain.DefaultPageSize, false},
		{pageArgs{first: intp(1000)}, 0, domain.MaxPageSize, false},
		{pageArgs{first: intp(0)}, 0, 0, false},
		{pageArgs{first: intp(10), after: cur(9)}, 10, 10, false},
		{pageArgs{first: intp(10), after: cur(4)}, 5, 10, false},
		// last and before: the items [max(0, B-L), B).
		{pageArgs{last: intp(3), before: cur(10)}, 7, 3, false},
		{pageArgs{last: intp(5), before: cur(2)}, 0, 2, false},
		{pageArgs{last: intp(5), before: cur(0)}, 0, 0, false},
		{pageArgs{before: cur(30)}, 10, domain.DefaultPageSize, false},
		{pageArgs{last: intp(0), before: cur(30)}, 30, 0, false},
		// Both cursors: first or last of what lies between.
		{pageArgs{first: intp(3), after: cur(4), before: cur(10)}, 5, 3, false},
		{pageArgs{first: intp(30), after: cur(4), before: cur(10)}, 5, 5, false},
		{pageArgs{last: intp(3), after: cur(4), before: cur(10)}, 7, 3, false},
		{pageArgs{last: intp(3), after: cur(4), before: cur(6)}, 5, 1, false},
		{pageArgs{after: cur(9), before: cur(3)}, 10, 0, false},
		{pageArgs{first: intp(2), before: cur(5)}, 0, 2, false},
		// last without before: placed once the length is known.
		{pageArgs{last: intp(5)}, 0, 5, true},
		{pageArgs{last: intp(500), after: cur(2)}, 3, domain.MaxPageSize, true},
	} {
		w, err := newWindow(c.a)
		if err != nil || w.start != c.start || w.n != c.n || w.toEnd != c.toEnd {
			t.Errorf("newWindow(%+v) = %+v, %v; want start %d, n %d, toEnd %v", c.a, w, err, c.start, c.n, c.toEnd)
			continue
		}
		if !w.toEnd && w.req != coveringPage(c.start, max(c.n, 1)) {
			t.Errorf("newWindow(%+v) reads %+v", c.a, w.req)
		}
	}
	for _, c := range []struct {
		a   pageArgs
		arg string
	}{
		{pageArgs{first: intp(-1)}, "first"},
		{pageArgs{last: intp(-1)}, "last"},
		{pageArgs{first: intp(2), last: intp(2)}, "last"},
		{pageArgs{after: strp("bm9wZQ==")}, "after"},
		{pageArgs{last: intp(2), before: strp("bm9wZQ==")}, "before"},
	} {
		_, err := newWindow(c.a)
		wantArgError(t, err, c.arg, fmt.Sprintf("newWindow(%+v)", c.a))
	}
}

func TestWindowAtEnd(t *testing.T) {
	for _, c := range []struct {
		lo, n, count int
		start, size  int
	}{
		{0, 5, 12, 7, 5},
		{0, 5, 3, 0, 3}, // last > count
		{0, 5, 0, 0, 0},
		{0, 0, 7, 7, 0},
		{4, 5, 6, 4, 2},   // after cuts the window
		{11, 5, 8, 11, 0}, // after past the end
	} {
		w := window{start: c.lo, n: c.n, toEnd: true}.atEnd(c.count)
		if w.start != c.start || w.n != c.size || w.toEnd || w.req != coveringPage(c.start, max(c.size, 1)) {
			t.Errorf("atEnd(%d) of [%d, +%d) = %+v; want start %d, n %d", c.count, c.lo, c.n, w, c.start, c.size)
		}
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
	w := window{start: 5, n: 2, req: domain.PageRequest{Number: 1, Size: 15}}
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

// relayWindow is what the Relay specification's algorithm gives of a list
// of count items: the indexes after and before leave (-1: absent), then
// the first or last of them.
func relayWindow(count, after, before int, first, last *int) []int {
	var all []int
	for i := range count {
		if (after < 0 || i > after) && (before < 0 || i < before) {
			all = append(all, i)
		}
	}
	if first != nil && len(all) > *first {
		all = all[:*first]
	}
	if last != nil && len(all) > *last {
		all = all[len(all)-*last:]
	}
	return all
}

// argCases are page arguments over a list of up to n items: every
// combination of after and before (offsets, -1 for absent) with first or
// last.
func argCases(n int, visit func(after, before int, first, last *int)) {
	sizes := []*int{nil, intp(0), intp(1), intp(2), intp(3), intp(7)}
	for after := -1; after <= n+1; after++ {
		for before := -1; before <= n+1; before++ {
			for _, first := range sizes {
				visit(after, before, first, nil)
			}
			for _, last := range sizes[1:] {
				visit(after, before, nil, last)
			}
		}
	}
}

// TestReadWindowIsRelay reads every window of small lists through numbered
// pages, as a service answers them, and checks that each is what Relay's
// algorithm gives (with first or last absent meaning 20), and its page
// info.
func TestReadWindowIsRelay(t *testing.T) {
	for count := 0; count <= 9; count++ {
		var calls int
		list := func(req domain.PageRequest) (*domain.Page[int], error) {
			calls++
			items := []int{}
			for i := req.Offset(); i < min(req.Offset()+req.Size, count); i++ {
				items = append(items, i)
			}
			return domain.NewPage(items, count, req)
		}
		argCases(count, func(after, before int, first, last *int) {
			a := pageArgs{first: first, last: last}
			if after >= 0 {
				a.after = strp(encodeCursor(after))
			}
			if before >= 0 {
				a.before = strp(encodeCursor(before))
			}
			calls = 0
			w, page, err := readWindow(a, list)
			if err != nil {
				t.Fatalf("%d items, %+v: %v", count, a, err)
			}
			got, info := connect(w, page, func(c string, i int) int {
				if c != encodeCursor(i) {
					t.Errorf("item %d has the cursor %q", i, c)
				}
				return i
			})
			// Offsets are positions: a cursor past the end (its item and
			// others since removed) still names one, of a longer list.
			size, long := intp(a.size()), max(count, before)
			want := relayWindow(long, after, before, size, nil)
			if a.backward() {
				want = relayWindow(long, after, before, nil, size)
			}
			want = slices.DeleteFunc(want, func(i int) bool { return i >= count })
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("%d items, after %d, before %d, first %v, last %v: %v, want %v", count, after, before, deref(first), deref(last), got, want)
			}
			if len(got) > 0 && (info.HasPreviousPage != (got[0] > 0) || info.HasNextPage != (got[len(got)-1] < count-1)) {
				t.Errorf("%d items, after %d, before %d, first %v, last %v: page info %+v for %v", count, after, before, deref(first), deref(last), info, got)
			}
			wantCalls := 1
			if a.backward() && a.before == nil {
				wantCalls = 2 // the length, then the window
			}
			if calls < wantCalls || calls > wantCalls+1 { // +1: a window past the end reads the length
				t.Errorf("%d items, %+v: %d reads", count, a, calls)
			}
		})
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// keysetList is a keyset list of the ids 1..count, read as a store and a
// service read it: the anchors checked, Size+1 items in the reading
// direction, then domain.NewPage.
func keysetList(count int, reqs *[]domain.PageRequest) func(domain.PageRequest) (*domain.Page[int64], error) {
	return func(req domain.PageRequest) (*domain.Page[int64], error) {
		*reqs = append(*reqs, req)
		k := req.Keyset
		lo, hi := int64(1), int64(count) // ids
		switch {
		case k.After > int64(count):
			return nil, domain.ErrCursorGone("after")
		case k.Before > int64(count):
			return nil, domain.ErrCursorGone("before")
		}
		if k.After != 0 {
			lo = k.After + 1
		}
		if k.Before != 0 {
			hi = k.Before - 1
		}
		var items []int64
		for id := lo; id <= hi && len(items) <= req.Size; id++ {
			items = append(items, id)
		}
		if k.Backward {
			items = nil
			for id := hi; id >= lo && len(items) <= req.Size; id-- {
				items = append(items, id)
			}
		}
		return domain.NewPage(items, count, req)
	}
}

// TestReadKeysetIsRelay reads every page of small keyset lists and checks
// that each is what Relay's algorithm gives, with the page info Relay
// defines.
func TestReadKeysetIsRelay(t *testing.T) {
	for count := 0; count <= 9; count++ {
		var reqs []domain.PageRequest
		list := keysetList(count, &reqs)
		argCases(count, func(after, before int, first, last *int) {
			// Offsets 0..count-1 are the ids 1..count; others name no item.
			a := pageArgs{first: first, last: last}
			if after >= 0 {
				a.after = strp(encodeKeyCursor(int64(after + 1)))
			}
			if before >= 0 {
				a.before = strp(encodeKeyCursor(int64(before + 1)))
			}
			reqs = nil
			w, page, err := readKeyset(context.Background(), a, func(id int64) int64 { return id }, list)
			switch {
			case after >= count:
				wantArgError(t, err, "after", fmt.Sprintf("%d items, after %d", count, after))
				return
			case before >= count:
				wantArgError(t, err, "before", fmt.Sprintf("%d items, before %d", count, before))
				return
			case err != nil:
				t.Fatalf("%d items, %+v: %v", count, a, err)
			}
			if len(reqs) != 1 || reqs[0].Size != a.size() || reqs[0].Keyset.Backward != a.backward() {
				t.Errorf("%+v read %+v", a, reqs)
			}
			got, info := connect(w, page, func(c string, id int64) int {
				if c != encodeKeyCursor(id) {
					t.Errorf("item %d has the cursor %q", id, c)
				}
				return int(id - 1)
			})
			size := intp(a.size())
			want := relayWindow(count, after, before, size, nil)
			if a.backward() {
				want = relayWindow(count, after, before, nil, size)
			}
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("%d items, after %d, before %d, first %v, last %v: %v, want %v", count, after, before, deref(first), deref(last), got, want)
			}
			between := relayWindow(count, after, before, nil, nil)
			more := len(between) > len(got)
			wantPrev, wantNext := after >= 0, before >= 0
			if a.backward() {
				wantPrev = wantPrev || more
			} else {
				wantNext = wantNext || more
			}
			if info.HasPreviousPage != wantPrev || info.HasNextPage != wantNext {
				t.Errorf("%d items, after %d, before %d, first %v, last %v: page info %+v, want previous %v, next %v",
					count, after, before, deref(first), deref(last), info, wantPrev, wantNext)
			}
			if len(got) > 0 && (*info.StartCursor != encodeKeyCursor(int64(got[0]+1)) || *info.EndCursor != encodeKeyCursor(int64(got[len(got)-1]+1))) {
				t.Errorf("cursors %q, %q for %v", *info.StartCursor, *info.EndCursor, got)
			}
		})
	}
	var reqs []domain.PageRequest
	_, _, err := readKeyset(context.Background(), pageArgs{first: intp(1), after: strp(encodeCursor(1))}, func(id int64) int64 { return id }, keysetList(3, &reqs))
	wantArgError(t, err, "after", "an offset cursor on a keyset list")
	_, _, err = readKeyset(context.Background(), pageArgs{first: intp(1), last: intp(1)}, func(id int64) int64 { return id }, keysetList(3, &reqs))
	wantArgError(t, err, "last", "first and last on a keyset list")
	if len(reqs) != 0 {
		t.Errorf("refused arguments read %+v", reqs)
	}
}
