// Package network is the marketplaces' network products: network
// giftcards, one card of stored value spent at many partners of a
// marketplace's network. A card's remaining value changes only in the
// transaction that writes the movement of its ledger (a guarded update:
// concurrent uses cannot overspend), so that it is always the sum of the
// card's movements.
package network

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/notify"
	"salesplatform/domain/webhooks"
)

// Network giftcard statuses a card can be used in.
const (
	StatusPaid  = "paid"
	StatusUsing = "using"
)

// Ledger movement kinds.
const (
	MovementIssue   = "issue"   // the card's value, when it is created
	MovementUse     = "use"     // a usage: negative
	MovementCancel  = "cancel"  // a cancelled usage's value back: positive
	MovementHold    = "hold"    // an amount held: negative
	MovementRelease = "release" // a held amount back (released, lapsed or captured): positive
	MovementAdjust  = "adjust"  // a staff adjustment, with its reason
	MovementPayment = "payment" // drawn by a payment, the card as its wallet: negative
	MovementRefund  = "refund"  // given back by a payment's refund: positive
)

// Usage is a use of a card at a partner of its marketplace's network.
type Usage struct {
	ID               int64
	CardID           int64
	MarketplaceID    int64 // the card's
	PartnerID        int64
	PartnerSourceID  string // the partner's source id in the card's marketplace's network
	Value            decimal.Decimal
	IsActive         bool // false once cancelled
	Comment          string
	ReservationID    string
	CreationDate     time.Time
	FreezePayoutDate *time.Time
	PayoutID         *int64 // the payout it counts in; then it cannot be cancelled
	TimeZone         string // the marketplace's: dates are shown in it
	ActorID          int64  // the user whose call made it, for the ledger
}

// Location is the zone the usage's dates are shown in.
func (u *Usage) Location() *time.Location { return location(u.TimeZone) }

// Movement is one change of a card's remaining value.
type Movement struct {
	ID            int64
	CardID        int64
	Kind          string
	Amount        decimal.Decimal // signed
	BalanceAfter  decimal.Decimal
	UsageID       *int64
	HoldID        *int64
	PartnerID     *int64
	ActorID       *int64 // the user whose call made it; nil for the platform's own (lapses)
	ReservationID string
	Comment       string
	PayoutID      *int64
	// WalletMovementID is a MovementPayment's or MovementRefund's wallet
	// movement (the payments area's).
	WalletMovementID *int64
	CreatedAt        time.Time
}

// GiftcardStore reads and writes network giftcards, their usages and
// their ledger.
type GiftcardStore interface {
	// FindCardByCode returns the card with that code (case-insensitive);
	// domain.ErrNotFound when there is none.
	FindCardByCode(ctx context.Context, code string) (*Card, error)
	// FindCardAtPartner returns the card as FindCardByCode, and with it
	// the partner of its marketplace's network with sourceID, or with
	// partnerID when sourceID is "" (nil when there is none): a use reads
	// both.
	FindCardAtPartner(ctx context.Context, code string, partnerID int64, sourceID string) (*Card, *Acceptor, error)
	// InsertGiftcard inserts g, its code and its ledger's issue movement,
	// and sets g.ID; taken reports, with nothing written, a code already
	// taken (in any case).
	InsertGiftcard(ctx context.Context, g *Giftcard) (taken bool, err error)
	// GiftcardByCode returns the record of the card with code
	// (case-insensitive), of tenant's marketplace when tenant is set;
	// domain.ErrNotFound when none.
	GiftcardByCode(ctx context.Context, code string, tenant *int64) (*Giftcard, error)
	// GiftcardsByEmail returns a page of the cards whose gifter or
	// giftee has email (case-insensitive), of tenant's marketplace when
	// tenant is set, newest first, and how many there are.
	GiftcardsByEmail(ctx context.Context, email string, tenant *int64, page domain.PageRequest) ([]*Giftcard, int, error)
	// NoticeParties returns the names of the marketplace and the partner
	// of a use, and the marketplace's agency e-mail ("" when it has none).
	NoticeParties(ctx context.Context, marketplaceID, partnerID int64) (*NoticeParties, error)
	// UsagesOfCard returns a page of the card's usages, oldest first, and
	// how many there are.
	UsagesOfCard(ctx context.Context, cardID int64, page domain.PageRequest) ([]*Usage, int, error)
	// DeactivateUsage marks the usage inactive if it is active and in no
	// payout, and returns it; done reports whether it changed. A tenant
	// limits it to the usages of that marketplace's cards.
	// domain.ErrNotFound when no usage (of the tenant) has that id.
	DeactivateUsage(ctx context.Context, id int64, tenant *int64) (u *Usage, done bool, err error)
}

