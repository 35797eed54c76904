package persistence

import (
	"fmt"
	"testing"
)

func TestPastAnchor(t *testing.T) {
	keys := []sortKey{{"x.a", false}, {"x.b", true}, {"x.id", false}}
	a := func(i int) string { return fmt.Sprintf("(SELECT k%d FROM an)", i) }
	want := "(x.a >= " + a(0) + " AND ((x.a > " + a(0) + ") OR (x.a = " + a(0) + " AND x.b < " + a(1) + ") OR (x.a = " + a(0) +
		" AND x.b = " + a(1) + " AND x.id > " + a(2) + ")))"
	if got := pastAnchor(keys, "an", false); got != want {
		t.Errorf("after:\n%s\nwant\n%s", got, want)
	}
	want = "(x.a <= " + a(0) + " AND ((x.a < " + a(0) + ") OR (x.a = " + a(0) + " AND x.b > " + a(1) + ") OR (x.a = " + a(0) +
		" AND x.b = " + a(1) + " AND x.id < " + a(2) + ")))"
	if got := pastAnchor(keys, "an", true); got != want {
		t.Errorf("before:\n%s\nwant\n%s", got, want)
	}
	if got := pastAnchor(keys[2:], "an", false); got != "((x.id > "+a(0)+"))" {
		t.Errorf("id only: %s", got)
	}
	if got := orderList(keys, false); got != "x.a, x.b DESC, x.id" {
		t.Errorf("order: %s", got)
	}
	if got := orderList(keys, true); got != "x.a DESC, x.b, x.id DESC" {
		t.Errorf("reversed order: %s", got)
	}
}
