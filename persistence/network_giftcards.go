package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// NetworkGiftcardStore is the network.GiftcardStore on PostgreSQL. A
// use's statements are prepared (prepared.go): one card may take many
// uses a second.
type NetworkGiftcardStore struct{ db bun.IDB }

var _ network.GiftcardStore = (*NetworkGiftcardStore)(nil)

// NetworkStores binds the network area's stores to db.
func NetworkStores(db bun.IDB) network.Stores {
	cards := &NetworkGiftcardStore{db: db}
	return network.Stores{Giftcards: cards, Balances: cards, Holds: cards, Ledger: cards, Vouchers: &NetworkVoucherStore{db: db},
		Partners: &NetworkPartnerStore{PartnerStore: &PartnerStore{db: db}, db: db}, Lists: &NetworkListStore{db: db}, Keys: NewIdempotencyStore(db),
		Outbox: NewOutbox(db), Events: NewWebhookEvents(db)}
}

type networkCardRow struct {
	ID             int64           `bun:"id"`
	UUID           uuid.UUID       `bun:"uuid"`
	MarketplaceID  int64           `bun:"marketplace_id"`
	Currency       string          `bun:"currency"`
	Status         string          `bun:"status"`
	IsActive       bool            `bun:"is_active"`
	Value          decimal.Decimal `bun:"value"`
	RemainingValue decimal.Decimal `bun:"remaining_value"`
	IsSplittable   bool            `bun:"is_splittable"`
	CreationDate   time.Time       `bun:"creation_date"`
	ActivationDate *time.Time      `bun:"activation_date"`
	ExpirationDate *time.Time      `bun:"expiration_date"`
	TimeZone       string          `bun:"time_zone"`
}

// networkCardSelect reads networkCardRow, the balance view, of a card g:
// its columns and the tables they come from.
const (
	networkCardColumns = `g.id, g.uuid, g.marketplace_id, g.currency, g.status, g.is_active, g.value,
	g.remaining_value, g.is_splittable, g.creation_date, g.activation_date, g.expiration_date, p.time_zone`
	networkCardFrom   = `FROM network_giftcards g JOIN partners p ON p.id = g.marketplace_id`
	networkCardSelect = `SELECT ` + networkCardColumns + ` ` + networkCardFrom
)

