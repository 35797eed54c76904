// Package scalar marshals the graph's scalars that gqlgen does not ship:
// Decimal, and ID held as an int64 (the catalogue's record ids). gqlgen.yml
// binds them by name: MarshalDecimal and UnmarshalDecimal for
// salesplatform/graph/scalar.Decimal, and so on.
package scalar

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/shopspring/decimal"
)

// MarshalDecimal writes d as a JSON string, exactly, with at least two
// decimal places ("12.50", "0.00"), as the REST catalogue writes amounts.
func MarshalDecimal(d decimal.Decimal) graphql.Marshaler {
	s := d.String()
	if d.Exponent() >= -2 {
		s = d.StringFixed(2)
	}
	return graphql.WriterFunc(func(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(s)) })
}

// UnmarshalDecimal reads a decimal from a string ("12.5") or a JSON number.
func UnmarshalDecimal(v any) (decimal.Decimal, error) {
	switch v := v.(type) {
	case string:
		return decimal.NewFromString(v)
	case json.Number:
		return decimal.NewFromString(v.String())
	case int:
		return decimal.NewFromInt(int64(v)), nil
	case int64:
		return decimal.NewFromInt(v), nil
	case float64:
		return decimal.NewFromFloat(v), nil
	}
	return decimal.Decimal{}, fmt.Errorf("%T is not a decimal", v)
}

// MarshalInt64ID writes a record id as an ID: a JSON string of its digits.
func MarshalInt64ID(id int64) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(strconv.FormatInt(id, 10)))
	})
}

// UnmarshalInt64ID reads an ID that must be an integer, as a string or a
// JSON number.
func UnmarshalInt64ID(v any) (int64, error) {
	switch v := v.(type) {
	case string:
		return strconv.ParseInt(v, 10, 64)
	case json.Number:
		return strconv.ParseInt(string(v), 10, 64)
	case int:
		return int64(v), nil
	case int64:
		return v, nil
	}
	return 0, fmt.Errorf("%T is not an integer ID", v)
}
