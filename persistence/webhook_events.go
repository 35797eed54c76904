package persistence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain/webhooks"
)

// A delivery waiting to be sent is a River job of kind "webhook" on the
// queue WebhookQueue, inserted with the event in the transaction of the
// change, and worked by persistence/webhookdelivery once it commits.
const (
	WebhookJobKind = "webhook"
	WebhookQueue   = "webhook"
)

// WebhookArgs is a delivery job's arguments (river_job.args, JSON): a
// stored format, so a field is never renamed without reading the old name.
type WebhookArgs struct {
	DeliveryID int64 `json:"delivery_id"`
	// Generation is the delivery's generation the job was queued for
	// (webhooks.Delivery.Generation): 0 at publication, absent from the
	// jobs queued before resends had generations.
	Generation int `json:"generation,omitempty"`
}

// Kind implements river.JobArgs.
func (WebhookArgs) Kind() string { return WebhookJobKind }

// InsertOpts implements river.JobArgsWithInsertOpts: every delivery job
// goes to the webhook queue. Its attempts are bounded by the delivery
// worker's schedule, not River's.
func (WebhookArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: WebhookQueue, MaxAttempts: webhookMaxAttempts}
}

// webhookMaxAttempts is River's bound, above any schedule the worker
// follows: the worker ends a delivery itself when its schedule is spent.
const webhookMaxAttempts = 100

// WebhookRenderer is an event's data: the record the REST API returns for
// the resource (rest.WebhookData), so a consumer parses one shape.
type WebhookRenderer func(eventType string, resource any) (json.RawMessage, error)

// webhookRenderer is set once by the binary (SetWebhookRenderer), which
// alone knows both the domain and the REST encoding.
var webhookRenderer atomic.Pointer[WebhookRenderer]

// SetWebhookRenderer sets how every event's data is rendered.
func SetWebhookRenderer(r WebhookRenderer) { webhookRenderer.Store(&r) }

var errNoRenderer = errors.New("webhook events: no renderer set (SetWebhookRenderer)")

// WebhookEvents is the webhooks.Publisher on PostgreSQL, a store of the
// unit of work: an event commits or rolls back with its transaction.
type WebhookEvents struct {
	db bun.IDB
	// prepared are the endpoints Prepare looked up, by preparedKey.
	prepared map[string][]webhookTarget
}

var _ webhooks.Publisher = (*WebhookEvents)(nil)

// NewWebhookEvents returns the publisher on db, which must be a
// transaction for Publish to keep an event.
func NewWebhookEvents(db bun.IDB) *WebhookEvents { return &WebhookEvents{db: db} }

// Publish implements webhooks.Publisher. An event no active endpoint
// subscribes to is neither rendered nor written.
func (p *WebhookEvents) Publish(ctx context.Context, events ...webhooks.Event) error {
	for _, ev := range events {
		if !slices.Contains(webhooks.EventTypes, ev.Type) {
			return fmt.Errorf("webhook events: unknown type %q", ev.Type)
		}
		targets, ok := p.prepared[preparedKey(ev.Type, ev.Partners)]
		if !ok {
			var err error
			if targets, err = p.subscribers(ctx, ev); err != nil {
				return err
			}
		}
		if _, err := p.publishTo(ctx, ev, targets); err != nil {
			return err
		}
	}
	return nil
}

// Prepare implements webhooks.Publisher.
func (p *WebhookEvents) Prepare(ctx context.Context, eventType string, partners []int64) (bool, error) {
	targets, err := p.subscribers(ctx, webhooks.Event{Type: eventType, Partners: partners})
	if err != nil {
		return false, err
	}
	if p.prepared == nil {
		p.prepared = map[string][]webhookTarget{}
	}
	p.prepared[preparedKey(eventType, partners)] = targets
	return len(targets) > 0, nil
}

func preparedKey(eventType string, partners []int64) string {
	return fmt.Sprint(eventType, partners)
}

// PublishTest keeps ev for endpoint alone, whatever it subscribes to (its
// test event), and returns the event's id.
func (p *WebhookEvents) PublishTest(ctx context.Context, endpoint int64, ev webhooks.Event) (uuid.UUID, error) {
	var open bool
	if err := p.db.NewRaw(`SELECT `+backlogOpen("?0")+` FROM webhook_endpoints e WHERE e.id = ?1`,
		webhooks.MaxBacklog, endpoint).Scan(ctx, &open); err != nil {
		return uuid.Nil, fmt.Errorf("webhook events: endpoint %d: %w", endpoint, err)
	}
	return p.publishTo(ctx, ev, []webhookTarget{{Endpoint: endpoint, Open: open}})
}

// webhookJobTag is the River tag of an event type's jobs: River's tags
// take no dot ("order.paid" is tagged order-paid).
func webhookJobTag(eventType string) string { return strings.ReplaceAll(eventType, ".", "-") }

