package webhookdelivery_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
	"salesplatform/persistence/webhookclient"
	"salesplatform/persistence/webhooktest"
)

// admin gives the fixture's partner a user managing its endpoints, and a
// clerk who does not.
func (f *fixture) admin(t *testing.T, email string) {
	t.Helper()
	if _, err := f.db.ExecContext(t.Context(), `WITH u AS (
			INSERT INTO users (username, email, password_hash, partner_id) VALUES (?, ?, 'x', ?) RETURNING id)
		INSERT INTO user_permissions (user_id, permission_id) SELECT u.id, p.id FROM u, permissions p WHERE p.name = ?`,
		email, email, f.partner, domain.PermManageMasterAdmin); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.ExecContext(t.Context(), `INSERT INTO users (username, email, password_hash, partner_id) VALUES (?, ?, 'x', ?)`,
		"clerk-"+email, "clerk-"+email, f.partner); err != nil {
		t.Fatal(err)
	}
}

// waiting adds a delivery of a new event to endpoint that waits for a
// later attempt (no job of its own yet), and returns its id.
func (f *fixture) waiting(t *testing.T, endpoint int64) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(`WITH ev AS (INSERT INTO webhook_events (id, type, body) VALUES (?, 'order.paid', '{}') RETURNING id)
		INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT id, ? FROM ev RETURNING id`,
		uuid.New(), endpoint).Scan(t.Context(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

type endpointState struct {
	IsActive       bool       `bun:"is_active"`
	DisabledReason string     `bun:"disabled_reason"`
	FailingSince   *time.Time `bun:"failing_since"`
}

func (f *fixture) endpointState(t *testing.T, id int64) endpointState {
	t.Helper()
	var s endpointState
	if err := f.db.NewRaw(`SELECT is_active, disabled_reason, failing_since FROM webhook_endpoints WHERE id = ?`, id).
		Scan(t.Context(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGoneDisablesTheEndpoint(t *testing.T) {
	f := newFixture(t)
	f.admin(t, "ops@loire.example.com")
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret).Answering(webhooktest.Status(410, "no such hook"))
	e := f.endpoint(t, &f.partner, rc.URL, secret)
	other := f.waiting(t, e.ID)
	d := f.start(t, 0, nil)
	f.publish(t, map[string]any{"id": 1})

	rows := f.settled(t, 2)
	for _, r := range rows {
		if r.State != webhooks.StateFailed {
			t.Errorf("delivery %+v, want failed", r)
		}
	}
	if rows[0].ID != other || rows[0].Attempts != 0 {
		t.Errorf("the waiting delivery %+v was tried", rows[0])
	}
	if n := len(rc.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: no retry after 410", n)
	}
	if s := f.endpointState(t, e.ID); s.IsActive || s.DisabledReason != webhooks.ReasonGone {
		t.Errorf("endpoint %+v, want disabled for 410", s)
	}
	if a := f.attempts(t); len(a) != 1 || a[0].StatusCode != 410 || a[0].Response != "no such hook" || a[0].State != webhooks.StateFailed {
		t.Errorf("attempts %+v", a)
	}
	if n := counter(t, d, webhooks.OutcomeDisabled); n != 1 {
		t.Errorf("disabled counted %v times", n)
	}
	// Its administrator is told, not its clerk.
	mails := f.mailJobs(t)
	if len(mails) != 1 || mails[0]["to"] != "ops@loire.example.com" || mails[0]["kind"] != webhooks.KindEndpointDisabled ||
		!strings.Contains(mails[0]["text"].(string), "410 Gone") {
		t.Errorf("mails %v", mails)
	}
	// Later events are not kept for a disabled endpoint.
	f.publish(t, map[string]any{"id": 2})
	if n := len(f.deliveries(t)); n != 2 {
		t.Errorf("%d deliveries after a disabled endpoint's event, want 2", n)
	}
	// Enabled again, it loses its reason.
	stores := persistence.WebhookStores(f.db)
	again, err := stores.Endpoints.Endpoint(t.Context(), e.ID)
	if err != nil {
		t.Fatal(err)
	}
	again.IsActive = true
	if err := stores.Endpoints.UpdateEndpoint(t.Context(), again); err != nil {
		t.Fatal(err)
	}
	if s := f.endpointState(t, e.ID); !s.IsActive || s.DisabledReason != "" || s.FailingSince != nil {
		t.Errorf("endpoint enabled again: %+v", s)
	}
}

func TestEndpointFailingFiveDaysIsDisabled(t *testing.T) {
	f := newFixture(t)
	f.admin(t, "ops@loire.example.com")
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret).Answering(webhooktest.Status(500, "down"))
	partners := f.endpoint(t, &f.partner, rc.URL+"/partner", secret)
	platform := f.endpoint(t, nil, rc.URL+"/platform", secret)
	since := time.Now().Add(-webhooks.DisableAfter - time.Hour).UTC().Truncate(time.Second)
	if _, err := f.db.ExecContext(t.Context(), `UPDATE webhook_endpoints SET failing_since = ?`, since); err != nil {
		t.Fatal(err)
	}
	f.start(t, 0, nil)
	f.publish(t, map[string]any{"id": 1})

	rows := f.settled(t, 2)
	for _, r := range rows {
		if r.State != webhooks.StateFailed || r.Attempts != 1 {
			t.Errorf("delivery %+v, want failed at its first attempt", r)
		}
	}
	for _, id := range []int64{partners.ID, platform.ID} {
		s := f.endpointState(t, id)
		if s.IsActive || !strings.Contains(s.DisabledReason, since.Format(time.RFC3339)) || s.FailingSince != nil {
			t.Errorf("endpoint %d: %+v, want disabled, failing since %s", id, s, since)
		}
	}
	// The partner's administrator is told; the platform's endpoint is
	// disabled without a mail.
	mails := f.mailJobs(t)
	if len(mails) != 1 || mails[0]["to"] != "ops@loire.example.com" ||
		!strings.Contains(mails[0]["text"].(string), rc.URL+"/partner") {
		t.Errorf("mails %v, want one to the partner's administrator", mails)
	}
}

func TestFailingLessThanFiveDaysKeepsItsStart(t *testing.T) {
	f := newFixture(t)
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret).Answering(webhooktest.Status(500, "down"))
	e := f.endpoint(t, &f.partner, rc.URL, secret)
	since := time.Now().Add(-webhooks.DisableAfter + time.Hour).UTC().Truncate(time.Second)
	if _, err := f.db.ExecContext(t.Context(), `UPDATE webhook_endpoints SET failing_since = ?`, since); err != nil {
		t.Fatal(err)
	}
	f.start(t, 0, fast[:2])
	f.publish(t, map[string]any{"id": 1})
	f.settled(t, 1)
	s := f.endpointState(t, e.ID)
	if !s.IsActive || s.FailingSince == nil || !s.FailingSince.Equal(since) {
		t.Errorf("endpoint %+v, want active, failing since %s", s, since)
	}
	if mails := f.mailJobs(t); len(mails) != 0 {
		t.Errorf("mails %v", mails)
	}
}

func TestInactiveEndpointFailsUnsent(t *testing.T) {
	f := newFixture(t)
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	e := f.endpoint(t, &f.partner, rc.URL, secret)
	f.publish(t, map[string]any{"id": 1}) // queued while active
	if _, err := f.db.ExecContext(t.Context(), `UPDATE webhook_endpoints SET is_active = false WHERE id = ?`, e.ID); err != nil {
		t.Fatal(err)
	}
	f.start(t, 0, nil)
	rows := f.settled(t, 1)
	if rows[0].State != webhooks.StateFailed || rows[0].Attempts != 0 {
		t.Errorf("delivery %+v, want failed unsent", rows[0])
	}
	if n := len(rc.Requests()); n != 0 {
		t.Errorf("%d requests to an inactive endpoint", n)
	}
}

func TestPurgeDeletesPastTheRetention(t *testing.T) {
	f := newFixture(t)
	e := f.endpoint(t, &f.partner, "https://hooks.example.com/in", webhooktest.NewSecret(t))
	old := time.Now().Add(-webhooks.AttemptRetention - time.Hour)
	// An old event, delivered long ago; an old event resent lately; an
	// old event still waiting; a recent one.
	add := func(created time.Time, state string, tried time.Time) uuid.UUID {
		id := uuid.New()
		if _, err := f.db.ExecContext(t.Context(), `WITH ev AS (
				INSERT INTO webhook_events (id, type, body, created_at) VALUES (?, 'order.paid', '{}', ?) RETURNING id),
			d AS (INSERT INTO webhook_deliveries (event_id, endpoint_id, state, created_at, last_attempt_at, attempts)
				SELECT id, ?, ?, ?, ?, 1 FROM ev RETURNING id, event_id)
			INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, attempted_at, status_code, state)
				SELECT d.id, ?, d.event_id, ?, 200, ? FROM d`,
			id, created, e.ID, state, created, tried, e.ID, tried, state); err != nil {
			t.Fatal(err)
		}
		return id
	}
	gone := add(old, webhooks.StateSucceeded, old)
	resent := add(old, webhooks.StateSucceeded, time.Now().Add(-time.Hour))
	waiting := add(old, webhooks.StatePending, old)
	recent := add(time.Now(), webhooks.StateSucceeded, time.Now())

	svc := webhooks.NewDeliveryService(persistence.NewUnitOfWork(f.db, persistence.WebhookDeliveryStores), nil,
		func(a int) (time.Duration, bool) { return webhookclient.NextAttempt(a) })
	n, err := svc.Purge(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// gone's event (and its delivery and attempt), waiting's old attempt.
	if n != 3 {
		t.Errorf("purged %d rows, want 3", n)
	}
	var events []uuid.UUID
	if err := f.db.NewRaw(`SELECT id FROM webhook_events ORDER BY created_at, id`).Scan(t.Context(), &events); err != nil {
		t.Fatal(err)
	}
	want := map[uuid.UUID]bool{resent: true, waiting: true, recent: true}
	if len(events) != 3 || !want[events[0]] || !want[events[1]] || !want[events[2]] {
		t.Errorf("events kept %v, want all but %s", events, gone)
	}
	var attempts int
	if err := f.db.NewRaw(`SELECT count(*) FROM webhook_attempts`).Scan(t.Context(), &attempts); err != nil || attempts != 2 {
		t.Errorf("%d attempts kept (%v), want resent's and recent's", attempts, err)
	}
}

func TestPurgeRunsOnStart(t *testing.T) {
	f := newFixture(t)
	if _, err := f.db.ExecContext(t.Context(), `INSERT INTO webhook_events (id, type, body, created_at) VALUES (?, 'order.paid', '{}', ?)`,
		uuid.New(), time.Now().Add(-webhooks.AttemptRetention-time.Hour)); err != nil {
		t.Fatal(err)
	}
	f.start(t, 0, nil)
	waitFor(t, "purged", func() bool {
		var n int
		if err := f.db.NewRaw(`SELECT count(*) FROM webhook_events`).Scan(t.Context(), &n); err != nil {
			t.Fatal(err)
		}
		return n == 0
	})
}

// A settle holding its endpoint's row does not hold up a change that
// publishes an event to that endpoint.
func TestSettleDoesNotBlockPublishing(t *testing.T) {
	f := newFixture(t)
	e := f.endpoint(t, &f.partner, "https://hooks.example.com/in", webhooktest.NewSecret(t))
	tx, err := f.db.BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := persistence.WebhookDeliveryStores(tx).Deliveries.LockHealth(t.Context(), e.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- f.publishTx(t, map[string]any{"id": 1}, nil) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("publishing waited for the settle's lock")
	}
}

// A partner without an administrator with an address is told at its
// agency address; one with neither is not mailed.
func TestContactsFallBackToTheAgency(t *testing.T) {
	f := newFixture(t)
	store := persistence.WebhookDeliveryStores(f.db).Deliveries
	if to, err := store.Contacts(t.Context(), f.partner, webhooks.MaxContacts); err != nil || len(to) != 0 {
		t.Errorf("no contact: %v, %v", to, err)
	}
	if _, err := f.db.ExecContext(t.Context(), `INSERT INTO partner_legal_information (partner_id, agency_email) VALUES (?, ?)`,
		f.partner, "agency@loire.example.com"); err != nil {
		t.Fatal(err)
	}
	if to, err := store.Contacts(t.Context(), f.partner, webhooks.MaxContacts); err != nil || len(to) != 1 || to[0] != "agency@loire.example.com" {
		t.Errorf("agency: %v, %v", to, err)
	}
	f.admin(t, "ops@loire.example.com")
	f.admin(t, "cto@loire.example.com")
	if to, err := store.Contacts(t.Context(), f.partner, 1); err != nil || len(to) != 1 || to[0] != "ops@loire.example.com" {
		t.Errorf("administrators, at most 1: %v, %v", to, err)
	}
}

// A delivery failed by its endpoint's disabling while its job waits for
// a retry, then sent again once the endpoint is enabled, is tried by the
// resend's job alone: the old job, when its time comes, sends nothing.
func TestResendSupersedesTheWaitingJob(t *testing.T) {
	f := newFixture(t)
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret).Answering(webhooktest.Status(503, "busy"))
	e := f.endpoint(t, &f.partner, rc.URL, secret)
	// The first job's retry must come after the resend: a slow machine
	// takes a few hundred milliseconds over the steps between.
	schedule := []time.Duration{0, 1500 * time.Millisecond, 1500 * time.Millisecond}
	f.start(t, 0, schedule)
	f.publish(t, map[string]any{"id": 1})
	waitFor(t, "tried once", func() bool { r := f.deliveries(t); return len(r) == 1 && r[0].Attempts == 1 })

	// Disabled (as by another delivery's 410), enabled, and sent again,
	// before the first job's retry.
	uow := persistence.NewUnitOfWork(f.db, persistence.WebhookDeliveryStores)
	if err := uow.RunInTx(t.Context(), func(ctx context.Context, tx webhooks.DeliveryStores) error {
		_, err := tx.Deliveries.Disable(ctx, e.ID, webhooks.ReasonGone)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.ExecContext(t.Context(), `UPDATE webhook_endpoints SET is_active = true WHERE id = ?`, e.ID); err != nil {
		t.Fatal(err)
	}
	event := uuid.MustParse(f.deliveries(t)[0].EventID)
	resend := persistence.NewUnitOfWork(f.db, persistence.WebhookStores)
	if err := resend.RunInTx(t.Context(), func(ctx context.Context, tx webhooks.Stores) error {
		n, err := tx.Attempts.ResendEvent(ctx, e.ID, event, 1)
		if err == nil && n != 1 {
			err = fmt.Errorf("resent %d deliveries, want 1", n)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}

	rows := f.settled(t, 1)
	waitFor(t, "every job ended", func() bool {
		var waiting int
		if err := f.db.NewRaw(`SELECT count(*) FROM river_job WHERE kind = 'webhook'
			AND state NOT IN ('completed', 'cancelled', 'discarded')`).Scan(t.Context(), &waiting); err != nil {
			t.Fatal(err)
		}
		return waiting == 0
	})
	if rows[0].State != webhooks.StateFailed || rows[0].Attempts != len(schedule) {
		t.Errorf("delivery %+v, want failed after the resend's %d attempts", rows[0], len(schedule))
	}
	// The first attempt, then the resend's three.
	if n := len(rc.Requests()); n != 1+len(schedule) {
		t.Errorf("%d requests, want %d", n, 1+len(schedule))
	}
}
