package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/persistence/dbtest"
)

const webhookEndpoints = "/api/webhooks/endpoints/"

// TestWebhookEndpointsREST goes through an endpoint's life as a shop's
// administrator, with the refusals of its URL rule, tenancy and
// permission, on a server that allows the loopback network.
func TestWebhookEndpointsREST(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	ownerTok := CreateUser(t, dsn, "--username", "hook-owner", "--password", "hook-owner-pw", "--partner-name", "Shop",
		"--permission", domain.PermManageMasterAdmin)
	rivalTok := CreateUser(t, dsn, "--username", "hook-rival", "--password", "hook-rival-pw", "--partner-name", "Rival",
		"--permission", domain.PermManageMasterAdmin)
	readerTok := CreateUser(t, dsn, "--username", "hook-reader", "--password", "hook-reader-pw", "--partner-name", "Reader")
	staffTok := CreateUser(t, dsn, "--username", "hook-staff", "--password", "hook-staff-pw", "--staff")
	db := OpenDB(t, dsn)
	srv := Serve(t, dsn, "--data-dir", t.TempDir(), "--webhook-allowed-networks", "127.0.0.0/8")
	call := func(method, path, token, body string) Response {
		t.Helper()
		var h []string
		if token != "" {
			h = auth(token)
		}
		if body != "" {
			h = append(h, "Content-Type", "application/json")
		}
		return Do(t, method, srv.URL+path, body, h...)
	}

	res := call("POST", webhookEndpoints, ownerTok, `{"url": "http://127.0.0.1:9/hooks", "events": ["order.paid"], "description": "Backend"}`)
	if res.Status != 201 {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	created := res.JSON(t)
	secret, _ := created["secret"].(string)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Errorf("secret %q", secret)
	}
	path := webhookEndpoints + tourID(created["id"]) + "/"
	res = call("GET", path, ownerTok, "")
	if res.Status != 200 || strings.Contains(res.Body, "secret") || !strings.Contains(res.Body, `"events":["order.paid"]`) {
		t.Errorf("read: %d %s", res.Status, res.Body)
	}

	for body, want := range map[string]string{
		`{}`:                                `{"url": ["This field is required."]}`,
		`{"url": "https://10.0.0.1/hooks"}`: `{"url": ["This URL points to a loopback, private, link-local or otherwise reserved address."]}`,
		`{"url": "https://169.254.169.254/latest/meta-data/"}`:                              `{"url": ["This URL points to a loopback, private, link-local or otherwise reserved address."]}`,
		`{"url": "http://93.184.216.34/hooks"}`:                                             `{"url": ["Enter an https URL (http only for an allowed network)."]}`,
		`{"url": "http://127.0.0.1:9/", "events": ["order.shipped"], "is_active": "maybe"}`: `{"events": ["\"order.shipped\" is not a valid event type."], "is_active": ["Must be a valid boolean."]}`,
	} {
		WantResponse(t, call("POST", webhookEndpoints, ownerTok, body), 400, want)
	}
	WantResponse(t, call("PATCH", path, ownerTok, `{"url": "https://[::1]/"}`), 400,
		`{"url": ["This URL points to a loopback, private, link-local or otherwise reserved address."]}`)

	res = call("PATCH", path, ownerTok, `{"events": [], "is_active": false}`)
	if m := res.JSON(t); res.Status != 200 || m["is_active"] != false || len(m["events"].([]any)) != 0 || m["url"] != "http://127.0.0.1:9/hooks" {
		t.Errorf("patch: %d %s", res.Status, res.Body)
	}

	res = call("POST", path+"rotate_secret/", ownerTok, "")
	rotated, _ := res.JSON(t)["secret"].(string)
	if res.Status != 200 || rotated == secret || !strings.HasPrefix(rotated, "whsec_") {
		t.Errorf("rotate: %d %s", res.Status, res.Body)
	}
	var previous string
	var until time.Time
	gcMust(t, db.NewRaw(`SELECT previous_secret, previous_expires_at FROM webhook_endpoints WHERE id = ?`, created["id"]).
		Scan(context.Background(), &previous, &until))
	if previous != secret || time.Until(until) < 23*time.Hour || time.Until(until) > 24*time.Hour {
		t.Errorf("previous secret %q until %s: want the first secret for 24 hours", previous, until)
	}

	notFound, forbidden := `{"detail": "Not found."}`, `{"detail": "You do not have permission to perform this action."}`
	WantResponse(t, call("GET", path, rivalTok, ""), 404, notFound)
	WantResponse(t, call("DELETE", path, rivalTok, ""), 404, notFound)
	WantResponse(t, call("GET", webhookEndpoints, rivalTok, ""), 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
	WantResponse(t, call("GET", webhookEndpoints, readerTok, ""), 403, forbidden)
	WantResponse(t, call("GET", path, "", ""), 401, `{"detail": "Authentication credentials were not provided."}`)

	res = call("POST", webhookEndpoints, staffTok, `{"url": "http://127.0.0.1:9/platform"}`)
	if res.Status != 201 {
		t.Fatalf("staff's create: %d %s", res.Status, res.Body)
	}
	platform := webhookEndpoints + tourID(res.JSON(t)["id"]) + "/"
	WantResponse(t, call("GET", platform, ownerTok, ""), 404, notFound)
	if res := call("GET", webhookEndpoints, staffTok, ""); res.Status != 200 || res.JSON(t)["count"] != float64(2) {
		t.Errorf("staff's list: %d %s", res.Status, res.Body)
	}

	if res := call("DELETE", path, ownerTok, ""); res.Status != 204 || res.Body != "" {
		t.Errorf("delete: %d %q", res.Status, res.Body)
	}
	WantResponse(t, call("GET", path, ownerTok, ""), 404, notFound)
}
