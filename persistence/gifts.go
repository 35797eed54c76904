package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
)

// GiftStore is the domain.GiftStore on PostgreSQL. Every gift's code is
// first registered in gift_codes, in the same statement as the gift, so a
// code is unique across the four gift tables.
type GiftStore struct{ db bun.IDB }

var _ gifts.GiftStore = (*GiftStore)(nil)

// NewGiftStore returns the store on db.
func NewGiftStore(db bun.IDB) *GiftStore { return &GiftStore{db: db} }

// giftInsert is what the four gift inserts differ in, besides their
// statement: insertGift does the rest for all of them.
type giftInsert struct {
	kind    gifts.GiftKind
	code    string
	product string // the field of the gift's product reference, named when it is not found
	// guard, when set, is a query that must return a row for anything to be
	// inserted (the code included); refused is the error when it returns none.
	guard     string
	guardArgs []any
	refused   error
	// id and createdAt receive the new gift's id and creation time.
	id        *int64
	createdAt *time.Time
}

// insertGift registers g's code for its kind and inserts the gift in one
// statement: insert is "INSERT INTO table (code, code_kind, ...) SELECT
// c.code, c.kind, ... FROM c" (or more WITH queries, from ", name AS
// (...)", then a SELECT) and returns "id, <creation column> AS
// created_at", which are set in g.id and g.createdAt. What PostgreSQL
// refuses is a field error (giftInsertError).
func (s *GiftStore) insertGift(ctx context.Context, g giftInsert, insert string, args ...any) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var q strings.Builder
	var all []any
	q.WriteString("WITH ")
	codeSource := "VALUES (?::text, ?::text)"
	if g.guard != "" {
		q.WriteString("guard AS (" + g.guard + "), ")
		all = append(all, g.guardArgs...)
		codeSource = "SELECT ?::text, ?::text FROM guard"
	}
	q.WriteString("c AS (INSERT INTO gift_codes (code, kind) " + codeSource + " RETURNING code, kind) ")
	q.WriteString(insert)
	all = append(all, g.code, string(g.kind))
	all = append(all, args...)
	var res struct {
		ID        int64     `bun:"id"`
		CreatedAt time.Time `bun:"created_at"`
	}
	err := s.db.NewRaw(q.String(), all...).Scan(ctx, &res)
	if g.guard != "" && errors.Is(err, sql.ErrNoRows) {
		return g.refused
	}
	if err != nil {
		return giftInsertError(g.kind, g.product, err)
	}
	*g.id, *g.createdAt = res.ID, res.CreatedAt
	return nil
}

// giftInsertError translates what PostgreSQL refused into field errors;
// productField names the gift's product reference.
func giftInsertError(kind gifts.GiftKind, productField string, err error) error {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return fmt.Errorf("insert %s: %w", kind, err)
	}
	c := pgErr.ConstraintName
	switch {
	case pgErr.Code == "23505" && c == "gift_codes_pkey":
		return invalidField("code", "unique", "A gift with this code already exists.")
	case pgErr.Code == "23514" && c == "gift_codes_code_check":
		return invalidField("code", domain.VInvalid, fmt.Sprintf("Enter a valid gift code: 1 to %d letters, digits, \".\", \"_\" or \"-\".", gifts.MaxGiftCodeLength))
	case pgErr.Code == "23503" && productField != "" && strings.HasSuffix(c, "_"+productField+"_id_fkey"):
		return invalidField(productField, domain.VNotFound, "Not found.")
	case pgErr.Code == "23514" && strings.HasSuffix(c, "_state_check"):
		return invalidField("state", domain.VInvalid, "Not a valid choice.")
	case pgErr.Code == "23514" && strings.HasSuffix(c, "_status_check"):
		return invalidField("status", domain.VInvalid, "Not a valid choice.")
	case pgErr.Code == "23514":
		return invalidField("non_field_errors", domain.VInvalid, fmt.Sprintf("The %s breaks the rule %s.", kind, c))
	}
	return fmt.Errorf("insert %s: %w", kind, err)
}

