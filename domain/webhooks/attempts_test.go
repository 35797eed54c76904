package webhooks_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/webhookclient"
)

// logFixture is an endpoint of the shop with events published to it.
type logFixture struct {
	*fixture
	endpoint *webhooks.Endpoint
	receiver *receiverStub
	delivery *webhooks.DeliveryService
}

func newLogFixture(t *testing.T) *logFixture {
	t.Helper()
	f := &logFixture{fixture: newFixture(t), receiver: &receiverStub{}}
	dbtest.UseJSONWebhooks()
	e, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/in"))
	if err != nil {
		t.Fatal(err)
	}
	f.endpoint = e
	f.delivery = webhooks.NewDeliveryService(persistence.NewUnitOfWork(f.db, persistence.WebhookDeliveryStores), f.receiver,
		webhookclient.NextAttempt)
	return f
}

// publish publishes an order.paid to the shop and returns its event and
// its delivery to the endpoint.
func (f *logFixture) publish(t *testing.T) (uuid.UUID, int64) {
	t.Helper()
	err := persistence.NewUnitOfWork(f.db, persistence.NewWebhookEvents).RunInTx(t.Context(), func(ctx context.Context, p *persistence.WebhookEvents) error {
		return p.Publish(ctx, webhooks.Event{Type: "order.paid", Partners: []int64{f.shop.ID}, Resource: map[string]int{"id": 1}})
	})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		ID    int64     `bun:"id"`
		Event uuid.UUID `bun:"event_id"`
	}
	if err := f.db.NewRaw(`SELECT id, event_id FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY id DESC LIMIT 1`,
		f.endpoint.ID).Scan(t.Context(), &d); err != nil {
		t.Fatal(err)
	}
	return d.Event, d.ID
}

// attempt makes an attempt of delivery answered status.
func (f *logFixture) attempt(t *testing.T, delivery int64, status int) {
	t.Helper()
	verdict := webhooks.VerdictRetry
	if status/100 == 2 {
		verdict = webhooks.VerdictSucceeded
	}
	f.receiver.result = webhooks.SendResult{StatusCode: status, Duration: 42 * time.Millisecond, Response: "ok", Verdict: verdict}
	if _, err := f.delivery.Deliver(t.Context(), delivery, 0, 1); err != nil {
		t.Fatal(err)
	}
}

// setState sets a delivery's state and attempts as its worker would have.
func (f *logFixture) setState(t *testing.T, delivery int64, state string) {
	t.Helper()
	if _, err := f.db.ExecContext(t.Context(), `UPDATE webhook_deliveries SET state = ?, attempts = 8 WHERE id = ?`,
		state, delivery); err != nil {
		t.Fatal(err)
	}
}

type deliveryRow struct {
	State    string `bun:"state"`
	Attempts int    `bun:"attempts"`
	Jobs     int    `bun:"jobs"`
}

