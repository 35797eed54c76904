package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"salesplatform/domain"
	"salesplatform/persistence/psp"
)

// payFixture is a hubFixture with spa, a payment-hub partner of market
// whose payments are activated, in market's network and its network
// giftcard settings; cashier, a member of spa; and accountant, a member
// of spa who may refund.
type payFixture struct {
	*hubFixture
	spaUUID, spaID         string
	cashierTok, accountTok string
	cardIssuerTok          string
	rivalSpaUUID           string
	inactiveUUID           string
}

const paymentsBase = "/api/payment_hub/payments/"

func newPayFixture(t *testing.T) *payFixture {
	t.Helper()
	f := &payFixture{hubFixture: newHubFixture(t)}
	spa := f.create(t, "commercial_name", "Spa des Alpes", "freeze_payout", true)
	f.spaUUID, f.spaID = spa["uuid"].(string), fmt.Sprint(spa["id"])
	f.activate(t, f.spaUUID, f.marketTok)
	var spaID int64
	gcMust(t, f.db.NewRaw(`SELECT id FROM partners WHERE uuid = ?`, f.spaUUID).Scan(context.Background(), &spaID))
	_, err := f.db.ExecContext(context.Background(), `INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, '501');
		INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?)`, f.market.ID, spaID, f.market.ID, spaID)
	gcMust(t, err)
	f.cashierTok = f.memberOf(t, spaID)
	f.accountTok = f.memberOf(t, spaID, domain.PermAccessFinancialOrderLines)
	f.cardIssuerTok = f.memberOf(t, f.market.ID, domain.PermCreateNetworkGiftcardAPI)
	// A partner of rival, activated; one of market, not activated.
	res := f.call(t, http.MethodPost, hubBase, f.rivalTok, body(t, hubRequired()))
	f.rivalSpaUUID = res.JSON(t)["uuid"].(string)
	f.activate(t, f.rivalSpaUUID, f.rivalTok)
	f.inactiveUUID = f.create(t, "commercial_name", "Pending")["uuid"].(string)
	return f
}

// activate starts the partner's payments activation and verifies the
// legal representative on the provider's page.
func (f *payFixture) activate(t *testing.T, partnerUUID, token string) {
	t.Helper()
	act := f.call(t, http.MethodPost, hubBase+partnerUUID+"/activate-payments/", token, "").JSON(t)
	page := pagePath(t, act["user_action_url"].(string))
	if res := f.call(t, http.MethodPost, page, "", "decision=verify", "Content-Type", "application/x-www-form-urlencoded"); res.Status != http.StatusSeeOther {
		t.Fatalf("verify: %d %s", res.Status, res.Body)
	}
}

// card issues a network giftcard of market worth value and returns its
// uuid (its wallet's) and code.
func (f *payFixture) card(t *testing.T, value string, splittable bool) (string, string) {
	t.Helper()
	res := f.call(t, http.MethodPost, "/api/networkgiftcards/", f.cardIssuerTok, `{"marketplace_uuid": "`+f.market.UUID.String()+`",
		"status": "paid", "value": `+value+`, "is_splittable": `+fmt.Sprint(splittable)+`,
		"gifter": {"first_name": "Jean", "last_name": "Valjean", "email": "jean@example.com"}, "from_gifter": "Enjoy",
		"activation_date": "2026-01-01", "expiration_date": "2030-12-31"}`)
	if res.Status != http.StatusCreated {
		t.Fatalf("card: %d %s", res.Status, res.Body)
	}
	code := res.JSON(t)["code"].(string)
	byCode := f.call(t, http.MethodGet, "/api/networkgiftcards_by_code/"+code+"/", f.cardIssuerTok, "").JSON(t)
	return byCode["uuid"].(string), code
}

func (f *payFixture) remaining(t *testing.T, code string) string {
	t.Helper()
	return fmt.Sprint(f.call(t, http.MethodGet, "/api/networkgiftcards_by_code/"+code+"/", f.cardIssuerTok, "").JSON(t)["remaining_value"])
}

// pay creates a payment of spa with kv over a voucher payment of amount.
func (f *payFixture) pay(t *testing.T, token string, amount any, kv ...any) Response {
	t.Helper()
	base := map[string]any{"customer": map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com"},
		"partner_uuid": f.spaUUID, "amount": amount, "discount": 0, "product": "voucher", "type": "credit_card"}
	return f.call(t, http.MethodPost, paymentsBase, token, body(t, base, kv...))
}

// paid creates a payment paid at once by the scripted successful card.
func (f *payFixture) paid(t *testing.T, amount any, kv ...any) map[string]any {
	t.Helper()
	res := f.pay(t, f.cashierTok, amount, append([]any{"card", psp.CardSuccess}, kv...)...)
	p := res.JSON(t)
	if res.Status != http.StatusCreated || p["status"] != "ok" {
		t.Fatalf("pay: %d %s", res.Status, res.Body)
	}
	return p
}

