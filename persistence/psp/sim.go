// Package psp holds the payment-service providers of the payment hub
// (payments.Provider): Sim, the simulated provider, the default.
package psp

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/payments"
)

// Sim is a simulated payment-service provider: it verifies no identity
// and moves no money, but answers as a provider does, with outcomes that
// tests (and demonstrations) script by the card number:
//
//   - CardSuccess, and any other card number of 12 to 19 digits that passes
//     the Luhn check: the pay-in succeeds;
//   - CardDecline: the pay-in fails (card_declined);
//   - CardThreeDSecure: the pay-in waits for a 3-D Secure challenge on the
//     provider's page (PENDING_3DS), then succeeds or fails as the card
//     holder answers there;
//   - CardRefundFailure: the pay-in succeeds, every refund of it fails
//     (refund_failed);
//   - a number that is not a card number: the pay-in fails (invalid_card);
//   - no card: the pay-in waits (PENDING_CARD) for the card holder to type
//     a card on the provider's card page, which then scripts it as above.
//
// A refund of more than what remains of the pay-in fails
// (refund_exceeds_payin). An activation is pending until the legal
// representative answers on the provider's page (Handler): verified or
// refused.
//
// Its state is in PostgreSQL (psp_sim_* tables), so every replica answers
// alike. It stands for another system: its statements never join the
// hub's transactions, and a refund runs in a transaction of its own.
type Sim struct {
	db      bun.IDB
	baseURL string
}

// PoolConns sizes the pool serve opens for the simulated provider, beside
// the hub's: a real provider is another system, so the hub's requests,
// which call it holding no connection, must not wait on their own pool
// for it either. A few suffice: each call is one or two short statements.
const PoolConns = 4

// Scripted card numbers (Sim).
const (
	CardSuccess       = "4242424242424242"
	CardDecline       = "4000000000000002"
	CardThreeDSecure  = "4000000000003220"
	CardRefundFailure = "4000000000000341"
)

// Scenarios of pay-ins, as their cards script them.
const (
	scenarioSuccess       = "success"
	scenarioDecline       = "decline"
	scenarioThreeDSecure  = "three_d_secure"
	scenarioRefundFailure = "refund_failure"
	scenarioInvalid       = "invalid"
	scenarioAwaitingCard  = "awaiting_card"
)

// Result codes and messages of the simulated provider.
const (
	CodeSuccess            = "000000"
	CodeDeclined           = "card_declined"
	CodeInvalidCard        = "invalid_card"
	CodeThreeDSRequired    = "3ds_required"
	CodeCardRequired       = "card_required"
	CodeThreeDSFailed      = "3ds_failed"
	CodeRefundFailed       = "refund_failed"
	CodeRefundExceeds      = "refund_exceeds_payin"
	CodePayinNotRefundable = "payin_not_refundable"
)

var resultMessages = map[string]string{
	CodeSuccess:            "Success.",
	CodeDeclined:           "The card was declined.",
	CodeInvalidCard:        "The card number is not valid.",
	CodeThreeDSRequired:    "The card holder must authenticate (3-D Secure).",
	CodeCardRequired:       "The card holder must enter their card on the provider's page.",
	CodeThreeDSFailed:      "The card holder did not authenticate (3-D Secure).",
	CodeRefundFailed:       "The refund was refused.",
	CodeRefundExceeds:      "The refund exceeds what remains of the pay-in.",
	CodePayinNotRefundable: "Only a succeeded pay-in can be refunded.",
}

// Name is the simulated provider's name in the hub's records.
const Name = "simulated"

// PagePrefix is where Handler serves the provider's pages.
const PagePrefix = "/psp/sim/"

var _ payments.Provider = (*Sim)(nil)

// NewSim returns the simulated provider on db; its pages' URLs start with
// publicBaseURL.
func NewSim(db bun.IDB, publicBaseURL string) *Sim {
	return &Sim{db: db, baseURL: strings.TrimSuffix(publicBaseURL, "/")}
}

// Name implements payments.Provider.
func (s *Sim) Name() string { return Name }

