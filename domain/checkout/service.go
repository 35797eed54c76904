package checkout

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// errUnbuilt marks the methods whose work is still being written; each
// is replaced by its implementation.
var errUnbuilt = errors.New("checkout: not built yet")

// Service runs the funnel's steps and the partner's orders.
type Service struct{}

// Basket returns the cart the customer opened on the site, priced.
// Errors: CodeNotFound (cart.MsgCartNotFound) for an unknown, lapsed,
// deleted or foreign cart.
func (s *Service) Basket(ctx context.Context, site Site, cartID uuid.UUID) (*Basket, error) {
	return nil, errUnbuilt
}

// Customize writes the customization step's changes to the cart (a new
// last_modified) and returns the basket.
// Errors: those of Basket; CodeInvalid with field errors ("lines.0.quantity",
// "lines.0.variant_id", "lines.0.attribute_values.3", "delivery_mode").
func (s *Service) Customize(ctx context.Context, site Site, cartID uuid.UUID, in CustomizationInput) (*Basket, error) {
	return nil, errUnbuilt
}

// Inform writes the information step's answers.
// Errors: those of Basket; CodeInvalid with field errors by form field
// name ("first_name", "email", "postal_code", …).
func (s *Service) Inform(ctx context.Context, site Site, cartID uuid.UUID, in InformationInput) (*Basket, error) {
	return nil, errUnbuilt
}

// ApplyCodes applies or removes the coupon and the giftcard codes.
// Errors: those of Basket; CodeInvalid on "coupon" or "giftcard".
func (s *Service) ApplyCodes(ctx context.Context, site Site, cartID uuid.UUID, in CodesInput) (*Basket, error) {
	return nil, errUnbuilt
}

// Pay reserves the order (stock, coupon use, giftcard hold) and starts
// the card payment, or completes the order when nothing is left to pay.
// Errors: those of Basket; CodeConflict when a step is incomplete or the
// stock is short (the message says which line); CodeUnavailable when the
// provider could not be reached.
func (s *Service) Pay(ctx context.Context, site Site, cartID uuid.UUID, in PayInput) (*PayOutcome, error) {
	return nil, errUnbuilt
}

// Finish is the page the provider sends the customer back to: it reads
// the payment's outcome, completes or fails the order, and, when paid,
// deletes the cart. It returns the order.
// Errors: CodeNotFound when the site has no such order.
func (s *Service) Finish(ctx context.Context, site Site, orderUUID uuid.UUID) (*Order, error) {
	return nil, errUnbuilt
}

// OrderListInput filters the caller's orders: status (one of the Order
// statuses), created_after and created_before (dates or date-times).
type OrderListInput struct {
	domain.Refusals
	Status                      domain.Optional[string]
	CreatedAfter, CreatedBefore domain.Optional[string]
}

// Orders returns a page of the caller's partner's orders, newest first
// (staff see every partner's).
// Errors: CodeUnauthenticated, CodeForbidden, CodeInvalid on a filter.
func (s *Service) Orders(ctx context.Context, in OrderListInput, page domain.PageRequest) (*domain.Page[*Order], error) {
	return nil, errUnbuilt
}

// Order returns one order of the caller's partner.
// Errors: CodeNotFound for an unknown or foreign order.
func (s *Service) Order(ctx context.Context, id int64) (*Order, error) {
	return nil, errUnbuilt
}

// OrderByUUID is Order by the order's uuid (the graph's Node id).
func (s *Service) OrderByUUID(ctx context.Context, id uuid.UUID) (*Order, error) {
	return nil, errUnbuilt
}

// RefundInput refunds a paid order: amount (the whole card part when
// absent) through the hub's refund, and restock (give the lines' stock
// back; false when absent).
type RefundInput struct {
	domain.Refusals
	Amount  domain.Optional[decimal.Decimal]
	Restock domain.Optional[bool]
}

// RefundOrder refunds an order of the caller's partner.
// Errors: CodeNotFound; CodeInvalid on "amount"; CodeConflict when the
// order is not paid.
func (s *Service) RefundOrder(ctx context.Context, id int64, in RefundInput) (*Order, error) {
	return nil, errUnbuilt
}