// balances returns the balance of spa's wallet and of the platform's
// commission and clearing wallets, and checks double entry.
func (f *payFixture) balances(t *testing.T) (spa, commission, clearing string) {
	t.Helper()
	ctx := context.Background()
	gcMust(t, f.db.NewRaw(`SELECT
			coalesce((SELECT balance::text FROM wallets w JOIN partners p ON p.id = w.partner_id WHERE p.uuid = ?), 'none'),
			coalesce((SELECT balance::text FROM wallets WHERE kind = 'commission'), 'none'),
			coalesce((SELECT balance::text FROM wallets WHERE kind = 'payin_clearing'), 'none')`, f.spaUUID).
		Scan(ctx, &spa, &commission, &clearing))
	// Double entry: the wallets with balances sum to what the cards gave
	// the book less what it gave back to them.
	var unbalanced string
	gcMust(t, f.db.NewRaw(`SELECT (coalesce((SELECT sum(balance) FROM wallets WHERE balance IS NOT NULL), 0)
		- coalesce((SELECT sum(CASE WHEN d.kind = 'network_giftcard' THEN m.amount ELSE -m.amount END)
			FROM wallet_movements m JOIN wallets d ON d.uuid = m.debited_wallet_uuid JOIN wallets c ON c.uuid = m.credited_wallet_uuid
			WHERE (d.kind = 'network_giftcard') <> (c.kind = 'network_giftcard')), 0))::text`).Scan(ctx, &unbalanced))
	if unbalanced != "0" && unbalanced != "0.00" {
		t.Errorf("the wallets are off double entry by %s", unbalanced)
	}
	return spa, commission, clearing
}

func TestPaymentCreateByCardPage(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)

	res := f.pay(t, f.cashierTok, 100, "discount", 12.5, "origin", "web", "payment_receipt_description", "Massage",
		"freeze_payout_date", "2026-12-01")
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	p := res.JSON(t)
	id := p["id"].(string)
	if res.Header.Get("Location") != paymentsBase+id+"/" {
		t.Errorf("Location %q", res.Header.Get("Location"))
	}
	// The creation fields of 2.14, and the record.
	want := map[string]any{"status": "ip", "currency": "EUR", "amount": "100.00", "discount": "12.50", "commission": 5.25,
		"net_amount": 94.75, "refunded_amount": 0.0, "product": "voucher", "type": "credit_card", "origin": "web",
		"payment_receipt_description": "Massage", "partner_uuid": f.spaUUID, "extra_source_amount": 0.0,
		"extra_source_wallet": nil, "extra_source_wallet_uuid": nil, "payout_request_id": nil, "payout_request_status": nil,
		"payment_request_id": nil, "payment_receipt_pdf_file": nil, "paid_on": nil, "payin_result_code": psp.CodeCardRequired,
		"freeze_payout_date": "2026-12-01T11:00:00Z"}
	for k, v := range want {
		if fmt.Sprint(p[k]) != fmt.Sprint(v) {
			t.Errorf("%s = %v, want %v", k, p[k], v)
		}
	}
	if fmt.Sprint(p["partner"]) != f.spaID {
		t.Errorf("partner %v, want %s", p["partner"], f.spaID)
	}
	if c := p["customer"].(map[string]any); c["first_name"] != "Ada" || c["last_name"] != "Lovelace" || c["email"] != "ada@example.com" {
		t.Errorf("customer %v", c)
	}
	payin, _ := url.Parse(p["payin_url"].(string))
	if !strings.HasPrefix(payin.Path, "/psp/sim/card/") {
		t.Fatalf("payin_url %v", p["payin_url"])
	}
	// Nothing moved yet: the card holder has not paid (the wallets the
	// settlement moves are open, empty, so that it can only move money).
	if spa, _, _ := f.balances(t); spa != "0.00" {
		t.Errorf("spa's wallet before the pay-in: %s", spa)
	}
	ts := f.call(t, http.MethodGet, paymentsBase+id+"/transactions/", f.cashierTok, "")
	WantResponse(t, ts, 200, "")
	if list := ts.JSONArray(t); len(list) != 1 || list[0]["status"] != "pending" || list[0]["payment_method"] != "credit_card" {
		t.Errorf("transactions before the pay-in %s", ts.Body)
	}

	// The card holder pays on the provider's page.
	page := f.call(t, http.MethodGet, payin.Path, "", "")
	if page.Status != 200 || !strings.Contains(page.Body, "100.00 EUR") || !strings.Contains(page.Body, `name="card_number"`) {
		t.Fatalf("card page %d %s", page.Status, page.Body)
	}
	form := f.call(t, http.MethodPost, payin.Path, "", "card_number="+psp.CardSuccess, "Content-Type", "application/x-www-form-urlencoded")
	if form.Status != http.StatusSeeOther {
		t.Fatalf("card form %d %s", form.Status, form.Body)
	}
	got := f.call(t, http.MethodGet, paymentsBase+id+"/", f.cashierTok, "").JSON(t)
	if got["status"] != "ok" || got["paid_on"] == nil || got["payin_url"] != nil || got["payin_result_code"] != psp.CodeSuccess ||
		got["payin_result_message"] != "Success." {
		t.Errorf("after the card page %v", got)
	}
	spa, commission, clearing := f.balances(t)
	if spa != "94.75" || commission != "5.25" || clearing != "0.00" {
		t.Errorf("wallets spa %s commission %s clearing %s", spa, commission, clearing)
	}
	ts = f.call(t, http.MethodGet, paymentsBase+id+"/transactions/", f.cashierTok, "")
	list := ts.JSONArray(t)
	if len(list) != 1 {
		t.Fatalf("transactions %s", ts.Body)
	}
	tr := list[0]
	for k, v := range map[string]any{"type": "payin", "payment_method": "credit_card", "status": "succeeded", "amount": 100.0,
		"commission": 5.25, "net_amount": 94.75, "currency": "EUR", "currency_symbol": "€", "payment_id": id} {
		if fmt.Sprint(tr[k]) != fmt.Sprint(v) {
			t.Errorf("transaction %s = %v, want %v", k, tr[k], v)
		}
	}
	if fmt.Sprint(tr["partner"]) != f.spaID || tr["customer"].(map[string]any)["email"] != "ada@example.com" {
		t.Errorf("transaction %v", tr)
	}
	// A second answer on the page changes nothing.
	f.call(t, http.MethodPost, payin.Path, "", "card_number="+psp.CardDecline, "Content-Type", "application/x-www-form-urlencoded")
	if got := f.call(t, http.MethodGet, paymentsBase+id+"/", f.cashierTok, "").JSON(t); got["status"] != "ok" {
		t.Errorf("after a second answer %v", got["status"])
	}
}

