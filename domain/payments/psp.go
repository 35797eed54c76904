package payments

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Provider is what the payment hub needs of a payment-service provider
// (PSP): to activate a partner's payments (the provider verifies the
// legal representative's identity on a page of its own), to charge a
// card, to read a charge back by the hub's payment id and to refund a
// charge. Every call names the hub's record with a
// RequestID, so that a repeat of a call (a retry after a timeout) returns
// the provider's first answer instead of acting twice.
//
// The built-in provider is the simulated one (persistence/psp), whose
// outcomes tests script (docs/DECISIONS.md, "Payment-hub partners").
// Errors: a provider that cannot be reached or answers an error returns
// an error that is not a *domain.Error (the hub answers 500 and nothing of
// the hub is written), or domain.ErrUnavailable.
type Provider interface {
	// Name names the provider in the hub's records (its references are
	// unique per provider).
	Name() string
	// PageOrigin is the origin ("https://host[:port]") of the provider's
	// pages the hub sends people to ("" for this service's own address):
	// the pay page's form is redirected there.
	PageOrigin() string
	// StartActivation starts the activation of a partner's payments: the
	// result's status is ActivationPendingUserAction, with the URL of the
	// page where the legal representative verifies their identity.
	StartActivation(ctx context.Context, in ActivationRequest) (*ProviderActivation, error)
	// Activation reads an activation by the provider's reference.
	// Errors: domain.ErrNotFound for an unknown reference.
	Activation(ctx context.Context, ref string) (*ProviderActivation, error)
	// Charge charges a card (a pay-in). A refusal is a result (status
	// PayinFailed, with the provider's code and message), not an error.
	Charge(ctx context.Context, in ChargeRequest) (*Payin, error)
	// Payin reads a pay-in by the provider's reference (after a 3-D Secure
	// challenge, its status has moved on).
	// Errors: domain.ErrNotFound for an unknown reference.
	Payin(ctx context.Context, ref string) (*Payin, error)
	// PayinOf reads the pay-in a Charge with that RequestID started (the
	// hub's payment id): how the hub learns the outcome of a charge whose
	// answer it could not record.
	// Errors: domain.ErrNotFound when no charge named it.
	PayinOf(ctx context.Context, requestID uuid.UUID) (*Payin, error)
	// Refund gives back part or all of a succeeded pay-in. A refusal is a
	// result (status RefundFailed), not an error.
	// Errors: domain.ErrNotFound for an unknown pay-in.
	Refund(ctx context.Context, in RefundRequest) (*ProviderRefund, error)
}

// Statuses of an activation at the provider (PENDING_USER_ACTION is the
// contract's; the others are this service's).
const (
	ActivationPendingUserAction = "PENDING_USER_ACTION"
	ActivationCompleted         = "COMPLETED" // identity verified: the partner may take payments
	ActivationRefused           = "REFUSED"   // the verification failed: a new activation may start
)

// ActivationRequest is what a provider is told of the partner whose
// payments it activates.
type ActivationRequest struct {
	RequestID                    uuid.UUID // the hub's activation id
	PartnerUUID                  uuid.UUID
	CommercialName               string
	LegalRepresentativeFirstName string
	LegalRepresentativeLastName  string
	LegalRepresentativeEmail     string
	LegalRepresentativeBirthday  *time.Time
	Country                      string
}

// ProviderActivation is an activation as the provider has it.
type ProviderActivation struct {
	Ref           string
	Status        string // one of the Activation statuses
	UserActionURL string // the legal representative's page
	CompletedOn   *time.Time
}

// Statuses of a pay-in.
const (
	PayinSucceeded = "SUCCEEDED"
	PayinFailed    = "FAILED"
	// PayinPending3DS: the card holder must pass a 3-D Secure challenge
	// on the provider's page (UserActionURL); the pay-in then succeeds or
	// fails.
	PayinPending3DS = "PENDING_3DS"
	// PayinPendingCard: the pay-in was started without a card; the card
	// holder types it on the provider's page (UserActionURL).
	PayinPendingCard = "PENDING_CARD"
)

// ChargeRequest is a card pay-in.
type ChargeRequest struct {
	RequestID uuid.UUID // the hub's payment id
	Amount    decimal.Decimal
	Currency  string // ISO 4217
	// Card is the provider's card token (with the simulated provider, a
	// card number); "" starts a pay-in the card holder pays on the
	// provider's page.
	Card        string
	Description string
	// ReturnURL is where the provider's pages send the card holder once
	// the pay-in has ended ("": they stay on the provider's page).
	ReturnURL string
}

// Payin is a pay-in as the provider has it: what the hub stores of it.
type Payin struct {
	Ref            string
	Status         string // one of the Payin statuses
	ResultCode     string // the provider's code of the outcome ("000000" on success)
	ResultMessage  string
	Amount         decimal.Decimal
	Currency       string
	RefundedAmount decimal.Decimal
	UserActionURL  string // the 3-D Secure page while PayinPending3DS
}

// Statuses of a refund.
const (
	RefundSucceeded = "SUCCEEDED"
	RefundFailed    = "FAILED"
)

// RefundRequest refunds Amount of the pay-in PayinRef.
type RefundRequest struct {
	RequestID uuid.UUID // the hub's refund id
	PayinRef  string
	Amount    decimal.Decimal
}

// ProviderRefund is a refund as the provider has it.
type ProviderRefund struct {
	Ref           string
	Status        string // one of the Refund statuses
	ResultCode    string
	ResultMessage string
	Amount        decimal.Decimal
}
