package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/webhooks"
)

// Refunds give a paid payment's money back the way it came: the extra
// source's part to its wallet (the network giftcard), the pay-in's part
// through the provider. A refund is reserved first, in one transaction on
// the payment's locked row: what remains refundable is checked and
// reserved, and the partner's part (and the commission's) taken back into
// clearing, so that concurrent refunds cannot give back more than was
// paid and a payout cannot take what a refund needs. The provider is then
// asked for the pay-in's part, outside any transaction, and a second
// transaction gives the money back (success) or returns it to the partner
// and the commission (refusal). The payment's status does not change
// (docs/DECISIONS.md, "Refunds").

// Refund statuses.
const (
	RefundPending          = "pending"
	RefundStatusSucceeded  = "succeeded"
	RefundStatusFailed     = "failed"
	MaxRefundsPerPayment   = 100
	AuditRefund            = "refund"
	AuditPayoutValidate    = "payout_validate"
	msgRefundPaidOnly      = "Only a paid payment can be refunded."
	msgRefundTooMany       = "This payment has had %d refunds, the most it may have."
	msgRefundTooMuch       = "Ensure this value is less than or equal to %s, what remains refundable."
	msgSplitSum            = "extra_source_amount and additional_payin_amount must add up to amount."
	msgSplitSource         = "Ensure this value is less than or equal to %s, what remains refundable to this source."
	msgPartnerWalletShort  = "The partner's wallet holds %s: this refund needs %s from it."
	msgRefundSucceeded     = "The refund of %s %s succeeded."
	msgRefundProviderError = "The payment provider did not answer: the refund is pending. Repeat the request with the same X-Idempotency-Key to finish it."
)

// Refund is a refund of a payment.
type Refund struct {
	ID          int64
	UUID        uuid.UUID
	PaymentID   int64
	PaymentUUID uuid.UUID
	Currency    string // the payment's
	Status      string // one of the Refund statuses
	Amount      decimal.Decimal
	// The parts: to the extra source's wallet, through the provider; and
	// what of the commission the platform gives back.
	ExtraSourceAmount decimal.Decimal
	PayinAmount       decimal.Decimal
	Commission        decimal.Decimal
	Split             bool // the client said which source gives what
	Reason            string
	ProviderRef       string
	ResultCode        string
	ResultMessage     string
	ActorUserID       *int64
	Actor             string
	CreatedOn         time.Time
	FinishedOn        *time.Time
}

// Detail is the sentence the REST answer gives of r's outcome.
func (r *Refund) Detail() string {
	switch r.Status {
	case RefundStatusSucceeded:
		return fmt.Sprintf(msgRefundSucceeded, r.Amount.StringFixed(2), r.Currency)
	case RefundPending:
		return msgRefundProviderError
	}
	return r.ResultMessage
}

// HubAuditEntry is one money decision of the payment hub: a refund, a
// payout validation. Before and After are JSON of the record's state.
type HubAuditEntry struct {
	PaymentID       *int64
	PayoutRequestID *int64
	ActorUserID     *int64 // nil: the platform's job
	Actor           string
	Action          string
	Reason          string
	Before, After   json.RawMessage
}

// refundState is what the audit trail records of a payment's refunds.
type refundState struct {
	RefundedAmount      string `json:"refunded_amount"`
	RefundedExtraSource string `json:"refunded_extra_source"`
	RefundedPayin       string `json:"refunded_payin"`
	RefundedCommission  string `json:"refunded_commission"`
	Refund              string `json:"refund"`
	RefundStatus        string `json:"refund_status"`
}

func refundStateOf(p *Payment, r *Refund) json.RawMessage {
	b, _ := json.Marshal(refundState{RefundedAmount: p.RefundedAmount.StringFixed(2),
		RefundedExtraSource: p.RefundedExtraSource.StringFixed(2), RefundedPayin: p.RefundedPayin.StringFixed(2),
		RefundedCommission: p.RefundedCommission.StringFixed(2), Refund: r.UUID.String(), RefundStatus: r.Status})
	return b // strings only: always encodes
}

// RefundInput is a refund's body.
type RefundInput struct {
	domain.Refusals
	Amount domain.Optional[decimal.Decimal]
	Split  domain.Optional[RefundSplit]
	Reason domain.Optional[string]
}

// RefundSplit is which source gives what; its refusals are named inside
// split.
type RefundSplit struct {
	domain.Refusals
	ExtraSourceAmount     domain.Optional[decimal.Decimal]
	AdditionalPayinAmount domain.Optional[decimal.Decimal]
}

