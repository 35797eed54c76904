package network

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// A card's balance, its remaining value, is the network area's alone:
// once the card is issued, every change of it goes through Balances, the
// port this area's services and the payments area (a card as a payment's
// wallet) are given, and whether an amount may be spent is SpendRefusal's
// rule. Its SQL twin is spendable in
// persistence/network_giftcard_balances.go: a change of the rule is made
// in both.

// Card is a network giftcard's balance view: what a spend of it (a use,
// a hold, a payment's draw) checks, SpendRefusal's rule, and what a
// payment's wallet of it shows. Giftcard (giftcards.go) is the card's full
// record, as the administration API reads it.
type Card struct {
	ID             int64
	UUID           uuid.UUID // its wallet's, as a payment's source
	MarketplaceID  int64
	Currency       string
	Status         string
	IsActive       bool
	Value          decimal.Decimal
	RemainingValue decimal.Decimal
	IsSplittable   bool
	CreationDate   time.Time
	ActivationDate *time.Time
	ExpirationDate *time.Time
	TimeZone       string // the marketplace's
}

// Refusal is why a card may not be spent; Spendable when it may.
type Refusal int

// Refusals, in the order SpendRefusal checks them.
const (
	Spendable            Refusal = iota
	RefusedNotUsable             // inactive, or neither paid nor using
	RefusedDates                 // outside its activation and expiration dates
	RefusedNotSplittable         // not splittable, and the amount is not its whole remaining value
	RefusedBalance               // more than its remaining value
)

// SpendRefusal is the rule of every spend of a card (a use, a hold, a
// payment's draw): usable, within its dates at `at`, splittable or spent
// whole, and holding amount. Live holds are off the remaining value
// already (HoldCard takes them off), so the balance it checks is net of
// them. SQL twin: persistence's spendable.
func (c *Card) SpendRefusal(amount decimal.Decimal, at time.Time) Refusal {
	switch {
	case !c.Usable():
		return RefusedNotUsable
	case !c.InDates(at):
		return RefusedDates
	case !c.IsSplittable && !amount.Equal(c.RemainingValue):
		return RefusedNotSplittable
	case amount.GreaterThan(c.RemainingValue):
		return RefusedBalance
	}
	return Spendable
}

// Usable reports whether the card may be spent at all: active, and paid
// or being used.
func (c *Card) Usable() bool {
	return c.IsActive && (c.Status == StatusPaid || c.Status == StatusUsing)
}

// InDates reports whether a spend dated at falls within the card's life:
// activation_date <= at <= expiration_date, where the card has them.
func (c *Card) InDates(at time.Time) bool {
	return (c.ActivationDate == nil || !at.Before(*c.ActivationDate)) &&
		(c.ExpirationDate == nil || !at.After(*c.ExpirationDate))
}

// Balances is the port on cards' remaining values. Every spend is a
// conditional update under SpendRefusal's rule (its SQL twin), every
// credit is bounded by the card's value, and each writes its ledger
// movement in the statement that changes the balance, in the caller's
// transaction: concurrent spends of one card, from this area or from
// payments, cannot take more than it holds.
type Balances interface {
	// CardByUUID returns the balance view of the card with that uuid;
	// domain.ErrNotFound when there is none.
	CardByUUID(ctx context.Context, id uuid.UUID) (*Card, error)
	// LockCards locks the cards with those uuids, by id, until the
	// transaction ends (unknown uuids are skipped).
	LockCards(ctx context.Context, ids []uuid.UUID) error
	// UseCard takes u.Value from card u.CardID under the rule at
	// u.CreationDate, moving StatusPaid to StatusUsing, and writes u and
	// its MovementUse, in one statement; it sets u.ID and returns the
	// remaining value. ok is false, and nothing is written, otherwise.
	UseCard(ctx context.Context, u *Usage) (remaining decimal.Decimal, ok bool, err error)
	// UseCardUnlessWatched is UseCard, in a statement of its own, when no
	// webhook endpoint subscribes to eventType for partners (the
	// statement checks): ok is false, with nothing written, when one does
	// or the guard refuses.
	UseCardUnlessWatched(ctx context.Context, u *Usage, eventType string, partners []int64) (ok bool, err error)
	// HoldCard takes h.Amount off card h.CardID under the rule at `at`,
	// and writes h and its MovementHold, in one statement; it sets h.ID,
	// h.CreatedAt. ok is false, and nothing is written, otherwise. A
	// reservation id the card already has a hold for is a CodeInvalid
	// error on "reservation_id".
	HoldCard(ctx context.Context, h *Hold, at time.Time) (ok bool, err error)
	// Restore puts m.Amount (a released, captured or cancelled value) back
	// on card m.CardID and writes m, its ledger movement, in one
	// statement; it sets m.ID, m.BalanceAfter and m.CreatedAt.
	Restore(ctx context.Context, m *Movement) error
	// DrawCard takes -m.Amount from the card with uuid card, of currency,
	// under the rule at `at`, moving StatusPaid to StatusUsing, and
	// writes m (a MovementPayment naming m.WalletMovementID, the payment's
	// wallet movement, which the transaction writes before it commits),
	// in one statement; it sets m.ID, m.CardID and m.BalanceAfter. ok is
	// false, and nothing is written, otherwise.
	DrawCard(ctx context.Context, card uuid.UUID, currency string, m *Movement, at time.Time) (ok bool, err error)
	// AdjustCard adds m.Amount (signed) to card m.CardID's remaining value
	// if the result stays within 0 and the card's value, counting what
	// its live holds, cancellable usages and payments' draws may give
	// back, and writes m, in one statement; it sets m.ID, m.BalanceAfter
	// and m.CreatedAt. ok is false, and nothing is written, otherwise.
	AdjustCard(ctx context.Context, m *Movement) (ok bool, err error)
	// LapseHolds ends, as lapsed, up to limit holds past their expiry at
	// now (of cardID only, when not 0), restoring their amounts with
	// their MovementRelease, in one statement; it returns how many.
	LapseHolds(ctx context.Context, now time.Time, cardID int64, limit int) (int, error)
	// RefundCard gives m.Amount back to the card with uuid card, of
	// currency, if its remaining value stays within its value, and writes
	// m (a MovementRefund naming m.WalletMovementID) in one statement; as
	// DrawCard otherwise.
	RefundCard(ctx context.Context, card uuid.UUID, currency string, m *Movement) (ok bool, err error)
}

// SpendLive runs spend, a guarded spend of a card (UseCard, HoldCard,
// DrawCard); when the guard refuses it, the holds of the card (its id by
// card) past their expiry at now lapse (the sweep may not have reached
// them yet: a hold counts until its expiry only) and it runs once more.
func SpendLive(ctx context.Context, b Balances, card func() (int64, error), now time.Time, spend func() (bool, error)) (bool, error) {
	ok, err := spend()
	if err != nil || ok {
		return ok, err
	}
	id, err := card()
	if err != nil {
		return false, err
	}
	n, err := b.LapseHolds(ctx, now, id, maxLapsedPerCard)
	if err != nil || n == 0 {
		return false, err
	}
	return spend()
}

// maxLapsedPerCard bounds the holds of one card lapsed before a spend.
const maxLapsedPerCard = 1000
