package webhookdelivery_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log/slog"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/webhookclient"
	"salesplatform/persistence/webhookdelivery"
)

func TestMain(m *testing.M) {
	// An event's data is its resource as JSON: the REST rendering is the
	// binary's, and beside the point here.
	persistence.SetWebhookRenderer(func(_ string, r any) (json.RawMessage, error) { return json.Marshal(r) })
	dbtest.Main(m)
}

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// fast is a retry schedule of milliseconds, as long as the standard one.
var fast = []time.Duration{0, 20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond,
	20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond}

type fixture struct {
	dsn     string
	db      *bun.DB
	partner int64
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	db, err := persistence.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p := dbtest.MustPartner(t, persistence.NewDatabase(db).Stores().Partners, &domain.Partner{Name: "Château de la Loire"})
	return &fixture{dsn: dsn, db: db, partner: p.ID}
}

// start runs a delivery (a replica) on the fixture's database, with a
// client of timeout (0: a second) and the schedule (nil: fast).
func (f *fixture) start(t *testing.T, timeout time.Duration, schedule []time.Duration) *webhookdelivery.Delivery {
	t.Helper()
	pool, err := persistence.OpenPgxPool(t.Context(), f.dsn, webhookdelivery.PoolConns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if timeout == 0 {
		timeout = time.Second
	}
	if schedule == nil {
		schedule = fast
	}
	d, err := webhookdelivery.Start(t.Context(), pool, webhookdelivery.Config{
		DB:                f.db,
		Client:            webhookclient.New(webhookclient.Config{AllowedNetworks: loopback, Timeout: timeout}),
		Timeout:           timeout,
		Schedule:          schedule,
		Logger:            slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		FetchPollInterval: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := d.Stop(ctx); err != nil {
			t.Error(err)
		}
	})
	return d
}

// endpoint creates an endpoint of partner (nil: the platform's) at url,
// subscribed to every event.
func (f *fixture) endpoint(t *testing.T, partner *int64, url, secret string) *webhooks.Endpoint {
	t.Helper()
	e := &webhooks.Endpoint{PartnerID: partner, URL: url, Events: []string{}, IsActive: true, Secret: secret}
	if err := persistence.WebhookStores(f.db).Endpoints.CreateEndpoint(t.Context(), e); err != nil {
		t.Fatal(err)
	}
	return e
}

// publish publishes one order.paid event per resource, each in a committed
// transaction, as a service does.
func (f *fixture) publish(t *testing.T, resources ...any) {
	t.Helper()
	for _, r := range resources {
		if err := f.publishTx(t, r, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// publishTx publishes an event in a transaction that fn (when not nil)
// ends: its error rolls the transaction back.
func (f *fixture) publishTx(t *testing.T, resource any, fn func() error) error {
	t.Helper()
	uow := persistence.NewUnitOfWork(f.db, persistence.NewWebhookEvents)
	return uow.RunInTx(t.Context(), func(ctx context.Context, p *persistence.WebhookEvents) error {
		if err := p.Publish(ctx, webhooks.Event{Type: "order.paid", Partners: []int64{f.partner}, Resource: resource}); err != nil {
			return err
		}
		if fn != nil {
			return fn()
		}
		return nil
	})
}

type deliveryRow struct {
	ID            int64      `bun:"id"`
	EventID       string     `bun:"event_id"`
	State         string     `bun:"state"`
	Attempts      int        `bun:"attempts"`
	LastAttemptAt *time.Time `bun:"last_attempt_at"`
}

func (f *fixture) deliveries(t *testing.T) []deliveryRow {
	t.Helper()
	var rows []deliveryRow
	if err := f.db.NewRaw(`SELECT id, event_id::text, state, attempts, last_attempt_at FROM webhook_deliveries ORDER BY id`).
		Scan(t.Context(), &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return rows
}

// waitFor polls cond until it holds, for at most 20 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after 20s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// settled waits until no delivery is pending and returns them.
func (f *fixture) settled(t *testing.T, n int) []deliveryRow {
	t.Helper()
	var rows []deliveryRow
	waitFor(t, "settled", func() bool {
		rows = f.deliveries(t)
		if len(rows) != n {
			return false
		}
		for _, r := range rows {
			if r.State == webhooks.StatePending {
				return false
			}
		}
		return true
	})
	return rows
}

type attemptRow struct {
	DeliveryID int64  `bun:"delivery_id"`
	StatusCode int    `bun:"status_code"`
	DurationMS int    `bun:"duration_ms"`
	Response   string `bun:"response"`
	Error      string `bun:"error"`
	State      string `bun:"state"`
}

func (f *fixture) attempts(t *testing.T) []attemptRow {
	t.Helper()
	var rows []attemptRow
	if err := f.db.NewRaw(`SELECT delivery_id, status_code, duration_ms, response, error, state FROM webhook_attempts ORDER BY id`).
		Scan(t.Context(), &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return rows
}

// counter is the value of salesplatform_webhook_deliveries_total for
// outcome, summed over event types.
func counter(t *testing.T, d *webhookdelivery.Delivery, outcome string) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(d.Collector())
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, fam := range families {
		if fam.GetName() != "salesplatform_webhook_deliveries_total" {
			continue
		}
		for _, m := range fam.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "outcome" && l.GetValue() == outcome {
					total += m.GetCounter().GetValue()
				}
			}
		}
	}
	return total
}