func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// CreateVoucher inserts v and sets its ID and CreationDate (now when zero);
// an empty State is draft.
func (s *GiftStore) CreateVoucher(ctx context.Context, v *gifts.Voucher) error {
	if v.State == "" {
		v.State = gifts.VoucherStateDraft
	}
	return s.insertGift(ctx, giftInsert{kind: gifts.GiftKindVoucher, code: v.Code, product: "voucher_prototype",
		id: &v.ID, createdAt: &v.CreationDate}, `
		INSERT INTO vouchers (code, code_kind, voucher_prototype_id, state, total_price, creation_date,
			expiration_date, gifter_first_name, gifter_last_name, giftee_first_name, giftee_last_name)
		SELECT c.code, c.kind, ?::bigint, ?::text, ?::numeric, COALESCE(?::timestamptz, now()), ?::timestamptz,
			?::text, ?::text, ?::text, ?::text FROM c
		RETURNING id, creation_date AS created_at`,
		v.VoucherPrototypeID, v.State, v.TotalPrice, nullTime(v.CreationDate), v.ExpirationDate,
		v.GifterFirstName, v.GifterLastName, v.GifteeFirstName, v.GifteeLastName)
}

// CreateGiftcard inserts g and sets its ID and CreatedOn (now when zero); an
// empty Status is draft.
func (s *GiftStore) CreateGiftcard(ctx context.Context, g *gifts.Giftcard) error {
	if g.Status == "" {
		g.Status = gifts.GiftStatusDraft
	}
	return s.insertGift(ctx, giftInsert{kind: gifts.GiftKindGiftcard, code: g.Code, product: "giftcard_prototype",
		id: &g.ID, createdAt: &g.CreatedOn}, `
		INSERT INTO giftcards (code, code_kind, giftcard_prototype_id, status, value, remaining_value,
			created_on, expires_on)
		SELECT c.code, c.kind, ?::bigint, ?::text, ?::numeric, ?::numeric, COALESCE(?::timestamptz, now()),
			?::timestamptz FROM c
		RETURNING id, created_on AS created_at`,
		g.GiftcardPrototypeID, g.Status, g.Value, g.RemainingValue, nullTime(g.CreatedOn), g.ExpiresOn)
}

// CreateNetworkGiftcard inserts g and sets its ID and CreationDate (now when
// zero); an empty Status is draft. Nothing is inserted, the code included,
// when MarketplaceID names no marketplace.
func (s *GiftStore) CreateNetworkGiftcard(ctx context.Context, g *gifts.NetworkGiftcard) error {
	if g.Status == "" {
		g.Status = gifts.GiftStatusDraft
	}
	return s.insertGift(ctx, giftInsert{kind: gifts.GiftKindNetworkGiftcard, code: g.Code, product: "marketplace",
		id: &g.ID, createdAt: &g.CreationDate,
		guard: "SELECT id FROM partners WHERE id = ? AND is_marketplace", guardArgs: []any{g.MarketplaceID},
		refused: invalidField("marketplace", domain.VNotFound, "No marketplace has this id.")}, `
		, card AS (INSERT INTO network_giftcards (code, code_kind, marketplace_id, status, value, remaining_value,
			creation_date, activation_date, expiration_date)
		SELECT c.code, c.kind, guard.id, ?::text, ?::numeric, ?::numeric, COALESCE(?::timestamptz, now()),
			?::timestamptz, ?::timestamptz FROM c, guard
		RETURNING id, creation_date, remaining_value),
		-- The card's ledger starts with its remaining value.
		issue AS (INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after)
			SELECT id, 'issue', remaining_value, remaining_value FROM card WHERE remaining_value > 0)
		SELECT id, creation_date AS created_at FROM card`,
		g.Status, g.Value, g.RemainingValue, nullTime(g.CreationDate), g.ActivationDate, g.ExpirationDate)
}

