package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// Payments: a customer's payment to a payment-hub partner. Its amount is
// paid by card through the provider (the pay-in) and, in part or whole,
// from an extra source wallet (a network giftcard), drawn in the payment's
// own transaction under the guard of a use. Once the pay-in succeeds the
// money is shared out: the net amount to the partner's wallet, the
// commission to the platform's (docs/DECISIONS.md, "Payments").

// Payment statuses (ok and ip are the contract's).
const (
	StatusInProgress = "ip"   // the card holder has yet to pay, or to pass 3-D Secure
	StatusPaid       = "ok"   // paid: shared out to the partner and the commission
	StatusFailed     = "fail" // the pay-in failed; the extra source was given back
)

// PaymentStatuses are the statuses a payment may have.
var PaymentStatuses = []string{StatusInProgress, StatusPaid, StatusFailed}

// PaymentTypeCard is the only payment type: a card pay-in.
const PaymentTypeCard = "credit_card"

// Transaction types and payment methods.
const (
	TransactionPayin  = "payin"
	TransactionRefund = "refund"
	MethodCard        = "credit_card"
	MethodWallet      = "wallet" // the extra source wallet
)

// Transaction statuses.
const (
	TransactionPending   = "pending"
	TransactionSucceeded = "succeeded"
	TransactionFailed    = "failed"
)

// Limits of a payment's inputs.
const (
	MaxOriginLength             = 64
	MaxProductLength            = 64
	MaxReceiptDescriptionLength = 1000
	MaxCardTokenLength          = 64
)

// MaxAmount bounds the amount of a payment, of a payment request and of
// a refund: what one customer pays at once, as a network giftcard's value
// is bounded (network.MaxCardValue). It keeps every wallet's sums within
// their columns (docs/DECISIONS.md, "Payments").
var MaxAmount = decimal.NewFromInt(1_000_000)

// MsgAmountMax is the refusal of an amount above MaxAmount.
var MsgAmountMax = fmt.Sprintf("Ensure this value is less than or equal to %s.", MaxAmount)

// checkAmount records in v what refuses amount as a payment's, a payment
// request's or a refund's (field): not above 0, or above MaxAmount.
func checkAmount(v *domain.Validator, amount decimal.Decimal, field string) {
	switch {
	case !amount.IsPositive():
		v.Add(domain.VMinValue, domain.MsgPositive, field)
	case amount.GreaterThan(MaxAmount):
		v.Add(domain.VMaxValue, MsgAmountMax, field)
	}
}

// amountOf reads the required amount field of an input (checkAmount), the
// errors in f.V; zero when it is not an amount.
func amountOf(f domain.Fields, field string, o domain.Optional[decimal.Decimal]) decimal.Decimal {
	m := f.PositiveMoney(field, o, true)
	if m == nil {
		return decimal.Zero
	}
	checkAmount(f.V, *m, field)
	return *m
}

// Payment is a payment of the payment hub.
type Payment struct {
	ID          int64 // internal; the contract's id is UUID
	UUID        uuid.UUID
	Status      string // one of PaymentStatuses
	Currency    string
	Customer    network.Customer
	Origin      string
	Product     string
	Type        string
	PartnerID   int64
	PartnerUUID uuid.UUID
	// ReferrerID is the partner's referring marketplace's id (who, beside
	// staff and the partner, sees the payment).
	ReferrerID *int64
	// Amount is what the customer pays, Discount already taken off.
	Amount, Discount      decimal.Decimal
	Commission, NetAmount decimal.Decimal
	// The extra source: ExtraSourceAmount from the wallet, the rest
	// (PayinAmount) by card.
	ExtraSourceAmount     decimal.Decimal
	ExtraSourceWalletID   *int64
	ExtraSourceWalletUUID *uuid.UUID
	PayinAmount           decimal.Decimal
	// Refunds: given back in all and by source (RefundedAmount is their
	// sum), and reserved by refunds under way.
	RefundedAmount      decimal.Decimal
	RefundedExtraSource decimal.Decimal
	RefundedPayin       decimal.Decimal
	RefundedCommission  decimal.Decimal
	ReservedExtraSource decimal.Decimal
	ReservedPayin       decimal.Decimal
	ReservedCommission  decimal.Decimal
	// The pay-in at the provider.
	PayinProvider      string
	PayinRef           string
	PayinStatus        string // one of the Payin statuses; "" before the provider answered
	PayinURL           string // where the card holder goes while the payment is in progress
	PayinResultCode    string
	PayinResultMessage string
	ReceiptDescription string
	FreezePayoutDate   *time.Time
	PaidOn             *time.Time
	Payout             *PayoutRef // nil: in no payout request
	PaymentRequestID   *int64
	// InvoicingMarketplaceID is who the payment is paid out to when it is
	// not its partner (a refill's invoicing marketplace); nil: its partner.
	InvoicingMarketplaceID *int64
	CreatedByUserID        *int64
	CreatedOn              time.Time
	ModifiedOn             time.Time
}

// PayeeID is who the payment's net amount goes to, and is paid out to:
// its invoicing marketplace when it has one, else its partner.
func (p *Payment) PayeeID() int64 {
	if p.InvoicingMarketplaceID != nil {
		return *p.InvoicingMarketplaceID
	}
	return p.PartnerID
}

// PayoutRef is what a payment shows of its payout request.
type PayoutRef struct {
	ID             int64
	Status         string
	CreationDate   time.Time
	ValidationDate *time.Time
}

// Refundable is what may still be refunded of a paid payment: its amount
// less what was refunded and what refunds under way reserved.
func (p *Payment) Refundable() decimal.Decimal {
	return p.extraLeft().Add(p.payinLeft())
}

