package webhookdelivery_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"salesplatform/domain/webhooks"
	"salesplatform/persistence/webhooktest"
)

func TestDeliversEachEventOnceVerified(t *testing.T) {
	f := newFixture(t)
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	e := f.endpoint(t, &f.partner, rc.URL+"/hooks", secret)
	d := f.start(t, 0, nil)
	f.publish(t, map[string]any{"id": 1}, map[string]any{"id": 2}, map[string]any{"id": 3})

	rows := f.settled(t, 3)
	got := rc.Requests()
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	ids := map[string]bool{}
	for _, g := range got {
		if g.Errs[0] != nil {
			t.Errorf("reference Verify: %v", g.Errs[0])
		}
		id := g.Header.Get("webhook-id")
		ids[id] = true
		var body string
		if err := f.db.NewRaw(`SELECT body FROM webhook_events WHERE id = ?::uuid`, id).Scan(t.Context(), &body); err != nil {
			t.Fatalf("webhook-id %q is no event: %v", id, err)
		}
		if string(g.Body) != body {
			t.Errorf("body = %s, want the event's %s", g.Body, body)
		}
		// webhook-timestamp is the attempt's time.
		ts, _ := strconv.ParseInt(g.Header.Get("webhook-timestamp"), 10, 64)
		if d := g.At.Unix() - ts; d < 0 || d > 2 {
			t.Errorf("webhook-timestamp %d, received at %d", ts, g.At.Unix())
		}
	}
	if len(ids) != 3 {
		t.Errorf("webhook-ids %v, want 3 distinct", ids)
	}
	for _, r := range rows {
		if r.State != webhooks.StateSucceeded || r.Attempts != 1 || r.LastAttemptAt == nil {
			t.Errorf("delivery %+v, want succeeded after one attempt", r)
		}
	}
	for _, a := range f.attempts(t) {
		if a.StatusCode != 200 || a.Response != "ok" || a.Error != "" || a.State != webhooks.StateSucceeded || a.DurationMS < 0 {
			t.Errorf("attempt %+v", a)
		}
	}
	if n := counter(t, d, webhooks.OutcomeSucceeded); n != 3 {
		t.Errorf("succeeded counted %v times, want 3", n)
	}
	var failing *time.Time
	if err := f.db.NewRaw(`SELECT failing_since FROM webhook_endpoints WHERE id = ?`, e.ID).Scan(t.Context(), &failing); err != nil || failing != nil {
		t.Errorf("failing_since = %v (%v), want none", failing, err)
	}
}

func TestRetriesAfterErrorAndTimeoutKeepTheID(t *testing.T) {
	f := newFixture(t)
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret).Answering(func(n int, w http.ResponseWriter, _ *http.Request) {
		switch n {
		case 0:
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte("database down"))
		case 1:
			time.Sleep(800 * time.Millisecond) // past the client's timeout
		}
	})
	e := f.endpoint(t, &f.partner, rc.URL, secret)
	d := f.start(t, 300*time.Millisecond, nil)
	f.publish(t, map[string]any{"id": 7})

	rows := f.settled(t, 1)
	if rows[0].State != webhooks.StateSucceeded || rows[0].Attempts != 3 {
		t.Fatalf("delivery %+v, want succeeded at the third attempt", rows[0])
	}
	got := rc.Requests()
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	for i, g := range got {
		if g.Header.Get("webhook-id") != got[0].Header.Get("webhook-id") || string(g.Body) != string(got[0].Body) {
			t.Errorf("attempt %d: webhook-id %q, body %s differ from the first's", i+1, g.Header.Get("webhook-id"), g.Body)
		}
		if g.Errs[0] != nil {
			t.Errorf("attempt %d: reference Verify: %v", i+1, g.Errs[0])
		}
	}
	a := f.attempts(t)
	if len(a) != 3 {
		t.Fatalf("%d attempts recorded, want 3", len(a))
	}
	if a[0].StatusCode != 500 || a[0].Response != "database down" || a[0].State != webhooks.StatePending {
		t.Errorf("first attempt %+v", a[0])
	}
	if a[1].StatusCode != 0 || !strings.Contains(a[1].Error, "deadline") || a[1].DurationMS < 250 || a[1].State != webhooks.StatePending {
		t.Errorf("second attempt %+v, want a timeout", a[1])
	}
	if a[2].StatusCode != 200 || a[2].State != webhooks.StateSucceeded {
		t.Errorf("third attempt %+v", a[2])
	}
	if n := counter(t, d, webhooks.OutcomeRetry); n != 2 {
		t.Errorf("retry counted %v times, want 2", n)
	}
	// The success cleared the failure the first attempt marked.
	var failing *time.Time
	if err := f.db.NewRaw(`SELECT failing_since FROM webhook_endpoints WHERE id = ?`, e.ID).Scan(t.Context(), &failing); err != nil || failing != nil {
		t.Errorf("failing_since = %v (%v), want cleared", failing, err)
	}
}

