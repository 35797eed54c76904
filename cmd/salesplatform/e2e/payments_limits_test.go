package e2e

import (
	"fmt"
	"net/http"
	"testing"
)

// A payment of the maximum (1,000,000.00) is taken and shared out
// through the wallets; a cent more is refused on both surfaces as a field
// error on the amount, as is a refund or a payment request above it, and
// nothing is written.
func TestPaymentAmountMaximum(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	p := f.paid(t, "1000000.00")
	if got := fmt.Sprint(p["amount"], " ", p["commission"], " ", p["net_amount"]); got != "1000000.00 50000.25 949999.75" {
		t.Errorf("payment of the maximum: %s", got)
	}
	if spa, commission, clearing := f.balances(t); spa != "949999.75" || commission != "50000.25" || clearing != "0.00" {
		t.Errorf("wallets: spa %s, commission %s, clearing %s", spa, commission, clearing)
	}
	id := p["id"].(string)

	before := f.digestPayments(t)
	const tooMuch = `{"amount": ["Ensure this value is less than or equal to 1000000."]}`
	WantResponse(t, f.pay(t, f.cashierTok, 1000000.01, "card", "4242424242424242"), http.StatusBadRequest, tooMuch)
	WantResponse(t, f.pay(t, f.cashierTok, "9999999999.99", "card", "4242424242424242"), http.StatusBadRequest, tooMuch)
	WantResponse(t, f.call(t, http.MethodPost, paymentsBase+id+"/refund/", f.accountTok, `{"amount": "1000000.01"}`),
		http.StatusBadRequest, tooMuch)
	WantResponse(t, f.call(t, http.MethodPost, requestsBase, f.cashierTok, f.requestBody(t, "amount", 1000000.01)),
		http.StatusBadRequest, tooMuch)

	refused := []any{map[string]any{"field": []any{"input", "amount"}, "code": "MAX_VALUE",
		"message": "Ensure this value is less than or equal to 1000000."}}
	data := f.mustGraph(t, f.cashierTok, payCreate, map[string]any{"in": f.payGraphInput("1000000.01")})
	wantSame(t, "createPayment above the maximum", dig(data, "createPayment").(map[string]any),
		map[string]any{"payment": nil, "errors": refused})
	data = f.mustGraph(t, f.accountTok, payRefund, map[string]any{"in": map[string]any{"paymentId": id, "amount": "1000000.01"}})
	wantSame(t, "refundPayment above the maximum", dig(data, "refundPayment").(map[string]any),
		map[string]any{"refund": nil, "payment": nil, "errors": refused})
	if after := f.digestPayments(t); after != before {
		t.Errorf("refusals wrote:\n%s\n%s", before, after)
	}
}
