package checkout

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/ecommerce"
	"salesplatform/domain/network"
	"salesplatform/domain/notify"
	"salesplatform/domain/webhooks"
)

// Stores are the checkout's stores, bound to one transaction by the unit
// of work: the orders, the catalogue (stock), the coupons, the network
// giftcards (holds) and the mail outbox, so that an order's reservation
// and its completion each commit or roll back whole.
type Stores struct {
	Orders    OrderStore
	Catalogue ecommerce.Store
	Coupons   CouponStore
	Network   network.Stores
	Outbox    notify.Outbox
	// Events keeps the webhook events of a change in its transaction.
	Events webhooks.Publisher
}

// Coupon is a partner's discount coupon as the checkout reads it
// (the coupons table).
type Coupon struct {
	ID, PartnerID        int64
	Code                 string
	Valid, IsActivated   bool
	ForEcommerce         bool
	Discount             decimal.Decimal
	DiscountType         string // percentage or amount
	NumberOfUsage        int
	MaxUsage             int // 0: unlimited
	StartDate, EndDate   *time.Time
	ProductIDs           []int64 // eshop_products_ids; empty: every product
	PriceMin, PaymentMin string  // decimal strings, "" for none
	// FreePickup is offer_delivery_cost_clickandcollect: the pickup mode's
	// cost is offered.
	FreePickup bool
}

// Coupon discount types.
const (
	DiscountPercentage = "percentage"
	DiscountAmount     = "amount"
)

// CouponStore reads coupons and counts their uses.
type CouponStore interface {
	// CouponByCode returns the partner's coupon with code.
	// Errors: domain.ErrNotFound.
	CouponByCode(ctx context.Context, partnerID int64, code string) (*Coupon, error)
	// UseCoupon counts one use, by a guarded update (max_usage = 0 or
	// number_of_usage < max_usage); false when the coupon is used up.
	UseCoupon(ctx context.Context, id int64) (bool, error)
	// GiveCouponBack uncounts one use (never below zero).
	GiveCouponBack(ctx context.Context, id int64) error
}

// Kinds and statuses of an order's payment records.
const (
	RecordCard     = "card"
	RecordGiftcard = "giftcard"
	RecordCoupon   = "coupon"

	RecordReserved = "reserved"
	RecordDone     = "done"
	RecordReleased = "released"
)

// OrderFilter narrows a list of orders.
type OrderFilter struct {
	Tenant        *int64 // the partner; nil: every partner's (staff)
	Status        string
	CreatedFrom   *time.Time
	CreatedBefore *time.Time
}

// OrderStore keeps orders, their lines and their payment records.
type OrderStore interface {
	// CreateOrder writes the related order, the e-commerce order and its
	// lines (setting their ids) and the payment records of o.Coupon,
	// o.Giftcard and o.Payment, reserved.
	// Errors: ErrCartOrdered when the cart has a live (not failed) order.
	CreateOrder(ctx context.Context, o *Order) error
	// FindOrder returns the order with that uuid, locked FOR UPDATE when
	// lock. Errors: domain.ErrNotFound.
	FindOrder(ctx context.Context, id uuid.UUID, lock bool) (*Order, error)
	// FindOrderByID is FindOrder by the order's id, not locked.
	FindOrderByID(ctx context.Context, id int64) (*Order, error)
	// LiveOrderOfCart returns the cart's order that has not failed.
	// Errors: domain.ErrNotFound.
	LiveOrderOfCart(ctx context.Context, cartID uuid.UUID) (*Order, error)
	// OrderOfPayment returns the uuid of the order whose card record names
	// the hub payment. Errors: domain.ErrNotFound.
	OrderOfPayment(ctx context.Context, paymentUUID uuid.UUID) (uuid.UUID, error)
	// SaveOrderState writes o's status, paid date and refunded amount.
	SaveOrderState(ctx context.Context, o *Order) error
	// SetRecordStatus moves the order's payment record of kind to status
	// (and links the giftcard's usage when usageID is set).
	SetRecordStatus(ctx context.Context, orderID int64, kind, status string, usageID *int64) error
	// ListOrders returns a page of the orders f selects, newest first,
	// and how many there are.
	ListOrders(ctx context.Context, f OrderFilter, page domain.PageRequest) ([]*Order, int, error)
	// StaleOrders returns the uuids of up to limit orders pending since
	// before cutoff, least recently written first.
	StaleOrders(ctx context.Context, cutoff time.Time, limit int) ([]uuid.UUID, error)
	// UnrefundedOrders returns the uuids of up to limit failed orders
	// whose card payment the hub has paid (ok) and not wholly refunded,
	// with no refund under way, least recently written first.
	UnrefundedOrders(ctx context.Context, limit int) ([]uuid.UUID, error)
}

// ErrCartOrdered is CreateOrder's refusal of a second live order of a
// cart.
var ErrCartOrdered = &domain.Error{Code: domain.CodeConflict, Message: "This cart already has an order under way."}
