package payments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/domain/webhooks"
)

// PaymentService takes payments, gives money back (refunds.go) and reads
// them. Money moves only through the wallets (wallets.go), in the
// transaction of the payment's or refund's row; the provider is called
// between transactions, never inside one.
type PaymentService struct {
	uow      domain.UnitOfWork[Stores]
	keys     *idempotency.Guard
	provider Provider
	now      func() time.Time
	pages    requestPages // payment requests' public pages (requests.go)
	// settled is told of a payment whose pay-in's outcome (paid or
	// failed) was just applied (WithSettled).
	settled func(ctx context.Context, p *Payment)
}

// NewPaymentService returns the service: its writes run under keys (nil:
// without idempotency keys), pay-ins and refunds go through provider.
func NewPaymentService(uow domain.UnitOfWork[Stores], keys *idempotency.Guard, provider Provider) *PaymentService {
	// PostgreSQL keeps microseconds: a date answered is the one read back.
	now := func() time.Time { return time.Now().Truncate(time.Microsecond) }
	return &PaymentService{uow: uow, keys: keys, provider: provider, now: now,
		pages: requestPages{throttle: domain.NewClientThrottle(DefaultRequestPayBurst, DefaultRequestPayRefill)}}
}

// Messages of refused payments.
const (
	MsgPartnerCannotTakePayments = "This partner cannot take payments: it must be active and its legal representative's identity verified (activate-payments)."
	MsgFreezeNotAllowed          = "This partner does not date its payments for payouts (freeze_payout is off)."
	MsgFreezeInPayout            = "This payment is in a payout request: its freeze date can no longer change."
	MsgExtraSourcePair           = "extra_source_wallet_uuid and extra_source_amount are given together."
	MsgExtraSourceTooMuch        = "Ensure this value is less than or equal to the payment's amount."
	MsgWalletUnknown             = "Object with uuid=%s does not exist."
	MsgNotAnExtraSource          = "Only a network giftcard's wallet can be a payment's extra source."
)

// paymentInput is a checked payment creation body.
type paymentInput struct {
	Customer          network.Customer
	PartnerUUID       uuid.UUID
	Amount, Discount  decimal.Decimal
	Product, Type     string
	Origin            string
	Receipt           string
	Freeze            *network.LocalTime
	ExtraSource       *uuid.UUID
	ExtraSourceAmount decimal.Decimal
	Card              string
	// Set by a payment request's payment, never by the body.
	PaymentRequestID       *int64
	InvoicingMarketplaceID *int64
	// Set by a checkout's payment: its uuid, chosen by the order that
	// records it first, and where the provider sends the card holder back.
	ID        *uuid.UUID
	ReturnURL string
}

// PaymentInput is a payment's creation body.
type PaymentInput struct {
	domain.Refusals
	Customer                                  domain.Optional[network.CustomerInput]
	PartnerUUID                               domain.Optional[uuid.UUID]
	Amount, Discount                          domain.Optional[decimal.Decimal]
	Product, Type, Origin, ReceiptDescription domain.Optional[string]
	// FreezePayoutDate is a date-time or a day, read in the partner's zone
	// when it has no offset.
	FreezePayoutDate      domain.Optional[network.LocalTime]
	ExtraSourceWalletUUID domain.Optional[uuid.UUID]
	ExtraSourceAmount     domain.Optional[decimal.Decimal]
	Card                  domain.Optional[string]
}

// sent reports a field sent with a value, even one refused.
func sent[T any](v *domain.Validator, field string, o domain.Optional[T]) bool {
	return o.Set && !o.Null || domain.HasFieldError(v, field)
}

