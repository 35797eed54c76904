package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/domain/webhooks"
)

// Payment requests (pay-by-link): a partner asks a customer for an
// amount. The customer pays it on the request's public page
// (/pay/<code>/, request_page.go), which starts a payment of the request
// through the same creation as PaymentService.CreatePayment and sends the
// customer to the provider's card page. The first payment of the request
// that is paid makes the request paid, in that payment's transaction
// (docs/DECISIONS.md, "Payment requests").

// Payment request statuses.
const (
	RequestPending = "pending"
	RequestPaid    = "paid"
)

// Limits of a payment request.
const (
	MaxRequestReferenceLength   = 255
	MaxRequestDescriptionLength = MaxReceiptDescriptionLength
	// MaxPaymentsPerRequest bounds the payments (the customer's attempts)
	// of one request, so that a leaked link cannot start payments without
	// end; its payments list is bounded by it.
	MaxPaymentsPerRequest = 20
	// DefaultRequestProduct is the product of a request sent without one:
	// the partner's own sale.
	DefaultRequestProduct = ProductVoucher
)

// Messages of refused payment requests.
const (
	MsgRequestPaid            = "This payment request is paid already."
	MsgRequestAttempts        = "This payment request takes no more payments."
	MsgRequestInProgress      = "A payment of this payment request is in progress."
	MsgInvoicingRequired      = "This field is required for a refill."
	MsgInvoicingRefillOnly    = "Only a refill is invoiced by a marketplace."
	MsgRequestProviderFailure = "The payment could not be started: try again."
)

// PaymentRequest is a payment request of the payment hub.
type PaymentRequest struct {
	ID          int64
	Code        string // its public page's code (domain.NewGiftCode)
	Status      string // RequestPending or RequestPaid
	PartnerID   int64
	PartnerUUID uuid.UUID
	PartnerName string
	ReferrerID  *int64 // the partner's referring marketplace
	Amount      decimal.Decimal
	Currency    string
	Customer    network.Customer
	Language    string // the public page's, one of PageLanguages
	Reference   string
	Description string
	Origin      string
	Product     string // a product of the fee table
	// InvoicingMarketplaceID is the marketplace a refill's payments are
	// paid out to; nil for every other product.
	InvoicingMarketplaceID *int64
	CreatedByUserID        *int64
	PaidOn                 *time.Time
	CreatedOn              time.Time
	ModifiedOn             time.Time
	// URL is its public page's address (set by the service).
	URL string
}

// PaymentRequestFilter narrows the payment requests list.
type PaymentRequestFilter struct {
	// Tenant: the caller's partner (its own requests and those of the
	// partners it refers); nil for staff.
	Tenant *int64
	// Search matches, case-insensitively, part of the reference, the
	// description, the code, or the customer's first name, last name,
	// full name or e-mail; "" matches every request.
	Search string
}

// MaxRequestSearchLength bounds the list's search.
const MaxRequestSearchLength = 100

// PaymentRequestStore reads and writes payment requests.
type PaymentRequestStore interface {
	// CreatePaymentRequest writes r and sets ID, CreatedOn and
	// ModifiedOn.
	// Errors: CodeInvalid on "code" when r's code is taken (nothing is
	// written, the transaction goes on).
	CreatePaymentRequest(ctx context.Context, r *PaymentRequest) error
	// FindPaymentRequest returns the request with that id, with its
	// partner's uuid, name and referrer; with lock, its row is locked (FOR
	// UPDATE) until the transaction ends.
	// Errors: domain.ErrNotFound.
	FindPaymentRequest(ctx context.Context, id int64, lock bool) (*PaymentRequest, error)
	// PaymentRequestByCode returns the request with that code.
	// Errors: domain.ErrNotFound.
	PaymentRequestByCode(ctx context.Context, code string) (*PaymentRequest, error)
	// ListPaymentRequests returns a page of the requests f selects, newest
	// first, and how many it selects.
	ListPaymentRequests(ctx context.Context, f PaymentRequestFilter, page domain.PageRequest) ([]*PaymentRequest, int, error)
	// CountRequestPayments returns how many payments the request has, and
	// how many of them are in progress.
	CountRequestPayments(ctx context.Context, id int64) (all, inProgress int, err error)
	// MarkPaymentRequestPaid makes a pending request paid at `at`; a paid
	// one is left as it is.
	MarkPaymentRequestPaid(ctx context.Context, id int64, at time.Time) error
}

