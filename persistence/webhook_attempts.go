package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
)

// WebhookAttemptStore is the webhooks.AttemptStore on PostgreSQL.
type WebhookAttemptStore struct{ db bun.IDB }

var _ webhooks.AttemptStore = (*WebhookAttemptStore)(nil)

type webhookAttemptRow struct {
	ID          int64     `bun:"id"`
	EndpointID  int64     `bun:"endpoint_id"`
	EventID     uuid.UUID `bun:"event_id"`
	EventType   string    `bun:"event_type"`
	AttemptedAt time.Time `bun:"attempted_at"`
	StatusCode  int       `bun:"status_code"`
	DurationMS  int64     `bun:"duration_ms"`
	Response    string    `bun:"response"`
	Error       string    `bun:"error"`
	State       string    `bun:"state"`
}

// Attempts implements webhooks.AttemptStore.
func (s *WebhookAttemptStore) Attempts(ctx context.Context, endpoint int64, f webhooks.AttemptFilter, page domain.PageRequest) ([]*webhooks.Attempt, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	where, args := "a.endpoint_id = ?", []any{endpoint}
	if f.Event != nil {
		where, args = where+" AND a.event_id = ?", append(args, *f.Event)
	}
	var count int
	if err := s.db.NewRaw("SELECT count(*) FROM webhook_attempts a WHERE "+where, args...).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count webhook attempts: %w", err)
	}
	var rows []webhookAttemptRow
	q := `SELECT a.id, a.endpoint_id, a.event_id, e.type AS event_type, a.attempted_at, a.status_code, a.duration_ms,
			a.response, a.error, a.state
		FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id
		WHERE ` + where + ` ORDER BY a.attempted_at DESC, a.id DESC LIMIT ? OFFSET ?`
	if err := s.db.NewRaw(q, append(args, page.Size, page.Offset())...).Scan(ctx, &rows); err != nil {
		return nil, 0, fmt.Errorf("list webhook attempts: %w", err)
	}
	out := make([]*webhooks.Attempt, len(rows))
	for i, r := range rows {
		out[i] = &webhooks.Attempt{ID: r.ID, EndpointID: r.EndpointID, EventID: r.EventID, EventType: r.EventType,
			At: r.AttemptedAt, StatusCode: r.StatusCode, Duration: time.Duration(r.DurationMS) * time.Millisecond,
			Response: r.Response, Error: r.Error, State: r.State}
	}
	return out, count, nil
}

// Waiting implements webhooks.AttemptStore, through the partial index on
// waiting deliveries.
func (s *WebhookAttemptStore) Waiting(ctx context.Context, endpoint int64) (int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var n int
	if err := s.db.NewRaw(`SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = ? AND state = 'pending'`,
		endpoint).Scan(ctx, &n); err != nil {
		return 0, fmt.Errorf("count waiting webhook deliveries: %w", err)
	}
	return n, nil
}

// requeued is a delivery set pending again, and its event's type (its
// job's tag).
type requeued struct {
	ID         int64  `bun:"id"`
	Generation int    `bun:"generation"`
	Type       string `bun:"type"`
}

// ResendEvent implements webhooks.AttemptStore.
func (s *WebhookAttemptStore) ResendEvent(ctx context.Context, endpoint int64, event uuid.UUID, limit int) (int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var state string
	err := s.db.NewRaw(`SELECT state FROM webhook_deliveries WHERE endpoint_id = ? AND event_id = ? FOR UPDATE`,
		endpoint, event).Scan(ctx, &state)
	switch {
	case err != nil && errors.Is(err, sql.ErrNoRows):
		return 0, domain.ErrNotFound
	case err != nil:
		return 0, fmt.Errorf("find webhook delivery: %w", err)
	case state == webhooks.StatePending || limit <= 0:
		return 0, nil
	}
	return s.requeue(ctx, `SELECT id FROM webhook_deliveries WHERE endpoint_id = ? AND event_id = ?`, endpoint, event)
}

// ResendFailed implements webhooks.AttemptStore.
func (s *WebhookAttemptStore) ResendFailed(ctx context.Context, endpoint int64, since time.Time, limit int) (int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	return s.requeue(ctx, `SELECT id FROM webhook_deliveries
		WHERE endpoint_id = ? AND state IN ('failed', 'dropped') AND created_at >= ?
		ORDER BY created_at, id LIMIT ? FOR UPDATE`, endpoint, since, limit)
}

// requeue sets the deliveries pick selects pending with no attempt and
// inserts their jobs, in the unit of work's transaction.
func (s *WebhookAttemptStore) requeue(ctx context.Context, pick string, args ...any) (int, error) {
	tx, ok := s.db.(bun.Tx)
	if !ok {
		return 0, errors.New("webhook resend: runs in the unit of work's transaction only")
	}
	var rows []requeued
	if err := tx.NewRaw(`UPDATE webhook_deliveries d SET state = 'pending', attempts = 0, generation = d.generation + 1
		FROM webhook_events e WHERE d.id IN (`+pick+`) AND e.id = d.event_id
		RETURNING d.id, d.generation, e.type`, args...).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("resend webhook deliveries: %w", err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	jobs := make([]river.InsertManyParams, len(rows))
	for i, d := range rows {
		jobs[i] = river.InsertManyParams{Args: WebhookArgs{DeliveryID: d.ID, Generation: d.Generation}, InsertOpts: &river.InsertOpts{Tags: []string{webhookJobTag(d.Type)}}}
	}
	if _, err := jobInserter().InsertManyTx(ctx, tx.Tx, jobs); err != nil {
		return 0, fmt.Errorf("resend webhook deliveries: jobs: %w", err)
	}
	return len(rows), nil
}
