package webhookdelivery_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
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

func newSecret(t *testing.T) string {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return webhookclient.SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// received is one request a receiver got, with the reference library's
// verdict under each secret it knows.
type received struct {
	at     time.Time
	header http.Header
	body   []byte
	errs   []error
}

// receiver is a partner's endpoint verifying every request with the
// Standard Webhooks reference library, under each of its secrets; answer
// (n counts its requests from 0) answers.
type receiver struct {
	srv       *httptest.Server
	verifiers []*standardwebhooks.Webhook
	answer    func(n int, w http.ResponseWriter, r *http.Request)

	mu  sync.Mutex
	got []received
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request), secrets ...string) *receiver {
	t.Helper()
	if answer == nil {
		answer = func(int, http.ResponseWriter, *http.Request) {}
	}
	rc := &receiver{answer: answer}
	for _, s := range secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			t.Fatal(err)
		}
		rc.verifiers = append(rc.verifiers, wh)
	}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	g := received{at: time.Now(), header: r.Header.Clone(), body: body}
	for _, v := range rc.verifiers {
		g.errs = append(g.errs, v.Verify(body, r.Header))
	}
	rc.mu.Lock()
	n := len(rc.got)
	rc.got = append(rc.got, g)
	rc.mu.Unlock()
	rc.answer(n, w, r)
	if w.Header().Get("X-Answered") == "" {
		_, _ = io.WriteString(w, "ok")
	}
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// status answers code to every request, with body.
func status(code int, body string) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Answered", "1")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

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
