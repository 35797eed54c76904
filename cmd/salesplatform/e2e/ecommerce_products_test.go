package e2e

import (
	"context"
	"net/http"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/persistence/dbtest"
)

// shopFixture is a served database with two shops: the owner's
// (shop.example.com, a member with manage_masteradmin and one without)
// and a rival's.
type shopFixture struct {
	*Server
	db                            *bun.DB
	ownerTok, readerTok, rivalTok string
}

func newShopFixture(t *testing.T) *shopFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	f := &shopFixture{
		ownerTok: CreateUser(t, dsn, "--username", "shop-owner", "--password", "shop-owner-pw", "--partner-name", "Shop",
			"--permission", domain.PermManageMasterAdmin),
		rivalTok: CreateUser(t, dsn, "--username", "shop-rival", "--password", "shop-rival-pw", "--partner-name", "Rival",
			"--permission", domain.PermManageMasterAdmin),
	}
	f.readerTok = CreateUser(t, dsn, "--username", "shop-reader", "--password", "shop-reader-pw")
	f.db = OpenDB(t, dsn)
	// The reader joins the shop, without permissions.
	_, err := f.db.NewRaw(`UPDATE users SET partner_id = (SELECT id FROM partners WHERE name = 'Shop') WHERE username = 'shop-reader'`).
		Exec(context.Background())
	gcMust(t, err)
	_, err = f.db.NewRaw(`UPDATE partners SET site_domain = lower(name) || '.example.com', currency = 'CHF'`).Exec(context.Background())
	gcMust(t, err)
	f.Server = Serve(t, dsn, "--data-dir", t.TempDir())
	return f
}

func (f *shopFixture) call(t *testing.T, method, path, token, body string, headers ...string) Response {
	t.Helper()
	if token != "" {
		headers = append(headers, auth(token)...)
	}
	if body != "" {
		headers = append(headers, "Content-Type", "application/json")
	}
	return Do(t, method, f.URL+path, body, headers...)
}

const shopProducts = "/api/v2/ecommerce/products/"

