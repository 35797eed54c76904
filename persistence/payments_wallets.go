package persistence

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/payments"
)

// PaymentWalletStore is the payments.WalletStore on PostgreSQL. Every
// movement is one prepared statement (prepared.go) that locks its wallets
// (wallets by id, then the card), checks the guard on the locked rows,
// changes both balances and inserts the movement, and the card's ledger
// movement for a card: nothing is written unless all of it is.
type PaymentWalletStore struct{ db bun.IDB }

var _ payments.WalletStore = (*PaymentWalletStore)(nil)

// PaymentsStores binds the payments area's stores to db.
func PaymentsStores(db bun.IDB) payments.Stores {
	return payments.Stores{Wallets: &PaymentWalletStore{db: db}, Payments: &PaymentStore{db: db},
		Partners: &PaymentPartnerStore{PartnerStore: &PartnerStore{db: db}, db: db}, Payouts: &PayoutStore{db: db},
		Requests: &PaymentRequestStore{db: db}, Keys: NewIdempotencyStore(db)}
}

type walletRow struct {
	ID             int64            `bun:"id"`
	UUID           uuid.UUID        `bun:"uuid"`
	Kind           string           `bun:"kind"`
	PartnerID      *int64           `bun:"partner_id"`
	Currency       string           `bun:"currency"`
	Balance        decimal.Decimal  `bun:"balance"`
	CreatedAt      *time.Time       `bun:"created_at"`
	CardID         *int64           `bun:"card_id"`
	MarketplaceID  *int64           `bun:"marketplace_id"`
	Status         *string          `bun:"status"`
	IsActive       *bool            `bun:"is_active"`
	IsSplittable   *bool            `bun:"is_splittable"`
	Value          *decimal.Decimal `bun:"value"`
	ActivationDate *time.Time       `bun:"activation_date"`
	ExpirationDate *time.Time       `bun:"expiration_date"`
}

func (r *walletRow) toDomain() *payments.Wallet {
	w := &payments.Wallet{ID: r.ID, UUID: r.UUID, Kind: r.Kind, PartnerID: r.PartnerID, Currency: r.Currency,
		Balance: r.Balance}
	if r.CreatedAt != nil {
		w.CreatedAt = *r.CreatedAt
	}
	if r.CardID != nil {
		w.Card = &payments.Card{ID: *r.CardID, MarketplaceID: *r.MarketplaceID, Status: *r.Status, IsActive: *r.IsActive,
			IsSplittable: *r.IsSplittable, Value: *r.Value, ActivationDate: r.ActivationDate, ExpirationDate: r.ExpirationDate}
	}
	return w
}

// walletCardColumns are walletRow's card columns, of a card aliased g.
const walletCardColumns = `g.id AS card_id, g.marketplace_id, g.status, g.is_active, g.is_splittable, g.value,
	g.activation_date, g.expiration_date`

