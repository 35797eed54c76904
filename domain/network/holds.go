package network

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// Holds: an acceptor's booking system reserves an amount of a card under
// its reservation id; the amount is off the card's remaining value (a
// guarded update, as a use) until the hold is captured (a usage of at most
// the held amount, the rest back), released, or lapses at its expiry.

// Hold statuses.
const (
	HoldHeld     = "held"
	HoldCaptured = "captured"
	HoldReleased = "released"
	HoldLapsed   = "lapsed"
)

// Hold limits: DefaultHoldTTL is a hold's life when its request names
// none; MaxHoldTTL bounds what a request may ask.
const (
	DefaultHoldTTL = 30 * time.Minute
	MaxHoldTTL     = 7 * 24 * time.Hour
)

// Hold is an amount of a card reserved at a partner.
type Hold struct {
	ID              int64
	CardID          int64
	MarketplaceID   int64
	PartnerID       int64
	PartnerSourceID string
	ReservationID   string
	Amount          decimal.Decimal
	Status          string
	ExpiresAt       time.Time
	CreatedAt       time.Time
	EndedAt         *time.Time
	UsageID         *int64 // the usage it became when captured
	TimeZone        string // the marketplace's
	ActorID         int64  // the user whose call made it, for the ledger
}

// Location is the zone the hold's dates are shown in.
func (h *Hold) Location() *time.Location { return location(h.TimeZone) }

// HoldStore is what holds need of the giftcards' store.
type HoldStore interface {
	// EndHold moves the card's held hold with reservationID to status,
	// if it expires after liveAt (any held one for nil), and returns it;
	// done reports whether it changed (false: it had ended already, or
	// expired). domain.ErrNotFound when the card has no such hold.
	EndHold(ctx context.Context, cardID int64, reservationID, status string, liveAt *time.Time) (h *Hold, done bool, err error)
	// SetHoldUsage links a captured hold to its usage.
	SetHoldUsage(ctx context.Context, holdID, usageID int64) error
	// CardsWithLapsedHolds returns up to limit cards that have holds past
	// their expiry at now, by id.
	CardsWithLapsedHolds(ctx context.Context, now time.Time, limit int) ([]int64, error)
	// HoldsOfCard returns a page of the card's holds, newest first, and
	// how many there are.
	HoldsOfCard(ctx context.Context, cardID int64, page domain.PageRequest) ([]*Hold, int, error)
}

// HoldInput is a hold of the card with Code at a partner (PartnerRef):
// amount, reservation_id, and expires_in (seconds; DefaultHoldTTL when
// absent).
type HoldInput struct {
	domain.Refusals
	Code string
	PartnerRef
	ReservationID domain.Optional[string]
	Amount        domain.Optional[decimal.Decimal]
	ExpiresIn     domain.Optional[int64]
}

