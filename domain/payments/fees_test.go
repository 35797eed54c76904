package payments_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/persistence/dbtest"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// refundOf is a refund of amount.
func refundOf(amount string) payments.RefundInput {
	return payments.RefundInput{Amount: domain.Some(dec(amount))}
}

// The table has one default rule per product, no rule twice, and rules
// that cannot make a negative commission.
func TestFeeRulesTable(t *testing.T) {
	t.Parallel()
	defaults := map[string]bool{}
	seen := map[[2]string]bool{}
	for _, r := range payments.FeeRules {
		key := [2]string{r.Product, r.Origin}
		if seen[key] {
			t.Errorf("rule %v twice", key)
		}
		seen[key] = true
		if r.Origin == "" {
			defaults[r.Product] = true
		}
		if r.Percent.IsNegative() || r.Percent.GreaterThanOrEqual(dec("100")) || r.Fixed.IsNegative() ||
			!r.Fixed.Equal(r.Fixed.Round(2)) {
			t.Errorf("rule %v: percent %s, fixed %s", key, r.Percent, r.Fixed)
		}
	}
	for _, p := range []string{payments.ProductVoucher, payments.ProductGiftcard, payments.ProductEvent,
		payments.ProductWorkshop, payments.ProductNetworkGiftcard, payments.ProductNetworkVoucher, payments.ProductRefill} {
		if !defaults[p] {
			t.Errorf("product %s has no default rule", p)
		}
	}
	for _, r := range payments.FeeRules {
		if !defaults[r.Product] {
			t.Errorf("product %s has rules but no default", r.Product)
		}
	}
}

// Each rule gives its commission, the origin's own when it has one and the
// product's default otherwise, rounded half up to the cent.
func TestFees(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		product, origin, amount string
		commission, net         string
	}{
		// 5% of 100.00 + 0.25.
		{"voucher", "", "100.00", "5.25", "94.75"},
		{"voucher", "web", "100.00", "5.25", "94.75"},
		{"voucher", "api", "100.00", "5.25", "94.75"},
		{"voucher", "marketplace", "100.00", "10.25", "89.75"},
		{"giftcard", "", "40.00", "2.25", "37.75"},
		{"giftcard", "marketplace", "40.00", "4.25", "35.75"},
		{"event", "", "50.00", "3.25", "46.75"},
		{"event", "marketplace", "50.00", "6.25", "43.75"},
		{"workshop", "web", "25.00", "1.75", "23.25"},
		{"workshop", "marketplace", "25.00", "3.25", "21.75"},
		// Origins without rules of their own, for the network products.
		{"network_giftcard", "marketplace", "80.00", "2.00", "78.00"},
		{"network_voucher", "", "80.00", "2.00", "78.00"},
		{"refill", "", "200.00", "3.00", "197.00"},
		// Half up: 5% of 4.90 is 0.245, 0.25 (banker's would say 0.24).
		{"voucher", "", "4.90", "0.50", "4.40"},
		// 5% of 4.70 is 0.235: 0.24 (banker's too).
		{"voucher", "", "4.70", "0.49", "4.21"},
		// 2.5% of 10.10 is 0.2525: down to 0.25.
		{"network_giftcard", "", "10.10", "0.25", "9.85"},
		// 1.5% of 0.50 is 0.0075: 0.01.
		{"refill", "", "0.50", "0.01", "0.49"},
		// 1.5% of 0.30 is 0.0045: 0.00.
		{"refill", "", "0.30", "0.00", "0.30"},
		// The fixed part alone is above the amount: the commission is the
		// amount, the net nothing.
		{"voucher", "", "0.20", "0.20", "0.00"},
	} {
		fee, err := payments.Fees(tc.product, tc.origin, dec(tc.amount))
		if err != nil {
			t.Errorf("%+v: %v", tc, err)
			continue
		}
		if !fee.Commission.Equal(dec(tc.commission)) || !fee.NetAmount.Equal(dec(tc.net)) {
			t.Errorf("%s/%s %s: commission %s, net %s; want %s, %s", tc.product, tc.origin, tc.amount,
				fee.Commission, fee.NetAmount, tc.commission, tc.net)
		}
		if !fee.Commission.Add(fee.NetAmount).Equal(dec(tc.amount)) {
			t.Errorf("%+v: commission and net do not add up to the amount", tc)
		}
		if fee.Rule.Product != tc.product || (fee.Rule.Origin != "" && fee.Rule.Origin != tc.origin) {
			t.Errorf("%+v: rule %+v", tc, fee.Rule)
		}
	}
}

func TestRoundCents(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"0.245": "0.25", "0.255": "0.26", "0.2449": "0.24", "0.005": "0.01",
		"0.004": "0.00", "12.345": "12.35", "-0.245": "-0.25"} {
		if got := payments.RoundCents(dec(in)); !got.Equal(dec(want)) {
			t.Errorf("RoundCents(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestFeesRefused(t *testing.T) {
	t.Parallel()
	_, err := payments.Fees("lottery", "", dec("10"))
	dbtest.WantFieldErrors(t, err, map[string]string{"product": `"lottery" is not a valid choice.`})
	_, err = payments.Fees("", "marketplace", dec("10"))
	dbtest.WantFieldErrors(t, err, map[string]string{"product": `"" is not a valid choice.`})
	_, err = payments.Fees("voucher", "", dec("0"))
	dbtest.WantFieldErrors(t, err, map[string]string{"amount": "Ensure this value is greater than 0."})
	_, err = payments.Fees("voucher", "", dec("-3"))
	dbtest.WantCode(t, err, domain.CodeInvalid)
	_, err = payments.Fees("voucher", "", dec("1.005"))
	dbtest.WantFieldErrors(t, err, map[string]string{"amount": "Ensure that there are no more than 2 decimal places."})
}
