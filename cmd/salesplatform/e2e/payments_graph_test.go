package e2e

import (
	"fmt"
	"net/http"
	"testing"

	"salesplatform/persistence/psp"
)

const (
	payFields = `id uuid status currencyCode customer { firstName lastName email } partnerUuid product origin type
		amount discount commission netAmount refundedAmount extraSourceAmount extraSourceWalletUuid payinAmount payinUrl
		payinResultCode payinResultMessage receiptDescription freezePayoutDate paidOn payoutRequestId payoutRequestStatus
		paymentRequestId createdOn modifiedOn`
	payPayload = `errors { field code message }`
	payCreate  = `mutation($in: CreatePaymentInput!, $key: String) { createPayment(input: $in, idempotencyKey: $key) {
		payment { ` + payFields + ` partner { uuid } extraSourceWallet { uuid balance } } ` + payPayload + ` } }`
	payRefund = `mutation($in: RefundPaymentInput!, $key: String) { refundPayment(input: $in, idempotencyKey: $key) {
		refund { uuid status amount extraSourceAmount payinAmount commission split reason actor resultCode finishedOn }
		payment { refundedAmount status refunds { uuid status } transactions { legacyId type paymentMethod status amount commission netAmount currencyCode } }
		` + payPayload + ` } }`
	payFreeze = `mutation($in: UpdatePaymentFreezeDateInput!) { updatePaymentFreezeDate(input: $in) {
		payment { uuid freezePayoutDate } ` + payPayload + ` } }`
	payRead = `query($u: UUID!) { payment(uuid: $u) { ` + payFields + ` } }`
	payList = `query($f: PaymentFilter, $first: Int, $after: String) { payments(filter: $f, first: $first, after: $after) {
		totalCount pageInfo { hasNextPage endCursor } edges { node { uuid amount status } } } }`
)

// payGraphInput is a createPayment input of spa paid at once by the
// scripted successful card, changed by kv (drop removes a field).
func (f *payFixture) payGraphInput(amount string, kv ...any) map[string]any {
	m := map[string]any{"customer": map[string]any{"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com"},
		"partnerId": f.spaUUID, "amount": amount, "discount": "0", "product": "voucher", "card": psp.CardSuccess}
	return withPairs(m, kv...)
}

