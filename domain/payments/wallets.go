package payments

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// Wallets, in double entry: every movement debits one wallet and credits
// another by the same amount in one currency, so the wallets of a currency
// sum to zero at all times. A balance changes only in the statement that
// writes its movement; a guarded wallet (all but payin) is debited only if
// it holds the amount, so concurrent debits cannot take it below zero.
//
// A network giftcard is a wallet whose uuid is the card's and whose balance
// is the card's remaining value, the network area's: a draw from it, or a
// refund to it, is one movement of the card's ledger written by the network
// area's port (network.Balances, under the rule of every spend,
// network.(*Card).SpendRefusal) in the transaction of the wallet movement
// (docs/DECISIONS.md, "Wallets"). This area never reads or writes the
// card's tables (card_wallets.go).
//
// These functions run in the caller's transaction (tx, the stores of its
// unit of work): a payment's movements commit with the payment. A
// transaction that moves more than once calls LockWallets first.

// Wallet kinds: whose value a wallet holds.
const (
	WalletPartner         = "partner"          // a payment-hub partner's, one per currency
	WalletNetworkGiftcard = "network_giftcard" // a card's: its balance is the card's remaining value
	// The platform's own accounts, one of each per currency.
	WalletPayin         = "payin"          // the outside's side of what customers pay in through the provider, and of what goes back through it
	WalletPayinClearing = "payin_clearing" // a payment's money until it is shared between its partner and the commission
	WalletCommission    = "commission"     // the platform's commissions
	WalletPayouts       = "payouts"        // what was paid out to partners
)

// PlatformKinds are the kinds of the platform's own accounts.
var PlatformKinds = []string{WalletPayin, WalletPayinClearing, WalletCommission, WalletPayouts}

// Guarded reports whether a wallet of kind may not go below zero: every
// kind but payin, whose balance is minus what came in from outside.
func Guarded(kind string) bool { return kind != WalletPayin }

// Movement types.
const (
	MovePayin       = "payin"        // payin → clearing: what a customer paid through the provider
	MoveExtraSource = "extra_source" // a payment's extra source wallet (a network giftcard) → clearing
	MoveTransfer    = "transfer"     // clearing → the partner: a payment's net amount
	MoveCommission  = "commission"   // clearing → commission
	MoveRefund      = "refund"       // a refund's movements, back the way the money came
	MovePayout      = "payout"       // the partner → payouts
	MoveAdjustment  = "adjustment"   // staff's correction, with its reason
)

var moveTypes = []string{MovePayin, MoveExtraSource, MoveTransfer, MoveCommission, MoveRefund, MovePayout, MoveAdjustment}

// MovementSucceeded is the status of every movement: one is written when
// it happens, in its transaction, and a refused one writes nothing.
const MovementSucceeded = "succeeded"

// maxWholeDigits limits a movement's amount's digits before the point
// (NUMERIC(38,2), as balances: a payout moves a partner's sums); its
// reason is at most MaxReasonLength. A payment's movements are far below
// it (MaxAmount).
const maxWholeDigits = 36

var maxAmount = decimal.New(1, maxWholeDigits)

// Wallet is an account of the payment hub.
type Wallet struct {
	// ID is 0 for a card's wallet not yet opened (LockWallets, or its first
	// movement, opens it).
	ID        int64
	UUID      uuid.UUID
	Kind      string
	PartnerID *int64 // a partner's wallet's
	Currency  string
	// Balance is a card's remaining value for a card's wallet.
	Balance   decimal.Decimal
	CreatedAt time.Time
	Card      *network.Card // a card's wallet's: the card's balance view
}

// Movement is one movement of value between two wallets.
type Movement struct {
	ID          int64
	UUID        uuid.UUID
	CreatedOn   time.Time
	Amount      decimal.Decimal // above 0
	Currency    string
	Status      string
	Type        string
	PaymentUUID *uuid.UUID
	Debited     uuid.UUID // the wallet it takes from
	Credited    uuid.UUID // the wallet it gives to
	Reason      string
	ActorID     *int64 // the user whose call made it; nil for the platform's own
}

