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
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/notify"
)

// Network giftcard statuses a card can be used in.
const (
	StatusPaid  = "paid"
	StatusUsing = "using"
)

// Ledger movement kinds.
const (
	MovementIssue  = "issue"  // the card's value, when it is created
	MovementUse    = "use"    // a usage: negative
	MovementCancel = "cancel" // a cancelled usage's value back: positive
)

// Card is what a use checks of a network giftcard.
type Card struct {
	ID             int64
	MarketplaceID  int64
	Status         string
	IsActive       bool
	Value          decimal.Decimal
	RemainingValue decimal.Decimal
	CreationDate   time.Time
	ActivationDate *time.Time
	ExpirationDate *time.Time
}

// Usage is a use of a card at a partner of its marketplace's network.
type Usage struct {
	ID               int64
	CardID           int64
	MarketplaceID    int64 // the card's
	PartnerID        int64
	Value            decimal.Decimal
	IsActive         bool // false once cancelled
	Comment          string
	ReservationID    string
	CreationDate     time.Time
	FreezePayoutDate *time.Time
	PayoutID         *int64 // the payout it counts in; then it cannot be cancelled
}

// Movement is one change of a card's remaining value.
type Movement struct {
	CardID        int64
	Kind          string
	Amount        decimal.Decimal // signed
	BalanceAfter  decimal.Decimal
	UsageID       *int64
	PartnerID     *int64
	ReservationID string
	Comment       string
}

// GiftcardStore reads and writes network giftcards, their usages and
// their ledger.
type GiftcardStore interface {
	// FindCardByCode returns the card with that code (case-insensitive);
	// domain.ErrNotFound when there is none.
	FindCardByCode(ctx context.Context, code string) (*Card, error)
	// IsNetworkPartner reports whether partner is in marketplace's network.
	IsNetworkPartner(ctx context.Context, marketplace, partner int64) (bool, error)
	// UseCard takes u.Value from card u.CardID if it holds that much and
	// is usable (StatusPaid or StatusUsing, active), moving StatusPaid to
	// StatusUsing, and writes u and its MovementUse, in one statement (the
	// card's row is locked for no longer); it sets u.ID and returns the
	// remaining value. ok is false, and nothing is written, otherwise.
	UseCard(ctx context.Context, u *Usage) (remaining decimal.Decimal, ok bool, err error)
	// Restore puts value back on the card and returns its remaining value.
	Restore(ctx context.Context, cardID int64, value decimal.Decimal) (decimal.Decimal, error)
	// DeactivateUsage marks the usage inactive if it is active and in no
	// payout, and returns it; done reports whether it changed. A tenant
	// limits it to the usages of that marketplace's cards.
	// domain.ErrNotFound when no usage (of the tenant) has that id.
	DeactivateUsage(ctx context.Context, id int64, tenant *int64) (u *Usage, done bool, err error)
	// AddMovement appends m to its card's ledger.
	AddMovement(ctx context.Context, m *Movement) error
}

// Stores are the stores GiftcardService needs.
type Stores struct {
	Giftcards GiftcardStore
	// Outbox queues the mails of a change in its transaction.
	Outbox notify.Outbox
}

// GiftcardService uses network giftcards.
type GiftcardService struct {
	uow domain.UnitOfWork[Stores]
}

// NewGiftcardService returns the service.
func NewGiftcardService(uow domain.UnitOfWork[Stores]) *GiftcardService {
	return &GiftcardService{uow: uow}
}

// UseInput is a use of a card at a partner.
type UseInput struct {
	Code             string
	PartnerID        int64
	Value            decimal.Decimal
	CreationDate     time.Time
	Comment          string
	ReservationID    string
	FreezePayoutDate *time.Time
}

// Messages of refused uses and cancels.
const (
	MsgValuePositive   = "Ensure this value is greater than 0."
	MsgValueDecimals   = "Ensure that there are no more than 2 decimal places."
	MsgCardNotUsable   = "This giftcard cannot be used: it is not paid, or not active."
	MsgCardDates       = "This giftcard cannot be used on this date."
	MsgNotNetwork      = "This partner is not in the giftcard's marketplace network."
	MsgUsageInPayout   = "This usage is already in a payout: it cannot be cancelled."
	msgRemainingFormat = "The remaining value of this giftcard is %s."
)

