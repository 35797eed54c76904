package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// ngcFixture is a running server with:
//   - market: a marketplace (Europe/Paris, EUR) whose user may create and
//     use network giftcards; its network holds spa (source id 101,
//     accepting the cards), bar (102, not in the giftcard settings) and
//     gone (103, inactive);
//   - reader: a user of market without the network giftcard permissions;
//   - rival: another marketplace whose user holds both permissions;
//   - a staff user.
type ngcFixture struct {
	*Server
	db                                       *bun.DB
	dsn                                      string
	market, rival, spa, bar, gone            int64
	marketUUID, rivalUUID                    string
	marketTok, readerTok, rivalTok, staffTok string
}

func newNGCFixture(t *testing.T) *ngcFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	perms := []string{"--permission", "permissions.create_network_giftcard_api", "--permission", "permissions.use_network_giftcard_api"}
	f := &ngcFixture{
		dsn: dsn,
		marketTok: CreateUser(t, dsn, append([]string{"--username", "market", "--password", "market-password",
			"--partner-name", "Market", "--marketplace"}, perms...)...),
		rivalTok: CreateUser(t, dsn, append([]string{"--username", "rival", "--password", "rival-password",
			"--partner-name", "Rival", "--marketplace"}, perms...)...),
		staffTok: CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff"),
	}
	db, err := persistence.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	f.market = f.id(t, "SELECT partner_id FROM users WHERE username = 'market'")
	f.rival = f.id(t, "SELECT partner_id FROM users WHERE username = 'rival'")
	// A second user of market, without the permissions.
	f.readerTok = CreateUser(t, dsn, "--username", "reader", "--password", "reader-password", "--partner-name", "Tmp")
	f.exec(t, "UPDATE users SET partner_id = ? WHERE username = 'reader'", f.market)
	f.exec(t, "UPDATE partners SET time_zone = 'Europe/Paris', currency = 'EUR' WHERE id = ?", f.market)
	f.exec(t, "UPDATE partners SET currency = 'CHF' WHERE id = ?", f.rival)
	f.marketUUID = f.str(t, "SELECT uuid::text FROM partners WHERE id = ?", f.market)
	f.rivalUUID = f.str(t, "SELECT uuid::text FROM partners WHERE id = ?", f.rival)
	f.spa = f.acceptor(t, "Spa", "101", "n", true)
	f.bar = f.acceptor(t, "Bar", "102", "n", false)
	f.gone = f.acceptor(t, "Gone", "103", "i", true)
	f.exec(t, `INSERT INTO product_information_network_giftcards (partner_id, giftcard_title, giftcard_description)
		VALUES (?, '{"fr": "Carte cadeau", "en": "Gift card"}', '{"fr": "Valable partout", "en": "Valid everywhere"}')`, f.market)
	f.Server = Serve(t, dsn)
	return f
}

// acceptor adds a partner to market's network with a source id, in its
// giftcard settings when accepts.
func (f *ngcFixture) acceptor(t *testing.T, name, sourceID, status string, accepts bool) int64 {
	t.Helper()
	id := f.id(t, "INSERT INTO partners (name, status) VALUES (?, ?) RETURNING id", name, status)
	f.exec(t, "INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, ?)", f.market, id, sourceID)
	if accepts {
		f.exec(t, "INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?)", f.market, id)
	}
	return id
}

