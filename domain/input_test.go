package domain

import (
	"testing"

	"github.com/shopspring/decimal"
)

// An amount that must be more than 0 is refused as that whether it is 0
// or below, and otherwise by the rules of every amount.
func TestPositiveMoney(t *testing.T) {
	for in, want := range map[string]string{
		"-5":    MsgPositive,
		"0":     MsgPositive,
		"0.001": "Ensure that there are no more than 2 decimal places.",
		"12.5":  "",
	} {
		var v Validator
		m := Fields{V: &v}.PositiveMoney("amount", Some(decimal.RequireFromString(in)), true)
		got := ""
		if len(v.Fields) > 0 {
			got = v.Fields[0].Message
		}
		if got != want || (m == nil) != (want != "") {
			t.Errorf("%s: %v, %q; want %q", in, m, got, want)
		}
	}
	var v Validator
	if m := (Fields{V: &v}).PositiveMoney("amount", Optional[decimal.Decimal]{}, false); m != nil || len(v.Fields) > 0 {
		t.Errorf("absent and optional: %v, %v", m, v.Fields)
	}
}