// Use spends in.Value of the card with in.Code at in.PartnerID, in one
// transaction: the checks, then the guarded spend with the usage and its
// ledger movement (UseCard). The caller is the card's marketplace, or staff.
// Concurrent uses of one card cannot take more than it holds.
// Errors: those of Authorize(OpNetworkGiftcardUse); CodeNotFound for an
// unknown code or another marketplace's card; CodeInvalid on "value" (not
// positive, more than two decimals, more than the card holds: the message
// names the remaining value), on "partner" (not in the card's marketplace
// network), on "creation_date" (outside the card's dates) or on the card
// (CodeConflict: not paid or using, or inactive).
func (s *GiftcardService) Use(ctx context.Context, in UseInput) (*Usage, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse)
	if err != nil {
		return nil, err
	}
	switch {
	case !in.Value.IsPositive():
		return nil, fieldError("value", domain.VMinValue, MsgValuePositive)
	case !in.Value.Equal(in.Value.Round(2)):
		return nil, fieldError("value", domain.VMaxDecimals, MsgValueDecimals)
	}
	var usage *Usage
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		card, err := tx.Giftcards.FindCardByCode(ctx, in.Code)
		if err != nil {
			return err
		}
		if !c.Sees(card.MarketplaceID) {
			return domain.ErrNotFound
		}
		if !usable(card) {
			return &domain.Error{Code: domain.CodeConflict, Message: MsgCardNotUsable}
		}
		if !inDates(card, in.CreationDate) {
			return fieldError("creation_date", domain.VInvalid, MsgCardDates)
		}
		member, err := tx.Giftcards.IsNetworkPartner(ctx, card.MarketplaceID, in.PartnerID)
		if err != nil {
			return err
		}
		if !member {
			return fieldError("partner", domain.VNotFound, MsgNotNetwork)
		}
		usage = &Usage{CardID: card.ID, MarketplaceID: card.MarketplaceID, PartnerID: in.PartnerID, Value: in.Value, IsActive: true, Comment: in.Comment,
			ReservationID: in.ReservationID, CreationDate: in.CreationDate, FreezePayoutDate: in.FreezePayoutDate}
		_, ok, err := tx.Giftcards.UseCard(ctx, usage)
		if err != nil {
			return err
		}
		if !ok {
			// Refused by the guard: read what the card holds now.
			now, err := tx.Giftcards.FindCardByCode(ctx, in.Code)
			if err != nil {
				return err
			}
			if !usable(now) {
				return &domain.Error{Code: domain.CodeConflict, Message: MsgCardNotUsable}
			}
			return fieldError("value", domain.VMaxValue, fmt.Sprintf(msgRemainingFormat, now.RemainingValue.StringFixed(2)))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return usage, nil
}

// CancelUsage marks the usage inactive and puts its value back on its
// card, with a ledger movement, in one transaction. A usage already
// cancelled is answered as it is: nothing is restored twice. The caller is
// the card's marketplace, or staff.
// Errors: those of Authorize(OpNetworkGiftcardUse); CodeNotFound for an
// unknown usage or another marketplace's; CodeConflict (MsgUsageInPayout)
// for one in a payout.
func (s *GiftcardService) CancelUsage(ctx context.Context, id int64, comment string) (*Usage, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardUse)
	if err != nil {
		return nil, err
	}
	var usage *Usage
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
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
		remaining, err := tx.Giftcards.Restore(ctx, u.CardID, u.Value)
		if err != nil {
			return err
		}
		return tx.Giftcards.AddMovement(ctx, &Movement{CardID: u.CardID, Kind: MovementCancel, Amount: u.Value,
			BalanceAfter: remaining, UsageID: &u.ID, PartnerID: &u.PartnerID, ReservationID: u.ReservationID, Comment: comment})
	})
	if err != nil {
		return nil, err
	}
	return usage, nil
}

func usable(c *Card) bool {
	return c.IsActive && (c.Status == StatusPaid || c.Status == StatusUsing)
}

// inDates reports whether a use dated at falls within the card's life:
// activation_date <= at <= expiration_date, where the card has them.
func inDates(c *Card, at time.Time) bool {
	return (c.ActivationDate == nil || !at.Before(*c.ActivationDate)) &&
		(c.ExpirationDate == nil || !at.After(*c.ExpirationDate))
}

func fieldError(field, code, msg string) error {
	return &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.",
		Fields: []domain.FieldError{{Path: []any{field}, Code: code, Message: msg}}}
}