// PageOrigin implements payments.Provider: the public base URL's origin.
func (s *Sim) PageOrigin() string {
	u, err := url.Parse(s.baseURL)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// newRef is a fresh reference: a prefix and 128 random bits, which also
// make the page's URL a secret.
func newRef(prefix string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return prefix + hex.EncodeToString(b)
}

type activationRow struct {
	Ref                 string     `bun:"ref"`
	PartnerUUID         string     `bun:"partner_uuid"`
	CommercialName      string     `bun:"commercial_name"`
	LegalRepresentative string     `bun:"legal_representative"`
	Email               string     `bun:"email"`
	Status              string     `bun:"status"`
	CompletedOn         *time.Time `bun:"completed_on"`
}

func (s *Sim) activation(r *activationRow) *payments.ProviderActivation {
	return &payments.ProviderActivation{Ref: r.Ref, Status: r.Status, CompletedOn: r.CompletedOn,
		UserActionURL: s.baseURL + PagePrefix + "activations/" + r.Ref + "/"}
}

const activationColumns = `ref, partner_uuid, commercial_name, legal_representative, email, status, completed_on`

// StartActivation implements payments.Provider.
func (s *Sim) StartActivation(ctx context.Context, in payments.ActivationRequest) (*payments.ProviderActivation, error) {
	name := strings.TrimSpace(in.LegalRepresentativeFirstName + " " + in.LegalRepresentativeLastName)
	var r activationRow
	err := s.insertOrFind(ctx, &r, `WITH made AS (
			INSERT INTO psp_sim_activations (ref, request_id, partner_uuid, commercial_name, legal_representative, email, status)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (request_id) DO NOTHING RETURNING `+activationColumns+`)
		SELECT * FROM made UNION ALL SELECT `+activationColumns+` FROM psp_sim_activations WHERE request_id = ?`,
		newRef("act_"), in.RequestID, in.PartnerUUID, in.CommercialName, name, in.LegalRepresentativeEmail,
		payments.ActivationPendingUserAction, in.RequestID)
	if err != nil {
		return nil, fmt.Errorf("simulated provider: start activation: %w", err)
	}
	return s.activation(&r), nil
}

// insertOrFind runs query, an insert of a request's record that does
// nothing when the request has one, followed by a read of that record,
// into dest. A repeat running beside the first finds no row (its
// statement's snapshot predates the first's commit): it reads again.
func (s *Sim) insertOrFind(ctx context.Context, dest any, query string, args ...any) error {
	err := s.db.NewRaw(query, args...).Scan(ctx, dest)
	if errors.Is(err, sql.ErrNoRows) {
		err = s.db.NewRaw(query, args...).Scan(ctx, dest)
	}
	return err
}

// Activation implements payments.Provider.
func (s *Sim) Activation(ctx context.Context, ref string) (*payments.ProviderActivation, error) {
	r, err := s.findActivation(ctx, ref)
	if err != nil {
		return nil, err
	}
	return s.activation(r), nil
}

func (s *Sim) findActivation(ctx context.Context, ref string) (*activationRow, error) {
	var r activationRow
	err := s.db.NewRaw(`SELECT `+activationColumns+` FROM psp_sim_activations WHERE ref = ?`, ref).Scan(ctx, &r)
	if err != nil {
		return nil, notFound(err)
	}
	return &r, nil
}

// answerActivation records the legal representative's answer on the
// page: verified or not. An activation already answered keeps its first
// answer.
func (s *Sim) answerActivation(ctx context.Context, ref string, verified bool) error {
	status := payments.ActivationCompleted
	if !verified {
		status = payments.ActivationRefused
	}
	_, err := s.db.NewRaw(`UPDATE psp_sim_activations SET status = ?, completed_on = now()
		WHERE ref = ? AND status = ?`, status, ref, payments.ActivationPendingUserAction).Exec(ctx)
	if err != nil {
		return fmt.Errorf("simulated provider: answer activation: %w", err)
	}
	return nil
}

type payinRow struct {
	Ref            string          `bun:"ref"`
	Amount         decimal.Decimal `bun:"amount"`
	Currency       string          `bun:"currency"`
	CardLast4      string          `bun:"card_last4"`
	Scenario       string          `bun:"scenario"`
	Status         string          `bun:"status"`
	ResultCode     string          `bun:"result_code"`
	ResultMessage  string          `bun:"result_message"`
	RefundedAmount decimal.Decimal `bun:"refunded_amount"`
	ReturnURL      string          `bun:"return_url"`
}

// ended reports whether the pay-in has its outcome.
func (r *payinRow) ended() bool {
	return r.Status == payments.PayinSucceeded || r.Status == payments.PayinFailed
}

const payinColumns = `ref, amount, currency, card_last4, scenario, status, result_code, result_message, refunded_amount, return_url`

func (s *Sim) payin(r *payinRow) *payments.Payin {
	p := &payments.Payin{Ref: r.Ref, Status: r.Status, ResultCode: r.ResultCode, ResultMessage: r.ResultMessage,
		Amount: r.Amount, Currency: r.Currency, RefundedAmount: r.RefundedAmount}
	switch r.Status {
	case payments.PayinPending3DS:
		p.UserActionURL = s.baseURL + PagePrefix + "3ds/" + r.Ref + "/"
	case payments.PayinPendingCard:
		p.UserActionURL = s.baseURL + PagePrefix + "card/" + r.Ref + "/"
	}
	return p
}

// scenarioOf is what a card number scripts (Sim).
func scenarioOf(card string) string {
	switch card {
	case CardDecline:
		return scenarioDecline
	case CardThreeDSecure:
		return scenarioThreeDSecure
	case CardRefundFailure:
		return scenarioRefundFailure
	}
	if !luhn(card) {
		return scenarioInvalid
	}
	return scenarioSuccess
}

// luhn reports whether s is 12 to 19 digits passing the Luhn check.
func luhn(s string) bool {
	if len(s) < 12 || len(s) > 19 {
		return false
	}
	sum := 0
	for i := range len(s) {
		c := s[len(s)-1-i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// Charge implements payments.Provider. Without a card, the pay-in waits
// for the card holder on the provider's card page.
func (s *Sim) Charge(ctx context.Context, in payments.ChargeRequest) (*payments.Payin, error) {
	card := strings.Join(strings.Fields(in.Card), "")
	outcome := payinOutcome{scenario: scenarioAwaitingCard, status: payments.PayinPendingCard, code: CodeCardRequired}
	if card != "" {
		outcome = outcomeOf(card)
	}
	var r payinRow
	err := s.insertOrFind(ctx, &r, `WITH made AS (
			INSERT INTO psp_sim_payins (ref, request_id, amount, currency, card_last4, scenario, status, result_code, result_message, return_url)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (request_id) DO NOTHING RETURNING `+payinColumns+`)
		SELECT * FROM made UNION ALL SELECT `+payinColumns+` FROM psp_sim_payins WHERE request_id = ?`,
		newRef("pay_"), in.RequestID, in.Amount, in.Currency, outcome.last4, outcome.scenario, outcome.status,
		outcome.code, resultMessages[outcome.code], in.ReturnURL, in.RequestID)
	if err != nil {
		return nil, fmt.Errorf("simulated provider: charge: %w", err)
	}
	return s.payin(&r), nil
}

// payinOutcome is what a card scripts of a pay-in.
type payinOutcome struct {
	scenario, status, code, last4 string
}

func outcomeOf(card string) payinOutcome {
	o := payinOutcome{scenario: scenarioOf(card), status: payments.PayinSucceeded, code: CodeSuccess}
	switch o.scenario {
	case scenarioDecline:
		o.status, o.code = payments.PayinFailed, CodeDeclined
	case scenarioInvalid:
		o.status, o.code = payments.PayinFailed, CodeInvalidCard
	case scenarioThreeDSecure:
		o.status, o.code = payments.PayinPending3DS, CodeThreeDSRequired
	}
	if o.scenario != scenarioInvalid {
		o.last4 = card[len(card)-4:]
	}
	return o
}

// payWithCard records the card the holder typed on the card page: the
// pay-in then goes as that card scripts. A pay-in no longer waiting for a
// card keeps its outcome.
func (s *Sim) payWithCard(ctx context.Context, ref, card string) error {
	o := outcomeOf(strings.Join(strings.Fields(card), ""))
	_, err := s.db.NewRaw(`UPDATE psp_sim_payins SET card_last4 = ?, scenario = ?, status = ?, result_code = ?,
			result_message = ? WHERE ref = ? AND status = ?`,
		o.last4, o.scenario, o.status, o.code, resultMessages[o.code], ref, payments.PayinPendingCard).Exec(ctx)
	if err != nil {
		return fmt.Errorf("simulated provider: pay with card: %w", err)
	}
	return nil
}

// Payin implements payments.Provider.
func (s *Sim) Payin(ctx context.Context, ref string) (*payments.Payin, error) {
	r, err := s.findPayin(ctx, s.db, ref, false)
	if err != nil {
		return nil, err
	}
	return s.payin(r), nil
}

// PayinOf implements payments.Provider.
func (s *Sim) PayinOf(ctx context.Context, requestID uuid.UUID) (*payments.Payin, error) {
	var r payinRow
	if err := s.db.NewRaw(`SELECT `+payinColumns+` FROM psp_sim_payins WHERE request_id = ?`, requestID).Scan(ctx, &r); err != nil {
		return nil, notFound(err)
	}
	return s.payin(&r), nil
}

func (s *Sim) findPayin(ctx context.Context, db bun.IDB, ref string, lock bool) (*payinRow, error) {
	q := `SELECT ` + payinColumns + ` FROM psp_sim_payins WHERE ref = ?`
	if lock {
		q += ` FOR UPDATE`
	}
	var r payinRow
	if err := db.NewRaw(q, ref).Scan(ctx, &r); err != nil {
		return nil, notFound(err)
	}
	return &r, nil
}

// answerThreeDSecure records the card holder's answer to the challenge:
// the pay-in succeeds when they authenticated, else fails. A pay-in
// already answered keeps its first answer.
func (s *Sim) answerThreeDSecure(ctx context.Context, ref string, authenticated bool) error {
	status, code := payments.PayinSucceeded, CodeSuccess
	if !authenticated {
		status, code = payments.PayinFailed, CodeThreeDSFailed
	}
	_, err := s.db.NewRaw(`UPDATE psp_sim_payins SET status = ?, result_code = ?, result_message = ?
		WHERE ref = ? AND status = ?`, status, code, resultMessages[code], ref, payments.PayinPending3DS).Exec(ctx)
	if err != nil {
		return fmt.Errorf("simulated provider: answer 3-D Secure: %w", err)
	}
	return nil
}

type refundRow struct {
	Ref           string          `bun:"ref"`
	PayinRef      string          `bun:"payin_ref"`
	Amount        decimal.Decimal `bun:"amount"`
	Status        string          `bun:"status"`
	ResultCode    string          `bun:"result_code"`
	ResultMessage string          `bun:"result_message"`
}

// Refund implements payments.Provider. The pay-in's row is locked first,
// so refunds of one pay-in (and repeats of one request) run one at a
// time: they never give back more than it took.
func (s *Sim) Refund(ctx context.Context, in payments.RefundRequest) (*payments.ProviderRefund, error) {
	if !in.Amount.IsPositive() {
		return nil, fmt.Errorf("simulated provider: refund of %s: not a positive amount", in.Amount)
	}
	var r refundRow
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		p, err := s.findPayin(ctx, tx, in.PayinRef, true)
		if err != nil {
			return err
		}
		err = tx.NewRaw(`SELECT ref, payin_ref, amount, status, result_code, result_message FROM psp_sim_refunds
			WHERE request_id = ?`, in.RequestID).Scan(ctx, &r)
		if !errors.Is(err, sql.ErrNoRows) {
			return err // the repeat of a request answers its refund
		}
		status, code := payments.RefundSucceeded, CodeSuccess
		switch {
		case p.Status != payments.PayinSucceeded:
			status, code = payments.RefundFailed, CodePayinNotRefundable
		case p.Scenario == scenarioRefundFailure:
			status, code = payments.RefundFailed, CodeRefundFailed
		case p.RefundedAmount.Add(in.Amount).GreaterThan(p.Amount):
			status, code = payments.RefundFailed, CodeRefundExceeds
		}
		if status == payments.RefundSucceeded {
			if _, err := tx.NewRaw(`UPDATE psp_sim_payins SET refunded_amount = refunded_amount + ? WHERE ref = ?`,
				in.Amount, p.Ref).Exec(ctx); err != nil {
				return err
			}
		}
		r = refundRow{Ref: newRef("ref_"), PayinRef: p.Ref, Amount: in.Amount, Status: status, ResultCode: code,
			ResultMessage: resultMessages[code]}
		_, err = tx.NewRaw(`INSERT INTO psp_sim_refunds (ref, request_id, payin_ref, amount, status, result_code, result_message)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, r.Ref, in.RequestID, r.PayinRef, r.Amount, r.Status, r.ResultCode, r.ResultMessage).Exec(ctx)
		return err
	})
	if err != nil {
		if domain.IsCode(err, domain.CodeNotFound) {
			return nil, err
		}
		return nil, fmt.Errorf("simulated provider: refund: %w", err)
	}
	return &payments.ProviderRefund{Ref: r.Ref, Status: r.Status, ResultCode: r.ResultCode, ResultMessage: r.ResultMessage,
		Amount: r.Amount}, nil
}

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return domain.ErrNotFound
	}
	return err
}