// findCard returns the card of networkCardSelect's condition where.
func (s *NetworkGiftcardStore) findCard(ctx context.Context, where string, arg any) (*network.Card, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []networkCardRow
	if err := scanPrepared(ctx, s.db, &rows, networkCardSelect+` WHERE `+where, arg); err != nil {
		return nil, fmt.Errorf("select network giftcard: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].card(), nil
}

func (r *networkCardRow) card() *network.Card {
	return &network.Card{ID: r.ID, UUID: r.UUID, MarketplaceID: r.MarketplaceID, Currency: r.Currency, Status: r.Status,
		IsActive: r.IsActive, Value: r.Value, RemainingValue: r.RemainingValue, IsSplittable: r.IsSplittable,
		CreationDate: r.CreationDate, ActivationDate: r.ActivationDate, ExpirationDate: r.ExpirationDate,
		TimeZone: r.TimeZone}
}

// FindCardByCode implements network.GiftcardStore.
func (s *NetworkGiftcardStore) FindCardByCode(ctx context.Context, code string) (*network.Card, error) {
	return s.findCard(ctx, `lower(g.code) = lower($1)`, code)
}

// cardAtPartnerSQL is networkCardSelect's card of code $1 and the
// acceptor (acceptorSelect) of its marketplace's network whose condition
// is appended, its columns prefixed a_.
func cardAtPartnerSQL(acceptor string) string {
	return `SELECT ` + networkCardColumns + `, a.partner_id AS a_partner_id, a.marketplace_id AS a_marketplace_id,
		a.source_id AS a_source_id, a.status AS a_status, a.ngc AS a_ngc, a.nv AS a_nv
	` + networkCardFrom + `
	LEFT JOIN LATERAL (` + acceptorSelect("g.marketplace_id") + acceptor + `) a ON true
	WHERE lower(g.code) = lower($1)`
}

var (
	cardAtSourceIDSQL  = cardAtPartnerSQL(`np.source_id = $2`)
	cardAtPartnerIDSQL = cardAtPartnerSQL(`np.partner_id = $2`)
)

// FindCardAtPartner implements network.GiftcardStore.
func (s *NetworkGiftcardStore) FindCardAtPartner(ctx context.Context, code string, partnerID int64, sourceID string) (*network.Card, *network.Acceptor, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		networkCardRow
		Acceptor acceptorRow `bun:"embed:a_"` // zero when the network has no such partner
	}
	query, partner := cardAtSourceIDSQL, any(sourceID)
	if sourceID == "" {
		query, partner = cardAtPartnerIDSQL, partnerID
	}
	if err := scanPrepared(ctx, s.db, &rows, query, code, partner); err != nil {
		return nil, nil, fmt.Errorf("select network giftcard and partner: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil, domain.ErrNotFound
	}
	r := rows[0]
	if r.Acceptor.PartnerID == 0 {
		return r.card(), nil, nil
	}
	return r.card(), r.Acceptor.acceptor(), nil
}

type networkUsageRow struct {
	ID               int64           `bun:"id"`
	CardID           int64           `bun:"network_giftcard_id"`
	MarketplaceID    int64           `bun:"marketplace_id"`
	PartnerID        int64           `bun:"partner_id"`
	PartnerSourceID  string          `bun:"partner_source_id"`
	Value            decimal.Decimal `bun:"value"`
	IsActive         bool            `bun:"is_active"`
	Comment          string          `bun:"comment"`
	ReservationID    string          `bun:"reservation_id"`
	CreationDate     time.Time       `bun:"creation_date"`
	FreezePayoutDate *time.Time      `bun:"freeze_payout_date"`
	PayoutID         *int64          `bun:"payout_id"`
	TimeZone         string          `bun:"time_zone"`
}

// networkUsageColumns are networkUsageRow's columns, of a usage aliased u
// (its card's marketplace and the partner's source id in it by
// subqueries).
const networkUsageColumns = `u.id, u.network_giftcard_id, u.partner_id, u.value, u.is_active, u.comment,
	u.reservation_id, u.creation_date, u.freeze_payout_date, u.payout_id,
	(SELECT c.marketplace_id FROM network_giftcards c WHERE c.id = u.network_giftcard_id) AS marketplace_id,
	(SELECT p.time_zone FROM network_giftcards c JOIN partners p ON p.id = c.marketplace_id
		WHERE c.id = u.network_giftcard_id) AS time_zone,
	COALESCE((SELECT np.source_id FROM network_partners np JOIN network_giftcards c ON c.marketplace_id = np.marketplace_id
		WHERE c.id = u.network_giftcard_id AND np.partner_id = u.partner_id), '') AS partner_source_id`

// networkUsageCurrency is the currency of a usage aliased u: its card's.
const networkUsageCurrency = `(SELECT c.currency FROM network_giftcards c WHERE c.id = u.network_giftcard_id)`

// networkUsageTenant is the condition that keeps the usages of tenant's
// cards (any for nil), with its arguments.
func networkUsageTenant(tenant *int64) (string, []any) {
	if tenant == nil {
		return "TRUE", nil
	}
	return "u.network_giftcard_id IN (SELECT c.id FROM network_giftcards c WHERE c.marketplace_id = ?)", []any{*tenant}
}

func (r *networkUsageRow) toDomain() *network.Usage {
	return &network.Usage{ID: r.ID, CardID: r.CardID, MarketplaceID: r.MarketplaceID, PartnerID: r.PartnerID,
		PartnerSourceID: r.PartnerSourceID, Value: r.Value, IsActive: r.IsActive,
		Comment: r.Comment, ReservationID: r.ReservationID, CreationDate: r.CreationDate,
		FreezePayoutDate: r.FreezePayoutDate, PayoutID: r.PayoutID, TimeZone: r.TimeZone}
}

// DeactivateUsage implements network.GiftcardStore.
func (s *NetworkGiftcardStore) DeactivateUsage(ctx context.Context, id int64, tenant *int64) (*network.Usage, bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	scope, scopeArgs := networkUsageTenant(tenant)
	var row networkUsageRow
	err := s.db.NewRaw(`UPDATE network_giftcard_usages AS u SET is_active = false
		WHERE u.id = ? AND u.is_active AND u.payout_id IS NULL AND `+scope+` RETURNING `+networkUsageColumns,
		append([]any{id}, scopeArgs...)...).Scan(ctx, &row)
	if err == nil {
		return row.toDomain(), true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, false, fmt.Errorf("cancel network giftcard usage: %w", err)
	}
	// Nothing changed: cancelled already, in a payout, or none.
	err = s.db.NewRaw(`SELECT `+networkUsageColumns+` FROM network_giftcard_usages AS u WHERE u.id = ? AND `+scope,
		append([]any{id}, scopeArgs...)...).Scan(ctx, &row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, domain.ErrNotFound
	}
	if err != nil {
		return nil, false, fmt.Errorf("select network giftcard usage: %w", err)
	}
	return row.toDomain(), false, nil
}

// nullID is nil for the zero id.
func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}
