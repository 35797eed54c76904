package e2e

import (
	"encoding/json"
	"net/http"
	"testing"
)

const (
	shopProductFields = `id legacyId name { en fr } price currencyCode vatRate active stock images
		variants { id legacyId name { en } price stock active } attributes { legacyId name { en } values }`
	shopCreate = `mutation($in: CreateEcommerceProductInput!) { createEcommerceProduct(input: $in) {
		product { ` + shopProductFields + ` } errors { field code message } userErrors { field code message } } }`
	shopUpdate = `mutation($in: UpdateEcommerceProductInput!) { updateEcommerceProduct(input: $in) {
		product { ` + shopProductFields + ` } errors { field code message } userErrors { field code message } } }`
	shopRead = `query($id: ID!) { ecommerceProduct(id: $id) { ` + shopProductFields + ` } }`
	shopList = `query($active: Boolean, $first: Int, $after: String) { ecommerceProducts(active: $active, first: $first, after: $after) {
		totalCount pageInfo { hasNextPage endCursor } edges { node { legacyId active } } } }`
	shopDelivery = `mutation($in: EcommerceDeliverySettingsInput!) { updateEcommerceDeliverySettings(input: $in) {
		settings { email postal postalCost postalDays pickup pickupCost pickupAddress } errors { field code message } } }`
)

// graph sends a GraphQL operation with token ("" for none) and headers,
// and returns its data and errors.
func (f *shopFixture) graph(t *testing.T, token, query string, vars map[string]any, headers ...string) (map[string]any, []gqlError) {
	t.Helper()
	if token != "" {
		headers = append(headers, auth(token)...)
	}
	res := Do(t, http.MethodPost, f.URL+"/graphql", jsonOf(t, map[string]any{"query": query, "variables": vars}),
		append(headers, "Content-Type", "application/json")...)
	raw, errs := decodeGraph(t, res)
	var data map[string]any
	if len(raw) > 0 && string(raw) != "null" {
		gcMust(t, json.Unmarshal(raw, &data))
	}
	return data, errs
}

func (f *shopFixture) mustGraph(t *testing.T, token, query string, vars map[string]any, headers ...string) map[string]any {
	t.Helper()
	data, errs := f.graph(t, token, query, vars, headers...)
	if len(errs) > 0 {
		t.Fatalf("%s: %+v", query, errs)
	}
	return data
}