// WalletStore reads and writes the wallets and their movements.
type WalletStore interface {
	// Wallet returns the wallet with that uuid, or the wallet of the
	// network giftcard with that uuid (ID 0 when not opened);
	// domain.ErrNotFound when there is neither.
	Wallet(ctx context.Context, id uuid.UUID) (*Wallet, error)
	// OpenWallet returns the platform's account of kind in currency, or
	// the partner's wallet when kind is WalletPartner, created empty when
	// there is none. domain.ErrNotFound when the partner does not exist.
	OpenWallet(ctx context.Context, kind string, partnerID int64, currency string) (*Wallet, error)
	// OpenCardWallet writes the row of the card's wallet w, if it has
	// none yet, and sets w.ID and w.CreatedAt.
	OpenCardWallet(ctx context.Context, w *Wallet) error
	// Lock locks, until the transaction ends, the wallets with those
	// uuids by id, then the cards with those uuids by id (LockCards): the
	// order every movement takes its locks in.
	Lock(ctx context.Context, ids []uuid.UUID) error
	// Transfer writes m between two wallets with balances, of m.Currency,
	// debiting m.Debited only if it holds m.Amount or is not Guarded, in
	// one statement that locks both in the order of Lock; it sets m.ID,
	// m.UUID, m.CreatedOn and m.Status. ok is false, and nothing is
	// written, when the debit is refused.
	Transfer(ctx context.Context, m *Movement) (ok bool, err error)
	// DrawFromCard writes m from the opened wallet of a card, taking
	// m.Amount from the card under the rule of every spend at `at`
	// (network.Balances' DrawCard), with the card's MovementPayment, in
	// the transaction of m; as Transfer otherwise.
	DrawFromCard(ctx context.Context, m *Movement, at time.Time) (ok bool, err error)
	// RefundToCard writes m to the opened wallet of a card, giving the
	// card m.Amount back if its remaining value stays within its value
	// (network.Balances' RefundCard) and the debited wallet may give it,
	// with the card's MovementRefund, in the transaction of m; as
	// Transfer otherwise.
	RefundToCard(ctx context.Context, m *Movement) (ok bool, err error)
	// MovementsOfWallet returns a page of the movements that debit or
	// credit the wallet, oldest first, and how many there are.
	MovementsOfWallet(ctx context.Context, id uuid.UUID, page domain.PageRequest) ([]*Movement, int, error)
}

// MoveInput is a movement of Amount from the wallet From to the wallet To.
type MoveInput struct {
	From, To    uuid.UUID
	Amount      decimal.Decimal
	Type        string
	PaymentUUID *uuid.UUID
	Reason      string
	ActorID     int64 // 0: the platform's own
	// At is when a card is drawn from, for its dates; now when zero.
	At time.Time
	// Field is the caller's input field the amount came from, which the
	// errors on the amount name ("amount" when empty).
	Field string
}

// Messages of refused movements.
const (
	MsgSameWallet     = "A movement debits one wallet and credits another."
	MsgCurrencies     = "These wallets are not of the same currency."
	MsgCardToCard     = "A movement cannot go from one network giftcard to another."
	MsgNotACard       = "This wallet is not a network giftcard's."
	MsgMovementFailed = "This movement could not be made; try again."
	msgBalanceFormat  = "The balance of this wallet is %s."
	msgRemaining      = "The remaining value of this giftcard is %s."
	msgNotSplittable  = "This giftcard is not splittable: a payment spends its whole remaining value, %s."
	msgCardRoom       = "This giftcard can take back at most %s."
	msgWholeDigits    = "Ensure that there are no more than %d digits before the decimal point."
	msgChoice         = "%q is not a valid choice."
)

var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// check checks what a movement's input says on its own.
func (in *MoveInput) check() error {
	var v domain.Validator
	field := in.field()
	switch {
	case !in.Amount.IsPositive():
		v.Add(domain.VMinValue, domain.MsgPositive, field)
	case !in.Amount.Equal(in.Amount.Round(2)):
		v.Add(domain.VMaxDecimals, network.MsgValueDecimals, field)
	case !in.Amount.LessThan(maxAmount):
		v.Add(domain.VMaxWholeDigits, fmt.Sprintf(msgWholeDigits, maxWholeDigits), field)
	}
	if !slices.Contains(moveTypes, in.Type) {
		v.Add(domain.VInvalid, fmt.Sprintf(msgChoice, in.Type), "type")
	}
	v.PlainText(in.Reason, MaxReasonLength, []any{"reason"})
	if in.From == in.To {
		v.Add(domain.VInvalid, MsgSameWallet, "non_field_errors")
	}
	return v.Err()
}

func (in *MoveInput) field() string {
	if in.Field == "" {
		return "amount"
	}
	return in.Field
}

