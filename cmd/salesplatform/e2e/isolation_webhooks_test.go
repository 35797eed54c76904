package e2e

import (
	"fmt"
	"net/http"
	"testing"
)

// webhooksIsolation is the webhook endpoints' part of TestAdminIsolation:
// the owner's endpoint, whose description carries isoSecret.
var webhooksIsolation = isoArea{
	tables:    []string{"webhook_endpoints"},
	rest:      (*isoFixture).webhooksREST,
	graph:     (*isoFixture).webhooksGraph,
	malformed: (*isoFixture).webhooksMalformed,
}

// isoAllowedNetworks lets the isolation server's endpoints be local.
var isoAllowedNetworks = []string{"--webhook-allowed-networks", "127.0.0.0/8"}

// seedWebhooks writes the owner's webhook endpoint.
func (f *isoFixture) seedWebhooks(t *testing.T) {
	t.Helper()
	m := f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/webhooks/endpoints/", f.ownerTok,
		`{"url": "http://127.0.0.1:9/`+isoSecret+`", "events": ["order.paid"], "description": "`+isoSecret+`"}`, "application/json"))
	f.webhookEndpoint = int64(m["id"].(float64))
}

func (f *isoFixture) webhooksREST(t *testing.T) []isoREST {
	const js = "application/json"
	endpoint := fmt.Sprintf("/api/webhooks/endpoints/%d/", f.webhookEndpoint)
	return []isoREST{
		{"GET", "/api/webhooks/endpoints/", "", js, 200, 200, 403},
		{"GET", "/api/webhooks/event_types/", "", js, 200, 200, 403},
		{"GET", endpoint, "", js, 200, 404, 403},
		{"PATCH", endpoint, `{"is_active": false}`, js, 0, 404, 403},
		{"POST", endpoint + "rotate_secret/", "", js, 0, 404, 403},
		{"GET", endpoint + "attempts/", "", js, 200, 404, 403},
		{"POST", endpoint + "resend/", `{"failed_since": "2026-01-01T00:00:00Z"}`, js, 0, 404, 403},
		{"POST", endpoint + "test/", "", js, 0, 404, 403},
		{"DELETE", endpoint, "", js, 0, 404, 403},
	}
}

// webhooksGraph: the lists answer the caller's own; the owner's endpoint
// is NOT_FOUND to anyone else.
func (f *isoFixture) webhooksGraph() []isoGraph {
	id := map[string]any{"id": isoID(f.webhookEndpoint)}
	return []isoGraph{
		{"webhookEndpoints", `{ webhookEndpoints { totalCount edges { node { url description } } } }`, nil, ""},
		{"node WebhookEndpoint", isoNode, map[string]any{"id": globalID("WebhookEndpoint", f.webhookEndpoint)}, "NOT_FOUND"},
		{"webhookEndpoint", `query($id: ID!) { webhookEndpoint(id: $id) { url description } }`, id, "NOT_FOUND"},
		{"webhookAttempts", `query($id: ID!) { webhookAttempts(endpointId: $id) { totalCount } }`, id, "NOT_FOUND"},
		{"updateWebhookEndpoint", `mutation($id: ID!) { updateWebhookEndpoint(input: {id: $id, isActive: false}) ` + isoPayload + ` }`,
			id, "NOT_FOUND"},
		{"deleteWebhookEndpoint", `mutation($id: ID!) { deleteWebhookEndpoint(input: {id: $id}) ` + isoPayload + ` }`, id, "NOT_FOUND"},
		{"rotateWebhookEndpointSecret", `mutation($id: ID!) { rotateWebhookEndpointSecret(input: {id: $id}) { secret userErrors { field } } }`,
			id, "NOT_FOUND"},
		{"resendWebhookEvents", `mutation($id: ID!) { resendWebhookEvents(input: {endpointId: $id, failedSince: "2026-01-01T00:00:00Z"}) ` +
			isoPayload + ` }`, id, "NOT_FOUND"},
		{"sendWebhookTestEvent", `mutation($id: ID!) { sendWebhookTestEvent(input: {id: $id}) ` + isoPayload + ` }`, id, "NOT_FOUND"},
	}
}

func (f *isoFixture) webhooksMalformed(t *testing.T) []isoMalformed {
	endpoint := fmt.Sprintf("/api/webhooks/endpoints/%d/", f.webhookEndpoint)
	return []isoMalformed{
		{"POST", "/api/webhooks/endpoints/", `{"url": "https://10.0.0.1/hook"}`, "application/json"},
		{"POST", "/api/webhooks/endpoints/", `{"url": "https://169.254.169.254/latest/meta-data/"}`, "application/json"},
		{"POST", "/api/webhooks/endpoints/", `{"url": "http://127.0.0.1:9/x", "events": ["order.shipped"]}`, "application/json"},
		{"POST", "/api/webhooks/endpoints/", `{"url": "http://127.0.0.1:9/x", "events": "order.paid"}`, "application/json"},
		{"PATCH", endpoint, `{"url": "https://[::1]/hook"}`, "application/json"},
		{"PATCH", endpoint, `{"is_active": null}`, "application/json"},
		{"POST", endpoint + "resend/", `{}`, "application/json"},
		{"POST", endpoint + "resend/", `{"event_id": "x"}`, "application/json"},
		{"POST", endpoint + "resend/", `{"failed_since": "2999-01-01T00:00:00Z"}`, "application/json"},
		{"POST", endpoint + "resend/", `{"failed_since": 17}`, "application/json"},
	}
}