// Hold reserves in.Amount of the card with in.Code at a partner of its
// marketplace's network, under in.ReservationID, until in.ExpiresIn
// seconds (else the hold TTL) have passed.
// The rules of Use apply (the caller, the card, the partner, the
// remaining value, the card's dates at now).
// Errors: those of Use, on "amount" for the value; CodeInvalid on
// "reservation_id" when the card already has a hold under it.
func (s *GiftcardService) Hold(ctx context.Context, in HoldInput) (*Hold, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	ref, _ := in.PartnerRef.check(f)
	var amount decimal.Decimal
	if m := f.PositiveMoney("amount", in.Amount, true); m != nil {
		amount = *m
	}
	reservationID := domain.Pick(f.String("reservation_id", in.ReservationID, true, false, MaxReservationID), "")
	ttl := s.holdTTL
	if n, _ := f.Integer("expires_in", in.ExpiresIn, false, false, 60); n != nil {
		ttl = time.Duration(*n) * time.Second
		if ttl > MaxHoldTTL {
			v.Add(domain.VMaxValue, fmt.Sprintf("Ensure this value is less than or equal to %d.", int(MaxHoldTTL/time.Second)), "expires_in")
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if !validCode(in.Code) {
		return nil, domain.ErrNotFound
	}
	var hold *Hold
	hold, err = guarded(ctx, s.uow, s.keys, "network.giftcard.hold", in, &hold, func(ctx context.Context, tx Stores) error {
		card, err := s.usableCard(ctx, tx, c, in.Code)
		if err != nil {
			return err
		}
		now := s.now()
		if !card.InDates(now) {
			return &domain.Error{Code: domain.CodeConflict, Message: MsgCardDates}
		}
		if !card.IsSplittable && !amount.Equal(card.RemainingValue) {
			return fieldError("amount", domain.VInvalid, fmt.Sprintf(msgNotSplittable, card.RemainingValue.StringFixed(2)))
		}
		acceptor, err := s.acceptor(ctx, tx, card.MarketplaceID, ref)
		if err != nil {
			return err
		}
		hold = &Hold{CardID: card.ID, MarketplaceID: card.MarketplaceID, PartnerID: acceptor.PartnerID,
			PartnerSourceID: acceptor.SourceID, ReservationID: reservationID, Amount: amount, Status: HoldHeld,
			ExpiresAt: now.Add(ttl), TimeZone: card.TimeZone, ActorID: c.User.ID}
		ok, err := s.spend(ctx, tx, card, func() (bool, error) { return tx.Balances.HoldCard(ctx, hold, now) })
		if err != nil || ok {
			return err
		}
		return s.refused(ctx, tx, in.Code, "amount", amount, now)
	})
	if err != nil {
		return nil, err
	}
	return hold, nil
}

// spend runs a guarded spend of card (SpendLive).
func (s *GiftcardService) spend(ctx context.Context, tx Stores, card *Card, guarded func() (bool, error)) (bool, error) {
	return SpendLive(ctx, tx.Balances, func() (int64, error) { return card.ID, nil }, s.now(), guarded)
}

// usableCard finds the caller's card with code, usable.
func (s *GiftcardService) usableCard(ctx context.Context, tx Stores, c *domain.Caller, code string) (*Card, error) {
	card, err := tx.Giftcards.FindCardByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	if err := usable(c, card); err != nil {
		return nil, err
	}
	return card, nil
}

// usable refuses card unless the caller sees it and it is usable.
func usable(c *domain.Caller, card *Card) error {
	if !c.Sees(card.MarketplaceID) {
		return domain.ErrNotFound
	}
	if !card.Usable() {
		return &domain.Error{Code: domain.CodeConflict, Message: MsgCardNotUsable}
	}
	return nil
}

// refused explains a spend of value at `at` the guard refused, by the
// rule (SpendRefusal) on the card as it is now: no longer usable or in
// its dates, not splittable and holding another amount than asked, or
// holding less (its remaining value named on field).
func (s *GiftcardService) refused(ctx context.Context, tx Stores, code, field string, value decimal.Decimal, at time.Time) error {
	now, err := tx.Giftcards.FindCardByCode(ctx, code)
	if err != nil {
		return err
	}
	switch now.SpendRefusal(value, at) {
	case RefusedNotUsable:
		return &domain.Error{Code: domain.CodeConflict, Message: MsgCardNotUsable}
	case RefusedDates:
		return &domain.Error{Code: domain.CodeConflict, Message: MsgCardDates}
	case RefusedNotSplittable:
		return fieldError(field, domain.VInvalid, fmt.Sprintf(msgNotSplittable, now.RemainingValue.StringFixed(2)))
	}
	return fieldError(field, domain.VMaxValue, fmt.Sprintf(msgRemainingFormat, now.RemainingValue.StringFixed(2)))
}

// CaptureInput captures a hold: value (the whole hold when absent)
// becomes a usage dated creation_date (now when absent), the rest goes
// back; comment, freeze_payout_date and the notice are as a use's.
type CaptureInput struct {
	domain.Refusals
	Code             string
	ReservationID    string
	Value            domain.Optional[decimal.Decimal]
	CreationDate     domain.Optional[LocalTime]
	Comment          domain.Optional[string]
	FreezePayoutDate domain.Optional[LocalTime]
	Notice
}

// MsgHoldEnded refuses to capture a hold that is no longer held.
const MsgHoldEnded = "This hold has ended: it was captured, released or it lapsed."

// Capture turns the card's hold under in.ReservationID into a usage of
// in.Value (at most the held amount; the whole of it when zero), in one
// transaction: the hold ends as captured, its amount goes back to the card
// and the usage spends in.Value, each with its ledger movement.
// Errors: those of Authorize(OpNetworkGiftcardUse); CodeNotFound for an
// unknown card or hold; CodeConflict (MsgHoldEnded) for a hold no longer
// held; CodeInvalid on "value" above the held amount, or on
// "creation_date" outside the card's dates.
func (s *GiftcardService) Capture(ctx context.Context, in CaptureInput) (*Usage, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	sp := checkSpending(domain.Fields{V: v}, in.Value, in.CreationDate, in.FreezePayoutDate, in.Comment, in.Notice, false)
	if err := v.Err(); err != nil {
		return nil, err
	}
	if !validCode(in.Code) {
		return nil, domain.ErrNotFound
	}
	var usage *Usage
	usage, err = guarded(ctx, s.uow, s.keys, "network.giftcard.capture", in, &usage, func(ctx context.Context, tx Stores) error {
		card, err := s.usableCard(ctx, tx, c, in.Code)
		if err != nil {
			return err
		}
		// A hold past its expiry has lapsed, swept or not.
		now := s.now()
		h, done, err := tx.Holds.EndHold(ctx, card.ID, in.ReservationID, HoldCaptured, &now)
		switch {
		case err != nil:
			return err
		case !done:
			return &domain.Error{Code: domain.CodeConflict, Message: MsgHoldEnded}
		}
		value := sp.value
		if value.IsZero() {
			value = h.Amount
		}
		switch {
		case !value.Equal(value.Round(2)):
			return fieldError("value", domain.VMaxDecimals, MsgValueDecimals)
		case value.GreaterThan(h.Amount):
			return fieldError("value", domain.VMaxValue, fmt.Sprintf("The held amount is %s.", h.Amount.StringFixed(2)))
		case !card.IsSplittable && !value.Equal(card.RemainingValue.Add(h.Amount)):
			return fieldError("value", domain.VInvalid, fmt.Sprintf(msgNotSplittable, card.RemainingValue.Add(h.Amount).StringFixed(2)))
		}
		loc := location(card.TimeZone)
		at := now
		if sp.at != nil {
			at = sp.at.Noon(loc)
		}
		if !card.InDates(at) {
			return fieldError("creation_date", domain.VInvalid, MsgCardDates)
		}
		err = tx.Balances.Restore(ctx, &Movement{CardID: card.ID, Kind: MovementRelease, Amount: h.Amount,
			HoldID: &h.ID, PartnerID: &h.PartnerID, ActorID: &c.User.ID, ReservationID: h.ReservationID, Comment: "captured"})
		if err != nil {
			return err
		}
		usage = &Usage{CardID: card.ID, MarketplaceID: card.MarketplaceID, PartnerID: h.PartnerID,
			PartnerSourceID: h.PartnerSourceID, Value: value, IsActive: true, Comment: sp.comment,
			ReservationID: h.ReservationID, CreationDate: at, TimeZone: card.TimeZone, ActorID: c.User.ID}
		if sp.freeze != nil {
			t := sp.freeze.Noon(loc)
			usage.FreezePayoutDate = &t
		}
		// The held amount is back: the guard holds unless the card stopped
		// being usable in between.
		ok, err := useCard(ctx, tx, usage)
		if err != nil {
			return err
		}
		if !ok {
			return s.refused(ctx, tx, in.Code, "value", value, at)
		}
		if err := tx.Holds.SetHoldUsage(ctx, h.ID, usage.ID); err != nil || !sp.notify {
			return err
		}
		return s.notify(ctx, tx, usage, in.Code, sp.gifteeEmail)
	})
	if err != nil {
		return nil, err
	}
	return usage, nil
}

// Release ends the card's hold under reservationID and puts its amount
// back, with its ledger movement. Releasing a hold that has ended answers
// it as it is: nothing goes back twice.
// Errors: those of Authorize(OpNetworkGiftcardUse); CodeNotFound for an
// unknown card (or another marketplace's) or hold.
func (s *GiftcardService) Release(ctx context.Context, code, reservationID string) (*Hold, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse)
	if err != nil {
		return nil, err
	}
	if !validCode(code) {
		return nil, domain.ErrNotFound
	}
	var hold *Hold
	hold, err = guarded(ctx, s.uow, s.keys, "network.giftcard.release", releaseInput{Code: code, ReservationID: reservationID}, &hold, func(ctx context.Context, tx Stores) error {
		card, err := tx.Giftcards.FindCardByCode(ctx, code)
		if err != nil {
			return err
		}
		if !c.Sees(card.MarketplaceID) {
			return domain.ErrNotFound
		}
		h, done, err := tx.Holds.EndHold(ctx, card.ID, reservationID, HoldReleased, nil)
		if err != nil || !done {
			hold = h
			return err
		}
		hold = h
		return tx.Balances.Restore(ctx, &Movement{CardID: card.ID, Kind: MovementRelease, Amount: h.Amount,
			HoldID: &h.ID, PartnerID: &h.PartnerID, ActorID: &c.User.ID, ReservationID: h.ReservationID, Comment: "released"})
	})
	if err != nil {
		return nil, err
	}
	return hold, nil
}

// Holds returns a page of the holds of the card with code, newest first.
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound for an
// unknown card or another marketplace's, or past the last page.
func (s *GiftcardService) Holds(ctx context.Context, code string, page domain.PageRequest) (*domain.Page[*Hold], error) {
	card, err := s.readableCard(ctx, code)
	if err != nil {
		return nil, err
	}
	holds, count, err := s.uow.Stores().Holds.HoldsOfCard(ctx, card.ID, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(holds, count, page)
}

// LapseHolds ends the holds past their expiry, card by card, each card in
// a transaction of its own (so that sweeps of several instances lock one
// card at a time, and a card that fails holds up no other), for at most
// batch cards; it returns how many holds lapsed. The serve command's sweep
// calls it.
// Errors: the first card's that failed, once the others are done.
func (s *GiftcardService) LapseHolds(ctx context.Context, batch int) (int, error) {
	now := s.now()
	cards, err := s.uow.Stores().Holds.CardsWithLapsedHolds(ctx, now, batch)
	if err != nil {
		return 0, err
	}
	total := 0
	var first error
	for _, card := range cards {
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			n, err := tx.Balances.LapseHolds(ctx, now, card, maxLapsedPerCard)
			total += n
			return err
		})
		if err != nil && first == nil {
			first = err
		}
	}
	return total, first
}
