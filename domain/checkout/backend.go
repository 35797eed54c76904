package checkout

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/payments"
)

// OrderListInput filters the caller's orders: status (one of the Order
// statuses), created_after and created_before (dates or date-times).
type OrderListInput struct {
	domain.Refusals
	Status                      domain.Optional[string]
	CreatedAfter, CreatedBefore domain.Optional[string]
}

// OrderStatuses are the statuses an order list filters on.
var OrderStatuses = []string{OrderPending, OrderPaid, OrderFailed, OrderRefunded}

// Messages of the orders' backend.
const (
	MsgRefundUnpaid   = "Only a paid order can be refunded."
	MsgRefundNoCard   = "Nothing of this order was paid by card."
	MsgRefundTooMuch  = "Ensure this value is less than or equal to %s, what remains refundable."
	MsgRefundPositive = domain.MsgPositive
)

// caller is the caller of the orders' backend: staff, or a partner's
// member.
func caller(ctx context.Context) (*domain.Caller, error) {
	c, err := domain.CallerFrom(ctx)
	if err != nil {
		return nil, err
	}
	if !c.User.IsStaff && c.Partner == nil {
		return nil, &domain.Error{Code: domain.CodeForbidden, Message: domain.MsgPermissionDenied}
	}
	return c, nil
}

// Orders returns a page of the caller's partner's orders, newest first
// (staff see every partner's).
// Errors: CodeUnauthenticated, CodeForbidden, CodeInvalid on a filter.
func (s *Service) Orders(ctx context.Context, in OrderListInput, page domain.PageRequest) (*domain.Page[*Order], error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	filter := OrderFilter{Tenant: c.Tenant()}
	if st := f.Choice("status", in.Status, false, OrderStatuses); st != nil {
		filter.Status = *st
	}
	filter.CreatedFrom = dateFilter(v, "created_after", in.CreatedAfter, false)
	filter.CreatedBefore = dateFilter(v, "created_before", in.CreatedBefore, true)
	if err := v.Err(); err != nil {
		return nil, err
	}
	items, count, err := s.uow.Stores().Orders.ListOrders(ctx, filter, page)
	if err != nil {
		return nil, err
	}
	for i, o := range items {
		items[i] = shown(o)
	}
	return domain.NewPage(items, count, page)
}

// dateFilter reads a bound of the creation date: a day (UTC) or a
// date-time, as domain.ParseDateBound reads it; after takes its start,
// before its end.
func dateFilter(v *domain.Validator, field string, o domain.Optional[string], end bool) *time.Time {
	s, ok := o.Get()
	if !ok || s == "" {
		return nil
	}
	start, stop, msg := domain.ParseDateBound(s, time.UTC)
	if msg != "" {
		v.Add(domain.VInvalid, msg, field)
		return nil
	}
	if end {
		return &stop
	}
	return &start
}

// Order returns one order of the caller's partner.
// Errors: CodeNotFound for an unknown or foreign order.
func (s *Service) Order(ctx context.Context, id int64) (*Order, error) {
	c, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	o, err := s.uow.Stores().Orders.FindOrderByID(ctx, id)
	return visible(c, o, err)
}

func visible(c *domain.Caller, o *Order, err error) (*Order, error) {
	if err != nil {
		return nil, err
	}
	if !c.Sees(o.PartnerID) {
		return nil, domain.ErrNotFound
	}
	return shown(o), nil
}

// RefundInput refunds a paid order: amount (the whole card part when
// absent) through the hub's refund, and restock (give the lines' stock
// back; false when absent).
type RefundInput struct {
	domain.Refusals
	Amount  domain.Optional[decimal.Decimal]
	Restock domain.Optional[bool]
}

// RefundOrder refunds an order of the caller's partner: the hub refunds
// the card part (the caller needs the hub's refund permission), then the
// order counts it, gives its stock back when asked (once), and is
// refunded when its card part is wholly refunded.
// Errors: CodeNotFound; CodeInvalid on "amount"; CodeConflict when the
// order is not paid; the hub's refund's.
func (s *Service) RefundOrder(ctx context.Context, id int64, in RefundInput) (*Order, error) {
	o, err := s.Order(ctx, id)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	amount := f.PositiveMoney("amount", in.Amount, false)
	restock := domain.Pick(f.Bool("restock", in.Restock), false)
	if err := v.Err(); err != nil {
		return nil, err
	}
	switch {
	case o.Status != OrderPaid:
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgRefundUnpaid}
	case o.Payment == nil:
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgRefundNoCard}
	}
	left := o.CardAmount.Sub(o.RefundedAmount)
	value := left
	if amount != nil {
		value = *amount
	}
	switch {
	case !value.IsPositive():
		v.Add(domain.VMinValue, MsgRefundPositive, "amount")
	case value.GreaterThan(left):
		v.Add(domain.VMaxValue, fmtMoney(MsgRefundTooMuch, left), "amount")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	r, err := s.hub.RefundPayment(ctx, o.Payment.UUID, payments.RefundInput{
		Amount: domain.Optional[decimal.Decimal]{Value: value, Set: true},
		Reason: domain.Optional[string]{Value: "Refund of the order " + o.Reference, Set: true}})
	if err != nil {
		return nil, err
	}
	if r.Status == payments.RefundStatusFailed {
		return nil, &domain.Error{Code: domain.CodeConflict, Message: r.Detail()}
	}
	var out *Order
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		cur, err := tx.Orders.FindOrder(ctx, o.UUID, true)
		if err != nil {
			return err
		}
		cur.RefundedAmount = cur.RefundedAmount.Add(r.Amount)
		if cur.RefundedAmount.GreaterThanOrEqual(cur.CardAmount) {
			cur.Status = OrderRefunded
		}
		if restock && !cur.Restocked {
			if err := tx.Catalogue.GiveStock(ctx, stockOf(cur)); err != nil {
				return err
			}
			cur.Restocked = true
		}
		cur.UpdatedAt = s.now()
		out = cur
		if err := tx.Orders.SaveOrderState(ctx, cur); err != nil {
			return err
		}
		return publishOrder(ctx, tx, "order.refunded", cur.PartnerID, cur.ID)
	})
	if err != nil {
		return nil, err
	}
	return shown(out), nil
}

func fmtMoney(format string, d decimal.Decimal) string {
	return fmt.Sprintf(format, d.StringFixed(2))
}
