package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
)

// WebhookDeliveryStore is the webhooks.DeliveryStore on PostgreSQL.
type WebhookDeliveryStore struct{ db bun.IDB }

var _ webhooks.DeliveryStore = (*WebhookDeliveryStore)(nil)

// WebhookDeliveryStores binds the delivery service's stores to db.
func WebhookDeliveryStores(db bun.IDB) webhooks.DeliveryStores {
	return webhooks.DeliveryStores{
		Endpoints:  &WebhookEndpointStore{db: db},
		Deliveries: &WebhookDeliveryStore{db: db},
		Outbox:     NewOutbox(db),
	}
}

type webhookDeliveryRow struct {
	ID         int64     `bun:"id"`
	EndpointID int64     `bun:"endpoint_id"`
	EventID    uuid.UUID `bun:"event_id"`
	EventType  string    `bun:"event_type"`
	Body       string    `bun:"body"`
	State      string    `bun:"state"`
	Attempts   int       `bun:"attempts"`
	Generation int       `bun:"generation"`
}

// Delivery implements webhooks.DeliveryStore.
func (s *WebhookDeliveryStore) Delivery(ctx context.Context, id int64) (*webhooks.Delivery, error) {
	return s.delivery(ctx, id, false)
}

// LockDelivery implements webhooks.DeliveryStore: the delivery's row only
// (FOR UPDATE OF d), the event's being never written.
func (s *WebhookDeliveryStore) LockDelivery(ctx context.Context, id int64) (*webhooks.Delivery, error) {
	return s.delivery(ctx, id, true)
}

func (s *WebhookDeliveryStore) delivery(ctx context.Context, id int64, lock bool) (*webhooks.Delivery, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	q := `SELECT d.id, d.endpoint_id, d.event_id, e.type AS event_type, e.body, d.state, d.attempts, d.generation
		FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id = ?`
	if lock {
		q += " FOR UPDATE OF d"
	}
	var rows []webhookDeliveryRow
	if err := s.db.NewRaw(q, id).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("find webhook delivery: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	r := rows[0]
	return &webhooks.Delivery{ID: r.ID, EndpointID: r.EndpointID, EventID: r.EventID, EventType: r.EventType, Body: r.Body,
		State: r.State, Attempts: r.Attempts, Generation: r.Generation}, nil
}

// UpdateDelivery implements webhooks.DeliveryStore.
func (s *WebhookDeliveryStore) UpdateDelivery(ctx context.Context, d *webhooks.Delivery, lastAttempt *time.Time) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, `UPDATE webhook_deliveries SET state = ?, attempts = ?,
		last_attempt_at = COALESCE(?, last_attempt_at) WHERE id = ?`, d.State, d.Attempts, lastAttempt, d.ID); err != nil {
		return fmt.Errorf("update webhook delivery: %w", err)
	}
	return nil
}

// RecordAttempt implements webhooks.DeliveryStore.
func (s *WebhookDeliveryStore) RecordAttempt(ctx context.Context, delivery int64, a *webhooks.Attempt) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO webhook_attempts
		(delivery_id, endpoint_id, event_id, attempted_at, status_code, duration_ms, response, error, state)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, delivery, a.EndpointID, a.EventID, a.At, a.StatusCode,
		min(a.Duration.Milliseconds(), 1<<31-1), a.Response, a.Error, a.State).Scan(ctx, &a.ID)
	if err != nil {
		return fmt.Errorf("record webhook attempt: %w", err)
	}
	return nil
}