// Transfer moves in.Amount from the wallet in.From to the wallet in.To
// in the caller's transaction tx: one movement, under the guard of the
// debited wallet. A network giftcard's wallet on either side is drawn from
// (DrawFromGiftcard) or given back to (RefundToGiftcard). The caller
// checks who may move what: this is the ledger's own rule only.
// Errors: CodeInvalid on the amount (in.Field: not above 0, more than two
// decimals, too large, more than the debited wallet holds, more than a
// card may take back), on "type" (unknown), "reason" (too long) or
// non_field_errors (one wallet on both sides, or two cards); CodeConflict
// for wallets of two currencies, or a card that cannot be used (not paid
// or using, inactive, or outside its dates at in.At); domain.ErrNotFound
// for an unknown wallet.
func Transfer(ctx context.Context, tx Stores, in MoveInput) (*Movement, error) {
	return move(ctx, tx, in, nil)
}

// DrawFromGiftcard is Transfer from a network giftcard's wallet (in.From):
// a payment's extra source. It is the card's MovementPayment, under the
// guard of a use, and the wallet movement, in one statement.
// Errors: those of Transfer; CodeConflict (MsgNotACard) when in.From is
// not a card's wallet.
func DrawFromGiftcard(ctx context.Context, tx Stores, in MoveInput) (*Movement, error) {
	return move(ctx, tx, in, func(from, _ *Wallet) error { return wantCard(from) })
}

// RefundToGiftcard is Transfer to a network giftcard's wallet (in.To):
// value given back, never above the card's value. The caller checks that
// it gives back no more than its payment drew.
// Errors: those of Transfer; CodeConflict (MsgNotACard) when in.To is not
// a card's wallet.
func RefundToGiftcard(ctx context.Context, tx Stores, in MoveInput) (*Movement, error) {
	return move(ctx, tx, in, func(_, to *Wallet) error { return wantCard(to) })
}

func wantCard(w *Wallet) error {
	if w.Kind != WalletNetworkGiftcard {
		return &domain.Error{Code: domain.CodeConflict, Message: MsgNotACard}
	}
	return nil
}

// move checks in, reads both wallets, checks them with want (when set),
// and writes the movement by the statement of their kinds.
func move(ctx context.Context, tx Stores, in MoveInput, want func(from, to *Wallet) error) (*Movement, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	from, err := tx.Wallets.Wallet(ctx, in.From)
	if err != nil {
		return nil, err
	}
	to, err := tx.Wallets.Wallet(ctx, in.To)
	if err != nil {
		return nil, err
	}
	if want != nil {
		if err := want(from, to); err != nil {
			return nil, err
		}
	}
	fromCard, toCard := from.Kind == WalletNetworkGiftcard, to.Kind == WalletNetworkGiftcard
	switch {
	case fromCard && toCard:
		return nil, fieldError("non_field_errors", domain.VInvalid, MsgCardToCard)
	case from.Currency != to.Currency:
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgCurrencies}
	}
	m := &Movement{Amount: in.Amount, Currency: from.Currency, Type: in.Type, PaymentUUID: in.PaymentUUID,
		Debited: from.UUID, Credited: to.UUID, Reason: in.Reason}
	if in.ActorID != 0 {
		m.ActorID = &in.ActorID
	}
	at := in.At
	if at.IsZero() {
		at = time.Now()
	}
	var ok bool
	switch {
	case fromCard:
		if err := openCard(ctx, tx, from); err != nil {
			return nil, err
		}
		ok, err = tx.Wallets.DrawFromCard(ctx, m, at)
	case toCard:
		if err := openCard(ctx, tx, to); err != nil {
			return nil, err
		}
		ok, err = tx.Wallets.RefundToCard(ctx, m)
	default:
		ok, err = tx.Wallets.Transfer(ctx, m)
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, refused(ctx, tx, &in, at, fromCard, toCard)
	}
	return m, nil
}

func openCard(ctx context.Context, tx Stores, w *Wallet) error {
	if w.ID != 0 {
		return nil
	}
	return tx.Wallets.OpenCardWallet(ctx, w)
}

