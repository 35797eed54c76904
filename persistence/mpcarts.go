package persistence

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/mpcart"
)

// MultiProductCartStore is the mpcart.Store on PostgreSQL (table
// multi_product_carts).
type MultiProductCartStore struct{ db bun.IDB }

var _ mpcart.Store = (*MultiProductCartStore)(nil)

// MultiProductCartStores binds the multi-product carts' stores to db.
func MultiProductCartStores(db bun.IDB) mpcart.Stores {
	return mpcart.Stores{Carts: &MultiProductCartStore{db: db}, Partners: &PartnerStore{db: db}, Keys: NewIdempotencyStore(db)}
}

// NetworkMarketplaces implements mpcart.Store.
func (s *MultiProductCartStore) NetworkMarketplaces(ctx context.Context, partnerID int64) ([]int64, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ids []int64
	err := s.db.NewRaw(`SELECT np.marketplace_id FROM network_partners np JOIN partners m ON m.id = np.marketplace_id
		WHERE np.partner_id = ? AND m.is_marketplace ORDER BY np.marketplace_id LIMIT 2`, partnerID).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("select marketplaces of partner %d: %w", partnerID, err)
	}
	return ids, nil
}

// GiftcardSettings implements mpcart.Store: the settings the catalogue's
// network giftcard product information reads.
func (s *MultiProductCartStore) GiftcardSettings(ctx context.Context, marketplaceID int64) (*mpcart.GiftcardSettings, error) {
	pi, err := (&PartnerCatalogStore{db: s.db}).FindNetworkGiftcardsProductInformation(ctx, marketplaceID)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		return &mpcart.GiftcardSettings{}, nil
	case err != nil:
		return nil, err
	}
	g := pi.Giftcard
	return &mpcart.GiftcardSettings{CustomizedAmount: g.CustomizedAmount, MinimumAmount: g.MinimumAmount,
		PredefinedAmounts: g.PredefinedAmounts}, nil
}

// Boxes implements mpcart.Store.
func (s *MultiProductCartStore) Boxes(ctx context.Context, marketplaceID int64, ids []int64) (map[int64]mpcart.BoxStatus, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		ID       int64 `bun:"id"`
		IsActive bool  `bun:"is_active"`
	}
	err := s.db.NewRaw(`SELECT id, is_active FROM network_voucher_boxes WHERE marketplace_id = ? AND id IN (?)`,
		marketplaceID, bun.In(ids)).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select network voucher boxes: %w", err)
	}
	out := make(map[int64]mpcart.BoxStatus, len(rows))
	for _, r := range rows {
		out[r.ID] = mpcart.BoxStatus{ID: r.ID, IsActive: r.IsActive}
	}
	return out, nil
}

// mpcartData is a cart's data column: the contract's object, amounts as
// numbers with two decimals.
type mpcartData struct {
	NetworkGiftcards []mpcartGiftcard `json:"network_giftcards"`
	NetworkVouchers  []mpcartVoucher  `json:"network_vouchers"`
}

type mpcartGiftcard struct {
	Amount      json.Number `json:"amount"`
	Quantity    int         `json:"quantity"`
	ThemedPDFID int64       `json:"themed_pdf_id"`
}

type mpcartVoucher struct {
	ID       int64 `json:"id"`
	Quantity int   `json:"quantity"`
}

// purgedPerCart is how many lapsed carts each creation deletes: more than
// the one it adds, so the table holds about a lifetime's carts without a
// job.
const purgedPerCart = 2

// InsertCart implements mpcart.Store: one statement inserts the cart and
// deletes a few lapsed ones (SKIP LOCKED: never waiting for another
// creation's purge).
func (s *MultiProductCartStore) InsertCart(ctx context.Context, c *mpcart.Cart) error {
	data := mpcartData{NetworkGiftcards: make([]mpcartGiftcard, len(c.Giftcards)),
		NetworkVouchers: make([]mpcartVoucher, len(c.Vouchers))}
	for i, g := range c.Giftcards {
		data.NetworkGiftcards[i] = mpcartGiftcard{Amount: json.Number(g.Amount.StringFixed(2)), Quantity: g.Quantity,
			ThemedPDFID: g.ThemedPDFID}
	}
	for i, v := range c.Vouchers {
		data.NetworkVouchers[i] = mpcartVoucher{ID: v.BoxID, Quantity: v.Quantity}
	}
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("multi-product cart data: %w", err)
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err = s.db.NewRaw(`WITH purged AS (
			DELETE FROM multi_product_carts WHERE id IN (
				SELECT id FROM multi_product_carts WHERE expires_at <= ?
				ORDER BY expires_at LIMIT `+fmt.Sprint(purgedPerCart)+` FOR UPDATE SKIP LOCKED))
		INSERT INTO multi_product_carts (id, partner_id, marketplace_id, data, created_at, expires_at)
		VALUES (?, ?, ?, ?::jsonb, ?, ?)`,
		c.CreatedAt, c.ID, c.PartnerID, c.MarketplaceID, string(b), c.CreatedAt, c.ExpiresAt).Exec(ctx)
	if err != nil {
		return fmt.Errorf("insert multi-product cart: %w", err)
	}
	return nil
}

// FindCart implements mpcart.Store.
func (s *MultiProductCartStore) FindCart(ctx context.Context, id uuid.UUID, now time.Time) (*mpcart.Cart, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		PartnerID     int64     `bun:"partner_id"`
		PartnerUUID   uuid.UUID `bun:"partner_uuid"`
		MarketplaceID int64     `bun:"marketplace_id"`
		Data          []byte    `bun:"data"`
		CreatedAt     time.Time `bun:"created_at"`
		ExpiresAt     time.Time `bun:"expires_at"`
	}
	err := s.db.NewRaw(`SELECT c.partner_id, p.uuid AS partner_uuid, c.marketplace_id, c.data, c.created_at, c.expires_at
		FROM multi_product_carts c JOIN partners p ON p.id = c.partner_id WHERE c.id = ? AND c.expires_at > ?`, id, now).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select multi-product cart: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	r := rows[0]
	var data mpcartData
	if err := json.Unmarshal(r.Data, &data); err != nil {
		return nil, fmt.Errorf("multi-product cart %s data: %w", id, err)
	}
	c := &mpcart.Cart{ID: id, PartnerID: r.PartnerID, PartnerUUID: r.PartnerUUID, MarketplaceID: r.MarketplaceID,
		Giftcards: make([]mpcart.GiftcardLine, len(data.NetworkGiftcards)), Vouchers: make([]mpcart.VoucherLine, len(data.NetworkVouchers)),
		CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt}
	for i, g := range data.NetworkGiftcards {
		amount, err := decimal.NewFromString(g.Amount.String())
		if err != nil {
			return nil, fmt.Errorf("multi-product cart %s amount %q: %w", id, g.Amount, err)
		}
		c.Giftcards[i] = mpcart.GiftcardLine{Amount: amount, Quantity: g.Quantity, ThemedPDFID: g.ThemedPDFID}
	}
	for i, v := range data.NetworkVouchers {
		c.Vouchers[i] = mpcart.VoucherLine{BoxID: v.ID, Quantity: v.Quantity}
	}
	return c, nil
}
