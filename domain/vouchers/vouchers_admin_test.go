package vouchers_test

import (
	"fmt"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/vouchers"
)

// TestVoucherTransitions checks every from × to pair of the state table,
// written out here independently of domain.VoucherTransitions.
func TestVoucherTransitions(t *testing.T) {
	t.Parallel()
	allowed := map[[2]string]bool{
		{"draft", "paid"}: true, {"draft", "error"}: true,
		{"error", "draft"}: true, {"error", "paid"}: true,
		{"paid", "using"}: true, {"paid", "used"}: true, {"paid", "exprd"}: true,
		{"using", "used"}: true, {"using", "paid"}: true,
	}
	states := []string{"draft", "paid", "error", "using", "used", "exprd"}
	for _, from := range states {
		for _, to := range states {
			err := vouchers.CheckVoucherTransition(from, to)
			switch {
			case from == to || allowed[[2]string{from, to}]:
				if err != nil {
					t.Errorf("%s → %s: %v, want allowed", from, to, err)
				}
			default:
				want := fmt.Sprintf("Cannot change a voucher from %q to %q.", from, to)
				e, ok := err.(*domain.Error)
				if !ok || e.Code != domain.CodeInvalid || len(e.Fields) != 1 || e.Fields[0].Path[0] != "state" || e.Fields[0].Message != want {
					t.Errorf("%s → %s: %v, want the error %q on state", from, to, err, want)
				}
			}
		}
		err := vouchers.CheckVoucherTransition(from, "x")
		if e, ok := err.(*domain.Error); !ok || e.Fields[0].Message != `"x" is not a valid choice.` {
			t.Errorf("%s → x: %v", from, err)
		}
	}
	// The table names every state and nothing else.
	if len(vouchers.VoucherTransitions) != len(states) {
		t.Errorf("the table has %d states, want %d", len(vouchers.VoucherTransitions), len(states))
	}
}

func TestVoucherPrototypeTypeCode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"standard": 1, "stay": 2, "fixed_stay": 3} {
		if got := vouchers.VoucherPrototypeTypeCode(in); got != want {
			t.Errorf("VoucherPrototypeTypeCode(%q) = %d, want %d", in, got, want)
		}
	}
}
