// Package scalar marshals the graph's scalars that gqlgen does not ship:
// Decimal, and ID held as an int64 (the catalogue's record ids). gqlgen.yml
// binds them by name: MarshalDecimal and UnmarshalDecimal for
// salesplatform/graph/scalar.Decimal, and so on.
//
// An Unmarshal function takes any value a request can carry (a literal of
// the query as gqlparser reads it, a variable as the JSON decoder gives it:
// string, json.Number, int64, float64, bool, map, slice, nil) and returns a
// value or an error, never panics; gqlgen reports the error on the
// argument, and the graph's error presenter answers it as BAD_USER_INPUT.
package scalar

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/shopspring/decimal"
)

// MaxDecimalDigits bounds the digits of a Decimal on each side of the
// point: 30 before, 30 after. A decimal such as 1e400 or 1e-1000000000
// parses into a few bytes but prints (and computes) as hundreds or a
// billion digits, so it is refused here, before any code prints it. The
// bound is the representation's, far above any amount: the services apply
// their own (10 digits before the point, 2 after, for money).
const MaxDecimalDigits = 30

// maxDecimalText bounds the text of a decimal before it is parsed: the
// digits on both sides, a sign, a point and an exponent.
const maxDecimalText = 2*MaxDecimalDigits + 16

// MarshalDecimal writes d as a JSON string, exactly, with at least two
// decimal places ("12.50", "0.00"), as the REST catalogue writes amounts.
func MarshalDecimal(d decimal.Decimal) graphql.Marshaler {
	s := d.String()
	if d.Exponent() >= -2 {
		s = d.StringFixed(2)
	}
	return graphql.WriterFunc(func(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(s)) })
}

// UnmarshalDecimal reads a decimal from a string ("12.5") or a JSON number
// of at most MaxDecimalDigits digits on each side of the point.
func UnmarshalDecimal(v any) (decimal.Decimal, error) {
	var d decimal.Decimal
	switch v := v.(type) {
	case string:
		return parseDecimal(v)
	case json.Number:
		return parseDecimal(string(v))
	case int:
		d = decimal.NewFromInt(int64(v))
	case int64:
		d = decimal.NewFromInt(v)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return decimal.Decimal{}, errors.New("a decimal must be a finite number")
		}
		d = decimal.NewFromFloat(v)
	default:
		return decimal.Decimal{}, fmt.Errorf("a decimal must be a string or a number, not %s", kind(v))
	}
	return d, checkDecimal(d)
}

func parseDecimal(s string) (decimal.Decimal, error) {
	if len(s) > maxDecimalText {
		return decimal.Decimal{}, fmt.Errorf("a decimal has at most %d digits before the point and %d after", MaxDecimalDigits, MaxDecimalDigits)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%s is not a decimal", strconv.Quote(s))
	}
	return d, checkDecimal(d)
}

// checkDecimal refuses a decimal with more than MaxDecimalDigits digits on
// either side of the point, counting without printing it.
func checkDecimal(d decimal.Decimal) error {
	if d.IsZero() {
		return nil
	}
	exp := int64(d.Exponent())
	whole := int64(d.NumDigits()) + exp // digits before the point
	if whole > MaxDecimalDigits || -exp > MaxDecimalDigits {
		return fmt.Errorf("a decimal has at most %d digits before the point and %d after", MaxDecimalDigits, MaxDecimalDigits)
	}
	return nil
}

// MarshalInt64ID writes a record id as an ID: a JSON string of its digits.
func MarshalInt64ID(id int64) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(strconv.FormatInt(id, 10)))
	})
}

// UnmarshalInt64ID reads an ID that must be an integer of 64 bits, as a
// string or a JSON number.
func UnmarshalInt64ID(v any) (int64, error) {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case json.Number:
		s = string(v)
	case int:
		return int64(v), nil
	case int64:
		return v, nil
	default:
		return 0, fmt.Errorf("an ID here must be an integer, not %s", kind(v))
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return 0, fmt.Errorf("an ID here must be an integer of 64 bits, not %s", strconv.Quote(s))
	}
	return id, nil
}

// kind names the JSON kind of a value refused by a scalar, for its error
// message.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case json.Number, int, int64, float64:
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("a %T", v)
}