// refundInput is a checked refund body.
type refundInput struct {
	Amount decimal.Decimal
	Split  *struct{ Extra, Payin decimal.Decimal }
	Reason string
}

func readRefundInput(in RefundInput) (*refundInput, error) {
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	out := &refundInput{Amount: amountOf(f, "amount", in.Amount)}
	if domain.HasFieldError(v, "split") {
		return nil, v.Err()
	}
	if split, ok, _ := domain.Present(f, "split", in.Split, false, true); ok {
		sub := domain.Fields{V: split.Refusals.Validator()}
		extra, _ := sub.Money("extra_source_amount", split.ExtraSourceAmount, true, false)
		payin, _ := sub.Money("additional_payin_amount", split.AdditionalPayinAmount, true, false)
		for _, fe := range sub.V.Fields {
			v.Add(fe.Code, fe.Message, append([]any{"split"}, fe.Path...)...)
		}
		if extra != nil && payin != nil {
			out.Split = &struct{ Extra, Payin decimal.Decimal }{*extra, *payin}
			if !extra.Add(*payin).Equal(out.Amount) {
				v.Add(domain.VInvalid, msgSplitSum, "split", "non_field_errors")
			}
		}
	}
	if s := f.String("reason", in.Reason, false, true, MaxReasonLength); s != nil {
		out.Reason = *s
	}
	return out, v.Err()
}

// RefundPayment refunds part or all of a paid payment, once per
// idempotency key. Body: amount (above 0, at most what remains
// refundable), split (optional: extra_source_amount +
// additional_payin_amount = amount, each at most what remains of its
// source), reason (an addition, kept in the audit trail). Without split
// the amount is shared between the sources in proportion to what each
// paid (splitRefund). A repeat of the request answers the refund as it is
// now, and finishes one a failure left pending.
// Errors: those of Authorize(OpPaymentRefund); CodeNotFound for a payment
// the caller does not see; CodeInvalid with every field error;
// CodeConflict for a payment that is not paid, has MaxRefundsPerPayment
// refunds, or whose partner's wallet no longer holds its part (paid out).
func (s *PaymentService) RefundPayment(ctx context.Context, id uuid.UUID, body RefundInput) (*Refund, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentRefund)
	if err != nil {
		return nil, err
	}
	in, err := readRefundInput(body)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"payment": id.String(), "body": body}
	r, err := idempotency.Run(ctx, s.keys, "payments.refund", request, func(ctx context.Context, complete idempotency.Complete[*Refund]) (idempotency.Done[*Refund], error) {
		var done idempotency.Done[*Refund]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			r, err := s.reserveRefund(ctx, tx, c, id, in)
			if err != nil {
				return err
			}
			done, err = complete(ctx, tx.Keys, r)
			return err
		})
		return done, err
	})
	if err != nil {
		return nil, err
	}
	if idempotency.Replayed(ctx) {
		if r, err = s.uow.Stores().Payments.FindRefund(ctx, r.UUID); err != nil {
			return nil, err
		}
	}
	if r.Status != RefundPending {
		return r, nil
	}
	return s.askProvider(ctx, r) // left pending (Detail says so) when unanswered: a repeat finishes it
}

// askProvider asks the provider for the pending refund r and finishes it
// as the provider answers; the provider knows a refund by its uuid, so
// one it did make is not made twice. r is answered as it is, still
// pending, when the provider cannot be reached.
func (s *PaymentService) askProvider(ctx context.Context, r *Refund) (*Refund, error) {
	p, err := s.uow.Stores().Payments.FindPayment(ctx, r.PaymentUUID, false)
	if err != nil {
		return nil, err
	}
	pr, err := s.provider.Refund(ctx, RefundRequest{RequestID: r.UUID, PayinRef: p.PayinRef, Amount: r.PayinAmount})
	if err != nil {
		return r, nil
	}
	return s.finishRefund(ctx, r.UUID, pr)
}