// Wallet implements payments.WalletStore: the wallet's row, or the card
// with that uuid whose wallet has none yet.
func (s *PaymentWalletStore) Wallet(ctx context.Context, id uuid.UUID) (*payments.Wallet, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []walletRow
	err := scanPrepared(ctx, s.db, &rows, `SELECT w.id, w.uuid, w.kind, w.partner_id, w.currency,
			COALESCE(w.balance, g.remaining_value) AS balance, w.created_at, `+walletCardColumns+`
		FROM wallets w LEFT JOIN network_giftcards g ON g.id = w.network_giftcard_id WHERE w.uuid = $1
		UNION ALL
		SELECT 0, g.uuid, 'network_giftcard', NULL, g.currency, g.remaining_value, NULL, `+walletCardColumns+`
		FROM network_giftcards g WHERE g.uuid = $1 AND NOT EXISTS (SELECT 1 FROM wallets w WHERE w.uuid = $1)`, id)
	if err != nil {
		return nil, fmt.Errorf("select wallet: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].toDomain(), nil
}

// OpenWallet implements payments.WalletStore. The wallet is read first:
// it exists but once per owner and currency.
func (s *PaymentWalletStore) OpenWallet(ctx context.Context, kind string, partnerID int64, currency string) (*payments.Wallet, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	// Each query names its unique index's predicate, so that a generic
	// plan of the prepared statement still uses it.
	query, args := `SELECT id, uuid, kind, partner_id, currency, balance, created_at FROM wallets
		WHERE partner_id IS NULL AND network_giftcard_id IS NULL AND kind = $1 AND currency = $2`, []any{kind, currency}
	if kind == payments.WalletPartner {
		query, args = `SELECT id, uuid, kind, partner_id, currency, balance, created_at FROM wallets
			WHERE partner_id = $1 AND currency = $2`, []any{partnerID, currency}
	}
	read := func() (*payments.Wallet, error) {
		var rows []walletRow
		if err := scanPrepared(ctx, s.db, &rows, query, args...); err != nil {
			return nil, fmt.Errorf("select wallet: %w", err)
		}
		if len(rows) == 0 {
			return nil, nil
		}
		return rows[0].toDomain(), nil
	}
	if w, err := read(); w != nil || err != nil {
		return w, err
	}
	// A concurrent opening of the same wallet makes this one do nothing,
	// once it commits; the next read sees its row.
	_, err := s.db.NewRaw(`INSERT INTO wallets (kind, partner_id, currency) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
		kind, nullID(partnerID), currency).Exec(ctx)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23503":
		return nil, domain.ErrNotFound
	case err != nil:
		return nil, fmt.Errorf("open wallet: %w", err)
	}
	w, err := read()
	if err == nil && w == nil {
		err = fmt.Errorf("open wallet: %s of %d in %s not found after its insert", kind, partnerID, currency)
	}
	return w, err
}

// OpenCardWallet implements payments.WalletStore.
func (s *PaymentWalletStore) OpenCardWallet(ctx context.Context, w *payments.Wallet) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewRaw(`INSERT INTO wallets (uuid, kind, network_giftcard_id, currency, balance)
		SELECT uuid, 'network_giftcard', id, currency, NULL FROM network_giftcards WHERE id = ?
		ON CONFLICT DO NOTHING`, w.Card.ID).Exec(ctx); err != nil {
		return fmt.Errorf("open card wallet: %w", err)
	}
	var row struct {
		ID        int64     `bun:"id"`
		CreatedAt time.Time `bun:"created_at"`
	}
	if err := s.db.NewRaw(`SELECT id, created_at FROM wallets WHERE network_giftcard_id = ?`, w.Card.ID).Scan(ctx, &row); err != nil {
		return fmt.Errorf("select card wallet: %w", err)
	}
	w.ID, w.CreatedAt = row.ID, row.CreatedAt
	return nil
}

// Lock implements payments.WalletStore. A card's wallet row is never
// updated (its balance is the card's), so its card is what is locked.
func (s *PaymentWalletStore) Lock(ctx context.Context, ids []uuid.UUID) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = id.String()
	}
	var locked []int64
	if err := s.db.NewRaw(`SELECT id FROM wallets WHERE uuid = ANY(?::uuid[]) AND balance IS NOT NULL
		ORDER BY id FOR NO KEY UPDATE`, pgdialect.Array(keys)).Scan(ctx, &locked); err != nil {
		return fmt.Errorf("lock wallets: %w", err)
	}
	if err := s.db.NewRaw(`SELECT id FROM network_giftcards WHERE uuid = ANY(?::uuid[])
		ORDER BY id FOR NO KEY UPDATE`, pgdialect.Array(keys)).Scan(ctx, &locked); err != nil {
		return fmt.Errorf("lock network giftcards: %w", err)
	}
	return nil
}

type movementWritten struct {
	ID        int64     `bun:"id"`
	UUID      uuid.UUID `bun:"uuid"`
	CreatedOn time.Time `bun:"created_on"`
	Status    string    `bun:"status"`
}

// written sets what the insert of m returned, if it did.
func written(m *payments.Movement, rows []movementWritten) bool {
	if len(rows) == 0 {
		return false
	}
	m.ID, m.UUID, m.CreatedOn, m.Status = rows[0].ID, rows[0].UUID, rows[0].CreatedOn, rows[0].Status
	return true
}

// movementInsert inserts the movement of the statement's parameters
// ($1 debited, $2 credited, $3 amount, $4 currency, $5 type, $6 payment,
// $7 reason, $8 actor), once per row of its FROM.
const movementInsert = `INSERT INTO wallet_movements (amount, currency, type, payment_uuid, debited_wallet_uuid,
		credited_wallet_uuid, reason, actor_user_id)
	SELECT $3::numeric, $4, $5, $6::uuid, $1::uuid, $2::uuid, $7, $8::bigint`

func movementArgs(m *payments.Movement) []any {
	return []any{m.Debited, m.Credited, m.Amount, m.Currency, m.Type, m.PaymentUUID, m.Reason, m.ActorID}
}

// Transfer implements payments.WalletStore: both wallets locked by id
// (two transfers between the same wallets, either way, queue rather than
// deadlock), the guard read on the locked debited row, both balances
// changed, and the movement inserted, in one statement. payin is the one
// kind not Guarded.
func (s *PaymentWalletStore) Transfer(ctx context.Context, m *payments.Movement) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []movementWritten
	err := scanPrepared(ctx, s.db, &rows, `WITH locked AS MATERIALIZED (
			SELECT id, uuid, kind, balance FROM wallets
			WHERE uuid IN ($1::uuid, $2::uuid) AND currency = $4 AND balance IS NOT NULL
			ORDER BY id FOR NO KEY UPDATE),
		moved AS (
			UPDATE wallets w SET balance = w.balance + CASE WHEN w.uuid = $2::uuid THEN $3::numeric ELSE -$3::numeric END
			FROM locked
			WHERE w.id = locked.id AND (SELECT count(*) FROM locked) = 2
				AND EXISTS (SELECT 1 FROM locked d WHERE d.uuid = $1::uuid AND (d.kind = 'payin' OR d.balance >= $3::numeric))
			RETURNING w.id),
		movement AS (`+movementInsert+` WHERE (SELECT count(*) FROM moved) = 2
			RETURNING id, uuid, created_on, status)
		SELECT id, uuid, created_on, status FROM movement`, movementArgs(m)...)
	if err != nil {
		return false, fmt.Errorf("transfer between wallets: %w", err)
	}
	return written(m, rows), nil
}

// DrawFromCard implements payments.WalletStore: the credited wallet
// locked first, then the card's guarded update (the guard of a use,
// network_giftcards.go's UseCard, with the card's dates at $9), the
// credit, the movement and the card's payment movement, in one statement.
func (s *PaymentWalletStore) DrawFromCard(ctx context.Context, m *payments.Movement, at time.Time) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []movementWritten
	err := scanPrepared(ctx, s.db, &rows, `WITH target AS MATERIALIZED (
			SELECT id FROM wallets WHERE uuid = $2::uuid AND currency = $4 AND balance IS NOT NULL FOR NO KEY UPDATE),
		card AS (
			UPDATE network_giftcards
			SET remaining_value = remaining_value - $3::numeric,
			    status = CASE WHEN status = 'paid' THEN 'using' ELSE status END
			WHERE uuid = $1::uuid AND currency = $4 AND EXISTS (SELECT 1 FROM target)
				AND remaining_value >= $3::numeric AND is_active AND status IN ('paid', 'using')
				AND (is_splittable OR remaining_value = $3::numeric)
				AND (activation_date IS NULL OR activation_date <= $9::timestamptz)
				AND (expiration_date IS NULL OR expiration_date >= $9::timestamptz)
			RETURNING id, remaining_value),
		credited AS (
			UPDATE wallets w SET balance = w.balance + $3::numeric FROM target, card WHERE w.id = target.id
			RETURNING w.id),
		movement AS (`+movementInsert+` FROM credited RETURNING id, uuid, created_on, status),
		ledger AS (
			INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, actor_user_id,
				comment, wallet_movement_id)
			SELECT card.id, 'payment', -$3::numeric, card.remaining_value, $8::bigint, $7, movement.id FROM card, movement)
		SELECT id, uuid, created_on, status FROM movement`, append(movementArgs(m), at)...)
	if err != nil {
		return false, fmt.Errorf("draw from network giftcard: %w", err)
	}
	return written(m, rows), nil
}

// RefundToCard implements payments.WalletStore: the debited wallet
// locked first and its guard read on the locked row, then the card's
// update within its value, the debit, the movement and the card's refund
// movement, in one statement.
func (s *PaymentWalletStore) RefundToCard(ctx context.Context, m *payments.Movement) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []movementWritten
	err := scanPrepared(ctx, s.db, &rows, `WITH source AS MATERIALIZED (
			SELECT id, kind, balance FROM wallets WHERE uuid = $1::uuid AND currency = $4 AND balance IS NOT NULL
			FOR NO KEY UPDATE),
		card AS (
			UPDATE network_giftcards SET remaining_value = remaining_value + $3::numeric
			WHERE uuid = $2::uuid AND currency = $4 AND remaining_value + $3::numeric <= value
				AND EXISTS (SELECT 1 FROM source WHERE kind = 'payin' OR balance >= $3::numeric)
			RETURNING id, remaining_value),
		debited AS (
			UPDATE wallets w SET balance = w.balance - $3::numeric FROM source, card WHERE w.id = source.id
			RETURNING w.id),
		movement AS (`+movementInsert+` FROM debited RETURNING id, uuid, created_on, status),
		ledger AS (
			INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after, actor_user_id,
				comment, wallet_movement_id)
			SELECT card.id, 'refund', $3::numeric, card.remaining_value, $8::bigint, $7, movement.id FROM card, movement)
		SELECT id, uuid, created_on, status FROM movement`, movementArgs(m)...)
	if err != nil {
		return false, fmt.Errorf("refund to network giftcard: %w", err)
	}
	return written(m, rows), nil
}

// MovementsOfWallet implements payments.WalletStore.
func (s *PaymentWalletStore) MovementsOfWallet(ctx context.Context, id uuid.UUID, page domain.PageRequest) ([]*payments.Movement, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID          int64           `bun:"id"`
		UUID        uuid.UUID       `bun:"uuid"`
		CreatedOn   time.Time       `bun:"created_on"`
		Amount      decimal.Decimal `bun:"amount"`
		Currency    string          `bun:"currency"`
		Status      string          `bun:"status"`
		Type        string          `bun:"type"`
		PaymentUUID *uuid.UUID      `bun:"payment_uuid"`
		Debited     uuid.UUID       `bun:"debited_wallet_uuid"`
		Credited    uuid.UUID       `bun:"credited_wallet_uuid"`
		Reason      string          `bun:"reason"`
		ActorID     *int64          `bun:"actor_user_id"`
		Count       int             `bun:"full_count"`
	}
	err := s.db.NewRaw(`SELECT id, uuid, created_on, amount, currency, status, type, payment_uuid,
			debited_wallet_uuid, credited_wallet_uuid, reason, actor_user_id, count(*) OVER () AS full_count
		FROM wallet_movements WHERE debited_wallet_uuid = ?0 OR credited_wallet_uuid = ?0
		ORDER BY id LIMIT ?1 OFFSET ?2`, id, page.Size, page.Offset()).Scan(ctx, &rows)
	if err != nil {
		return nil, 0, fmt.Errorf("select wallet movements: %w", err)
	}
	count := 0
	out := make([]*payments.Movement, len(rows))
	for i, r := range rows {
		out[i] = &payments.Movement{ID: r.ID, UUID: r.UUID, CreatedOn: r.CreatedOn, Amount: r.Amount, Currency: r.Currency,
			Status: r.Status, Type: r.Type, PaymentUUID: r.PaymentUUID, Debited: r.Debited, Credited: r.Credited,
			Reason: r.Reason, ActorID: r.ActorID}
		count = r.Count
	}
	if len(rows) == 0 && page.Offset() > 0 {
		if err := s.db.NewRaw(`SELECT count(*) FROM wallet_movements WHERE debited_wallet_uuid = ?0 OR credited_wallet_uuid = ?0`,
			id).Scan(ctx, &count); err != nil {
			return nil, 0, fmt.Errorf("count wallet movements: %w", err)
		}
	}
	return out, count, nil
}