func TestLastAttemptFailsTheDelivery(t *testing.T) {
	f := newFixture(t)
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret).Answering(webhooktest.Status(503, "busy"))
	e := f.endpoint(t, &f.partner, rc.URL, secret)
	d := f.start(t, 0, fast[:3])
	f.publish(t, map[string]any{"id": 1})

	rows := f.settled(t, 1)
	if rows[0].State != webhooks.StateFailed || rows[0].Attempts != 3 {
		t.Fatalf("delivery %+v, want failed after 3 attempts", rows[0])
	}
	time.Sleep(200 * time.Millisecond) // no fourth attempt comes
	if n := len(rc.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if n := counter(t, d, webhooks.OutcomeFailed); n != 1 {
		t.Errorf("failed counted %v times, want 1", n)
	}
	// Failing for less than 5 days leaves the endpoint active.
	var active bool
	if err := f.db.NewRaw(`SELECT is_active FROM webhook_endpoints WHERE id = ?`, e.ID).Scan(t.Context(), &active); err != nil || !active {
		t.Errorf("is_active = %v (%v)", active, err)
	}
}

func TestRolledBackEventIsNeverDelivered(t *testing.T) {
	f := newFixture(t)
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	f.endpoint(t, &f.partner, rc.URL, secret)
	f.start(t, 0, nil)

	refused := errors.New("the change failed")
	if err := f.publishTx(t, map[string]any{"id": "rolled back"}, func() error { return refused }); !errors.Is(err, refused) {
		t.Fatalf("publish = %v", err)
	}
	f.publish(t, map[string]any{"id": "committed"})
	f.settled(t, 1)
	time.Sleep(300 * time.Millisecond)
	got := rc.Requests()
	if len(got) != 1 || !strings.Contains(string(got[0].Body), `"committed"`) {
		t.Fatalf("received %d requests, want the committed event's only", len(got))
	}
}