func (f *ngcFixture) id(t *testing.T, q string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

func (f *ngcFixture) str(t *testing.T, q string, args ...any) string {
	t.Helper()
	var s string
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

func (f *ngcFixture) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := f.db.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (f *ngcFixture) post(t *testing.T, path, token, body string) Response {
	t.Helper()
	return Do(t, "POST", f.URL+path, body, auth(token)...)
}

func (f *ngcFixture) get(t *testing.T, path, token string) Response {
	t.Helper()
	return Do(t, "GET", f.URL+path, "", auth(token)...)
}

// create makes a card of value through the API and returns its record.
func (f *ngcFixture) create(t *testing.T, token, status, value, extra string) map[string]any {
	t.Helper()
	r := f.post(t, "/api/networkgiftcards/", token, `{"marketplace_uuid": "`+f.marketUUID+`", "status": "`+status+`",
		"value": `+value+`, "gifter": {"first_name": "Jean", "last_name": "Valjean", "email": "Jean@Example.com"},
		"from_gifter": "Enjoy", "activation_date": "2026-01-01", "expiration_date": "2030-12-31"`+extra+`}`)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)
}

var ngcCodePattern = regexp.MustCompile(`^[A-HJ-NP-Z2-9]{12}$`)

// Creation answers the full record of 2.8, field by field; the deprecated
// and the current finds by code answer the full and the by-code records.
func TestNetworkGiftcardCreateAndFind(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	r := f.post(t, "/api/networkgiftcards/", f.marketTok, `{"marketplace_uuid": "`+f.marketUUID+`", "status": "paid",
		"value": 120.5, "gifter": {"first_name": "Jean", "last_name": "Valjean", "email": "jean@example.com"},
		"giftee": {"first_name": "Cosette", "last_name": "Fauchelevent", "email": "cosette@example.com"},
		"from_gifter": "Joyeux anniversaire", "activation_date": "2026-01-01", "expiration_date": "2027-01-01T10:00:00Z",
		"theme": "birthday", "language": "en"}`)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	card := r.JSON(t)
	code, _ := card["code"].(string)
	if !ngcCodePattern.MatchString(code) {
		t.Errorf("code %q: want 12 characters without look-alikes", code)
	}
	id := f.id(t, "SELECT id FROM network_giftcards WHERE code = ?", code)
	WantResponse(t, r, 201, `{"id": `+fmt.Sprint(id)+`, "code": "`+code+`", "status": "paid", "value": 120.50,
		"remaining_value": 120.50, "creation_date": "`+card["creation_date"].(string)+`",
		"activation_date": "2026-01-01T00:00:00+01:00", "expiration_date": "2027-01-01T11:00:00+01:00",
		"is_active": true, "is_splittable": true,
		"gifter": {"first_name": "Jean", "last_name": "Valjean", "email": "jean@example.com"},
		"giftee": {"first_name": "Cosette", "last_name": "Fauchelevent", "email": "cosette@example.com"},
		"from_gifter": "Joyeux anniversaire", "marketplace_uuid": "`+f.marketUUID+`"}`)
	if !strings.Contains(r.Body, `"value":120.50`) {
		t.Errorf("value is not the JSON number 120.50: %s", r.Body)
	}
	if cur := f.str(t, "SELECT currency FROM network_giftcards WHERE id = ?", id); cur != "EUR" {
		t.Errorf("currency %s, want the marketplace's EUR", cur)
	}
	// The ledger starts with the value.
	if sum := f.str(t, "SELECT sum(amount)::text FROM network_giftcard_movements WHERE network_giftcard_id = ?", id); sum != "120.50" {
		t.Errorf("ledger %s", sum)
	}

	uuid := f.str(t, "SELECT uuid::text FROM network_giftcards WHERE id = ?", id)
	for _, c := range []string{code, strings.ToLower(code)} {
		got := f.get(t, "/api/networkgiftcards_by_code/"+c+"/", f.marketTok)
		WantResponse(t, got, 200, `{"id": `+fmt.Sprint(id)+`, "uuid": "`+uuid+`", "code": "`+code+`", "status": "paid",
			"creation_date": "`+card["creation_date"].(string)+`", "expiration_date": "2027-01-01T11:00:00+01:00",
			"value": 120.50, "remaining_value": 120.50, "order_uuid": null, "order_creation_date": null,
			"description": "Valid everywhere", "short_description": "Gift card", "theme": "birthday"}`)
	}
	old := f.get(t, "/api/networkgiftcards/"+strings.ToLower(code)+"/", f.marketTok)
	WantResponse(t, old, 200, r.Body)
	if old.Header.Get("Deprecation") != "@1795478400" ||
		old.Header.Get("Link") != `</api/networkgiftcards_by_code/`+strings.ToLower(code)+`/>; rel="successor-version"` {
		t.Errorf("deprecated find headers: %v", old.Header)
	}

	// Another marketplace, or a code that is no card: not found.
	WantResponse(t, f.get(t, "/api/networkgiftcards_by_code/"+code+"/", f.rivalTok), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.get(t, "/api/networkgiftcards/"+code+"/", f.rivalTok), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.get(t, "/api/networkgiftcards_by_code/NOPE/", f.marketTok), 404, `{"detail": "Not found."}`)
	// Staff sees every marketplace's.
	WantResponse(t, f.get(t, "/api/networkgiftcards_by_code/"+code+"/", f.staffTok), 200, "")
	WantResponse(t, Do(t, "GET", f.URL+"/api/networkgiftcards_by_code/"+code+"/", ""), 401,
		`{"detail": "Authentication credentials were not provided."}`)
}

// Creation refuses what the spec or the service rules out, field by field,
// and writes nothing.
func TestNetworkGiftcardCreateErrors(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	body := func(fields string) string {
		return `{"marketplace_uuid": "` + f.marketUUID + `", "status": "paid", "value": 10,
			"gifter": {"first_name": "A", "last_name": "B", "email": "a@example.com"}, "from_gifter": "",
			"activation_date": "2026-01-01", "expiration_date": "2027-01-01"` + fields + `}`
	}
	for name, tc := range map[string]struct{ body, want string }{
		"empty": {`{}`, `{"marketplace_uuid": ["This field is required."], "status": ["This field is required."],
			"value": ["This field is required."], "gifter": ["This field is required."],
			"from_gifter": ["This field is required."], "activation_date": ["This field is required."],
			"expiration_date": ["This field is required."]}`},
		"status":        {body(`, "status": "sold"`), `{"status": ["\"sold\" is not a valid choice."]}`},
		"zero value":    {body(`, "value": 0`), `{"value": ["Ensure this value is greater than 0."]}`},
		"three decimal": {body(`, "value": 1.005`), `{"value": ["Ensure that there are no more than 2 decimal places."]}`},
		"huge value":    {body(`, "value": 1000000.01`), `{"value": ["Ensure this value is less than or equal to 1000000."]}`},
		"gifter e-mail": {body(`, "gifter": {"first_name": "A", "last_name": "B", "email": "nope"}`),
			`{"gifter": {"email": ["Enter a valid email address."]}}`},
		"gifter blank": {body(`, "gifter": {"first_name": "", "last_name": "B"}`),
			`{"gifter": {"first_name": ["This field may not be blank."], "email": ["This field is required."]}}`},
		"gifter a list": {body(`, "gifter": []`), `{"gifter": ["Expected a dictionary of items but got type \"list\"."]}`},
		"dates":         {body(`, "activation_date": "soon", "expiration_date": "2025-01-01"`), `{"activation_date": ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z], YYYY-MM-DD."]}`},
		"dates order":   {body(`, "expiration_date": "2025-01-01"`), `{"expiration_date": ["The expiration date must be after the activation date."]}`},
		"year 1":        {body(`, "activation_date": "0001-01-01"`), `{"activation_date": ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z], YYYY-MM-DD."]}`},
		"other marketplace": {strings.Replace(body(""), f.marketUUID, f.rivalUUID, 1),
			`{"marketplace_uuid": ["Object with uuid=` + f.rivalUUID + ` does not exist."]}`},
		"not a uuid": {strings.Replace(body(""), f.marketUUID, "x", 1), `{"marketplace_uuid": ["Must be a valid UUID."]}`},
	} {
		t.Run(name, func(t *testing.T) {
			WantResponse(t, f.post(t, "/api/networkgiftcards/", f.marketTok, tc.body), 400, tc.want)
		})
	}
	// A partner that is not a marketplace, named by staff.
	spaUUID := f.str(t, "SELECT uuid::text FROM partners WHERE id = ?", f.spa)
	WantResponse(t, f.post(t, "/api/networkgiftcards/", f.staffTok, strings.Replace(body(""), f.marketUUID, spaUUID, 1)), 400,
		`{"marketplace_uuid": ["This partner is not a marketplace."]}`)
	WantResponse(t, f.post(t, "/api/networkgiftcards/", f.readerTok, body("")), 403,
		`{"detail": "You do not have permission to perform this action."}`)
	if n := f.id(t, "SELECT count(*) FROM network_giftcards"); n != 0 {
		t.Errorf("%d cards written by refused creations", n)
	}
	// Staff creates for any marketplace: the card takes its currency.
	r := f.post(t, "/api/networkgiftcards/", f.staffTok, strings.Replace(body(""), f.marketUUID, f.rivalUUID, 1))
	if r.Status != 201 {
		t.Fatalf("staff create: %d %s", r.Status, r.Body)
	}
	if cur := f.str(t, "SELECT currency FROM network_giftcards WHERE code = ?", r.JSON(t)["code"]); cur != "CHF" {
		t.Errorf("currency %s, want the rival's CHF", cur)
	}
}

// A use by source id and by id, the 12:00 rule, the refusals with their
// messages (nothing changes), usages by code, and a cancel restoring once.
func TestNetworkGiftcardUse(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	code := f.create(t, f.marketTok, "paid", "50", "")["code"].(string)
	use := func(token, path, body string) Response {
		return f.post(t, "/api/networkgiftcards_by_code/"+code+path, token, body)
	}
	r := use(f.marketTok, "/use/", `{"creation_date": "2026-03-10", "value": "20.50", "partner_source_id": 101,
		"comment": "Dinner", "reservation_id": "R-1", "freeze_payout_date": "2026-04-01T12:00:00+02:00",
		"send_usage_notification_email": false}`)
	u1 := r.JSON(t)
	WantResponse(t, r, 200, fmt.Sprintf(`{"id": %v, "network_giftcard": %v, "partner": %d, "value": 20.50, "is_active": true,
		"comment": "Dinner", "reservation_id": "R-1", "partner_source_id": 101, "freeze_payout_date": "2026-04-01T12:00:00+02:00"}`,
		u1["id"], u1["network_giftcard"], f.spa))
	// A day alone is taken at 12:00 in the marketplace's zone.
	if at := f.str(t, "SELECT to_char(creation_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM network_giftcard_usages WHERE id = ?", u1["id"]); at != "2026-03-10 11:00" {
		t.Errorf("creation_date %s UTC, want 12:00 in Paris", at)
	}
	if st := f.str(t, "SELECT status FROM network_giftcards WHERE code = ?", code); st != "using" {
		t.Errorf("status %s after the first use, want using", st)
	}
	r = use(f.marketTok, "/use_with_service_id/", fmt.Sprintf(`{"creation_date": "2026-03-11T09:00:00Z", "value": 4.5, "partner_id": %d}`, f.spa))
	u2 := r.JSON(t)
	if r.Status != 200 || u2["partner_source_id"] != float64(101) {
		t.Fatalf("use by id: %d %s", r.Status, r.Body)
	}

	for name, tc := range map[string]struct {
		path, body string
		status     int
		want       string
	}{
		"over the balance": {"/use/", `{"creation_date": "2026-03-10", "value": 25.01, "partner_source_id": 101}`, 400,
			`{"value": ["The remaining value of this giftcard is 25.00."]}`},
		"unknown source id": {"/use/", `{"creation_date": "2026-03-10", "value": 1, "partner_source_id": 999}`, 400,
			`{"partner_source_id": ["No partner of this marketplace's network has this source id."]}`},
		"unknown id": {"/use_with_service_id/", `{"creation_date": "2026-03-10", "value": 1, "partner_id": 999999}`, 400,
			`{"partner_id": ["No partner of this marketplace's network has this id."]}`},
		"partner id 0": {"/use_with_service_id/", `{"creation_date": "2026-03-10", "value": 1, "partner_id": 0}`, 400,
			`{"partner_id": ["No partner of this marketplace's network has this id."]}`},
		"not in the settings": {"/use/", `{"creation_date": "2026-03-10", "value": 1, "partner_source_id": 102}`, 400,
			`{"partner_source_id": ["This partner does not accept this marketplace's network giftcards."]}`},
		"inactive partner": {"/use/", `{"creation_date": "2026-03-10", "value": 1, "partner_source_id": 103}`, 400,
			`{"partner_source_id": ["This network partner is inactive."]}`},
		"before activation": {"/use/", `{"creation_date": "2025-12-31", "value": 1, "partner_source_id": 101}`, 400,
			`{"creation_date": ["This giftcard cannot be used on this date."]}`},
		"after expiration": {"/use/", `{"creation_date": "2031-01-01", "value": 1, "partner_source_id": 101}`, 400,
			`{"creation_date": ["This giftcard cannot be used on this date."]}`},
		"required": {"/use/", `{}`, 400, `{"partner_source_id": ["This field is required."], "value": ["This field is required."],
			"creation_date": ["This field is required."]}`},
		"bad types": {"/use/", `{"creation_date": "x", "value": "ten", "partner_source_id": "a", "giftee_email": "no"}`, 400,
			`{"partner_source_id": ["A valid integer is required."], "value": ["A valid number is required."],
			"creation_date": ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z], YYYY-MM-DD."],
			"giftee_email": ["Enter a valid email address."]}`},
		"negative": {"/use/", `{"creation_date": "2026-03-10", "value": -1, "partner_source_id": 101}`, 400,
			`{"value": ["Ensure this value is greater than 0."]}`}, // as 0 is
	} {
		t.Run(name, func(t *testing.T) {
			WantResponse(t, use(f.marketTok, tc.path, tc.body), tc.status, tc.want)
		})
	}
	if rem := f.str(t, "SELECT remaining_value::text FROM network_giftcards WHERE code = ?", code); rem != "25.00" {
		t.Errorf("remaining %s after the refusals, want 25.00", rem)
	}

	WantResponse(t, f.get(t, "/api/networkgiftcards_by_code/"+code+"/usages/?page=9223372036854775807", f.marketTok), 404,
		`{"detail": "Invalid page."}`)
	// Usages by code, oldest first, paged as a plain array.
	r = f.get(t, "/api/networkgiftcards_by_code/"+strings.ToLower(code)+"/usages/?page_size=1&page=2", f.marketTok)
	if r.Status != 200 || r.Header.Get("X-Total-Count") != "2" || !strings.Contains(r.Body, `"value":4.50`) {
		t.Errorf("usages page 2: %d %v %s", r.Status, r.Header.Get("X-Total-Count"), r.Body)
	}

	// Cancel: restores once; the second answers the cancelled usage.
	cancel := fmt.Sprintf("/api/networkgiftcard_usages/%v/cancel/", u1["id"])
	r = f.post(t, cancel, f.marketTok, `{"comment": "wrong amount"}`)
	if r.Status != 200 || r.JSON(t)["is_active"] != false {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	r = Do(t, "POST", f.URL+cancel, "", auth(f.marketTok)...)
	if r.Status != 200 || r.JSON(t)["is_active"] != false {
		t.Fatalf("second cancel, no body: %d %s", r.Status, r.Body)
	}
	if rem := f.str(t, "SELECT remaining_value::text FROM network_giftcards WHERE code = ?", code); rem != "45.50" {
		t.Errorf("remaining %s after two cancels of 20.50, want 45.50", rem)
	}
	// A payout request of the usage's partner (made a payment-hub partner) takes it.
	f.exec(t, `INSERT INTO payment_partners (partner_id, legal_representative_email)
		SELECT partner_id, 'rep@example.com' FROM network_giftcard_usages WHERE id = ?`, u2["id"])
	f.exec(t, `INSERT INTO payout_requests (id, partner_id, currency, period_start, period_end)
		SELECT 7, partner_id, 'EUR', now() - interval '7 days', now() FROM network_giftcard_usages WHERE id = ?`, u2["id"])
	f.exec(t, "UPDATE network_giftcard_usages SET payout_id = 7 WHERE id = ?", u2["id"])
	WantResponse(t, f.post(t, fmt.Sprintf("/api/networkgiftcard_usages/%v/cancel/", u2["id"]), f.marketTok, `{}`), 409,
		`{"detail": "This usage is already in a payout: it cannot be cancelled."}`)
	WantResponse(t, f.post(t, "/api/networkgiftcard_usages/999999/cancel/", f.marketTok, `{}`), 404, `{"detail": "Not found."}`)

	// Another marketplace's card or usage is not found; without the
	// permission, 403.
	WantResponse(t, f.post(t, "/api/networkgiftcards_by_code/"+code+"/use/", f.rivalTok,
		`{"creation_date": "2026-03-10", "value": 1, "partner_source_id": 101}`), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.post(t, cancel, f.rivalTok, `{}`), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.get(t, "/api/networkgiftcards_by_code/"+code+"/usages/", f.rivalTok), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.post(t, "/api/networkgiftcards_by_code/"+code+"/use/", f.readerTok,
		`{"creation_date": "2026-03-10", "value": 1, "partner_source_id": 101}`), 403,
		`{"detail": "You do not have permission to perform this action."}`)
	WantResponse(t, f.post(t, cancel, f.readerTok, `{}`), 403, `{"detail": "You do not have permission to perform this action."}`)

	// A card that is not splittable is spent whole.
	whole := f.create(t, f.marketTok, "paid", "30", `, "is_splittable": false`)["code"].(string)
	WantResponse(t, f.post(t, "/api/networkgiftcards_by_code/"+whole+"/use/", f.marketTok,
		`{"creation_date": "2026-03-10", "value": 10, "partner_source_id": 101}`), 400,
		`{"value": ["This giftcard is not splittable: a usage spends its whole remaining value, 30.00."]}`)
	WantResponse(t, f.post(t, "/api/networkgiftcards_by_code/"+whole+"/use/", f.marketTok,
		`{"creation_date": "2026-03-10", "value": 30, "partner_source_id": 101}`), 200, "")
	WantResponse(t, f.post(t, "/api/networkgiftcards_by_code/"+f.create(t, f.marketTok, "paid", "30", `, "is_splittable": false`)["code"].(string)+"/holds/",
		f.marketTok, `{"amount": 10, "reservation_id": "R", "partner_source_id": 101}`), 400,
		`{"amount": ["This giftcard is not splittable: a usage spends its whole remaining value, 30.00."]}`)
	// A draft card cannot be used.
	draft := f.create(t, f.marketTok, "draft", "30", "")["code"].(string)
	WantResponse(t, f.post(t, "/api/networkgiftcards_by_code/"+draft+"/use/", f.marketTok,
		`{"creation_date": "2026-03-10", "value": 10, "partner_source_id": 101}`), 409,
		`{"detail": "This giftcard cannot be used: it is not paid, or not active."}`)
}

// Finding by e-mail: the gifter's or the giftee's, case-insensitive, the
// caller's marketplace's only; codes masked for a reader without the
// permissions.
func TestNetworkGiftcardsByEmail(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	a := f.create(t, f.marketTok, "paid", "10", "")["code"].(string)
	b := f.create(t, f.marketTok, "paid", "20", `, "giftee": {"first_name": "C", "last_name": "D", "email": "JEAN@example.com"},
		"gifter": {"first_name": "X", "last_name": "Y", "email": "x@example.com"}`)["code"].(string)
	f.create(t, f.marketTok, "paid", "30", `, "gifter": {"first_name": "X", "last_name": "Y", "email": "x@example.com"}`)

	r := f.get(t, "/api/networkgiftcards_by_email/jean@EXAMPLE.com/", f.marketTok)
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil || r.Status != 200 || len(got) != 2 {
		t.Fatalf("by e-mail: %d %s", r.Status, r.Body)
	}
	if got[0]["code"] != b || got[1]["code"] != a || r.Header.Get("X-Total-Count") != "2" {
		t.Errorf("by e-mail: want %s then %s, got %s", b, a, r.Body)
	}
	r = f.get(t, "/api/networkgiftcards_by_email/jean@example.com/", f.readerTok)
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil || len(got) != 2 || got[0]["code"] != "••••••••"+b[8:] {
		t.Errorf("reader: codes not masked: %s", r.Body)
	}
	r = f.get(t, "/api/networkgiftcards_by_email/jean@example.com/", f.rivalTok)
	WantResponse(t, r, 200, `[]`)
	WantResponse(t, f.get(t, "/api/networkgiftcards_by_email/jean@example.com/?page=2", f.marketTok), 404, `{"detail": "Invalid page."}`)
}

// Holds over REST: hold, list, capture part, release, the refusals; staff
// adjustments; the ledger summing to the remaining value.
func TestNetworkGiftcardHoldsAndLedger(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	code := f.create(t, f.marketTok, "paid", "100", "")["code"].(string)
	base := "/api/networkgiftcards_by_code/" + code
	r := f.post(t, base+"/holds/", f.marketTok, `{"amount": 40, "reservation_id": "BOOK/1", "partner_source_id": 101, "expires_in": 600}`)
	h := r.JSON(t)
	if r.Status != 201 || h["status"] != "held" || h["amount"] != float64(40) || h["partner_source_id"] != float64(101) ||
		h["partner"] != float64(f.spa) || h["usage"] != nil || h["ended_at"] != nil {
		t.Fatalf("hold: %d %s", r.Status, r.Body)
	}
	for name, tc := range map[string]struct{ body, want string }{
		"same reservation": {`{"amount": 1, "reservation_id": "BOOK/1", "partner_source_id": 101}`,
			`{"reservation_id": ["This card already has a hold under this reservation id."]}`},
		"over the balance": {`{"amount": 60.01, "reservation_id": "BOOK-2", "partner_id": ` + fmt.Sprint(f.spa) + `}`,
			`{"amount": ["The remaining value of this giftcard is 60.00."]}`},
		"both partners": {`{"amount": 1, "reservation_id": "B", "partner_id": 1, "partner_source_id": 101}`,
			`{"non_field_errors": ["Give partner_source_id or partner_id, not both."]}`},
		"required":   {`{}`, `{"partner_source_id": ["This field is required."], "amount": ["This field is required."], "reservation_id": ["This field is required."]}`},
		"too long":   {`{"amount": 1, "reservation_id": "B", "partner_source_id": 101, "expires_in": 604801}`, `{"expires_in": ["Ensure this value is less than or equal to 604800."]}`},
		"not accept": {`{"amount": 1, "reservation_id": "B", "partner_source_id": 102}`, `{"partner_source_id": ["This partner does not accept this marketplace's network giftcards."]}`},
	} {
		t.Run(name, func(t *testing.T) { WantResponse(t, f.post(t, base+"/holds/", f.marketTok, tc.body), 400, tc.want) })
	}
	r = f.post(t, base+"/holds/BOOK%2F1/capture/", f.marketTok, `{"value": 25, "creation_date": "2026-03-10", "comment": "Room"}`)
	if r.Status != 200 || r.JSON(t)["value"] != float64(25) || r.JSON(t)["reservation_id"] != "BOOK/1" {
		t.Fatalf("capture: %d %s", r.Status, r.Body)
	}
	WantResponse(t, f.post(t, base+"/holds/BOOK%2F1/capture/", f.marketTok, ""), 409,
		`{"detail": "This hold has ended: it was captured, released or it lapsed."}`)
	WantResponse(t, f.post(t, base+"/holds/NONE/release/", f.marketTok, ""), 404, `{"detail": "Not found."}`)
	f.post(t, base+"/holds/", f.marketTok, `{"amount": 10, "reservation_id": "BOOK-3", "partner_source_id": 101}`)
	r = f.post(t, base+"/holds/BOOK-3/release/", f.marketTok, "")
	if r.Status != 200 || r.JSON(t)["status"] != "released" {
		t.Fatalf("release: %d %s", r.Status, r.Body)
	}
	r = f.get(t, base+"/holds/", f.marketTok)
	if r.Status != 200 || r.Header.Get("X-Total-Count") != "2" || !strings.HasPrefix(r.Body, `[{"id":`) {
		t.Errorf("holds: %d %s", r.Status, r.Body)
	}

	// Staff adjust, with a reason; members may not.
	WantResponse(t, f.post(t, base+"/adjust/", f.marketTok, `{"amount": 5, "reason": "goodwill"}`), 403,
		`{"detail": "You do not have permission to perform this action."}`)
	WantResponse(t, f.post(t, base+"/adjust/", f.staffTok, `{"amount": 1}`), 400, `{"reason": ["This field is required."]}`)
	WantResponse(t, f.post(t, base+"/adjust/", f.staffTok, `{"amount": "1e15", "reason": "x"}`), 400,
		`{"amount": ["Ensure this value is between -1000000 and 1000000."]}`)
	WantResponse(t, f.post(t, base+"/adjust/", f.staffTok, `{"amount": 30, "reason": "too much"}`), 400,
		`{"amount": ["The remaining value must stay within 0.00 and the card's value, 100.00, counting what its holds and usages may give back; it is 75.00."]}`)
	r = f.post(t, base+"/adjust/", f.staffTok, `{"amount": "-5.00", "reason": "fee"}`)
	if m := r.JSON(t); r.Status != 201 || m["kind"] != "adjust" || m["balance_after"] != float64(70) || m["actor"] == nil || m["comment"] != "fee" {
		t.Fatalf("adjust: %d %s", r.Status, r.Body)
	}

	// The ledger: its amounts sum to the remaining value.
	r = f.get(t, base+"/movements/", f.marketTok)
	var ms []struct {
		Kind   string  `json:"kind"`
		Amount float64 `json:"amount"`
	}
	if err := json.Unmarshal([]byte(r.Body), &ms); err != nil || r.Status != 200 {
		t.Fatalf("movements: %d %s", r.Status, r.Body)
	}
	var kinds []string
	sum := 0.0
	for _, m := range ms {
		kinds = append(kinds, m.Kind)
		sum += m.Amount
	}
	if strings.Join(kinds, " ") != "issue hold release use hold release adjust" || fmt.Sprintf("%.2f", sum) != "70.00" {
		t.Errorf("ledger %v sums to %.2f; want 70.00", kinds, sum)
	}
	WantResponse(t, f.get(t, base+"/movements/", f.rivalTok), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.post(t, base+"/holds/", f.rivalTok, `{"amount": 1, "reservation_id": "X", "partner_source_id": 101}`), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.post(t, base+"/holds/", f.readerTok, `{"amount": 1, "reservation_id": "X", "partner_source_id": 101}`), 403,
		`{"detail": "You do not have permission to perform this action."}`)
}

// X-Idempotency-Key on a use: a repeat replays the first answer without
// spending again, another body is 422, a refusal is replayed too; another
// token's key is its own.
func TestNetworkGiftcardIdempotentUse(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	code := f.create(t, f.marketTok, "paid", "30", "")["code"].(string)
	path := f.URL + "/api/networkgiftcards_by_code/" + code + "/use/"
	body := `{"creation_date": "2026-03-10", "value": 10, "partner_source_id": 101}`
	key := func(k string) []string { return append(auth(f.marketTok), "X-Idempotency-Key", k) }

	first := Do(t, "POST", path, body, key("use-1")...)
	again := Do(t, "POST", path, body, key("use-1")...)
	if first.Status != 200 || again.Status != 200 || again.Body != first.Body ||
		again.Header.Get("Idempotent-Replayed") != "true" || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first %d %s %v; again %d %s %v", first.Status, first.Body, first.Header, again.Status, again.Body, again.Header)
	}
	if rem := f.str(t, "SELECT remaining_value::text FROM network_giftcards WHERE code = ?", code); rem != "20.00" {
		t.Errorf("remaining %s after a replayed use, want 20.00", rem)
	}
	WantResponse(t, Do(t, "POST", path, `{"creation_date": "2026-03-10", "value": 11, "partner_source_id": 101}`, key("use-1")...), 422,
		`{"detail": "This idempotency key was already used for another request."}`)

	over := `{"creation_date": "2026-03-10", "value": 25, "partner_source_id": 101}`
	WantResponse(t, Do(t, "POST", path, over, key("use-2")...), 400, `{"value": ["The remaining value of this giftcard is 20.00."]}`)
	// The refusal is the key's answer, even once the card could take it.
	f.exec(t, "UPDATE network_giftcards SET remaining_value = 30 WHERE code = ?", code)
	r := Do(t, "POST", path, over, key("use-2")...)
	WantResponse(t, r, 400, `{"value": ["The remaining value of this giftcard is 20.00."]}`)
	if r.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replayed refusal without the header: %v", r.Header)
	}
	WantResponse(t, Do(t, "POST", path, body, append(auth(f.staffTok), "X-Idempotency-Key", "use-1")...), 200, "")
	WantResponse(t, Do(t, "POST", path, body, key(" ")...), 400, "")

	// A refusal of the body's own fields comes before the key is taken:
	// the corrected body may use the key.
	WantResponse(t, Do(t, "POST", path, `{"creation_date": "2026-03-10", "value": 0, "partner_source_id": 101}`, key("use-3")...),
		400, `{"value": ["Ensure this value is greater than 0."]}`)
	if r := Do(t, "POST", path, `{"creation_date": "2026-03-10", "value": 1, "partner_source_id": 101}`, key("use-3")...); r.Status != 200 ||
		r.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the corrected body with the key: %d %s %v", r.Status, r.Body, r.Header)
	}
}

