package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/gifts"
	"salesplatform/persistence"
)

// protoFixture is adminFixture with the accounts of the prototype
// administration: editor (Hotel, manage_masteradmin), rival (Rival, the
// same permission), reader (Hotel's sister partner Reader, no
// permission); a universe, an environment and media of Hotel and Rival.
type protoFixture struct {
	*adminFixture
	editorTok, rivalTok, readerTok string
	hotel, rival                   *domain.Partner
	universe, environment          int64
	hotelMedia, rivalMedia         []int64
}

func newProtoFixture(t *testing.T) *protoFixture {
	t.Helper()
	f := &protoFixture{adminFixture: newAdminFixture(t)}
	perm := []string{domain.PermManageMasterAdmin}
	f.editorTok, f.hotel = f.account(t, account.NewAccountInput{Username: "editor", PartnerName: "Hotel", Permissions: perm})
	f.rivalTok, f.rival = f.account(t, account.NewAccountInput{Username: "rival", PartnerName: "Rival", Permissions: perm})
	f.readerTok, _ = f.account(t, account.NewAccountInput{Username: "reader", PartnerName: "Reader"})
	ctx := context.Background()
	gcMust(t, f.db.NewRaw(`INSERT INTO universes (name) VALUES ('{"fr": "Séjours"}') RETURNING id`).Scan(ctx, &f.universe))
	gcMust(t, f.db.NewRaw(`INSERT INTO environments (name) VALUES ('{"fr": "Mer"}') RETURNING id`).Scan(ctx, &f.environment))
	media := func(p *domain.Partner, n int) []int64 {
		ids := make([]int64, n)
		for i := range ids {
			gcMust(t, f.db.NewRaw(`INSERT INTO media (partner_id, name, blob_key, content_type, size, width, height)
				VALUES (?, ?, ?, 'image/png', 10, 1, 1) RETURNING id`, p.ID, fmt.Sprintf("m%d", i),
				fmt.Sprintf("%d-%d", p.ID, i)).Scan(ctx, &ids[i]))
		}
		return ids
	}
	f.hotelMedia, f.rivalMedia = media(f.hotel, 3), media(f.rival, 1)
	return f
}

// call sends a REST request with token ("" for none).
func (f *protoFixture) call(t *testing.T, method, path, token, body string) Response {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Token "+token)
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	CheckContract(t, req, rec.Code, rec.Header(), rec.Body.Bytes())
	return Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
}

// body builds a JSON object from key, value pairs over base.
func body(t *testing.T, base map[string]any, kv ...any) string {
	t.Helper()
	m := map[string]any{}
	for k, v := range base {
		m[k] = v
	}
	return jsonOf(t, withPairs(m, kv...))
}

