package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/persistence/dbtest"
)

const (
	hookFields = `id legacyId url events description isActive createdOn`
	hookErrors = `errors { field code message } userErrors { field code message }`
	hookCreate = `mutation($in: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $in) {
		endpoint { ` + hookFields + ` } secret ` + hookErrors + ` } }`
	hookUpdate = `mutation($in: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $in) {
		endpoint { ` + hookFields + ` } ` + hookErrors + ` } }`
	hookRotate = `mutation($id: ID!) { rotateWebhookEndpointSecret(input: {id: $id}) { endpoint { legacyId } secret ` + hookErrors + ` } }`
	hookDelete = `mutation($id: ID!) { deleteWebhookEndpoint(input: {id: $id}) { deletedEndpointId ` + hookErrors + ` } }`
	hookTest   = `mutation($id: ID!) { sendWebhookTestEvent(input: {id: $id}) { eventId ` + hookErrors + ` } }`
	hookResend = `mutation($in: ResendWebhookEventsInput!) { resendWebhookEvents(input: $in) { resent ` + hookErrors + ` } }`
	hookRead   = `query($id: ID!) { webhookEndpoint(id: $id) { ` + hookFields + ` } }`
	hookList   = `{ webhookEndpoints(first: 10) { totalCount edges { node { legacyId } } } }`
	hookTypes  = `{ webhookEventTypes(first: 100) { totalCount edges { node { type description } } } }`
	hookLog    = `query($id: ID!, $event: UUID) { webhookAttempts(endpointId: $id, event: $event, first: 10) {
		totalCount edges { node { id legacyId eventId eventType attemptedAt statusCode durationMs response error state } } } }`
)

// hookGraph is a server with two partners' administrators, and a
// receiver of their webhooks that answers 204.
type hookGraph struct {
	*shopFixture
	receiver string
}

func newHookGraph(t *testing.T) *hookGraph {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	owner := CreateUser(t, dsn, "--username", "hook-graph-owner", "--password", "hook-graph-owner-pw", "--partner-name", "Shop",
		"--permission", domain.PermManageMasterAdmin)
	rival := CreateUser(t, dsn, "--username", "hook-graph-rival", "--password", "hook-graph-rival-pw", "--partner-name", "Rival",
		"--permission", domain.PermManageMasterAdmin)
	srv := Serve(t, dsn, "--data-dir", t.TempDir(), "--webhook-allowed-networks", "127.0.0.0/8")
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) }))
	t.Cleanup(receiver.Close)
	return &hookGraph{shopFixture: &shopFixture{Server: srv, ownerTok: owner, rivalTok: rival}, receiver: receiver.URL}
}

// hookPayload is a mutation's payload, failing on GraphQL errors.
func (f *hookGraph) hookPayload(t *testing.T, token, query, field string, vars map[string]any) map[string]any {
	t.Helper()
	return dig(f.mustGraph(t, token, query, vars), field).(map[string]any)
}

// wantHookErrors fails unless the payload's typed errors are want, as
// "field.path CODE", and its userErrors as many.
func wantHookErrors(t *testing.T, what string, p map[string]any, want ...string) {
	t.Helper()
	var got []string
	for _, e := range p["errors"].([]any) {
		m := e.(map[string]any)
		var path []string
		for _, s := range m["field"].([]any) {
			path = append(path, s.(string))
		}
		got = append(got, strings.Join(path, ".")+" "+m["code"].(string))
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") || len(p["userErrors"].([]any)) != len(want) {
		t.Errorf("%s: errors %v (userErrors %v), want %v", what, got, p["userErrors"], want)
	}
}

