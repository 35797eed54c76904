package e2e

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/uptrace/bun"

	"salesplatform/domain/webhooks"
	"salesplatform/persistence"
	"salesplatform/persistence/webhookclient"
	"salesplatform/persistence/webhookdelivery"
)

// webhookReceiver is the partners' backends of a test: one HTTP server
// whose path /{n} is the n-th endpoint, verifying every request with the
// Standard Webhooks reference library under that endpoint's secret, and
// the delivery worker the binary runs, on the test's database.
type webhookReceiver struct {
	srv *httptest.Server
	db  *bun.DB

	mu        sync.Mutex
	verifiers []*standardwebhooks.Webhook
	endpoints []int64
	got       map[int64][]webhookEvent
	ids       map[int64]map[string]int // webhook-id → deliveries
	refused   []string
}

func newWebhookReceiver(t *testing.T, dsn string, db *bun.DB) *webhookReceiver {
	t.Helper()
	r := &webhookReceiver{db: db, got: map[int64][]webhookEvent{}, ids: map[int64]map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	pool, err := persistence.OpenPgxPool(t.Context(), dsn, webhookdelivery.PoolConns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	d, err := webhookdelivery.Start(t.Context(), pool, webhookdelivery.Config{
		DB:                db,
		Client:            webhookclient.New(webhookclient.Config{AllowedNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}),
		Logger:            slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		FetchPollInterval: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Stop(t.Context()) })
	return r
}

func (r *webhookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	n, err := strconv.Atoi(strings.TrimPrefix(req.URL.Path, "/"))
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil || n >= len(r.verifiers) {
		r.refused = append(r.refused, "unknown path "+req.URL.Path)
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if err := r.verifiers[n].Verify(body, req.Header); err != nil {
		r.refused = append(r.refused, err.Error())
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var ev webhookEvent
	if err := json.Unmarshal(body, &ev); err != nil {
		r.refused = append(r.refused, err.Error())
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	e := r.endpoints[n]
	r.got[e] = append(r.got[e], ev)
	r.ids[e][req.Header.Get("webhook-id")]++
}

// endpoint adds an active endpoint of partner, subscribed to events (none:
// every type), whose deliveries this receiver verifies, and returns its id.
func (r *webhookReceiver) endpoint(t *testing.T, partner int64, events ...string) int64 {
	t.Helper()
	key := make([]byte, 24)
	_, _ = rand.Read(key)
	secret := "whsec_" + base64.StdEncoding.EncodeToString(key)
	v, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	n := len(r.verifiers)
	r.verifiers = append(r.verifiers, v)
	r.endpoints = append(r.endpoints, 0)
	r.mu.Unlock()
	if events == nil {
		events = []string{}
	}
	e := &webhooks.Endpoint{PartnerID: &partner, URL: r.srv.URL + "/" + strconv.Itoa(n), Events: events, IsActive: true, Secret: secret}
	if err := persistence.WebhookStores(r.db).Endpoints.CreateEndpoint(t.Context(), e); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	r.endpoints[n], r.ids[e.ID] = e.ID, map[string]int{}
	r.mu.Unlock()
	return e.ID
}

// received waits until every delivery kept for endpoint is settled and
// returns the events it received, oldest first: each verified and
// received once (one webhook-id each), as many as its deliveries.
func (r *webhookReceiver) received(t *testing.T, endpoint int64) []webhookEvent {
	t.Helper()
	var kept, pending int
	waitUntil(t, "the endpoint's deliveries settled", func() bool {
		if err := r.db.NewRaw(`SELECT count(*), count(*) FILTER (WHERE state = 'pending') FROM webhook_deliveries
			WHERE endpoint_id = ?`, endpoint).Scan(t.Context(), &kept, &pending); err != nil {
			t.Fatal(err)
		}
		return pending == 0
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.refused) > 0 {
		t.Errorf("the receiver refused deliveries: %v", r.refused)
	}
	for id, n := range r.ids[endpoint] {
		if n != 1 {
			t.Errorf("event %s reached endpoint %d %d times", id, endpoint, n)
		}
	}
	got := slices.Clone(r.got[endpoint])
	slices.SortStableFunc(got, func(a, b webhookEvent) int { return eventTime(t, a).Compare(eventTime(t, b)) })
	if len(got) != kept {
		t.Errorf("endpoint %d received %d events of its %d deliveries", endpoint, len(got), kept)
	}
	return got
}

func eventTime(t *testing.T, e webhookEvent) time.Time {
	at, err := time.Parse(time.RFC3339Nano, e.Timestamp)
	if err != nil {
		t.Errorf("event %s: timestamp %q: %v", e.Type, e.Timestamp, err)
	}
	return at
}
