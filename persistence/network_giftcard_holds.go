package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// The holds on network giftcards and the ledger's own operations
// (adjustments, the list of movements), on the giftcards' store.

var (
	_ network.HoldStore   = (*NetworkGiftcardStore)(nil)
	_ network.LedgerStore = (*NetworkGiftcardStore)(nil)
)

type networkHoldRow struct {
	ID              int64           `bun:"id"`
	CardID          int64           `bun:"network_giftcard_id"`
	MarketplaceID   int64           `bun:"marketplace_id"`
	PartnerID       int64           `bun:"partner_id"`
	PartnerSourceID string          `bun:"partner_source_id"`
	ReservationID   string          `bun:"reservation_id"`
	Amount          decimal.Decimal `bun:"amount"`
	Status          string          `bun:"status"`
	ExpiresAt       time.Time       `bun:"expires_at"`
	CreatedAt       time.Time       `bun:"created_at"`
	EndedAt         *time.Time      `bun:"ended_at"`
	UsageID         *int64          `bun:"usage_id"`
	TimeZone        string          `bun:"time_zone"`
}

// networkHoldColumns are networkHoldRow's columns, of a hold aliased h.
const networkHoldColumns = `h.id, h.network_giftcard_id, h.partner_id, h.reservation_id, h.amount, h.status,
	h.expires_at, h.created_at, h.ended_at, h.usage_id,
	c.marketplace_id, p.time_zone,
	COALESCE((SELECT np.source_id FROM network_partners np
		WHERE np.marketplace_id = c.marketplace_id AND np.partner_id = h.partner_id), '') AS partner_source_id`

const networkHoldJoins = ` JOIN network_giftcards c ON c.id = h.network_giftcard_id JOIN partners p ON p.id = c.marketplace_id`

func (r *networkHoldRow) toDomain() *network.Hold {
	return &network.Hold{ID: r.ID, CardID: r.CardID, MarketplaceID: r.MarketplaceID, PartnerID: r.PartnerID,
		PartnerSourceID: r.PartnerSourceID, ReservationID: r.ReservationID, Amount: r.Amount, Status: r.Status,
		ExpiresAt: r.ExpiresAt, CreatedAt: r.CreatedAt, EndedAt: r.EndedAt, UsageID: r.UsageID, TimeZone: r.TimeZone}
}

// EndHold implements network.HoldStore.
func (s *NetworkGiftcardStore) EndHold(ctx context.Context, cardID int64, reservationID, status string, liveAt *time.Time) (*network.Hold, bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var row networkHoldRow
	err := s.db.NewRaw(`WITH h AS (UPDATE network_giftcard_holds SET status = ?, ended_at = now()
			WHERE network_giftcard_id = ? AND reservation_id = ? AND status = 'held'
				AND (?::timestamptz IS NULL OR expires_at > ?::timestamptz) RETURNING *)
		SELECT `+networkHoldColumns+` FROM h`+networkHoldJoins, status, cardID, reservationID, liveAt, liveAt).Scan(ctx, &row)
	if err == nil {
		return row.toDomain(), true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, false, fmt.Errorf("end network giftcard hold: %w", err)
	}
	err = s.db.NewRaw(`SELECT `+networkHoldColumns+` FROM network_giftcard_holds h`+networkHoldJoins+`
		WHERE h.network_giftcard_id = ? AND h.reservation_id = ?`, cardID, reservationID).Scan(ctx, &row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, domain.ErrNotFound
	}
	if err != nil {
		return nil, false, fmt.Errorf("select network giftcard hold: %w", err)
	}
	return row.toDomain(), false, nil
}

// SetHoldUsage implements network.HoldStore.
func (s *NetworkGiftcardStore) SetHoldUsage(ctx context.Context, holdID, usageID int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewRaw(`UPDATE network_giftcard_holds SET usage_id = ? WHERE id = ?`, usageID, holdID).Exec(ctx); err != nil {
		return fmt.Errorf("link network giftcard hold: %w", err)
	}
	return nil
}

