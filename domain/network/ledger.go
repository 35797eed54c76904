package network

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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

// AdjustDoc reads the body of an adjustment (amount, signed; reason) and
// adjusts.
func (s *GiftcardService) AdjustDoc(ctx context.Context, code string, doc domain.Doc) (*Movement, error) {
	if _, err := domain.Authorize(ctx, domain.OpNetworkGiftcardAdjust); err != nil {
		return nil, err
	}
	var v domain.Validator
	d := &domain.DocReader{V: &v, Obj: doc}
	var amount decimal.Decimal
	if value, ok, _ := d.Raw("amount", true, false); ok {
		var err error
		switch x := value.(type) {
		case json.Number:
			amount, err = decimal.NewFromString(x.String())
		case string:
			amount, err = decimal.NewFromString(strings.TrimSpace(x))
		default:
			err = fmt.Errorf("not a number")
		}
		if err != nil || len(fmt.Sprint(value)) > 20 {
			v.Add(domain.VInvalid, domain.MsgDecimal, "amount")
		}
	}
	reason := d.String("reason", true, true, MaxReasonLength)
	if err := v.Err(); err != nil {
		return nil, err
	}
	return s.Adjust(ctx, code, amount, *reason)
}

// Adjust adds amount (signed) to the remaining value of the card with
// code, staff only, with the reason and the actor in the ledger. The
// remaining value stays at 0 or above, and at the card's value or below
// with its live holds and cancellable usages given back (so no later
// release, lapse or cancel can take it above the value).
// Errors: those of Authorize(OpNetworkGiftcardAdjust); CodeNotFound;
// CodeInvalid on "amount" (zero, more than two decimals, out of range:
// the message names the remaining value) or "reason" (blank).
func (s *GiftcardService) Adjust(ctx context.Context, code string, amount decimal.Decimal, reason string) (*Movement, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardAdjust)
	if err != nil {
		return nil, err
	}
	reason = strings.TrimSpace(reason)
	switch {
	case amount.IsZero():
		return nil, fieldError("amount", domain.VInvalid, "An adjustment cannot be 0.")
	case !amount.Equal(amount.Round(2)):
		return nil, fieldError("amount", domain.VMaxDecimals, MsgValueDecimals)
	case amount.Abs().GreaterThan(MaxCardValue):
		return nil, fieldError("amount", domain.VMaxValue, fmt.Sprintf("Ensure this value is between -%s and %s.", MaxCardValue, MaxCardValue))
	case reason == "":
		return nil, fieldError("reason", domain.VRequired, "An adjustment needs its reason.")
	case !validCode(code):
		return nil, domain.ErrNotFound
	}
	var m *Movement
	m, err = guarded(ctx, s.uow, s.keys, "network.giftcard.adjust", adjustInput{Code: code, Amount: amount, Reason: reason}, &m, func(ctx context.Context, tx Stores) error {
		card, err := tx.Giftcards.FindCardByCode(ctx, code)
		if err != nil {
			return err
		}
		m = &Movement{CardID: card.ID, Kind: MovementAdjust, Amount: amount, ActorID: &c.User.ID, Comment: reason}
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
