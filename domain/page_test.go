package domain

import (
	"reflect"
	"slices"
	"testing"
)

func TestNewPageKeyset(t *testing.T) {
	for _, c := range []struct {
		items    []int // as the store read them: in the reading direction
		size     int
		backward bool
		want     []int // in the list's order
		more     bool
	}{
		{[]int{1, 2, 3}, 2, false, []int{1, 2}, true},
		{[]int{1, 2}, 2, false, []int{1, 2}, false},
		{[]int{9, 8, 7}, 2, true, []int{8, 9}, true},
		{[]int{9}, 2, true, []int{9}, false},
		{[]int{4}, 0, false, []int{}, true},
		{nil, 5, true, []int{}, false},
	} {
		req := PageRequest{Size: c.size, Keyset: &Keyset{After: 1, Backward: c.backward}}
		p, err := NewPage(slices.Clone(c.items), 10, req)
		if err != nil || !slices.Equal(p.Items, c.want) || p.More != c.more || p.Count != 10 {
			t.Errorf("NewPage(%v, size %d, backward %v) = %+v, %v; want %v, more %v", c.items, c.size, c.backward, p, err, c.want, c.more)
		}
	}
	// No "Invalid page." on a keyset page; an empty list holds no anchor.
	if _, err := NewPage([]int{}, 3, PageRequest{Number: 9, Size: 2, Keyset: &Keyset{}}); err != nil {
		t.Errorf("keyset page with a number: %v", err)
	}
	for _, c := range []struct {
		k   Keyset
		arg string
	}{{Keyset{After: 4}, "after"}, {Keyset{Before: 4, Backward: true}, "before"}} {
		_, err := NewPage([]int{}, 0, PageRequest{Size: 2, Keyset: &c.k})
		if e, ok := err.(*Error); !ok || e.Code != CodeInvalid || !reflect.DeepEqual(e.Fields, []FieldError{{Path: []any{c.arg}, Code: VInvalid, Message: MsgCursorGone}}) {
			t.Errorf("%+v of an empty list: %v, want ErrCursorGone(%q)", c.k, err, c.arg)
		}
	}
	if p, err := NewPage([]int{}, 0, PageRequest{Size: 2, Keyset: &Keyset{Backward: true}}); err != nil || len(p.Items) != 0 || p.More {
		t.Errorf("an empty list from its end: %+v, %v", p, err)
	}
	// Numbered pages are as before.
	if _, err := NewPage([]int{}, 3, PageRequest{Number: 3, Size: 2}); err != ErrInvalidPage {
		t.Errorf("past the last page: %v", err)
	}
}