// NoticeParties are who a usage's mails name and go to.
type NoticeParties struct {
	MarketplaceName  string
	MarketplaceEmail string
	PartnerName      string
}

// Stores are the stores of the network area's services.
type Stores struct {
	Giftcards GiftcardStore
	Balances  Balances // every change of a card's remaining value
	Holds     HoldStore
	Ledger    LedgerStore
	Vouchers  VoucherStore
	Partners  PartnerStore // network partners, and the marketplace a body names
	Lists     ListStore    // the graph's lists, lookups by id and batches
	Keys      idempotency.Store
	// Outbox queues the mails of a change in its transaction.
	Outbox notify.Outbox
	// Events keeps the webhook events of a change in its transaction.
	Events webhooks.Publisher
}

// GiftcardService makes, finds, uses and holds network giftcards.
type GiftcardService struct {
	uow     domain.UnitOfWork[Stores]
	keys    *idempotency.Guard
	holdTTL time.Duration
	now     func() time.Time
}

// NewGiftcardService returns the service. Its writes run under the
// request's idempotency key, kept by keys; holds last DefaultHoldTTL
// unless their request says otherwise.
func NewGiftcardService(uow domain.UnitOfWork[Stores], keys *idempotency.Guard) *GiftcardService {
	return &GiftcardService{uow: uow, keys: keys, holdTTL: DefaultHoldTTL, now: time.Now}
}

// guarded runs write, the transaction of the operation op on input that
// sets *result, once per idempotency key of the request
// (domain/idempotency): *result is recorded as the key's outcome in the
// same transaction, and a repeat of the request answers it again.
func guarded[T any](ctx context.Context, uow domain.UnitOfWork[Stores], keys *idempotency.Guard, op string, input any, result *T, write func(ctx context.Context, tx Stores) error) (T, error) {
	return idempotency.Run(ctx, keys, op, input, func(ctx context.Context, complete idempotency.Complete[T]) (idempotency.Done[T], error) {
		var done idempotency.Done[T]
		err := uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			if err := write(ctx, tx); err != nil {
				return err
			}
			var err error
			done, err = complete(ctx, tx.Keys, *result)
			return err
		})
		return done, err
	})
}

// WithHoldTTL sets the life of a hold whose request names none.
func (s *GiftcardService) WithHoldTTL(ttl time.Duration) *GiftcardService {
	s.holdTTL = ttl
	return s
}

// WithClock sets the clock holds and their lapses read (tests).
func (s *GiftcardService) WithClock(now func() time.Time) *GiftcardService {
	s.now = now
	return s
}

// UseInput is a use of a card at a partner of its marketplace's network:
// creation_date, value, comment, reservation_id, freeze_payout_date,
// send_usage_notification_email (default true), giftee_email, and the
// partner (PartnerRef).
type UseInput struct {
	domain.Refusals
	Code string
	PartnerRef
	Value            domain.Optional[decimal.Decimal]
	CreationDate     domain.Optional[LocalTime]
	Comment          domain.Optional[string]
	ReservationID    domain.Optional[string]
	FreezePayoutDate domain.Optional[LocalTime]
	Notice
}

// PartnerRef names the partner of a use or a hold: by its source id in
// the card's marketplace's network (partner_source_id, digits), or by its
// record id (partner_id) or its uuid (the graph's Partner global id).
// ByPartnerID asks for partner_id (use_with_service_id) even when absent;
// otherwise the source id is asked for unless the id or uuid is given.
type PartnerRef struct {
	PartnerSourceID domain.Optional[string]
	PartnerID       domain.Optional[int64]
	PartnerUUID     *uuid.UUID
	ByPartnerID     bool
}