// The graph's payments run the REST routes' service: a payment taken
// through createPayment reads back through REST field for field; refunds,
// the freeze date, the list's filters and the relations answer as REST
// does, with the same permissions; refusals are typed errors on the
// input's own fields and write nothing.
func TestGraphPayments(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	cardUUID, code := f.card(t, "100", true)

	// 100.00: 25.00 from the network giftcard, 75.00 by card.
	in := f.payGraphInput("100", "extraSourceWalletUuid", cardUUID, "extraSourceAmount", "25", "origin", "marketplace",
		"receiptDescription", "Two massages")
	data := f.mustGraph(t, f.cashierTok, payCreate, map[string]any{"in": in, "key": "gpay-1"})
	p := dig(data, "createPayment", "payment").(map[string]any)
	id := p["uuid"].(string)
	rest := f.call(t, http.MethodGet, paymentsBase+id+"/", f.cashierTok, "").JSON(t)
	want := map[string]any{"id": globalID("Payment", id), "uuid": id, "status": "PAID", "currencyCode": rest["currency"],
		"customer":    map[string]any{"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com"},
		"partnerUuid": f.spaUUID, "product": "voucher", "origin": "marketplace", "type": "credit_card", "amount": "100.00",
		"discount": "0.00", "commission": fmt.Sprintf("%.2f", rest["commission"]), "netAmount": fmt.Sprintf("%.2f", rest["net_amount"]),
		"refundedAmount": "0.00", "extraSourceAmount": "25.00", "extraSourceWalletUuid": cardUUID, "payinAmount": "75.00",
		"payinUrl": nil, "payinResultCode": rest["payin_result_code"], "payinResultMessage": rest["payin_result_message"],
		"receiptDescription": "Two massages", "freezePayoutDate": nil, "paidOn": rest["paid_on"], "payoutRequestId": nil,
		"payoutRequestStatus": nil, "paymentRequestId": nil, "createdOn": rest["created_on"], "modifiedOn": rest["modified_on"],
		"partner": map[string]any{"uuid": f.spaUUID}, "extraSourceWallet": nil}
	wantSame(t, "created", p, want)
	// The card's wallet is its marketplace's: spa's members do not read it.
	read := f.mustGraph(t, f.marketTok, `query($u: UUID!) { payment(uuid: $u) { extraSourceWallet { uuid balance } } }`,
		map[string]any{"u": id})
	if w := dig(read, "payment", "extraSourceWallet"); fmt.Sprint(w) != fmt.Sprint(map[string]any{"uuid": cardUUID, "balance": "75.00"}) {
		t.Errorf("the marketplace reads the extra source wallet as %v", w)
	}
	if f.remaining(t, code) != "75" {
		t.Errorf("card after the payment: %s", f.remaining(t, code))
	}
	// The same key again answers the same payment without taking it again.
	again := f.mustGraph(t, f.cashierTok, payCreate, map[string]any{"in": in, "key": "gpay-1"})
	if dig(again, "createPayment", "payment", "uuid") != id || f.remaining(t, code) != "75" {
		t.Errorf("replay: %v, card %s", dig(again, "createPayment", "payment", "uuid"), f.remaining(t, code))
	}

	// Refusals: typed errors on the input's fields, nothing written.
	before := f.digestPayments(t)
	data = f.mustGraph(t, f.cashierTok, payCreate, map[string]any{"in": f.payGraphInput("0", "product", "horse")})
	wantSame(t, "refused", dig(data, "createPayment").(map[string]any), map[string]any{"payment": nil, "errors": []any{
		map[string]any{"field": []any{"input", "amount"}, "code": "MIN_VALUE", "message": "Ensure this value is greater than 0."},
		map[string]any{"field": []any{"input", "product"}, "code": "INVALID", "message": `"horse" is not a valid choice.`}}})
	data = f.mustGraph(t, f.rivalTok, payCreate, map[string]any{"in": f.payGraphInput("10")})
	if e := dig(data, "createPayment", "errors").([]any); len(e) != 1 || fmt.Sprint(e[0].(map[string]any)["field"]) != "[input partnerId]" {
		t.Errorf("another marketplace's partner: %v", e)
	}
	if after := f.digestPayments(t); after != before {
		t.Errorf("refused payments wrote:\n%s\n%s", before, after)
	}

	// A proportional refund: 2.50 back to the card, 7.50 through the provider.
	refund := map[string]any{"paymentId": globalID("Payment", id), "amount": "10", "reason": "late"}
	data = f.mustGraph(t, f.accountTok, payRefund, map[string]any{"in": refund, "key": "gref-1"})
	r := dig(data, "refundPayment", "refund").(map[string]any)
	if r["status"] != "SUCCEEDED" || r["amount"] != "10.00" || r["extraSourceAmount"] != "2.50" || r["payinAmount"] != "7.50" ||
		r["split"] != false || r["reason"] != "late" || r["finishedOn"] == nil {
		t.Errorf("refund %v", r)
	}
	after := dig(data, "refundPayment", "payment").(map[string]any)
	txs := after["transactions"].([]any)
	last := txs[len(txs)-1].(map[string]any)
	if after["refundedAmount"] != "10.00" || after["status"] != "PAID" || len(after["refunds"].([]any)) != 1 ||
		len(txs) != 3 || last["type"] != "REFUND" || last["amount"] != "10.00" || last["commission"] != "1.03" {
		t.Errorf("payment after refund %v", after)
	}
	restTxs := f.call(t, http.MethodGet, paymentsBase+id+"/transactions/", f.accountTok, "").JSONArray(t)
	if len(restTxs) != 3 || fmt.Sprint(restTxs[2]["id"]) != last["legacyId"] {
		t.Errorf("REST transactions %v, graph %v", restTxs, txs)
	}
	if f.remaining(t, code) != "77.5" {
		t.Errorf("card after refund %s", f.remaining(t, code))
	}
	// A split, then refusals with REST's rules.
	split := map[string]any{"paymentId": id, "amount": "5", "split": map[string]any{"extraSourceAmount": "5", "additionalPayinAmount": "0"}}
	data = f.mustGraph(t, f.accountTok, payRefund, map[string]any{"in": split})
	if dig(data, "refundPayment", "refund", "split") != true || f.remaining(t, code) != "82.5" {
		t.Errorf("split refund %v, card %s", data, f.remaining(t, code))
	}
	before = f.digestPayments(t)
	data = f.mustGraph(t, f.accountTok, payRefund, map[string]any{"in": map[string]any{"paymentId": id, "amount": "85.01"}})
	wantSame(t, "too much", dig(data, "refundPayment").(map[string]any), map[string]any{"refund": nil, "payment": nil,
		"errors": []any{map[string]any{"field": []any{"input", "amount"}, "code": "MAX_VALUE",
			"message": "Ensure this value is less than or equal to 85.00, what remains refundable."}}})
	bad := map[string]any{"paymentId": id, "amount": "10", "split": map[string]any{"extraSourceAmount": "2", "additionalPayinAmount": "3"}}
	data = f.mustGraph(t, f.accountTok, payRefund, map[string]any{"in": bad})
	if e := dig(data, "refundPayment", "errors").([]any); len(e) != 1 || fmt.Sprint(e[0].(map[string]any)["field"]) != "[input split]" {
		t.Errorf("split that does not add up: %v", e)
	}
	_, errs := f.graph(t, f.cashierTok, payRefund, map[string]any{"in": refund})
	wantGraphCode(t, errs, "FORBIDDEN")
	_, errs = f.graph(t, f.rivalAccountant(t), payRefund, map[string]any{"in": refund})
	wantGraphCode(t, errs, "NOT_FOUND")
	if after := f.digestPayments(t); after != before {
		t.Errorf("refused refunds wrote:\n%s\n%s", before, after)
	}

	// The freeze date: a day is noon in the partner's zone, as REST's.
	data = f.mustGraph(t, f.cashierTok, payFreeze, map[string]any{"in": map[string]any{"paymentId": id, "freezePayoutDate": "2026-12-01"}})
	rest = f.call(t, http.MethodGet, paymentsBase+id+"/", f.cashierTok, "").JSON(t)
	if got := dig(data, "updatePaymentFreezeDate", "payment", "freezePayoutDate"); got == nil || got != rest["freeze_payout_date"] {
		t.Errorf("freeze date: graph %v, REST %v", got, rest["freeze_payout_date"])
	}
	data = f.mustGraph(t, f.cashierTok, payFreeze, map[string]any{"in": map[string]any{"paymentId": id, "freezePayoutDate": "soon"}})
	if e := dig(data, "updatePaymentFreezeDate", "errors").([]any); len(e) != 1 || fmt.Sprint(e[0].(map[string]any)["field"]) != "[input freezePayoutDate]" {
		t.Errorf("bad freeze date: %v", e)
	}

	// Reads: by uuid and node for those who see it, NOT_FOUND for the others.
	if got := f.mustGraph(t, f.marketTok, payRead, map[string]any{"u": id}); dig(got, "payment", "refundedAmount") != "15.00" {
		t.Errorf("referrer reads %v", got)
	}
	if got := f.mustGraph(t, f.staffTok, `query($id: ID!) { node(id: $id) { ... on Payment { uuid } } }`,
		map[string]any{"id": globalID("Payment", id)}); dig(got, "node", "uuid") != id {
		t.Errorf("node %v", got)
	}
	data, errs = f.graph(t, f.rivalTok, payRead, map[string]any{"u": id})
	wantGraphCode(t, errs, "NOT_FOUND")
	if data["payment"] != nil {
		t.Errorf("rival reads %v", data)
	}

	// The list: the filters of REST's, paginated.
	ip := f.mustGraph(t, f.cashierTok, payCreate, map[string]any{"in": f.payGraphInput("12", "card", drop)})
	if dig(ip, "createPayment", "payment", "status") != "IN_PROGRESS" || dig(ip, "createPayment", "payment", "payinUrl") == nil {
		t.Errorf("payment by the card page %v", ip)
	}
	all := f.mustGraph(t, f.cashierTok, payList, map[string]any{"first": 1})
	if dig(all, "payments", "totalCount") != 2.0 || dig(all, "payments", "pageInfo", "hasNextPage") != true {
		t.Errorf("list %v", all)
	}
	next := f.mustGraph(t, f.cashierTok, payList, map[string]any{"first": 1, "after": dig(all, "payments", "pageInfo", "endCursor")})
	if edges := dig(next, "payments", "edges").([]any); len(edges) != 1 || dig(edges[0].(map[string]any), "node", "uuid") != id {
		t.Errorf("second page %v", next)
	}
	for _, c := range []struct {
		filter map[string]any
		count  float64
	}{
		{map[string]any{"statusIn": []any{"PAID"}}, 1},
		{map[string]any{"statusIn": []any{"IN_PROGRESS", "FAILED"}}, 1},
		{map[string]any{"partiallyRefunded": true}, 1},
		{map[string]any{"fullyRefunded": true}, 0},
		{map[string]any{"customerEmail": "ADA@example.com"}, 2},
		{map[string]any{"partnerId": globalID("PaymentPartner", f.spaUUID)}, 2},
		{map[string]any{"payoutRequestStatusIn": []any{"validated"}}, 0},
		{map[string]any{"createdOnGte": "2000-01-01", "createdOnLte": "2000-01-02"}, 0},
	} {
		got := f.mustGraph(t, f.cashierTok, payList, map[string]any{"f": c.filter})
		if dig(got, "payments", "totalCount") != c.count {
			t.Errorf("filter %v: %v", c.filter, dig(got, "payments", "totalCount"))
		}
	}
	if got := f.mustGraph(t, f.rivalTok, payList, nil); dig(got, "payments", "totalCount") != 0.0 {
		t.Errorf("rival lists %v", got)
	}
	_, errs = f.graph(t, f.cashierTok, payList, map[string]any{"f": map[string]any{"createdOnGte": "yesterday"}})
	wantGraphCode(t, errs, "BAD_USER_INPUT")
}