// withPairs sets m's keys to the values of key, value pairs (drop removes
// a key) and returns m.
func withPairs(m map[string]any, kv ...any) map[string]any {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == drop {
			delete(m, kv[i].(string))
			continue
		}
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// drop removes a key in body.
var drop = &struct{}{}

var langs = []string{"en", "fr", "es", "it", "de", "nl", "ca", "pt"}

// minimalPrototype is a body with every required field of 4.6.
func (f *protoFixture) minimalPrototype() map[string]any {
	m := map[string]any{"type": "stay", "stay_price": 120.5, "universe": f.universe}
	for _, l := range langs {
		m["name_"+l], m["description_"+l], m["long_description_"+l] = "", "", ""
	}
	m["name_fr"], m["name_en"] = "Nuit étoilée", "Starry night"
	m["description_fr"] = "Une nuit"
	return m
}

// texts8 is prefix_<lang> for every language: value for those given,
// "" for the others.
func texts8(prefix string, given ...string) string {
	parts := []string{}
	for _, l := range langs {
		v := ""
		for i := 0; i+1 < len(given); i += 2 {
			if given[i] == l {
				v = given[i+1]
			}
		}
		parts = append(parts, fmt.Sprintf(`"%s_%s": %q`, prefix, l, v))
	}
	return strings.Join(parts, ", ")
}

func TestAdminVoucherPrototypesREST(t *testing.T) {
	t.Parallel()
	f := newProtoFixture(t)
	const base = "/api/voucher_prototypes/"

	// Create with only the required fields: every default of 4.6.
	res := f.call(t, http.MethodPost, base, f.editorTok, body(t, f.minimalPrototype()))
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	created := res.JSON(t)
	id := int64(created["id"].(float64))
	WantResponse(t, res, http.StatusCreated, fmt.Sprintf(`{"id": %d, "partner": %d, "partner_uuid": %q, "nb_orders": 0,
		%s, %s, %s, %s, %s, %s,
		"is_active": false, "type": "stay", "is_highlight": false, "price_scope": 1, "max_capacity": 0,
		"min_capacity": 1, "stay_price": 120.50, "adults_price": null, "children_price": null, "baby_price": null,
		"universe": %d, "environment": null, "last_active_day": null, "ranking": 1, "images": [], "cover_image": null}`,
		id, f.hotel.ID, f.hotel.UUID, texts8("name", "en", "Starry night", "fr", "Nuit étoilée"),
		texts8("description", "fr", "Une nuit"), texts8("long_description"), texts8("rent_conditions"),
		texts8("how_to_book_html"), texts8("pdf_description"), f.universe))
	if !strings.Contains(res.Body, `"stay_price":120.5`) {
		t.Errorf("stay_price is not the JSON number 120.5: %s", res.Body)
	}

	// Every field given.
	full := f.minimalPrototype()
	for k, v := range map[string]any{"is_active": true, "type": "fixed_stay", "is_highlight": true, "price_scope": 2,
		"max_capacity": 4, "min_capacity": 2, "stay_price": "99.90", "adults_price": 30, "children_price": 15.5,
		"baby_price": nil, "rent_conditions_fr": "Annulable", "how_to_book_html_en": "<p>Call</p>",
		"pdf_description_de": strings.Repeat("é", 300), "environment": f.environment, "last_active_day": "2027-06-30",
		"ranking": 7, "images": []int64{f.hotelMedia[1], f.hotelMedia[0]}, "cover_image": f.hotelMedia[0],
		"unknown_field": "ignored"} {
		full[k] = v
	}
	res = f.call(t, http.MethodPost, base, f.editorTok, body(t, full))
	if res.Status != http.StatusCreated {
		t.Fatalf("create full: %d %s", res.Status, res.Body)
	}
	got := res.JSON(t)
	fullID := int64(got["id"].(float64))
	for k, want := range map[string]string{"is_active": "true", "type": `"fixed_stay"`, "is_highlight": "true",
		"price_scope": "2", "max_capacity": "4", "min_capacity": "2", "stay_price": "99.9", "adults_price": "30",
		"children_price": "15.5", "baby_price": "null", "rent_conditions_fr": `"Annulable"`,
		"how_to_book_html_en": `"<p>Call</p>"`, "environment": fmt.Sprint(f.environment),
		"last_active_day": `"2027-06-30"`, "ranking": "7",
		"images": jsonOf(t, []int64{f.hotelMedia[1], f.hotelMedia[0]}), "cover_image": fmt.Sprint(f.hotelMedia[0])} {
		WantJSON(t, []byte(jsonOf(t, got[k])), want)
	}
	if _, ok := got["unknown_field"]; ok {
		t.Errorf("unknown field echoed")
	}

	// Required fields, one at a time: "This field is required."
	required := []string{"type", "stay_price", "universe"}
	for _, l := range langs {
		required = append(required, "name_"+l, "description_"+l, "long_description_"+l)
	}
	for _, field := range required {
		res := f.call(t, http.MethodPost, base, f.editorTok, body(t, f.minimalPrototype(), field, drop))
		WantResponse(t, res, http.StatusBadRequest, fmt.Sprintf(`{%q: ["This field is required."]}`, field))
	}
	// Wrong types, enums, bounds and references.
	for _, c := range []struct {
		kv   []any
		want string
	}{
		{[]any{"type", "villa"}, `{"type": ["\"villa\" is not a valid choice."]}`},
		{[]any{"is_active", "maybe"}, `{"is_active": ["Must be a valid boolean."]}`},
		{[]any{"price_scope", "two"}, `{"price_scope": ["A valid integer is required."]}`},
		{[]any{"max_capacity", -1}, `{"max_capacity": ["Ensure this value is greater than or equal to 0."]}`},
		{[]any{"min_capacity", 5, "max_capacity", 2}, `{"min_capacity": ["Ensure this value is less than or equal to max_capacity."]}`},
		{[]any{"name_fr", []int{1}}, `{"name_fr": ["Not a valid string."]}`},
		{[]any{"name_fr", "", "name_en", ""}, `{"non_field_errors": ["At least one name_<lang> must not be blank."]}`},
		{[]any{"stay_price", "cheap"}, `{"stay_price": ["A valid number is required."]}`},
		{[]any{"stay_price", nil}, `{"stay_price": ["This field may not be null."]}`},
		{[]any{"stay_price", -1}, `{"stay_price": ["Ensure this value is greater than or equal to 0."]}`},
		{[]any{"adults_price", 1.234}, `{"adults_price": ["Ensure that there are no more than 2 decimal places."]}`},
		{[]any{"pdf_description_fr", strings.Repeat("a", 301)}, `{"pdf_description_fr": ["Ensure this field has no more than 300 characters."]}`},
		{[]any{"universe", 999999}, `{"universe": ["Invalid pk \"999999\" - object does not exist."]}`},
		{[]any{"universe", "x"}, `{"universe": ["Incorrect type. Expected pk value, received str."]}`},
		{[]any{"environment", 999999}, `{"environment": ["Invalid pk \"999999\" - object does not exist."]}`},
		{[]any{"last_active_day", "30/06/2027"}, `{"last_active_day": ["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."]}`},
		{[]any{"images", []int64{f.hotelMedia[0], f.rivalMedia[0]}}, fmt.Sprintf(`{"images": ["Invalid pk \"%d\" - object does not exist."]}`, f.rivalMedia[0])},
		{[]any{"images", "1"}, `{"images": ["Expected a list of items but got type \"str\"."]}`},
		{[]any{"cover_image", f.rivalMedia[0]}, fmt.Sprintf(`{"cover_image": ["Invalid pk \"%d\" - object does not exist."]}`, f.rivalMedia[0])},
		{[]any{"partner_uuid", f.rival.UUID.String()}, fmt.Sprintf(`{"partner_uuid": ["Object with uuid=%s does not exist."]}`, f.rival.UUID)},
	} {
		res := f.call(t, http.MethodPost, base, f.editorTok, body(t, f.minimalPrototype(), c.kv...))
		WantResponse(t, res, http.StatusBadRequest, c.want)
	}

	// Staff name the partner; without it, a field error.
	res = f.call(t, http.MethodPost, base, f.staffTok, body(t, f.minimalPrototype()))
	WantResponse(t, res, http.StatusBadRequest, `{"partner_uuid": ["This field is required: staff name the partner the record belongs to."]}`)
	res = f.call(t, http.MethodPost, base, f.staffTok, body(t, f.minimalPrototype(), "partner_uuid", f.rival.UUID.String(), "images", []int64{f.rivalMedia[0]}))
	if res.Status != http.StatusCreated || res.JSON(t)["partner"].(float64) != float64(f.rival.ID) {
		t.Fatalf("staff create: %d %s", res.Status, res.Body)
	}
	rivalID := int64(res.JSON(t)["id"].(float64))

	// Auth: 401, 403 without manage_masteradmin, malformed JSON writes nothing.
	var before int
	gcMust(t, f.db.NewRaw("SELECT count(*) FROM voucher_prototypes").Scan(context.Background(), &before))
	WantResponse(t, f.call(t, http.MethodPost, base, "", body(t, f.minimalPrototype())), http.StatusUnauthorized,
		`{"detail": "Authentication credentials were not provided."}`)
	WantResponse(t, f.call(t, http.MethodPost, base, f.readerTok, body(t, f.minimalPrototype())), http.StatusForbidden,
		`{"detail": "You do not have permission to perform this action."}`)
	res = f.call(t, http.MethodPost, base, f.editorTok, `{"type": "stay",`)
	if res.Status != http.StatusBadRequest || !strings.Contains(res.Body, "JSON parse error") {
		t.Errorf("malformed: %d %s", res.Status, res.Body)
	}
	WantResponse(t, f.call(t, http.MethodPost, base, f.editorTok, `[1]`), http.StatusBadRequest,
		`{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`)
	var after int
	gcMust(t, f.db.NewRaw("SELECT count(*) FROM voucher_prototypes").Scan(context.Background(), &after))
	if after != before {
		t.Errorf("refused writes stored rows: %d -> %d", before, after)
	}

	// Get, tenancy.
	res = f.call(t, http.MethodGet, fmt.Sprintf("%s%d/", base, id), f.editorTok, "")
	WantResponse(t, res, http.StatusOK, jsonOf(t, created))
	WantResponse(t, f.call(t, http.MethodGet, fmt.Sprintf("%s%d/", base, rivalID), f.editorTok, ""), http.StatusNotFound, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodGet, fmt.Sprintf("%s%d", base, id), f.rivalTok, ""), http.StatusNotFound, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodGet, fmt.Sprintf("%s%d/", base, id), "", ""), http.StatusUnauthorized, "")
	if res := f.call(t, http.MethodGet, fmt.Sprintf("%s%d/", base, rivalID), f.staffTok, ""); res.Status != http.StatusOK {
		t.Errorf("staff get: %d", res.Status)
	}

	// List: the Page wrapper, tenant-scoped; staff see all.
	res = f.call(t, http.MethodGet, base+"?page_size=1", f.editorTok, "")
	page := res.JSON(t)
	if res.Status != http.StatusOK || page["count"].(float64) != 2 || page["has_next"] != true || page["previous"] != nil ||
		jsonOf(t, page["page_range"]) != "[1,2]" || page["current_page"].(float64) != 1 {
		t.Errorf("list: %d %s", res.Status, res.Body)
	}
	if r := page["results"].([]any); len(r) != 1 || r[0].(map[string]any)["id"].(float64) != float64(id) {
		t.Errorf("list results: %s", res.Body)
	}
	if res := f.call(t, http.MethodGet, base+"?page=2&page_size=1", f.editorTok, ""); res.JSON(t)["has_previous"] != true {
		t.Errorf("page 2: %s", res.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, base+"?page=9", f.editorTok, ""), http.StatusNotFound, `{"detail": "Invalid page."}`)
	if res := f.call(t, http.MethodGet, base, f.staffTok, ""); res.JSON(t)["count"].(float64) != 3 {
		t.Errorf("staff list: %s", res.Body)
	}
	if res := f.call(t, http.MethodGet, base, f.readerTok, ""); res.JSON(t)["count"].(float64) != 0 {
		t.Errorf("reader list: %s", res.Body)
	}

	// PATCH changes only what it is given; images are replaced.
	path := fmt.Sprintf("%s%d/", base, fullID)
	res = f.call(t, http.MethodPatch, path, f.editorTok, fmt.Sprintf(`{"ranking": 3, "images": [%d], "adults_price": null}`, f.hotelMedia[2]))
	got = res.JSON(t)
	if res.Status != http.StatusOK || got["ranking"].(float64) != 3 || jsonOf(t, got["images"]) != fmt.Sprintf("[%d]", f.hotelMedia[2]) ||
		got["adults_price"] != nil || got["type"] != "fixed_stay" || got["name_fr"] != "Nuit étoilée" {
		t.Errorf("patch: %d %s", res.Status, res.Body)
	}
	// PUT asks for the required fields.
	WantResponse(t, f.call(t, http.MethodPut, path, f.editorTok, `{"ranking": 4}`), http.StatusBadRequest, "")
	res = f.call(t, http.MethodPut, path, f.editorTok, body(t, f.minimalPrototype(), "type", "standard", "name_fr", "Nuit"))
	got = res.JSON(t)
	if res.Status != http.StatusOK || got["type"] != "standard" || got["name_fr"] != "Nuit" || got["ranking"].(float64) != 3 {
		t.Errorf("put: %d %s", res.Status, res.Body)
	}
	WantResponse(t, f.call(t, http.MethodPatch, fmt.Sprintf("%s%d/", base, rivalID), f.editorTok, `{"ranking": 2}`), http.StatusNotFound, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodPatch, path, f.readerTok, `{"ranking": 2}`), http.StatusForbidden, "")
	WantResponse(t, f.call(t, http.MethodPatch, path, f.editorTok, `{"ranking": `), http.StatusBadRequest, "")
	WantResponse(t, f.call(t, http.MethodDelete, path, f.editorTok, ""), http.StatusMethodNotAllowed, `{"detail": "Method \"DELETE\" not allowed."}`)

	// The public catalogue keeps reading the row: name and universe.
	var name string
	var universe int64
	gcMust(t, f.db.NewRaw("SELECT name->>'fr', universe_id FROM voucher_prototypes WHERE id = ?", fullID).Scan(context.Background(), &name, &universe))
	if name != "Nuit" || universe != f.universe {
		t.Errorf("catalogue row: %q %d", name, universe)
	}

	// nb_orders counts sold vouchers only.
	giftStore := persistence.NewGiftStore(f.db)
	for i, state := range []string{"paid", "used", "draft", "error"} {
		gcMust(t, giftStore.CreateVoucher(context.Background(), &gifts.Voucher{Code: fmt.Sprintf("VPROTO%d", i),
			VoucherPrototypeID: id, State: state}))
	}
	if res := f.call(t, http.MethodGet, fmt.Sprintf("%s%d/", base, id), f.editorTok, ""); res.JSON(t)["nb_orders"].(float64) != 2 {
		t.Errorf("nb_orders: %s", res.Body)
	}
}