func TestRotatedSecretVerifiesUnderEither(t *testing.T) {
	f := newFixture(t)
	oldSecret, newSecret := webhooktest.NewSecret(t), webhooktest.NewSecret(t)
	// Two receivers: one still holding the old secret, one holding the new.
	oldRC, newRC := webhooktest.New(t, oldSecret), webhooktest.New(t, newSecret)
	until := time.Now().Add(webhooks.SecretOverlap)
	for _, url := range []string{oldRC.URL, newRC.URL} {
		e := f.endpoint(t, &f.partner, url, newSecret)
		if _, err := f.db.NewRaw(`UPDATE webhook_endpoints SET previous_secret = ?, previous_expires_at = ? WHERE id = ?`,
			oldSecret, until, e.ID).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	f.start(t, 0, nil)
	f.publish(t, map[string]any{"id": 1})
	f.settled(t, 2)
	for name, rc := range map[string]*webhooktest.Receiver{"old secret": oldRC, "new secret": newRC} {
		got := rc.Requests()
		if len(got) != 1 || got[0].Errs[0] != nil {
			t.Errorf("receiver with the %s: %d requests, verdicts %v", name, len(got), got)
		}
		if sigs := strings.Fields(got[0].Header.Get("webhook-signature")); len(sigs) != 2 {
			t.Errorf("webhook-signature %q, want two during the overlap", got[0].Header.Get("webhook-signature"))
		}
	}

	// Once the old secret expires, the old secret's receiver refuses.
	if _, err := f.db.NewRaw(`UPDATE webhook_endpoints SET previous_expires_at = now() - interval '1 second'`).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.publish(t, map[string]any{"id": 2})
	f.settled(t, 4)
	if got := oldRC.Requests(); len(got) < 2 || !errors.Is(got[1].Errs[0], standardwebhooks.ErrNoMatchingSignature) {
		t.Errorf("after expiry the old secret still verifies: %v", got)
	}
	if got := newRC.Requests(); len(got) != 2 || got[1].Errs[0] != nil {
		t.Errorf("after expiry the new secret: %v", got)
	}
}

func TestTwoReplicasDeliverEachEventOnce(t *testing.T) {
	f := newFixture(t)
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret).Answering(func(int, http.ResponseWriter, *http.Request) { time.Sleep(10 * time.Millisecond) })
	f.endpoint(t, &f.partner, rc.URL, secret)
	a, b := f.start(t, 0, nil), f.start(t, 0, nil)
	const n = 40
	for i := range n {
		f.publish(t, map[string]any{"id": i})
	}
	f.settled(t, n)
	time.Sleep(300 * time.Millisecond)
	seen := map[string]int{}
	for _, g := range rc.Requests() {
		seen[g.Header.Get("webhook-id")]++
		if g.Errs[0] != nil {
			t.Errorf("reference Verify: %v", g.Errs[0])
		}
	}
	if len(seen) != n {
		t.Errorf("%d events received, want %d", len(seen), n)
	}
	for id, c := range seen {
		if c != 1 {
			t.Errorf("event %s received %d times", id, c)
		}
	}
	ca, cb := counter(t, a, webhooks.OutcomeSucceeded), counter(t, b, webhooks.OutcomeSucceeded)
	if ca+cb != n {
		t.Errorf("replicas counted %v + %v successes, want %d", ca, cb, n)
	}
	t.Logf("replica A delivered %v, replica B %v", ca, cb)
}

func TestBacklogCapDropsTheDelivery(t *testing.T) {
	f := newFixture(t)
	e := f.endpoint(t, &f.partner, "https://hooks.example.com/in", webhooktest.NewSecret(t))
	// The endpoint's backlog is full: MaxBacklog deliveries wait.
	if _, err := f.db.ExecContext(t.Context(), `WITH ev AS (
			INSERT INTO webhook_events (id, type, body) SELECT gen_random_uuid(), 'order.paid', '{}' FROM generate_series(1, ?)
			RETURNING id)
		INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT id, ? FROM ev`, webhooks.MaxBacklog, e.ID); err != nil {
		t.Fatal(err)
	}
	f.publish(t, map[string]any{"id": "one too many"})
	var state string
	var jobs int
	if err := f.db.NewRaw(`SELECT d.state, (SELECT count(*) FROM river_job j WHERE j.kind = 'webhook' AND (j.args->>'delivery_id')::bigint = d.id)
		FROM webhook_deliveries d ORDER BY d.id DESC LIMIT 1`).Scan(t.Context(), &state, &jobs); err != nil {
		t.Fatal(err)
	}
	if state != webhooks.StateDropped || jobs != 0 {
		t.Errorf("the delivery past the cap is %s with %d jobs, want dropped with none", state, jobs)
	}
}

// mailJobs are the queued mails' recipients and subjects.
func (f *fixture) mailJobs(t *testing.T) []map[string]any {
	t.Helper()
	var args []json.RawMessage
	if err := f.db.NewRaw(`SELECT args FROM river_job WHERE kind = 'mail' ORDER BY id`).Scan(t.Context(), &args); err != nil {
		t.Fatal(err)
	}
	out := make([]map[string]any, len(args))
	for i, a := range args {
		if err := json.Unmarshal(a, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