// extraLeft and payinLeft are what may still be refunded to each source;
// commissionLeft what of the commission may still be given back.
func (p *Payment) extraLeft() decimal.Decimal {
	return p.ExtraSourceAmount.Sub(p.RefundedExtraSource).Sub(p.ReservedExtraSource)
}

func (p *Payment) payinLeft() decimal.Decimal {
	return p.PayinAmount.Sub(p.RefundedPayin).Sub(p.ReservedPayin)
}

func (p *Payment) commissionLeft() decimal.Decimal {
	return p.Commission.Sub(p.RefundedCommission).Sub(p.ReservedCommission)
}

// Transaction is one money event of a payment: its pay-in by card,
// its draw from the extra source wallet, or one of its refunds.
type Transaction struct {
	ID            int64
	PaymentID     int64
	RefundID      *int64
	CreatedOn     time.Time
	Type          string // TransactionPayin or TransactionRefund
	PaymentMethod string // MethodCard or MethodWallet
	Status        string // one of the Transaction statuses
	Amount        decimal.Decimal
	Commission    decimal.Decimal
	NetAmount     decimal.Decimal
	Currency      string
	// Of the payment, for the record.
	PartnerID   int64
	PaymentUUID uuid.UUID
	Customer    network.Customer
}

// PaymentFilter narrows the payments list. Zero fields do not
// narrow it.
type PaymentFilter struct {
	// Tenant: the caller's partner (its own payments and those of the
	// partners it refers); nil for staff.
	Tenant                *int64
	PartnerUUID           *uuid.UUID
	CreatedFrom           *time.Time // created_on on or after
	CreatedBefore         *time.Time // created_on before (the day after created_on__lte)
	Statuses              []string
	PayoutRequestStatuses []string
	CustomerFirstName     string // equal, case-insensitive
	CustomerLastName      string
	CustomerEmail         string
	PartiallyRefunded     bool // refunded, not fully
	FullyRefunded         bool
	PaymentRequestID      *int64
	PayoutRequestID       *int64
}

// PaymentStore reads and writes payments, their transactions and refunds.
type PaymentStore interface {
	// CreatePayment writes p and sets ID, CreatedOn and ModifiedOn.
	CreatePayment(ctx context.Context, p *Payment) error
	// FindPayment returns the payment with that uuid, with its partner's
	// uuid and referrer and its payout; with lock, its row is locked (FOR
	// UPDATE) until the transaction ends.
	// Errors: domain.ErrNotFound.
	FindPayment(ctx context.Context, id uuid.UUID, lock bool) (*Payment, error)
	// PaymentsByUUID returns the payments with those uuids as FindPayment
	// does, in ids order, nil for an unknown one.
	PaymentsByUUID(ctx context.Context, ids []uuid.UUID) ([]*Payment, error)
	// PaymentByPayinRef returns the uuid of the payment whose pay-in the
	// provider knows as ref.
	// Errors: domain.ErrNotFound.
	PaymentByPayinRef(ctx context.Context, provider, ref string) (uuid.UUID, error)
	// SavePayment writes p's Status, its Payin fields, PaidOn,
	// FreezePayoutDate and its refund amounts, and sets ModifiedOn.
	SavePayment(ctx context.Context, p *Payment) error
	// ListPayments returns a page of the payments f selects, newest
	// first, and how many it selects.
	ListPayments(ctx context.Context, f PaymentFilter, page domain.PageRequest) ([]*Payment, int, error)
	// AddTransaction writes t and sets ID and CreatedOn.
	AddTransaction(ctx context.Context, t *Transaction) error
	// SetPayinTransactions sets the status of the payment's pay-in
	// transactions.
	SetPayinTransactions(ctx context.Context, paymentID int64, status string) error
	// TransactionsOfPayments returns the transactions of each payment of
	// ps (nil entries have none), in ps order, each payment's oldest
	// first: a payment has at most its two pay-ins and a transaction a
	// refund (MaxRefundsPerPayment).
	TransactionsOfPayments(ctx context.Context, ps []*Payment) ([][]*Transaction, error)
	// CardAccepted reports whether the network giftcards of marketplace
	// are accepted by partner: it is the marketplace, or an active partner
	// of its network.
	CardAccepted(ctx context.Context, partnerID, marketplaceID int64) (bool, error)
	// CreateRefund writes r and sets ID and CreatedOn.
	CreateRefund(ctx context.Context, r *Refund) error
	// FindRefund returns the refund with that uuid.
	// Errors: domain.ErrNotFound.
	FindRefund(ctx context.Context, id uuid.UUID) (*Refund, error)
	// CountRefunds returns how many refunds the payment has.
	CountRefunds(ctx context.Context, paymentID int64) (int, error)
	// AddAudit appends e to the payment hub's audit trail.
	AddAudit(ctx context.Context, e *HubAuditEntry) error
	// FinishRefund writes r's Status, result and FinishedOn.
	FinishRefund(ctx context.Context, r *Refund) error
	// RefundsOfPayments returns the refunds of each of the payments with
	// those ids, in ids order, each payment's oldest first (at most
	// MaxRefundsPerPayment a payment).
	RefundsOfPayments(ctx context.Context, ids []int64) ([][]*Refund, error)
	// PendingRefunds returns the refunds still pending that were asked for
	// before, oldest first, at most limit.
	PendingRefunds(ctx context.Context, before time.Time, limit int) ([]*Refund, error)
	// StalePayments returns the uuids of the payments still in progress
	// that were last written before, least recently written first, at
	// most limit.
	StalePayments(ctx context.Context, before time.Time, limit int) ([]uuid.UUID, error)
}
