package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// hubFixture is the handler over a database with: market and rival,
// marketplaces whose users hold access_configuration_marketplaces;
// viewer, a member of market without permissions; shop, a partner that is
// not a marketplace, whose user holds the permission; and a staff user.
type hubFixture struct {
	h                                       http.Handler
	db                                      *bun.DB
	dsn                                     string // db's, for the webhook deliveries' worker
	accounts                                *account.AccountService
	marketTok, rivalTok, viewerTok, shopTok string
	staffTok                                string
	market, shop                            *domain.Partner
	accountsMade                            int
}

func newHubFixture(t *testing.T) *hubFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	db := OpenDB(t, dsn)
	f := &hubFixture{h: Handler(t, db), db: db, dsn: dsn, accounts: account.NewAccountService(persistence.NewDatabase(db), nil, dbtest.CheapHashing)}
	perm := []string{domain.PermAccessConfigurationMarketplaces}
	a := dbtest.MustAccount(t, f.accounts, account.NewAccountInput{Username: "market", PartnerName: "Market", Marketplace: true, Permissions: perm})
	f.marketTok, f.market = a.Token, a.Partner
	f.rivalTok = dbtest.MustAccount(t, f.accounts, account.NewAccountInput{Username: "rival", PartnerName: "Rival", Marketplace: true, Permissions: perm}).Token
	a = dbtest.MustAccount(t, f.accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop", Permissions: perm})
	f.shopTok, f.shop = a.Token, a.Partner
	f.staffTok = dbtest.MustAccount(t, f.accounts, account.NewAccountInput{Username: "staff", Staff: true}).Token
	f.viewerTok = f.memberOf(t, f.market.ID)
	return f
}

// memberOf returns the token of a new user of partner, holding perms.
func (f *hubFixture) memberOf(t *testing.T, partner int64, perms ...string) string {
	t.Helper()
	f.accountsMade++
	name := fmt.Sprintf("member%d", f.accountsMade)
	a := dbtest.MustAccount(t, f.accounts, account.NewAccountInput{Username: name, PartnerName: name, Permissions: perms})
	// Moved before its token is first used, so no cache holds its partner.
	_, err := f.db.NewRaw(`UPDATE users SET partner_id = ? WHERE id = ?`, partner, a.User.ID).Exec(context.Background())
	gcMust(t, err)
	return a.Token
}

// call sends a request with token ("" for none) and headers, checked
// against the OpenAPI document.
func (f *hubFixture) call(t *testing.T, method, path, token, body string, headers ...string) Response {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Token "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	CheckContract(t, req, rec.Code, rec.Header(), rec.Body.Bytes())
	return Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
}

