package e2e

// ecommerceTour is the e-commerce catalogue's part of TestOpenAPITour, on
// the demo shop (Atelier Céramique): its public reads, then its member's
// writes.
var ecommerceTour = []tourStep{func(tr *tour) {
	t, call, list, id := tr.t, tr.call, tr.list, tourID
	site := []string{"X-Partner-Domain", tr.data.Partner(tr.data.Shops[0].Partner).Domain}
	products := list(call("GET", "/api/v2/ecommerce/products/", "", site...))
	if len(products) == 0 {
		t.Fatal("the demo shop lists no product")
	}
	call("GET", "/api/v2/ecommerce/products/"+id(products[0]["id"])+"/", "", site...)

	member := []string{"Authorization", "Token " + tr.tokens[tr.data.Partner(tr.data.Shops[0].Partner).Username]}
	call("GET", "/api/v2/ecommerce/products/?active=false", "", member...)
	created := call("POST", "/api/v2/ecommerce/products/", `{"name": {"en": "Tour vase"}, "price": "30.00", "stock": 2}`, member...)
	if created.Status != 201 {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	path := "/api/v2/ecommerce/products/" + id(created.JSON(t)["id"]) + "/"
	call("PATCH", path, `{"active": false}`, member...)
	call("PUT", path, `{"name": {"en": "Tour vase", "fr": "Vase"}, "price": "32.50", "variants": [{"name": {"en": "Small"}, "price": "32.50", "stock": 1}], "stock": null}`, member...)
	call("PATCH", path, `{"price": -1}`, member...)
	settings := call("GET", "/api/v2/ecommerce/delivery-settings/", "", member...).Body
	call("PUT", "/api/v2/ecommerce/delivery-settings/", settings, member...)
}}