// readPaymentInput reads a payment creation body; the errors are
// in v.
func readPaymentInput(v *domain.Validator, body PaymentInput) *paymentInput {
	f := domain.Fields{V: v}
	in := &paymentInput{}
	if cu := network.CheckCustomer(f, "customer", body.Customer, true, true); cu != nil {
		in.Customer = *cu
	}
	if u := f.UUID("partner_uuid", body.PartnerUUID, true); u != nil {
		in.PartnerUUID = *u
	}
	in.Amount = amountOf(f, "amount", body.Amount)
	if m, _ := f.Money("discount", body.Discount, true, false); m != nil {
		in.Discount = *m
	}
	if s := f.String("product", body.Product, true, false, MaxProductLength); s != nil {
		in.Product = *s
		if _, err := FeeRuleOf(in.Product, ""); err != nil {
			v.Add(domain.VInvalid, fmt.Sprintf(msgChoice, in.Product), "product")
		}
	}
	if s := f.Choice("type", body.Type, true, []string{PaymentTypeCard}); s != nil {
		in.Type = *s
	}
	if s := f.String("origin", body.Origin, false, true, MaxOriginLength); s != nil {
		in.Origin = *s
	}
	if s := f.String("payment_receipt_description", body.ReceiptDescription, false, true, MaxReceiptDescriptionLength); s != nil {
		in.Receipt = *s
	}
	if at, ok, _ := domain.Present(f, "freeze_payout_date", body.FreezePayoutDate, false, true); ok {
		in.Freeze = &at
	}
	in.ExtraSource = f.UUID("extra_source_wallet_uuid", body.ExtraSourceWalletUUID, false)
	extra, _ := f.Money("extra_source_amount", body.ExtraSourceAmount, false, true)
	switch walletSent, amountSent := sent(v, "extra_source_wallet_uuid", body.ExtraSourceWalletUUID),
		sent(v, "extra_source_amount", body.ExtraSourceAmount); {
	case walletSent && !amountSent:
		v.Add(domain.VRequired, MsgExtraSourcePair, "extra_source_amount")
	case amountSent && !walletSent:
		v.Add(domain.VRequired, MsgExtraSourcePair, "extra_source_wallet_uuid")
	case extra == nil:
	case !extra.IsPositive():
		v.Add(domain.VMinValue, domain.MsgPositive, "extra_source_amount")
	case in.Amount.IsPositive() && extra.GreaterThan(in.Amount):
		v.Add(domain.VMaxValue, MsgExtraSourceTooMuch, "extra_source_amount")
	default:
		in.ExtraSourceAmount = *extra
	}
	if s := f.String("card", body.Card, false, false, MaxCardTokenLength); s != nil {
		in.Card = *s
	}
	return in
}

// CreatePayment takes a payment, once per idempotency key. In one
// transaction: the payment, its extra source drawn from its wallet (a
// network giftcard, under the guard of a use) and, when the extra source
// pays it all, its sharing out. Then the card pay-in at the provider,
// outside any transaction: with `card` (an addition: the provider's card
// token; with the simulated provider, a card number) the card is charged
// at once, else the payment waits for the card holder on the provider's
// page (PayinURL). The pay-in's outcome is applied in a second
// transaction (applyPayin). A repeat of the request answers the payment
// as it is now.
// Errors: those of Authorize(OpPaymentCreate); CodeInvalid with every
// field error (an unknown or unseen partner on partner_uuid, an unknown,
// unaccepted or other-currency wallet on extra_source_wallet_uuid, what
// the card cannot give on extra_source_amount); CodeConflict when the
// partner cannot take payments or the card cannot be used now.
func (s *PaymentService) CreatePayment(ctx context.Context, body PaymentInput) (*Payment, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentCreate)
	if err != nil {
		return nil, err
	}
	v := body.Refusals.Validator()
	in := readPaymentInput(v, body)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.create(ctx, c, in, body)
}

// create runs a checked creation for caller c (nil: a payment request's
// public page, whose request vouches for the partner); request is what
// the idempotency key is bound to.
func (s *PaymentService) create(ctx context.Context, c *domain.Caller, in *paymentInput, request any) (*Payment, error) {
	var created *Payment
	p, err := idempotency.Run(ctx, s.keys, "payments.payment.create", request, func(ctx context.Context, complete idempotency.Complete[*Payment]) (idempotency.Done[*Payment], error) {
		var done idempotency.Done[*Payment]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			var err error
			if created, err = s.insert(ctx, tx, c, in); err != nil {
				return err
			}
			done, err = complete(ctx, tx.Keys, created)
			return err
		})
		return done, err
	})
	if err != nil {
		return nil, err
	}
	if idempotency.Replayed(ctx) {
		return s.uow.Stores().Payments.FindPayment(ctx, p.UUID, false)
	}
	if p.Status != StatusInProgress {
		return p, nil
	}
	payin, err := s.provider.Charge(ctx, ChargeRequest{RequestID: p.UUID, Amount: p.PayinAmount, Currency: p.Currency,
		Card: in.Card, Description: p.ReceiptDescription, ReturnURL: in.ReturnURL})
	if err != nil {
		// The provider's error fails the payment (and gives the extra
		// source back): the card holder was sent nowhere to pay it.
		payin = &Payin{Status: PayinFailed, ResultCode: ResultProviderError, ResultMessage: MsgProviderError}
	}
	return s.applyPayin(ctx, p.UUID, payin)
}

