package e2e

import (
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/cmd/salesplatform/demo"
)

// paymentsDemoChecks use the demo's payment hub.
var paymentsDemoChecks = []demoCheck{
	{"PaymentRefunds", demoPaymentRefunds},
}

// demoPaymentRefunds refunds the spa's payments.
func demoPaymentRefunds(t *testing.T, s *seededDemo) {
	data, call := s.data, s.call
	// The marketplace's user refunds each paid payment of the spa with
	// something left to give back: its permission is kept, and the
	// payment dated ahead keeps the spa's wallet in funds.
	type payment struct {
		ID                        string
		Amount                    decimal.Decimal
		RefundedAmount            decimal.Decimal `json:"refunded_amount"`
		PaymentReceiptDescription string          `json:"payment_receipt_description"`
	}
	list := func(t *testing.T) map[string]payment {
		var page struct{ Results []payment }
		decodeJSON(t, call(t, "GET", "/api/payment_hub/payments/?page_size=100", "", 200).Body, &page)
		byReceipt := map[string]payment{}
		for _, p := range page.Results {
			byReceipt[p.PaymentReceiptDescription] = p
		}
		return byReceipt
	}
	before, refunded := list(t), 0
	for _, d := range data.HubPayments {
		p, ok := before[d.Receipt]
		if !ok {
			t.Fatalf("payment %s is not listed", d.Key)
		}
		if d.Card != demo.HubCardPaid || p.RefundedAmount.Equal(p.Amount) {
			continue
		}
		call(t, "POST", "/api/payment_hub/payments/"+p.ID+"/refund/", `{"amount": 5, "reason": "Goodwill"}`, 200)
		refunded++
	}
	for receipt, p := range list(t) {
		if want := before[receipt].RefundedAmount; !p.RefundedAmount.Equal(want) && !p.RefundedAmount.Equal(want.Add(decimal.NewFromInt(5))) {
			t.Errorf("%s: refunded %s, was %s", receipt, p.RefundedAmount, want)
		}
	}
	if refunded < 2 {
		t.Errorf("%d payments refunded: the demo leaves too few to try", refunded)
	}
}
