package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"salesplatform/persistence/psp"
)

const requestsBase = "/api/payment_hub/payment_requests/"

// requestBody is a payment request of spa with kv over its required
// fields.
func (f *payFixture) requestBody(t *testing.T, kv ...any) string {
	t.Helper()
	base := map[string]any{"partner_uuid": f.spaUUID, "amount": 120.5, "language": "fr",
		"customer": map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com"}}
	return body(t, base, kv...)
}

// request creates a payment request of spa as the cashier.
func (f *payFixture) request(t *testing.T, kv ...any) map[string]any {
	t.Helper()
	res := f.call(t, http.MethodPost, requestsBase, f.cashierTok, f.requestBody(t, kv...))
	if res.Status != http.StatusCreated {
		t.Fatalf("create request: %d %s", res.Status, res.Body)
	}
	return res.JSON(t)
}

// requestCount is how many payment requests are written.
func (f *payFixture) requestCount(t *testing.T) int {
	t.Helper()
	var n int
	gcMust(t, f.db.NewRaw(`SELECT count(*) FROM payment_requests`).Scan(context.Background(), &n))
	return n
}

// inHub makes market a payment-hub partner, as a refill's invoicing
// marketplace must be.
func (f *payFixture) inHub(t *testing.T) {
	t.Helper()
	_, err := f.db.NewRaw(`INSERT INTO payment_partners (partner_id, legal_representative_email) VALUES (?, 'legal@market.example.com')`,
		f.market.ID).Exec(context.Background())
	gcMust(t, err)
}

var requestCode = regexp.MustCompile(`^[A-HJ-NP-Z2-9]{12}$`)

func TestPaymentRequestCreate(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)

	res := f.call(t, http.MethodPost, requestsBase, f.cashierTok, f.requestBody(t, "reference", "INV-1", "description",
		"Séjour de mars", "origin", "web", "product", "event"))
	WantResponse(t, res, http.StatusCreated, "")
	r := res.JSON(t)
	id := fmt.Sprint(r["id"])
	if res.Header.Get("Location") != requestsBase+id+"/" {
		t.Errorf("Location %q", res.Header.Get("Location"))
	}
	code, _ := r["code"].(string)
	if !requestCode.MatchString(code) {
		t.Errorf("code %q", code)
	}
	want := map[string]any{"status": "pending", "amount": 120.5, "currency": "EUR", "reference": "INV-1",
		"description": "Séjour de mars", "partner_uuid": f.spaUUID, "partner": f.spaID, "origin": "web", "product": "event",
		"language": "fr", "invoicing_marketplace_id": nil, "paid_on": nil, "payment_url": "http://api.test/pay/" + code + "/"}
	for k, v := range want {
		if fmt.Sprint(r[k]) != fmt.Sprint(v) {
			t.Errorf("%s = %v, want %v", k, r[k], v)
		}
	}
	if c := r["customer"].(map[string]any); c["first_name"] != "Ada" || c["last_name"] != "Lovelace" || c["email"] != "ada@example.com" {
		t.Errorf("customer %v", c)
	}
	if r["created_on"] == nil || r["modified_on"] == nil {
		t.Errorf("dates %v %v", r["created_on"], r["modified_on"])
	}
	// The optional fields' defaults; amounts as decimal strings.
	d := f.request(t, "amount", "15.00", "language", "de")
	if d["product"] != "voucher" || d["reference"] != "" || d["description"] != "" || d["origin"] != "" || d["amount"] != 15.0 {
		t.Errorf("defaults %v", d)
	}
	if d["code"] == code {
		t.Error("two requests share a code")
	}
	// The referring marketplace and staff create them too.
	f.request(t)
	for _, tok := range []string{f.marketTok, f.staffTok} {
		WantResponse(t, f.call(t, http.MethodPost, requestsBase, tok, f.requestBody(t)), http.StatusCreated, "")
	}

	before := f.requestCount(t)
	for _, c := range []struct {
		name, token, body string
		status            int
		want              string
	}{
		{"empty", f.cashierTok, `{}`, 400, `{"partner_uuid": ["This field is required."], "amount": ["This field is required."],
			"customer": ["This field is required."], "language": ["This field is required."]}`},
		{"zero amount", f.cashierTok, f.requestBody(t, "amount", 0), 400, `{"amount": ["Ensure this value is greater than 0."]}`},
		{"three decimals", f.cashierTok, f.requestBody(t, "amount", "1.005"), 400, `{"amount": ["Ensure that there are no more than 2 decimal places."]}`},
		{"language", f.cashierTok, f.requestBody(t, "language", "xx"), 400, `{"language": ["\"xx\" is not a valid choice."]}`},
		{"customer", f.cashierTok, f.requestBody(t, "customer", map[string]any{"first_name": "Ada", "email": "nope"}), 400,
			`{"customer": {"last_name": ["This field is required."], "email": ["Enter a valid email address."]}}`},
		{"reference", f.cashierTok, f.requestBody(t, "reference", strings.Repeat("r", 256)), 400,
			`{"reference": ["Ensure this field has no more than 255 characters."]}`},
		{"description", f.cashierTok, f.requestBody(t, "description", strings.Repeat("d", 1001)), 400,
			`{"description": ["Ensure this field has no more than 1000 characters."]}`},
		{"origin", f.cashierTok, f.requestBody(t, "origin", strings.Repeat("o", 65)), 400,
			`{"origin": ["Ensure this field has no more than 64 characters."]}`},
		{"product", f.cashierTok, f.requestBody(t, "product", "boat"), 400, `{"product": ["\"boat\" is not a valid choice."]}`},
		{"refill without invoicing", f.cashierTok, f.requestBody(t, "product", "refill"), 400,
			`{"invoicing_marketplace_id": ["This field is required for a refill."]}`},
		{"invoicing without refill", f.cashierTok, f.requestBody(t, "invoicing_marketplace_id", f.market.ID), 400,
			`{"invoicing_marketplace_id": ["Only a refill is invoiced by a marketplace."]}`},
		{"invoicing not in the hub", f.cashierTok, f.requestBody(t, "product", "refill", "invoicing_marketplace_id", f.market.ID), 400,
			fmt.Sprintf(`{"invoicing_marketplace_id": ["Invalid pk \"%d\" - object does not exist."]}`, f.market.ID)},
		{"another tenant's partner", f.rivalTok, f.requestBody(t), 400,
			`{"partner_uuid": ["Object with uuid=` + f.spaUUID + ` does not exist."]}`},
		{"unknown partner", f.cashierTok, f.requestBody(t, "partner_uuid", "00000000-0000-4000-8000-000000000000"), 400,
			`{"partner_uuid": ["Object with uuid=00000000-0000-4000-8000-000000000000 does not exist."]}`},
		{"not activated", f.marketTok, f.requestBody(t, "partner_uuid", f.inactiveUUID), 409, ""},
		{"no token", "", f.requestBody(t), 401, ""},
	} {
		res := f.call(t, http.MethodPost, requestsBase, c.token, c.body)
		if res.Status != c.status {
			t.Errorf("%s: %d %s", c.name, res.Status, res.Body)
			continue
		}
		if c.want != "" {
			WantResponse(t, res, c.status, c.want)
		}
	}
	if n := f.requestCount(t); n != before {
		t.Errorf("refused creations wrote %d requests", n-before)
	}

	// A refill names the marketplace its payments are paid out to: spa's
	// referrer, once in the hub; another marketplace reads as unknown.
	f.inHub(t)
	refill := f.request(t, "product", "refill", "invoicing_marketplace_id", f.market.ID)
	if fmt.Sprint(refill["invoicing_marketplace_id"]) != fmt.Sprint(f.market.ID) || refill["product"] != "refill" {
		t.Errorf("refill %v", refill)
	}
	var rival int64
	gcMust(t, f.db.NewRaw(`SELECT id FROM partners WHERE name = 'Rival'`).Scan(context.Background(), &rival))
	res = f.call(t, http.MethodPost, requestsBase, f.cashierTok, f.requestBody(t, "product", "refill", "invoicing_marketplace_id", rival))
	WantResponse(t, res, 400, fmt.Sprintf(`{"invoicing_marketplace_id": ["Invalid pk \"%d\" - object does not exist."]}`, rival))

	// A repeat with the same key answers the first request.
	key := []string{"X-Idempotency-Key", "req-key-1"}
	first := f.call(t, http.MethodPost, requestsBase, f.cashierTok, f.requestBody(t, "reference", "KEYED"), key...)
	again := f.call(t, http.MethodPost, requestsBase, f.cashierTok, f.requestBody(t, "reference", "KEYED"), key...)
	if first.Status != 201 || again.Status != 201 || first.JSON(t)["id"] != again.JSON(t)["id"] ||
		again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay %d %s / %d %s", first.Status, first.Body, again.Status, again.Body)
	}
}