// Codes of the hub's own pay-in outcomes.
const (
	ResultProviderError = "provider_error"
	MsgProviderError    = "The payment provider could not be reached."
	ResultPayinUnknown  = "payin_unknown"
	MsgPayinUnknown     = "The payment provider never received this payment's pay-in."
)

// payee is the partner a payment is taken for, if the caller sees it (a
// call without a caller: a public page's) and it may take payments; a
// payment request's must still be open.
func payee(ctx context.Context, tx Stores, c *domain.Caller, in *paymentInput) (*Partner, error) {
	if in.PaymentRequestID != nil {
		if err := openRequest(ctx, tx, *in.PaymentRequestID); err != nil {
			return nil, err
		}
	}
	partner, err := tx.Partners.FindHubPartner(ctx, in.PartnerUUID, false)
	switch {
	case domain.IsCode(err, domain.CodeNotFound) || err == nil && c != nil && relationOf(c, partner) == unrelated:
		var v domain.Validator
		partnerNotFound(&v, in.PartnerUUID)
		return nil, v.Err()
	case err != nil:
		return nil, err
	case !partner.MayTakePayments():
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgPartnerCannotTakePayments}
	}
	return partner, nil
}

// insert checks what the transaction reads and writes the payment, its
// extra source's draw and, when nothing is left to pay by card, its
// sharing out.
func (s *PaymentService) insert(ctx context.Context, tx Stores, c *domain.Caller, in *paymentInput) (*Payment, error) {
	var v domain.Validator
	partner, err := payee(ctx, tx, c, in)
	if err != nil {
		return nil, err
	}
	fee, err := Fees(in.Product, in.Origin, in.Amount)
	if err != nil {
		return nil, err
	}
	p := &Payment{UUID: uuid.New(), Status: StatusInProgress, Currency: partner.Currency, Customer: in.Customer,
		Origin: in.Origin, Product: in.Product, Type: in.Type, PartnerID: partner.ID, PartnerUUID: partner.UUID,
		ReferrerID: partner.ReferrerID, Amount: in.Amount, Discount: in.Discount, Commission: fee.Commission,
		NetAmount: fee.NetAmount, ExtraSourceAmount: in.ExtraSourceAmount, PayinAmount: in.Amount.Sub(in.ExtraSourceAmount),
		ReceiptDescription: in.Receipt, PaymentRequestID: in.PaymentRequestID,
		InvoicingMarketplaceID: in.InvoicingMarketplaceID}
	if in.ID != nil {
		p.UUID = *in.ID
	}
	if c != nil {
		p.CreatedByUserID = &c.User.ID
	}
	if in.Freeze != nil {
		if !partner.FreezePayout {
			v.Add(domain.VInvalid, MsgFreezeNotAllowed, "freeze_payout_date")
		}
		at := in.Freeze.Noon(partnerLocation(partner))
		p.FreezePayoutDate = &at
	}
	var card *Wallet
	if in.ExtraSource != nil {
		if card, err = extraSource(ctx, tx, &v, partner, *in.ExtraSource); err != nil {
			return nil, err
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	now := s.now()
	clearing, err := PlatformWallet(ctx, tx, WalletPayinClearing, p.Currency)
	if err != nil {
		return nil, err
	}
	if card != nil {
		// Every wallet this transaction moves is locked at once, in the
		// order of every movement, so that it cannot deadlock with another.
		if p.PayinAmount.IsZero() {
			err = lockSharing(ctx, tx, p, card.UUID)
		} else {
			err = LockWallets(ctx, tx, card.UUID, clearing.UUID)
		}
		if err != nil {
			return nil, err
		}
		opened, err := tx.Wallets.Wallet(ctx, card.UUID) // LockWallets opened it
		if err != nil {
			return nil, err
		}
		p.ExtraSourceWalletUUID, p.ExtraSourceWalletID = &card.UUID, &opened.ID
	}
	if p.PayinAmount.IsPositive() {
		if err := openSettlement(ctx, tx, p); err != nil {
			return nil, err
		}
	}
	if err := tx.Payments.CreatePayment(ctx, p); err != nil {
		return nil, err
	}
	payinCommission := RoundCents(p.Commission.Mul(p.PayinAmount).Div(p.Amount))
	if card != nil {
		if _, err := DrawFromGiftcard(ctx, tx, MoveInput{From: card.UUID, To: clearing.UUID, Amount: p.ExtraSourceAmount,
			Type: MoveExtraSource, PaymentUUID: &p.UUID, ActorID: c.User.ID, At: now, Field: "extra_source_amount"}); err != nil {
			return nil, err
		}
		commission := p.Commission.Sub(payinCommission)
		if err := tx.Payments.AddTransaction(ctx, &Transaction{PaymentID: p.ID, Type: TransactionPayin,
			PaymentMethod: MethodWallet, Status: TransactionSucceeded, Amount: p.ExtraSourceAmount, Commission: commission,
			NetAmount: p.ExtraSourceAmount.Sub(commission), Currency: p.Currency}); err != nil {
			return nil, err
		}
	}
	if p.PayinAmount.IsZero() {
		if err := share(ctx, tx, p, clearing.UUID); err != nil {
			return nil, err
		}
		p.Status, p.PaidOn = StatusPaid, &now
		return p, saveOutcome(ctx, tx, p)
	}
	return p, tx.Payments.AddTransaction(ctx, &Transaction{PaymentID: p.ID, Type: TransactionPayin,
		PaymentMethod: MethodCard, Status: TransactionPending, Amount: p.PayinAmount, Commission: payinCommission,
		NetAmount: p.PayinAmount.Sub(payinCommission), Currency: p.Currency})
}

// extraSource returns the wallet a payment for partner draws from: a
// network giftcard's, of a marketplace whose cards partner accepts, in its
// currency. A refusal is a field error recorded in v (nil wallet).
func extraSource(ctx context.Context, tx Stores, v *domain.Validator, partner *Partner, id uuid.UUID) (*Wallet, error) {
	const field = "extra_source_wallet_uuid"
	w, err := tx.Wallets.Wallet(ctx, id)
	if domain.IsCode(err, domain.CodeNotFound) {
		v.Add(domain.VNotFound, fmt.Sprintf(MsgWalletUnknown, id), field)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if w.Kind != WalletNetworkGiftcard {
		v.Add(domain.VInvalid, MsgNotAnExtraSource, field)
		return nil, nil
	}
	accepted, err := tx.Payments.CardAccepted(ctx, partner.ID, w.Card.MarketplaceID)
	switch {
	case err != nil:
		return nil, err
	case !accepted:
		v.Add(domain.VNotFound, fmt.Sprintf(MsgWalletUnknown, id), field)
		return nil, nil
	case w.Currency != partner.Currency:
		v.Add(domain.VInvalid, MsgCurrencies, field)
		return nil, nil
	}
	return w, nil
}

// partnerLocation is the zone of a partner's days: its own, else UTC.
func partnerLocation(p *Partner) *time.Location {
	if loc, err := time.LoadLocation(p.TimeZone); err == nil && p.TimeZone != "" {
		return loc
	}
	return time.UTC
}

// openSettlement opens, before the card is charged, every wallet the
// pay-in's settlement (paid) moves: once the provider has taken the
// money, settling it only moves it, between wallets that exist, by an
// amount checked here (MaxAmount), into wide enough balances.
func openSettlement(ctx context.Context, tx Stores, p *Payment) error {
	for _, kind := range []string{WalletPayin, WalletCommission} {
		if _, err := PlatformWallet(ctx, tx, kind, p.Currency); err != nil {
			return err
		}
	}
	_, err := PartnerWallet(ctx, tx, p.PayeeID(), p.Currency)
	return err
}

// lockSharing locks, in the order of every movement, the wallets a
// payment's sharing out moves, with extra (the card's wallet, or the
// platform's pay-in wallet) beside them.
func lockSharing(ctx context.Context, tx Stores, p *Payment, extra uuid.UUID) error {
	ids := []uuid.UUID{extra}
	for _, kind := range []string{WalletPayinClearing, WalletCommission} {
		w, err := PlatformWallet(ctx, tx, kind, p.Currency)
		if err != nil {
			return err
		}
		ids = append(ids, w.UUID)
	}
	w, err := PartnerWallet(ctx, tx, p.PayeeID(), p.Currency)
	if err != nil {
		return err
	}
	return LockWallets(ctx, tx, append(ids, w.UUID)...)
}

// share moves a paid payment's money out of clearing: its net amount to
// its payee's wallet, its commission to the platform's.
func share(ctx context.Context, tx Stores, p *Payment, clearing uuid.UUID) error {
	partner, err := PartnerWallet(ctx, tx, p.PayeeID(), p.Currency)
	if err != nil {
		return err
	}
	commission, err := PlatformWallet(ctx, tx, WalletCommission, p.Currency)
	if err != nil {
		return err
	}
	for _, m := range []struct {
		to     uuid.UUID
		amount decimal.Decimal
		typ    string
	}{{partner.UUID, p.NetAmount, MoveTransfer}, {commission.UUID, p.Commission, MoveCommission}} {
		if !m.amount.IsPositive() {
			continue
		}
		if _, err := Transfer(ctx, tx, MoveInput{From: clearing, To: m.to, Amount: m.amount, Type: m.typ,
			PaymentUUID: &p.UUID}); err != nil {
			return err
		}
	}
	return nil
}

// applyPayin applies what the provider says of a payment's pay-in, in one
// transaction on the payment's locked row: a success shares the money
// out, a failure gives the extra source back, a pending pay-in records
// where the card holder goes. A payment no longer in progress is left as
// it is (the outcome was applied already).
func (s *PaymentService) applyPayin(ctx context.Context, id uuid.UUID, payin *Payin) (*Payment, error) {
	var out *Payment
	ended := false
	err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		ended = false // a retried transaction starts over
		p, err := tx.Payments.FindPayment(ctx, id, true)
		if err != nil {
			return err
		}
		out = p
		if p.Status != StatusInProgress {
			return nil
		}
		if payin.Ref != "" {
			p.PayinProvider, p.PayinRef = s.provider.Name(), payin.Ref
		}
		p.PayinStatus, p.PayinURL = payin.Status, payin.UserActionURL
		p.PayinResultCode, p.PayinResultMessage = payin.ResultCode, payin.ResultMessage
		switch payin.Status {
		case PayinSucceeded:
			err, ended = s.paid(ctx, tx, p), true
		case PayinFailed:
			err, ended = s.failed(ctx, tx, p), true
		}
		if err != nil {
			return err
		}
		if ended {
			return saveOutcome(ctx, tx, p)
		}
		return tx.Payments.SavePayment(ctx, p)
	})
	if err == nil && ended && s.settled != nil {
		s.settled(ctx, out)
	}
	return out, err
}

// saveOutcome saves the payment p that just ended (paid or failed) and
// keeps its webhook event, to its partner: every payment's outcome is
// saved here, once.
func saveOutcome(ctx context.Context, tx Stores, p *Payment) error {
	if err := tx.Payments.SavePayment(ctx, p); err != nil {
		return err
	}
	typ := "payment.failed"
	if p.Status == StatusPaid {
		typ = "payment.succeeded"
	}
	return tx.Events.Publish(ctx, webhooks.Event{Type: typ, Partners: []int64{p.PartnerID}, Resource: p})
}

// paid brings the pay-in into clearing and shares the payment out.
func (s *PaymentService) paid(ctx context.Context, tx Stores, p *Payment) error {
	payin, err := PlatformWallet(ctx, tx, WalletPayin, p.Currency)
	if err != nil {
		return err
	}
	if err := lockSharing(ctx, tx, p, payin.UUID); err != nil {
		return err
	}
	clearing, err := PlatformWallet(ctx, tx, WalletPayinClearing, p.Currency)
	if err != nil {
		return err
	}
	if _, err := Transfer(ctx, tx, MoveInput{From: payin.UUID, To: clearing.UUID, Amount: p.PayinAmount, Type: MovePayin,
		PaymentUUID: &p.UUID}); err != nil {
		return err
	}
	if err := share(ctx, tx, p, clearing.UUID); err != nil {
		return err
	}
	now := s.now()
	p.Status, p.PaidOn, p.PayinURL = StatusPaid, &now, ""
	if err := s.requestPaid(ctx, tx, p, now); err != nil {
		return err
	}
	return tx.Payments.SetPayinTransactions(ctx, p.ID, TransactionSucceeded)
}

// failed gives the extra source back to its card and fails the payment.
func (s *PaymentService) failed(ctx context.Context, tx Stores, p *Payment) error {
	if p.ExtraSourceWalletUUID != nil {
		clearing, err := PlatformWallet(ctx, tx, WalletPayinClearing, p.Currency)
		if err != nil {
			return err
		}
		if err := LockWallets(ctx, tx, *p.ExtraSourceWalletUUID, clearing.UUID); err != nil {
			return err
		}
		if _, err := RefundToGiftcard(ctx, tx, MoveInput{From: clearing.UUID, To: *p.ExtraSourceWalletUUID,
			Amount: p.ExtraSourceAmount, Type: MoveRefund, PaymentUUID: &p.UUID, Reason: "the pay-in failed"}); err != nil {
			return err
		}
	}
	p.Status, p.PayinURL = StatusFailed, ""
	return tx.Payments.SetPayinTransactions(ctx, p.ID, TransactionFailed)
}

// SyncPayin applies the provider's outcome of the pay-in it knows as ref
// (the provider's page tells of it, as a webhook would: by reference
// only). An unknown reference is domain.ErrNotFound.
func (s *PaymentService) SyncPayin(ctx context.Context, ref string) error {
	id, err := s.uow.Stores().Payments.PaymentByPayinRef(ctx, s.provider.Name(), ref)
	if err != nil {
		return err
	}
	payin, err := s.provider.Payin(ctx, ref)
	if err != nil {
		return err
	}
	_, err = s.applyPayin(ctx, id, payin)
	return err
}

// SettleStalePayments finishes the payments left in progress since
// before cutoff (least recently written first, at most limit): it asks
// the provider for the pay-in each one's creation charged, by the
// payment's uuid, and applies it as CreatePayment would have (applyPayin:
// a succeeded pay-in is settled, once). A payment the provider has no
// pay-in for was never charged (its creation stopped before the provider
// was asked): it fails, giving its extra source back. One still pending
// at the provider (awaiting the card holder) is written again, so the
// next run asks the others first. It is the platform's own work (the
// payouts job's), for the answers a failure kept from being recorded; it
// returns how many payments it finished. A provider that cannot be
// reached stops the run: the rest wait for the next. A payment whose
// outcome cannot be applied is left for the next run and does not keep
// the others from theirs (its error is returned, joined with the
// others').
func (s *PaymentService) SettleStalePayments(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	ids, err := s.uow.Stores().Payments.StalePayments(ctx, cutoff, limit)
	if err != nil {
		return 0, err
	}
	finished := 0
	var failures []error
	for _, id := range ids {
		payin, err := s.provider.PayinOf(ctx, id)
		switch {
		case domain.IsCode(err, domain.CodeNotFound):
			payin = &Payin{Status: PayinFailed, ResultCode: ResultPayinUnknown, ResultMessage: MsgPayinUnknown}
		case err != nil:
			return finished, errors.Join(append(failures, err)...)
		}
		p, err := s.applyPayin(ctx, id, payin)
		switch {
		case err != nil:
			failures = append(failures, fmt.Errorf("payment %s: %w", id, err))
		case p.Status != StatusInProgress:
			finished++
		}
	}
	return finished, errors.Join(failures...)
}

// sees reports whether c sees the payments of the partner (partnerID,
// referrerID): staff, the partner's members, its referrer's.
func sees(c *domain.Caller, partnerID int64, referrerID *int64) bool {
	switch {
	case c.User.IsStaff:
		return true
	case c.Partner == nil:
		return false
	}
	return c.Partner.ID == partnerID || referrerID != nil && *referrerID == c.Partner.ID
}

// Payment returns the payment with that uuid.
// Errors: those of Authorize(OpPaymentRead); CodeNotFound for a payment
// the caller does not see.
func (s *PaymentService) Payment(ctx context.Context, id uuid.UUID) (*Payment, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentRead)
	if err != nil {
		return nil, err
	}
	return s.visible(ctx, c, id)
}