// requestInput is a checked payment request creation body.
type requestInput struct {
	PartnerUUID            uuid.UUID
	Amount                 decimal.Decimal
	Customer               network.Customer
	Language               string
	Reference, Description string
	Origin, Product        string
	InvoicingMarketplaceID *int64
}

// PaymentRequestInput is a payment request's creation body.
type PaymentRequestInput struct {
	domain.Refusals
	PartnerUUID            domain.Optional[uuid.UUID]
	Amount                 domain.Optional[decimal.Decimal]
	Customer               domain.Optional[network.CustomerInput]
	Language               domain.Optional[string]
	Reference, Description domain.Optional[string]
	Origin, Product        domain.Optional[string]
	InvoicingMarketplaceID domain.Optional[int64]
}

// readRequestInput reads a payment request creation body; the errors
// are in v.
func readRequestInput(v *domain.Validator, body PaymentRequestInput) *requestInput {
	f := domain.Fields{V: v}
	in := &requestInput{Product: DefaultRequestProduct}
	if u := f.UUID("partner_uuid", body.PartnerUUID, true); u != nil {
		in.PartnerUUID = *u
	}
	in.Amount = amountOf(f, "amount", body.Amount)
	if cu := network.CheckCustomer(f, "customer", body.Customer, true, true); cu != nil {
		in.Customer = *cu
	}
	if s := f.Choice("language", body.Language, true, PageLanguages); s != nil {
		in.Language = *s
	}
	text := func(field string, o domain.Optional[string], max int) string {
		if s := f.String(field, o, false, true, max); s != nil {
			return *s
		}
		return ""
	}
	in.Reference = text("reference", body.Reference, MaxRequestReferenceLength)
	in.Description = text("description", body.Description, MaxRequestDescriptionLength)
	in.Origin = text("origin", body.Origin, MaxOriginLength)
	if s := f.String("product", body.Product, false, false, MaxProductLength); s != nil {
		in.Product = *s
		if _, err := FeeRuleOf(in.Product, ""); err != nil {
			v.Add(domain.VInvalid, fmt.Sprintf(msgChoice, in.Product), "product")
		}
	}
	id, _ := f.PK("invoicing_marketplace_id", body.InvoicingMarketplaceID, false, true)
	switch {
	case id != nil && in.Product != ProductRefill:
		v.Add(domain.VInvalid, MsgInvoicingRefillOnly, "invoicing_marketplace_id")
	case id == nil && in.Product == ProductRefill && !domain.HasFieldError(v, "invoicing_marketplace_id"):
		v.Add(domain.VRequired, MsgInvoicingRequired, "invoicing_marketplace_id")
	}
	in.InvoicingMarketplaceID = id
	return in
}

// CreatePaymentRequest creates a payment request, once per idempotency
// key: a fresh code, status pending, the partner's currency. A refill
// (product refill) names invoicing_marketplace_id, the marketplace its
// payments are paid out to: the partner itself when it is a marketplace,
// or its referring marketplace, a payment-hub partner.
// Errors: those of Authorize(OpPaymentCreate); CodeInvalid with every
// field error (an unknown or unseen partner on partner_uuid, an
// invoicing marketplace that is not one of the partner's on
// invoicing_marketplace_id); CodeConflict when the partner cannot take
// payments.
func (s *PaymentService) CreatePaymentRequest(ctx context.Context, body PaymentRequestInput) (*PaymentRequest, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentCreate)
	if err != nil {
		return nil, err
	}
	v := body.Refusals.Validator()
	in := readRequestInput(v, body)
	if err := v.Err(); err != nil {
		return nil, err
	}
	r, err := idempotency.Run(ctx, s.keys, "payments.payment_request.create", body, func(ctx context.Context, complete idempotency.Complete[*PaymentRequest]) (idempotency.Done[*PaymentRequest], error) {
		var done idempotency.Done[*PaymentRequest]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
			r, err := s.insertRequest(ctx, tx, c, in)
			if err != nil {
				return err
			}
			done, err = complete(ctx, tx.Keys, r)
			return err
		})
		return done, err
	})
	if err != nil {
		return nil, err
	}
	return s.withURL(r), nil
}

