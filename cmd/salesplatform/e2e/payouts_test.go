package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/psp"
)

const payoutsBase = "/api/payment_hub/payout_requests/"

// builtPayouts are the payout requests buildPayouts built, and what they
// hold.
type builtPayouts struct {
	spa, rival *payments.Payout
	a, b       map[string]any // spa's two payments: 100 (net 94.75), 20 (net 18.75)
	user       string         // a member of market who may use its cards
	usageID    any            // the use of market's card at spa, in spa's payout
	month      time.Time      // noon UTC on the 1st of the month the payouts pay
}

// buildPayouts pays spa twice, rival's partner once, uses a network
// giftcard of market at spa, and runs the payouts job once spa's month
// (the default frequency) has closed: spa's payout request holds the two
// payments and the usage; rival's partner has its own.
func (f *payFixture) buildPayouts(t *testing.T) builtPayouts {
	t.Helper()
	var out builtPayouts
	out.a = f.paid(t, 100)
	out.b = f.paid(t, 20)
	rivalPay := f.pay(t, f.rivalTok, 5, "partner_uuid", f.rivalSpaUUID, "card", psp.CardSuccess)
	if rivalPay.Status != http.StatusCreated {
		t.Fatalf("rival's payment: %d %s", rivalPay.Status, rivalPay.Body)
	}
	// A use of market's card at spa (its source id 501 in market's network).
	out.user = f.memberOf(t, f.market.ID, domain.PermUseNetworkGiftcardAPI)
	_, code := f.card(t, "50", true)
	use := f.call(t, http.MethodPost, "/api/networkgiftcards_by_code/"+code+"/use/", out.user,
		`{"creation_date": "`+time.Now().Format(time.DateOnly)+`", "value": 10, "partner_source_id": 501, "send_usage_notification_email": false}`)
	if use.Status != http.StatusCreated && use.Status != http.StatusOK {
		t.Fatalf("use: %d %s", use.Status, use.Body)
	}
	out.usageID = use.JSON(t)["id"]

	// The month after this one closes: the job builds, at noon on the 1st
	// of the next (a day of no month's end, in any zone), so that payments
	// of this month are in that month's payout.
	y, m, _ := time.Now().UTC().Date()
	out.month = time.Date(y, m+1, 1, 12, 0, 0, 0, time.UTC)
	now := out.month.AddDate(0, 1, 0)
	res, err := payments.NewPayoutService(persistence.NewUnitOfWork(f.db, persistence.PaymentsStores), nil).BuildPayouts(context.Background(), now)
	if err != nil || len(res.Built) != 2 || len(res.Skipped) != 0 {
		t.Fatalf("build: %v %+v", err, res)
	}
	for _, p := range res.Built {
		if p.PartnerUUID.String() == f.spaUUID {
			out.spa = p
		} else {
			out.rival = p
		}
	}
	return out
}