func TestPaymentCardOutcomes(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)

	declined := f.pay(t, f.cashierTok, 40, "card", psp.CardDecline).JSON(t)
	if declined["status"] != "fail" || declined["payin_result_code"] != psp.CodeDeclined || declined["payin_url"] != nil {
		t.Errorf("declined %v", declined)
	}
	invalid := f.pay(t, f.cashierTok, 40, "card", "1234").JSON(t)
	if invalid["status"] != "fail" || invalid["payin_result_code"] != psp.CodeInvalidCard {
		t.Errorf("invalid card %v", invalid)
	}

	// 3-D Secure: pending, then the challenge passed.
	three := f.pay(t, f.cashierTok, 40, "card", psp.CardThreeDSecure).JSON(t)
	u, _ := url.Parse(fmt.Sprint(three["payin_url"]))
	if three["status"] != "ip" || !strings.HasPrefix(u.Path, "/psp/sim/3ds/") {
		t.Fatalf("3-D Secure %v", three)
	}
	f.call(t, http.MethodPost, u.Path, "", "decision=authenticate", "Content-Type", "application/x-www-form-urlencoded")
	if got := f.call(t, http.MethodGet, paymentsBase+three["id"].(string)+"/", f.cashierTok, "").JSON(t); got["status"] != "ok" {
		t.Errorf("after 3-D Secure %v", got)
	}
	// Failed: nothing moved for the failures, 38.00 - commission for the success.
	if spa, commission, _ := f.balances(t); spa != "37.75" || commission != "2.25" {
		t.Errorf("wallets spa %s commission %s", spa, commission)
	}

	// Origin chooses the marketplace's rule; product network_giftcard its own.
	mk := f.paid(t, 100, "origin", "marketplace")
	if mk["commission"] != 10.25 || mk["net_amount"] != 89.75 {
		t.Errorf("marketplace rule %v %v", mk["commission"], mk["net_amount"])
	}
	ngc := f.paid(t, 10, "product", "network_giftcard")
	if ngc["commission"] != 0.25 || ngc["net_amount"] != 9.75 {
		t.Errorf("network giftcard rule %v %v", ngc["commission"], ngc["net_amount"])
	}
}