func TestAdminOptionsREST(t *testing.T) {
	t.Parallel()
	f := newProtoFixture(t)
	mk := func(tok string, kv ...any) int64 {
		t.Helper()
		res := f.call(t, http.MethodPost, "/api/voucher_prototypes/", tok, body(t, f.minimalPrototype(), kv...))
		if res.Status != http.StatusCreated {
			t.Fatalf("prototype: %d %s", res.Status, res.Body)
		}
		return int64(res.JSON(t)["id"].(float64))
	}
	p1, p2 := mk(f.editorTok), mk(f.editorTok)
	rivalP := mk(f.rivalTok)

	// Categories: 200, 2.7.
	catBody := map[string]any{"name_fr": "Repas", "description_fr": "À table", "partner_uuid": f.hotel.UUID.String(),
		"min_number_options": 0, "max_number_options": 2}
	res := f.call(t, http.MethodPost, "/api/option_categories/", f.editorTok, body(t, catBody))
	if res.Status != http.StatusOK {
		t.Fatalf("category: %d %s", res.Status, res.Body)
	}
	cat := res.JSON(t)
	catID := int64(cat["id"].(float64))
	WantResponse(t, res, http.StatusOK, fmt.Sprintf(`{"id": %d, %s, %s, "is_active": true, "ranking": 1,
		"min_number_options": 0, "max_number_options": 2, "partner": %d, "partner_uuid": %q}`,
		catID, texts8("name", "fr", "Repas"), texts8("description", "fr", "À table"), f.hotel.ID, f.hotel.UUID))
	for _, c := range []struct {
		kv   []any
		want string
	}{
		{[]any{"partner_uuid", drop}, `{"partner_uuid": ["This field is required."]}`},
		{[]any{"partner_uuid", f.rival.UUID.String()}, fmt.Sprintf(`{"partner_uuid": ["Object with uuid=%s does not exist."]}`, f.rival.UUID)},
		{[]any{"partner_uuid", "nope"}, `{"partner_uuid": ["Must be a valid UUID."]}`},
		{[]any{"min_number_options", 3}, `{"min_number_options": ["Ensure this value is less than or equal to max_number_options."]}`},
		{[]any{"max_number_options", "x"}, `{"max_number_options": ["A valid integer is required."]}`},
		{[]any{"name_fr", drop}, `{"non_field_errors": ["At least one name_<lang> must not be blank."]}`},
	} {
		WantResponse(t, f.call(t, http.MethodPost, "/api/option_categories/", f.editorTok, body(t, catBody, c.kv...)), http.StatusBadRequest, c.want)
	}
	res = f.call(t, http.MethodPost, "/api/option_categories/", f.editorTok, body(t, catBody, "min_number_options", nil, "max_number_options", nil))
	if res.Status != http.StatusOK || res.JSON(t)["min_number_options"] != nil {
		t.Errorf("null bounds: %d %s", res.Status, res.Body)
	}
	WantResponse(t, f.call(t, http.MethodPost, "/api/option_categories/", f.readerTok, body(t, catBody)), http.StatusForbidden, "")
	WantResponse(t, f.call(t, http.MethodPost, "/api/option_categories/", "", body(t, catBody)), http.StatusUnauthorized, "")
	rivalCat := f.call(t, http.MethodPost, "/api/option_categories/", f.rivalTok, body(t, catBody, "partner_uuid", f.rival.UUID.String())).JSON(t)["id"]

	// Options: 201, the 2.4 option object; the prototypes linked.
	optBody := map[string]any{"price": "10.00", "selling_price": 12.5, "countable": true, "ranking": 2,
		"category": catID, "voucher_prototypes": []int64{p1}, "services_info": []map[string]any{
			{"service_cost": 4, "service_buying_vat": 5.5, "service_selling_vat": 20, "service_price": 6}}}
	for _, l := range langs {
		optBody["name_"+l], optBody["description_"+l] = "", ""
	}
	optBody["name_fr"] = "Petit-déjeuner"
	res = f.call(t, http.MethodPost, "/api/options/", f.editorTok, body(t, optBody))
	if res.Status != http.StatusCreated {
		t.Fatalf("option: %d %s", res.Status, res.Body)
	}
	optID := int64(res.JSON(t)["id"].(float64))
	WantResponse(t, res, http.StatusCreated, fmt.Sprintf(`{"id": %d, %s, %s, "has_been_ordered": false, "countable": true,
		"services_info": [{"service_cost": 4, "service_buying_vat": 5.5, "service_selling_vat": 20, "service_price": 6}],
		"price": 10, "selling_price": 12.5, "is_active": true, "is_global": false, "ranking": 2, "category": %d,
		"voucher_prototypes": [{"id": %d}]}`, optID, texts8("name", "fr", "Petit-déjeuner"), texts8("description"), catID, p1))
	required := []string{}
	for _, l := range langs {
		required = append(required, "name_"+l, "description_"+l)
	}
	for _, field := range required {
		WantResponse(t, f.call(t, http.MethodPost, "/api/options/", f.editorTok, body(t, optBody, field, drop)),
			http.StatusBadRequest, fmt.Sprintf(`{%q: ["This field is required."]}`, field))
	}
	for _, c := range []struct {
		kv   []any
		want string
	}{
		{[]any{"price", -1}, `{"price": ["Ensure this value is greater than or equal to 0."]}`},
		{[]any{"selling_price", "1.001"}, `{"selling_price": ["Ensure that there are no more than 2 decimal places."]}`},
		{[]any{"countable", "x"}, `{"countable": ["Must be a valid boolean."]}`},
		{[]any{"category", rivalCat}, fmt.Sprintf(`{"category": ["Invalid pk \"%v\" - object does not exist."]}`, rivalCat)},
		{[]any{"voucher_prototypes", []int64{p1, rivalP}}, fmt.Sprintf(`{"voucher_prototypes": ["Invalid pk \"%d\" - object does not exist."]}`, rivalP)},
		{[]any{"services_info", []any{map[string]any{"service_buying_vat": 101}}}, `{"services_info": [{"service_buying_vat": ["Ensure this value is less than or equal to 100."]}]}`},
		{[]any{"services_info", make([]any, 21)}, `{"services_info": ["Ensure this field has no more than 20 elements."]}`},
	} {
		WantResponse(t, f.call(t, http.MethodPost, "/api/options/", f.editorTok, body(t, optBody, c.kv...)), http.StatusBadRequest, c.want)
	}
	WantResponse(t, f.call(t, http.MethodPost, "/api/options/", f.readerTok, body(t, optBody)), http.StatusForbidden, "")

	// A global option is linked to every prototype of its partner, those
	// created later too.
	res = f.call(t, http.MethodPost, "/api/options/", f.editorTok, body(t, optBody, "is_global", true, "voucher_prototypes", drop, "ranking", 1, "category", nil))
	globalID := int64(res.JSON(t)["id"].(float64))
	if jsonOf(t, res.JSON(t)["voucher_prototypes"]) != fmt.Sprintf(`[{"id":%d},{"id":%d}]`, p1, p2) {
		t.Errorf("global option links: %s", res.Body)
	}
	p3 := mk(f.editorTok)

	// Options of a prototype: 2.6, by ranking, X-Total-Count, paginated.
	res = f.call(t, http.MethodGet, fmt.Sprintf("/api/voucher_prototypes/%d/options/", p1), f.editorTok, "")
	if res.Header.Get("X-Total-Count") != "2" {
		t.Errorf("X-Total-Count = %q", res.Header.Get("X-Total-Count"))
	}
	var links []map[string]any
	gcMust(t, json.Unmarshal([]byte(res.Body), &links))
	if len(links) != 2 {
		t.Fatalf("links: %s", res.Body)
	}
	WantJSON(t, []byte(jsonOf(t, links[1])), fmt.Sprintf(`{"id": %v, "count": 1, "included": false, "option": {"id": %d,
		%s, %s, "selling_price": 12.5, "is_active": true, "countable": true, "is_global": false, "ranking": 2,
		"partner": %d, "partner_uuid": %q, "voucher_prototypes_ids": [%d], "category_id": %d}}`,
		links[1]["id"], optID, texts8("name", "fr", "Petit-déjeuner"), texts8("description"), f.hotel.ID, f.hotel.UUID, p1, catID))
	if links[0]["option"].(map[string]any)["id"].(float64) != float64(globalID) {
		t.Errorf("order: %s", res.Body)
	}
	res = f.call(t, http.MethodGet, fmt.Sprintf("/api/voucher_prototypes/%d/options/?page=2&page_size=1", p1), f.editorTok, "")
	if res.Status != http.StatusOK || !strings.Contains(res.Body, fmt.Sprintf(`"id":%d,"is_active"`, optID)) && !strings.Contains(res.Body, fmt.Sprintf(`"id":%d`, optID)) {
		t.Errorf("page 2: %d %s", res.Status, res.Body)
	}
	res = f.call(t, http.MethodGet, fmt.Sprintf("/api/voucher_prototypes/%d/options/", p3), f.editorTok, "")
	if res.Header.Get("X-Total-Count") != "1" || !strings.Contains(res.Body, fmt.Sprintf(`"id":%d`, globalID)) {
		t.Errorf("later prototype: %s", res.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, fmt.Sprintf("/api/voucher_prototypes/%d/options/", p1), f.rivalTok, ""), http.StatusNotFound, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodGet, fmt.Sprintf("/api/voucher_prototypes/%d/options/", p1), "", ""), http.StatusUnauthorized, "")
}