// The graph's webhooks run the REST routes' service: an endpoint made,
// read, changed, tested, its attempts read and its event resent, its
// secret shown on create and rotation only; refusals are typed errors on
// the input's fields; another partner's endpoint is NOT_FOUND.
func TestGraphWebhooks(t *testing.T) {
	t.Parallel()
	f := newHookGraph(t)
	p := f.hookPayload(t, f.ownerTok, hookCreate, "createWebhookEndpoint", map[string]any{"in": map[string]any{
		"url": f.receiver + "/hooks", "events": []any{"order.paid"}, "description": "Backend"}})
	wantHookErrors(t, "create", p)
	secret, _ := p["secret"].(string)
	e := p["endpoint"].(map[string]any)
	id := e["legacyId"].(string)
	gid := globalID("WebhookEndpoint", id)
	if !strings.HasPrefix(secret, "whsec_") || e["id"] != gid || e["isActive"] != true {
		t.Fatalf("created %v, secret %q", e, secret)
	}
	rest := f.call(t, http.MethodGet, webhookEndpoints+id+"/", f.ownerTok, "").JSON(t)
	if rest["url"] != e["url"] || rest["description"] != "Backend" {
		t.Errorf("REST reads %v, the graph made %v", rest, e)
	}
	wantSame(t, "read", dig(f.mustGraph(t, f.ownerTok, hookRead, map[string]any{"id": id}), "webhookEndpoint"), e)
	node := f.mustGraph(t, f.ownerTok, `query($id: ID!) { node(id: $id) { __typename ... on WebhookEndpoint { url } } }`,
		map[string]any{"id": gid})
	if dig(node, "node", "__typename") != "WebhookEndpoint" || dig(node, "node", "url") != e["url"] {
		t.Errorf("node: %v", node)
	}
	if n := dig(f.mustGraph(t, f.ownerTok, hookList, nil), "webhookEndpoints", "totalCount"); n != float64(1) {
		t.Errorf("webhookEndpoints: %v endpoints", n)
	}
	types := dig(f.mustGraph(t, f.ownerTok, hookTypes, nil), "webhookEventTypes").(map[string]any)
	first := types["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)
	if types["totalCount"] != float64(len(webhooks.Catalog)) || first["type"] != webhooks.Catalog[0].Type ||
		first["description"] != webhooks.Catalog[0].Description {
		t.Errorf("webhookEventTypes: %v", types)
	}

	// Refusals name the input's fields.
	p = f.hookPayload(t, f.ownerTok, hookUpdate, "updateWebhookEndpoint", map[string]any{"in": map[string]any{
		"id": gid, "url": "https://10.0.0.1/hooks", "events": []any{"order.shipped"}}})
	wantHookErrors(t, "update", p, "input.url INVALID", "input.events INVALID")
	p = f.hookPayload(t, f.ownerTok, hookResend, "resendWebhookEvents", map[string]any{"in": map[string]any{"endpointId": id}})
	wantHookErrors(t, "resend of nothing", p, "input INVALID")
	p = f.hookPayload(t, f.ownerTok, hookResend, "resendWebhookEvents", map[string]any{"in": map[string]any{
		"endpointId": id, "failedSince": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}})
	wantHookErrors(t, "resend from the future", p, "input.failedSince MAX_VALUE")

	// The test event reaches the endpoint; its attempt is in the log, and
	// it is sent again on demand.
	p = f.hookPayload(t, f.ownerTok, hookTest, "sendWebhookTestEvent", map[string]any{"id": gid})
	wantHookErrors(t, "test", p)
	event, _ := p["eventId"].(string)
	var log map[string]any
	waitUntil(t, "the test event's attempt", func() bool {
		log = dig(f.mustGraph(t, f.ownerTok, hookLog, map[string]any{"id": gid, "event": event}), "webhookAttempts").(map[string]any)
		return log["totalCount"] == float64(1)
	})
	a := log["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)
	if a["eventId"] != event || a["eventType"] != "webhook.test" || a["statusCode"] != float64(204) || a["state"] != "succeeded" ||
		a["id"] != globalID("WebhookAttempt", a["legacyId"]) {
		t.Errorf("attempt %v", a)
	}
	p = f.hookPayload(t, f.ownerTok, hookResend, "resendWebhookEvents", map[string]any{"in": map[string]any{"endpointId": gid, "eventId": event}})
	if wantHookErrors(t, "resend", p); p["resent"] != float64(1) {
		t.Errorf("resend: %v", p)
	}

	// Another partner's endpoint is not found, and nothing is sent.
	for _, op := range []struct {
		query string
		vars  map[string]any
	}{
		{hookRead, map[string]any{"id": gid}},
		{hookLog, map[string]any{"id": gid}},
		{hookTest, map[string]any{"id": gid}},
		{hookRotate, map[string]any{"id": gid}},
		{hookDelete, map[string]any{"id": gid}},
		{hookResend, map[string]any{"in": map[string]any{"endpointId": gid, "eventId": event}}},
		{hookUpdate, map[string]any{"in": map[string]any{"id": gid, "isActive": false}}},
	} {
		data, errs := f.graph(t, f.rivalTok, op.query, op.vars)
		wantGraphCode(t, errs, "NOT_FOUND")
		if b, _ := json.Marshal(data); strings.Contains(string(b), secret) || strings.Contains(string(b), "/hooks") {
			t.Errorf("the rival saw %s", b)
		}
	}

	// Rotation shows the new secret; an inactive endpoint gets no test.
	p = f.hookPayload(t, f.ownerTok, hookRotate, "rotateWebhookEndpointSecret", map[string]any{"id": gid})
	if s, _ := p["secret"].(string); !strings.HasPrefix(s, "whsec_") || s == secret {
		t.Errorf("rotated secret %q (was %q)", s, secret)
	}
	p = f.hookPayload(t, f.ownerTok, hookUpdate, "updateWebhookEndpoint", map[string]any{"in": map[string]any{"id": id, "isActive": false}})
	wantHookErrors(t, "deactivate", p)
	p = f.hookPayload(t, f.ownerTok, hookTest, "sendWebhookTestEvent", map[string]any{"id": gid})
	wantHookErrors(t, "test of an inactive endpoint", p, "input INVALID")
	p = f.hookPayload(t, f.ownerTok, hookDelete, "deleteWebhookEndpoint", map[string]any{"id": id})
	if p["deletedEndpointId"] != gid {
		t.Errorf("delete: %v", p)
	}
	_, errs := f.graph(t, f.ownerTok, hookRead, map[string]any{"id": gid})
	wantGraphCode(t, errs, "NOT_FOUND")
}