func TestPaymentExtraSource(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	cardUUID, code := f.card(t, "50", true)

	// 30.00 from the card, 50.00 by card.
	p := f.paid(t, 80, "extra_source_wallet_uuid", cardUUID, "extra_source_amount", 30)
	if p["extra_source_amount"] != 30.0 || p["extra_source_wallet_uuid"] != cardUUID || p["extra_source_wallet"] == nil {
		t.Errorf("extra source %v", p)
	}
	if got := f.remaining(t, code); got != "20" {
		t.Errorf("card remaining %s, want 20", got)
	}
	list := f.call(t, http.MethodGet, paymentsBase+p["id"].(string)+"/transactions/", f.cashierTok, "").JSONArray(t)
	// Commission 4.25, shared: the card's pay-in 50/80 of it = 2.66, the wallet's the rest.
	if len(list) != 2 || list[0]["payment_method"] != "wallet" || list[0]["amount"] != 30.0 || list[0]["commission"] != 1.59 ||
		list[1]["payment_method"] != "credit_card" || list[1]["amount"] != 50.0 || list[1]["commission"] != 2.66 {
		t.Errorf("transactions %v", list)
	}
	// The card's ledger has the payment.
	var kinds string
	gcMust(t, f.db.NewRaw(`SELECT string_agg(kind || ':' || amount, ' ' ORDER BY m.id) FROM network_giftcard_movements m
		JOIN network_giftcards g ON g.id = m.network_giftcard_id WHERE g.uuid = ?`, cardUUID).Scan(context.Background(), &kinds))
	if kinds != "issue:50.00 payment:-30.00" {
		t.Errorf("card ledger %q", kinds)
	}

	// All of it from the card: paid at once, no pay-in.
	all := f.pay(t, f.cashierTok, 20, "extra_source_wallet_uuid", cardUUID, "extra_source_amount", 20).JSON(t)
	if all["status"] != "ok" || all["payin_result_code"] != "" || f.remaining(t, code) != "0" {
		t.Errorf("paid by the card alone %v, remaining %s", all, f.remaining(t, code))
	}

	// A failed pay-in gives the card's part back.
	card2, code2 := f.card(t, "50", true)
	failed := f.pay(t, f.cashierTok, 60, "card", psp.CardDecline, "extra_source_wallet_uuid", card2, "extra_source_amount", 10).JSON(t)
	if failed["status"] != "fail" || f.remaining(t, code2) != "50" {
		t.Errorf("failed payment %v, card %s", failed["status"], f.remaining(t, code2))
	}
	// More than the card holds: 400 naming what it holds; nothing written.
	whole, _ := f.card(t, "25", false)
	before := f.digestPayments(t)
	WantResponse(t, f.pay(t, f.cashierTok, 80, "extra_source_wallet_uuid", card2, "extra_source_amount", 50.01), 400,
		`{"extra_source_amount": ["The remaining value of this giftcard is 50.00."]}`)
	WantResponse(t, f.pay(t, f.cashierTok, 80, "extra_source_wallet_uuid", card2, "extra_source_amount", 80.01), 400,
		`{"extra_source_amount": ["Ensure this value is less than or equal to the payment's amount."]}`)
	WantResponse(t, f.pay(t, f.cashierTok, 80, "card", psp.CardSuccess, "extra_source_wallet_uuid", cardUUID, "extra_source_amount", 5), 400,
		`{"extra_source_amount": ["The remaining value of this giftcard is 0.00."]}`)
	// A card that is not splittable gives all it holds or nothing.
	WantResponse(t, f.pay(t, f.cashierTok, 80, "extra_source_wallet_uuid", whole, "extra_source_amount", 10), 400,
		`{"extra_source_amount": ["This giftcard is not splittable: a payment spends its whole remaining value, 25.00."]}`)
	if after := f.digestPayments(t); after != before {
		t.Errorf("a refused payment wrote:\n%s\n%s", before, after)
	}
	f.balances(t)
}

// rivalAccountant is a member of rival who may refund.
func (f *payFixture) rivalAccountant(t *testing.T) string {
	t.Helper()
	var rival int64
	gcMust(t, f.db.NewRaw(`SELECT partner_id FROM users WHERE username = 'rival'`).Scan(context.Background(), &rival))
	return f.memberOf(t, rival, domain.PermAccessFinancialOrderLines)
}

// digestPayments sums the rows payments write.
func (f *payFixture) digestPayments(t *testing.T) string {
	t.Helper()
	var d string
	gcMust(t, f.db.NewRaw(`SELECT (SELECT count(*) FROM payments) || ':' || (SELECT count(*) FROM wallet_movements) || ':' ||
		(SELECT count(*) FROM payment_transactions) || ':' || (SELECT count(*) FROM network_giftcard_movements) || ':' ||
		(SELECT count(*) FROM payment_refunds)`).Scan(context.Background(), &d))
	return d
}

