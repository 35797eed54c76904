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

// PaymentWalletStore is the payments.AccountStore on PostgreSQL: the
// wallets' rows and movements. A network giftcard's side of a movement is
// the network area's (network_giftcard_balances.go, through
// payments.NewWalletStore). Every movement between two wallets is one
// prepared statement (prepared.go) that locks them by id, checks the
// guard on the locked rows, changes both balances and inserts the
// movement: nothing is written unless all of it is.
type PaymentWalletStore struct{ db bun.IDB }

var _ payments.AccountStore = (*PaymentWalletStore)(nil)

// paymentWallets is the payments.WalletStore of db: its wallets and the
// network area's cards.
func paymentWallets(db bun.IDB) payments.WalletStore {
	return payments.NewWalletStore(&PaymentWalletStore{db: db}, &NetworkGiftcardStore{db: db})
}

// PaymentsStores binds the payments area's stores to db.
func PaymentsStores(db bun.IDB) payments.Stores {
	return payments.Stores{Wallets: paymentWallets(db), Payments: &PaymentStore{db: db},
		Partners: &PaymentPartnerStore{PartnerStore: &PartnerStore{db: db}, db: db}, Payouts: &PayoutStore{db: db},
		Requests: &PaymentRequestStore{db: db}, Keys: NewIdempotencyStore(db), Events: NewWebhookEvents(db)}
}

type walletRow struct {
	ID        int64            `bun:"id"`
	UUID      uuid.UUID        `bun:"uuid"`
	Kind      string           `bun:"kind"`
	PartnerID *int64           `bun:"partner_id"`
	Currency  string           `bun:"currency"`
	Balance   *decimal.Decimal `bun:"balance"` // NULL for a card's
	CreatedAt *time.Time       `bun:"created_at"`
}

func (r *walletRow) toDomain() *payments.Wallet {
	w := &payments.Wallet{ID: r.ID, UUID: r.UUID, Kind: r.Kind, PartnerID: r.PartnerID, Currency: r.Currency}
	if r.Balance != nil {
		w.Balance = *r.Balance
	}
	if r.CreatedAt != nil {
		w.CreatedAt = *r.CreatedAt
	}
	return w
}

// Wallet implements payments.AccountStore.
func (s *PaymentWalletStore) Wallet(ctx context.Context, id uuid.UUID) (*payments.Wallet, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []walletRow
	err := scanPrepared(ctx, s.db, &rows, `SELECT id, uuid, kind, partner_id, currency, balance, created_at
		FROM wallets WHERE uuid = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("select wallet: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	return rows[0].toDomain(), nil
}

// OpenWallet implements payments.AccountStore. The wallet is read first:
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

// OpenCardWallet implements payments.AccountStore.
func (s *PaymentWalletStore) OpenCardWallet(ctx context.Context, w *payments.Wallet) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewRaw(`INSERT INTO wallets (uuid, kind, network_giftcard_id, currency, balance)
		VALUES (?, 'network_giftcard', ?, ?, NULL) ON CONFLICT DO NOTHING`,
		w.Card.UUID, w.Card.ID, w.Card.Currency).Exec(ctx); err != nil {
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

// Lock implements payments.AccountStore. A card's wallet row is never
// updated (its balance is the card's): its card is what is locked, by the
// network area (network.Balances' LockCards).
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

// Transfer implements payments.AccountStore: both wallets locked by id
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

// Reserve implements payments.AccountStore: the wallet locked, its guard
// read on the locked row, and the movement's id drawn.
func (s *PaymentWalletStore) Reserve(ctx context.Context, m *payments.Movement, w uuid.UUID, debit bool) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID int64 `bun:"id"`
	}
	err := scanPrepared(ctx, s.db, &rows, `WITH locked AS MATERIALIZED (
			SELECT kind, balance FROM wallets WHERE uuid = $1::uuid AND currency = $2 AND balance IS NOT NULL
			FOR NO KEY UPDATE)
		SELECT nextval(pg_get_serial_sequence('wallet_movements', 'id')) AS id FROM locked
		WHERE NOT $3::boolean OR kind = 'payin' OR balance >= $4::numeric`, w, m.Currency, debit, m.Amount)
	if err != nil {
		return false, fmt.Errorf("reserve wallet movement: %w", err)
	}
	if len(rows) == 0 {
		return false, nil
	}
	m.ID = rows[0].ID
	return true, nil
}

// Settle implements payments.AccountStore.
func (s *PaymentWalletStore) Settle(ctx context.Context, m *payments.Movement, w uuid.UUID, debit bool) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	delta := m.Amount
	if debit {
		delta = delta.Neg()
	}
	var rows []movementWritten
	err := scanPrepared(ctx, s.db, &rows, `WITH changed AS (
			UPDATE wallets SET balance = balance + $10::numeric WHERE uuid = $9::uuid AND balance IS NOT NULL
			RETURNING id)
		INSERT INTO wallet_movements (id, amount, currency, type, payment_uuid, debited_wallet_uuid,
			credited_wallet_uuid, reason, actor_user_id)
		SELECT $11::bigint, $3::numeric, $4, $5, $6::uuid, $1::uuid, $2::uuid, $7, $8::bigint FROM changed
		RETURNING id, uuid, created_on, status`, append(movementArgs(m), w, delta, m.ID)...)
	if err != nil {
		return fmt.Errorf("write wallet movement: %w", err)
	}
	if !written(m, rows) {
		return fmt.Errorf("write wallet movement: no wallet %s", w)
	}
	return nil
}

// MovementsOfWallet implements payments.AccountStore.
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