func (s *PaymentService) insertRequest(ctx context.Context, tx Stores, c *domain.Caller, in *requestInput) (*PaymentRequest, error) {
	var v domain.Validator
	partner, err := tx.Partners.FindHubPartner(ctx, in.PartnerUUID, false)
	switch {
	case domain.IsCode(err, domain.CodeNotFound) || err == nil && relationOf(c, partner) == unrelated:
		partnerNotFound(&v, in.PartnerUUID)
		return nil, v.Err()
	case err != nil:
		return nil, err
	case !partner.MayTakePayments():
		return nil, &domain.Error{Code: domain.CodeConflict, Message: MsgPartnerCannotTakePayments}
	}
	if _, err := Fees(in.Product, in.Origin, in.Amount); err != nil {
		return nil, err
	}
	if in.InvoicingMarketplaceID != nil {
		if err := checkInvoicing(ctx, tx, &v, partner, *in.InvoicingMarketplaceID); err != nil {
			return nil, err
		}
		if err := v.Err(); err != nil {
			return nil, err
		}
	}
	r := &PaymentRequest{Status: RequestPending, PartnerID: partner.ID, PartnerUUID: partner.UUID,
		PartnerName: partner.Name, ReferrerID: partner.ReferrerID, Amount: in.Amount, Currency: partner.Currency,
		Customer: in.Customer, Language: in.Language, Reference: in.Reference, Description: in.Description,
		Origin: in.Origin, Product: in.Product, InvoicingMarketplaceID: in.InvoicingMarketplaceID,
		CreatedByUserID: &c.User.ID}
	// A taken code is refused without aborting the transaction, so the
	// next one is tried in it.
	if _, err := domain.IssueWithCode(func(code string) error {
		r.Code = code
		return tx.Requests.CreatePaymentRequest(ctx, r)
	}); err != nil {
		return nil, err
	}
	return r, nil
}

// checkInvoicing checks a refill's invoicing marketplace: the partner
// itself when it is a marketplace, or its referrer, and a payment-hub
// partner (its payouts are the hub's). Any other id reads as unknown,
// so that it tells nothing of other partners. A refusal is a field
// error recorded in v.
func checkInvoicing(ctx context.Context, tx Stores, v *domain.Validator, partner *Partner, id int64) error {
	d := domain.Fields{V: v}
	const field = "invoicing_marketplace_id"
	if id != partner.ID && (partner.ReferrerID == nil || *partner.ReferrerID != id) {
		d.MissingPK(field, id)
		return nil
	}
	m, err := tx.Partners.FindPartnerByID(ctx, id)
	if err != nil {
		return err
	}
	if !m.IsMarketplace {
		v.Add(domain.VInvalid, MsgReferrerNotMarketplace, field)
		return nil
	}
	if _, err := tx.Partners.FindHubPartner(ctx, m.UUID, false); domain.IsCode(err, domain.CodeNotFound) {
		d.MissingPK(field, id)
		return nil
	} else if err != nil {
		return err
	}
	return nil
}

// withURL sets r's public page address.
func (s *PaymentService) withURL(r *PaymentRequest) *PaymentRequest {
	r.URL = s.pages.baseURL + RequestPagePath(r.Code)
	return r
}

// RequestPagePath is the path of the public page of the request with
// that code.
func RequestPagePath(code string) string { return "/pay/" + code + "/" }