func TestEcommerceProductsREST(t *testing.T) {
	t.Parallel()
	f := newShopFixture(t)

	res := f.call(t, http.MethodPost, shopProducts, f.ownerTok, `{"name": {"en": "Mug", "fr": "Tasse"}, "price": "12.5",
		"vat_rate": 20, "variants": [{"name": {"en": "Blue"}, "price": "12.50", "stock": 5}, {"name": {"en": "Red"}, "price": 13}],
		"attributes": [{"name": {"en": "Gift wrap"}, "values": ["yes", "no"]}]}`)
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	mug := res.JSON(t)
	id := tourID(mug["id"])
	variants := mug["variants"].([]any)
	blue := variants[0].(map[string]any)
	if mug["price"] != "12.50" || mug["vat_rate"] != "20.00" || mug["currency"] != "CHF" || mug["stock"] != nil ||
		mug["active"] != true || blue["stock"] != 5.0 || variants[1].(map[string]any)["stock"] != nil ||
		mug["name"].(map[string]any)["fr"] != "Tasse" || mug["name"].(map[string]any)["de"] != nil {
		t.Errorf("created %s", res.Body)
	}

	// The member without the permission reads but may not write.
	WantResponse(t, f.call(t, http.MethodGet, shopProducts+id+"/", f.readerTok, ""), 200, "")
	WantResponse(t, f.call(t, http.MethodPost, shopProducts, f.readerTok, `{"name": {"en": "X"}, "price": 1}`), 403,
		`{"detail": "You do not have permission to perform this action."}`)

	// Field errors, DRF-style, nothing written.
	WantResponse(t, f.call(t, http.MethodPost, shopProducts, f.ownerTok, `{"name": {"xx": "?"}, "price": "abc",
		"variants": [{"name": {"en": "A"}}], "attributes": [{"name": {"en": "B"}, "values": []}], "stock": -1}`), 400,
		`{"name": {"xx": ["\"xx\" is not a valid choice."]}, "price": ["A valid number is required."], "stock": ["Ensure this value is greater than or equal to 0."],
		"variants": [{"price": ["This field is required."]}], "attributes": [{"values": ["This list may not be empty."]}]}`)

	// PATCH: only what it names; the variants list replaces the product's.
	res = f.call(t, http.MethodPatch, shopProducts+id+"/", f.ownerTok,
		`{"variants": [{"id": `+tourID(blue["id"])+`, "name": {"en": "Navy"}, "price": "12.50", "stock": 4}], "active": false}`)
	WantResponse(t, res, 200, "")
	got := res.JSON(t)
	if vs := got["variants"].([]any); len(vs) != 1 || vs[0].(map[string]any)["id"] != blue["id"] || got["active"] != false ||
		got["price"] != "12.50" || len(got["attributes"].([]any)) != 1 {
		t.Errorf("after PATCH: %s", res.Body)
	}
	// PUT asks for what creation asks for.
	WantResponse(t, f.call(t, http.MethodPut, shopProducts+id+"/", f.ownerTok, `{"active": true}`), 400,
		`{"name": ["This field is required."], "price": ["This field is required."]}`)

	// Visitors of the site see the active products only; the owner all.
	site := []string{"X-Partner-Domain", "shop.example.com"}
	res = f.call(t, http.MethodPost, shopProducts, f.ownerTok, `{"name": {"en": "Tea"}, "price": "4.00", "stock": 10}`)
	WantResponse(t, res, 201, "")
	tea := tourID(res.JSON(t)["id"])
	res = f.call(t, http.MethodGet, shopProducts, "", "", site...)
	WantResponse(t, res, 200, "")
	if page := res.JSON(t); page["count"] != 1.0 || tourID(page["results"].([]any)[0].(map[string]any)["id"]) != tea {
		t.Errorf("public list: %s", res.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, shopProducts+id+"/", "", "", site...), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodGet, shopProducts+tea+"/", "", "", site...), 200, "")
	if res = f.call(t, http.MethodGet, shopProducts+"?active=false", f.ownerTok, ""); res.JSON(t)["count"] != 1.0 {
		t.Errorf("owner's inactive list: %s", res.Body)
	}
	if res = f.call(t, http.MethodGet, shopProducts+"?page_size=1&page=2", f.ownerTok, ""); res.JSON(t)["count"] != 2.0 {
		t.Errorf("owner's second page: %s", res.Body)
	}
	WantResponse(t, f.call(t, http.MethodGet, shopProducts, "", ""), 400, "")

	// Another partner's product is not found, to read or to write; its
	// list has none of the owner's.
	WantResponse(t, f.call(t, http.MethodGet, shopProducts+id+"/", f.rivalTok, ""), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodPatch, shopProducts+id+"/", f.rivalTok, `{"active": true}`), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.call(t, http.MethodGet, shopProducts, f.rivalTok, ""), 200, `{"count": 0, "next": null, "previous": null, "results": []}`)

	// Delivery settings: none until set; a PUT replaces them whole.
	WantResponse(t, f.call(t, http.MethodGet, "/api/v2/ecommerce/delivery-settings/", f.ownerTok, ""), 200,
		`{"email": false, "postal": false, "postal_cost": "0.00", "postal_days": 0, "pickup": false, "pickup_cost": "0.00", "pickup_address": ""}`)
	WantResponse(t, f.call(t, http.MethodPut, "/api/v2/ecommerce/delivery-settings/", f.ownerTok,
		`{"email": true, "postal": true, "postal_cost": "4.90", "postal_days": 3}`), 200,
		`{"email": true, "postal": true, "postal_cost": "4.90", "postal_days": 3, "pickup": false, "pickup_cost": "0.00", "pickup_address": ""}`)
	WantResponse(t, f.call(t, http.MethodPut, "/api/v2/ecommerce/delivery-settings/", f.ownerTok, `{"pickup": true}`), 400,
		`{"pickup_address": ["An address is required when pickup is offered."]}`)
	WantResponse(t, f.call(t, http.MethodGet, "/api/v2/ecommerce/delivery-settings/", f.rivalTok, ""), 200,
		`{"email": false, "postal": false, "postal_cost": "0.00", "postal_days": 0, "pickup": false, "pickup_cost": "0.00", "pickup_address": ""}`)
}