const (
	gqlCreatePrototype = `mutation($in: CreateVoucherPrototypeInput!) { createVoucherPrototype(input: $in) {
		voucherPrototype { id: legacyId partnerId type stayPrice adultsPrice priceScope minCapacity maxCapacity ranking
			imageIds coverImageId lastActiveDay nbOrders name { fr en } universe { id name { fr } } }
		userErrors { field code message } errors { field code message } } }`
	gqlUpdatePrototype = `mutation($in: UpdateVoucherPrototypeInput!) { updateVoucherPrototype(input: $in) {
		voucherPrototype { id: legacyId type ranking adultsPrice name { fr } } userErrors { field code message } errors { field code message } } }`
	gqlCreateOption = `mutation($in: CreateOptionInput!) { createOption(input: $in) {
		option { id: legacyId isGlobal sellingPrice prototypeIds services { cost buyingVat } category { id: legacyId name { fr } } }
		userErrors { field code message } errors { field code message } } }`
	gqlCreateCategory = `mutation($in: CreateOptionCategoryInput!) { createOptionCategory(input: $in) {
		optionCategory { id: legacyId partnerUuid minNumberOptions maxNumberOptions name { fr } } userErrors { field code message } errors { field code message } } }`
	gqlSetOption = `mutation($in: SetPrototypeOptionInput!) { setPrototypeOption(input: $in) {
		link { id count included option { id: legacyId } } userErrors { field code message } errors { field code message } } }`
	gqlPrototypes = `query($filter: AdminVoucherPrototypeFilter, $order: AdminVoucherPrototypeOrder) {
		adminVoucherPrototypes(first: 10, filter: $filter, orderBy: $order) { totalCount edges { node {
			id: legacyId ranking universe { id } options(first: 5) { totalCount edges { node { count included
				option { id: legacyId category { id: legacyId } prototypes { id: legacyId } } } } } } } } }`
)

