package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// npFixture is the handler over a database with: market and rival,
// marketplaces whose users hold access_configuration_marketplaces; viewer,
// a marketplace's user without it; shop, a partner that is not a
// marketplace, whose user holds it; and a staff user.
type npFixture struct {
	h                              http.Handler
	db                             *bun.DB
	marketTok, rivalTok, viewerTok string
	shopTok, staffTok              string
	market, rival                  *domain.Partner
}

func newNPFixture(t *testing.T) *npFixture {
	t.Helper()
	db := dbtest.New(t)
	f := &npFixture{h: Handler(t, db), db: db}
	accounts := account.NewAccountService(persistence.NewDatabase(db), nil, dbtest.CheapHashing)
	perm := []string{domain.PermAccessConfigurationMarketplaces}
	create := func(in account.NewAccountInput) (string, *domain.Partner) {
		a := dbtest.MustAccount(t, accounts, in)
		return a.Token, a.Partner
	}
	f.marketTok, f.market = create(account.NewAccountInput{Username: "market", PartnerName: "Market", Marketplace: true, Permissions: perm})
	f.rivalTok, f.rival = create(account.NewAccountInput{Username: "rival", PartnerName: "Rival", Marketplace: true, Permissions: perm})
	f.viewerTok, _ = create(account.NewAccountInput{Username: "viewer", PartnerName: "Viewer", Marketplace: true})
	f.shopTok, _ = create(account.NewAccountInput{Username: "shop", PartnerName: "Shop", Permissions: perm})
	f.staffTok, _ = create(account.NewAccountInput{Username: "staff", Staff: true})
	return f
}

