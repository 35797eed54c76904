package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
)

// PaymentRequestStore is the payments.PaymentRequestStore on PostgreSQL.
type PaymentRequestStore struct{ db bun.IDB }

var _ payments.PaymentRequestStore = (*PaymentRequestStore)(nil)

type paymentRequestRow struct {
	ID                     int64           `bun:"id"`
	Code                   string          `bun:"code"`
	Status                 string          `bun:"status"`
	PartnerID              int64           `bun:"partner_id"`
	PartnerUUID            uuid.UUID       `bun:"partner_uuid"`
	PartnerName            string          `bun:"partner_name"`
	ReferrerID             *int64          `bun:"referrer_id"`
	Amount                 decimal.Decimal `bun:"amount"`
	Currency               string          `bun:"currency"`
	CustomerFirstName      string          `bun:"customer_first_name"`
	CustomerLastName       string          `bun:"customer_last_name"`
	CustomerEmail          string          `bun:"customer_email"`
	Language               string          `bun:"language"`
	Reference              string          `bun:"reference"`
	Description            string          `bun:"description"`
	Origin                 string          `bun:"origin"`
	Product                string          `bun:"product"`
	InvoicingMarketplaceID *int64          `bun:"invoicing_marketplace_id"`
	CreatedByUserID        *int64          `bun:"created_by_user_id"`
	PaidOn                 *time.Time      `bun:"paid_on"`
	CreatedOn              time.Time       `bun:"created_on"`
	ModifiedOn             time.Time       `bun:"modified_on"`
}

func (r *paymentRequestRow) toDomain() *payments.PaymentRequest {
	return &payments.PaymentRequest{ID: r.ID, Code: r.Code, Status: r.Status, PartnerID: r.PartnerID,
		PartnerUUID: r.PartnerUUID, PartnerName: r.PartnerName, ReferrerID: r.ReferrerID, Amount: r.Amount,
		Currency: r.Currency, Customer: network.Customer{FirstName: r.CustomerFirstName, LastName: r.CustomerLastName,
			Email: r.CustomerEmail}, Language: r.Language, Reference: r.Reference, Description: r.Description,
		Origin: r.Origin, Product: r.Product, InvoicingMarketplaceID: r.InvoicingMarketplaceID,
		CreatedByUserID: r.CreatedByUserID, PaidOn: r.PaidOn, CreatedOn: r.CreatedOn, ModifiedOn: r.ModifiedOn}
}

// paymentRequestSelect reads requests (alias rq) with their partner's
// uuid, name and referrer.
const paymentRequestSelect = `SELECT rq.id, rq.code, rq.status, rq.partner_id, p.uuid AS partner_uuid,
		p.name AS partner_name, li.referrer_id, rq.amount, rq.currency, rq.customer_first_name,
		rq.customer_last_name, rq.customer_email, rq.language, rq.reference, rq.description, rq.origin, rq.product,
		rq.invoicing_marketplace_id, rq.created_by_user_id, rq.paid_on, rq.created_on, rq.modified_on
	FROM payment_requests rq
	JOIN partners p ON p.id = rq.partner_id
	LEFT JOIN partner_legal_information li ON li.partner_id = rq.partner_id`

// CreatePaymentRequest implements payments.PaymentRequestStore: a taken
// code inserts nothing (ON CONFLICT), so the transaction goes on.
func (s *PaymentRequestStore) CreatePaymentRequest(ctx context.Context, r *payments.PaymentRequest) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []paymentRequestRow
	err := s.db.NewRaw(`INSERT INTO payment_requests (code, partner_id, status, amount, currency, customer_first_name,
			customer_last_name, customer_email, language, reference, description, origin, product,
			invoicing_marketplace_id, created_by_user_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (code) DO NOTHING
		RETURNING id, created_on, modified_on`,
		r.Code, r.PartnerID, r.Status, r.Amount, r.Currency, r.Customer.FirstName, r.Customer.LastName,
		r.Customer.Email, r.Language, r.Reference, r.Description, r.Origin, r.Product, r.InvoicingMarketplaceID,
		r.CreatedByUserID).Scan(ctx, &rows)
	switch {
	case err != nil:
		return fmt.Errorf("insert payment request: %w", err)
	case len(rows) == 0:
		return invalidField("code", domain.VUnique, "A payment request with this code already exists.")
	}
	r.ID, r.CreatedOn, r.ModifiedOn = rows[0].ID, rows[0].CreatedOn, rows[0].ModifiedOn
	return nil
}