// reserveRefund checks a refund on the payment's locked row and reserves
// it; a refund with nothing to give back through the provider is
// finished at once.
func (s *PaymentService) reserveRefund(ctx context.Context, tx Stores, c *domain.Caller, id uuid.UUID, in *refundInput) (*Refund, error) {
	p, err := tx.Payments.FindPayment(ctx, id, true)
	if err != nil {
		return nil, err
	}
	if c != nil && !sees(c, p.PartnerID, p.ReferrerID) {
		return nil, domain.ErrNotFound
	}
	if p.Status != StatusPaid {
		return nil, &domain.Error{Code: domain.CodeConflict, Message: msgRefundPaidOnly}
	}
	n, err := tx.Payments.CountRefunds(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	if n >= MaxRefundsPerPayment {
		return nil, &domain.Error{Code: domain.CodeConflict, Message: fmt.Sprintf(msgRefundTooMany, n)}
	}
	r := &Refund{UUID: uuid.New(), PaymentID: p.ID, PaymentUUID: p.UUID, Currency: p.Currency, Status: RefundPending, Amount: in.Amount, Reason: in.Reason}
	var actor int64 // 0: the platform's own refund (RefundCheckoutPayment)
	if c != nil {
		r.ActorUserID, r.Actor, actor = &c.User.ID, c.User.Username, c.User.ID
	}
	if err := splitRefund(p, in, r); err != nil {
		return nil, err
	}
	before := refundStateOf(p, r)
	// The partner's part and the commission's come back into clearing
	// now: a payout cannot take them while the provider is asked.
	partner, err := PartnerWallet(ctx, tx, p.PayeeID(), p.Currency)
	if err != nil {
		return nil, err
	}
	clearing, commission, err := refundWallets(ctx, tx, p)
	if err != nil {
		return nil, err
	}
	if err := lockRefund(ctx, tx, p, partner.UUID, clearing, commission); err != nil {
		return nil, err
	}
	if err := cardTakesBack(ctx, tx, p, r); err != nil {
		return nil, err
	}
	if part := r.Amount.Sub(r.Commission); part.IsPositive() {
		_, err := Transfer(ctx, tx, MoveInput{From: partner.UUID, To: clearing, Amount: part, Type: MoveRefund,
			PaymentUUID: &p.UUID, ActorID: actor})
		if domain.IsCode(err, domain.CodeInvalid) {
			held, _ := Balance(ctx, tx, partner.UUID)
			return nil, &domain.Error{Code: domain.CodeConflict,
				Message: fmt.Sprintf(msgPartnerWalletShort, held.StringFixed(2), part.StringFixed(2))}
		}
		if err != nil {
			return nil, err
		}
	}
	if r.Commission.IsPositive() {
		if _, err := Transfer(ctx, tx, MoveInput{From: commission, To: clearing, Amount: r.Commission, Type: MoveRefund,
			PaymentUUID: &p.UUID, ActorID: actor}); err != nil {
			return nil, err
		}
	}
	p.ReservedExtraSource = p.ReservedExtraSource.Add(r.ExtraSourceAmount)
	p.ReservedPayin = p.ReservedPayin.Add(r.PayinAmount)
	p.ReservedCommission = p.ReservedCommission.Add(r.Commission)
	if err := tx.Payments.CreateRefund(ctx, r); err != nil {
		return nil, err
	}
	if r.PayinAmount.IsZero() {
		if err := s.settleRefund(ctx, tx, p, r, &ProviderRefund{Status: RefundSucceeded}, before); err != nil {
			return nil, err
		}
		return r, nil
	}
	return r, tx.Payments.SavePayment(ctx, p)
}

// splitRefund sets r's parts. With split, the client's; without, the
// extra source's part is its share of the amount (the amount × the extra
// source's part of the payment, rounded to the cent half up) and the
// pay-in's the rest; a part above what remains of its source gives the
// difference to the other. The commission given back is the refund's
// share of the commission, rounded alike; the refund of all that remains
// gives back all that remains of it, so the cents add up.
func splitRefund(p *Payment, in *refundInput, r *Refund) error {
	left := p.Refundable()
	if in.Amount.GreaterThan(left) {
		return fieldError("amount", domain.VMaxValue, fmt.Sprintf(msgRefundTooMuch, left.StringFixed(2)))
	}
	extraLeft, payinLeft := p.extraLeft(), p.payinLeft()
	if in.Split != nil {
		var v domain.Validator
		if in.Split.Extra.GreaterThan(extraLeft) {
			v.Add(domain.VMaxValue, fmt.Sprintf(msgSplitSource, extraLeft.StringFixed(2)), "split", "extra_source_amount")
		}
		if in.Split.Payin.GreaterThan(payinLeft) {
			v.Add(domain.VMaxValue, fmt.Sprintf(msgSplitSource, payinLeft.StringFixed(2)), "split", "additional_payin_amount")
		}
		if err := v.Err(); err != nil {
			return err
		}
		r.ExtraSourceAmount, r.PayinAmount, r.Split = in.Split.Extra, in.Split.Payin, true
	} else {
		extra := decimal.Min(RoundCents(in.Amount.Mul(p.ExtraSourceAmount).Div(p.Amount)), extraLeft)
		payin := in.Amount.Sub(extra)
		if payin.GreaterThan(payinLeft) {
			payin = payinLeft
			extra = in.Amount.Sub(payin)
		}
		r.ExtraSourceAmount, r.PayinAmount = extra, payin
	}
	commissionLeft := p.commissionLeft()
	if in.Amount.Equal(left) {
		r.Commission = commissionLeft
	} else {
		r.Commission = decimal.Min(RoundCents(p.Commission.Mul(in.Amount).Div(p.Amount)), commissionLeft)
	}
	return nil
}

// cardTakesBack checks, on the card locked by lockRefund, that the
// extra source's card can take back its part of r, so that a settlement
// after the provider has refunded the pay-in's part does not find it
// full. (A staff adjustment of the card between the two transactions can
// still fill it: the settlement then fails, and the refund stays
// pending.)
func cardTakesBack(ctx context.Context, tx Stores, p *Payment, r *Refund) error {
	if p.ExtraSourceWalletUUID == nil || !r.ExtraSourceAmount.IsPositive() {
		return nil
	}
	w, err := tx.Wallets.Wallet(ctx, *p.ExtraSourceWalletUUID)
	if err != nil {
		return err
	}
	if room := w.Card.Value.Sub(w.Balance); r.ExtraSourceAmount.GreaterThan(room) {
		path := []any{"amount"}
		if r.Split {
			path = []any{"split", "extra_source_amount"}
		}
		var v domain.Validator
		v.Add(domain.VInvalid, fmt.Sprintf(msgCardRoom, decimal.Max(room, decimal.Zero).StringFixed(2)), path...)
		return v.Err()
	}
	return nil
}

// refundWallets returns the platform's clearing and commission wallets of
// the payment's currency.
func refundWallets(ctx context.Context, tx Stores, p *Payment) (clearing, commission uuid.UUID, err error) {
	cw, err := PlatformWallet(ctx, tx, WalletPayinClearing, p.Currency)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	mw, err := PlatformWallet(ctx, tx, WalletCommission, p.Currency)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	return cw.UUID, mw.UUID, nil
}

// lockRefund locks every wallet a refund of p moves.
func lockRefund(ctx context.Context, tx Stores, p *Payment, partner, clearing, commission uuid.UUID) error {
	payin, err := PlatformWallet(ctx, tx, WalletPayin, p.Currency)
	if err != nil {
		return err
	}
	ids := []uuid.UUID{partner, clearing, commission, payin.UUID}
	if p.ExtraSourceWalletUUID != nil {
		ids = append(ids, *p.ExtraSourceWalletUUID)
	}
	return LockWallets(ctx, tx, ids...)
}

// finishRefund applies the provider's answer to a pending refund, in one
// transaction on the payment's locked row; a refund no longer pending is
// answered as it is.
func (s *PaymentService) finishRefund(ctx context.Context, id uuid.UUID, pr *ProviderRefund) (*Refund, error) {
	var out *Refund
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		r, err := tx.Payments.FindRefund(ctx, id)
		if err != nil {
			return err
		}
		p, err := tx.Payments.FindPayment(ctx, r.PaymentUUID, true)
		if err != nil {
			return err
		}
		// Read again under the payment's lock, which every change of its
		// refunds holds.
		if out, err = tx.Payments.FindRefund(ctx, id); err != nil || out.Status != RefundPending {
			return err
		}
		return s.settleRefund(ctx, tx, p, out, pr, refundStateOf(p, out))
	})
	return out, err
}