func TestPaymentRequestListAndGet(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	a := f.request(t, "reference", "INV-2026-001", "description", "Deep MASSAGE at the spa")
	b := f.request(t, "reference", "INV-2026-002", "customer", map[string]any{"first_name": "Grace", "last_name": "Hopper",
		"email": "grace@navy.example.com"})
	c := f.request(t, "reference", "OTHER-3", "description", "Room 100% booked")

	ids := func(res Response) []string {
		t.Helper()
		var out []string
		for _, r := range res.JSON(t)["results"].([]any) {
			out = append(out, fmt.Sprint(r.(map[string]any)["id"]))
		}
		return out
	}
	id := func(m map[string]any) string { return fmt.Sprint(m["id"]) }
	for _, s := range []struct {
		search string
		want   []string
	}{
		{"", []string{id(c), id(b), id(a)}}, // newest first
		{"inv-2026", []string{id(b), id(a)}},
		{"massage", []string{id(a)}},
		{"HOPPER", []string{id(b)}},
		{"grace hop", []string{id(b)}},
		{"navy.example", []string{id(b)}},
		{"lovelace", []string{id(c), id(a)}},
		{"100%", []string{id(c)}},
		{"0%", []string{id(c)}}, // the wildcard is taken literally
		{"_", nil},
		{a["code"].(string), []string{id(a)}},
	} {
		res := f.call(t, http.MethodGet, requestsBase+"?search="+url.QueryEscape(s.search), f.cashierTok, "")
		WantResponse(t, res, 200, "")
		if got := ids(res); fmt.Sprint(got) != fmt.Sprint(s.want) {
			t.Errorf("search %q: %v, want %v", s.search, got, s.want)
		}
	}
	WantResponse(t, f.call(t, http.MethodGet, requestsBase+"?search="+strings.Repeat("x", 101), f.cashierTok, ""), 400,
		`{"search": ["Ensure this field has no more than 100 characters."]}`)

	// Pages.
	p1 := f.call(t, http.MethodGet, requestsBase+"?page_size=2", f.cashierTok, "").JSON(t)
	if p1["count"] != 3.0 || p1["has_next"] != true || p1["has_previous"] != false || len(p1["results"].([]any)) != 2 ||
		fmt.Sprint(p1["page_range"]) != "[1 2]" {
		t.Errorf("page 1 %v", p1)
	}
	p2 := f.call(t, http.MethodGet, requestsBase+"?page_size=2&page=2", f.cashierTok, "")
	if got := ids(p2); fmt.Sprint(got) != fmt.Sprint([]string{id(a)}) || p2.JSON(t)["previous"] == nil {
		t.Errorf("page 2 %s", p2.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, requestsBase+"?page_size=2&page=3", f.cashierTok, ""), 404, `{"detail": "Invalid page."}`)

	// Who sees them: spa's members, its referrer's, staff; not the rival.
	for _, tok := range []string{f.marketTok, f.staffTok} {
		if got := ids(f.call(t, http.MethodGet, requestsBase, tok, "")); len(got) != 3 {
			t.Errorf("list %v", got)
		}
	}
	if got := ids(f.call(t, http.MethodGet, requestsBase, f.rivalTok, "")); len(got) != 0 {
		t.Errorf("the rival lists %v", got)
	}

	// Get: the record as created.
	res := f.call(t, http.MethodGet, requestsBase+id(a)+"/", f.marketTok, "")
	WantResponse(t, res, 200, jsonOf(t, a))
	WantResponse(t, f.call(t, http.MethodGet, requestsBase+id(a)+"/", f.rivalTok, ""), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodGet, requestsBase+"999999/", f.cashierTok, ""), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodGet, requestsBase+"99999999999999999999/", f.cashierTok, ""), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodGet, requestsBase+id(a)+"/", "", ""), 401, "")
	// No payment yet.
	pays := f.call(t, http.MethodGet, requestsBase+id(a)+"/payments/", f.cashierTok, "")
	WantResponse(t, pays, 200, `[]`)
	if pays.Header.Get("X-Total-Count") != "0" {
		t.Errorf("X-Total-Count %q", pays.Header.Get("X-Total-Count"))
	}
	WantResponse(t, f.call(t, http.MethodGet, requestsBase+id(a)+"/payments/", f.rivalTok, ""), 404, `{"detail": "Not found."}`)
}

