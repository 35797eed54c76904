package network

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// The checkout's holds: the e-commerce funnel (domain/checkout) takes a
// network giftcard as part of an order's payment at the shop's partner.
// Its pages have no caller; the order vouches for the partner, and these
// run in the checkout's own transaction (tx, bound to it), so that the
// hold, its capture or its release commit with the order's change. The
// rules are Hold's, Capture's and Release's, the acceptor being the
// partner named by id; the ledger names no user.

// AcceptedCard returns the card with code when partnerID accepts it: the
// card usable and in its dates at now, the partner an active acceptor of
// its marketplace's network, linked to its settings, in its currency.
// Errors: CodeNotFound for an unknown card or one the partner does not
// accept; CodeConflict (MsgCardNotUsable, MsgCardDates).
func (s *GiftcardService) AcceptedCard(ctx context.Context, tx Stores, code string, partnerID int64, currency string) (*Card, error) {
	if !validCode(code) {
		return nil, domain.ErrNotFound
	}
	card, err := tx.Giftcards.FindCardByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	if _, err := s.acceptor(ctx, tx, card.MarketplaceID, partner{field: PartnerByID, id: partnerID}); err != nil {
		if domain.IsCode(err, domain.CodeInvalid) || domain.IsCode(err, domain.CodeNotFound) {
			return nil, domain.ErrNotFound
		}
		return nil, err
	}
	switch {
	case card.Currency != currency:
		return nil, domain.ErrNotFound
	case !card.Usable():
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgCardNotUsable}
	case !card.InDates(s.now()):
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgCardDates}
	}
	return card, nil
}

// HoldFor holds amount of the card with code at partnerID under
// reservationID for ttl, in tx.
// Errors: those of AcceptedCard; CodeInvalid on "amount" when the card
// holds less (or is not splittable and holds another amount).
func (s *GiftcardService) HoldFor(ctx context.Context, tx Stores, code string, partnerID int64, currency, reservationID string, amount decimal.Decimal, ttl time.Duration) (*Hold, error) {
	card, err := s.AcceptedCard(ctx, tx, code, partnerID, currency)
	if err != nil {
		return nil, err
	}
	acceptor, err := s.acceptor(ctx, tx, card.MarketplaceID, partner{field: PartnerByID, id: partnerID})
	if err != nil {
		return nil, err
	}
	now := s.now()
	hold := &Hold{CardID: card.ID, MarketplaceID: card.MarketplaceID, PartnerID: acceptor.PartnerID,
		PartnerSourceID: acceptor.SourceID, ReservationID: reservationID, Amount: amount, Status: HoldHeld,
		ExpiresAt: now.Add(ttl), TimeZone: card.TimeZone}
	if !card.IsSplittable && !amount.Equal(card.RemainingValue) {
		return nil, s.refused(ctx, tx, code, "amount", amount, now)
	}
	ok, err := s.spend(ctx, tx, card, func() (bool, error) { return tx.Balances.HoldCard(ctx, hold, now) })
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, s.refused(ctx, tx, code, "amount", amount, now)
	}
	return hold, nil
}

// CaptureFor turns the card's hold under reservationID into a usage of
// the whole held amount, in tx.
// Errors: CodeNotFound for an unknown card or hold; CodeConflict
// (MsgHoldEnded) for a hold no longer held (released, or lapsed).
func (s *GiftcardService) CaptureFor(ctx context.Context, tx Stores, code, reservationID string) (*Usage, error) {
	if !validCode(code) {
		return nil, domain.ErrNotFound
	}
	card, err := tx.Giftcards.FindCardByCode(ctx, code)
	if err != nil {
		return nil, err
	}
	now := s.now()
	h, done, err := tx.Holds.EndHold(ctx, card.ID, reservationID, HoldCaptured, &now)
	switch {
	case err != nil:
		return nil, err
	case !done:
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgHoldEnded}
	}
	if err := tx.Balances.Restore(ctx, &Movement{CardID: card.ID, Kind: MovementRelease, Amount: h.Amount,
		HoldID: &h.ID, PartnerID: &h.PartnerID, ReservationID: h.ReservationID, Comment: "captured"}); err != nil {
		return nil, err
	}
	usage := &Usage{CardID: card.ID, MarketplaceID: card.MarketplaceID, PartnerID: h.PartnerID,
		PartnerSourceID: h.PartnerSourceID, Value: h.Amount, IsActive: true, ReservationID: h.ReservationID,
		CreationDate: now, TimeZone: card.TimeZone}
	ok, err := useCard(ctx, tx, usage)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, s.refused(ctx, tx, code, "value", h.Amount, now)
	}
	return usage, tx.Holds.SetHoldUsage(ctx, h.ID, usage.ID)
}

// ReleaseFor ends the card's hold under reservationID and puts its
// amount back, in tx; a hold that has ended is left as it is.
// Errors: CodeNotFound for an unknown card or hold.
func (s *GiftcardService) ReleaseFor(ctx context.Context, tx Stores, code, reservationID string) error {
	if !validCode(code) {
		return domain.ErrNotFound
	}
	card, err := tx.Giftcards.FindCardByCode(ctx, code)
	if err != nil {
		return err
	}
	h, done, err := tx.Holds.EndHold(ctx, card.ID, reservationID, HoldReleased, nil)
	if err != nil || !done {
		return err
	}
	return tx.Balances.Restore(ctx, &Movement{CardID: card.ID, Kind: MovementRelease, Amount: h.Amount,
		HoldID: &h.ID, PartnerID: &h.PartnerID, ReservationID: h.ReservationID, Comment: "released"})
}
