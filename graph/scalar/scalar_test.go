package scalar

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
)

func TestDecimal(t *testing.T) {
	for in, want := range map[string]string{"12.5": `"12.50"`, "0": `"0.00"`, "1000.50": `"1000.50"`, "0.125": `"0.125"`, "-3": `"-3.00"`} {
		var b bytes.Buffer
		MarshalDecimal(decimal.RequireFromString(in)).MarshalGQL(&b)
		if b.String() != want {
			t.Errorf("MarshalDecimal(%s) = %s, want %s", in, b.String(), want)
		}
	}
	for _, in := range []any{"12.50", json.Number("12.5"), 12.5} {
		d, err := UnmarshalDecimal(in)
		if err != nil || !d.Equal(decimal.RequireFromString("12.5")) {
			t.Errorf("UnmarshalDecimal(%v) = %v, %v", in, d, err)
		}
	}
	if _, err := UnmarshalDecimal(true); err == nil {
		t.Error("UnmarshalDecimal(true) succeeded")
	}
}

func TestInt64ID(t *testing.T) {
	var b bytes.Buffer
	MarshalInt64ID(42).MarshalGQL(&b)
	if b.String() != `"42"` {
		t.Errorf("MarshalInt64ID(42) = %s", b.String())
	}
	for _, in := range []any{"42", json.Number("42"), 42, int64(42)} {
		if id, err := UnmarshalInt64ID(in); err != nil || id != 42 {
			t.Errorf("UnmarshalInt64ID(%v) = %d, %v", in, id, err)
		}
	}
	if _, err := UnmarshalInt64ID("x"); err == nil {
		t.Error(`UnmarshalInt64ID("x") succeeded`)
	}
}