// Notice is what a use or a capture mails: send_usage_notification_email
// (default true) to the marketplace and the beneficiary, giftee_email
// when given, else the card's giftee's, else its gifter's.
type Notice struct {
	Notify      domain.Optional[bool]
	GifteeEmail domain.Optional[string]
}

// partner is a checked PartnerRef: the field it is reported on and the
// reference.
type partner struct {
	field    string
	sourceID string
	id       int64
	uuid     *uuid.UUID
}

// msgOnePartner refuses a reference naming the partner both ways.
const msgOnePartner = "Give partner_source_id or partner_id, not both."

// check reads the reference; ok is false with the error recorded in f.
func (r PartnerRef) check(f domain.Fields) (p partner, ok bool) {
	byID := r.PartnerID.Set || r.PartnerUUID != nil
	if r.PartnerSourceID.Set && byID {
		f.V.Add(domain.VInvalid, msgOnePartner, "non_field_errors")
		return p, false
	}
	if r.ByPartnerID || byID {
		p.field = PartnerByID
		if r.PartnerUUID != nil {
			p.uuid = r.PartnerUUID
			return p, true
		}
		id, _ := f.PK(p.field, r.PartnerID, true, false)
		if id == nil {
			return p, false
		}
		p.id = *id
		return p, true
	}
	p.field = PartnerBySourceID
	s, ok, _ := domain.Present(f, p.field, r.PartnerSourceID, true, false)
	if !ok {
		return p, false
	}
	n, isInt := domain.AsInt(s)
	if !isInt {
		f.V.Add(domain.VInvalid, domain.MsgInteger, p.field)
		return p, false
	}
	p.sourceID = strconv.FormatInt(n, 10)
	return p, true
}

// check reads the notice: whether to send it, and to whom.
func (n Notice) check(f domain.Fields) (send bool, gifteeEmail string) {
	send = domain.Pick(f.Bool("send_usage_notification_email", n.Notify), true)
	if s := f.String("giftee_email", n.GifteeEmail, false, true, domain.MaxEmailLength); s != nil && *s != "" {
		if !domain.ValidEmail(*s) {
			f.V.Add(domain.VInvalid, domain.MsgEmail, "giftee_email")
		}
		gifteeEmail = *s
	}
	return send, gifteeEmail
}

// spending is a checked use or capture.
type spending struct {
	value         decimal.Decimal
	at            *LocalTime
	freeze        *LocalTime
	comment       string
	reservationID string
	notify        bool
	gifteeEmail   string
}

// checkSpending reads what a use and a capture share; a use requires
// value and creation_date.
func checkSpending(f domain.Fields, value domain.Optional[decimal.Decimal], at, freeze domain.Optional[LocalTime], comment domain.Optional[string], n Notice, use bool) spending {
	var s spending
	if m := f.PositiveMoney("value", value, use); m != nil {
		s.value = *m
	}
	if l, ok := checkLocalTime(f, "creation_date", at, use); ok {
		s.at = &l
	}
	if l, ok := checkLocalTime(f, "freeze_payout_date", freeze, false); ok {
		s.freeze = &l
	}
	s.comment = domain.Pick(f.String("comment", comment, false, true, MaxCommentLength), "")
	s.notify, s.gifteeEmail = n.check(f)
	return s
}

// Messages of refused uses and cancels.
const (
	MsgValueDecimals   = "Ensure that there are no more than 2 decimal places."
	MsgCardNotUsable   = "This giftcard cannot be used: it is not paid, or not active."
	MsgCardDates       = "This giftcard cannot be used on this date."
	MsgUnknownSourceID = "No partner of this marketplace's network has this source id."
	MsgUnknownPartner  = "No partner of this marketplace's network has this id."
	MsgPartnerInactive = "This network partner is inactive."
	MsgNotAccepting    = "This partner does not accept this marketplace's network giftcards."
	MsgUsageInPayout   = "This usage is already in a payout: it cannot be cancelled."
	msgRemainingFormat = "The remaining value of this giftcard is %s."
	msgNotSplittable   = "This giftcard is not splittable: a usage spends its whole remaining value, %s."
)

