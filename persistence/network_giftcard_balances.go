package persistence

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// network.Balances, the port on cards' remaining values, on the
// giftcards' store: the one place the SQL changes a remaining value once
// the card is issued.
// Every spend is one statement, the update guarded by spendable and the
// inserts of its records and ledger movement (PostgreSQL serialises the
// updates of one card on its row, so that concurrent spends see each
// other's remaining value); the row's lock lasts to the commit.

var _ network.Balances = (*NetworkGiftcardStore)(nil)

// spendable is the rule of every spend of a card, on the network_giftcards
// row being updated, with amount and at the statement's expressions of the
// amount spent and of the spend's time. Its Go twin is
// network.(*Card).SpendRefusal: a change of the rule is made in both.
func spendable(amount, at string) string {
	return `is_active AND status IN ('paid', 'using')
		AND (activation_date IS NULL OR activation_date <= ` + at + `)
		AND (expiration_date IS NULL OR expiration_date >= ` + at + `)
		AND (is_splittable OR remaining_value = ` + amount + `)
		AND remaining_value >= ` + amount
}

// CardByUUID implements network.Balances.
func (s *NetworkGiftcardStore) CardByUUID(ctx context.Context, id uuid.UUID) (*network.Card, error) {
	return s.findCard(ctx, `g.uuid = $1`, id)
}

// LockCards implements network.Balances.
func (s *NetworkGiftcardStore) LockCards(ctx context.Context, ids []uuid.UUID) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = id.String()
	}
	var locked []int64
	if err := s.db.NewRaw(`SELECT id FROM network_giftcards WHERE uuid = ANY(?::uuid[])
		ORDER BY id FOR NO KEY UPDATE`, pgdialect.Array(keys)).Scan(ctx, &locked); err != nil {
		return fmt.Errorf("lock network giftcards: %w", err)
	}
	return nil
}

// useCardSQL: $1 card, $2 value, $3 partner, $4 comment, $5 reservation,
// $6 the usage's date (the spend's time), $7 freeze date, $8 actor; the
// update's condition also has guard.
func useCardSQL(guard string) string {
	return `WITH spent AS (
		UPDATE network_giftcards
		SET remaining_value = remaining_value - $2,
		    status = CASE WHEN status = 'paid' THEN 'using' ELSE status END
		WHERE id = $1 AND ` + spendable("$2", "$6") + guard + `
		RETURNING id, remaining_value),
	usage AS (
		INSERT INTO network_giftcard_usages (network_giftcard_id, partner_id, value, comment, reservation_id,
			creation_date, freeze_payout_date)
		SELECT id, $3, $2, $4, $5, $6, $7 FROM spent RETURNING id),
	movement AS (
		INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, usage_id,
			partner_id, reservation_id, comment, actor_user_id)
		SELECT spent.id, 'use', -$2::numeric, spent.remaining_value, usage.id, $3, $5, $4, $8 FROM spent, usage)
	SELECT usage.id AS usage_id, spent.remaining_value FROM spent, usage`
}

var (
	useCardAnySQL = useCardSQL("")
	// $9 the event's partners, $10 its type.
	useCardUnlessWatchedSQL = useCardSQL(` AND NOT EXISTS (SELECT 1 FROM webhook_endpoints e
			WHERE ` + subscribedEndpoints("$9", "$10") + `)`)
)

// UseCard implements network.Balances.
func (s *NetworkGiftcardStore) UseCard(ctx context.Context, u *network.Usage) (decimal.Decimal, bool, error) {
	return s.useCard(ctx, u, useCardAnySQL)
}

// UseCardUnlessWatched implements network.Balances.
func (s *NetworkGiftcardStore) UseCardUnlessWatched(ctx context.Context, u *network.Usage, eventType string, partners []int64) (bool, error) {
	_, ok, err := s.useCard(ctx, u, useCardUnlessWatchedSQL, partners, eventType)
	return ok, err
}

// useCard runs query, a useCardSQL, with u's arguments and then more.
func (s *NetworkGiftcardStore) useCard(ctx context.Context, u *network.Usage, query string, more ...any) (decimal.Decimal, bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		UsageID   int64           `bun:"usage_id"`
		Remaining decimal.Decimal `bun:"remaining_value"`
	}
	args := append([]any{u.CardID, u.Value, u.PartnerID, u.Comment, u.ReservationID, u.CreationDate, u.FreezePayoutDate,
		nullID(u.ActorID)}, more...)
	err := scanPrepared(ctx, s.db, &rows, query, args...)
	if err != nil {
		return decimal.Zero, false, fmt.Errorf("use network giftcard: %w", err)
	}
	if len(rows) == 0 {
		return decimal.Zero, false, nil
	}
	u.ID = rows[0].UsageID
	return rows[0].Remaining, true, nil
}

