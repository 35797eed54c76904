package checkout

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/ecommerce"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/domain/webhooks"
)

// Refusals of Pay and Finish.
const (
	MsgPaymentStarting = "Your payment is being started: try again in a moment."
	MsgOrderNotFound   = "Order not found"
	MsgCartChanged     = "Your cart changed: review it and pay again."
	maxReturnURLLength = 2000
)

// errReservationLost is a completion that found the giftcard's hold
// ended (it lapsed): the order cannot be completed as reserved.
var errReservationLost = errors.New("checkout: the order's giftcard hold has ended")

// Pay reserves the order (stock, coupon use, giftcard hold) and starts
// the card payment, or completes the order when nothing is left to pay.
// A second Pay of a cart whose order is pending answers that order's
// payment page (the orders' unique index on the cart settles a race),
// unless the cart changed since that order was priced: the stale order
// fails and a new one is reserved.
// Errors: those of Basket; CodeConflict when a step is incomplete, a
// product is no longer sold or the stock is short (the message says which
// line), or when the cart changed while the order was reserved
// (MsgCartChanged: that order failed); CodeUnavailable when the provider
// could not be reached.
func (s *Service) Pay(ctx context.Context, site Site, cartID uuid.UUID, in PayInput) (*PayOutcome, error) {
	v, p, err := s.carts.FunnelCart(ctx, site, cartID)
	if err != nil {
		return nil, err
	}
	rev := v.Cart.Revision
	if o, err := s.failStale(ctx, cartID, rev); err != nil {
		return nil, err
	} else if o != nil {
		return s.outcomeOf(ctx, o)
	}
	pr, err := s.price(ctx, s.uow.Stores(), p, v.Cart, v.ReturnTo)
	if err != nil {
		return nil, err
	}
	if msg := pr.blocker(); msg != "" {
		return nil, &domain.Error{Code: domain.CodeConflict, Message: msg}
	}
	o := newOrder(p, pr)
	o.CartRevision = rev
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		return s.reserve(ctx, tx, p, o, pr)
	})
	if errors.Is(err, ErrCartOrdered) {
		live, err := s.uow.Stores().Orders.LiveOrderOfCart(ctx, cartID)
		if err != nil {
			return nil, err
		}
		return s.outcomeOf(ctx, live)
	}
	if err != nil {
		return nil, err
	}
	if o.Status == OrderPaid {
		s.deleteCart(ctx, o)
		return &PayOutcome{Order: shown(o)}, nil
	}
	// A change of the cart that wrote before the order was reserved found
	// no order to fail (update fails the pending order after its write):
	// this order may be priced from a cart that is no more.
	cur, err := s.cartStore.Get(ctx, cartID)
	if err == nil && cur.Revision != rev {
		err = &domain.Error{Code: domain.CodeConflict, Message: MsgCartChanged}
	} else if domain.IsCode(err, domain.CodeNotFound) {
		err = &domain.Error{Code: domain.CodeNotFound, Message: cart.MsgCartNotFound}
	}
	if err != nil {
		if _, ferr := s.settle(ctx, o.UUID, false); ferr != nil {
			return nil, errors.Join(err, ferr)
		}
		return nil, err
	}
	// Outside any transaction: the hub charges through the provider.
	payment, err := s.hub.StartCheckoutPayment(ctx, payments.CheckoutCharge{ID: o.Payment.UUID, PartnerUUID: p.UUID,
		Amount: o.CardAmount, Description: p.Name + " " + o.Reference, ReturnURL: returnURL(in.ReturnURL, o.UUID),
		Customer: network.Customer{FirstName: o.Buyer.FirstName, LastName: o.Buyer.LastName, Email: o.Buyer.Email}})
	if err != nil {
		if _, ferr := s.settle(ctx, o.UUID, false); ferr != nil {
			return nil, errors.Join(err, ferr)
		}
		return nil, err
	}
	return &PayOutcome{RedirectURL: payment.PayinURL}, nil
}