// digest sums every row of the tables payment-hub partners are written to.
func (f *hubFixture) digest(t *testing.T) string {
	t.Helper()
	var out []string
	for _, table := range []string{"partners", "partner_legal_information", "payment_partners", "payment_partner_activations",
		"payment_partner_audit", "kyc_documents", "psp_sim_activations"} {
		var d string
		gcMust(t, f.db.NewRaw(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM ? t`,
			bun.Ident(table)).Scan(context.Background(), &d))
		out = append(out, table+"="+d)
	}
	return strings.Join(out, " ")
}

// hubRequired is a creation body with every required field.
func hubRequired() map[string]any {
	return map[string]any{"status": "a", "commercial_name": "Spa des Alpes", "short_name": "SPA",
		"legal_representative_email": "anne@spa.example.com", "agency_email": "contact@spa.example.com"}
}

const (
	hubBase    = "/api/payment_hub/partner/"
	hubIBAN    = "FR1420041010050500013M02606"
	hubMasked  = "FR14•••••••••••••••••••2606"
	denied     = `{"detail": "You do not have permission to perform this action."}`
	notFoundJS = `{"detail": "Not found."}`
)

// create makes a partner of market with kv over the required fields.
func (f *hubFixture) create(t *testing.T, kv ...any) map[string]any {
	t.Helper()
	res := f.call(t, http.MethodPost, hubBase, f.marketTok, body(t, hubRequired(), kv...))
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	return res.JSON(t)
}

func TestPaymentHubPartnerCreateREST(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)

	// Every field of the body, and the whole record it answers, the IBAN
	// masked for the marketplace.
	full := body(t, hubRequired(), "status", "t", "name", "Spa des Alpes SAS", "company_type", "bus",
		"siret_number", "12345678900012", "legal_representative_first_name", "Anne", "legal_representative_last_name", "Dupont",
		"legal_representative_birthday", "1980-05-17", "hq_address_line_1", "1 rue Haute", "hq_address_line_2", "Bâtiment B",
		"hq_postal_code", "74000", "hq_city", "Annecy", "hq_country", "FR", "rcs", "RCS Annecy 123", "ape", "9604Z",
		"vat_id", "FR12345678901", "agency_phone", "+33 4 50 00 00 00", "website", "https://spa.example.com",
		"payout_frequency", "week", "auto_validate_payout", true, "freeze_payout", true, "block_payout_validation", true,
		"iban", "FR14 2004 1010 0505 0001 3M02 606", "bic", "BNPAFRPPXXX", "hide_from_stats", true,
		"third_party_sales_only", true, "referrer", f.market.ID)
	res := f.call(t, http.MethodPost, hubBase, f.marketTok, full)
	created := res.JSON(t)
	id, uuid := int64(created["id"].(float64)), created["uuid"]
	WantResponse(t, res, http.StatusCreated, fmt.Sprintf(`{"id": %d, "uuid": %q, "status": "t", "name": "Spa des Alpes SAS",
		"commercial_name": "Spa des Alpes", "short_name": "SPA", "company_type": "bus", "siret_number": "12345678900012",
		"legal_representative_first_name": "Anne", "legal_representative_last_name": "Dupont",
		"legal_representative_birthday": "1980-05-17T00:00:00Z", "hq_address_line_1": "1 rue Haute",
		"hq_address_line_2": "Bâtiment B", "hq_postal_code": "74000", "hq_city": "Annecy", "hq_country": "FR",
		"rcs": "RCS Annecy 123", "ape": "9604Z", "vat_id": "FR12345678901", "agency_email": "contact@spa.example.com",
		"agency_phone": "+33 4 50 00 00 00", "hide_from_stats": true, "third_party_sales_only": true, "referrer": %d,
		"legal_representative_email": "anne@spa.example.com", "website": "https://spa.example.com",
		"payout_frequency": "week", "auto_validate_payout": true, "freeze_payout": true, "block_payout_validation": true,
		"iban": %q, "bic": "BNPAFRPPXXX", "payment_activation_status": null, "can_take_payments": false,
		"pending_payment_activation_uri": "/api/payment_hub/partner/%s/activate-payments/",
		"pending_payment_activation_method": "POST"}`, id, uuid, f.market.ID, hubMasked, uuid))

	// Only the required fields: the defaults; staff see the IBAN whole.
	res = f.call(t, http.MethodPost, hubBase, f.staffTok, body(t, hubRequired(), "iban", hubIBAN))
	minimal := res.JSON(t)
	if res.Status != http.StatusCreated || minimal["name"] != "Spa des Alpes" || minimal["payout_frequency"] != "month" ||
		minimal["iban"] != hubIBAN || minimal["bic"] != "" || minimal["referrer"] != nil || minimal["company_type"] != "" ||
		minimal["legal_representative_birthday"] != nil || minimal["freeze_payout"] != false || minimal["website"] != "" {
		t.Errorf("minimal create: %d %s", res.Status, res.Body)
	}

	before := f.digest(t)
	for _, field := range []string{"status", "commercial_name", "short_name", "legal_representative_email", "agency_email"} {
		res := f.call(t, http.MethodPost, hubBase, f.marketTok, body(t, hubRequired(), field, drop))
		WantResponse(t, res, http.StatusBadRequest, fmt.Sprintf(`{%q: ["This field is required."]}`, field))
	}
	for _, c := range []struct {
		kv   []any
		want string
	}{
		{[]any{"status", "n"}, `{"status": ["\"n\" is not a valid choice."]}`},
		{[]any{"status", "A"}, `{"status": ["\"A\" is not a valid choice."]}`},
		{[]any{"company_type", "sarl"}, `{"company_type": ["\"sarl\" is not a valid choice."]}`},
		{[]any{"payout_frequency", "daily"}, `{"payout_frequency": ["\"daily\" is not a valid choice."]}`},
		{[]any{"iban", "FR1420041010050500013M02607"}, `{"iban": ["` + payments.MsgIBANChecksum + `"]}`},
		{[]any{"iban", "FR142004101005050001302606"}, `{"iban": ["An IBAN of FR has 27 characters, not 26."]}`},
		{[]any{"iban", "QQ1420041010050500013M02606"}, `{"iban": ["IBANs of country \"QQ\" are not accepted."]}`},
		{[]any{"iban", "IBAN: FR14"}, `{"iban": ["` + payments.MsgIBANFormat + `"]}`},
		{[]any{"bic", "BNPAFR"}, `{"bic": ["` + payments.MsgBIC + `"]}`},
		{[]any{"bic", "BNPA-FR-PP"}, `{"bic": ["` + payments.MsgBIC + `"]}`},
		{[]any{"agency_email", "contact"}, `{"agency_email": ["Enter a valid email address."]}`},
		{[]any{"legal_representative_email", "anne@"}, `{"legal_representative_email": ["Enter a valid email address."]}`},
		{[]any{"website", "www.spa.example.com"}, `{"website": ["Enter a valid URL."]}`},
		{[]any{"legal_representative_birthday", "17 May 1980"}, `{"legal_representative_birthday": ["` + domain.MsgDayFormat + `"]}`},
		{[]any{"hq_postal_code", "74000-74001"}, `{"hq_postal_code": ["Ensure this field has no more than 10 characters."]}`},
		{[]any{"auto_validate_payout", "sometimes"}, `{"auto_validate_payout": ["Must be a valid boolean."]}`},
		{[]any{"referrer", 999999}, `{"referrer": ["Invalid pk \"999999\" - object does not exist."]}`},
		{[]any{"commercial_name", ""}, `{"commercial_name": ["This field may not be blank."]}`},
		{[]any{"short_name", strings.Repeat("s", 256)}, `{"short_name": ["Ensure this field has no more than 255 characters."]}`},
	} {
		res := f.call(t, http.MethodPost, hubBase, f.marketTok, body(t, hubRequired(), c.kv...))
		WantResponse(t, res, http.StatusBadRequest, c.want)
	}
	WantResponse(t, f.call(t, http.MethodPost, hubBase, f.staffTok, body(t, hubRequired(), "referrer", f.shop.ID)),
		http.StatusBadRequest, `{"referrer": ["`+payments.MsgReferrerNotMarketplace+`"]}`)
	WantResponse(t, f.call(t, http.MethodPost, hubBase, f.shopTok, body(t, hubRequired())), http.StatusForbidden, denied)
	WantResponse(t, f.call(t, http.MethodPost, hubBase, f.viewerTok, body(t, hubRequired())), http.StatusForbidden, denied)
	WantResponse(t, f.call(t, http.MethodPost, hubBase, "", body(t, hubRequired())), http.StatusUnauthorized,
		`{"detail": "Authentication credentials were not provided."}`)
	WantResponse(t, f.call(t, http.MethodPost, hubBase, f.marketTok, `{"status": `), http.StatusBadRequest, "")
	WantResponse(t, f.call(t, http.MethodPost, hubBase, f.marketTok, `[]`), http.StatusBadRequest,
		`{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`)
	// A form is read as JSON is (a flat body), and checked the same way.
	WantResponse(t, f.call(t, http.MethodPost, hubBase, f.marketTok, "status=a", "Content-Type", "application/x-www-form-urlencoded"),
		http.StatusBadRequest, `{"agency_email": ["This field is required."], "commercial_name": ["This field is required."],
		"legal_representative_email": ["This field is required."], "short_name": ["This field is required."]}`)
	WantResponse(t, f.call(t, http.MethodPost, hubBase, f.marketTok, "status=a", "Content-Type", "text/plain"),
		http.StatusUnsupportedMediaType, "")
	if after := f.digest(t); after != before {
		t.Errorf("a refused creation wrote:\n%s\n%s", before, after)
	}

	// An idempotency key replays the creation.
	key := []string{"X-Idempotency-Key", "hub-create-1"}
	first := f.call(t, http.MethodPost, hubBase, f.marketTok, body(t, hubRequired(), "iban", hubIBAN), key...)
	again := f.call(t, http.MethodPost, hubBase, f.marketTok, body(t, hubRequired(), "iban", hubIBAN), key...)
	if first.Status != 201 || again.Status != 201 || again.Body != first.Body || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %s / %d %s", first.Status, first.Body, again.Status, again.Body)
	}
	WantResponse(t, f.call(t, http.MethodPost, hubBase, f.marketTok, body(t, hubRequired()), key...), http.StatusUnprocessableEntity, "")
}

func TestPaymentHubPartnerGetUpdateREST(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)
	created := f.create(t, "iban", hubIBAN, "legal_representative_birthday", "1980-05-17")
	id, uuid := int64(created["id"].(float64)), created["uuid"].(string)
	path := hubBase + uuid + "/"
	ownTok := f.memberOf(t, id, domain.PermManageMasterAdmin)

	// Reads: the referrer's members (any), the partner's own, staff (the
	// IBAN whole); another marketplace and unknown uuids are 404.
	for name, tok := range map[string]string{"referrer's viewer": f.viewerTok, "own member": ownTok, "staff": f.staffTok} {
		res := f.call(t, http.MethodGet, path, tok, "")
		got := res.JSON(t)
		want := hubMasked
		if tok == f.staffTok {
			want = hubIBAN
		}
		if res.Status != 200 || got["uuid"] != uuid || got["iban"] != want || got["pending_payment_activation_uri"] != nil {
			t.Errorf("%s: %d %s", name, res.Status, res.Body)
		}
	}
	WantResponse(t, f.call(t, http.MethodHead, path, f.marketTok, ""), http.StatusOK, "")
	for _, p := range []string{path, hubBase + "0b6f6a38-0c1e-4a57-b2ab-5c1f2a0e9d11/", hubBase + "not-a-uuid/",
		hubBase + f.market.UUID.String() + "/"} {
		tok := f.rivalTok
		if p != path {
			tok = f.staffTok
		}
		WantResponse(t, f.call(t, http.MethodGet, p, tok, ""), http.StatusNotFound, notFoundJS)
	}

	// The referrer's update echoes the fields it may change.
	res := f.call(t, http.MethodPatch, path, f.marketTok, `{"block_payout_validation": true, "hide_from_stats": true,
		"third_party_sales_only": true, "referrer": `+fmt.Sprint(f.market.ID)+`, "legal_representative_birthday": "1981-06-18",
		"legal_representative_email": "legal@spa.example.com", "status": "i", "reason": "Waiting for documents"}`)
	WantResponse(t, res, http.StatusOK, fmt.Sprintf(`{"id": %d, "uuid": %q, "status": "i", "block_payout_validation": true,
		"hide_from_stats": true, "third_party_sales_only": true, "referrer": %d,
		"legal_representative_birthday": "1981-06-18", "legal_representative_email": "legal@spa.example.com"}`,
		id, uuid, f.market.ID))
	form := f.call(t, http.MethodPatch, path, f.marketTok, "hide_from_stats=false", "Content-Type", "application/x-www-form-urlencoded")
	if form.Status != http.StatusOK || form.JSON(t)["hide_from_stats"] != false {
		t.Errorf("update by a form: %d %s", form.Status, form.Body)
	}
	got := f.call(t, http.MethodGet, path, f.marketTok, "").JSON(t)
	if got["status"] != "i" || got["block_payout_validation"] != true || got["legal_representative_email"] != "legal@spa.example.com" {
		t.Errorf("read back %v", got)
	}
	var reason string
	gcMust(t, f.db.NewRaw(`SELECT reason FROM payment_partner_audit WHERE partner_id = ? AND action = 'update'`, id).Scan(context.Background(), &reason))
	if reason != "Waiting for documents" {
		t.Errorf("audit reason %q", reason)
	}

	// Each field alone; null birthday clears it.
	for field, value := range map[string]string{"block_payout_validation": "false", "hide_from_stats": "false",
		"third_party_sales_only": "false", "legal_representative_birthday": "null", "legal_representative_email": `"anne@spa.example.com"`} {
		res := f.call(t, http.MethodPatch, path, f.marketTok, `{"`+field+`": `+value+`}`)
		if got := res.JSON(t); res.Status != 200 || jsonOf(t, got[field]) != value {
			t.Errorf("%s: %d %s", field, res.Status, res.Body)
		}
	}

	// The partner's own administrator: its legal representative only.
	WantResponse(t, f.call(t, http.MethodPatch, path, ownTok, `{"legal_representative_email": "own@spa.example.com"}`), http.StatusOK, "")
	WantResponse(t, f.call(t, http.MethodPatch, path, ownTok, `{"hide_from_stats": true, "status": "a"}`), http.StatusBadRequest,
		`{"hide_from_stats": ["`+payments.MsgSettingsNotOwn+`"], "status": ["`+payments.MsgSettingsNotOwn+`"]}`)
	WantResponse(t, f.call(t, http.MethodPatch, path, f.viewerTok, `{"hide_from_stats": true}`), http.StatusForbidden, denied)
	WantResponse(t, f.call(t, http.MethodPatch, path, f.rivalTok, `{"hide_from_stats": true}`), http.StatusNotFound, notFoundJS)
	for bodyText, want := range map[string]string{
		`{"referrer": null}`:                        `{"referrer": ["` + payments.MsgReferrerStaffOnly + `"]}`,
		`{"status": "n"}`:                           `{"status": ["\"n\" is not a valid choice."]}`,
		`{"legal_representative_email": "x"}`:       `{"legal_representative_email": ["Enter a valid email address."]}`,
		`{"legal_representative_birthday": "soon"}`: `{"legal_representative_birthday": ["` + domain.MsgDayFormat + `"]}`,
		`{"block_payout_validation": "perhaps"}`:    `{"block_payout_validation": ["Must be a valid boolean."]}`,
	} {
		WantResponse(t, f.call(t, http.MethodPatch, path, f.marketTok, bodyText), http.StatusBadRequest, want)
	}
	// Staff hand the partner over to another marketplace.
	var rivalID int64
	gcMust(t, f.db.NewRaw(`SELECT id FROM partners WHERE name = 'Rival'`).Scan(context.Background(), &rivalID))
	WantResponse(t, f.call(t, http.MethodPatch, path, f.staffTok, fmt.Sprintf(`{"referrer": %d}`, rivalID)), http.StatusOK, "")
	WantResponse(t, f.call(t, http.MethodGet, path, f.marketTok, ""), http.StatusNotFound, notFoundJS)
	WantResponse(t, f.call(t, http.MethodGet, path, f.rivalTok, ""), http.StatusOK, "")
}

// pagePath is the path of a provider page's URL.
func pagePath(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || !strings.HasPrefix(u.Path, "/psp/sim/activations/") {
		t.Fatalf("user action URL %q", raw)
	}
	return u.Path
}

func TestPaymentHubActivationREST(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)
	created := f.create(t)
	uuid := created["uuid"].(string)
	activate := created["pending_payment_activation_uri"].(string)

	res := f.call(t, http.MethodPost, activate, f.marketTok, "", "X-Idempotency-Key", "activate-1")
	act := res.JSON(t)
	if res.Status != 200 || act["status"] != "PENDING_USER_ACTION" || act["partner_uuid"] != uuid || act["completed_on"] != nil {
		t.Fatalf("activate: %d %s", res.Status, res.Body)
	}
	page := pagePath(t, act["user_action_url"].(string))
	replay := f.call(t, http.MethodPost, activate, f.marketTok, "", "X-Idempotency-Key", "activate-1")
	if replay.Body != res.Body || replay.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %s", replay.Body)
	}
	if got := f.call(t, http.MethodGet, hubBase+uuid+"/", f.marketTok, "").JSON(t); got["payment_activation_status"] != "PENDING_USER_ACTION" ||
		got["can_take_payments"] != false {
		t.Errorf("pending partner %v", got)
	}

	// The legal representative's page, then their form.
	html := f.call(t, http.MethodGet, page, "", "")
	if html.Status != 200 || !strings.HasPrefix(html.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(html.Body, "Spa des Alpes") || !strings.Contains(html.Body, `value="verify"`) {
		t.Fatalf("page: %d %s", html.Status, html.Body)
	}
	form := f.call(t, http.MethodPost, page, "", "decision=verify", "Content-Type", "application/x-www-form-urlencoded")
	if form.Status != http.StatusSeeOther || form.Header.Get("Location") != page {
		t.Fatalf("form: %d %v", form.Status, form.Header)
	}
	if html := f.call(t, http.MethodGet, page, "", ""); !strings.Contains(html.Body, "Identity verified") {
		t.Errorf("answered page %s", html.Body)
	}
	got := f.call(t, http.MethodGet, hubBase+uuid+"/", f.marketTok, "").JSON(t)
	if got["payment_activation_status"] != "COMPLETED" || got["can_take_payments"] != true {
		t.Errorf("verified partner %v", got)
	}
	// Asking again answers the completed activation.
	res = f.call(t, http.MethodPost, activate, f.staffTok, "")
	if again := res.JSON(t); res.Status != 200 || again["id"] != act["id"] || again["status"] != "COMPLETED" || again["completed_on"] == nil {
		t.Errorf("after completion: %d %s", res.Status, res.Body)
	}
	var actions []string
	gcMust(t, f.db.NewRaw(`SELECT array_agg(action || ':' || actor ORDER BY a.id) FROM payment_partner_audit a
		JOIN partners p ON p.id = a.partner_id WHERE p.uuid = ?`, uuid).Scan(context.Background(), pgdialect.Array(&actions)))
	if strings.Join(actions, " ") != "create:market activation_start:market activation_complete:provider:simulated" {
		t.Errorf("audit trail %v", actions)
	}

	// Who may not.
	WantResponse(t, f.call(t, http.MethodPost, activate, f.rivalTok, ""), http.StatusNotFound, notFoundJS)
	WantResponse(t, f.call(t, http.MethodPost, activate, f.viewerTok, ""), http.StatusForbidden, denied)
	WantResponse(t, f.call(t, http.MethodPost, activate, "", ""), http.StatusUnauthorized, "")
	WantResponse(t, f.call(t, http.MethodPost, hubBase+"nope/activate-payments/", f.staffTok, ""), http.StatusNotFound, notFoundJS)
	WantResponse(t, f.call(t, http.MethodPost, activate, f.marketTok, "", "X-Idempotency-Key", "has space"), http.StatusBadRequest, "")
}

// kycPart is a multipart upload of a KYC document with the fields kv
// (name, value; a value of "" leaves the field out).
func kycBody(t *testing.T, filename string, data []byte, kv ...string) (string, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			gcMust(t, mw.WriteField(kv[i], kv[i+1]))
		}
	}
	if data != nil {
		w, err := mw.CreateFormFile("file", filename)
		gcMust(t, err)
		_, err = io.Copy(w, bytes.NewReader(data))
		gcMust(t, err)
	}
	gcMust(t, mw.Close())
	return b.String(), mw.FormDataContentType()
}

func TestKYCDocumentsREST(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)
	created := f.create(t)
	id, uuid := int64(created["id"].(float64)), created["uuid"].(string)
	const path = "/api/payment_hub/kyc_documents/"
	fields := func(kv ...string) []string {
		base := map[string]string{"partner_uuid": uuid, "comment": "Kbis extract", "document_type": "REGISTRATION_PROOF"}
		for i := 0; i+1 < len(kv); i += 2 {
			base[kv[i]] = kv[i+1]
		}
		var out []string
		for k, v := range base {
			out = append(out, k, v)
		}
		return out
	}
	post := func(tok, filename string, data []byte, kv []string, headers ...string) Response {
		b, ct := kycBody(t, filename, data, kv...)
		return f.call(t, http.MethodPost, path, tok, b, append([]string{"Content-Type", ct}, headers...)...)
	}
	var jpg bytes.Buffer
	gcMust(t, jpeg.Encode(&jpg, image.NewRGBA(image.Rect(0, 0, 3, 2)), nil))
	var png bytes.Buffer
	gcMust(t, pngEncode(&png))
	pdf := []byte("%PDF-1.7\n%âãÏÓ\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

	for _, c := range []struct {
		name, docType string
		data          []byte
	}{{"kbis.pdf", "REGISTRATION_PROOF", pdf}, {"id.png", "IDENTITY_PROOF", png.Bytes()}, {"bill.jpg", "ADDRESS_PROOF", jpg.Bytes()},
		{"statutes.bin", "ARTICLES_OF_ASSOCIATION", pdf}, {"holders.pdf", "SHAREHOLDER_DECLARATION", pdf}} {
		res := post(f.marketTok, c.name, c.data, fields("document_type", c.docType))
		doc := res.JSON(t)
		WantResponse(t, res, http.StatusCreated, fmt.Sprintf(`{"id": %v, "partner": %d, "partner_uuid": %q,
			"comment": "Kbis extract", "document_type": %q}`, doc["id"], id, uuid, c.docType))
	}
	var contentTypes []string
	gcMust(t, f.db.NewRaw(`SELECT array_agg(content_type ORDER BY id) FROM kyc_documents`).Scan(context.Background(), pgdialect.Array(&contentTypes)))
	if strings.Join(contentTypes, " ") != "application/pdf image/png image/jpeg application/pdf application/pdf" {
		t.Errorf("content types %v", contentTypes)
	}

	before := f.digest(t)
	notPDF := `{"file": ["` + payments.MsgKYCFileType + `"]}`
	WantResponse(t, post(f.marketTok, "scan.pdf", []byte("Not a PDF at all, whatever its name says.\n"), fields()), http.StatusBadRequest, notPDF)
	WantResponse(t, post(f.marketTok, "scan.pdf", []byte("<html><body>%PDF-1.4</body></html>"), fields()), http.StatusBadRequest, notPDF)
	WantResponse(t, post(f.marketTok, "scan.pdf", []byte{}, fields()), http.StatusBadRequest, `{"file": ["The submitted file is empty."]}`)
	for _, missing := range []string{"partner_uuid", "comment", "document_type"} {
		WantResponse(t, post(f.marketTok, "kbis.pdf", pdf, fields(missing, "")), http.StatusBadRequest,
			fmt.Sprintf(`{%q: ["This field is required."]}`, missing))
	}
	WantResponse(t, post(f.marketTok, "", nil, fields()), http.StatusBadRequest, `{"file": ["No file was submitted."]}`)
	WantResponse(t, post(f.marketTok, "kbis.pdf", pdf, fields("document_type", "PASSPORT")), http.StatusBadRequest,
		`{"document_type": ["\"PASSPORT\" is not a valid choice."]}`)
	WantResponse(t, post(f.marketTok, "kbis.pdf", pdf, fields("partner_uuid", "x")), http.StatusBadRequest, `{"partner_uuid": ["Must be a valid UUID."]}`)
	WantResponse(t, post(f.rivalTok, "kbis.pdf", pdf, fields()), http.StatusBadRequest,
		fmt.Sprintf(`{"partner_uuid": ["Object with uuid=%s does not exist."]}`, uuid))
	WantResponse(t, post(f.viewerTok, "kbis.pdf", pdf, fields()), http.StatusForbidden, denied)
	WantResponse(t, post("", "kbis.pdf", pdf, fields()), http.StatusUnauthorized, "")
	WantResponse(t, f.call(t, http.MethodPost, path, f.marketTok, `{"partner_uuid": "`+uuid+`"}`), http.StatusUnsupportedMediaType, "")
	// Past 10 MiB: the file (413 from the service), the body (413 from the parser).
	WantResponse(t, post(f.marketTok, "big.pdf", append(append([]byte{}, pdf...), make([]byte, payments.MaxKYCBytes)...), fields()),
		http.StatusRequestEntityTooLarge, fmt.Sprintf(`{"detail": "The file is too large: the limit is %d bytes."}`, payments.MaxKYCBytes))
	WantResponse(t, post(f.marketTok, "huge.pdf", make([]byte, payments.MaxKYCBytes+128<<10), fields()), http.StatusRequestEntityTooLarge, "")
	if after := f.digest(t); after != before {
		t.Errorf("a refused upload wrote:\n%s\n%s", before, after)
	}

	// An idempotency key replays the upload.
	first := post(f.marketTok, "kbis.pdf", pdf, fields(), "X-Idempotency-Key", "kyc-1")
	again := post(f.marketTok, "kbis.pdf", pdf, fields(), "X-Idempotency-Key", "kyc-1")
	if first.Status != 201 || again.Body != first.Body || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %s / %s", first.Status, first.Body, again.Body)
	}
}