func TestPaymentCreateErrors(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	cardUUID, _ := f.card(t, "50", true)
	before := f.digestPayments(t)

	WantResponse(t, f.call(t, http.MethodPost, paymentsBase, f.cashierTok, `{}`), 400, `{
		"customer": ["This field is required."], "partner_uuid": ["This field is required."],
		"amount": ["This field is required."], "discount": ["This field is required."],
		"product": ["This field is required."], "type": ["This field is required."]}`)
	WantResponse(t, f.pay(t, f.cashierTok, 0, "type", "paypal", "product", "car", "discount", -1,
		"customer", map[string]any{"first_name": "", "last_name": "L", "email": "nope"}), 400, `{
		"amount": ["Ensure this value is greater than 0."], "type": ["\"paypal\" is not a valid choice."],
		"product": ["\"car\" is not a valid choice."], "discount": ["Ensure this value is greater than or equal to 0."],
		"customer": {"first_name": ["This field may not be blank."], "email": ["Enter a valid email address."]}}`)
	WantResponse(t, f.pay(t, f.cashierTok, 10, "amount", 10.001), 400, `{"amount": ["Ensure that there are no more than 2 decimal places."]}`)
	WantResponse(t, f.pay(t, f.cashierTok, 10, "extra_source_wallet_uuid", cardUUID), 400,
		`{"extra_source_amount": ["extra_source_wallet_uuid and extra_source_amount are given together."]}`)
	WantResponse(t, f.pay(t, f.cashierTok, 10, "extra_source_amount", 5), 400,
		`{"extra_source_wallet_uuid": ["extra_source_wallet_uuid and extra_source_amount are given together."]}`)
	WantResponse(t, f.pay(t, f.cashierTok, 10, "extra_source_wallet_uuid", cardUUID, "extra_source_amount", 0), 400,
		`{"extra_source_amount": ["Ensure this value is greater than 0."]}`)
	unknown := "00000000-0000-4000-8000-000000000001"
	WantResponse(t, f.pay(t, f.cashierTok, 10, "extra_source_wallet_uuid", unknown, "extra_source_amount", 5), 400,
		`{"extra_source_wallet_uuid": ["Object with uuid=`+unknown+` does not exist."]}`)
	WantResponse(t, f.pay(t, f.cashierTok, 10, "partner_uuid", unknown), 400,
		`{"partner_uuid": ["Object with uuid=`+unknown+` does not exist."]}`)
	// Another marketplace's partner reads as unknown; a partner not yet
	// activated cannot take payments.
	WantResponse(t, f.pay(t, f.cashierTok, 10, "partner_uuid", f.rivalSpaUUID), 400,
		`{"partner_uuid": ["Object with uuid=`+f.rivalSpaUUID+` does not exist."]}`)
	WantResponse(t, f.pay(t, f.marketTok, 10, "partner_uuid", f.inactiveUUID), 409,
		`{"detail": "This partner cannot take payments: it must be active and its legal representative's identity verified (activate-payments)."}`)
	// The rival's partner cannot draw from market's cards.
	WantResponse(t, f.pay(t, f.rivalTok, 10, "partner_uuid", f.rivalSpaUUID, "extra_source_wallet_uuid", cardUUID, "extra_source_amount", 5), 400,
		`{"extra_source_wallet_uuid": ["Object with uuid=`+cardUUID+` does not exist."]}`)
	WantResponse(t, f.pay(t, f.marketTok, 10, "partner_uuid", f.inactiveUUID, "freeze_payout_date", "yesterday"), 400,
		`{"freeze_payout_date": ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z], YYYY-MM-DD."]}`)
	WantResponse(t, f.pay(t, f.cashierTok, 10, "card", strings.Repeat("4", 65)), 400,
		`{"card": ["Ensure this field has no more than 64 characters."]}`)
	WantResponse(t, f.pay(t, "", 10), 401, "")
	if after := f.digestPayments(t); after != before {
		t.Errorf("refused payments wrote:\n%s\n%s", before, after)
	}
}

