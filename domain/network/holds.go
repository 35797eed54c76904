package network

import (
	"context"
	"fmt"
	"strings"
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

// HoldInput is a hold of Amount of the card with Code at a partner named
// as in UseInput, for TTL (DefaultHoldTTL when 0).
type HoldInput struct {
	Code            string
	PartnerSourceID string
	PartnerID       int64
	ByPartnerID     bool // as UseInput's
	ReservationID   string
	Amount          decimal.Decimal
	TTL             time.Duration
}

// ReadHold reads the body of a hold: amount, reservation_id, the partner
// as partner_source_id or partner_id (one of them), and expires_in
// (seconds, optional).
// Errors: CodeInvalid with DRF's field messages.
func ReadHold(code string, doc domain.Doc) (HoldInput, error) {
	var v domain.Validator
	d := &domain.DocReader{V: &v, Obj: doc}
	in := HoldInput{Code: code}
	_, hasSource := doc["partner_source_id"]
	_, hasID := doc["partner_id"]
	switch {
	case hasSource && hasID:
		v.Add(domain.VInvalid, "Give partner_source_id or partner_id, not both.", "non_field_errors")
	case hasID:
		in.ByPartnerID = true
		if id, ok := readInt64(d, "partner_id"); ok {
			in.PartnerID = id
		}
	default:
		if id, ok := readInt64(d, "partner_source_id"); ok {
			in.PartnerSourceID = fmt.Sprint(id)
		}
	}
	if value, _ := d.Money("amount", true, false); value != nil {
		in.Amount = *value
		if !value.IsPositive() {
			v.Add(domain.VMinValue, MsgValuePositive, "amount")
		}
	}
	if s := d.String("reservation_id", true, true, MaxReservationID); s != nil {
		in.ReservationID = *s
		if *s == "" {
			v.Add(domain.VRequired, domain.MsgBlank, "reservation_id")
		}
	}
	if n, _ := d.Integer("expires_in", false, false, 60); n != nil {
		in.TTL = time.Duration(*n) * time.Second
		if in.TTL > MaxHoldTTL {
			v.Add(domain.VMaxValue, fmt.Sprintf("Ensure this value is less than or equal to %d.", int(MaxHoldTTL/time.Second)), "expires_in")
		}
	}
	return in, v.Err()
}

// readInt64 reads a required integer as DRF's IntegerField.
func readInt64(d *domain.DocReader, field string) (int64, bool) {
	value, ok, _ := d.Raw(field, true, false)
	if !ok {
		return 0, false
	}
	n, isInt := domain.AsInt(value)
	if _, isBool := value.(bool); !isInt || isBool {
		d.V.Add(domain.VInvalid, domain.MsgInteger, field)
		return 0, false
	}
	return n, true
}

// HoldDoc holds an amount of the card with code (ReadHold, then Hold).
func (s *GiftcardService) HoldDoc(ctx context.Context, code string, doc domain.Doc) (*Hold, error) {
	if _, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse); err != nil {
		return nil, err
	}
	in, err := ReadHold(code, doc)
	if err != nil {
		return nil, err
	}
	return s.Hold(ctx, in)
}