func (s *PaymentService) visible(ctx context.Context, c *domain.Caller, id uuid.UUID) (*Payment, error) {
	p, err := s.uow.Stores().Payments.FindPayment(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if !sees(c, p.PartnerID, p.ReferrerID) {
		return nil, domain.ErrNotFound
	}
	return p, nil
}

// Transactions returns the transactions of the payment with that uuid:
// its pay-ins, then its refunds.
// Errors: those of Payment.
func (s *PaymentService) Transactions(ctx context.Context, id uuid.UUID) ([]*Transaction, error) {
	p, err := s.Payment(ctx, id)
	if err != nil {
		return nil, err
	}
	ts, err := s.uow.Stores().Payments.TransactionsOfPayments(ctx, []*Payment{p})
	if err != nil {
		return nil, err
	}
	return ts[0], nil
}

// visiblePayments reads the payments with those uuids, in ids order, nil
// for one the caller does not see (or unknown).
func (s *PaymentService) visiblePayments(ctx context.Context, ids []uuid.UUID) ([]*Payment, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentRead)
	if err != nil {
		return nil, err
	}
	ps, err := s.uow.Stores().Payments.PaymentsByUUID(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i, p := range ps {
		if p != nil && !sees(c, p.PartnerID, p.ReferrerID) {
			ps[i] = nil
		}
	}
	return ps, nil
}

// TransactionsByPayment is Transactions of many payments at once (the
// graph's relation of a list's payments): in ids order, nil for a payment
// the caller does not see.
// Errors: those of Authorize(OpPaymentRead).
func (s *PaymentService) TransactionsByPayment(ctx context.Context, ids []uuid.UUID) ([][]*Transaction, error) {
	ps, err := s.visiblePayments(ctx, ids)
	if err != nil {
		return nil, err
	}
	return s.uow.Stores().Payments.TransactionsOfPayments(ctx, ps)
}

// FreezeDateInput is the body of a payment's freeze date change.
type FreezeDateInput struct {
	domain.Refusals
	FreezePayoutDate domain.Optional[network.LocalTime]
}

// UpdateFreezeDate sets the date a payment counts at in payouts,
// body {freeze_payout_date}: a date-time, or a day (noon in the partner's
// zone).
// Errors: those of Authorize(OpPaymentUpdate); CodeNotFound; CodeInvalid
// on freeze_payout_date (absent, malformed, or the partner does not date
// its payments); CodeConflict (MsgFreezeInPayout) for a payment already
// in a payout request.
func (s *PaymentService) UpdateFreezeDate(ctx context.Context, id uuid.UUID, in FreezeDateInput) (*Payment, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentUpdate)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	at, _, _ := domain.Present(domain.Fields{V: v}, "freeze_payout_date", in.FreezePayoutDate, true, false)
	if err := v.Err(); err != nil {
		return nil, err
	}
	var out *Payment
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		p, err := tx.Payments.FindPayment(ctx, id, true)
		if err != nil {
			return err
		}
		if !sees(c, p.PartnerID, p.ReferrerID) {
			return domain.ErrNotFound
		}
		partner, err := tx.Partners.FindHubPartner(ctx, p.PartnerUUID, false)
		switch {
		case err != nil:
			return err
		case !partner.FreezePayout:
			return fieldError("freeze_payout_date", domain.VInvalid, MsgFreezeNotAllowed)
		case p.Payout != nil:
			return &domain.Error{Code: domain.CodeConflict, Message: MsgFreezeInPayout}
		}
		day := at.Noon(partnerLocation(partner))
		p.FreezePayoutDate = &day
		out = p
		return tx.Payments.SavePayment(ctx, p)
	})
	return out, err
}

