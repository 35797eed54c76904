package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// ecommerceIsolation is the e-commerce catalogue's part of
// TestAdminIsolation: the owner's shop products and delivery settings.
var ecommerceIsolation = isoArea{
	tables:    []string{"ecommerce_products", "ecommerce_variants", "ecommerce_attributes", "ecommerce_delivery_settings"},
	rest:      (*isoFixture).ecommerceREST,
	graph:     (*isoFixture).ecommerceGraph,
	uploads:   []isoCheck{{"REST public reads of the owner's inactive product", (*isoFixture).ecommercePublicReads}},
	malformed: (*isoFixture).ecommerceMalformed,
}

// isoShopSite is the owner's site domain.
const isoShopSite = "owner-shop.example.com"

// seedEcommerce writes the owner's inactive shop product, with a variant
// and an attribute, its delivery settings, and its site domain.
func (f *isoFixture) seedEcommerce(t *testing.T) {
	t.Helper()
	_, err := f.db.NewRaw(`UPDATE partners SET site_domain = ? WHERE id = ?`, isoShopSite, f.owner).Exec(t.Context())
	gcMust(t, err)
	m := f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/v2/ecommerce/products/", f.ownerTok,
		`{"name": {"fr": "`+isoSecret+` vase"}, "price": "10.00", "active": false,
		"variants": [{"name": {"fr": "`+isoSecret+`"}, "price": "10.00", "stock": 3}],
		"attributes": [{"name": {"fr": "`+isoSecret+`"}, "values": ["`+isoSecret+`"]}]}`, "application/json"))
	f.shopProduct = int64(m["id"].(float64))
	f.mustOK(t, http.StatusOK, f.rest(t, http.MethodPut, "/api/v2/ecommerce/delivery-settings/", f.ownerTok,
		`{"pickup": true, "pickup_address": "`+isoSecret+` street"}`, "application/json"))
}

func (f *isoFixture) ecommerceREST(t *testing.T) []isoREST {
	const js = "application/json"
	product := fmt.Sprintf("/api/v2/ecommerce/products/%d/", f.shopProduct)
	return []isoREST{
		{"PUT", product, `{"name": {"en": "x"}, "price": "1.00"}`, js, 0, 404, 403},
		{"PATCH", product, `{"active": true}`, js, 0, 404, 403},
		{"GET", "/api/v2/ecommerce/delivery-settings/", "", js, 200, 200, 200},
	}
}

// ecommercePublicReads: the product reads need no token, so that a row's
// 401 does not apply; another partner's token, or the owner's site
// without one, does not show the owner's inactive product.
func (f *isoFixture) ecommercePublicReads(t *testing.T) {
	product := fmt.Sprintf("/api/v2/ecommerce/products/%d/", f.shopProduct)
	const site = isoShopSite
	for _, tok := range []string{f.rivalTok, f.readerTok} {
		WantResponse(t, f.rest(t, http.MethodGet, product, tok, "", ""), 404, `{"detail": "Not found."}`)
		res := f.rest(t, http.MethodGet, "/api/v2/ecommerce/products/", tok, "", "")
		WantResponse(t, res, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
	}
	res := Do(t, http.MethodGet, f.URL+product, "", "X-Partner-Domain", site)
	WantResponse(t, res, 404, `{"detail": "Not found."}`)
	res = Do(t, http.MethodGet, f.URL+"/api/v2/ecommerce/products/", "", "X-Partner-Domain", site)
	if res.Status != 200 || strings.Contains(res.Body, isoSecret) {
		t.Errorf("the site's public list: %d %s", res.Status, res.Body)
	}
	res = f.rest(t, http.MethodGet, product, f.ownerTok, "", "")
	if res.Status != 200 || !strings.Contains(res.Body, isoSecret) {
		t.Errorf("the owner's read: %d %s", res.Status, res.Body)
	}
}

// ecommerceGraph: the product reads are public (isoCheck above); the
// settings read answers the caller's own.
func (f *isoFixture) ecommerceGraph() []isoGraph {
	return []isoGraph{
		{"updateEcommerceProduct", `mutation($id: ID!) { updateEcommerceProduct(input: {id: $id, active: true}) ` + isoPayload + ` }`,
			map[string]any{"id": isoID(f.shopProduct)}, "NOT_FOUND"},
		{"ecommerceDeliverySettings", `{ ecommerceDeliverySettings { pickup pickupAddress } }`, nil, ""},
	}
}

func (f *isoFixture) ecommerceMalformed(t *testing.T) []isoMalformed {
	product := fmt.Sprintf("/api/v2/ecommerce/products/%d/", f.shopProduct)
	return []isoMalformed{
		{"PATCH", product, `{"variants": "x"}`, "application/json"},
		{"PATCH", product, `{"variants": [{"id": 999999, "name": {"fr": "x"}, "price": "1"}]}`, "application/json"},
		{"PATCH", product, `{"images": ["00000000-0000-0000-0000-000000000000"]}`, "application/json"},
		{"PUT", product, `{"active": true}`, "application/json"},
		{"PUT", "/api/v2/ecommerce/delivery-settings/", `{"postal_cost": "-1"}`, "application/json"},
	}
}