// call sends a REST request with token ("" for none) and headers (name,
// value pairs), checked against the OpenAPI document.
func (f *npFixture) call(t *testing.T, method, path, token, body string, headers ...string) Response {
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

// digest sums every row of the tables network partners are written to.
func (f *npFixture) digest(t *testing.T) string {
	t.Helper()
	var out []string
	for _, table := range []string{"partners", "partner_legal_information", "partner_tags", "network_partners",
		"network_giftcard_allowed_partners", "network_voucher_allowed_partners"} {
		var d string
		gcMust(t, f.db.NewRaw(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM ? t`,
			bun.Ident(table)).Scan(context.Background(), &d))
		out = append(out, table+"="+d)
	}
	return strings.Join(out, " ")
}

// npRequired is a creation body with every required field.
func npRequired() map[string]any {
	return map[string]any{"name": "Spa des Alpes", "commercial_name": "Spa des Alpes", "short_name": "SPA",
		"siret_number": "12345678900012", "legal_representative_first_name": "Anne",
		"legal_representative_last_name": "Dupont", "hq_address_line_1": "1 rue Haute", "hq_postal_code": "74000",
		"hq_city": "Annecy", "hq_country": "FR", "rcs": "RCS Annecy 123", "ape": "9604Z", "vat_id": "FR12345678901",
		"agency_email": "contact@spa.example.com", "website": "https://spa.example.com"}
}

func TestNetworkPartnersREST(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	const base = "/api/network_partners/"

	// Every field of the creation, and the whole record it answers.
	full := body(t, npRequired(), "company_type", "ind", "legal_representative_birthday", "1980-05-17",
		"hq_address_line_2", "Bâtiment B", "agency_phone", "+33 4 50 00 00 00", "link_to_nv_settings", true,
		"link_to_ngc_settings", false, "partner_tags", []any{map[string]any{"tag": "spa"}, map[string]any{"tag": "montagne"}},
		"source_id", "1042")
	res := f.call(t, http.MethodPost, base, f.marketTok, full)
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	created := res.JSON(t)
	id := int64(created["id"].(float64))
	WantResponse(t, res, http.StatusCreated, fmt.Sprintf(`{"id": %d, "uuid": %q, "status": "n", "name": "Spa des Alpes",
		"commercial_name": "Spa des Alpes", "short_name": "SPA", "company_type": "ind", "siret_number": "12345678900012",
		"legal_representative_first_name": "Anne", "legal_representative_last_name": "Dupont",
		"legal_representative_birthday": "1980-05-17T00:00:00Z", "hq_address_line_1": "1 rue Haute",
		"hq_address_line_2": "Bâtiment B", "hq_postal_code": "74000", "hq_city": "Annecy", "hq_country": "FR",
		"rcs": "RCS Annecy 123", "ape": "9604Z", "vat_id": "FR12345678901", "agency_email": "contact@spa.example.com",
		"agency_phone": "+33 4 50 00 00 00", "website": "https://spa.example.com", "hide_from_stats": false,
		"third_party_sales_only": false, "referrer": null, "source_id": "1042", "link_to_nv_settings": true,
		"link_to_ngc_settings": false, "partner_tags": ["spa", "montagne"]}`, id, created["uuid"]))

	// Only the required fields: the defaults, and the partner's id as its
	// source id.
	res = f.call(t, http.MethodPost, base, f.marketTok, body(t, npRequired(), "siret_number", "22200000000001"))
	minimal := res.JSON(t)
	minID := int64(minimal["id"].(float64))
	if res.Status != http.StatusCreated || minimal["source_id"] != fmt.Sprint(minID) || minimal["company_type"] != "" ||
		minimal["legal_representative_birthday"] != nil || minimal["hq_address_line_2"] != "" || minimal["agency_phone"] != "" ||
		minimal["link_to_nv_settings"] != false || minimal["link_to_ngc_settings"] != false || jsonOf(t, minimal["partner_tags"]) != "[]" {
		t.Errorf("minimal create: %d %s", res.Status, res.Body)
	}

	before := f.digest(t)
	for _, field := range []string{"name", "commercial_name", "short_name", "siret_number", "legal_representative_first_name",
		"legal_representative_last_name", "hq_address_line_1", "hq_postal_code", "hq_city", "hq_country", "rcs", "ape",
		"vat_id", "agency_email", "website"} {
		res := f.call(t, http.MethodPost, base, f.marketTok, body(t, npRequired(), "siret_number", "3", field, drop))
		WantResponse(t, res, http.StatusBadRequest, fmt.Sprintf(`{%q: ["This field is required."]}`, field))
	}
	for _, c := range []struct {
		kv   []any
		want string
	}{
		{[]any{"hq_postal_code", "74000-12345"}, `{"hq_postal_code": ["Ensure this field has no more than 10 characters."]}`},
		{[]any{"company_type", "sarl"}, `{"company_type": ["\"sarl\" is not a valid choice."]}`},
		{[]any{"agency_email", "not an e-mail"}, `{"agency_email": ["Enter a valid email address."]}`},
		{[]any{"website", "www.spa.example.com"}, `{"website": ["Enter a valid URL."]}`},
		{[]any{"name", ""}, `{"name": ["This field may not be blank."]}`},
		{[]any{"name", nil}, `{"name": ["This field may not be null."]}`},
		{[]any{"source_id", "1042"}, `{"source_id": ["A partner of this network already has this source_id."]}`},
		{[]any{"source_id", "SPA-1"}, `{"source_id": ["Enter a whole number from 1 to 9223372036854775807."]}`},
		{[]any{"siret_number", "12345678900012", "source_id", "7"}, `{"siret_number": ["A partner of this network already has this siret_number."]}`},
		{[]any{"partner_tags", []any{map[string]any{"tag": "ok"}, map[string]any{"tag": 3.5, "x": 1}, "spa"}},
			`{"partner_tags": [{}, {}, {"non_field_errors": ["Invalid data. Expected a dictionary, but got str."]}]}`},
		{[]any{"marketplace_uuid", f.rival.UUID.String()}, fmt.Sprintf(`{"marketplace_uuid": ["Object with uuid=%s does not exist."]}`, f.rival.UUID)},
	} {
		res := f.call(t, http.MethodPost, base, f.marketTok, body(t, npRequired(), append([]any{"siret_number", "3"}, c.kv...)...))
		WantResponse(t, res, http.StatusBadRequest, c.want)
	}
	WantResponse(t, f.call(t, http.MethodPost, base, f.marketTok, `{"name": `), http.StatusBadRequest, "")
	WantResponse(t, f.call(t, http.MethodPost, base, f.marketTok, `[]`), http.StatusBadRequest,
		`{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`)
	if after := f.digest(t); after != before {
		t.Errorf("refused creations wrote:\n%s\n%s", before, after)
	}
	// 3.5 is a tag's text, as DRF's CharField takes numbers; the same
	// siret and source id are free in another marketplace's network.
	res = f.call(t, http.MethodPost, base, f.rivalTok, body(t, npRequired(), "source_id", 1042,
		"partner_tags", []any{map[string]any{"tag": 3.5}}))
	if res.Status != http.StatusCreated || jsonOf(t, res.JSON(t)["partner_tags"]) != `["3.5"]` {
		t.Errorf("rival's create: %d %s", res.Status, res.Body)
	}
	rivalPartner := int64(res.JSON(t)["id"].(float64))

	// Updates, by source id, by siret, by siret with the source id it has.
	res = f.call(t, http.MethodPatch, base, f.marketTok, fmt.Sprintf(`{"source_id": "1042", "status": "i", "hide_from_stats": true,
		"referrer": %d, "link_to_nv_settings": false, "link_to_ngc_settings": true}`, minID))
	WantResponse(t, res, http.StatusOK, fmt.Sprintf(`{"id": %d, "status": "i", "hide_from_stats": true,
		"third_party_sales_only": false, "referrer": %d, "name": "Spa des Alpes", "linked_to_nv_settings": false,
		"linked_to_ngc_settings": true}`, id, minID))
	res = f.call(t, http.MethodPatch, base, f.marketTok, `{"siret_number": "12345678900012", "status": "n",
		"third_party_sales_only": true, "referrer": null, "link_to_nv_settings": true}`)
	WantResponse(t, res, http.StatusOK, fmt.Sprintf(`{"id": %d, "status": "n", "hide_from_stats": true,
		"third_party_sales_only": true, "referrer": null, "name": "Spa des Alpes", "linked_to_nv_settings": true,
		"linked_to_ngc_settings": true}`, id))
	res = f.call(t, http.MethodPatch, base, f.marketTok, `{"source_id": 1042, "siret_number": "12345678900012", "link_to_ngc_settings": false}`)
	if res.Status != http.StatusOK || res.JSON(t)["linked_to_ngc_settings"] != false || res.JSON(t)["linked_to_nv_settings"] != true {
		t.Errorf("by both: %d %s", res.Status, res.Body)
	}
	var ngc, nv int
	gcMust(t, f.db.NewRaw(`SELECT (SELECT count(*) FROM network_giftcard_allowed_partners WHERE marketplace_id = ?1 AND partner_id = ?0),
		(SELECT count(*) FROM network_voucher_allowed_partners WHERE marketplace_id = ?1 AND partner_id = ?0)`, id, f.market.ID).
		Scan(context.Background(), &ngc, &nv))
	if ngc != 0 || nv != 1 {
		t.Errorf("settings links stored: ngc %d, nv %d; want 0, 1", ngc, nv)
	}

	before = f.digest(t)
	for _, c := range []struct {
		body   string
		status int
		want   string
	}{
		{`{"status": "i"}`, 400, `{"non_field_errors": ["Give source_id or siret_number."]}`},
		{`{}`, 400, `{"non_field_errors": ["Give source_id or siret_number."]}`},
		{`{"source_id": "1042", "siret_number": "22200000000001"}`, 400,
			`{"source_id": ["A partner of this network already has this source_id."]}`},
		{`{"source_id": "1042", "status": "a"}`, 400, `{"status": ["\"a\" is not a valid choice."]}`},
		{`{"source_id": "1042", "status": "t"}`, 400, `{"status": ["\"t\" is not a valid choice."]}`},
		{fmt.Sprintf(`{"source_id": "1042", "referrer": %d}`, rivalPartner), 400,
			fmt.Sprintf(`{"referrer": ["Invalid pk \"%d\" - object does not exist."]}`, rivalPartner)},
		{`{"source_id": "9999"}`, 404, `{"detail": "Not found."}`},
		{`{"siret_number": "00000000000000", "status": "i"}`, 404, `{"detail": "Not found."}`},
		{`{"source_id": "1042", "status": `, 400, ""},
	} {
		WantResponse(t, f.call(t, http.MethodPatch, base, f.marketTok, c.body), c.status, c.want)
	}
	// The rival's partner has the same source id and siret in its own
	// network: the market's update never reaches it.
	if after := f.digest(t); after != before {
		t.Errorf("refused updates wrote:\n%s\n%s", before, after)
	}
	var rivalStatus string
	gcMust(t, f.db.NewRaw("SELECT status FROM partners WHERE id = ?", rivalPartner).Scan(context.Background(), &rivalStatus))
	if rivalStatus != "n" {
		t.Errorf("the rival's partner has status %q", rivalStatus)
	}

	// Check by company number.
	check := func(tok, siret, name string) Response {
		return f.call(t, http.MethodGet, "/api/partners/check/?siret_number="+siret+"&commercial_name="+name, tok, "")
	}
	WantResponse(t, check(f.marketTok, "12345678900012", "SPA%20DES%20ALPES"), 200, fmt.Sprintf(`{"id": %d}`, id))
	WantResponse(t, check(f.viewerTok, "22200000000001", "Spa%20des%20Alpes"), 404, `{"detail": "Not found."}`)
	WantResponse(t, check(f.marketTok, "12345678900012", "Spa"), 404, `{"detail": "Not found."}`)
	WantResponse(t, check(f.rivalTok, "22200000000001", "Spa%20des%20Alpes"), 404, `{"detail": "Not found."}`)
	WantResponse(t, check(f.rivalTok, "12345678900012", "Spa%20des%20Alpes"), 200, fmt.Sprintf(`{"id": %d}`, rivalPartner))
	WantResponse(t, check(f.staffTok, "22200000000001", "spa%20des%20alpes"), 200, fmt.Sprintf(`{"id": %d}`, minID))
	WantResponse(t, f.call(t, http.MethodGet, "/api/partners/check/", f.marketTok, ""), 400,
		`{"siret_number": ["This field is required."], "commercial_name": ["This field is required."]}`)

	// Who may.
	for _, c := range []struct {
		method, path, body string
	}{
		{http.MethodPost, base, body(t, npRequired(), "siret_number", "4")},
		{http.MethodPatch, base, `{"source_id": "1042", "status": "i"}`},
		{http.MethodGet, "/api/partners/check/?siret_number=12345678900012&commercial_name=Spa", ""},
	} {
		WantResponse(t, f.call(t, c.method, c.path, "", c.body), 401, `{"detail": "Authentication credentials were not provided."}`)
		WantResponse(t, f.call(t, c.method, c.path, "0000000000000000000000000000000000000000", c.body), 401, `{"detail": "Invalid token."}`)
		WantResponse(t, f.call(t, c.method, c.path, f.shopTok, c.body), 403, `{"detail": "You do not have permission to perform this action."}`)
		if c.method != http.MethodGet {
			WantResponse(t, f.call(t, c.method, c.path, f.viewerTok, c.body), 403, `{"detail": "You do not have permission to perform this action."}`)
		}
	}
	// Staff name the marketplace.
	WantResponse(t, f.call(t, http.MethodPatch, base, f.staffTok, `{"source_id": "1042"}`), 400,
		`{"marketplace_uuid": ["This field is required: staff name the partner the record belongs to."]}`)
	res = f.call(t, http.MethodPatch, base, f.staffTok, fmt.Sprintf(`{"source_id": "1042", "marketplace_uuid": %q, "status": "i"}`, f.rival.UUID))
	if res.Status != 200 || res.JSON(t)["id"].(float64) != float64(rivalPartner) || res.JSON(t)["status"] != "i" {
		t.Errorf("staff update: %d %s", res.Status, res.Body)
	}
	res = f.call(t, http.MethodPost, base, f.staffTok, body(t, npRequired(), "siret_number", "5", "marketplace_uuid", f.market.UUID.String()))
	if res.Status != 201 {
		t.Errorf("staff create: %d %s", res.Status, res.Body)
	}
}

// A creation with an idempotency key, repeated, answers the partner
// created first and creates no other; the key with another body is 422.
func TestNetworkPartnerCreateReplay(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	post := func(body string) Response {
		t.Helper()
		return f.call(t, http.MethodPost, "/api/network_partners/", f.marketTok, body, "X-Idempotency-Key", "np-create-1")
	}
	first := post(body(t, npRequired()))
	if first.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", first.Status, first.Body)
	}
	before := f.digest(t)
	again := post(body(t, npRequired()))
	WantResponse(t, again, http.StatusCreated, first.Body)
	if again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("Idempotent-Replayed %q", again.Header.Get("Idempotent-Replayed"))
	}
	if res := post(body(t, npRequired(), "siret_number", "99900000000001")); res.Status != http.StatusUnprocessableEntity {
		t.Errorf("the key with another body: %d %s", res.Status, res.Body)
	}
	if after := f.digest(t); after != before {
		t.Errorf("a repeat wrote:\n%s\n%s", before, after)
	}
}

// The legacy sequence of a marketplace's integration: it creates a network
// partner (without source_id: the creation's contract has none), records
// the id its own system knows the partner by with an update that names
// the partner by siret_number, and then uses network giftcards at that
// partner by partner_source_id.
func TestNetworkPartnerLegacySourceID(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	admin := CreateUser(t, f.dsn, "--username", "admin", "--password", "admin-password", "--partner-name", "Tmp2",
		"--permission", domain.PermAccessConfigurationMarketplaces)
	f.exec(t, "UPDATE users SET partner_id = ? WHERE username = 'admin'", f.market)
	const base = "/api/network_partners/"
	patch := func(body string) Response { return Do(t, http.MethodPatch, f.URL+base, body, auth(admin)...) }

	res := f.post(t, base, admin, body(t, npRequired(), "link_to_ngc_settings", true))
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	id := int64(res.JSON(t)["id"].(float64))
	res = patch(`{"siret_number": "12345678900012", "source_id": "5001"}`)
	if res.Status != http.StatusOK || int64(res.JSON(t)["id"].(float64)) != id {
		t.Fatalf("update by siret with a new source id: %d %s", res.Status, res.Body)
	}
	code := f.create(t, f.marketTok, "paid", "50", "")["code"].(string)
	res = f.post(t, "/api/networkgiftcards_by_code/"+code+"/use/", f.marketTok,
		`{"creation_date": "2026-03-10", "value": "12.50", "partner_source_id": 5001, "send_usage_notification_email": false}`)
	if res.Status != http.StatusOK || int64(res.JSON(t)["partner"].(float64)) != id || res.JSON(t)["partner_source_id"] != float64(5001) {
		t.Fatalf("use by the recorded source id: %d %s", res.Status, res.Body)
	}

	// The source id alone names the partner; one that another partner of
	// the network holds is refused on source_id, and nothing changes.
	res = patch(`{"source_id": "5001", "status": "i"}`)
	if res.Status != http.StatusOK || int64(res.JSON(t)["id"].(float64)) != id || res.JSON(t)["status"] != "i" {
		t.Errorf("update by the new source id: %d %s", res.Status, res.Body)
	}
	WantResponse(t, patch(`{"siret_number": "12345678900012", "source_id": "101"}`), http.StatusBadRequest,
		`{"source_id": ["A partner of this network already has this source_id."]}`)
	if got := f.id(t, "SELECT partner_id FROM network_partners WHERE marketplace_id = ? AND source_id = '5001'", f.market); got != id {
		t.Errorf("source id 5001 is partner %d's, want %d", got, id)
	}
}
