package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/persistence/dbtest"
)

// TestWebhookAttemptsREST sends an endpoint its test event, which fails,
// reads the attempts, resends the event once the receiver answers, and
// checks the resend's refusals and another partner's 404.
func TestWebhookAttemptsREST(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	ownerTok := CreateUser(t, dsn, "--username", "hook-log-owner", "--password", "hook-log-owner-pw", "--partner-name", "Shop",
		"--permission", domain.PermManageMasterAdmin)
	rivalTok := CreateUser(t, dsn, "--username", "hook-log-rival", "--password", "hook-log-rival-pw", "--partner-name", "Rival",
		"--permission", domain.PermManageMasterAdmin)
	srv := Serve(t, dsn, "--data-dir", t.TempDir(), "--webhook-allowed-networks", "127.0.0.0/8",
		"--webhook-retry-schedule", "100ms")
	var status atomic.Int32
	status.Store(500)
	var received atomic.Int32
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received.Add(1)
		w.WriteHeader(int(status.Load()))
		_, _ = w.Write([]byte("busy"))
	}))
	t.Cleanup(receiver.Close)
	call := func(method, path, token, body string) Response {
		t.Helper()
		h := auth(token)
		if body != "" {
			h = append(h, "Content-Type", "application/json")
		}
		return Do(t, method, srv.URL+path, body, h...)
	}
	res := call("POST", webhookEndpoints, ownerTok, `{"url": "`+receiver.URL+`/hooks", "events": ["order.paid"]}`)
	if res.Status != 201 {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	path := webhookEndpoints + tourID(res.JSON(t)["id"]) + "/"

	// The test event reaches the endpoint though it subscribes to
	// order.paid only; both attempts of its schedule fail.
	res = call("POST", path+"test/", ownerTok, "")
	if res.Status != 202 {
		t.Fatalf("test: %d %s", res.Status, res.Body)
	}
	event, _ := res.JSON(t)["event_id"].(string)
	var attempts []map[string]any
	waitUntil(t, "the test event failed", func() bool {
		attempts = attemptList(t, call("GET", path+"attempts/?event="+event, ownerTok, ""))
		return len(attempts) == 2 && attempts[0]["state"] == "failed"
	})
	last := attempts[0]
	if last["event_id"] != event || last["event_type"] != "webhook.test" || last["status_code"] != float64(500) ||
		last["response"] != "busy" || last["error"] != "" || attempts[1]["state"] != "pending" {
		t.Errorf("attempts %v", attempts)
	}
	if _, ok := last["duration_ms"].(float64); !ok {
		t.Errorf("duration_ms %v", last["duration_ms"])
	}
	if _, err := time.Parse(time.RFC3339Nano, last["attempted_at"].(string)); err != nil {
		t.Errorf("attempted_at: %v", err)
	}

	// Resent once the receiver answers, it succeeds.
	status.Store(204)
	WantResponse(t, call("POST", path+"resend/", ownerTok, `{"event_id": "`+event+`"}`), 202, `{"resent": 1}`)
	waitUntil(t, "the resent event succeeded", func() bool {
		attempts = attemptList(t, call("GET", path+"attempts/", ownerTok, ""))
		return len(attempts) == 3 && attempts[0]["state"] == "succeeded"
	})
	if received.Load() != 3 {
		t.Errorf("%d requests received, want 3", received.Load())
	}
	since := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	WantResponse(t, call("POST", path+"resend/", ownerTok, `{"failed_since": "`+since+`"}`), 202, `{"resent": 0}`)

	for body, want := range map[string]string{
		`{}`: `{"non_field_errors": ["Give either event_id or failed_since."]}`,
		`{"event_id": "` + event + `", "failed_since": "` + since + `"}`: `{"non_field_errors": ["Give either event_id or failed_since."]}`,
		`{"event_id": "x"}`:                        `{"event_id": ["Must be a valid UUID."]}`,
		`{"event_id": null}`:                       `{"event_id": ["This field may not be null."]}`,
		`{"failed_since": "yesterday"}`:            `{"failed_since": ["` + msgDateTimeE2E + `"]}`,
		`{"failed_since": "2999-01-01T00:00:00Z"}`: `{"failed_since": ["Ensure this date-time is not in the future."]}`,
	} {
		WantResponse(t, call("POST", path+"resend/", ownerTok, body), 400, want)
	}
	WantResponse(t, call("POST", path+"resend/", ownerTok, `{"event_id": "00000000-0000-0000-0000-000000000000"}`), 404,
		`{"detail": "Not found."}`)
	WantResponse(t, call("GET", path+"attempts/?event=x", ownerTok, ""), 400, `{"event": ["Must be a valid UUID."]}`)

	// Another partner's endpoint is not found.
	WantResponse(t, call("GET", path+"attempts/", rivalTok, ""), 404, `{"detail": "Not found."}`)
	WantResponse(t, call("POST", path+"resend/", rivalTok, `{"event_id": "`+event+`"}`), 404, `{"detail": "Not found."}`)
	WantResponse(t, call("POST", path+"test/", rivalTok, ""), 404, `{"detail": "Not found."}`)

	// An inactive endpoint is sent nothing.
	if res := call("PATCH", path, ownerTok, `{"is_active": false}`); res.Status != 200 {
		t.Fatalf("deactivate: %d %s", res.Status, res.Body)
	}
	WantResponse(t, call("POST", path+"test/", ownerTok, ""), 400,
		`{"non_field_errors": ["This endpoint is inactive: activate it first."]}`)
	if !strings.Contains(call("GET", path+"attempts/?page_size=1", ownerTok, "").Body, `"next":"http`) {
		t.Error("the attempts' first page of 1 links no next page")
	}
}

// attemptList is the results of a page of attempts.
func attemptList(t *testing.T, res Response) []map[string]any {
	t.Helper()
	if res.Status != 200 {
		t.Fatalf("attempts: %d %s", res.Status, res.Body)
	}
	var page struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(res.Body), &page); err != nil {
		t.Fatal(err)
	}
	return page.Results
}

const msgDateTimeE2E = "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