// CardsWithLapsedHolds implements network.HoldStore.
func (s *NetworkGiftcardStore) CardsWithLapsedHolds(ctx context.Context, now time.Time, limit int) ([]int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ids []int64
	err := s.db.NewRaw(`SELECT DISTINCT network_giftcard_id FROM network_giftcard_holds
		WHERE status = 'held' AND expires_at <= ? ORDER BY network_giftcard_id LIMIT ?`, now, limit).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("select cards with lapsed holds: %w", err)
	}
	return ids, nil
}

// HoldsOfCard implements network.HoldStore.
func (s *NetworkGiftcardStore) HoldsOfCard(ctx context.Context, cardID int64, page domain.PageRequest) ([]*network.Hold, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []networkHoldRow
	err := s.db.NewRaw(`SELECT `+networkHoldColumns+` FROM network_giftcard_holds h`+networkHoldJoins+`
		WHERE h.network_giftcard_id = ? ORDER BY h.id DESC LIMIT ? OFFSET ?`, cardID, page.Size, page.Offset()).Scan(ctx, &rows)
	if err != nil {
		return nil, 0, fmt.Errorf("select network giftcard holds: %w", err)
	}
	var count int
	if err := s.db.NewRaw(`SELECT count(*) FROM network_giftcard_holds WHERE network_giftcard_id = ?`, cardID).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count network giftcard holds: %w", err)
	}
	out := make([]*network.Hold, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// MovementsOfCard implements network.LedgerStore.
func (s *NetworkGiftcardStore) MovementsOfCard(ctx context.Context, cardID int64, page domain.PageRequest) ([]*network.Movement, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID            int64           `bun:"id"`
		CardID        int64           `bun:"network_giftcard_id"`
		Kind          string          `bun:"kind"`
		Amount        decimal.Decimal `bun:"amount"`
		BalanceAfter  decimal.Decimal `bun:"balance_after"`
		UsageID       *int64          `bun:"usage_id"`
		HoldID        *int64          `bun:"hold_id"`
		PartnerID     *int64          `bun:"partner_id"`
		ActorID       *int64          `bun:"actor_user_id"`
		ReservationID string          `bun:"reservation_id"`
		Comment       string          `bun:"comment"`
		PayoutID      *int64          `bun:"payout_id"`
		CreatedAt     time.Time       `bun:"created_at"`
		Count         int             `bun:"full_count"`
	}
	err := s.db.NewRaw(`SELECT id, network_giftcard_id, kind, amount, balance_after, usage_id, hold_id, partner_id,
			actor_user_id, reservation_id, comment, payout_id, created_at, count(*) OVER () AS full_count
		FROM network_giftcard_movements WHERE network_giftcard_id = ? ORDER BY id LIMIT ? OFFSET ?`,
		cardID, page.Size, page.Offset()).Scan(ctx, &rows)
	if err != nil {
		return nil, 0, fmt.Errorf("select network giftcard movements: %w", err)
	}
	count := 0
	out := make([]*network.Movement, len(rows))
	for i, r := range rows {
		out[i] = &network.Movement{ID: r.ID, CardID: r.CardID, Kind: r.Kind, Amount: r.Amount, BalanceAfter: r.BalanceAfter,
			UsageID: r.UsageID, HoldID: r.HoldID, PartnerID: r.PartnerID, ActorID: r.ActorID,
			ReservationID: r.ReservationID, Comment: r.Comment, PayoutID: r.PayoutID, CreatedAt: r.CreatedAt}
		count = r.Count
	}
	if len(rows) == 0 && page.Offset() > 0 {
		if err := s.db.NewRaw(`SELECT count(*) FROM network_giftcard_movements WHERE network_giftcard_id = ?`, cardID).Scan(ctx, &count); err != nil {
			return nil, 0, fmt.Errorf("count network giftcard movements: %w", err)
		}
	}
	return out, count, nil
}
