package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/webhookclient"
)

// receiverStub is the receiving system, outside the service: it answers
// each message with result and keeps what it was sent; during, when set,
// runs while a message is being sent.
type receiverStub struct {
	mu     sync.Mutex
	sent   []webhooks.Message
	result webhooks.SendResult
	during func()
}

func (r *receiverStub) Send(_ context.Context, m webhooks.Message) webhooks.SendResult {
	if r.during != nil {
		r.during()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, m)
	return r.result
}

type deliveryFixture struct {
	db       *bun.DB
	svc      *webhooks.DeliveryService
	receiver *receiverStub
	now      time.Time
	endpoint *webhooks.Endpoint
}

func newDeliveryFixture(t *testing.T) *deliveryFixture {
	t.Helper()
	db := dbtest.New(t)
	p := dbtest.MustPartner(t, persistence.NewDatabase(db).Stores().Partners, &domain.Partner{Name: "Shop"})
	f := &deliveryFixture{db: db, receiver: &receiverStub{}, now: time.Now().UTC().Truncate(time.Second)}
	f.svc = webhooks.NewDeliveryService(persistence.NewUnitOfWork(db, persistence.WebhookDeliveryStores), f.receiver,
		webhookclient.NextAttempt).WithClock(func() time.Time { return f.now })
	f.endpoint = &webhooks.Endpoint{PartnerID: &p.ID, URL: "https://hooks.example.com/in", Events: []string{}, IsActive: true,
		Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}
	if err := persistence.WebhookStores(db).Endpoints.CreateEndpoint(t.Context(), f.endpoint); err != nil {
		t.Fatal(err)
	}
	persistence.SetWebhookRenderer(func(_ string, r any) (json.RawMessage, error) { return json.Marshal(r) })
	return f
}

// publish publishes an event and returns its delivery's id.
func (f *deliveryFixture) publish(t *testing.T) int64 {
	t.Helper()
	err := persistence.NewUnitOfWork(f.db, persistence.NewWebhookEvents).RunInTx(t.Context(), func(ctx context.Context, p *persistence.WebhookEvents) error {
		return p.Publish(ctx, webhooks.Event{Type: "order.paid", Partners: []int64{*f.endpoint.PartnerID}, Resource: map[string]int{"id": 1}})
	})
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	if err := f.db.NewRaw(`SELECT max(id) FROM webhook_deliveries`).Scan(t.Context(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

func (f *deliveryFixture) failingSince(t *testing.T, since time.Time) {
	t.Helper()
	if _, err := f.db.ExecContext(t.Context(), `UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?`, since, f.endpoint.ID); err != nil {
		t.Fatal(err)
	}
}

// An endpoint failing for exactly DisableAfter stays; a second more
// disables it.
func TestDisableAfterIsFiveDays(t *testing.T) {
	f := newDeliveryFixture(t)
	f.receiver.result = webhooks.SendResult{StatusCode: 502, Verdict: webhooks.VerdictRetry}
	f.failingSince(t, f.now.Add(-webhooks.DisableAfter))
	out, err := f.svc.Deliver(t.Context(), f.publish(t), 0, 1)
	if err != nil || out.Outcome != webhooks.OutcomeRetry || out.State != webhooks.StatePending || out.RetryIn != 5*time.Second {
		t.Fatalf("at five days: %+v, %v", out, err)
	}
	f.now = f.now.Add(time.Second)
	out, err = f.svc.Deliver(t.Context(), f.publish(t), 0, 1)
	if err != nil || out.Outcome != webhooks.OutcomeDisabled || out.State != webhooks.StateFailed || out.Mails != 0 {
		t.Fatalf("past five days: %+v, %v (no administrator with an address: no mail)", out, err)
	}
	var states []string
	if err := f.db.NewRaw(`SELECT state FROM webhook_deliveries ORDER BY id`).Scan(t.Context(), &states); err != nil {
		t.Fatal(err)
	}
	if strings.Join(states, ",") != "failed,failed" {
		t.Errorf("states %v: the waiting delivery fails with its endpoint", states)
	}
}

// A settled delivery is not sent again; an attempt's error is kept within
// its column's bound, whole characters.
func TestSettledIsSkippedAndErrorsBounded(t *testing.T) {
	f := newDeliveryFixture(t)
	// An answer's excerpt made valid UTF-8 may pass 4 KB: it is cut.
	f.receiver.result = webhooks.SendResult{StatusCode: 500, Response: strings.Repeat("a\uFFFD", 2048), Verdict: webhooks.VerdictRetry}
	out, err := f.svc.Deliver(t.Context(), f.publish(t), 0, 1)
	if err != nil || out.Attempt == nil || len(out.Attempt.Response) != webhooks.MaxResponseBytes {
		t.Fatalf("long answer: %+v, %v", out.Attempt, err)
	}
	f.receiver.sent = nil
	f.receiver.result = webhooks.SendResult{Err: errors.New(strings.Repeat("é", 600)), Verdict: webhooks.VerdictRetry}
	id := f.publish(t)
	out, err = f.svc.Deliver(t.Context(), id, 0, 1)
	if err != nil || out.Attempt == nil || len(out.Attempt.Error) != 1024 || !strings.HasSuffix(out.Attempt.Error, "é") {
		t.Fatalf("%+v, %v", out.Attempt, err)
	}
	if len(f.receiver.sent) != 1 || len(f.receiver.sent[0].Secrets) != 1 || !f.receiver.sent[0].Timestamp.Equal(f.now) {
		t.Errorf("sent %+v", f.receiver.sent)
	}
	f.receiver.result = webhooks.SendResult{StatusCode: 204, Verdict: webhooks.VerdictSucceeded}
	if out, err := f.svc.Deliver(t.Context(), id, 0, 2); err != nil || out.Outcome != webhooks.OutcomeSucceeded {
		t.Fatalf("second attempt: %+v, %v", out, err)
	}
	if out, err := f.svc.Deliver(t.Context(), id, 0, 3); err != nil || out.Outcome != webhooks.OutcomeSkipped || out.State != webhooks.StateSucceeded {
		t.Fatalf("after success: %+v, %v", out, err)
	}
	if len(f.receiver.sent) != 2 {
		t.Errorf("%d messages sent, want 2", len(f.receiver.sent))
	}
	if out, err := f.svc.Deliver(t.Context(), id+1000, 0, 1); err != nil || out.Outcome != webhooks.OutcomeSkipped {
		t.Errorf("unknown delivery: %+v, %v", out, err)
	}
}
