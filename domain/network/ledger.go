package network

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// LedgerStore is what the ledger's reads need of the giftcards' store
// (adjustments change the balance: Balances).
type LedgerStore interface {
	// MovementsOfCard returns a page of the card's ledger, oldest first,
	// and how many movements it has.
	MovementsOfCard(ctx context.Context, cardID int64, page domain.PageRequest) ([]*Movement, int, error)
}

// Ledger limits.
const MaxReasonLength = 1000

// MsgAdjustOutOfRange refuses an adjustment that would take the remaining
// value below zero, or above the card's value once its live holds and
// its cancellable usages come back.
const MsgAdjustOutOfRange = "The remaining value must stay within 0.00 and the card's value, %s, counting what its holds and usages may give back; it is %s."

// AdjustInput is a staff adjustment of the card with Code: amount
// (signed) and reason.
type AdjustInput struct {
	domain.Refusals
	Code   string
	Amount domain.Optional[decimal.Decimal]
	Reason domain.Optional[string]
}

// Adjust adds in.Amount (signed) to the remaining value of the card with
// in.Code, staff only, with the reason and the actor in the ledger. The
// remaining value stays at 0 or above, and at the card's value or below
// with its live holds and cancellable usages given back (so no later
// release, lapse or cancel can take it above the value).
// Errors: those of Authorize(OpNetworkGiftcardAdjust); CodeNotFound;
// CodeInvalid on "amount" (absent, zero, more than two decimals, out of
// range: the message names the remaining value) or "reason" (absent or
// blank).
func (s *GiftcardService) Adjust(ctx context.Context, in AdjustInput) (*Movement, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardAdjust)
	if err != nil {
		return nil, err
	}
	v := in.Refusals.Validator()
	f := domain.Fields{V: v}
	amount, _, _ := domain.Present(f, "amount", in.Amount, true, false)
	reason := f.String("reason", in.Reason, true, true, MaxReasonLength)
	if err := v.Err(); err != nil {
		return nil, err
	}
	code := in.Code
	switch {
	case amount.IsZero():
		return nil, fieldError("amount", domain.VInvalid, "An adjustment cannot be 0.")
	case !amount.Equal(amount.Round(2)):
		return nil, fieldError("amount", domain.VMaxDecimals, MsgValueDecimals)
	case amount.Abs().GreaterThan(MaxCardValue):
		return nil, fieldError("amount", domain.VMaxValue, fmt.Sprintf("Ensure this value is between -%s and %s.", MaxCardValue, MaxCardValue))
	case *reason == "":
		return nil, fieldError("reason", domain.VRequired, "An adjustment needs its reason.")
	case !validCode(code):
		return nil, domain.ErrNotFound
	}
	var m *Movement
	m, err = guarded(ctx, s.uow, s.keys, "network.giftcard.adjust", adjustInput{Code: code, Amount: amount, Reason: *reason}, &m, func(ctx context.Context, tx Stores) error {
		card, err := tx.Giftcards.FindCardByCode(ctx, code)
		if err != nil {
			return err
		}
		m = &Movement{CardID: card.ID, Kind: MovementAdjust, Amount: amount, ActorID: &c.User.ID, Comment: *reason}
		ok, err := tx.Balances.AdjustCard(ctx, m)
		if err != nil || ok {
			return err
		}
		now, err := tx.Giftcards.FindCardByCode(ctx, code)
		if err != nil {
			return err
		}
		return fieldError("amount", domain.VInvalid, fmt.Sprintf(MsgAdjustOutOfRange, now.Value.StringFixed(2), now.RemainingValue.StringFixed(2)))
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Movements returns a page of the ledger of the card with code, oldest
// first.
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound for an
// unknown card or another marketplace's, or past the last page.
func (s *GiftcardService) Movements(ctx context.Context, code string, page domain.PageRequest) (*domain.Page[*Movement], error) {
	card, err := s.readableCard(ctx, code)
	if err != nil {
		return nil, err
	}
	ms, count, err := s.uow.Stores().Ledger.MovementsOfCard(ctx, card.ID, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(ms, count, page)
}

// The inputs of the guarded operations without an input type of their
// own, as their idempotency fingerprints read them.
type (
	cancelInput struct {
		ID      int64
		Comment string
	}
	releaseInput struct {
		Code          string
		ReservationID string
	}
	adjustInput struct {
		Code   string
		Amount decimal.Decimal
		Reason string
	}
)