func TestPaymentListFindUpdate(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	a := f.paid(t, 10)
	b := f.paid(t, 20, "customer", map[string]any{"first_name": "Grace", "last_name": "Hopper", "email": "Grace@Example.com"})
	c := f.pay(t, f.cashierTok, 30).JSON(t) // in progress
	rival := f.call(t, http.MethodPost, paymentsBase, f.rivalTok, body(t, map[string]any{"customer": map[string]any{
		"first_name": "R", "last_name": "R", "email": "r@example.com"}, "partner_uuid": f.rivalSpaUUID, "amount": 5,
		"discount": 0, "product": "voucher", "type": "credit_card"})).JSON(t)

	ids := func(token, query string) string {
		t.Helper()
		res := f.call(t, http.MethodGet, paymentsBase+query, token, "")
		if res.Status != 200 {
			t.Fatalf("list %s: %d %s", query, res.Status, res.Body)
		}
		page := res.JSON(t)
		var out []string
		for _, r := range page["results"].([]any) {
			id := r.(map[string]any)["id"].(string)
			for name, p := range map[string]map[string]any{"a": a, "b": b, "c": c, "rival": rival} {
				if p["id"] == id {
					out = append(out, name)
				}
			}
		}
		if !strings.Contains(query, "page=") && fmt.Sprint(page["count"]) != fmt.Sprint(len(out)) {
			t.Errorf("%s: count %v, results %v", query, page["count"], out)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct{ token, query, want string }{
		{f.cashierTok, "", "c,b,a"},
		{f.marketTok, "", "c,b,a"}, // the referrer sees its partners' payments
		{f.rivalTok, "", "rival"},
		{f.staffTok, "", "rival,c,b,a"},
		{f.cashierTok, "?status=ok", "b,a"},
		{f.cashierTok, "?status__in=ip,fail", "c"},
		{f.cashierTok, "?status=ok&status__in=ip", ""},
		{f.cashierTok, "?customer_email=grace@EXAMPLE.com", "b"},
		{f.cashierTok, "?customer_first_name=ada&customer_last_name=LOVELACE", "c,a"},
		{f.staffTok, "?partner_uuid=" + f.rivalSpaUUID, "rival"},
		{f.cashierTok, "?partner_uuid=" + f.rivalSpaUUID, ""},
		{f.cashierTok, "?created_on__gte=2000-01-01&created_on__lte=2999-12-31", "c,b,a"},
		{f.cashierTok, "?created_on__lte=2000-01-01", ""},
		{f.cashierTok, "?created_on__gte=2000-01-01T00:00:00Z&created_on__lte=2999-12-31T23:59", "c,b,a"},
		{f.cashierTok, "?created_on__range=2000-01-01,2999-12-31", "c,b,a"},
		{f.cashierTok, "?created_on__range=2000-01-01,2000-01-02", ""},
		{f.cashierTok, "?payout_request_status=validated", ""},
		{f.cashierTok, "?fully_refunded=true", ""},
		{f.cashierTok, "?page_size=2&page=2", "a"},
	} {
		if got := ids(tc.token, tc.query); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.query, got, tc.want)
		}
	}
	// A refund in part: the payment is partially refunded, not fully.
	WantResponse(t, f.call(t, http.MethodPost, paymentsBase+b["id"].(string)+"/refund/", f.accountTok, `{"amount": 1}`), 200, "")
	for query, want := range map[string]string{"?partially_refunded=true": "b", "?partially_refunded=false": "c,b,a",
		"?fully_refunded=true": ""} {
		if got := ids(f.cashierTok, query); got != want {
			t.Errorf("%s: %q, want %q", query, got, want)
		}
	}
	WantResponse(t, f.call(t, http.MethodGet, paymentsBase+"?created_on__range=2000-01-01", f.cashierTok, ""), 400,
		`{"created_on__range": ["Enter two dates separated by a comma."]}`)
	WantResponse(t, f.call(t, http.MethodGet, paymentsBase+"?status=paid&created_on__gte=monday&partially_refunded=maybe&payout_request_status__in=validated,x&partner_uuid=1", f.cashierTok, ""), 400, `{
		"status": ["Select a valid choice. paid is not one of the available choices."], "created_on__gte": ["Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm])."],
		"partially_refunded": ["Enter a valid boolean."], "payout_request_status__in": ["Select a valid choice. x is not one of the available choices."],
		"partner_uuid": ["Must be a valid UUID."]}`)

	// Find: each caller its own.
	got := f.call(t, http.MethodGet, paymentsBase+a["id"].(string)+"/", f.marketTok, "")
	if got.Status != 200 || got.JSON(t)["amount"] != "10.00" {
		t.Errorf("find %d %s", got.Status, got.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, paymentsBase+a["id"].(string)+"/", f.rivalTok, ""), 404, notFoundJS)
	WantResponse(t, f.call(t, http.MethodGet, paymentsBase+"nope/", f.staffTok, ""), 404, notFoundJS)
	WantResponse(t, f.call(t, http.MethodGet, paymentsBase+rival["id"].(string)+"/transactions/", f.cashierTok, ""), 404, notFoundJS)

	// Update the freeze date.
	res := f.call(t, http.MethodPatch, paymentsBase+a["id"].(string)+"/", f.cashierTok, `{"freeze_payout_date": "2027-01-15T08:00:00+01:00"}`)
	WantResponse(t, res, 200, `{"id": "`+a["id"].(string)+`", "freeze_payout_date": "2027-01-15T07:00:00Z"}`)
	WantResponse(t, f.call(t, http.MethodPatch, paymentsBase+a["id"].(string)+"/", f.cashierTok, `{}`), 400,
		`{"freeze_payout_date": ["This field is required."]}`)
	// A flat body may come as a form, as the service being replaced read it.
	form := f.call(t, http.MethodPatch, paymentsBase+a["id"].(string)+"/", f.cashierTok, "freeze_payout_date=2027-01-16T08%3A00%3A00Z",
		"Content-Type", "application/x-www-form-urlencoded")
	WantResponse(t, form, 200, `{"id": "`+a["id"].(string)+`", "freeze_payout_date": "2027-01-16T08:00:00Z"}`)
	WantResponse(t, f.call(t, http.MethodPatch, paymentsBase+a["id"].(string)+"/", f.rivalTok, `{"freeze_payout_date": "2027-01-15"}`), 404, notFoundJS)
	WantResponse(t, f.call(t, http.MethodPatch, paymentsBase+rival["id"].(string)+"/", f.rivalTok, `{"freeze_payout_date": "2027-01-15"}`), 400,
		`{"freeze_payout_date": ["This partner does not date its payments for payouts (freeze_payout is off)."]}`)
}

