package payments

import (
	"context"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// The checkout funnel's payments (domain/checkout): a public page with no
// caller starts them for the shop's partner, as a payment request's page
// does (PayPaymentRequest); the order that the funnel reserved first
// vouches for the partner and the amount.

// CheckoutCharge is the card payment of a checkout order: ID is the
// payment's uuid, chosen and recorded by the order before the payment is
// made, so that the order always knows which payment to ask about.
type CheckoutCharge struct {
	ID          uuid.UUID
	PartnerUUID uuid.UUID
	Amount      decimal.Decimal
	Customer    network.Customer
	Description string
	// ReturnURL is where the provider's pages send the customer once the
	// pay-in has ended.
	ReturnURL string
}

// MsgCheckoutProviderFailure answers a checkout payment the provider
// could not start.
const MsgCheckoutProviderFailure = "The payment could not be started: try again in a moment."

// StartCheckoutPayment makes the payment of a checkout order and starts
// its pay-in without a card: the customer pays on the provider's card
// page, the payment's PayinURL. A repeat with the same ID answers the
// payment as it is.
// Errors: CodeConflict (MsgPartnerCannotTakePayments) when the partner
// cannot take payments; CodeUnavailable when the provider could not start
// the pay-in (the payment failed).
func (s *PaymentService) StartCheckoutPayment(ctx context.Context, in CheckoutCharge) (*Payment, error) {
	if p, err := s.uow.Stores().Payments.FindPayment(ctx, in.ID, false); err == nil {
		return p, nil
	} else if !domain.IsCode(err, domain.CodeNotFound) {
		return nil, err
	}
	id := in.ID
	p, err := s.create(ctx, nil, &paymentInput{Customer: in.Customer, PartnerUUID: in.PartnerUUID, Amount: in.Amount,
		Product: ProductEcommerce, Type: PaymentTypeCard, Receipt: in.Description, ID: &id, ReturnURL: in.ReturnURL}, nil)
	switch {
	case domain.IsCode(err, domain.CodeInvalid):
		// The partner is the shop's own: a field error means it is no
		// payment-hub partner.
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgPartnerCannotTakePayments}
	case err != nil:
		return nil, err
	case p.Status == StatusFailed:
		return nil, &domain.Error{Code: domain.CodeUnavailable, Message: MsgCheckoutProviderFailure}
	}
	return p, nil
}

// SyncPayment asks the provider for the pay-in of the payment with that
// uuid and applies it (as SettleStalePayments does for one payment): a
// payment no longer in progress, or one the provider has no pay-in for
// yet, is answered as it is. It is the platform's own read, for the
// checkout that made the payment.
// Errors: domain.ErrNotFound for an unknown payment; the provider's when
// it cannot be reached.
func (s *PaymentService) SyncPayment(ctx context.Context, id uuid.UUID) (*Payment, error) {
	p, err := s.uow.Stores().Payments.FindPayment(ctx, id, false)
	if err != nil || p.Status != StatusInProgress {
		return p, err
	}
	payin, err := s.provider.PayinOf(ctx, id)
	if domain.IsCode(err, domain.CodeNotFound) {
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	return s.applyPayin(ctx, id, payin)
}

// RefundCheckoutPayment gives back all that remains refundable of a paid
// checkout payment, as the platform (no caller): the order it paid could
// not be completed. A payment with nothing left to refund answers nil.
// The refund is left pending when the provider cannot be reached
// (RetryPendingRefunds finishes it).
// Errors: those of the refund's reservation (CodeConflict for a payment
// that is not paid).
func (s *PaymentService) RefundCheckoutPayment(ctx context.Context, id uuid.UUID, reason string) (*Refund, error) {
	var r *Refund
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		r = nil
		p, err := tx.Payments.FindPayment(ctx, id, true)
		if err != nil {
			return err
		}
		if p.Status != StatusPaid || !p.Refundable().IsPositive() {
			return nil
		}
		r, err = s.reserveRefund(ctx, tx, nil, id, &refundInput{Amount: p.Refundable(), Reason: reason})
		return err
	})
	if err != nil || r == nil || r.Status != RefundPending {
		return r, err
	}
	return s.askProvider(ctx, r)
}

// WithSettled sets fn, told of every payment whose pay-in's outcome
// (paid or failed) was applied, after its transaction committed: how the
// checkout completes an order when the provider tells of the payment
// even if the customer never comes back. fn runs on the request that
// applied it; it must not fail the caller's work. It returns s.
func (s *PaymentService) WithSettled(fn func(ctx context.Context, p *Payment)) *PaymentService {
	s.settled = fn
	return s
}
