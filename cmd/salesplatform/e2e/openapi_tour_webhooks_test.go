package e2e

// webhooksTour is the webhook endpoints' part of TestOpenAPITour: the demo
// shop's member makes an endpoint on the loopback network the tour's
// server allows, and goes through every operation on it.
var webhooksTour = []tourStep{func(tr *tour) {
	t, call, list, id := tr.t, tr.call, tr.list, tourID
	member := []string{"Authorization", "Token " + tr.tokens[tr.data.Partner(tr.data.Shops[0].Partner).Username]}
	if types := list(call("GET", "/api/webhooks/event_types/?page_size=100", "", member...)); len(types) != 16 {
		t.Errorf("%d event types listed, want 16", len(types))
	}
	created := call("POST", "/api/webhooks/endpoints/", `{"url": "http://127.0.0.1:9/hooks", "events": ["order.created", "order.paid"], "description": "Shop backend"}`, member...)
	if created.Status != 201 {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	path := "/api/webhooks/endpoints/" + id(created.JSON(t)["id"]) + "/"
	if len(list(call("GET", "/api/webhooks/endpoints/", "", member...))) != 1 {
		t.Error("the shop's member does not list its endpoint")
	}
	call("GET", path, "", member...)
	call("PATCH", path, `{"events": [], "is_active": false}`, member...)
	call("POST", path+"rotate_secret/", "", member...)
	// The log and resends: the endpoint, inactive, is active again for
	// its test event (sent to a closed port, it fails unseen by the tour).
	call("PATCH", path, `{"is_active": true}`, member...)
	sent := call("POST", path+"test/", "", member...)
	if sent.Status != 202 {
		t.Fatalf("test: %d %s", sent.Status, sent.Body)
	}
	event, _ := sent.JSON(t)["event_id"].(string)
	if res := call("GET", path+"attempts/?event="+event, "", member...); res.Status != 200 {
		t.Errorf("attempts: %d %s", res.Status, res.Body)
	}
	if res := call("POST", path+"resend/", `{"event_id": "`+event+`"}`, member...); res.Status != 202 {
		t.Errorf("resend: %d %s", res.Status, res.Body)
	}
	if res := call("DELETE", path, "", member...); res.Status != 204 {
		t.Errorf("delete: %d %s", res.Status, res.Body)
	}
}}