func TestPaymentRefunds(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	cardUUID, code := f.card(t, "100", true)
	refund := func(id, token, body string, headers ...string) Response {
		t.Helper()
		return f.call(t, http.MethodPost, paymentsBase+id+"/refund/", token, body, headers...)
	}
	// 100.00: 25.00 from the card, 75.00 by card; commission 5.25.
	p := f.paid(t, 100, "extra_source_wallet_uuid", cardUUID, "extra_source_amount", 25)
	id := p["id"].(string)

	// Proportional: 10.00 is 2.50 to the card and 7.50 through the provider.
	res := refund(id, f.accountTok, `{"amount": 10, "reason": "late"}`)
	out := res.JSON(t)
	if res.Status != 200 || out["status"] != "succeeded" || out["detail"] != "The refund of 10.00 EUR succeeded." {
		t.Fatalf("refund %d %s", res.Status, res.Body)
	}
	if f.remaining(t, code) != "77.5" {
		t.Errorf("card after refund %s", f.remaining(t, code))
	}
	got := f.call(t, http.MethodGet, paymentsBase+id+"/", f.accountTok, "").JSON(t)
	if got["refunded_amount"] != 10.0 || got["status"] != "ok" {
		t.Errorf("payment after refund %v %v", got["refunded_amount"], got["status"])
	}
	list := f.call(t, http.MethodGet, paymentsBase+id+"/transactions/", f.accountTok, "").JSONArray(t)
	last := list[len(list)-1]
	if len(list) != 3 || last["type"] != "refund" || last["amount"] != 10.0 || last["commission"] != 0.53 || last["net_amount"] != 9.47 {
		t.Errorf("refund transaction %v", list)
	}
	// Split: 5.00 to the card, nothing through the provider.
	WantResponse(t, refund(id, f.accountTok, `{"amount": 5, "split": {"extra_source_amount": 5, "additional_payin_amount": 0}}`), 200, "")
	if f.remaining(t, code) != "82.5" {
		t.Errorf("card after split refund %s", f.remaining(t, code))
	}
	// Refusals: nothing written.
	before := f.digestPayments(t)
	WantResponse(t, refund(id, f.accountTok, `{"amount": 85.01}`), 400,
		`{"amount": ["Ensure this value is less than or equal to 85.00, what remains refundable."]}`)
	WantResponse(t, refund(id, f.accountTok, `{"amount": 0}`), 400, `{"amount": ["Ensure this value is greater than 0."]}`)
	WantResponse(t, refund(id, f.accountTok, `{}`), 400, `{"amount": ["This field is required."]}`)
	WantResponse(t, refund(id, f.accountTok, `{"amount": 10, "split": {"extra_source_amount": 2, "additional_payin_amount": 3}}`), 400,
		`{"split": {"non_field_errors": ["extra_source_amount and additional_payin_amount must add up to amount."]}}`)
	WantResponse(t, refund(id, f.accountTok, `{"amount": 20, "split": {"extra_source_amount": 20, "additional_payin_amount": 0}}`), 400,
		`{"split": {"extra_source_amount": ["Ensure this value is less than or equal to 17.50, what remains refundable to this source."]}}`)
	WantResponse(t, refund(id, f.accountTok, `{"amount": 1, "split": 3}`), 400, `{"split": ["Expected a dictionary of items but got type \"int\"."]}`)
	WantResponse(t, refund(id, f.cashierTok, `{"amount": 1}`), 403, denied)
	WantResponse(t, refund(id, f.rivalAccountant(t), `{"amount": 1}`), 404, notFoundJS)
	ip := f.pay(t, f.cashierTok, 10).JSON(t)["id"].(string)
	before = f.digestPayments(t)
	WantResponse(t, refund(ip, f.accountTok, `{"amount": 1}`), 409, `{"detail": "Only a paid payment can be refunded."}`)
	if after := f.digestPayments(t); after != before {
		t.Errorf("refused refunds wrote:\n%s\n%s", before, after)
	}

	// The rest: the commission given back adds up to the cent.
	WantResponse(t, refund(id, f.accountTok, `{"amount": 85}`), 200, "")
	got = f.call(t, http.MethodGet, paymentsBase+id+"/?", f.accountTok, "").JSON(t)
	if got["refunded_amount"] != 100.0 {
		t.Errorf("refunded %v", got["refunded_amount"])
	}
	if f.remaining(t, code) != "100" {
		t.Errorf("card after all refunds %s", f.remaining(t, code))
	}
	spa, commission, clearing := f.balances(t)
	if spa != "0.00" || commission != "0.00" || clearing != "0.00" {
		t.Errorf("after refunding all: spa %s commission %s clearing %s", spa, commission, clearing)
	}
	if ids := f.call(t, http.MethodGet, paymentsBase+"?fully_refunded=true", f.accountTok, "").JSON(t)["count"]; ids != 1.0 {
		t.Errorf("fully refunded count %v", ids)
	}
	var audit string
	gcMust(t, f.db.NewRaw(`SELECT string_agg(action || ':' || actor || ':' || reason || ':' || (after->>'refunded_amount'), ' ' ORDER BY id)
		FROM payment_hub_audit`).Scan(context.Background(), &audit))
	if !strings.HasPrefix(audit, "refund:"+"member") || !strings.Contains(audit, ":late:10.00") || !strings.HasSuffix(audit, "::100.00") {
		t.Errorf("audit %q", audit)
	}

	// The provider refuses: status failed, nothing given back.
	q := f.paid(t, 50, "card", psp.CardRefundFailure)
	res = refund(q["id"].(string), f.accountTok, `{"amount": 10}`)
	WantResponse(t, res, 200, "")
	if out := res.JSON(t); out["status"] != "failed" || out["detail"] != "The refund was refused." {
		t.Errorf("refused by the provider %v", out)
	}
	if got := f.call(t, http.MethodGet, paymentsBase+q["id"].(string)+"/", f.accountTok, "").JSON(t); got["refunded_amount"] != 0.0 {
		t.Errorf("refunded after a refusal %v", got["refunded_amount"])
	}
	if spa, _, clearing := f.balances(t); spa != "47.25" || clearing != "0.00" {
		t.Errorf("after a refused refund: spa %s clearing %s", spa, clearing)
	}
	// Idempotent: a replay answers the same refund.
	r1 := refund(q["id"].(string), f.accountTok, `{"amount": 1}`, "X-Idempotency-Key", "r-1")
	r2 := refund(q["id"].(string), f.accountTok, `{"amount": 1}`, "X-Idempotency-Key", "r-1")
	if r1.JSON(t)["refund_id"] != r2.JSON(t)["refund_id"] || r2.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay %s %s", r1.Body, r2.Body)
	}
}