// LockHealth implements webhooks.DeliveryStore: FOR NO KEY UPDATE, which
// a change's transaction publishing an event to the endpoint (its
// deliveries' foreign key takes KEY SHARE) does not wait for.
func (s *WebhookDeliveryStore) LockHealth(ctx context.Context, endpoint int64) (*webhooks.Health, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID           int64      `bun:"id"`
		PartnerID    *int64     `bun:"partner_id"`
		URL          string     `bun:"url"`
		IsActive     bool       `bun:"is_active"`
		FailingSince *time.Time `bun:"failing_since"`
	}
	if err := s.db.NewRaw(`SELECT id, partner_id, url, is_active, failing_since FROM webhook_endpoints
		WHERE id = ? FOR NO KEY UPDATE`, endpoint).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("lock webhook endpoint: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	r := rows[0]
	return &webhooks.Health{EndpointID: r.ID, PartnerID: r.PartnerID, URL: r.URL, IsActive: r.IsActive, FailingSince: r.FailingSince}, nil
}

// SetFailingSince implements webhooks.DeliveryStore.
func (s *WebhookDeliveryStore) SetFailingSince(ctx context.Context, endpoint int64, since *time.Time) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?`, since, endpoint); err != nil {
		return fmt.Errorf("set webhook endpoint failing_since: %w", err)
	}
	return nil
}

// Disable implements webhooks.DeliveryStore. failing_since is cleared: an
// endpoint enabled again starts counting its failures afresh.
func (s *WebhookDeliveryStore) Disable(ctx context.Context, endpoint int64, reason string) (int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, `UPDATE webhook_endpoints SET is_active = false, disabled_reason = left(?, 255),
		failing_since = NULL WHERE id = ?`, reason, endpoint); err != nil {
		return 0, fmt.Errorf("disable webhook endpoint: %w", err)
	}
	res, err := s.db.ExecContext(ctx, `UPDATE webhook_deliveries SET state = ? WHERE endpoint_id = ? AND state = ?`,
		webhooks.StateFailed, endpoint, webhooks.StatePending)
	if err != nil {
		return 0, fmt.Errorf("fail waiting webhook deliveries: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// Contacts implements webhooks.DeliveryStore: the partner's active users
// holding manage_masteradmin (who manage its endpoints) with an address,
// else the agency address of its legal information.
func (s *WebhookDeliveryStore) Contacts(ctx context.Context, partner int64, limit int) ([]string, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var to []string
	err := s.db.NewRaw(`SELECT u.email FROM users u
		JOIN user_permissions up ON up.user_id = u.id JOIN permissions p ON p.id = up.permission_id
		WHERE u.partner_id = ? AND u.is_active AND u.email <> '' AND p.name = ?
		ORDER BY u.id LIMIT ?`, partner, domain.PermManageMasterAdmin, limit).Scan(ctx, &to)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("webhook contacts of partner %d: %w", partner, err)
	}
	if len(to) > 0 {
		return to, nil
	}
	err = s.db.NewRaw(`SELECT agency_email FROM partner_legal_information WHERE partner_id = ? AND agency_email <> ''`,
		partner).Scan(ctx, &to)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("webhook contacts of partner %d: %w", partner, err)
	}
	return to, nil
}

// Purge implements webhooks.DeliveryStore: attempts by their time, then
// events (their deliveries and remaining attempts cascade) none of whose
// deliveries waits or was tried since before.
func (s *WebhookDeliveryStore) Purge(ctx context.Context, before time.Time, limit int) (int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.ExecContext(ctx, `DELETE FROM webhook_attempts WHERE id IN
		(SELECT id FROM webhook_attempts WHERE attempted_at < ? ORDER BY attempted_at LIMIT ?)`, before, limit)
	if err != nil {
		return 0, fmt.Errorf("purge webhook attempts: %w", err)
	}
	attempts, _ := res.RowsAffected()
	res, err = s.db.ExecContext(ctx, `DELETE FROM webhook_events WHERE id IN
		(SELECT e.id FROM webhook_events e WHERE e.created_at < ? AND NOT EXISTS
			(SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id
				AND (d.state = ? OR d.last_attempt_at >= ?))
		ORDER BY e.created_at LIMIT ?)`, before, webhooks.StatePending, before, limit)
	if err != nil {
		return int(attempts), fmt.Errorf("purge webhook events: %w", err)
	}
	events, _ := res.RowsAffected()
	return int(attempts + events), nil
}