// failStale fails the cart's pending order priced from a revision older
// than rev, as a declined payment would (its reservations given back; a
// payment that succeeds later is refunded by settle). It returns the
// cart's live order that is left (nil for none).
func (s *Service) failStale(ctx context.Context, cartID uuid.UUID, rev int64) (*Order, error) {
	o, err := s.uow.Stores().Orders.LiveOrderOfCart(ctx, cartID)
	if domain.IsCode(err, domain.CodeNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if o.Status != OrderPending || o.CartRevision >= rev {
		return o, nil
	}
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		cur, err := tx.Orders.FindOrder(ctx, o.UUID, true)
		if err != nil {
			return err
		}
		o = cur
		if cur.Status != OrderPending {
			return nil
		}
		return s.fail(ctx, tx, cur)
	})
	if err != nil {
		return nil, err
	}
	if o.Status == OrderFailed {
		return nil, nil
	}
	return o, nil
}

// returnURL is the funnel's page the provider sends the customer back to,
// naming the order; "" (the customer stays on the provider's page) when
// base is no absolute http(s) URL of at most maxReturnURLLength bytes.
func returnURL(base string, order uuid.UUID) string {
	u, err := url.Parse(base)
	if len(base) > maxReturnURLLength || err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	q := u.Query()
	q.Set("order", order.String())
	u.RawQuery = q.Encode()
	return u.String()
}

// outcomeOf is where a cart's live order sends the customer: its payment
// page while pending, else the order.
func (s *Service) outcomeOf(ctx context.Context, o *Order) (*PayOutcome, error) {
	if o.Status == OrderPending && o.Payment != nil {
		payment, err := s.hub.SyncPayment(ctx, o.Payment.UUID)
		switch {
		case domain.IsCode(err, domain.CodeNotFound):
			// The first Pay has yet to make it.
			return nil, &domain.Error{Code: domain.CodeUnavailable, Message: MsgPaymentStarting, RetryAfter: 2 * time.Second}
		case err != nil:
			return nil, err
		case payment.Status == payments.StatusInProgress && payment.PayinURL != "":
			return &PayOutcome{RedirectURL: payment.PayinURL}, nil
		case payment.Status == payments.StatusInProgress:
			return nil, &domain.Error{Code: domain.CodeUnavailable, Message: MsgPaymentStarting, RetryAfter: 2 * time.Second}
		}
		if o, err = s.settle(ctx, o.UUID, payment.Status == payments.StatusPaid); err != nil {
			return nil, err
		}
	}
	if o.Status == OrderPaid {
		s.deleteCart(ctx, o)
	}
	return &PayOutcome{Order: shown(o)}, nil
}

// newOrder is the order of a priced basket, before it is written.
func newOrder(p *domain.Partner, pr *pricing) *Order {
	b := pr.Basket
	id := uuid.New()
	o := &Order{UUID: id, Reference: newReference(), PartnerID: p.ID, CartID: b.CartID, ReturnURL: b.ReturnTo,
		Status: OrderPending, Currency: b.Totals.Currency, Buyer: b.Information,
		Delivery:   OrderDelivery{Mode: b.DeliveryMode, Cost: b.Totals.Delivery},
		LinesTotal: b.Totals.Lines, DeliveryCost: b.Totals.Delivery, Discount: b.Totals.Discount,
		GiftcardAmount: b.Totals.Giftcard, CardAmount: b.Totals.ToPay}
	o.Total = o.LinesTotal.Add(o.DeliveryCost).Sub(o.Discount)
	lang := b.Information.Language
	for _, l := range b.Lines {
		if l.Quantity == 0 {
			continue
		}
		name := l.Product.Name[lang]
		if name == "" {
			name = firstName(l.Product.Name)
		}
		if l.Variant != nil {
			if vn := l.Variant.Name[lang]; vn != "" {
				name += " – " + vn
			} else if vn := firstName(l.Variant.Name); vn != "" {
				name += " – " + vn
			}
		}
		rate := l.Product.VATRate
		vat := l.Total.Mul(rate).Div(decimal.NewFromInt(100).Add(rate)).Round(2)
		o.Lines = append(o.Lines, &OrderLine{ProductID: l.ProductID, VariantID: l.VariantID,
			AttributeValues: l.AttributeValues, Name: name, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
			VATRate: rate, VATAmount: vat, Total: l.Total})
		o.VATTotal = o.VATTotal.Add(vat)
	}
	if pr.coupon != nil {
		o.Coupon = &OrderCoupon{ID: pr.coupon.ID, Code: pr.coupon.Code, Discount: o.Discount}
	}
	if pr.card != nil && o.GiftcardAmount.IsPositive() {
		o.Giftcard = &OrderGiftcard{CardUUID: pr.card.UUID, Code: b.Giftcard, Amount: o.GiftcardAmount,
			ReservationID: id.String()}
	}
	if o.CardAmount.IsPositive() {
		o.Payment = &OrderPayment{UUID: uuid.New(), Status: payments.StatusInProgress, Amount: o.CardAmount}
	}
	return o
}