// settleRefund finishes the reserved refund r of the locked payment p as
// the provider answered pr: a success gives the parts back to their
// sources and records the refund's transaction; a refusal returns the
// partner's and the commission's parts. Either way the reservation is
// released and the audit trail records the change.
func (s *PaymentService) settleRefund(ctx context.Context, tx Stores, p *Payment, r *Refund, pr *ProviderRefund, before json.RawMessage) error {
	partner, err := PartnerWallet(ctx, tx, p.PayeeID(), p.Currency)
	if err != nil {
		return err
	}
	clearing, commission, err := refundWallets(ctx, tx, p)
	if err != nil {
		return err
	}
	if err := lockRefund(ctx, tx, p, partner.UUID, clearing, commission); err != nil {
		return err
	}
	p.ReservedExtraSource = p.ReservedExtraSource.Sub(r.ExtraSourceAmount)
	p.ReservedPayin = p.ReservedPayin.Sub(r.PayinAmount)
	p.ReservedCommission = p.ReservedCommission.Sub(r.Commission)
	now := s.now()
	r.FinishedOn, r.ProviderRef, r.ResultCode, r.ResultMessage = &now, pr.Ref, pr.ResultCode, pr.ResultMessage
	var moves []MoveInput
	if pr.Status == RefundSucceeded {
		r.Status = RefundStatusSucceeded
		payin, err := PlatformWallet(ctx, tx, WalletPayin, p.Currency)
		if err != nil {
			return err
		}
		moves = append(moves, MoveInput{From: clearing, To: payin.UUID, Amount: r.PayinAmount})
		if p.ExtraSourceWalletUUID != nil {
			moves = append(moves, MoveInput{From: clearing, To: *p.ExtraSourceWalletUUID, Amount: r.ExtraSourceAmount})
		}
		p.RefundedExtraSource = p.RefundedExtraSource.Add(r.ExtraSourceAmount)
		p.RefundedPayin = p.RefundedPayin.Add(r.PayinAmount)
		p.RefundedCommission = p.RefundedCommission.Add(r.Commission)
		p.RefundedAmount = p.RefundedExtraSource.Add(p.RefundedPayin)
	} else {
		r.Status = RefundStatusFailed
		moves = append(moves, MoveInput{From: clearing, To: partner.UUID, Amount: r.Amount.Sub(r.Commission)},
			MoveInput{From: clearing, To: commission, Amount: r.Commission})
	}
	for _, m := range moves {
		if !m.Amount.IsPositive() {
			continue
		}
		m.Type, m.PaymentUUID, m.Reason = MoveRefund, &p.UUID, r.Reason
		if r.ActorUserID != nil {
			m.ActorID = *r.ActorUserID
		}
		if _, err := Transfer(ctx, tx, m); err != nil {
			return err
		}
	}
	if err := tx.Payments.FinishRefund(ctx, r); err != nil {
		return err
	}
	if err := tx.Payments.SavePayment(ctx, p); err != nil {
		return err
	}
	if r.Status == RefundStatusSucceeded {
		method := MethodCard
		if r.PayinAmount.IsZero() {
			method = MethodWallet
		}
		if err := tx.Payments.AddTransaction(ctx, &Transaction{PaymentID: p.ID, RefundID: &r.ID, Type: TransactionRefund,
			PaymentMethod: method, Status: TransactionSucceeded, Amount: r.Amount, Commission: r.Commission,
			NetAmount: r.Amount.Sub(r.Commission), Currency: p.Currency}); err != nil {
			return err
		}
	}
	if err := tx.Payments.AddAudit(ctx, &HubAuditEntry{PaymentID: &p.ID, ActorUserID: r.ActorUserID, Actor: r.Actor,
		Action: AuditRefund, Reason: r.Reason, Before: before, After: refundStateOf(p, r)}); err != nil {
		return err
	}
	typ := "refund.failed"
	if r.Status == RefundStatusSucceeded {
		typ = "refund.succeeded"
	}
	return tx.Events.Publish(ctx, webhooks.Event{Type: typ, Partners: []int64{p.PartnerID}, Resource: r})
}