// PaymentRequest returns the payment request with that id.
// Errors: those of Authorize(OpPaymentRead); CodeNotFound for a request
// the caller does not see.
func (s *PaymentService) PaymentRequest(ctx context.Context, id int64) (*PaymentRequest, error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentRead)
	if err != nil {
		return nil, err
	}
	r, err := s.uow.Stores().Requests.FindPaymentRequest(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if !sees(c, r.PartnerID, r.ReferrerID) {
		return nil, domain.ErrNotFound
	}
	return s.withURL(r), nil
}

// PaymentRequests returns a page of the payment requests the caller sees
// (staff: all; a partner's members: its own and those of the partners it
// refers), newest first, narrowed by search (PaymentRequestFilter.Search).
// Errors: those of Authorize(OpPaymentRead); CodeInvalid on a search
// longer than MaxRequestSearchLength; CodeNotFound past the last page.
func (s *PaymentService) PaymentRequests(ctx context.Context, search string, page domain.PageRequest) (*domain.Page[*PaymentRequest], error) {
	c, err := domain.Authorize(ctx, domain.OpPaymentRead)
	if err != nil {
		return nil, err
	}
	if len([]rune(search)) > MaxRequestSearchLength {
		return nil, fieldError("search", domain.VMaxLength, fmt.Sprintf(domain.MsgMaxLength, MaxRequestSearchLength))
	}
	items, count, err := s.uow.Stores().Requests.ListPaymentRequests(ctx,
		PaymentRequestFilter{Tenant: c.Tenant(), Search: search}, page)
	if err != nil {
		return nil, err
	}
	for _, r := range items {
		s.withURL(r)
	}
	return domain.NewPage(items, count, page)
}

