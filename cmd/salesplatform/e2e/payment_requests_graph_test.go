package e2e

import (
	"fmt"
	"net/http"
	"testing"

	"salesplatform/persistence/psp"
)

const (
	reqFields = `id legacyId code status amount currencyCode customer { firstName lastName email } partnerUuid language
		reference description origin product invoicingMarketplaceId paymentUrl paidOn createdOn modifiedOn`
	reqCreate = `mutation($in: CreatePaymentRequestInput!, $key: String) { createPaymentRequest(input: $in, idempotencyKey: $key) {
		paymentRequest { ` + reqFields + ` partner { uuid } } errors { field code message } } }`
	reqRead = `query($id: ID!) { paymentRequest(id: $id) { ` + reqFields + `
		payments(first: 5) { totalCount edges { node { uuid status amount paymentRequestId } } } } }`
	reqList = `query($s: String, $first: Int, $after: String) { paymentRequests(search: $s, first: $first, after: $after) {
		totalCount pageInfo { hasNextPage endCursor } edges { node { legacyId reference } } } }`
)

// The graph's payment requests run the REST routes' service: a request
// made by createPaymentRequest reads back through REST field for field;
// the list searches as REST's; refusals are typed errors on the input's
// own fields and write nothing; another tenant reads NOT_FOUND; a
// request's payments are those its public page started.
func TestGraphPaymentRequests(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	in := map[string]any{"partnerId": f.spaUUID, "amount": "80.5", "language": "nl", "reference": "GQL-1",
		"description": "Weekend", "product": "event",
		"customer": map[string]any{"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com"}}
	data := f.mustGraph(t, f.cashierTok, reqCreate, map[string]any{"in": in, "key": "greq-1"})
	r := dig(data, "createPaymentRequest", "paymentRequest").(map[string]any)
	id := r["legacyId"].(string)
	rest := f.call(t, http.MethodGet, requestsBase+id+"/", f.cashierTok, "").JSON(t)
	wantSame(t, "created", r, map[string]any{"id": globalID("PaymentRequest", id), "legacyId": id, "code": rest["code"],
		"status": "PENDING", "amount": "80.50", "currencyCode": "EUR", "partnerUuid": f.spaUUID, "language": "nl",
		"customer":  map[string]any{"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com"},
		"reference": "GQL-1", "description": "Weekend", "origin": "", "product": "event", "invoicingMarketplaceId": nil,
		"paymentUrl": rest["payment_url"], "paidOn": nil, "createdOn": rest["created_on"], "modifiedOn": rest["modified_on"],
		"partner": map[string]any{"uuid": f.spaUUID}})
	again := f.mustGraph(t, f.cashierTok, reqCreate, map[string]any{"in": in, "key": "greq-1"})
	if dig(again, "createPaymentRequest", "paymentRequest", "legacyId") != id {
		t.Errorf("replay %v", again)
	}

	// Refusals: typed errors on the input's fields, nothing written.
	before := f.requestCount(t)
	bad := map[string]any{"partnerId": f.spaUUID, "amount": "0", "language": "xx", "product": "refill",
		"customer": map[string]any{"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com"}}
	data = f.mustGraph(t, f.cashierTok, reqCreate, map[string]any{"in": bad})
	wantSame(t, "refused", dig(data, "createPaymentRequest").(map[string]any), map[string]any{"paymentRequest": nil, "errors": []any{
		map[string]any{"field": []any{"input", "amount"}, "code": "MIN_VALUE", "message": "Ensure this value is greater than 0."},
		map[string]any{"field": []any{"input", "language"}, "code": "INVALID", "message": `"xx" is not a valid choice.`},
		map[string]any{"field": []any{"input", "invoicingMarketplaceId"}, "code": "REQUIRED", "message": "This field is required for a refill."}}})
	data = f.mustGraph(t, f.rivalTok, reqCreate, map[string]any{"in": in})
	if e := dig(data, "createPaymentRequest", "errors").([]any); len(e) != 1 || fmt.Sprint(e[0].(map[string]any)["field"]) != "[input partnerId]" {
		t.Errorf("another tenant's partner: %v", e)
	}
	if n := f.requestCount(t); n != before {
		t.Errorf("refusals wrote %d requests", n-before)
	}

	// Reads: by global id, numeric id and node; NOT_FOUND for the rival.
	for _, key := range []string{id, globalID("PaymentRequest", id)} {
		if got := f.mustGraph(t, f.marketTok, reqRead, map[string]any{"id": key}); dig(got, "paymentRequest", "code") != rest["code"] {
			t.Errorf("read by %s: %v", key, got)
		}
	}
	node := f.mustGraph(t, f.cashierTok, `query($id: ID!) { node(id: $id) { ... on PaymentRequest { code } } }`,
		map[string]any{"id": globalID("PaymentRequest", id)})
	if dig(node, "node", "code") != rest["code"] {
		t.Errorf("node %v", node)
	}
	data, errs := f.graph(t, f.rivalTok, reqRead, map[string]any{"id": id})
	wantGraphCode(t, errs, "NOT_FOUND")
	if data["paymentRequest"] != nil {
		t.Errorf("rival reads %v", data)
	}
	_, errs = f.graph(t, f.cashierTok, reqRead, map[string]any{"id": globalID("Payment", id)})
	wantGraphCode(t, errs, "NOT_FOUND")

	// The list: search and pages, as REST's.
	f.request(t, "reference", "GQL-2")
	f.request(t, "reference", "OTHER")
	list := f.mustGraph(t, f.cashierTok, reqList, map[string]any{"s": "gql", "first": 1})
	if dig(list, "paymentRequests", "totalCount") != 2.0 || dig(list, "paymentRequests", "pageInfo", "hasNextPage") != true {
		t.Errorf("search page 1 %v", list)
	}
	next := f.mustGraph(t, f.cashierTok, reqList, map[string]any{"s": "gql", "first": 1,
		"after": dig(list, "paymentRequests", "pageInfo", "endCursor")})
	if edges := dig(next, "paymentRequests", "edges").([]any); len(edges) != 1 || dig(edges[0], "node", "reference") != "GQL-1" {
		t.Errorf("search page 2 %v", next)
	}
	if got := f.mustGraph(t, f.rivalTok, reqList, nil); dig(got, "paymentRequests", "totalCount") != 0.0 {
		t.Errorf("rival lists %v", got)
	}

	// Paid on its page: the relation holds the payment, the request is PAID.
	card := f.payRequest(t, map[string]any{"payment_url": rest["payment_url"]})
	if res := f.form(t, card, "card_number="+psp.CardSuccess); res.Status != http.StatusSeeOther {
		t.Fatalf("card form %d %s", res.Status, res.Body)
	}
	got := f.mustGraph(t, f.cashierTok, reqRead, map[string]any{"id": id})
	pr := dig(got, "paymentRequest").(map[string]any)
	edges := dig(pr, "payments", "edges").([]any)
	if pr["status"] != "PAID" || pr["paidOn"] == nil || dig(pr, "payments", "totalCount") != 1.0 || len(edges) != 1 ||
		dig(edges[0], "node", "status") != "PAID" || dig(edges[0], "node", "amount") != "80.50" ||
		fmt.Sprint(dig(edges[0], "node", "paymentRequestId")) != id {
		t.Errorf("paid request %v", pr)
	}
}
