// Package mpcart keeps multi-product carts: a partner's cart of its
// marketplace's network products (network giftcards by amount, network
// voucher boxes), checked against that marketplace's network giftcard
// settings and boxes when it is made, and kept until it lapses.
// Decisions: docs/DECISIONS.md, "Multi-product carts".
package mpcart

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
)

// DefaultTTL is how long a cart lives after it is made.
const DefaultTTL = 7 * 24 * time.Hour

// Cart is a multi-product cart.
type Cart struct {
	ID          uuid.UUID
	PartnerID   int64
	PartnerUUID uuid.UUID
	// MarketplaceID is the marketplace whose settings and boxes the
	// lines were checked against: the partner itself when it is one.
	MarketplaceID int64
	Giftcards     []GiftcardLine
	Vouchers      []VoucherLine
	CreatedAt     time.Time
	ExpiresAt     time.Time
}

// GiftcardLine is quantity network giftcards of amount each.
type GiftcardLine struct {
	Amount   decimal.Decimal
	Quantity int
	// ThemedPDFID names the design of the cards' PDF; no record holds
	// them yet, so it is not checked (docs/DECISIONS.md).
	ThemedPDFID int64
}

// VoucherLine is quantity network vouchers of a box.
type VoucherLine struct {
	BoxID    int64
	Quantity int
}

// GiftcardSettings are the amounts a marketplace sells its network
// giftcards at: one of PredefinedAmounts, or when CustomizedAmount any
// amount of at least MinimumAmount.
type GiftcardSettings struct {
	CustomizedAmount  bool
	MinimumAmount     decimal.Decimal
	PredefinedAmounts []decimal.Decimal
}

// BoxStatus is what a cart checks of a network voucher box.
type BoxStatus struct {
	ID       int64
	IsActive bool
}

// Store reads what a cart is checked against, and keeps carts.
type Store interface {
	// NetworkMarketplaces returns the ids of at most two marketplaces
	// whose networks have the partner, by id.
	NetworkMarketplaces(ctx context.Context, partnerID int64) ([]int64, error)
	// GiftcardSettings returns the marketplace's network giftcard
	// settings; the zero settings (no amount) when it has none.
	GiftcardSettings(ctx context.Context, marketplaceID int64) (*GiftcardSettings, error)
	// Boxes returns the marketplace's boxes among ids, by id; an id of no
	// box of it is absent.
	Boxes(ctx context.Context, marketplaceID int64, ids []int64) (map[int64]BoxStatus, error)
	// InsertCart stores c, and deletes a few carts lapsed at c.CreatedAt.
	InsertCart(ctx context.Context, c *Cart) error
	// FindCart returns the cart with id that has not lapsed at now;
	// domain.ErrNotFound when none.
	FindCart(ctx context.Context, id uuid.UUID, now time.Time) (*Cart, error)
}

// Stores are the stores of the area's service.
type Stores struct {
	Carts    Store
	Partners domain.PartnerStore
	Keys     idempotency.Store
}

// Service makes and reads multi-product carts.
type Service struct {
	uow  domain.UnitOfWork[Stores]
	keys *idempotency.Guard
	ttl  time.Duration
	now  func() time.Time
}

// NewService returns the service; its creations run under the
// request's idempotency key, kept by keys.
func NewService(uow domain.UnitOfWork[Stores], keys *idempotency.Guard) *Service {
	return &Service{uow: uow, keys: keys, ttl: DefaultTTL, now: time.Now}
}

// WithClock sets the clock carts are made and lapse by (tests).
func (s *Service) WithClock(now func() time.Time) *Service {
	s.now = now
	return s
}

// CreateCart makes a cart of in: partner_uuid (required, the caller's own partner, staff any)
// and data (network_giftcards, network_vouchers; at least one line). The
// lines are checked, in the transaction that stores the cart, against
// the network giftcard settings and the boxes of the partner's
// marketplace: the partner itself, or the one marketplace whose network
// it is in. It runs once per idempotency key of the request.
// Errors: those of Authorize(OpMultiProductCartCreate); CodeInvalid with
// DRF's field messages, nested under data.
func (s *Service) CreateCart(ctx context.Context, in CartInput) (*Cart, error) {
	c, err := domain.Authorize(ctx, domain.OpMultiProductCartCreate)
	if err != nil {
		return nil, err
	}
	return idempotency.Run(ctx, s.keys, "mpcart.create", in, func(ctx context.Context, complete idempotency.Complete[*Cart]) (idempotency.Done[*Cart], error) {
		var done idempotency.Done[*Cart]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			cart, err := s.read(ctx, tx, c, in)
			if err != nil {
				return err
			}
			if err := tx.Carts.InsertCart(ctx, cart); err != nil {
				return err
			}
			done, err = complete(ctx, tx.Keys, cart)
			return err
		})
		return done, err
	})
}

// Cart returns the cart whose id is given in a path, if it has not lapsed
// and the caller sees its partner (staff any).
// Errors: those of Authorize(OpMultiProductCartRead); CodeNotFound for an
// id that is not a UUID, an unknown or lapsed cart, or another partner's.
func (s *Service) Cart(ctx context.Context, id string) (*Cart, error) {
	c, err := domain.Authorize(ctx, domain.OpMultiProductCartRead)
	if err != nil {
		return nil, err
	}
	cartID, err := uuid.Parse(id)
	if err != nil {
		return nil, domain.ErrNotFound
	}
	cart, err := s.uow.Stores().Carts.FindCart(ctx, cartID, s.now())
	if err != nil {
		return nil, err
	}
	if !c.Sees(cart.PartnerID) {
		return nil, domain.ErrNotFound
	}
	return cart, nil
}