// webhookTarget is an endpoint an event goes to; Open is false when its
// backlog is full.
type webhookTarget struct {
	Endpoint int64 `bun:"id"`
	Open     bool  `bun:"open"`
}

// backlogOpen is whether endpoint e's backlog is below the cap (the
// statement's parameter capArg), counted through the partial index on
// waiting deliveries: at most the cap's entries are read.
func backlogOpen(capArg string) string {
	return `(SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d
	WHERE d.endpoint_id = e.id AND d.state = 'pending' LIMIT ` + capArg + `) AS waiting) < ` + capArg + ` AS open`
}

// subscribersSQL: $1 the backlog's cap, $2 the event's partners, $3 its
// type. Prepared: every write that may publish asks it.
var subscribersSQL = `SELECT e.id, ` + backlogOpen("$1") + `
	FROM webhook_endpoints e
	WHERE ` + subscribedEndpoints("$2", "$3") + `
	ORDER BY e.id`

// subscribedEndpoints is the condition on webhook_endpoints e of those an
// event goes to: active, the platform's or of one of the event's partners
// (the bigint[] partners), subscribed to its type (eventType).
func subscribedEndpoints(partners, eventType string) string {
	return `e.is_active AND (e.partner_id IS NULL OR e.partner_id = ANY(` + partners + `::bigint[]))
		AND (cardinality(e.events) = 0 OR ` + eventType + ` = ANY(e.events))`
}

// subscribers are the active endpoints ev goes to: its partners' and the
// platform's, subscribed to its type.
func (p *WebhookEvents) subscribers(ctx context.Context, ev webhooks.Event) ([]webhookTarget, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	partners := ev.Partners
	if partners == nil {
		partners = []int64{}
	}
	var targets []webhookTarget
	err := scanPrepared(ctx, p.db, &targets, subscribersSQL, webhooks.MaxBacklog, partners, ev.Type)
	if err != nil {
		return nil, fmt.Errorf("webhook events: subscribers of %s: %w", ev.Type, err)
	}
	return targets, nil
}

// publishTo writes ev once, a delivery for each target (dropped when its
// backlog is full) and a job for each delivery waiting.
func (p *WebhookEvents) publishTo(ctx context.Context, ev webhooks.Event, targets []webhookTarget) (uuid.UUID, error) {
	if len(targets) == 0 {
		return uuid.Nil, nil
	}
	tx, ok := p.db.(bun.Tx)
	if !ok {
		return uuid.Nil, errors.New("webhook events: Publish runs in the unit of work's transaction only")
	}
	render := webhookRenderer.Load()
	if render == nil {
		return uuid.Nil, errNoRenderer
	}
	data, err := (*render)(ev.Type, ev.Resource)
	if err != nil {
		return uuid.Nil, fmt.Errorf("webhook events: render %s: %w", ev.Type, err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.Nil, err
	}
	at := time.Now().UTC().Truncate(time.Microsecond)
	body, err := json.Marshal(struct {
		Type      string          `json:"type"`
		Timestamp time.Time       `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}{ev.Type, at, data})
	if err != nil {
		return uuid.Nil, fmt.Errorf("webhook events: body of %s: %w", ev.Type, err)
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_events (id, type, body, created_at) VALUES (?, ?, ?, ?)`,
		id, ev.Type, string(body), at); err != nil {
		return uuid.Nil, fmt.Errorf("webhook events: insert %s: %w", ev.Type, err)
	}
	endpoints, states := make([]int64, len(targets)), make([]string, len(targets))
	for i, t := range targets {
		endpoints[i], states[i] = t.Endpoint, webhooks.StatePending
		if !t.Open {
			states[i] = webhooks.StateDropped
		}
	}
	var deliveries []struct {
		ID    int64  `bun:"id"`
		State string `bun:"state"`
	}
	if err := tx.NewRaw(`INSERT INTO webhook_deliveries (event_id, endpoint_id, state, created_at)
		SELECT ?, t.endpoint, t.state, ? FROM unnest(?::bigint[], ?::text[]) AS t (endpoint, state)
		RETURNING id, state`, id, at, pgdialect.Array(endpoints), pgdialect.Array(states)).Scan(ctx, &deliveries); err != nil {
		return uuid.Nil, fmt.Errorf("webhook events: deliveries of %s: %w", ev.Type, err)
	}
	var jobs []river.InsertManyParams
	for _, d := range deliveries {
		if d.State == webhooks.StatePending {
			jobs = append(jobs, river.InsertManyParams{Args: WebhookArgs{DeliveryID: d.ID}, InsertOpts: &river.InsertOpts{Tags: []string{webhookJobTag(ev.Type)}}})
		}
	}
	if len(jobs) > 0 {
		if _, err := jobInserter().InsertManyTx(ctx, tx.Tx, jobs); err != nil {
			return uuid.Nil, fmt.Errorf("webhook events: delivery jobs of %s: %w", ev.Type, err)
		}
	}
	return id, nil
}