// CreateNetworkVoucher inserts v and sets its ID and CreationDate (now when
// zero); an empty Status is draft and a zero MaxUsages is 1.
func (s *GiftStore) CreateNetworkVoucher(ctx context.Context, v *gifts.NetworkVoucher) error {
	if v.Status == "" {
		v.Status = gifts.GiftStatusDraft
	}
	if v.MaxUsages == 0 {
		v.MaxUsages = 1
	}
	return s.insertGift(ctx, giftInsert{kind: gifts.GiftKindNetworkVoucher, code: v.Code, product: "box",
		id: &v.ID, createdAt: &v.CreationDate}, `
		, voucher AS (INSERT INTO network_vouchers (code, code_kind, box_id, status, max_usages, usage_count,
			creation_date, expiration_date)
		SELECT c.code, c.kind, ?::bigint, ?::text, ?::integer, ?::integer, COALESCE(?::timestamptz, now()),
			?::timestamptz FROM c
		RETURNING id, creation_date, usage_count),
		-- A voucher made with usages starts its ledger with their count.
		opening AS (INSERT INTO network_voucher_movements (network_voucher_id, kind, count, count_after)
			SELECT id, 'opening', usage_count, usage_count FROM voucher WHERE usage_count > 0)
		SELECT id, creation_date AS created_at FROM voucher`,
		v.BoxID, v.Status, v.MaxUsages, v.UsageCount, nullTime(v.CreationDate), v.ExpirationDate)
}

// AddNetworkGiftcardAllowedPartner lets the marketplace's network giftcards
// be spent at the partner; adding it twice is harmless.
func (s *GiftStore) AddNetworkGiftcardAllowedPartner(ctx context.Context, marketplaceID, partnerID int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var isMarketplace bool
	err := s.db.NewRaw(`
		WITH m AS (SELECT id FROM partners WHERE id = ?0 AND is_marketplace),
		ins AS (INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id)
			SELECT m.id, ?1::bigint FROM m ON CONFLICT DO NOTHING)
		SELECT EXISTS (SELECT 1 FROM m)`, marketplaceID, partnerID).Scan(ctx, &isMarketplace)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23503":
		return invalidField("partner", domain.VNotFound, "No partner has this id.")
	case err != nil:
		return fmt.Errorf("add allowed partner: %w", err)
	case !isMarketplace:
		return invalidField("marketplace", domain.VNotFound, "No marketplace has this id.")
	}
	return nil
}

// giftRow is one gift of any kind, as FindGiftByCode's union reads it.
type giftRow struct {
	Kind           string           `bun:"kind"`
	ID             int64            `bun:"id"`
	Code           string           `bun:"code"`
	State          string           `bun:"state"`
	Value          *decimal.Decimal `bun:"value"`
	RemainingValue *decimal.Decimal `bun:"remaining_value"`
	MaxUsages      *int             `bun:"max_usages"`
	UsageCount     *int             `bun:"usage_count"`
	CreatedAt      time.Time        `bun:"created_at"`
	ActivatesAt    *time.Time       `bun:"activates_at"`
	ExpiresAt      *time.Time       `bun:"expires_at"`
	ProductID      *int64           `bun:"product_id"`
	SellerID       int64            `bun:"seller_id"`
}