// form posts the public page's form.
func (f *payFixture) form(t *testing.T, path, body string) Response {
	t.Helper()
	return f.call(t, http.MethodPost, path, "", body, "Content-Type", "application/x-www-form-urlencoded")
}

func TestPaymentRequestPage(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"fr", []string{`lang="fr"`, "Demande de paiement", "120,50\u00a0€", "Payer par carte", "Référence"}},
		{"de", []string{`lang="de"`, "Zahlungsaufforderung", "120,50\u00a0€", "Mit Karte bezahlen"}},
		{"en", []string{`lang="en"`, "Payment request", "€120.50", "Pay by card"}},
		{"pl", []string{`lang="pl"`, "Prośba o płatność", "Zapłać kartą"}},
	} {
		r := f.request(t, "language", c.lang, "reference", "INV-<7>", "description", "Massage & sauna")
		res := f.call(t, http.MethodGet, r["payment_url"].(string), "", "")
		if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s page %d %s", c.lang, res.Status, res.Body)
		}
		for _, w := range append(c.want, "Spa des Alpes", "INV-&lt;7&gt;", "Massage &amp; sauna", `<form method="post">`) {
			if !strings.Contains(res.Body, w) {
				t.Errorf("%s page lacks %q:\n%s", c.lang, w, res.Body)
			}
		}
		if res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("headers %v", res.Header)
		}
	}
	res := f.call(t, http.MethodGet, "/pay/AAAAAAAAAAAA/", "", "")
	if res.Status != 404 || !strings.Contains(res.Body, "This payment request does not exist.") {
		t.Errorf("unknown code %d %s", res.Status, res.Body)
	}
	if res := f.form(t, "/pay/AAAAAAAAAAAA/", ""); res.Status != 404 {
		t.Errorf("unknown code's form %d", res.Status)
	}
}

