package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

const (
	poFields = `id legacyId uuid status currencyCode partnerLegacyId partnerUuid amount usagesAmount paymentsCount usagesCount
		periodStart periodEnd creationDate validationDate paidDate`
	poRead = `query($id: ID!) { payoutRequest(id: $id) { ` + poFields + ` partner { uuid }
		payments(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { node { uuid payoutRequestId payoutRequestStatus
			payoutRequestCreationDate payoutRequestValidationDate } } }
		usages { totalCount edges { node { legacyId value partnerId } } } } }`
	poList = `query($f: PayoutRequestFilter, $first: Int, $after: String) { payoutRequests(filter: $f, first: $first, after: $after) {
		totalCount pageInfo { hasNextPage endCursor } edges { node { legacyId status } } } }`
	poValidate = `mutation($in: ValidatePayoutRequestInput!, $key: String) { validatePayoutRequest(input: $in, idempotencyKey: $key) {
		payoutRequest { legacyId status validationDate paidDate } errors { field code message } } }`
	poPaid = `mutation($in: MarkPayoutRequestPaidInput!, $key: String) { markPayoutRequestPaid(input: $in, idempotencyKey: $key) {
		payoutRequest { legacyId status validationDate paidDate } errors { field code message } } }`
)

// The graph's payout requests run the REST routes' service: a request
// reads as REST's record field for field, with its payments and usages;
// the list filters and pages as REST's; validating and marking paid are
// staff's, refused as REST refuses, audited, and REST reads the result.
func TestGraphPayoutRequests(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	ctx := context.Background()
	built := f.buildPayouts(t)
	spa, rival := built.spa, built.rival
	id := fmt.Sprint(spa.ID)
	gid := globalID("PayoutRequest", id)
	one := payoutsBase + id + "/"

	// The record: REST's, typed.
	rest := f.call(t, http.MethodGet, one, f.cashierTok, "").JSON(t)
	data := f.mustGraph(t, f.cashierTok, poRead, map[string]any{"id": id})
	p := dig(data, "payoutRequest").(map[string]any)
	record := map[string]any{}
	for _, k := range strings.Fields(poFields) {
		record[k] = p[k]
	}
	wantSame(t, "record", record, map[string]any{"id": gid, "legacyId": id, "uuid": rest["uuid"], "status": "TO_BE_VALIDATED",
		"currencyCode": rest["currency"], "partnerLegacyId": fmt.Sprint(rest["partner"]), "partnerUuid": rest["partner_uuid"],
		"amount": fmt.Sprintf("%.2f", rest["amount"]), "usagesAmount": fmt.Sprintf("%.2f", rest["usages_amount"]),
		"paymentsCount": rest["payments_count"], "usagesCount": rest["usages_count"], "periodStart": rest["period_start"],
		"periodEnd": rest["period_end"], "creationDate": rest["creation_date"], "validationDate": nil, "paidDate": nil})
	if record["amount"] != "113.50" || record["usagesAmount"] != "10.00" {
		t.Errorf("amounts %v %v", record["amount"], record["usagesAmount"])
	}

	// Its relations: the payee, its payments newest first, its usage.
	if dig(p, "partner", "uuid") != f.spaUUID {
		t.Errorf("partner %v", p["partner"])
	}
	pays := p["payments"].(map[string]any)
	if pays["totalCount"] != 2.0 || dig(pays, "pageInfo", "hasNextPage") != true || dig(pays, "edges", "node", "uuid") != built.b["id"] ||
		fmt.Sprint(dig(pays, "edges", "node", "payoutRequestId")) != id || dig(pays, "edges", "node", "payoutRequestStatus") != "to be validated" {
		t.Errorf("payments %v", pays)
	}
	if u := p["usages"].(map[string]any); u["totalCount"] != 1.0 || dig(u, "edges", "node", "legacyId") != fmt.Sprint(built.usageID) ||
		dig(u, "edges", "node", "value") != "10.00" || dig(u, "edges", "node", "partnerId") != f.spaID {
		t.Errorf("usages %v", u)
	}

	// Reads: by numeric id, global id and node for those who see it
	// (its referrer, staff); NOT_FOUND for another tenant and for a
	// global id of another type.
	for _, tok := range []string{f.marketTok, f.staffTok} {
		for _, key := range []string{id, gid} {
			if got := f.mustGraph(t, tok, poRead, map[string]any{"id": key}); dig(got, "payoutRequest", "uuid") != rest["uuid"] {
				t.Errorf("read by %s: %v", key, got)
			}
		}
	}
	node := f.mustGraph(t, f.cashierTok, `query($id: ID!) { node(id: $id) { __typename ... on PayoutRequest { legacyId amount } } }`,
		map[string]any{"id": gid})
	if dig(node, "node", "__typename") != "PayoutRequest" || dig(node, "node", "legacyId") != id || dig(node, "node", "amount") != "113.50" {
		t.Errorf("node %v", node)
	}
	for _, q := range []struct{ query, key string }{{poRead, id}, {`query($id: ID!) { node(id: $id) { id } }`, gid}} {
		data, errs := f.graph(t, f.rivalTok, q.query, map[string]any{"id": q.key})
		wantGraphCode(t, errs, "NOT_FOUND")
		if strings.Contains(fmt.Sprint(data), f.spaUUID) {
			t.Errorf("rival reads %v", data)
		}
	}
	_, errs := f.graph(t, f.staffTok, poRead, map[string]any{"id": globalID("PaymentRequest", id)})
	wantGraphCode(t, errs, "NOT_FOUND")

	// The list: REST's filters, paginated, newest first.
	first := f.mustGraph(t, f.staffTok, poList, map[string]any{"first": 1})
	if dig(first, "payoutRequests", "totalCount") != 2.0 || dig(first, "payoutRequests", "pageInfo", "hasNextPage") != true {
		t.Errorf("list %v", first)
	}
	next := f.mustGraph(t, f.staffTok, poList, map[string]any{"first": 1, "after": dig(first, "payoutRequests", "pageInfo", "endCursor")})
	seen := fmt.Sprint(dig(first, "payoutRequests", "edges", "node", "legacyId"), " ", dig(next, "payoutRequests", "edges", "node", "legacyId"))
	if want := fmt.Sprint(rival.ID, " ", spa.ID); seen != want && seen != fmt.Sprint(spa.ID, " ", rival.ID) ||
		dig(next, "payoutRequests", "pageInfo", "hasNextPage") != false {
		t.Errorf("the two pages hold %s, want both requests", seen)
	}
	today := spa.CreationDate.UTC().Format(time.DateOnly)
	for _, c := range []struct {
		token  string
		filter map[string]any
		count  float64
	}{
		{f.staffTok, nil, 2},
		{f.rivalTok, nil, 1},
		{f.cashierTok, nil, 1},
		{f.staffTok, map[string]any{"partnerId": globalID("PaymentPartner", f.rivalSpaUUID)}, 1},
		{f.staffTok, map[string]any{"partnerId": f.spaUUID}, 1},
		{f.cashierTok, map[string]any{"partnerId": f.rivalSpaUUID}, 0},
		{f.staffTok, map[string]any{"statusIn": []any{"TO_BE_VALIDATED"}}, 2},
		{f.staffTok, map[string]any{"statusIn": []any{"VALIDATED", "PAID"}}, 0},
		{f.staffTok, map[string]any{"creationDateGte": today, "creationDateLte": today}, 2},
		{f.staffTok, map[string]any{"creationDateGte": "2999-01-01"}, 0},
		{f.staffTok, map[string]any{"creationDateLte": "2000-01-01"}, 0},
	} {
		got := f.mustGraph(t, c.token, poList, map[string]any{"f": c.filter})
		if dig(got, "payoutRequests", "totalCount") != c.count {
			t.Errorf("filter %v: %v", c.filter, dig(got, "payoutRequests", "totalCount"))
		}
	}
	_, errs = f.graph(t, f.staffTok, poList, map[string]any{"f": map[string]any{"creationDateGte": "monday"}})
	wantGraphCode(t, errs, "BAD_USER_INPUT")

	// Validation: staff only, as REST; refusals write nothing.
	in := map[string]any{"payoutRequestId": gid, "reason": "checked"}
	for _, tok := range []string{f.marketTok, f.cashierTok, f.rivalTok} {
		_, errs = f.graph(t, tok, poValidate, map[string]any{"in": in})
		wantGraphCode(t, errs, "FORBIDDEN")
	}
	_, err := f.db.ExecContext(ctx, `UPDATE payment_partners SET block_payout_validation = true WHERE partner_id = ?`, f.spaID)
	gcMust(t, err)
	blocked := f.call(t, http.MethodPost, one+"validate/", f.staffTok, `{"reason": "ok"}`)
	data, errs = f.graph(t, f.staffTok, poValidate, map[string]any{"in": in})
	wantGraphCode(t, errs, "CONFLICT")
	if blocked.Status != http.StatusConflict || len(errs) != 1 || errs[0].Message != blocked.JSON(t)["detail"] || data["validatePayoutRequest"] != nil {
		t.Errorf("blocked: REST %d %s, graph %v %+v", blocked.Status, blocked.Body, data, errs)
	}
	_, err = f.db.ExecContext(ctx, `UPDATE payment_partners SET block_payout_validation = false WHERE partner_id = ?`, f.spaID)
	gcMust(t, err)
	data = f.mustGraph(t, f.staffTok, poValidate, map[string]any{"in": map[string]any{"payoutRequestId": id,
		"reason": strings.Repeat("x", 1001)}})
	if e := dig(data, "validatePayoutRequest", "errors").([]any); len(e) != 1 || fmt.Sprint(dig(e[0], "field")) != "[input reason]" ||
		dig(e[0], "code") != "MAX_LENGTH" || dig(data, "validatePayoutRequest", "payoutRequest") != nil {
		t.Errorf("long reason: %v", data)
	}
	for _, key := range []string{"999999", globalID("Payment", built.a["id"].(string)), "abc"} {
		_, errs = f.graph(t, f.staffTok, poValidate, map[string]any{"in": map[string]any{"payoutRequestId": key}})
		wantGraphCode(t, errs, "NOT_FOUND")
	}
	if got := f.call(t, http.MethodGet, one, f.staffTok, "").JSON(t); got["status"] != "to be validated" {
		t.Fatalf("refusals changed it: %v", got)
	}

	// By staff, once per key: REST reads it validated; the audit trail has it.
	data = f.mustGraph(t, f.staffTok, poValidate, map[string]any{"in": in, "key": "gpo-1"})
	v := dig(data, "validatePayoutRequest").(map[string]any)
	after := f.call(t, http.MethodGet, one, f.staffTok, "").JSON(t)
	if dig(v, "payoutRequest", "status") != "VALIDATED" || len(v["errors"].([]any)) != 0 || after["status"] != "validated" ||
		dig(v, "payoutRequest", "validationDate") != after["validation_date"] || after["validation_date"] == nil ||
		dig(v, "payoutRequest", "paidDate") != nil {
		t.Errorf("validated: graph %v, REST %v", v, after)
	}
	again := f.mustGraph(t, f.staffTok, poValidate, map[string]any{"in": in, "key": "gpo-1"})
	wantSame(t, "replay", again, data)
	_, errs = f.graph(t, f.staffTok, poValidate, map[string]any{"in": in})
	wantGraphCode(t, errs, "CONFLICT")
	_, errs = f.graph(t, f.staffTok, poPaid, map[string]any{"in": map[string]any{"payoutRequestId": fmt.Sprint(rival.ID)}})
	wantGraphCode(t, errs, "CONFLICT")
	_, errs = f.graph(t, f.rivalTok, poPaid, map[string]any{"in": map[string]any{"payoutRequestId": gid}})
	wantGraphCode(t, errs, "FORBIDDEN")

	// Paid.
	data = f.mustGraph(t, f.staffTok, poPaid, map[string]any{"in": map[string]any{"payoutRequestId": gid, "reason": "transfer 7"}, "key": "gpo-2"})
	after = f.call(t, http.MethodGet, one, f.staffTok, "").JSON(t)
	if dig(data, "markPayoutRequestPaid", "payoutRequest", "status") != "PAID" || after["status"] != "paid" ||
		dig(data, "markPayoutRequestPaid", "payoutRequest", "paidDate") != after["paid_date"] || after["paid_date"] == nil {
		t.Errorf("paid: graph %v, REST %v", data, after)
	}
	var trail []string
	gcMust(t, f.db.NewRaw(`SELECT action || ':' || actor || ':' || reason FROM payment_hub_audit WHERE payout_request_id = ? ORDER BY id`,
		spa.ID).Scan(ctx, &trail))
	if fmt.Sprint(trail) != "[payout_validate:staff:checked payout_paid:staff:transfer 7]" {
		t.Errorf("audit trail %v", trail)
	}
	// Its payments show it as REST's do.
	afterPaid := f.mustGraph(t, f.cashierTok, poRead, map[string]any{"id": gid})
	paidNode := dig(afterPaid, "payoutRequest", "payments", "edges", "node").(map[string]any)
	restPay := f.call(t, http.MethodGet, paymentsBase+paidNode["uuid"].(string)+"/", f.cashierTok, "").JSON(t)
	if dig(afterPaid, "payoutRequest", "status") != "PAID" || paidNode["payoutRequestStatus"] != "paid" ||
		paidNode["payoutRequestCreationDate"] != restPay["payout_request_creation_date"] ||
		paidNode["payoutRequestValidationDate"] != restPay["payout_request_validation_date"] ||
		restPay["payout_request_validation_date"] == nil {
		t.Errorf("after paid %v, REST %v", afterPaid, restPay)
	}
	if got := f.call(t, http.MethodGet, fmt.Sprintf("%s%d/", payoutsBase, rival.ID), f.rivalTok, "").JSON(t); got["status"] != "to be validated" {
		t.Errorf("rival's payout %v", got)
	}
}