// FindGiftByCode looks the code up in the four gift tables in one query;
// at most one has it.
func (s *GiftStore) FindGiftByCode(ctx context.Context, code string) (*gifts.Gift, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []giftRow
	err := s.db.NewRaw(`
		SELECT 'voucher' AS kind, v.id, v.code, v.state, v.total_price AS value,
			NULL::numeric AS remaining_value, NULL::integer AS max_usages, NULL::integer AS usage_count,
			v.creation_date AS created_at, NULL::timestamptz AS activates_at, v.expiration_date AS expires_at,
			v.voucher_prototype_id AS product_id, p.partner_id AS seller_id
		FROM vouchers v JOIN voucher_prototypes p ON p.id = v.voucher_prototype_id
		WHERE v.code = ?0
		UNION ALL
		SELECT 'giftcard', g.id, g.code, g.status, g.value, g.remaining_value, NULL, NULL,
			g.created_on, NULL, g.expires_on, g.giftcard_prototype_id, p.partner_id
		FROM giftcards g JOIN giftcard_prototypes p ON p.id = g.giftcard_prototype_id
		WHERE g.code = ?0
		UNION ALL
		SELECT 'network_giftcard', n.id, n.code, n.status, n.value, n.remaining_value, NULL, NULL,
			n.creation_date, n.activation_date, n.expiration_date, NULL, n.marketplace_id
		FROM network_giftcards n
		WHERE n.code = ?0
		UNION ALL
		SELECT 'network_voucher', n.id, n.code, n.status, NULL, NULL, n.max_usages, n.usage_count,
			n.creation_date, NULL, n.expiration_date, n.box_id, b.marketplace_id
		FROM network_vouchers n JOIN network_voucher_boxes b ON b.id = n.box_id
		WHERE n.code = ?0`, code).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("find gift by code: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	r := rows[0]
	return &gifts.Gift{Kind: gifts.GiftKind(r.Kind), ID: r.ID, Code: r.Code, State: r.State,
		Value: r.Value, RemainingValue: r.RemainingValue, MaxUsages: r.MaxUsages, UsageCount: r.UsageCount,
		CreatedAt: r.CreatedAt, ActivatesAt: r.ActivatesAt, ExpiresAt: r.ExpiresAt,
		ProductID: r.ProductID, SellerID: r.SellerID}, nil
}

// partnersWhere lists the partners matching a condition on their id, by id.
func (s *GiftStore) partnersWhere(ctx context.Context, cond string, args ...any) ([]*domain.Partner, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []partnerRow
	if err := s.db.NewSelect().Model(&rows).Where("?TableAlias.id IN ("+cond+")", args...).
		OrderExpr("?TableAlias.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list partners: %w", err)
	}
	out := make([]*domain.Partner, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, nil
}

// NetworkGiftcardAllowedPartners lists the marketplace's allowed partners
// where a card can be used: not inactive (status i).
func (s *GiftStore) NetworkGiftcardAllowedPartners(ctx context.Context, marketplaceID int64) ([]*domain.Partner, error) {
	return s.partnersWhere(ctx, `SELECT a.partner_id FROM network_giftcard_allowed_partners a JOIN partners p ON p.id = a.partner_id
		WHERE a.marketplace_id = ? AND p.status <> 'i'`, marketplaceID)
}

// BoxOfferPartners lists the partners with an offer of that status in the
// box, each once.
func (s *GiftStore) BoxOfferPartners(ctx context.Context, boxID int64, status string) ([]*domain.Partner, error) {
	return s.partnersWhere(ctx, "SELECT o.partner_id FROM box_offers o WHERE o.box_id = ? AND o.status = ?", boxID, status)
}

type contactRequestRow struct {
	bun.BaseModel `bun:"table:contact_requests"`

	ID          int64     `bun:"id,pk,autoincrement"`
	PartnerID   int64     `bun:"partner_id,notnull"`
	GiftCode    string    `bun:"gift_code,notnull"`
	FullName    string    `bun:"full_name,notnull"`
	Email       string    `bun:"email,notnull"`
	PhoneNumber *string   `bun:"phone_number"`
	Message     string    `bun:"message,notnull"`
	CreatedAt   time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`
}

// CreateContactRequest inserts r and sets its ID and CreatedAt.
func (s *GiftStore) CreateContactRequest(ctx context.Context, r *gifts.ContactRequest) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &contactRequestRow{PartnerID: r.PartnerID, GiftCode: r.GiftCode, FullName: r.FullName,
		Email: r.Email, PhoneNumber: r.PhoneNumber, Message: r.Message, CreatedAt: r.CreatedAt}
	if _, err := s.db.NewInsert().Model(row).Returning("id, created_at").Exec(ctx); err != nil {
		return fmt.Errorf("insert contact request: %w", err)
	}
	r.ID, r.CreatedAt = row.ID, row.CreatedAt
	return nil
}