// A use queues its mails in its own transaction: to the marketplace's
// agency e-mail and to the beneficiary (giftee_email, else the giftee's,
// else the gifter's), in the card's language; none when
// send_usage_notification_email is false, or when the use is refused.
func TestNetworkGiftcardUseMails(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	f.exec(t, `INSERT INTO partner_legal_information (partner_id, agency_email) VALUES (?, 'desk@market.example')
		ON CONFLICT (partner_id) DO UPDATE SET agency_email = excluded.agency_email`, f.market)
	code := f.create(t, f.marketTok, "paid", "50", `, "language": "de",
		"giftee": {"first_name": "Cosette", "last_name": "F", "email": "cosette@example.com"}`)["code"].(string)
	mails := func() []string {
		var out []string
		if err := f.db.NewRaw(`SELECT args->>'to' || ' ' || (args->>'language') FROM river_job WHERE kind = 'mail' ORDER BY id`).
			Scan(context.Background(), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	use := func(body string) Response {
		return f.post(t, "/api/networkgiftcards_by_code/"+code+"/use/", f.marketTok, body)
	}
	WantResponse(t, use(`{"creation_date": "2026-03-10", "value": 5, "partner_source_id": 101}`), 200, "")
	if got := strings.Join(mails(), ", "); got != "desk@market.example de, cosette@example.com de" {
		t.Errorf("mails %q", got)
	}
	WantResponse(t, use(`{"creation_date": "2026-03-10", "value": 5, "partner_source_id": 101, "giftee_email": "other@example.com"}`), 200, "")
	WantResponse(t, use(`{"creation_date": "2026-03-10", "value": 5, "partner_source_id": 101, "send_usage_notification_email": false}`), 200, "")
	WantResponse(t, use(`{"creation_date": "2026-03-10", "value": 500, "partner_source_id": 101}`), 400, "")
	if got := mails(); len(got) != 4 || got[3] != "other@example.com de" {
		t.Errorf("mails after the other uses: %q", got)
	}
}