// row is a delivery's state, attempts and number of River jobs.
func (f *logFixture) row(t *testing.T, delivery int64) deliveryRow {
	t.Helper()
	var r deliveryRow
	if err := f.db.NewRaw(`SELECT state, attempts, (SELECT count(*) FROM river_job j
		WHERE j.kind = 'webhook' AND (j.args->>'delivery_id')::bigint = d.id) AS jobs
		FROM webhook_deliveries d WHERE id = ?`, delivery).Scan(t.Context(), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestAttemptsNewestFirst(t *testing.T) {
	f := newLogFixture(t)
	first, d1 := f.publish(t)
	second, d2 := f.publish(t)
	f.attempt(t, d1, 500)
	f.attempt(t, d2, 204)
	f.attempt(t, d1, 200)
	page := domain.PageRequest{Number: 1, Size: 10}
	got, err := f.svc.Attempts(f.asShop, f.endpoint.ID, webhooks.AttemptFilter{}, page)
	if err != nil {
		t.Fatal(err)
	}
	if got.Count != 3 || len(got.Items) != 3 {
		t.Fatalf("%d attempts, want 3: %+v", got.Count, got.Items)
	}
	last, mid, old := got.Items[0], got.Items[1], got.Items[2]
	if last.EventID != first || last.StatusCode != 200 || last.State != webhooks.StateSucceeded ||
		mid.EventID != second || old.EventID != first || old.StatusCode != 500 || old.State != webhooks.StatePending {
		t.Errorf("attempts %+v %+v %+v: want newest first, each with its state after it", last, mid, old)
	}
	if old.EventType != "order.paid" || old.Duration != 42*time.Millisecond || old.Response != "ok" || old.EndpointID != f.endpoint.ID {
		t.Errorf("attempt %+v", old)
	}
	got, err = f.svc.Attempts(f.asStaff, f.endpoint.ID, webhooks.AttemptFilter{Event: &first}, page)
	if err != nil || got.Count != 2 || got.Items[0].EventID != first || got.Items[1].EventID != first {
		t.Errorf("filtered by event: %+v, %v", got, err)
	}
	_, err = f.svc.Attempts(f.asShop, f.endpoint.ID, webhooks.AttemptFilter{}, domain.PageRequest{Number: 2, Size: 10})
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.Attempts(f.asRival, f.endpoint.ID, webhooks.AttemptFilter{}, page)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.Attempts(f.asShopClerk, f.endpoint.ID, webhooks.AttemptFilter{}, page)
	dbtest.WantCode(t, err, domain.CodeForbidden)
}

func TestResendEvent(t *testing.T) {
	f := newLogFixture(t)
	event, d := f.publish(t)
	f.setState(t, d, webhooks.StateFailed)
	in := webhooks.ResendInput{EventID: domain.Some(event)}
	if _, err := f.svc.Resend(f.asRival, f.endpoint.ID, in); err == nil {
		t.Fatal("another tenant resent the shop's event")
	}
	n, err := f.svc.Resend(f.asShop, f.endpoint.ID, in)
	if err != nil || n != 1 {
		t.Fatalf("Resend = %d, %v", n, err)
	}
	if r := f.row(t, d); r != (deliveryRow{State: webhooks.StatePending, Attempts: 0, Jobs: 2}) {
		t.Errorf("resent delivery %+v: want pending, no attempt, a second job", r)
	}
	// Waiting already: queued, not twice.
	if n, err := f.svc.Resend(f.asShop, f.endpoint.ID, in); err != nil || n != 0 || f.row(t, d).Jobs != 2 {
		t.Errorf("resend of a waiting delivery = %d, %v, %+v", n, err, f.row(t, d))
	}
	// The first job, had it been waiting for a retry, is superseded: the
	// resend's job alone sends.
	if out, err := f.delivery.Deliver(t.Context(), d, 0, 2); err != nil || out.Outcome != webhooks.OutcomeSkipped || len(f.receiver.sent) != 0 {
		t.Errorf("the first job after the resend: %+v, %v, %d sent", out, err, len(f.receiver.sent))
	}
	f.receiver.result = webhooks.SendResult{StatusCode: 204, Verdict: webhooks.VerdictSucceeded}
	if out, err := f.delivery.Deliver(t.Context(), d, 1, 1); err != nil || out.Outcome != webhooks.OutcomeSucceeded || len(f.receiver.sent) != 1 {
		t.Errorf("the resend's job: %+v, %v, %d sent", out, err, len(f.receiver.sent))
	}
	// A succeeded one is sent again too.
	f.setState(t, d, webhooks.StateSucceeded)
	if n, err := f.svc.Resend(f.asShop, f.endpoint.ID, in); err != nil || n != 1 {
		t.Errorf("resend of a succeeded delivery = %d, %v", n, err)
	}
	_, err = f.svc.Resend(f.asShop, f.endpoint.ID, webhooks.ResendInput{EventID: domain.Some(uuid.New())})
	dbtest.WantCode(t, err, domain.CodeNotFound)
}

func TestResendFailedSince(t *testing.T) {
	f := newLogFixture(t)
	_, failed := f.publish(t)
	_, dropped := f.publish(t)
	_, succeeded := f.publish(t)
	_, old := f.publish(t)
	f.setState(t, failed, webhooks.StateFailed)
	f.setState(t, dropped, webhooks.StateDropped)
	f.setState(t, succeeded, webhooks.StateSucceeded)
	f.setState(t, old, webhooks.StateFailed)
	since := time.Now().Add(-time.Hour)
	if _, err := f.db.ExecContext(t.Context(), `UPDATE webhook_deliveries SET created_at = ? WHERE id = ?`,
		since.Add(-time.Minute), old); err != nil {
		t.Fatal(err)
	}
	n, err := f.svc.Resend(f.asShop, f.endpoint.ID, webhooks.ResendInput{FailedSince: domain.Some(since)})
	if err != nil || n != 2 {
		t.Fatalf("Resend = %d, %v; want the failed and the dropped", n, err)
	}
	for id, want := range map[int64]string{failed: "pending", dropped: "pending", succeeded: "succeeded", old: "failed"} {
		if r := f.row(t, id); r.State != want {
			t.Errorf("delivery %d: %+v, want %s", id, r, want)
		}
	}
	if r := f.row(t, dropped); r.Attempts != 0 || r.Jobs != 2 {
		t.Errorf("dropped delivery resent: %+v", r)
	}
}

// A resend fills the endpoint's backlog up to MaxBacklog, no further.
func TestResendBoundedByBacklog(t *testing.T) {
	f := newLogFixture(t)
	_, a := f.publish(t)
	_, b := f.publish(t)
	f.setState(t, a, webhooks.StateFailed)
	f.setState(t, b, webhooks.StateFailed)
	if _, err := f.db.ExecContext(t.Context(), `WITH ev AS (
			INSERT INTO webhook_events (id, type, body) SELECT gen_random_uuid(), 'order.paid', '{}'
			FROM generate_series(1, ?) RETURNING id)
		INSERT INTO webhook_deliveries (event_id, endpoint_id) SELECT id, ? FROM ev`,
		webhooks.MaxBacklog-1, f.endpoint.ID); err != nil {
		t.Fatal(err)
	}
	in := webhooks.ResendInput{FailedSince: domain.Some(time.Now().Add(-time.Hour))}
	if n, err := f.svc.Resend(f.asShop, f.endpoint.ID, in); err != nil || n != 1 {
		t.Fatalf("Resend = %d, %v; want 1, the room left", n, err)
	}
	if n, err := f.svc.Resend(f.asShop, f.endpoint.ID, in); err != nil || n != 0 {
		t.Errorf("Resend on a full backlog = %d, %v", n, err)
	}
	if f.row(t, a).State != webhooks.StatePending || f.row(t, b).State != webhooks.StateFailed {
		t.Errorf("the oldest goes first: %+v %+v", f.row(t, a), f.row(t, b))
	}
}

func TestResendValidation(t *testing.T) {
	f := newLogFixture(t)
	id := f.endpoint.ID
	_, err := f.svc.Resend(f.asShop, id, webhooks.ResendInput{})
	dbtest.WantFieldErrors(t, err, map[string]string{"non_field_errors": webhooks.MsgResendOneOf})
	_, err = f.svc.Resend(f.asShop, id, webhooks.ResendInput{EventID: domain.Some(uuid.New()), FailedSince: domain.Some(time.Now())})
	dbtest.WantFieldErrors(t, err, map[string]string{"non_field_errors": webhooks.MsgResendOneOf})
	_, err = f.svc.Resend(f.asShop, id, webhooks.ResendInput{FailedSince: domain.Some(time.Now().Add(time.Hour))})
	dbtest.WantFieldErrors(t, err, map[string]string{"failed_since": webhooks.MsgSinceInFuture})
	_, err = f.svc.Resend(f.asShop, id, webhooks.ResendInput{EventID: domain.Null[uuid.UUID]()})
	dbtest.WantFieldErrors(t, err, map[string]string{"event_id": domain.MsgNull})
	in := webhooks.ResendInput{}
	in.Refuse(domain.VInvalid, domain.MsgUUID, "event_id")
	_, err = f.svc.Resend(f.asShop, id, in)
	dbtest.WantFieldErrors(t, err, map[string]string{"event_id": domain.MsgUUID})
	_, err = f.svc.Resend(f.asShopClerk, id, webhooks.ResendInput{FailedSince: domain.Some(time.Now())})
	dbtest.WantCode(t, err, domain.CodeForbidden)
}

func TestSendTest(t *testing.T) {
	f := newLogFixture(t)
	// Subscribed to order.paid alone, it receives the test all the same.
	if _, err := f.svc.UpdateEndpoint(f.asShop, f.endpoint.ID, webhooks.EndpointInput{Events: domain.Some([]string{"order.paid"})}); err != nil {
		t.Fatal(err)
	}
	other, err := f.svc.CreateEndpoint(f.asShop, endpoint("https://hooks.example.com/other"))
	if err != nil {
		t.Fatal(err)
	}
	id, err := f.svc.SendTest(f.asShop, f.endpoint.ID)
	if err != nil || id == uuid.Nil {
		t.Fatalf("SendTest = %v, %v", id, err)
	}
	var d struct {
		ID    int64     `bun:"id"`
		Event uuid.UUID `bun:"event_id"`
	}
	if err := f.db.NewRaw(`SELECT id, event_id FROM webhook_deliveries WHERE endpoint_id = ?`, f.endpoint.ID).Scan(t.Context(), &d); err != nil {
		t.Fatal(err)
	}
	if d.Event != id || f.row(t, d.ID) != (deliveryRow{State: webhooks.StatePending, Jobs: 1}) {
		t.Errorf("test delivery %+v %+v, want event %s pending with its job", d, f.row(t, d.ID), id)
	}
	if types := dbtest.WebhookTypes(t, f.db, f.endpoint.ID); len(types) != 1 || types[0] != webhooks.TestEventType {
		t.Errorf("events %v", types)
	}
	if types := dbtest.WebhookTypes(t, f.db, other.ID); len(types) != 0 {
		t.Errorf("another endpoint got %v", types)
	}
	_, err = f.svc.SendTest(f.asRival, f.endpoint.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if _, err := f.svc.UpdateEndpoint(f.asShop, f.endpoint.ID, webhooks.EndpointInput{IsActive: domain.Some(false)}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.SendTest(f.asShop, f.endpoint.ID)
	dbtest.WantFieldErrors(t, err, map[string]string{"non_field_errors": webhooks.MsgInactive})
}

// A delivery sent again while an earlier job's attempt is on its way keeps
// the resend's state and count: that attempt only enters its log.
func TestResendDuringAnAttempt(t *testing.T) {
	f := newLogFixture(t)
	event, d := f.publish(t)
	f.receiver.during = func() {
		f.setState(t, d, webhooks.StateFailed)
		if n, err := f.svc.Resend(f.asShop, f.endpoint.ID, webhooks.ResendInput{EventID: domain.Some(event)}); err != nil || n != 1 {
			t.Errorf("Resend = %d, %v", n, err)
		}
	}
	f.receiver.result = webhooks.SendResult{StatusCode: 500, Response: "down", Verdict: webhooks.VerdictRetry}
	out, err := f.delivery.Deliver(t.Context(), d, 0, 1)
	if err != nil || out.Outcome != webhooks.OutcomeSkipped || out.Attempt == nil {
		t.Fatalf("Deliver = %+v, %v; want skipped, its attempt recorded", out, err)
	}
	if r := f.row(t, d); r != (deliveryRow{State: webhooks.StatePending, Attempts: 0, Jobs: 2}) {
		t.Errorf("delivery %+v: want the resend's, pending with no attempt", r)
	}
	got, err := f.svc.Attempts(f.asShop, f.endpoint.ID, webhooks.AttemptFilter{}, domain.PageRequest{Number: 1, Size: 10})
	if err != nil || len(got.Items) != 1 || got.Items[0].StatusCode != 500 {
		t.Errorf("attempts %+v, %v: want the one made", got, err)
	}
}