// holdCardSQL: $1 card, $2 amount, $3 partner, $4 reservation, $5 expiry,
// $6 actor, $7 the spend's time.
var holdCardSQL = `WITH held AS (
		UPDATE network_giftcards SET remaining_value = remaining_value - $2
		WHERE id = $1 AND ` + spendable("$2", "$7::timestamptz") + `
		RETURNING id, remaining_value),
	hold AS (
		INSERT INTO network_giftcard_holds (network_giftcard_id, partner_id, reservation_id, amount, expires_at)
		SELECT id, $3, $4, $2, $5 FROM held RETURNING id, created_at),
	movement AS (
		INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, hold_id,
			partner_id, reservation_id, actor_user_id)
		SELECT held.id, 'hold', -$2::numeric, held.remaining_value, hold.id, $3, $4, $6 FROM held, hold)
	SELECT hold.id, hold.created_at FROM hold`

// HoldCard implements network.Balances.
func (s *NetworkGiftcardStore) HoldCard(ctx context.Context, h *network.Hold, at time.Time) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID        int64     `bun:"id"`
		CreatedAt time.Time `bun:"created_at"`
	}
	err := scanPrepared(ctx, s.db, &rows, holdCardSQL,
		h.CardID, h.Amount, h.PartnerID, h.ReservationID, h.ExpiresAt, nullID(h.ActorID), at)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23505":
		return false, invalidField("reservation_id", domain.VUnique, "This card already has a hold under this reservation id.")
	case err != nil:
		return false, fmt.Errorf("hold network giftcard: %w", err)
	case len(rows) == 0:
		return false, nil
	}
	h.ID, h.CreatedAt = rows[0].ID, rows[0].CreatedAt
	return true, nil
}

// ledgerWritten is what the insert of a ledger movement returns.
type ledgerWritten struct {
	ID           int64           `bun:"id"`
	CardID       int64           `bun:"network_giftcard_id"`
	BalanceAfter decimal.Decimal `bun:"balance_after"`
	CreatedAt    time.Time       `bun:"created_at"`
}

// ledgerSet sets what the insert of m returned, if it did.
func ledgerSet(m *network.Movement, rows []ledgerWritten) bool {
	if len(rows) == 0 {
		return false
	}
	m.ID, m.CardID, m.BalanceAfter, m.CreatedAt = rows[0].ID, rows[0].CardID, rows[0].BalanceAfter, rows[0].CreatedAt
	return true
}

// Restore implements network.Balances.
func (s *NetworkGiftcardStore) Restore(ctx context.Context, m *network.Movement) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []ledgerWritten
	err := scanPrepared(ctx, s.db, &rows, `WITH restored AS (
			UPDATE network_giftcards SET remaining_value = remaining_value + $2 WHERE id = $1
			RETURNING id, remaining_value)
		INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, usage_id, hold_id,
			partner_id, actor_user_id, reservation_id, comment)
		SELECT id, $3, $2, remaining_value, $4, $5, $6, $7, $8, $9 FROM restored
		RETURNING id, network_giftcard_id, balance_after, created_at`,
		m.CardID, m.Amount, m.Kind, m.UsageID, m.HoldID, m.PartnerID, m.ActorID, m.ReservationID, m.Comment)
	if err != nil {
		return fmt.Errorf("restore network giftcard: %w", err)
	}
	if !ledgerSet(m, rows) {
		return fmt.Errorf("restore network giftcard: no card %d", m.CardID)
	}
	return nil
}

// drawCardSQL: $1 card uuid, $2 the amount drawn, $3 currency, $4 the
// spend's time, $5 actor, $6 comment, $7 wallet movement.
var drawCardSQL = `WITH card AS (
		UPDATE network_giftcards
		SET remaining_value = remaining_value - $2::numeric,
		    status = CASE WHEN status = 'paid' THEN 'using' ELSE status END
		WHERE uuid = $1::uuid AND currency = $3 AND ` + spendable("$2::numeric", "$4::timestamptz") + `
		RETURNING id, remaining_value)
	INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, actor_user_id,
		comment, wallet_movement_id)
	SELECT id, 'payment', -$2::numeric, remaining_value, $5::bigint, $6, $7::bigint FROM card
	RETURNING id, network_giftcard_id, balance_after, created_at`

// DrawCard implements network.Balances. The ledger movement names its
// wallet movement before the payments area writes it: the foreign key is
// checked at the commit (deferred), so that a draw without its wallet
// movement cannot commit.
func (s *NetworkGiftcardStore) DrawCard(ctx context.Context, card uuid.UUID, currency string, m *network.Movement, at time.Time) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []ledgerWritten
	err := scanPrepared(ctx, s.db, &rows, drawCardSQL,
		card, m.Amount.Neg(), currency, at, m.ActorID, m.Comment, m.WalletMovementID)
	if err != nil {
		return false, fmt.Errorf("draw from network giftcard: %w", err)
	}
	return ledgerSet(m, rows), nil
}