// The graph's products run the REST routes' service: what
// createEcommerceProduct makes reads back through REST; updates replace
// the variants; refusals are typed errors on the input's fields; another
// partner's product is NOT_FOUND; visitors of the site see the active
// products only.
func TestGraphEcommerceProducts(t *testing.T) {
	t.Parallel()
	f := newShopFixture(t)
	in := map[string]any{"name": []any{map[string]any{"language": "EN", "text": "Mug"}, map[string]any{"language": "FR", "text": "Tasse"}},
		"price": "12.5", "vatRate": "20",
		"variants":   []any{map[string]any{"name": []any{map[string]any{"language": "EN", "text": "Blue"}}, "price": "12.50", "stock": 5}},
		"attributes": []any{map[string]any{"name": []any{map[string]any{"language": "EN", "text": "Gift wrap"}}, "values": []any{"yes", "no"}}}}
	data := f.mustGraph(t, f.ownerTok, shopCreate, map[string]any{"in": in})
	p := dig(data, "createEcommerceProduct", "product").(map[string]any)
	id := p["legacyId"].(string)
	rest := f.call(t, http.MethodGet, shopProducts+id+"/", f.ownerTok, "").JSON(t)
	variant := rest["variants"].([]any)[0].(map[string]any)
	attribute := rest["attributes"].([]any)[0].(map[string]any)
	wantSame(t, "created", p, map[string]any{"id": globalID("EcommerceProduct", id), "legacyId": id,
		"name": map[string]any{"en": "Mug", "fr": "Tasse"}, "price": "12.50", "currencyCode": "CHF", "vatRate": "20.00",
		"active": true, "stock": nil, "images": []any{},
		"variants": []any{map[string]any{"id": globalID("EcommerceVariant", tourID(variant["id"])), "legacyId": tourID(variant["id"]),
			"name": map[string]any{"en": "Blue"}, "price": "12.50", "stock": 5, "active": true}},
		"attributes": []any{map[string]any{"legacyId": tourID(attribute["id"]), "name": map[string]any{"en": "Gift wrap"},
			"values": []any{"yes", "no"}}}})

	// An update keeps the variant it names (by its global id) and drops
	// the attributes; only what it names changes.
	data = f.mustGraph(t, f.ownerTok, shopUpdate, map[string]any{"in": map[string]any{"id": globalID("EcommerceProduct", id),
		"variants": []any{map[string]any{"id": globalID("EcommerceVariant", tourID(variant["id"])),
			"name": []any{map[string]any{"language": "EN", "text": "Navy"}}, "price": "11", "stock": nil}},
		"attributes": []any{}, "active": false}})
	if p = dig(data, "updateEcommerceProduct", "product").(map[string]any); p["active"] != false || p["price"] != "12.50" ||
		len(p["attributes"].([]any)) != 0 || dig(p, "variants", "legacyId") != tourID(variant["id"]) ||
		dig(p, "variants", "stock") != nil || dig(p, "variants", "price") != "11.00" {
		t.Errorf("updated: %v", p)
	}

	// Refusals: typed errors on the input's fields, nothing written.
	data = f.mustGraph(t, f.ownerTok, shopUpdate, map[string]any{"in": map[string]any{"id": id, "price": "-1", "vatRate": "101",
		"variants": []any{map[string]any{"id": "999999", "name": []any{map[string]any{"language": "EN", "text": "X"}}, "price": "1"}}}})
	wantSame(t, "refused", dig(data, "updateEcommerceProduct", "errors"), []any{
		map[string]any{"field": []any{"input", "price"}, "code": "MIN_VALUE", "message": "Ensure this value is greater than or equal to 0."},
		map[string]any{"field": []any{"input", "vatRate"}, "code": "MAX_VALUE", "message": "Ensure this value is less than or equal to 100."},
		map[string]any{"field": []any{"input", "variants", "0", "id"}, "code": "DOES_NOT_EXIST", "message": `Invalid pk "999999" - object does not exist.`}})
	if dig(data, "updateEcommerceProduct", "product") != nil {
		t.Errorf("a refused update answers its product: %v", data)
	}

	// Another partner's product is not found, to read or change.
	_, errs := f.graph(t, f.rivalTok, shopRead, map[string]any{"id": id})
	wantGraphCode(t, errs, "NOT_FOUND")
	_, errs = f.graph(t, f.rivalTok, shopUpdate, map[string]any{"in": map[string]any{"id": id, "active": true}})
	wantGraphCode(t, errs, "NOT_FOUND")
	_, errs = f.graph(t, f.readerTok, shopCreate, map[string]any{"in": in})
	wantGraphCode(t, errs, "FORBIDDEN")

	// The node reads it back; visitors of the site do not see it, inactive.
	data = f.mustGraph(t, f.ownerTok, `query($id: ID!) { node(id: $id) { id ... on EcommerceProduct { legacyId } } }`,
		map[string]any{"id": globalID("EcommerceProduct", id)})
	if dig(data, "node", "legacyId") != id {
		t.Errorf("node: %v", data)
	}
	site := []string{"X-Partner-Domain", "shop.example.com"}
	data = f.mustGraph(t, "", shopList, nil, site...)
	if dig(data, "ecommerceProducts", "totalCount") != 0.0 {
		t.Errorf("public list: %v", data)
	}
	_, errs = f.graph(t, "", shopRead, map[string]any{"id": id}, site...)
	wantGraphCode(t, errs, "NOT_FOUND")
	data = f.mustGraph(t, f.ownerTok, shopList, map[string]any{"active": false, "first": 1})
	if dig(data, "ecommerceProducts", "totalCount") != 1.0 || dig(data, "ecommerceProducts", "edges", "node", "legacyId") != id {
		t.Errorf("own inactive list: %v", data)
	}

	// Delivery settings.
	data = f.mustGraph(t, f.ownerTok, shopDelivery, map[string]any{"in": map[string]any{"pickup": true, "postalDays": 400}})
	wantSame(t, "refused settings", dig(data, "updateEcommerceDeliverySettings", "errors"), []any{
		map[string]any{"field": []any{"input", "postalDays"}, "code": "MAX_VALUE", "message": "Ensure this value is less than or equal to 365."},
		map[string]any{"field": []any{"input", "pickupAddress"}, "code": "REQUIRED", "message": "An address is required when pickup is offered."}})
	data = f.mustGraph(t, f.ownerTok, shopDelivery, map[string]any{"in": map[string]any{"postal": true, "postalCost": "4.9", "postalDays": 3}})
	wantSame(t, "settings", dig(data, "updateEcommerceDeliverySettings", "settings"), map[string]any{"email": false, "postal": true,
		"postalCost": "4.90", "postalDays": 3, "pickup": false, "pickupCost": "0.00", "pickupAddress": ""})
	data = f.mustGraph(t, f.readerTok, `{ ecommerceDeliverySettings { postal postalCost } }`, nil)
	wantSame(t, "read settings", dig(data, "ecommerceDeliverySettings"), map[string]any{"postal": true, "postalCost": "4.90"})
}