// The payout requests' routes, field by field: spa's two payments and a
// network giftcard usage at spa are in its payout once its month closed;
// rival's partner has its own.
func TestPayoutRequests(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	ctx := context.Background()
	built := f.buildPayouts(t)
	a, b, spa, rival, user, usageID := built.a, built.b, built.spa, built.rival, built.user, built.usageID
	var zone string
	gcMust(t, f.db.NewRaw(`SELECT time_zone FROM partners WHERE uuid = ?`, f.spaUUID).Scan(ctx, &zone))
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	start, end := payments.PayoutPeriod(built.month, payments.FrequencyMonth, loc)
	record := fmt.Sprintf(`{"id": %d, "uuid": "%s", "partner": %s, "partner_uuid": "%s", "status": "to be validated",
		"currency": "%s", "amount": 113.50, "usages_amount": 10.00, "payments_count": 2, "usages_count": 1,
		"period_start": "%s", "period_end": "%s", "creation_date": "%s", "validation_date": null, "paid_date": null}`,
		spa.ID, spa.UUID, f.spaID, f.spaUUID, a["currency"], start.UTC().Format(time.RFC3339), end.UTC().Format(time.RFC3339),
		spa.CreationDate.UTC().Format(time.RFC3339Nano))
	one := fmt.Sprintf("%s%d/", payoutsBase, spa.ID)
	WantResponse(t, f.call(t, http.MethodGet, one, f.cashierTok, ""), 200, record)
	WantResponse(t, f.call(t, http.MethodGet, one, f.marketTok, ""), 200, record) // its referrer
	WantResponse(t, f.call(t, http.MethodGet, one, f.staffTok, ""), 200, record)
	WantResponse(t, f.call(t, http.MethodGet, payoutsBase+"?page_size=1", f.cashierTok, ""), 200,
		`{"count": 1, "current_page": 1, "has_next": false, "has_previous": false, "page_range": [1], "previous": null,
		"results": [`+record+`]}`)

	// Its usage, as the card's usages list shows it.
	usages := f.call(t, http.MethodGet, one+"usages/", f.cashierTok, "")
	if u := usages.JSON(t); usages.Status != 200 || u["count"] != 1.0 ||
		fmt.Sprint(u["results"].([]any)[0].(map[string]any)["id"]) != fmt.Sprint(usageID) ||
		u["results"].([]any)[0].(map[string]any)["value"] != 10.0 {
		t.Errorf("usages %d %s", usages.Status, usages.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, one+"usages/", f.rivalTok, ""), 404, notFoundJS)

	// Another tenant's, an unknown id, a malformed one: not found.
	WantResponse(t, f.call(t, http.MethodGet, one, f.rivalTok, ""), 404, notFoundJS)
	WantResponse(t, f.call(t, http.MethodGet, one+"payments/", f.rivalTok, ""), 404, notFoundJS)
	WantResponse(t, f.call(t, http.MethodGet, payoutsBase+"999999/", f.staffTok, ""), 404, notFoundJS)
	WantResponse(t, f.call(t, http.MethodGet, payoutsBase+"abc/", f.staffTok, ""), 404, notFoundJS)

	// The filters.
	count := func(token, query string) int {
		t.Helper()
		r := f.call(t, http.MethodGet, payoutsBase+query, token, "")
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", query, r.Status, r.Body)
		}
		return int(r.JSON(t)["count"].(float64))
	}
	today := spa.CreationDate.UTC().Format(time.DateOnly)
	for _, c := range []struct {
		token, query string
		want         int
	}{
		{f.staffTok, "", 2},
		{f.rivalTok, "", 1},
		{f.staffTok, "?partner_uuid=" + f.rivalSpaUUID, 1},
		{f.cashierTok, "?partner_uuid=" + f.rivalSpaUUID, 0},
		{f.staffTok, "?status=to%20be%20validated", 2},
		{f.staffTok, "?status=validated", 0},
		{f.staffTok, "?status__in=validated,paid", 0},
		{f.staffTok, "?status__in=to%20be%20validated,paid&status=paid", 0},
		{f.staffTok, "?creation_date__gte=" + today + "&creation_date__lte=" + today, 2},
		{f.staffTok, "?creation_date__gte=2999-01-01", 0},
		{f.staffTok, "?creation_date__lte=2000-01-01", 0},
	} {
		if got := count(c.token, c.query); got != c.want {
			t.Errorf("%s: %d, want %d", c.query, got, c.want)
		}
	}
	WantResponse(t, f.call(t, http.MethodGet, payoutsBase+"?creation_date__gte=monday&creation_date__lte=2026-13-01&status__in=paid,x&partner_uuid=1", f.staffTok, ""), 400, `{
		"creation_date__gte": ["Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm])."], "creation_date__lte": ["Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm])."],
		"status__in": ["Select a valid choice. x is not one of the available choices."], "partner_uuid": ["Must be a valid UUID."]}`)
	WantResponse(t, f.call(t, http.MethodGet, payoutsBase+"?status=sent", f.staffTok, ""), 400,
		`{"status": ["Select a valid choice. sent is not one of the available choices."]}`)

	// Its payments, newest first, show it.
	pays := f.call(t, http.MethodGet, one+"payments/?page_size=1", f.cashierTok, "")
	page := pays.JSON(t)
	results := page["results"].([]any)
	first := results[0].(map[string]any)
	if pays.Status != 200 || page["count"].(float64) != 2 || len(results) != 1 || first["id"] != b["id"] ||
		first["payout_request_id"].(float64) != float64(spa.ID) || first["payout_request_status"] != "to be validated" ||
		first["payout_request_creation_date"] == nil || first["payout_request_validation_date"] != nil {
		t.Errorf("payments: %d %s", pays.Status, pays.Body)
	}

	// Its usage can no longer be cancelled.
	WantResponse(t, f.call(t, http.MethodPost, fmt.Sprintf("/api/networkgiftcard_usages/%v/cancel/", usageID), user, `{}`), 409,
		`{"detail": "This usage is already in a payout: it cannot be cancelled."}`)

	// Validation: staff only; blocked by the partner's setting.
	WantResponse(t, f.call(t, http.MethodPost, one+"validate/", f.marketTok, `{"reason": "ok"}`), 403,
		`{"detail": "You do not have permission to perform this action."}`)
	_, err = f.db.ExecContext(ctx, `UPDATE payment_partners SET block_payout_validation = true WHERE partner_id = ?`, f.spaID)
	gcMust(t, err)
	WantResponse(t, f.call(t, http.MethodPost, one+"validate/", f.staffTok, `{"reason": "ok"}`), 409,
		`{"detail": "This partner's payouts cannot be validated (block_payout_validation)."}`)
	_, err = f.db.ExecContext(ctx, `UPDATE payment_partners SET block_payout_validation = false WHERE partner_id = ?`, f.spaID)
	gcMust(t, err)
	WantResponse(t, f.call(t, http.MethodPost, one+"validate/", f.staffTok, `{"reason": ["ok"]}`), 400, `{"reason": ["Not a valid string."]}`)
	WantResponse(t, f.call(t, http.MethodPost, payoutsBase+"999999/validate/", f.staffTok, ""), 404, notFoundJS)
	v := f.call(t, http.MethodPost, one+"validate/", f.staffTok, `{"reason": "checked"}`, "X-Idempotency-Key", "validate-1")
	got := v.JSON(t)
	if v.Status != 200 || got["status"] != "validated" || got["validation_date"] == nil || got["paid_date"] != nil || got["id"].(float64) != float64(spa.ID) {
		t.Fatalf("validate: %d %s", v.Status, v.Body)
	}
	again := f.call(t, http.MethodPost, one+"validate/", f.staffTok, `{"reason": "checked"}`, "X-Idempotency-Key", "validate-1")
	WantResponse(t, again, 200, v.Body)
	if again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay header %q", again.Header.Get("Idempotent-Replayed"))
	}
	WantResponse(t, f.call(t, http.MethodPost, one+"validate/", f.staffTok, ""), 409,
		`{"detail": "Only a payout request to be validated can be validated."}`)
	WantResponse(t, f.call(t, http.MethodPost, fmt.Sprintf("%s%d/paid/", payoutsBase, rival.ID), f.staffTok, ""), 409,
		`{"detail": "Only a validated payout request can be marked paid."}`)
	paid := f.call(t, http.MethodPost, one+"paid/", f.staffTok, "reason=transfer+2026-42", "Content-Type", "application/x-www-form-urlencoded")
	if p := paid.JSON(t); paid.Status != 200 || p["status"] != "paid" || p["paid_date"] == nil || p["validation_date"] != got["validation_date"] {
		t.Errorf("paid: %d %s", paid.Status, paid.Body)
	}
	if p := f.call(t, http.MethodGet, paymentsBase+a["id"].(string)+"/", f.cashierTok, "").JSON(t); p["payout_request_status"] != "paid" ||
		p["payout_request_validation_date"] != got["validation_date"] {
		t.Errorf("payment after: %v", p)
	}
	var trail []string
	gcMust(t, f.db.NewRaw(`SELECT action || ':' || actor || ':' || reason FROM payment_hub_audit WHERE payout_request_id = ? ORDER BY id`,
		spa.ID).Scan(ctx, &trail))
	if fmt.Sprint(trail) != "[payout_validate:staff:checked payout_paid:staff:transfer 2026-42]" {
		t.Errorf("audit trail %v", trail)
	}
	// Nothing the rival's members may do moved its payout.
	WantResponse(t, f.call(t, http.MethodGet, fmt.Sprintf("%s%d/", payoutsBase, rival.ID), f.rivalTok, ""), 200, "")
	if p := f.call(t, http.MethodGet, fmt.Sprintf("%s%d/", payoutsBase, rival.ID), f.rivalTok, "").JSON(t); p["status"] != "to be validated" {
		t.Errorf("rival's payout %v", p)
	}
}
