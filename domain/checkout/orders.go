package checkout

import (
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Statuses of an order. An order is written when the customer pays
// (pending: its stock, coupon use and giftcard hold reserved), then paid
// or failed by the payment's outcome; a pending order whose payment never
// ended lapses (failed, reservations given back).
const (
	OrderPending  = "pending"
	OrderPaid     = "paid"
	OrderFailed   = "failed"
	OrderRefunded = "refunded" // wholly; a partial refund leaves it paid
)

// Order is an e-commerce order and its related order (the platform's
// order record every sale has: its reference, buyer and amounts).
type Order struct {
	ID        int64
	UUID      uuid.UUID
	Reference string // the related order's reference, given to return_url
	PartnerID int64
	CartID    uuid.UUID
	ReturnURL string // the cart's return_url (accepted by the cart rule), "" for the thank-you page
	Status    string
	Currency  string
	Lines     []*OrderLine
	Delivery  OrderDelivery
	Buyer     Information
	// Sums, as Totals were when the customer paid.
	LinesTotal, DeliveryCost, Discount, GiftcardAmount, CardAmount, Total decimal.Decimal
	VATTotal                                                              decimal.Decimal
	Coupon                                                                *OrderCoupon
	Giftcard                                                              *OrderGiftcard
	Payment                                                               *OrderPayment
	RefundedAmount                                                        decimal.Decimal
	Restocked                                                             bool // its stock was given back by a refund
	// CartRevision is the cart's Revision the order was priced from: a
	// pending order of an older revision is stale.
	CartRevision         int64
	CreatedAt, UpdatedAt time.Time
	PaidAt               *time.Time
}

// OrderLine is one product line of an order, priced when it was paid.
type OrderLine struct {
	ID              int64
	ProductID       int64
	VariantID       *int64
	AttributeValues map[int64]string
	Name            string // in the buyer's language, as sold
	Quantity        int64
	UnitPrice       decimal.Decimal
	VATRate         decimal.Decimal
	VATAmount       decimal.Decimal
	Total           decimal.Decimal
}

// OrderDelivery is the delivery chosen.
type OrderDelivery struct {
	Mode string
	Cost decimal.Decimal
}

// OrderCoupon is the coupon's use by the order.
type OrderCoupon struct {
	ID       int64
	Code     string
	Discount decimal.Decimal
}

// OrderGiftcard is the network giftcard's part: its hold while the order
// is pending, its usage once paid.
type OrderGiftcard struct {
	CardUUID      uuid.UUID
	Code          string // masked but its last four characters
	Amount        decimal.Decimal
	ReservationID string
	UsageID       *int64
}

// OrderPayment is the hub payment of the card part.
type OrderPayment struct {
	UUID   uuid.UUID
	Status string // the hub's: ip, ok, fail
	Amount decimal.Decimal
}