// 50 concurrent refunds of 10.00 on one 100.00 payment give back exactly
// 100.00, and each success has its transaction.
func TestConcurrentRefundsCannotOverRefund(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	cardUUID, code := f.card(t, "40", true)
	id := f.paid(t, 100, "extra_source_wallet_uuid", cardUUID, "extra_source_amount", 40)["id"].(string)
	var wg sync.WaitGroup
	results := make([]Response, 50)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = f.call(t, http.MethodPost, paymentsBase+id+"/refund/", f.accountTok, `{"amount": 10}`)
		}()
	}
	wg.Wait()
	succeeded := 0
	for _, r := range results {
		switch {
		case r.Status == 200 && r.JSON(t)["status"] == "succeeded":
			succeeded++
		case r.Status == 400 && strings.Contains(r.Body, "what remains refundable"):
		default:
			t.Errorf("refund answered %d %s", r.Status, r.Body)
		}
	}
	if succeeded != 10 {
		t.Errorf("%d refunds of 10.00 succeeded on 100.00, want 10", succeeded)
	}
	got := f.call(t, http.MethodGet, paymentsBase+id+"/", f.accountTok, "").JSON(t)
	list := f.call(t, http.MethodGet, paymentsBase+id+"/transactions/", f.accountTok, "").JSONArray(t)
	refunds := 0
	for _, tr := range list {
		if tr["type"] == "refund" && tr["status"] == "succeeded" {
			refunds++
		}
	}
	if got["refunded_amount"] != 100.0 || refunds != succeeded || f.remaining(t, code) != "40" {
		t.Errorf("refunded %v, %d refund transactions, card %s", got["refunded_amount"], refunds, f.remaining(t, code))
	}
	if spa, commission, clearing := f.balances(t); spa != "0.00" || commission != "0.00" || clearing != "0.00" {
		t.Errorf("spa %s commission %s clearing %s", spa, commission, clearing)
	}
}

// A payment with an idempotency key, repeated, answers the payment taken
// first: the card is charged and the network giftcard drawn once.
func TestPaymentCreateReplay(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	cardUUID, code := f.card(t, "50", true)
	req := body(t, map[string]any{"customer": map[string]any{"first_name": "Ada", "last_name": "Lovelace",
		"email": "ada@example.com"}, "partner_uuid": f.spaUUID, "amount": 40, "discount": 0, "product": "voucher",
		"type": "credit_card", "card": psp.CardSuccess, "extra_source_wallet_uuid": cardUUID, "extra_source_amount": 15})
	first := f.call(t, http.MethodPost, paymentsBase, f.cashierTok, req, "X-Idempotency-Key", "pay-1")
	if first.Status != http.StatusCreated || first.JSON(t)["status"] != "ok" {
		t.Fatalf("pay: %d %s", first.Status, first.Body)
	}
	before := f.digestPayments(t)
	again := f.call(t, http.MethodPost, paymentsBase, f.cashierTok, req, "X-Idempotency-Key", "pay-1")
	if again.Status != http.StatusCreated || again.JSON(t)["id"] != first.JSON(t)["id"] ||
		again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %s (replayed %q)", again.Status, again.Body, again.Header.Get("Idempotent-Replayed"))
	}
	if after := f.digestPayments(t); after != before || f.remaining(t, code) != "35" {
		t.Errorf("the replay wrote (card %s):\n%s\n%s", f.remaining(t, code), before, after)
	}
}