// PaymentListInput is the payments list's query, as sent.
type PaymentListInput struct {
	// Days (UTC) or date-times; a range is two, comma-separated.
	CreatedOnGte, CreatedOnLte, CreatedOnRange string
	PartnerUUID                                string
	Status, StatusIn                           string
	PayoutRequestStatus                        string
	PayoutRequestStatusIn                      string
	CustomerFirstName                          string
	CustomerLastName                           string
	CustomerEmail                              string
	PartiallyRefunded                          string // a DRF boolean: true, false, 1, 0
	FullyRefunded                              string
}

// PayoutStatuses are a payout request's statuses.
var PayoutStatuses = []string{PayoutToValidate, PayoutValidated, PayoutPaid}

// Payout request statuses ("validated" and "to be validated" are the
// contract's).
const (
	PayoutToValidate = "to be validated"
	PayoutValidated  = "validated"
	PayoutPaid       = "paid"
)

// Payments returns a page of the payments the caller sees (a partner's
// members: its own and those of the partners it refers), newest first,
// narrowed by in.
// Errors: those of Authorize(OpPaymentRead); CodeInvalid on a malformed
// filter; CodeNotFound past the last page.
func (s *PaymentService) Payments(ctx context.Context, in PaymentListInput, page domain.PageRequest) (*domain.Page[*Payment], error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentRead)
	if err != nil {
		return nil, err
	}
	f, err := in.filter()
	if err != nil {
		return nil, err
	}
	f.Tenant = c.Tenant()
	items, count, err := s.uow.Stores().Payments.ListPayments(ctx, f, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

func (in PaymentListInput) filter() (PaymentFilter, error) {
	var v domain.Validator
	f := PaymentFilter{CustomerFirstName: in.CustomerFirstName, CustomerLastName: in.CustomerLastName,
		CustomerEmail: in.CustomerEmail}
	f.CreatedFrom, f.CreatedBefore = domain.DateFilters(&v, time.UTC, "created_on", in.CreatedOnGte, in.CreatedOnLte,
		in.CreatedOnRange)
	if in.PartnerUUID != "" {
		if u, err := uuid.Parse(in.PartnerUUID); err == nil {
			f.PartnerUUID = &u
		} else {
			v.Add(domain.VInvalid, domain.MsgUUID, "partner_uuid")
		}
	}
	f.Statuses = listChoices(&v, in.Status, in.StatusIn, PaymentStatuses, "status")
	f.PayoutRequestStatuses = listChoices(&v, in.PayoutRequestStatus, in.PayoutRequestStatusIn, PayoutStatuses, "payout_request_status")
	f.PartiallyRefunded = listBool(&v, in.PartiallyRefunded, "partially_refunded")
	f.FullyRefunded = listBool(&v, in.FullyRefunded, "fully_refunded")
	return f, v.Err()
}

const (
	msgListBool   = "Enter a valid boolean."
	msgListChoice = "Select a valid choice. %s is not one of the available choices."
	maxListValues = 10
)

// listBool reads a DRF boolean filter; false when empty.
func listBool(v *domain.Validator, s, field string) bool {
	switch s {
	case "", "false", "False", "0":
		return false
	case "true", "True", "1":
		return true
	}
	v.Add(domain.VInvalid, msgListBool, field)
	return false
}

// listChoices reads a filter by one value (field) and by a comma-separated
// list (field__in); given both, the payments must match both. nil when
// neither is given.
func listChoices(v *domain.Validator, one, many string, choices []string, field string) []string {
	var out []string
	if many != "" {
		parts := strings.Split(many, ",")
		if len(parts) > maxListValues {
			v.Add(domain.VInvalid, fmt.Sprintf("Ensure this list has at most %d values.", maxListValues), field+"__in")
			return nil
		}
		for _, s := range parts {
			s = strings.TrimSpace(s)
			if !slices.Contains(choices, s) {
				v.Add(domain.VInvalid, fmt.Sprintf(msgListChoice, s), field+"__in")
				return nil
			}
			out = append(out, s)
		}
	}
	if one == "" {
		return out
	}
	if !slices.Contains(choices, one) {
		v.Add(domain.VInvalid, fmt.Sprintf(msgListChoice, one), field)
		return nil
	}
	if out != nil && !slices.Contains(out, one) {
		return []string{} // both given, and they exclude each other
	}
	return []string{one}
}
