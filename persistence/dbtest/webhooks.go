package dbtest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/persistence"
)

// UseJSONWebhooks renders every webhook event's data as its resource's
// encoding/json, for the domain's tests (the binary renders the REST
// record, rest.WebhookData).
func UseJSONWebhooks() {
	persistence.SetWebhookRenderer(func(_ string, resource any) (json.RawMessage, error) {
		return json.Marshal(resource)
	})
}

// WebhookEndpoint adds an active endpoint of partner (0: the platform's)
// subscribed to events (none: every type) and returns its id.
func WebhookEndpoint(tb testing.TB, db bun.IDB, partner int64, events ...string) int64 {
	tb.Helper()
	var owner *int64
	if partner != 0 {
		owner = &partner
	}
	if events == nil {
		events = []string{}
	}
	var id int64
	if err := db.NewRaw(`INSERT INTO webhook_endpoints (partner_id, url, events, secret)
		VALUES (?, 'https://hooks.example.com/in', ?, 'whsec_test') RETURNING id`, owner, pgdialect.Array(events)).
		Scan(context.Background(), &id); err != nil {
		tb.Fatal(err)
	}
	return id
}

// WebhookEvent is an event kept for an endpoint: its type and its body's
// data.
type WebhookEvent struct {
	Type string          `bun:"type"`
	Data json.RawMessage `bun:"data"`
}

// WebhookEvents returns the events kept for the endpoint, oldest first.
func WebhookEvents(tb testing.TB, db bun.IDB, endpoint int64) []WebhookEvent {
	tb.Helper()
	var out []WebhookEvent
	if err := db.NewRaw(`SELECT e.type, (e.body::jsonb -> 'data')::text AS data
		FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
		WHERE d.endpoint_id = ? ORDER BY e.created_at, e.id`, endpoint).Scan(context.Background(), &out); err != nil {
		tb.Fatal(err)
	}
	return out
}

// WebhookTypes are the types of WebhookEvents, in order.
func WebhookTypes(tb testing.TB, db bun.IDB, endpoint int64) []string {
	tb.Helper()
	var out []string
	for _, e := range WebhookEvents(tb, db, endpoint) {
		out = append(out, e.Type)
	}
	return out
}