func TestAdminPrototypesGraph(t *testing.T) {
	t.Parallel()
	f := newProtoFixture(t)
	proto := func(tok string, kv ...any) map[string]any {
		t.Helper()
		args := append([]any{"name", texts("fr", "Nuit"), "description", texts(), "longDescription", texts(),
			"type", "STAY", "stayPrice", "80.00", "universeId", globalID("Universe", f.universe)}, kv...)
		return f.mustMutate(t, tok, "createVoucherPrototype", gqlCreatePrototype, in(args...))["voucherPrototype"].(map[string]any)
	}
	p1 := proto(f.editorTok, "ranking", 2, "imageIds", []string{gid(f.hotelMedia[0])}, "lastActiveDay", "2027-01-31")
	WantJSON(t, []byte(jsonOf(t, p1)), fmt.Sprintf(`{"id": %q, "partnerId": %q, "type": "STAY", "stayPrice": "80.00",
		"adultsPrice": null, "priceScope": 1, "minCapacity": 1, "maxCapacity": 0, "ranking": 2, "imageIds": [%q],
		"coverImageId": null, "lastActiveDay": "2027-01-31", "nbOrders": 0, "name": {"fr": "Nuit", "en": null},
		"universe": {"id": %q, "name": {"fr": "Séjours"}}}`, p1["id"], gid(f.hotel.ID), gid(f.hotelMedia[0]), globalID("UniverseRecord", f.universe)))
	p2 := proto(f.editorTok, "ranking", 1, "isActive", true)
	proto(f.rivalTok)

	// The same rules as REST, as userErrors with the REST field names.
	payload, errs := f.mutate(t, f.editorTok, "createVoucherPrototype", gqlCreatePrototype, in("name", texts(),
		"description", texts(), "longDescription", texts(), "type", "STAY", "stayPrice", "1", "universeId", "999999",
		"imageIds", []string{gid(f.rivalMedia[0])}))
	wantUserErrors(t, payload, errs, fmt.Sprintf(`[
		{"field": [], "code": "required", "message": "At least one name_<lang> must not be blank."},
		{"field": ["universe"], "code": "does_not_exist", "message": "Invalid pk \"999999\" - object does not exist."},
		{"field": ["images"], "code": "does_not_exist", "message": "Invalid pk \"%d\" - object does not exist."}]`, f.rivalMedia[0]))
	// The typed errors name the input's own fields.
	wantTypedErrors(t, payload, fmt.Sprintf(`[
		{"field": ["input"], "code": "REQUIRED", "message": "At least one name_<lang> must not be blank."},
		{"field": ["input", "universeId"], "code": "DOES_NOT_EXIST", "message": "Invalid pk \"999999\" - object does not exist."},
		{"field": ["input", "imageIds"], "code": "DOES_NOT_EXIST", "message": "Invalid pk \"%d\" - object does not exist."}]`, f.rivalMedia[0]))
	payload, errs = f.mutate(t, f.readerTok, "createVoucherPrototype", gqlCreatePrototype, in("name", texts("fr", "x"),
		"description", texts(), "longDescription", texts(), "type", "STAY", "stayPrice", "1", "universeId", gid(f.universe)))
	wantRefused(t, payload, errs, "FORBIDDEN")

	// Update: the fields given only; another partner's prototype is not found.
	p := f.mustMutate(t, f.editorTok, "updateVoucherPrototype", gqlUpdatePrototype, in("id", p1["id"], "type", "FIXED_STAY", "adultsPrice", "12.5"))
	WantJSON(t, []byte(jsonOf(t, p["voucherPrototype"])), fmt.Sprintf(`{"id": %q, "type": "FIXED_STAY", "ranking": 2, "adultsPrice": "12.50", "name": {"fr": "Nuit"}}`, p1["id"]))
	payload, errs = f.mutate(t, f.rivalTok, "updateVoucherPrototype", gqlUpdatePrototype, in("id", p1["id"], "ranking", 9))
	wantRefused(t, payload, errs, "NOT_FOUND")

	// Category, options, links.
	cat := f.mustMutate(t, f.editorTok, "createOptionCategory", gqlCreateCategory, in("partnerUuid", f.hotel.UUID.String(),
		"name", texts("fr", "Repas"), "maxNumberOptions", 3))["optionCategory"].(map[string]any)
	WantJSON(t, []byte(jsonOf(t, cat)), fmt.Sprintf(`{"id": %q, "partnerUuid": %q, "minNumberOptions": null, "maxNumberOptions": 3, "name": {"fr": "Repas"}}`, cat["id"], f.hotel.UUID))
	// partnerId, the Partner's global id, names the partner as partnerUuid (deprecated) did.
	byID := f.mustMutate(t, f.editorTok, "createOptionCategory", gqlCreateCategory, in("partnerId", globalID("Partner", f.hotel.UUID),
		"name", texts("fr", "Boissons")))["optionCategory"].(map[string]any)
	if byID["partnerUuid"] != f.hotel.UUID.String() {
		t.Errorf("category by partnerId: %v", byID)
	}
	payload, errs = f.mutate(t, f.editorTok, "createOptionCategory", gqlCreateCategory, in("name", texts("fr", "Sans partenaire")))
	wantUserErrors(t, payload, errs, `[{"field": ["partnerId"], "code": "required", "message": "This field is required."}]`)
	wantTypedErrors(t, payload, `[{"field": ["input", "partnerId"], "code": "REQUIRED", "message": "This field is required."}]`)
	payload, errs = f.mutate(t, f.editorTok, "createOptionCategory", gqlCreateCategory, in("partnerUuid", f.hotel.UUID.String(),
		"name", texts("fr", "Repas"), "minNumberOptions", 4, "maxNumberOptions", 3))
	wantUserErrors(t, payload, errs, `[{"field": ["min_number_options"], "code": "max_value", "message": "Ensure this value is less than or equal to max_number_options."}]`)
	opt := f.mustMutate(t, f.editorTok, "createOption", gqlCreateOption, in("name", texts("fr", "Spa"), "description", texts(),
		"sellingPrice", "30", "categoryId", cat["id"], "prototypeIds", []any{p1["id"]},
		"services", []any{map[string]any{"cost": "10", "buyingVat": "20"}}))["option"].(map[string]any)
	WantJSON(t, []byte(jsonOf(t, opt)), fmt.Sprintf(`{"id": %q, "isGlobal": false, "sellingPrice": "30.00", "prototypeIds": [%q],
		"services": [{"cost": "10.00", "buyingVat": "20.00"}], "category": {"id": %q, "name": {"fr": "Repas"}}}`, opt["id"], p1["id"], cat["id"]))
	global := f.mustMutate(t, f.editorTok, "createOption", gqlCreateOption, in("name", texts("fr", "Vin"), "description", texts(),
		"isGlobal", true))["option"].(map[string]any)
	link := f.mustMutate(t, f.editorTok, "setPrototypeOption", gqlSetOption, in("prototypeId", p2["id"], "optionId", opt["id"], "count", 2, "included", true))
	if l := link["link"].(map[string]any); l["count"].(float64) != 2 || l["included"] != true {
		t.Errorf("link: %v", l)
	}
	rivalOpt := f.mustMutate(t, f.rivalTok, "createOption", gqlCreateOption, in("name", texts("fr", "R"), "description", texts()))["option"].(map[string]any)
	payload, errs = f.mutate(t, f.editorTok, "setPrototypeOption", gqlSetOption, in("prototypeId", p2["id"], "optionId", rivalOpt["id"]))
	wantUserErrors(t, payload, errs, fmt.Sprintf(`[{"field": ["option"], "code": "does_not_exist", "message": "Invalid pk \"%s\" - object does not exist."}]`, rivalOpt["id"]))

	// The connection: tenant-scoped, filtered, ordered; nested lists batched.
	// Options of equal ranking come by id.
	data := f.mustAsk(t, "", f.editorTok, gqlPrototypes, map[string]any{"order": map[string]any{"field": "RANKING"}})
	WantJSON(t, data, fmt.Sprintf(`{"adminVoucherPrototypes": {"totalCount": 2, "edges": [
		{"node": {"id": %[1]q, "ranking": 1, "universe": {"id": %[3]q}, "options": {"totalCount": 2, "edges": [
			{"node": {"count": 2, "included": true, "option": {"id": %[5]q, "category": {"id": %[6]q}, "prototypes": [{"id": %[2]q}, {"id": %[1]q}]}}},
			{"node": {"count": 1, "included": false, "option": {"id": %[4]q, "category": null, "prototypes": [{"id": %[2]q}, {"id": %[1]q}]}}}]}}},
		{"node": {"id": %[2]q, "ranking": 2, "universe": {"id": %[3]q}, "options": {"totalCount": 2, "edges": [
			{"node": {"count": 1, "included": false, "option": {"id": %[5]q, "category": {"id": %[6]q}, "prototypes": [{"id": %[2]q}, {"id": %[1]q}]}}},
			{"node": {"count": 1, "included": false, "option": {"id": %[4]q, "category": null, "prototypes": [{"id": %[2]q}, {"id": %[1]q}]}}}]}}}]}}`,
		p2["id"], p1["id"], globalID("UniverseRecord", f.universe), global["id"], opt["id"], cat["id"]))
	f.stmts.Reset()
	f.mustAsk(t, "", f.editorTok, gqlPrototypes, nil)
	few := f.stmts.Count()
	for range 5 {
		proto(f.editorTok)
	}
	f.stmts.Reset()
	f.mustAsk(t, "", f.editorTok, gqlPrototypes, nil)
	if n := f.stmts.Count(); n != few {
		t.Errorf("statements: %d for 2 prototypes, %d for 7: not batched", few, n)
	}
	data = f.mustAsk(t, "", f.editorTok, `{ adminVoucherPrototypes(filter: {isActive: true, search: "nui", type: STAY}) { totalCount } }`, nil)
	WantJSON(t, data, `{"adminVoucherPrototypes": {"totalCount": 1}}`)
	data = f.mustAsk(t, "", f.staffTok, `{ adminVoucherPrototypes { totalCount } }`, nil)
	WantJSON(t, data, `{"adminVoucherPrototypes": {"totalCount": 8}}`)
	_, errs = f.ask(t, "", f.rivalTok, fmt.Sprintf(`{ adminVoucherPrototype(id: %q) { id } }`, p1["id"]), nil)
	wantErrorCode(t, errs, "NOT_FOUND")
	_, errs = f.ask(t, "", "", `{ adminVoucherPrototypes { totalCount } }`, nil)
	wantErrorCode(t, errs, "UNAUTHENTICATED")

	// The caller is checked before the input: an anonymous write with a
	// text in an unknown language is UNAUTHENTICATED, not an input error.
	for _, m := range []string{
		`mutation { createVoucherPrototype(input: {name: [{lang: "xx", text: "x"}], description: [], longDescription: [], type: STAY, stayPrice: "1", universeId: "1"}) { userErrors { field } errors { field } } }`,
		`mutation { updateVoucherPrototype(input: {id: "1", name: [{lang: "xx", text: "x"}]}) { userErrors { field } errors { field } } }`,
		`mutation { createOption(input: {name: [{lang: "xx", text: "x"}], description: [], categoryId: "1", sellingPrice: "1"}) { userErrors { field } errors { field } } }`,
		`mutation { createOptionCategory(input: {partnerUuid: "` + uuid.NewString() + `", name: [{lang: "xx", text: "x"}], description: []}) { userErrors { field } errors { field } } }`,
	} {
		_, errs = f.ask(t, "", "", m, nil)
		wantErrorCode(t, errs, "UNAUTHENTICATED")
	}
}