func firstName(l domain.Localized) string {
	for _, lang := range domain.Languages {
		if l[lang] != "" {
			return l[lang]
		}
	}
	return ""
}

// newReference is a human-friendly unique reference: EC- and 50 random
// bits in base32 (the unique index refuses the unlikely repeat).
func newReference() string {
	b := make([]byte, 7)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return "EC-" + base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)[:10]
}

// reserve writes the order and its reservations, all or none: the stock
// of its lines, its coupon's use, its giftcard's hold. An order with
// nothing to pay by card is completed in the same transaction.
func (s *Service) reserve(ctx context.Context, tx Stores, p *domain.Partner, o *Order, pr *pricing) error {
	o.Status = OrderPending
	if err := tx.Orders.CreateOrder(ctx, o); err != nil {
		return err
	}
	if err := publishOrder(ctx, tx, "order.created", o.PartnerID, o.ID); err != nil {
		return err
	}
	short, err := tx.Catalogue.TakeStock(ctx, stockOf(o))
	if err != nil {
		return err
	}
	if short != nil {
		for _, l := range pr.Lines {
			if l.ProductID == short.ProductID && equalIDs(l.VariantID, short.VariantID) {
				return &domain.Error{Code: domain.CodeConflict, Message: shortMessage(ctx, tx, p, short, l.Index+1)}
			}
		}
		return &domain.Error{Code: domain.CodeConflict, Message: MsgOutOfStock}
	}
	if o.Coupon != nil {
		ok, err := tx.Coupons.UseCoupon(ctx, o.Coupon.ID)
		if err != nil {
			return err
		}
		if !ok {
			return &domain.Error{Code: domain.CodeConflict, Message: MsgCouponUsedUp}
		}
	}
	if g := o.Giftcard; g != nil {
		_, err := s.giftcards.HoldFor(ctx, tx.Network, g.Code, p.ID, p.Currency, g.ReservationID, g.Amount, giftcardHoldTTL)
		switch {
		case domain.IsCode(err, domain.CodeInvalid):
			return &domain.Error{Code: domain.CodeConflict, Message: MsgGiftcardEmpty}
		case domain.IsCode(err, domain.CodeNotFound), domain.IsCode(err, domain.CodeConflict):
			return &domain.Error{Code: domain.CodeConflict, Message: MsgGiftcardNotUsable}
		case err != nil:
			return err
		}
	}
	if o.Payment == nil {
		return s.complete(ctx, tx, o)
	}
	return nil
}

// shortMessage is why TakeStock refused the line numbered n: its product
// (or variant) no longer sold, or what is left of its stock now (0 when
// it cannot be read).
func shortMessage(ctx context.Context, tx Stores, p *domain.Partner, short *ecommerce.StockLine, n int) string {
	products, err := tx.Catalogue.ProductsOf(ctx, p.ID, []int64{short.ProductID})
	if err != nil || len(products) == 0 {
		return fmt.Sprintf(MsgProductUnavailable, n)
	}
	stock, active := products[0].Stock, products[0].Active
	if short.VariantID != nil {
		active = false
		for _, v := range products[0].Variants {
			if v.ID == *short.VariantID {
				stock, active = v.Stock, v.Active && products[0].Active
			}
		}
	}
	if !active {
		return fmt.Sprintf(MsgProductUnavailable, n)
	}
	var left int64
	if stock != nil {
		left = *stock
	}
	return fmt.Sprintf(MsgStockShort, n, left)
}