// Hold reserves in.Amount of the card with in.Code at a partner of its
// marketplace's network, under in.ReservationID, until in.TTL has passed.
// The rules of Use apply (the caller, the card, the partner, the
// remaining value, the card's dates at now).
// Errors: those of Use, on "amount" for the value; CodeInvalid on
// "reservation_id" when the card already has a hold under it.
func (s *GiftcardService) Hold(ctx context.Context, in HoldInput) (*Hold, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse)
	if err != nil {
		return nil, err
	}
	switch {
	case !in.Amount.IsPositive():
		return nil, fieldError("amount", domain.VMinValue, MsgValuePositive)
	case !in.Amount.Equal(in.Amount.Round(2)):
		return nil, fieldError("amount", domain.VMaxDecimals, MsgValueDecimals)
	case strings.TrimSpace(in.ReservationID) == "" || len(in.ReservationID) > MaxReservationID:
		return nil, fieldError("reservation_id", domain.VInvalid, "A reservation id of 1 to 255 characters is required.")
	case in.TTL == 0:
		in.TTL = s.holdTTL
	case in.TTL < 0 || in.TTL > MaxHoldTTL:
		return nil, fieldError("expires_in", domain.VInvalid, "Out of range.")
	case !validCode(in.Code):
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
		if !card.IsSplittable && !in.Amount.Equal(card.RemainingValue) {
			return fieldError("amount", domain.VInvalid, fmt.Sprintf(msgNotSplittable, card.RemainingValue.StringFixed(2)))
		}
		use := UseInput{PartnerSourceID: in.PartnerSourceID, PartnerID: in.PartnerID, ByPartnerID: in.ByPartnerID}
		acceptor, err := s.acceptor(ctx, tx, card.MarketplaceID, &use)
		if err != nil {
			return err
		}
		hold = &Hold{CardID: card.ID, MarketplaceID: card.MarketplaceID, PartnerID: acceptor.PartnerID,
			PartnerSourceID: acceptor.SourceID, ReservationID: in.ReservationID, Amount: in.Amount, Status: HoldHeld,
			ExpiresAt: now.Add(in.TTL), TimeZone: card.TimeZone, ActorID: c.User.ID}
		ok, err := s.spend(ctx, tx, card, func() (bool, error) { return tx.Balances.HoldCard(ctx, hold, now) })
		if err != nil || ok {
			return err
		}
		return s.refused(ctx, tx, in.Code, "amount", in.Amount, now)
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
	if !c.Sees(card.MarketplaceID) {
		return nil, domain.ErrNotFound
	}
	if !card.Usable() {
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgCardNotUsable}
	}
	return card, nil
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

// CaptureInput captures a hold: Value (the whole hold when zero) becomes
// a usage dated CreationDate (now when zero), the rest goes back.
type CaptureInput struct {
	Code             string
	ReservationID    string
	Value            decimal.Decimal
	CreationDate     LocalTime
	Comment          string
	FreezePayoutDate *LocalTime
	// Notify and GifteeEmail are as a use's.
	Notify      bool
	GifteeEmail string
}

// ReadCapture reads the body of a capture: value, creation_date, comment,
// freeze_payout_date, send_usage_notification_email (default true) and
// giftee_email, all optional.
func ReadCapture(code, reservationID string, doc domain.Doc) (CaptureInput, error) {
	var v domain.Validator
	d := &domain.DocReader{V: &v, Obj: doc}
	in := CaptureInput{Code: code, ReservationID: reservationID}
	in.Notify, in.GifteeEmail = readNotice(d)
	if value, _ := d.Money("value", false, false); value != nil {
		in.Value = *value
		if !value.IsPositive() {
			v.Add(domain.VMinValue, MsgValuePositive, "value")
		}
	}
	if at, ok := ReadLocalTime(d, "creation_date", false); ok {
		in.CreationDate = at
	}
	if at, ok := ReadLocalTime(d, "freeze_payout_date", false); ok {
		in.FreezePayoutDate = &at
	}
	if s := d.String("comment", false, true, MaxCommentLength); s != nil {
		in.Comment = *s
	}
	return in, v.Err()
}

// MsgHoldEnded refuses to capture a hold that is no longer held.
const MsgHoldEnded = "This hold has ended: it was captured, released or it lapsed."

// CaptureDoc captures a hold (ReadCapture, then Capture).
func (s *GiftcardService) CaptureDoc(ctx context.Context, code, reservationID string, doc domain.Doc) (*Usage, error) {
	if _, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse); err != nil {
		return nil, err
	}
	in, err := ReadCapture(code, reservationID, doc)
	if err != nil {
		return nil, err
	}
	return s.Capture(ctx, in)
}

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
		value := in.Value
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
		if !in.CreationDate.IsZero() {
			at = in.CreationDate.Noon(loc)
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
			PartnerSourceID: h.PartnerSourceID, Value: value, IsActive: true, Comment: in.Comment,
			ReservationID: h.ReservationID, CreationDate: at, TimeZone: card.TimeZone, ActorID: c.User.ID}
		if in.FreezePayoutDate != nil {
			t := in.FreezePayoutDate.Noon(loc)
			usage.FreezePayoutDate = &t
		}
		// The held amount is back: the guard holds unless the card stopped
		// being usable in between.
		_, ok, err := tx.Balances.UseCard(ctx, usage)
		if err != nil {
			return err
		}
		if !ok {
			return s.refused(ctx, tx, in.Code, "value", value, at)
		}
		if err := tx.Holds.SetHoldUsage(ctx, h.ID, usage.ID); err != nil || !in.Notify {
			return err
		}
		return s.notify(ctx, tx, usage, in.Code, in.GifteeEmail)
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
