package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/webhooks"
)

// WebhookEndpointStore is the webhooks.EndpointStore on PostgreSQL.
type WebhookEndpointStore struct{ db bun.IDB }

var _ webhooks.EndpointStore = (*WebhookEndpointStore)(nil)

// WebhookStores binds the webhook endpoints' stores to db.
func WebhookStores(db bun.IDB) webhooks.Stores {
	return webhooks.Stores{Endpoints: &WebhookEndpointStore{db: db}, Attempts: &WebhookAttemptStore{db: db},
		Tests: NewWebhookEvents(db)}
}

// webhookOwnersLock names the advisory locks that serialise the creates
// of one owner's endpoints (its key: the partner's id, 0 for the
// platform's): 0x77686b73 is "whks".
const webhookOwnersLock int32 = 0x77686b73

type webhookEndpointRow struct {
	bun.BaseModel `bun:"table:webhook_endpoints,alias:we"`

	ID                int64      `bun:"id,pk,autoincrement"`
	PartnerID         *int64     `bun:"partner_id"`
	URL               string     `bun:"url,notnull"`
	Events            []string   `bun:"events,array,notnull"`
	Description       string     `bun:"description,notnull"`
	IsActive          bool       `bun:"is_active,notnull"`
	Secret            string     `bun:"secret,notnull"`
	PreviousSecret    string     `bun:"previous_secret,notnull"`
	PreviousExpiresAt *time.Time `bun:"previous_expires_at"`
	CreatedOn         time.Time  `bun:"created_on,nullzero,notnull,default:current_timestamp"`
}

func (r *webhookEndpointRow) toDomain() *webhooks.Endpoint {
	e := &webhooks.Endpoint{ID: r.ID, PartnerID: r.PartnerID, URL: r.URL, Events: r.Events, Description: r.Description,
		IsActive: r.IsActive, Secret: r.Secret, PreviousSecret: r.PreviousSecret, PreviousExpiresAt: r.PreviousExpiresAt,
		CreatedOn: r.CreatedOn}
	if e.Events == nil {
		e.Events = []string{}
	}
	return e
}

func webhookEndpointRowOf(e *webhooks.Endpoint) *webhookEndpointRow {
	return &webhookEndpointRow{ID: e.ID, PartnerID: e.PartnerID, URL: e.URL, Events: e.Events, Description: e.Description,
		IsActive: e.IsActive, Secret: e.Secret, PreviousSecret: e.PreviousSecret, PreviousExpiresAt: e.PreviousExpiresAt,
		CreatedOn: e.CreatedOn}
}

// Endpoints implements webhooks.EndpointStore.
func (s *WebhookEndpointStore) Endpoints(ctx context.Context, tenant *int64, page domain.PageRequest) ([]*webhooks.Endpoint, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []webhookEndpointRow
	q := s.db.NewSelect().Model(&rows)
	if tenant != nil {
		q = q.Where("we.partner_id = ?", *tenant)
	}
	count, err := q.OrderExpr("we.created_on DESC, we.id DESC").Limit(page.Size).Offset(page.Offset()).ScanAndCount(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("list webhook endpoints: %w", err)
	}
	out := make([]*webhooks.Endpoint, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// Endpoint implements webhooks.EndpointStore.
func (s *WebhookEndpointStore) Endpoint(ctx context.Context, id int64) (*webhooks.Endpoint, error) {
	return s.find(ctx, id, false)
}

// LockEndpoint implements webhooks.EndpointStore.
func (s *WebhookEndpointStore) LockEndpoint(ctx context.Context, id int64) (*webhooks.Endpoint, error) {
	return s.find(ctx, id, true)
}

func (s *WebhookEndpointStore) find(ctx context.Context, id int64, lock bool) (*webhooks.Endpoint, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var row webhookEndpointRow
	q := s.db.NewSelect().Model(&row).Where("we.id = ?", id)
	if lock {
		q = q.For("UPDATE")
	}
	switch err := q.Scan(ctx); {
	case errors.Is(err, sql.ErrNoRows):
		return nil, domain.ErrNotFound
	case err != nil:
		return nil, fmt.Errorf("find webhook endpoint: %w", err)
	}
	return row.toDomain(), nil
}

// CountOwned implements webhooks.EndpointStore.
func (s *WebhookEndpointStore) CountOwned(ctx context.Context, owner *int64) (int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	key := int64(0)
	if owner != nil {
		key = *owner
	}
	// The two-key form takes an int4 and an int4: the owner's id is
	// folded into its low 32 bits (a shared lock for ids that collide
	// only serialises more).
	if _, err := s.db.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?, ?::bigint::bit(32)::int4)", webhookOwnersLock, key); err != nil {
		return 0, fmt.Errorf("lock webhook endpoints: %w", err)
	}
	q := s.db.NewSelect().Model((*webhookEndpointRow)(nil))
	if owner != nil {
		q = q.Where("we.partner_id = ?", *owner)
	} else {
		q = q.Where("we.partner_id IS NULL")
	}
	n, err := q.Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("count webhook endpoints: %w", err)
	}
	return n, nil
}

// CreateEndpoint implements webhooks.EndpointStore.
func (s *WebhookEndpointStore) CreateEndpoint(ctx context.Context, e *webhooks.Endpoint) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := webhookEndpointRowOf(e)
	if _, err := s.db.NewInsert().Model(row).Returning("id, created_on").Exec(ctx); err != nil {
		return fmt.Errorf("create webhook endpoint: %w", err)
	}
	e.ID, e.CreatedOn = row.ID, row.CreatedOn
	return nil
}

// UpdateEndpoint implements webhooks.EndpointStore. An endpoint enabled
// again loses why it was disabled and counts its failures afresh.
func (s *WebhookEndpointStore) UpdateEndpoint(ctx context.Context, e *webhooks.Endpoint) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if e.IsActive {
		if _, err := s.db.ExecContext(ctx, `UPDATE webhook_endpoints SET disabled_reason = '', failing_since = NULL
			WHERE id = ? AND NOT is_active`, e.ID); err != nil {
			return fmt.Errorf("enable webhook endpoint: %w", err)
		}
	}
	if _, err := s.db.NewUpdate().Model(webhookEndpointRowOf(e)).
		Column("url", "events", "description", "is_active", "secret", "previous_secret", "previous_expires_at").
		WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("update webhook endpoint: %w", err)
	}
	return nil
}

// DeleteEndpoint implements webhooks.EndpointStore.
func (s *WebhookEndpointStore) DeleteEndpoint(ctx context.Context, id int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewDelete().Model((*webhookEndpointRow)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
		return fmt.Errorf("delete webhook endpoint: %w", err)
	}
	return nil
}