// PaymentRequestPayments returns a page of the payments of the payment
// request with that id (at most MaxPaymentsPerRequest in all), newest
// first.
// Errors: those of PaymentRequest; CodeNotFound past the last page.
func (s *PaymentService) PaymentRequestPayments(ctx context.Context, id int64, page domain.PageRequest) (*domain.Page[*Payment], error) {
	r, err := s.PaymentRequest(ctx, id)
	if err != nil {
		return nil, err
	}
	items, count, err := s.uow.Stores().Payments.ListPayments(ctx, PaymentFilter{PaymentRequestID: &r.ID}, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(items, count, page)
}

// openRequest locks a request a payment is being added to and checks
// that it takes one more: pending, with no payment in progress (two
// clicks at once must not make two payments the customer could both
// pay) and fewer than MaxPaymentsPerRequest payments.
// Errors: CodeConflict (MsgRequestPaid, MsgRequestInProgress,
// MsgRequestAttempts).
func openRequest(ctx context.Context, tx Stores, id int64) error {
	r, err := tx.Requests.FindPaymentRequest(ctx, id, true)
	if err != nil {
		return err
	}
	if r.Status == RequestPaid {
		return &domain.Error{Code: domain.CodeConflict, Message: MsgRequestPaid}
	}
	all, inProgress, err := tx.Requests.CountRequestPayments(ctx, id)
	switch {
	case err != nil:
		return err
	case inProgress > 0:
		return &domain.Error{Code: domain.CodeConflict, Message: MsgRequestInProgress}
	case all >= MaxPaymentsPerRequest:
		return &domain.Error{Code: domain.CodeConflict, Message: MsgRequestAttempts}
	}
	return nil
}

// requestPaid makes a paid payment's request paid, in the payment's
// transaction.
// Its webhook event goes to the request's partner.
func (s *PaymentService) requestPaid(ctx context.Context, tx Stores, p *Payment, at time.Time) error {
	if p.PaymentRequestID == nil {
		return nil
	}
	if err := tx.Requests.MarkPaymentRequestPaid(ctx, *p.PaymentRequestID, at); err != nil {
		return err
	}
	r, err := tx.Requests.FindPaymentRequest(ctx, *p.PaymentRequestID, false)
	if err != nil {
		return err
	}
	return tx.Events.Publish(ctx, webhooks.Event{Type: "payment_request.paid", Partners: []int64{r.PartnerID},
		Resource: s.withURL(r)})
}

// PayPaymentRequest starts the customer's payment of the request with
// that code, from its public page (no caller: the code is the page's
// credential), and returns where the customer pays it: the provider's
// card page. The attempt is counted against the client's throttle before
// anything is read. A payment of the request still in progress is
// reused: its card page is answered, and no new payment is made.
// Errors: CodeThrottled; CodeNotFound for an unknown code; CodeConflict
// (MsgRequestPaid, MsgRequestAttempts, MsgPartnerCannotTakePayments);
// CodeUnavailable (MsgRequestProviderFailure) when the provider could
// not start the pay-in (that payment failed; a new attempt makes
// another).
func (s *PaymentService) PayPaymentRequest(ctx context.Context, code string) (string, error) {
	if _, err := s.pages.throttle.Reserve(ctx, domain.ClientAddr(ctx), s.now()); err != nil {
		return "", err
	}
	if domain.TextProblem(code) != "" { // names no request; the store would drop a NUL
		return "", domain.ErrNotFound
	}
	r, err := s.uow.Stores().Requests.PaymentRequestByCode(ctx, code)
	if err != nil {
		return "", err
	}
	if r.Status == RequestPaid {
		return "", &domain.Error{Code: domain.CodeConflict, Message: MsgRequestPaid}
	}
	if to, err := s.inProgressPage(ctx, r.ID); to != "" || err != nil {
		return to, err
	}
	in := &paymentInput{Customer: r.Customer, PartnerUUID: r.PartnerUUID, Amount: r.Amount, Product: r.Product,
		Type: PaymentTypeCard, Origin: r.Origin, Receipt: r.Description, PaymentRequestID: &r.ID,
		InvoicingMarketplaceID: r.InvoicingMarketplaceID}
	p, err := s.create(ctx, nil, in, nil)
	if domain.AsError(err) != nil && domain.AsError(err).Message == MsgRequestInProgress {
		// Another click made it meanwhile: its card page, once it has one.
		if to, err := s.inProgressPage(ctx, r.ID); to != "" || err != nil {
			return to, err
		}
		return "", &domain.Error{Code: domain.CodeUnavailable, Message: MsgRequestProviderFailure, RetryAfter: 5 * time.Second}
	}
	if err != nil {
		// The partner uuid is the request's own: a field error on it
		// means the partner left the hub.
		if domain.IsCode(err, domain.CodeInvalid) {
			return "", &domain.Error{Code: domain.CodeConflict, Message: MsgPartnerCannotTakePayments}
		}
		return "", err
	}
	if p.Status != StatusInProgress || p.PayinURL == "" {
		return "", &domain.Error{Code: domain.CodeUnavailable, Message: MsgRequestProviderFailure, RetryAfter: 5 * time.Second}
	}
	return p.PayinURL, nil
}

// inProgressPage is the card page of the request's payment in progress,
// "" when it has none (or none the provider gave a page yet).
func (s *PaymentService) inProgressPage(ctx context.Context, requestID int64) (string, error) {
	latest, _, err := s.uow.Stores().Payments.ListPayments(ctx, PaymentFilter{PaymentRequestID: &requestID},
		domain.PageRequest{Number: 1, Size: 1})
	if err != nil || len(latest) == 0 || latest[0].Status != StatusInProgress {
		return "", err
	}
	return latest[0].PayinURL, nil
}

// requestPages is what the public pages of payment requests need: the
// service's public address (of the links) and the throttle of their
// payment attempts.
type requestPages struct {
	baseURL  string
	throttle *domain.ClientThrottle
}

// Default throttle of the public pages' payment attempts: 10 per client,
// then one a minute.
const (
	DefaultRequestPayBurst  = 10
	DefaultRequestPayRefill = time.Minute
)

// WithRequestPages sets the public address the payment requests' links
// start with ("" for links relative to the service) and, when not nil,
// the throttle of their payment attempts (one shared by every instance);
// it returns s.
func (s *PaymentService) WithRequestPages(baseURL string, throttle *domain.ClientThrottle) *PaymentService {
	s.pages.baseURL = baseURL
	if throttle != nil {
		s.pages.throttle = throttle
	}
	return s
}