// RefundCard implements network.Balances, as DrawCard.
func (s *NetworkGiftcardStore) RefundCard(ctx context.Context, card uuid.UUID, currency string, m *network.Movement) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []ledgerWritten
	err := scanPrepared(ctx, s.db, &rows, `WITH card AS (
			UPDATE network_giftcards SET remaining_value = remaining_value + $2::numeric
			WHERE uuid = $1::uuid AND currency = $3 AND remaining_value + $2::numeric <= value
			RETURNING id, remaining_value)
		INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, actor_user_id,
			comment, wallet_movement_id)
		SELECT id, 'refund', $2::numeric, remaining_value, $4::bigint, $5, $6::bigint FROM card
		RETURNING id, network_giftcard_id, balance_after, created_at`,
		card, m.Amount, currency, m.ActorID, m.Comment, m.WalletMovementID)
	if err != nil {
		return false, fmt.Errorf("refund to network giftcard: %w", err)
	}
	return ledgerSet(m, rows), nil
}

// LapseHolds implements network.Balances: the lapsed holds, their
// amounts back on their cards and one release movement each, whose
// balance after is the card's running balance in the holds' order.
func (s *NetworkGiftcardStore) LapseHolds(ctx context.Context, now time.Time, cardID int64, limit int) (int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var n int
	err := s.db.NewRaw(`WITH due AS (
			SELECT id FROM network_giftcard_holds
			WHERE status = 'held' AND expires_at <= ?0 AND (?1 = 0 OR network_giftcard_id = ?1)
			ORDER BY expires_at, id LIMIT ?2 FOR UPDATE SKIP LOCKED),
		lapsed AS (
			UPDATE network_giftcard_holds h SET status = 'lapsed', ended_at = now() FROM due WHERE h.id = due.id
			RETURNING h.id, h.network_giftcard_id, h.partner_id, h.reservation_id, h.amount),
		per_card AS (SELECT network_giftcard_id, sum(amount) AS total FROM lapsed GROUP BY network_giftcard_id),
		cards AS (
			UPDATE network_giftcards g SET remaining_value = g.remaining_value + per_card.total
			FROM per_card WHERE g.id = per_card.network_giftcard_id
			RETURNING g.id, g.remaining_value, per_card.total),
		movements AS (
			INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, hold_id,
				partner_id, reservation_id, comment)
			SELECT l.network_giftcard_id, 'release', l.amount,
				c.remaining_value - c.total + sum(l.amount) OVER (PARTITION BY l.network_giftcard_id ORDER BY l.id),
				l.id, l.partner_id, l.reservation_id, 'lapsed'
			FROM lapsed l JOIN cards c ON c.id = l.network_giftcard_id)
		SELECT count(*) FROM lapsed`, now, cardID, limit).Scan(ctx, &n)
	if err != nil {
		return 0, fmt.Errorf("lapse network giftcard holds: %w", err)
	}
	return n, nil
}

// AdjustCard implements network.Balances.
func (s *NetworkGiftcardStore) AdjustCard(ctx context.Context, m *network.Movement) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID        int64           `bun:"id"`
		Balance   decimal.Decimal `bun:"balance_after"`
		CreatedAt time.Time       `bun:"created_at"`
	}
	err := scanPrepared(ctx, s.db, &rows, `WITH adjusted AS (
			UPDATE network_giftcards g SET remaining_value = remaining_value + $2
			WHERE id = $1 AND remaining_value + $2 >= 0
				-- A credit counts what live holds, cancellable usages and
				-- payments' draws may give back too: it must still fit under
				-- the value then.
				AND ($2 < 0 OR remaining_value + $2
					+ (SELECT COALESCE(sum(h.amount), 0) FROM network_giftcard_holds h
						WHERE h.network_giftcard_id = g.id AND h.status = 'held')
					+ (SELECT COALESCE(sum(u.value), 0) FROM network_giftcard_usages u
						WHERE u.network_giftcard_id = g.id AND u.is_active AND u.payout_id IS NULL)
					-- and what payments drew and may refund
					- (SELECT COALESCE(sum(m.amount), 0) FROM network_giftcard_movements m
						WHERE m.network_giftcard_id = g.id AND m.kind IN ('payment', 'refund')) <= value)
			RETURNING id, remaining_value)
		INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, actor_user_id, comment)
		SELECT id, 'adjust', $2, remaining_value, $3, $4 FROM adjusted
		RETURNING id, balance_after, created_at`, m.CardID, m.Amount, m.ActorID, m.Comment)
	if err != nil {
		return false, fmt.Errorf("adjust network giftcard: %w", err)
	}
	if len(rows) == 0 {
		return false, nil
	}
	m.ID, m.BalanceAfter, m.CreatedAt = rows[0].ID, rows[0].Balance, rows[0].CreatedAt
	return true, nil
}
