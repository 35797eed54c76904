package scalar

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
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

// unmarshalers are the input functions gqlgen.yml binds the schema's custom
// scalars to: ours, and gqlgen's for UUID, Int64 and DateTime.
var unmarshalers = map[string]func(any) error{
	"Decimal":  func(v any) error { _, err := UnmarshalDecimal(v); return err },
	"Int64ID":  func(v any) error { _, err := UnmarshalInt64ID(v); return err },
	"UUID":     func(v any) error { _, err := graphql.UnmarshalUUID(v); return err },
	"Int64":    func(v any) error { _, err := graphql.UnmarshalInt64(v); return err },
	"DateTime": func(v any) error { _, err := graphql.UnmarshalTime(v); return err },
	"Upload":   func(v any) error { _, err := graphql.UnmarshalUpload(v); return err },
}

// Every scalar answers every JSON value (as the parser and the variables'
// decoder give them: json.Number, float64, int64, bool, string, map, slice)
// with a value or an error, never a panic, and refuses the values it
// cannot hold.
func TestUnmarshalAnyValue(t *testing.T) {
	// Values each scalar must refuse.
	bad := []any{
		json.Number("1e400"), json.Number("-1e400"), json.Number("99999999999999999999999"),
		json.Number("1e-1000000000"), json.Number("1e999999999"), json.Number("NaN"), json.Number(""),
		math.Inf(1), math.Inf(-1), math.NaN(), 1e300, 1.5,
		true, false, map[string]any{"a": 1}, []any{1}, []any{},
		"not valid", "1e400", "1e999999999", "1e-1000000000", "99999999999999999999999",
		strings.Repeat("9", 100000),
	}
	// Values a scalar holds, among the ones above, or that gqlgen's own
	// scalars are known to take.
	holds := map[string][]any{
		"Decimal": {1.5, "99999999999999999999999", json.Number("99999999999999999999999")},
		"Int64":   {},
	}
	for name, unmarshal := range unmarshalers {
		for _, v := range bad {
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						err = nil
						t.Errorf("%s(%T %.40v) panicked: %v", name, v, v, p)
					}
				}()
				err = unmarshal(v)
			}()
			if err == nil && !slices.ContainsFunc(holds[name], func(h any) bool { return reflect.DeepEqual(h, v) }) {
				t.Errorf("%s(%T %.40v) succeeded", name, v, v)
			}
		}
	}
}

// A decimal holds at most maxDecimalDigits digits on each side of the
// point, so that no value becomes a huge string or number where it is
// printed or computed with.
func TestDecimalBounds(t *testing.T) {
	for _, in := range []any{"123456789012345678901234567890", "0.123456789012345678901234567890",
		json.Number("-123456789012345678901234567890.5"), 1e29, -1e-29, int64(math.MinInt64), math.MaxInt} {
		if _, err := UnmarshalDecimal(in); err != nil {
			t.Errorf("UnmarshalDecimal(%T %v): %v", in, in, err)
		}
	}
	for _, in := range []any{"1234567890123456789012345678901", "0.1234567890123456789012345678901",
		"1e30", "1e-31", json.Number("1e400"), 1e30, 1e-31, math.Inf(1), math.NaN(), " 1", "1 ", "0x10", ""} {
		if d, err := UnmarshalDecimal(in); err == nil {
			t.Errorf("UnmarshalDecimal(%T %v) = %v", in, in, d)
		}
	}
}