// payRequest posts the request's form and returns the provider's card
// page it is sent to.
func (f *payFixture) payRequest(t *testing.T, r map[string]any) string {
	t.Helper()
	res := f.form(t, r["payment_url"].(string), "")
	if res.Status != http.StatusSeeOther {
		t.Fatalf("pay: %d %s", res.Status, res.Body)
	}
	u, err := url.Parse(res.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(u.Path, "/psp/sim/card/") {
		t.Fatalf("Location %q", res.Header.Get("Location"))
	}
	return u.Path
}

func TestPaymentRequestPaidByCard(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	f.inHub(t)
	r := f.request(t, "reference", "INV-9", "description", "Refill of March", "origin", "web", "product", "refill",
		"invoicing_marketplace_id", f.market.ID)
	id := fmt.Sprint(r["id"])

	card := f.payRequest(t, r)
	// The payment is the request's: its amount, customer, product, origin,
	// and the marketplace that invoices it.
	pays := f.call(t, http.MethodGet, requestsBase+id+"/payments/", f.cashierTok, "")
	list := pays.JSONArray(t)
	if len(list) != 1 || pays.Header.Get("X-Total-Count") != "1" {
		t.Fatalf("payments %s", pays.Body)
	}
	p := list[0]
	for k, v := range map[string]any{"status": "ip", "amount": "120.50", "product": "refill", "origin": "web",
		"payment_request_id": id, "partner_uuid": f.spaUUID, "payment_receipt_description": "Refill of March",
		"commission": 1.81, "net_amount": 118.69, "type": "credit_card", "discount": "0.00"} {
		if fmt.Sprint(p[k]) != fmt.Sprint(v) {
			t.Errorf("payment %s = %v, want %v", k, p[k], v)
		}
	}
	if c := p["customer"].(map[string]any); c["email"] != "ada@example.com" || c["last_name"] != "Lovelace" {
		t.Errorf("customer %v", c)
	}
	if u, _ := url.Parse(fmt.Sprint(p["payin_url"])); u.Path != card {
		t.Errorf("payin_url %v, card page %s", p["payin_url"], card)
	}
	var invoicing, createdBy *int64
	gcMust(t, f.db.NewRaw(`SELECT invoicing_marketplace_id, created_by_user_id FROM payments WHERE uuid = ?`, p["id"]).
		Scan(context.Background(), &invoicing, &createdBy))
	if invoicing == nil || *invoicing != f.market.ID || createdBy != nil {
		t.Errorf("invoicing %v, created by %v", invoicing, createdBy)
	}
	// The form again while that payment is in progress: the same card
	// page, no second payment.
	if again := f.payRequest(t, r); again != card {
		t.Errorf("second form %s, want %s", again, card)
	}
	if n := len(f.call(t, http.MethodGet, requestsBase+id+"/payments/", f.cashierTok, "").JSONArray(t)); n != 1 {
		t.Errorf("%d payments after a second form", n)
	}

	// The customer pays on the card page: the payment, then the request,
	// are paid.
	if res := f.form(t, card, "card_number="+psp.CardSuccess); res.Status != http.StatusSeeOther {
		t.Fatalf("card form %d %s", res.Status, res.Body)
	}
	got := f.call(t, http.MethodGet, requestsBase+id+"/", f.cashierTok, "").JSON(t)
	if got["status"] != "paid" || got["paid_on"] == nil {
		t.Errorf("request after the card page %v", got)
	}
	if p := f.call(t, http.MethodGet, requestsBase+id+"/payments/", f.cashierTok, "").JSONArray(t)[0]; p["status"] != "ok" {
		t.Errorf("payment %v", p["status"])
	}
	// A refill is paid out to the marketplace that invoices it: the net
	// amount is in its wallet, not the partner's.
	var marketWallet string
	gcMust(t, f.db.NewRaw(`SELECT balance::text FROM wallets WHERE partner_id = ?`, f.market.ID).Scan(context.Background(), &marketWallet))
	if spa, _, _ := f.balances(t); spa != "none" || marketWallet != "118.69" {
		t.Errorf("spa's wallet %s, the invoicing marketplace's %s", spa, marketWallet)
	}
	// The page says so, and refuses another payment.
	page := f.call(t, http.MethodGet, r["payment_url"].(string), "", "")
	if page.Status != 200 || !strings.Contains(page.Body, "Cette demande est payée") || strings.Contains(page.Body, "<form") {
		t.Errorf("paid page %d %s", page.Status, page.Body)
	}
	refused := f.form(t, r["payment_url"].(string), "")
	if refused.Status != http.StatusConflict || !strings.Contains(refused.Body, "Cette demande est payée") {
		t.Errorf("paid request's form %d %s", refused.Status, refused.Body)
	}
	if n := len(f.call(t, http.MethodGet, requestsBase+id+"/payments/", f.cashierTok, "").JSONArray(t)); n != 1 {
		t.Errorf("%d payments after the paid request's form", n)
	}
}

func TestPaymentRequestAttempts(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	r := f.request(t, "language", "en")
	id := fmt.Sprint(r["id"])

	// A declined card fails the payment; the request stays pending, and
	// the form starts another payment.
	card := f.payRequest(t, r)
	if res := f.form(t, card, "card_number="+psp.CardDecline); res.Status != http.StatusSeeOther {
		t.Fatalf("card form %d %s", res.Status, res.Body)
	}
	if got := f.call(t, http.MethodGet, requestsBase+id+"/", f.cashierTok, "").JSON(t); got["status"] != "pending" {
		t.Errorf("request after a declined card %v", got["status"])
	}
	if second := f.payRequest(t, r); second == card {
		t.Error("a failed payment's card page was answered again")
	}
	pays := f.call(t, http.MethodGet, requestsBase+id+"/payments/?page_size=1", f.cashierTok, "")
	if list := pays.JSONArray(t); len(list) != 1 || list[0]["status"] != "ip" || pays.Header.Get("X-Total-Count") != "2" ||
		!strings.Contains(pays.Header.Get("Link"), `rel="next"`) {
		t.Errorf("payments page %v %s", pays.Header, pays.Body)
	}

	// At most 20 payments a request.
	_, err := f.db.NewRaw(`UPDATE payments SET status = 'fail', payin_url = '' WHERE payment_request_id = ?`, r["id"]).Exec(context.Background())
	gcMust(t, err)
	_, err = f.db.NewRaw(`INSERT INTO payments (uuid, partner_id, status, currency, customer_first_name, customer_last_name,
			customer_email, product, type, amount, discount, commission, net_amount, payin_amount, payment_request_id)
		SELECT gen_random_uuid(), partner_id, 'fail', currency, customer_first_name, customer_last_name, customer_email,
			product, type, amount, discount, commission, net_amount, payin_amount, payment_request_id
		FROM payments, generate_series(1, 18) WHERE payment_request_id = ? AND id = (SELECT min(id) FROM payments WHERE payment_request_id = ?)`,
		r["id"], r["id"]).Exec(context.Background())
	gcMust(t, err)
	res := f.form(t, r["payment_url"].(string), "")
	if res.Status != http.StatusConflict || !strings.Contains(res.Body, "This request takes no more payment attempts.") {
		t.Errorf("21st attempt %d %s", res.Status, res.Body)
	}
	if n := f.call(t, http.MethodGet, requestsBase+id+"/payments/", f.cashierTok, "").Header.Get("X-Total-Count"); n != "20" {
		t.Errorf("%s payments", n)
	}
}

func TestPaymentRequestThrottle(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	r := f.request(t, "language", "it")
	// Each form is an attempt, spent before anything is read (the same
	// payment in progress answers every one).
	for range 10 {
		f.payRequest(t, r)
	}
	res := f.form(t, r["payment_url"].(string), "")
	if res.Status != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" ||
		!strings.Contains(res.Body, "Troppi tentativi") {
		t.Errorf("11th form %d %v %s", res.Status, res.Header, res.Body)
	}
}

// Clicks on a request's page at once make one payment: the others are
// sent to its card page (or asked to try again while the provider has not
// given it one), never to a second payment the customer could pay too.
func TestPaymentRequestConcurrentClicks(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	r := f.request(t)
	const clicks = 8
	answers := make([]Response, clicks)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = f.form(t, r["payment_url"].(string), "")
		}()
	}
	wg.Wait()
	var payments int
	gcMust(t, f.db.NewRaw(`SELECT count(*) FROM payments WHERE payment_request_id = ?`, r["id"]).Scan(context.Background(), &payments))
	if payments != 1 {
		t.Fatalf("%d clicks made %d payments", clicks, payments)
	}
	pages := map[string]bool{}
	for _, a := range answers {
		switch a.Status {
		case http.StatusSeeOther:
			pages[a.Header.Get("Location")] = true
		case http.StatusServiceUnavailable:
		default:
			t.Errorf("a click answered %d %s", a.Status, a.Body)
		}
	}
	if len(pages) != 1 {
		t.Errorf("the clicks were sent to %d card pages: %v", len(pages), pages)
	}
}