// RefundsByPayment returns the refunds of each of the payments with
// those uuids (the graph's relation of a list's payments), oldest first,
// every status (at most MaxRefundsPerPayment a payment): in ids order,
// nil for a payment the caller does not see.
// Errors: those of Authorize(OpPaymentRead).
func (s *PaymentService) RefundsByPayment(ctx context.Context, ids []uuid.UUID) ([][]*Refund, error) {
	ps, err := s.visiblePayments(ctx, ids)
	if err != nil {
		return nil, err
	}
	keys := make([]int64, len(ps))
	for i, p := range ps {
		if p != nil {
			keys[i] = p.ID // 0 (no payment) has no refunds
		}
	}
	return s.uow.Stores().Payments.RefundsOfPayments(ctx, keys)
}

// RetryPendingRefunds asks the provider again (askProvider) for the
// refunds that a failure to reach it left pending since before cutoff,
// oldest first, at most limit. It is the platform's own work (the payouts
// job's), for the refunds no client repeats. It returns how many it
// finished; one the provider still does not answer stays pending for the
// next run, and one whose answer cannot be applied does not keep the
// others from theirs (its error is returned, joined with the others').
func (s *PaymentService) RetryPendingRefunds(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	pending, err := s.uow.Stores().Payments.PendingRefunds(ctx, cutoff, limit)
	if err != nil {
		return 0, err
	}
	finished := 0
	var failures []error
	for _, r := range pending {
		switch done, err := s.askProvider(ctx, r); {
		case err != nil:
			failures = append(failures, fmt.Errorf("refund %s: %w", r.UUID, err))
		case done.Status != RefundPending:
			finished++
		}
	}
	return finished, errors.Join(failures...)
}