func equalIDs(a, b *int64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// stockOf is the stock the order's lines take, in the order of the rows
// they lock (products, then variants, by id), so that two orders taking
// the same products cannot deadlock.
func stockOf(o *Order) []ecommerce.StockLine {
	out := make([]ecommerce.StockLine, 0, len(o.Lines))
	for _, l := range o.Lines {
		out = append(out, ecommerce.StockLine{ProductID: l.ProductID, VariantID: l.VariantID, Quantity: l.Quantity})
	}
	slices.SortStableFunc(out, func(a, b ecommerce.StockLine) int {
		return cmp.Or(cmp.Compare(variantKey(a), variantKey(b)), cmp.Compare(a.ProductID, b.ProductID))
	})
	return out
}

// variantKey orders the lines on products (0) before those on variants.
func variantKey(l ecommerce.StockLine) int64 {
	if l.VariantID == nil {
		return 0
	}
	return *l.VariantID
}

// complete makes the locked pending order paid: its giftcard hold becomes
// a usage, its records are done, and the buyer's mail is queued.
// errReservationLost when the hold has ended (lapsed): nothing is written.
func (s *Service) complete(ctx context.Context, tx Stores, o *Order) error {
	var usageID *int64
	if g := o.Giftcard; g != nil {
		u, err := s.giftcards.CaptureFor(ctx, tx.Network, g.Code, g.ReservationID)
		if domain.IsCode(err, domain.CodeConflict) || domain.IsCode(err, domain.CodeNotFound) {
			return errReservationLost
		}
		if err != nil {
			return err
		}
		usageID, g.UsageID = &u.ID, &u.ID
		if err := tx.Orders.SetRecordStatus(ctx, o.ID, RecordGiftcard, RecordDone, usageID); err != nil {
			return err
		}
	}
	for _, kind := range []string{RecordCoupon, RecordCard} {
		if err := tx.Orders.SetRecordStatus(ctx, o.ID, kind, RecordDone, nil); err != nil {
			return err
		}
	}
	now := s.now()
	o.Status, o.PaidAt, o.UpdatedAt = OrderPaid, &now, now
	if err := tx.Orders.SaveOrderState(ctx, o); err != nil {
		return err
	}
	partner, err := s.partners.FindPartnerByID(ctx, o.PartnerID)
	if err != nil {
		return err
	}
	if err := tx.Outbox.Enqueue(ctx, confirmationMail(o, partner.Name)); err != nil {
		return err
	}
	return publishOrder(ctx, tx, "order.paid", o.PartnerID, o.ID)
}

// publishOrder keeps the webhook event typ of the order id, to its shop,
// in tx: the order read back as the orders' backend shows it, when an
// endpoint awaits it.
func publishOrder(ctx context.Context, tx Stores, typ string, shop, id int64) error {
	if awaited, err := tx.Events.Prepare(ctx, typ, []int64{shop}); err != nil || !awaited {
		return err
	}
	o, err := tx.Orders.FindOrderByID(ctx, id)
	if err != nil {
		return err
	}
	return tx.Events.Publish(ctx, webhooks.Event{Type: typ, Partners: []int64{o.PartnerID}, Resource: shown(o)})
}

// fail makes the locked pending order failed and gives its reservations
// back: stock, giftcard hold, coupon use.
func (s *Service) fail(ctx context.Context, tx Stores, o *Order) error {
	if err := tx.Catalogue.GiveStock(ctx, stockOf(o)); err != nil {
		return err
	}
	// The rows are locked in reserve's order (stock, coupon, card), so
	// that a failing order and a reserving one cannot deadlock.
	if o.Coupon != nil {
		if err := tx.Coupons.GiveCouponBack(ctx, o.Coupon.ID); err != nil {
			return err
		}
	}
	if g := o.Giftcard; g != nil {
		if err := s.giftcards.ReleaseFor(ctx, tx.Network, g.Code, g.ReservationID); err != nil && !domain.IsCode(err, domain.CodeNotFound) {
			return err
		}
	}
	for _, kind := range []string{RecordCoupon, RecordGiftcard, RecordCard} {
		if err := tx.Orders.SetRecordStatus(ctx, o.ID, kind, RecordReleased, nil); err != nil {
			return err
		}
	}
	o.Status, o.UpdatedAt = OrderFailed, s.now()
	return tx.Orders.SaveOrderState(ctx, o)
}

// settle applies a payment's outcome to its order, once: in one
// transaction on the order's locked row, a pending order becomes paid or
// failed. A payment that succeeded for an order that could not be
// completed (it had failed or lapsed, its stock given back and maybe sold
// since, or its giftcard hold lapsed) is refunded in full at once, and
// the order stays failed.
func (s *Service) settle(ctx context.Context, id uuid.UUID, paid bool) (*Order, error) {
	var o *Order
	refund := false
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		var err error
		refund = false
		if o, err = tx.Orders.FindOrder(ctx, id, true); err != nil {
			return err
		}
		switch {
		case o.Status != OrderPending:
			refund = paid && o.Status == OrderFailed
			return nil
		case !paid:
			return s.fail(ctx, tx, o)
		}
		err = s.complete(ctx, tx, o)
		if errors.Is(err, errReservationLost) {
			refund = true
			return s.fail(ctx, tx, o)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if refund && o.Payment != nil {
		if _, err := s.hub.RefundCheckoutPayment(ctx, o.Payment.UUID, refundReason(o)); err != nil {
			return nil, err
		}
	}
	if o.Status == OrderPaid {
		s.deleteCart(ctx, o)
	}
	return o, nil
}

// deleteCart deletes the cart of a paid order: the thank-you step is
// reached. A failure leaves the cart to lapse.
func (s *Service) deleteCart(ctx context.Context, o *Order) {
	_ = s.cartStore.Delete(ctx, o.CartID)
}

// PaymentSettled is the hub's settle hook (payments.WithSettled): the
// provider's word on a checkout's payment completes or fails its order,
// whether or not the customer comes back. Payments of no order are left
// alone; a failure is left for Finish, LapsePendingOrders or
// RefundFailedOrders.
func (s *Service) PaymentSettled(ctx context.Context, p *payments.Payment) {
	// The browser that told of the payment may leave: the order's
	// completion goes on.
	ctx = context.WithoutCancel(ctx)
	id, err := s.uow.Stores().Orders.OrderOfPayment(ctx, p.UUID)
	if err != nil {
		return
	}
	_, _ = s.settle(ctx, id, p.Status == payments.StatusPaid)
}

// Finish is the page the provider sends the customer back to: it reads
// the payment's outcome, completes or fails the order, and, when paid,
// deletes the cart. It returns the order.
// Errors: CodeNotFound when the site has no such order.
func (s *Service) Finish(ctx context.Context, site Site, orderUUID uuid.UUID) (*Order, error) {
	p, err := s.carts.SitePartner(ctx, site)
	if err != nil {
		return nil, &domain.Error{Code: domain.CodeNotFound, Message: MsgOrderNotFound}
	}
	o, err := s.uow.Stores().Orders.FindOrder(ctx, orderUUID, false)
	if err == nil && o.PartnerID != p.ID {
		err = domain.ErrNotFound
	}
	if domain.IsCode(err, domain.CodeNotFound) {
		return nil, &domain.Error{Code: domain.CodeNotFound, Message: MsgOrderNotFound}
	}
	if err != nil {
		return nil, err
	}
	switch {
	case o.Status == OrderPending && o.Payment != nil:
		payment, err := s.hub.SyncPayment(ctx, o.Payment.UUID)
		switch {
		case domain.IsCode(err, domain.CodeNotFound):
		case err != nil:
			return nil, err
		case payment.Status != payments.StatusInProgress:
			if o, err = s.settle(ctx, o.UUID, payment.Status == payments.StatusPaid); err != nil {
				return nil, err
			}
		}
	case o.Status == OrderFailed && o.Payment != nil && o.Payment.Status == payments.StatusPaid:
		// Paid after it failed: the refund the settle hook asked for is
		// asked again (it gives back only what remains).
		if o, err = s.settle(ctx, o.UUID, true); err != nil {
			return nil, err
		}
	}
	if o.Status == OrderPaid {
		s.deleteCart(ctx, o)
	}
	return shown(o), nil
}

// LapsePendingOrders ends the orders pending since before cutoff (at most
// limit, least recently written first): each one's payment is read from
// the hub (synced with the provider) and the order completed when it was
// paid, failed otherwise — a payment that failed, that the provider never
// started, or that still waits for its card holder. A payment that
// succeeds after its order lapsed is refunded in full (settle; and
// RefundFailedOrders when that refund was not asked). It
// returns how many orders ended; an order that fails is left for the next
// run, its error joined with the others'.
func (s *Service) LapsePendingOrders(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	ids, err := s.uow.Stores().Orders.StaleOrders(ctx, cutoff, limit)
	if err != nil {
		return 0, err
	}
	ended := 0
	var failures []error
	for _, id := range ids {
		o, err := s.uow.Stores().Orders.FindOrder(ctx, id, false)
		if err != nil {
			failures = append(failures, err)
			continue
		}
		paid := false
		if o.Payment != nil {
			payment, err := s.hub.SyncPayment(ctx, o.Payment.UUID)
			switch {
			case domain.IsCode(err, domain.CodeNotFound):
			case err != nil:
				failures = append(failures, fmt.Errorf("order %s: %w", id, err))
				continue
			default:
				paid = payment.Status == payments.StatusPaid
			}
		}
		if _, err := s.settle(ctx, id, paid); err != nil {
			failures = append(failures, fmt.Errorf("order %s: %w", id, err))
			continue
		}
		ended++
	}
	return ended, errors.Join(failures...)
}

// RefundFailedOrders asks the hub again for the refund of the failed
// orders whose card payment succeeded and is not wholly refunded (at
// most limit, least recently written first): settle asks for it after
// its transaction, and a crash or the provider's outage there loses the
// request. The hub's refund gives back only what remains, so that asking
// twice refunds once. It returns how many refunds were asked; an order
// whose refund fails is left for the next run, its error joined with the
// others'.
func (s *Service) RefundFailedOrders(ctx context.Context, limit int) (int, error) {
	ids, err := s.uow.Stores().Orders.UnrefundedOrders(ctx, limit)
	if err != nil {
		return 0, err
	}
	asked := 0
	var failures []error
	for _, id := range ids {
		o, err := s.uow.Stores().Orders.FindOrder(ctx, id, false)
		if err == nil && (o.Status != OrderFailed || o.Payment == nil) {
			continue
		}
		if err == nil {
			_, err = s.hub.RefundCheckoutPayment(ctx, o.Payment.UUID, refundReason(o))
		}
		if err != nil {
			failures = append(failures, fmt.Errorf("order %s: %w", id, err))
			continue
		}
		asked++
	}
	return asked, errors.Join(failures...)
}

// refundReason is the reason of the refund of a payment whose order
// could not be completed.
func refundReason(o *Order) string {
	return "The order " + o.Reference + " could not be completed."
}

// shown is o as callers see it: the giftcard's code masked but its last
// four characters.
func shown(o *Order) *Order {
	if o.Giftcard == nil {
		return o
	}
	out := *o
	g := *o.Giftcard
	if n := len(g.Code); n > 4 {
		g.Code = strings.Repeat("•", n-4) + g.Code[n-4:]
	}
	out.Giftcard = &g
	return &out
}