// FindPaymentRequest implements payments.PaymentRequestStore. The lock
// is a statement of its own, so that the read after it sees what the
// transaction that held it wrote.
func (s *PaymentRequestStore) FindPaymentRequest(ctx context.Context, id int64, lock bool) (*payments.PaymentRequest, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if lock {
		if err := lockRow(ctx, s.db, "payment request", `SELECT id FROM payment_requests WHERE id = ? FOR UPDATE`, id); err != nil {
			return nil, err
		}
	}
	var r paymentRequestRow
	if err := s.db.NewRaw(paymentRequestSelect+` WHERE rq.id = ?`, id).Scan(ctx, &r); err != nil {
		return nil, notFound(err)
	}
	return r.toDomain(), nil
}

// PaymentRequestByCode implements payments.PaymentRequestStore.
func (s *PaymentRequestStore) PaymentRequestByCode(ctx context.Context, code string) (*payments.PaymentRequest, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var r paymentRequestRow
	if err := s.db.NewRaw(paymentRequestSelect+` WHERE rq.code = ?`, code).Scan(ctx, &r); err != nil {
		return nil, notFound(err)
	}
	return r.toDomain(), nil
}

// ListPaymentRequests implements payments.PaymentRequestStore.
func (s *PaymentRequestStore) ListPaymentRequests(ctx context.Context, f payments.PaymentRequestFilter, page domain.PageRequest) ([]*payments.PaymentRequest, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var c conds
	if f.Tenant != nil {
		if err := c.addTenant(ctx, s.db, "rq.partner_id", *f.Tenant); err != nil {
			return nil, 0, err
		}
	}
	if f.Search != "" {
		like := likeContains(f.Search)
		c.add(`(rq.reference ILIKE ? ESCAPE '\' OR rq.description ILIKE ? ESCAPE '\'
			OR rq.code ILIKE ? ESCAPE '\' OR rq.customer_email ILIKE ? ESCAPE '\'
			OR rq.customer_first_name || ' ' || rq.customer_last_name ILIKE ? ESCAPE '\')`, like, like, like, like, like)
	}
	cond, args := c.sql(), c.args
	var count int
	if err := s.db.NewRaw(`SELECT count(*) FROM payment_requests rq`+cond, args...).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count payment requests: %w", err)
	}
	var rows []paymentRequestRow
	if count > page.Offset() {
		if err := s.db.NewRaw(paymentRequestSelect+cond+` ORDER BY rq.created_on DESC, rq.id DESC LIMIT ? OFFSET ?`,
			append(args, page.Size, page.Offset())...).Scan(ctx, &rows); err != nil {
			return nil, 0, fmt.Errorf("select payment requests: %w", err)
		}
	}
	out := make([]*payments.PaymentRequest, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// CountRequestPayments implements payments.PaymentRequestStore.
func (s *PaymentRequestStore) CountRequestPayments(ctx context.Context, id int64) (all, inProgress int, err error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if err := s.db.NewRaw(`SELECT count(*), count(*) FILTER (WHERE status = ?) FROM payments WHERE payment_request_id = ?`,
		payments.StatusInProgress, id).Scan(ctx, &all, &inProgress); err != nil {
		return 0, 0, fmt.Errorf("count payments of payment request %d: %w", id, err)
	}
	return all, inProgress, nil
}

// MarkPaymentRequestPaid implements payments.PaymentRequestStore.
func (s *PaymentRequestStore) MarkPaymentRequestPaid(ctx context.Context, id int64, at time.Time) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`UPDATE payment_requests SET status = 'paid', paid_on = ?, modified_on = now()
		WHERE id = ? AND status = 'pending'`, at, id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("mark payment request %d paid: %w", id, err)
	}
	return nil
}