// Use spends in.Value of the card with in.Code at a partner of its
// marketplace's network, in one transaction: the checks, then the guarded
// spend with the usage and its ledger movement (UseCard). The caller is
// the card's marketplace, or staff. Concurrent uses of one card cannot
// take more than it holds.
// Errors: those of Authorize(OpNetworkGiftcardUse); CodeNotFound for an
// unknown code or another marketplace's card; CodeInvalid on "value" (not
// positive, more than two decimals, more than the card holds: the message
// names the remaining value), on the partner's field (not in the
// network, inactive, or not accepting the cards), on "creation_date"
// (outside the card's dates), or CodeConflict on the card (not paid or
// using, or inactive).
func (s *GiftcardService) Use(ctx context.Context, in UseInput) (*Usage, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	ref, _ := in.PartnerRef.check(f)
	sp := checkSpending(f, in.Value, in.CreationDate, in.FreezePayoutDate, in.Comment, in.Notice, true)
	sp.reservationID = domain.Pick(f.String("reservation_id", in.ReservationID, false, true, MaxReservationID), "")
	inReadingOrder(v, PartnerBySourceID, PartnerByID, "value", "creation_date", "freeze_payout_date", "comment",
		"reservation_id", "send_usage_notification_email", "giftee_email")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if !validCode(in.Code) {
		return nil, domain.ErrNotFound
	}
	if usage, done, err := s.useAlone(ctx, c, in.Code, ref, sp); done {
		return usage, err
	}
	var usage *Usage
	usage, err = guarded(ctx, s.uow, s.keys, "network.giftcard.use", in, &usage, func(ctx context.Context, tx Stores) error {
		card, u, err := s.planUse(ctx, tx, c, in.Code, ref, sp)
		if err != nil {
			return err
		}
		usage = u
		ok, err := s.spend(ctx, tx, card, func() (bool, error) { return useCard(ctx, tx, usage) })
		switch {
		case err != nil:
			return err
		case !ok:
			return s.refused(ctx, tx, in.Code, "value", sp.value, u.CreationDate)
		case sp.notify:
			return s.notify(ctx, tx, usage, in.Code, sp.gifteeEmail)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return usage, nil
}

// planUse reads the card with code and the partner of ref through tx and
// checks the use sp against them: the usage to write.
func (s *GiftcardService) planUse(ctx context.Context, tx Stores, c *domain.Caller, code string, ref partner, sp spending) (*Card, *Usage, error) {
	card, acceptorOf, err := s.cardAtPartner(ctx, tx, c, code, ref)
	if err != nil {
		return nil, nil, err
	}
	loc := location(card.TimeZone)
	at := sp.at.Noon(loc)
	if !card.InDates(at) {
		return nil, nil, fieldError("creation_date", domain.VInvalid, MsgCardDates)
	}
	acceptor, err := acceptorOf()
	if err != nil {
		return nil, nil, err
	}
	if !card.IsSplittable && !sp.value.Equal(card.RemainingValue) {
		return nil, nil, fieldError("value", domain.VInvalid, fmt.Sprintf(msgNotSplittable, card.RemainingValue.StringFixed(2)))
	}
	usage := &Usage{CardID: card.ID, MarketplaceID: card.MarketplaceID, PartnerID: acceptor.PartnerID,
		PartnerSourceID: acceptor.SourceID, Value: sp.value, IsActive: true, Comment: sp.comment,
		ReservationID: sp.reservationID, CreationDate: at, TimeZone: card.TimeZone, ActorID: c.User.ID}
	if sp.freeze != nil {
		t := sp.freeze.Noon(loc)
		usage.FreezePayoutDate = &t
	}
	return card, usage, nil
}

// cardAtPartner finds the caller's card with code, usable, and returns
// the partner of ref in its marketplace's network, accepting the cards
// (acceptor's refusals), to be asked after the card's own checks. The
// partner is read with the card, in one statement, unless ref names it by
// uuid.
func (s *GiftcardService) cardAtPartner(ctx context.Context, tx Stores, c *domain.Caller, code string, ref partner) (*Card, func() (*Acceptor, error), error) {
	if ref.uuid != nil {
		card, err := s.usableCard(ctx, tx, c, code)
		if err != nil {
			return nil, nil, err
		}
		return card, func() (*Acceptor, error) { return s.acceptor(ctx, tx, card.MarketplaceID, ref) }, nil
	}
	card, a, err := tx.Giftcards.FindCardAtPartner(ctx, code, ref.id, ref.sourceID)
	if err == nil {
		err = usable(c, card)
	}
	if err != nil {
		return nil, nil, err
	}
	return card, func() (*Acceptor, error) {
		var none error
		if a == nil {
			none = domain.ErrNotFound
		}
		return accepting(ref.field, a, none)
	}, nil
}

// useAlone makes a use that writes nothing but its spend (no idempotency
// key to record, no mail, no webhook endpoint subscribed) without a
// transaction: its read runs on its own, then one statement
// (UseCardUnlessWatched) makes the guarded update, the usage and its
// movement atomically, re-checking in its guard every rule of the card a
// concurrent change could break, and that no endpoint subscribes to the
// use. Reading the partner's acceptance beside it rather than in a
// transaction changes nothing: at READ COMMITTED the transaction's read
// took no lock either (docs/DECISIONS.md). done is false when the use
// needs the transaction: a key, a mail, a subscriber, or a spend the
// guard refused (the transaction lapses the card's overdue holds and
// spends, or explains the refusal).
func (s *GiftcardService) useAlone(ctx context.Context, c *domain.Caller, code string, ref partner, sp spending) (u *Usage, done bool, err error) {
	if sp.notify || idempotency.Keyed(ctx) {
		return nil, false, nil
	}
	st := s.uow.Stores()
	_, u, err = s.planUse(ctx, st, c, code, ref, sp)
	if err != nil {
		return nil, true, err
	}
	ok, err := st.Balances.UseCardUnlessWatched(ctx, u, eventUsed, webhooks.Recipients(u.MarketplaceID, u.PartnerID))
	if err != nil || !ok {
		return nil, err != nil, err
	}
	return u, true, nil
}

// notify queues the mails of usage (send_usage_notification_email) in
// its transaction: to the marketplace's agency e-mail and to the
// beneficiary (gifteeEmail when given, else the card's giftee's, else its
// gifter's), in the card's language.
func (s *GiftcardService) notify(ctx context.Context, tx Stores, usage *Usage, code, gifteeEmail string) error {
	card, err := tx.Giftcards.GiftcardByCode(ctx, code, nil)
	if err != nil {
		return err
	}
	parties, err := tx.Giftcards.NoticeParties(ctx, card.MarketplaceID, usage.PartnerID)
	if err != nil {
		return err
	}
	to := gifteeEmail
	if to == "" {
		to = card.Beneficiary()
	}
	mails, err := notify.UsageMails(notify.UsageNotification{Language: card.Language, MarketplaceName: parties.MarketplaceName,
		MarketplaceEmail: parties.MarketplaceEmail, PartnerName: parties.PartnerName, BeneficiaryEmail: to,
		CardCode: card.Code, Value: usage.Value, RemainingValue: card.RemainingValue, Currency: card.Currency,
		Date: usage.CreationDate.In(usage.Location()), Comment: usage.Comment})
	if err != nil {
		return err
	}
	if len(mails) == 0 {
		return nil
	}
	return tx.Outbox.Enqueue(ctx, mails...)
}

// acceptor finds the partner of a use in the card's marketplace's network
// and checks that it accepts the cards.
func (s *GiftcardService) acceptor(ctx context.Context, tx Stores, marketplace int64, ref partner) (*Acceptor, error) {
	field := ref.field
	var a *Acceptor
	var err error
	switch {
	case ref.uuid != nil:
		// Any partner's: whether it is in the network is said below.
		var p *domain.Partner
		if p, err = tx.Partners.FindPartnerByUUID(ctx, *ref.uuid); err != nil {
			return nil, err
		}
		a, err = tx.Partners.AcceptorByPartnerID(ctx, marketplace, p.ID)
	case field == PartnerByID:
		a, err = tx.Partners.AcceptorByPartnerID(ctx, marketplace, ref.id)
	default:
		a, err = tx.Partners.Acceptor(ctx, marketplace, ref.sourceID)
	}
	return accepting(field, a, err)
}

// accepting is the look-up of a use's partner (a, err) refused on field
// unless the partner is in the network, active and accepting the cards.
func accepting(field string, a *Acceptor, err error) (*Acceptor, error) {
	switch {
	case domain.IsCode(err, domain.CodeNotFound) && field == PartnerByID:
		return nil, fieldError(field, domain.VNotFound, MsgUnknownPartner)
	case domain.IsCode(err, domain.CodeNotFound):
		return nil, fieldError(field, domain.VNotFound, MsgUnknownSourceID)
	case err != nil:
		return nil, err
	case !a.Active():
		return nil, fieldError(field, domain.VInvalid, MsgPartnerInactive)
	case !a.LinkedToNGCSettings:
		return nil, fieldError(field, domain.VInvalid, MsgNotAccepting)
	}
	return a, nil
}

// CancelUsageInput is the cancel of a usage: its id and an optional
// comment.
type CancelUsageInput struct {
	domain.Refusals
	ID      int64
	Comment domain.Optional[string]
}

// CancelUsage marks the usage in.ID inactive and puts its value back on its
// card, with a ledger movement, in one transaction. A usage already
// cancelled is answered as it is: nothing is restored twice. The caller is
// the card's marketplace, or staff.
// Errors: those of Authorize(OpNetworkGiftcardUse); CodeNotFound for an
// unknown usage or another marketplace's; CodeInvalid on "comment";
// CodeConflict (MsgUsageInPayout) for one in a payout.
func (s *GiftcardService) CancelUsage(ctx context.Context, in CancelUsageInput) (*Usage, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	comment := domain.Pick(domain.Fields{V: v}.String("comment", in.Comment, false, true, MaxCommentLength), "")
	if err := v.Err(); err != nil {
		return nil, err
	}
	id := in.ID
	var usage *Usage
	usage, err = guarded(ctx, s.uow, s.keys, "network.giftcard.cancel", cancelInput{ID: id, Comment: comment}, &usage, func(ctx context.Context, tx Stores) error {
		u, done, err := tx.Giftcards.DeactivateUsage(ctx, id, c.Tenant())
		if err != nil {
			return err
		}
		usage = u
		switch {
		case !done && u.PayoutID != nil:
			return &domain.Error{Code: domain.CodeConflict, Message: MsgUsageInPayout}
		case !done:
			return nil
		}
		recipients := webhooks.Recipients(u.MarketplaceID, u.PartnerID)
		if _, err := tx.Events.Prepare(ctx, "network_giftcard.usage_cancelled", recipients); err != nil {
			return err
		}
		if err := tx.Balances.Restore(ctx, &Movement{CardID: u.CardID, Kind: MovementCancel, Amount: u.Value,
			UsageID: &u.ID, PartnerID: &u.PartnerID, ActorID: &c.User.ID, ReservationID: u.ReservationID, Comment: comment}); err != nil {
			return err
		}
		return tx.Events.Publish(ctx, webhooks.Event{Type: "network_giftcard.usage_cancelled", Partners: recipients, Resource: u})
	})
	if err != nil {
		return nil, err
	}
	return usage, nil
}

// eventUsed is the webhook event of a card's use.
const eventUsed = "network_giftcard.used"

// useCard is every use of a card (a use, a hold's capture, an order's):
// Balances.UseCard, and its webhook event when it took the value, to the
// card's marketplace and the partner where it was used.
func useCard(ctx context.Context, tx Stores, u *Usage) (bool, error) {
	recipients := webhooks.Recipients(u.MarketplaceID, u.PartnerID)
	if _, err := tx.Events.Prepare(ctx, eventUsed, recipients); err != nil {
		return false, err
	}
	_, ok, err := tx.Balances.UseCard(ctx, u)
	if err != nil || !ok {
		return ok, err
	}
	return true, tx.Events.Publish(ctx, webhooks.Event{Type: eventUsed, Partners: recipients, Resource: u})
}

func fieldError(field, code, msg string) error {
	return &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.",
		Fields: []domain.FieldError{{Path: []any{field}, Code: code, Message: msg}}}
}