// refused explains a refused movement from the wallets as they are now,
// in the transaction that was refused.
func refused(ctx context.Context, tx Stores, in *MoveInput, at time.Time, fromCard, toCard bool) error {
	from, err := tx.Wallets.Wallet(ctx, in.From)
	if err != nil {
		return err
	}
	to, err := tx.Wallets.Wallet(ctx, in.To)
	if err != nil {
		return err
	}
	field := in.field()
	refusal := network.Spendable
	if fromCard {
		refusal = from.Card.SpendRefusal(in.Amount, at)
	}
	switch refusal {
	case network.RefusedNotUsable:
		return &domain.Error{Code: domain.CodeConflict, Message: network.MsgCardNotUsable}
	case network.RefusedDates:
		return &domain.Error{Code: domain.CodeConflict, Message: network.MsgCardDates}
	case network.RefusedNotSplittable:
		return fieldError(field, domain.VInvalid, fmt.Sprintf(msgNotSplittable, from.Balance.StringFixed(2)))
	case network.RefusedBalance:
		return fieldError(field, domain.VInvalid, fmt.Sprintf(msgRemaining, from.Balance.StringFixed(2)))
	}
	switch {
	case toCard && to.Balance.Add(in.Amount).GreaterThan(to.Card.Value):
		room := decimal.Max(to.Card.Value.Sub(to.Balance), decimal.Zero)
		return fieldError(field, domain.VInvalid, fmt.Sprintf(msgCardRoom, room.StringFixed(2)))
	case !fromCard && Guarded(from.Kind) && from.Balance.LessThan(in.Amount):
		return fieldError(field, domain.VInvalid, fmt.Sprintf(msgBalanceFormat, from.Balance.StringFixed(2)))
	}
	// Nothing left to explain it: the store refused what it no longer
	// refuses (it cannot, within one transaction).
	return &domain.Error{Code: domain.CodeConflict, Message: MsgMovementFailed}
}

func fieldError(field, code, msg string) error {
	return &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.",
		Fields: []domain.FieldError{{Path: []any{field}, Code: code, Message: msg}}}
}

// LockWallets opens the cards' wallets among ids and locks every wallet
// and card named, in the order every movement takes its locks in (wallets
// by id, then cards by id), until tx ends: a transaction that moves more
// than once (a payment: its pay-in, its extra source, its net amount and
// commission) calls it first with every wallet it will move, so that two
// such transactions cannot deadlock.
// Errors: domain.ErrNotFound for an unknown wallet.
func LockWallets(ctx context.Context, tx Stores, ids ...uuid.UUID) error {
	for _, id := range ids {
		w, err := tx.Wallets.Wallet(ctx, id)
		if err != nil {
			return err
		}
		if w.Kind == WalletNetworkGiftcard {
			if err := openCard(ctx, tx, w); err != nil {
				return err
			}
		}
	}
	return tx.Wallets.Lock(ctx, ids)
}

// Balance returns the balance of the wallet with that uuid: a card's
// remaining value for a card's wallet.
// Errors: domain.ErrNotFound.
func Balance(ctx context.Context, tx Stores, id uuid.UUID) (decimal.Decimal, error) {
	w, err := tx.Wallets.Wallet(ctx, id)
	if err != nil {
		return decimal.Zero, err
	}
	return w.Balance, nil
}

// PartnerWallet returns the partner's wallet in currency, created empty
// when it has none.
// Errors: CodeInvalid on "currency" (not three capitals);
// domain.ErrNotFound for an unknown partner.
func PartnerWallet(ctx context.Context, tx Stores, partnerID int64, currency string) (*Wallet, error) {
	if !currencyCode.MatchString(currency) {
		return nil, fieldError("currency", domain.VInvalid, fmt.Sprintf(msgChoice, currency))
	}
	return tx.Wallets.OpenWallet(ctx, WalletPartner, partnerID, currency)
}

// PlatformWallet returns the platform's account of kind (PlatformKinds)
// in currency, created empty when there is none.
// Errors: CodeInvalid on "kind" or "currency".
func PlatformWallet(ctx context.Context, tx Stores, kind, currency string) (*Wallet, error) {
	switch {
	case !slices.Contains(PlatformKinds, kind):
		return nil, fieldError("kind", domain.VInvalid, fmt.Sprintf(msgChoice, kind))
	case !currencyCode.MatchString(currency):
		return nil, fieldError("currency", domain.VInvalid, fmt.Sprintf(msgChoice, currency))
	}
	return tx.Wallets.OpenWallet(ctx, kind, 0, currency)
}

// Movements returns a numbered page of the movements of the wallet with
// that uuid, oldest first (a page once read stays as it was: movements
// only append).
// Errors: domain.ErrNotFound for an unknown wallet; CodeNotFound past the
// last page.
func Movements(ctx context.Context, tx Stores, id uuid.UUID, page domain.PageRequest) (*domain.Page[*Movement], error) {
	if _, err := tx.Wallets.Wallet(ctx, id); err != nil {
		return nil, err
	}
	ms, count, err := tx.Wallets.MovementsOfWallet(ctx, id, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(ms, count, page)
}