func TestAdminOptionListsGraph(t *testing.T) {
	t.Parallel()
	f := newProtoFixture(t)
	category := func(tok string, p *domain.Partner, name string, kv ...any) string {
		t.Helper()
		args := append([]any{"partnerUuid", p.UUID.String(), "name", texts("fr", name)}, kv...)
		return f.mustMutate(t, tok, "createOptionCategory", gqlCreateCategory, in(args...))["optionCategory"].(map[string]any)["id"].(string)
	}
	option := func(tok, name string, kv ...any) string {
		t.Helper()
		args := append([]any{"name", texts("fr", name), "description", texts()}, kv...)
		return f.mustMutate(t, tok, "createOption", gqlCreateOption, in(args...))["option"].(map[string]any)["id"].(string)
	}
	meals := category(f.editorTok, f.hotel, "Repas", "ranking", 2)
	wellness := category(f.editorTok, f.hotel, "Bien-être", "ranking", 1, "isActive", false)
	rivalCat := category(f.rivalTok, f.rival, "Rival", "ranking", 0)
	dinner := option(f.editorTok, "Dîner", "ranking", 2, "categoryId", meals)
	breakfast := option(f.editorTok, "Petit-déjeuner", "ranking", 1, "categoryId", meals, "isGlobal", true)
	spa := option(f.editorTok, "Spa", "ranking", 3, "categoryId", wellness, "isActive", false)
	late := option(f.editorTok, "Départ tardif", "ranking", 1)
	rivalOpt := option(f.rivalTok, "Rival", "ranking", 0, "categoryId", rivalCat)

	// ids lists a connection's node ids, after its totalCount.
	ids := func(tok, query, path string) string {
		t.Helper()
		data := f.mustAsk(t, "", tok, query, nil)
		var v any
		gcMust(t, json.Unmarshal(data, &v))
		for _, k := range strings.Split(path, ".") {
			v = v.(map[string]any)[k]
		}
		conn := v.(map[string]any)
		out := fmt.Sprint(conn["totalCount"])
		for _, e := range conn["edges"].([]any) {
			out += " " + e.(map[string]any)["node"].(map[string]any)["id"].(string)
		}
		return out
	}
	list := func(args string) string {
		return `{ adminOptions` + args + ` { totalCount edges { node { id: legacyId } } } }`
	}
	for _, c := range []struct{ args, want string }{
		// By ranking, then id; a member sees its partner's only.
		{"", strings.Join([]string{"4", breakfast, late, dinner, spa}, " ")},
		{"(orderBy: {field: ID, direction: DESC})", strings.Join([]string{"4", late, spa, breakfast, dinner}, " ")},
		{"(orderBy: {field: RANKING, direction: DESC})", strings.Join([]string{"4", spa, dinner, late, breakfast}, " ")},
		{fmt.Sprintf("(filter: {categoryId: %q})", meals), strings.Join([]string{"2", breakfast, dinner}, " ")},
		{"(filter: {isGlobal: true})", "1 " + breakfast},
		{"(filter: {isActive: false})", "1 " + spa},
		{`(filter: {search: "DÉJ"})`, "1 " + breakfast},
		{fmt.Sprintf("(filter: {categoryId: %q})", rivalCat), "0"},
		{"(first: 2)", strings.Join([]string{"4", breakfast, late}, " ")},
	} {
		if got := ids(f.editorTok, list(c.args), "adminOptions"); got != c.want {
			t.Errorf("adminOptions%s = %s, want %s", c.args, got, c.want)
		}
	}
	if got := ids(f.staffTok, list(""), "adminOptions"); !strings.HasPrefix(got, "5 ") {
		t.Errorf("staff adminOptions = %s, want all 5", got)
	}
	if got := ids(f.rivalTok, list(""), "adminOptions"); got != "1 "+rivalOpt {
		t.Errorf("rival adminOptions = %s", got)
	}
	if got := ids(f.readerTok, list(""), "adminOptions"); got != "0" {
		t.Errorf("reader adminOptions = %s", got)
	}

	cats := func(args string) string {
		return `{ adminOptionCategories` + args + ` { totalCount edges { node { id: legacyId } } } }`
	}
	for _, c := range []struct{ args, want string }{
		{"", strings.Join([]string{"2", wellness, meals}, " ")},
		{"(orderBy: {field: ID})", strings.Join([]string{"2", meals, wellness}, " ")},
		{"(filter: {isActive: true})", "1 " + meals},
		{`(filter: {search: "être"})`, "1 " + wellness},
	} {
		if got := ids(f.editorTok, cats(c.args), "adminOptionCategories"); got != c.want {
			t.Errorf("adminOptionCategories%s = %s, want %s", c.args, got, c.want)
		}
	}
	if got := ids(f.staffTok, cats(""), "adminOptionCategories"); got != strings.Join([]string{"3", rivalCat, wellness, meals}, " ") {
		t.Errorf("staff adminOptionCategories = %s", got)
	}

	// A category's options, paginated; a partner's lists.
	data := f.mustAsk(t, "", f.editorTok, fmt.Sprintf(`{ adminOptionCategory(id: %q) {
		options(first: 1) { totalCount edges { node { id: legacyId } } pageInfo { hasNextPage endCursor } } } }`, meals), nil)
	var one struct {
		AdminOptionCategory struct {
			Options struct {
				TotalCount int
				Edges      []struct{ Node struct{ ID string } }
				PageInfo   struct {
					HasNextPage bool
					EndCursor   string
				}
			}
		}
	}
	gcMust(t, json.Unmarshal(data, &one))
	o := one.AdminOptionCategory.Options
	if o.TotalCount != 2 || len(o.Edges) != 1 || o.Edges[0].Node.ID != breakfast || !o.PageInfo.HasNextPage {
		t.Fatalf("category options: %s", data)
	}
	if got := ids(f.editorTok, fmt.Sprintf(`{ adminOptionCategory(id: %q) { options(after: %q) { totalCount edges { node { id: legacyId } } } } }`,
		meals, o.PageInfo.EndCursor), "adminOptionCategory.options"); got != "2 "+dinner {
		t.Errorf("category options, page 2 = %s", got)
	}
	partner := fmt.Sprintf(`{ adminPartner(uuid: %q) { options(filter: {isActive: true}) { totalCount edges { node { id: legacyId } } }
		optionCategories { totalCount edges { node { id: legacyId } } } } }`, f.hotel.UUID)
	if got := ids(f.staffTok, partner, "adminPartner.options"); got != strings.Join([]string{"3", breakfast, late, dinner}, " ") {
		t.Errorf("Partner.options = %s", got)
	}
	if got := ids(f.editorTok, partner, "adminPartner.optionCategories"); got != strings.Join([]string{"2", wellness, meals}, " ") {
		t.Errorf("Partner.optionCategories = %s", got)
	}

	// Each record reaches its partner.
	data = f.mustAsk(t, "", f.editorTok, fmt.Sprintf(`{ adminOption(id: %q) { partnerUuid partner { uuid name } }
		adminOptionCategory(id: %q) { partner { uuid } } }`, dinner, meals), nil)
	WantJSON(t, data, fmt.Sprintf(`{"adminOption": {"partnerUuid": %[1]q, "partner": {"uuid": %[1]q, "name": "Hotel"}},
		"adminOptionCategory": {"partner": {"uuid": %[1]q}}}`, f.hotel.UUID))

	// Another partner's records read as absent; no token is refused.
	for _, q := range []string{`{ adminOption(id: %q) { id } }`, `{ adminOptionCategory(id: %q) { id } }`} {
		_, errs := f.ask(t, "", f.rivalTok, fmt.Sprintf(q, dinner), nil)
		wantErrorCode(t, errs, "NOT_FOUND")
		_, errs = f.ask(t, "", f.editorTok, fmt.Sprintf(q, "999999"), nil)
		wantErrorCode(t, errs, "NOT_FOUND")
	}
	_, errs := f.ask(t, "", f.rivalTok, fmt.Sprintf(`{ adminOptionCategory(id: %q) { id } }`, meals), nil)
	wantErrorCode(t, errs, "NOT_FOUND")
	data = f.mustAsk(t, "", f.editorTok, fmt.Sprintf(`{ adminOption(id: %q) { id: legacyId category { id: legacyId } } }`, dinner), nil)
	WantJSON(t, data, fmt.Sprintf(`{"adminOption": {"id": %q, "category": {"id": %q}}}`, dinner, meals))
	_, errs = f.ask(t, "", f.rivalTok, partner, nil)
	wantErrorCode(t, errs, "NOT_FOUND")
	for _, q := range []string{list(""), cats("")} {
		_, errs = f.ask(t, "", "", q, nil)
		wantErrorCode(t, errs, "UNAUTHENTICATED")
	}

	// Categories with their options load in a fixed number of statements.
	nested := `{ adminOptionCategories { edges { node { id options { edges { node { id category { id } } } } } } } }`
	f.stmts.Reset()
	f.mustAsk(t, "", f.staffTok, nested, nil)
	few := f.stmts.Count()
	for i := range 4 {
		c := category(f.editorTok, f.hotel, fmt.Sprint("Extra ", i))
		option(f.editorTok, fmt.Sprint("Extra option ", i), "categoryId", c)
	}
	f.stmts.Reset()
	f.mustAsk(t, "", f.staffTok, nested, nil)
	if n := f.stmts.Count(); n != few {
		t.Errorf("statements: %d for 3 categories, %d for 7: not batched", few, n)
	}

	// Every connection counts by its page size: pages of pages are refused
	// before they run.
	for _, q := range []string{
		`{ adminOptionCategories(first: 100) { edges { node { options(first: 100) { edges { node { id name { fr } } } } } } } }`,
		`{ adminVoucherPrototypes(first: 100) { edges { node { options(first: 100) { edges { node { option { id name { fr } } } } } } } } }`,
		`{ viewer { partner { media(first: 100) { edges { node { id } } } vouchers(first: 100) { edges { node { code prototype {
			options(first: 100) { edges { node { count } } } } } } } } } }`,
	} {
		_, errs := f.ask(t, "", f.staffTok, q, nil)
		wantErrorCode(t, errs, "COMPLEXITY_LIMIT_EXCEEDED")
	}
}
