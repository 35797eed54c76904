package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
)

// PaymentStore is the payments.PaymentStore on PostgreSQL.
type PaymentStore struct{ db bun.IDB }

var _ payments.PaymentStore = (*PaymentStore)(nil)

type paymentRow struct {
	ID                    int64           `bun:"id"`
	UUID                  uuid.UUID       `bun:"uuid"`
	PartnerID             int64           `bun:"partner_id"`
	PartnerUUID           uuid.UUID       `bun:"partner_uuid"`
	ReferrerID            *int64          `bun:"referrer_id"`
	Status                string          `bun:"status"`
	Currency              string          `bun:"currency"`
	CustomerFirstName     string          `bun:"customer_first_name"`
	CustomerLastName      string          `bun:"customer_last_name"`
	CustomerEmail         string          `bun:"customer_email"`
	Origin                string          `bun:"origin"`
	Product               string          `bun:"product"`
	Type                  string          `bun:"type"`
	Amount                decimal.Decimal `bun:"amount"`
	Discount              decimal.Decimal `bun:"discount"`
	Commission            decimal.Decimal `bun:"commission"`
	NetAmount             decimal.Decimal `bun:"net_amount"`
	ExtraSourceAmount     decimal.Decimal `bun:"extra_source_amount"`
	ExtraSourceWalletID   *int64          `bun:"extra_source_wallet_id"`
	ExtraSourceWalletUUID *uuid.UUID      `bun:"extra_source_wallet_uuid"`
	PayinAmount           decimal.Decimal `bun:"payin_amount"`
	RefundedAmount        decimal.Decimal `bun:"refunded_amount"`
	RefundedExtraSource   decimal.Decimal `bun:"refunded_extra_source"`
	RefundedPayin         decimal.Decimal `bun:"refunded_payin"`
	RefundedCommission    decimal.Decimal `bun:"refunded_commission"`
	ReservedExtraSource   decimal.Decimal `bun:"reserved_extra_source"`
	ReservedPayin         decimal.Decimal `bun:"reserved_payin"`
	ReservedCommission    decimal.Decimal `bun:"reserved_commission"`
	PayinProvider         string          `bun:"payin_provider"`
	PayinRef              string          `bun:"payin_ref"`
	PayinStatus           string          `bun:"payin_status"`
	PayinURL              string          `bun:"payin_url"`
	PayinResultCode       string          `bun:"payin_result_code"`
	PayinResultMessage    string          `bun:"payin_result_message"`
	ReceiptDescription    string          `bun:"payment_receipt_description"`
	FreezePayoutDate      *time.Time      `bun:"freeze_payout_date"`
	PaidOn                *time.Time      `bun:"paid_on"`
	PayoutRequestID       *int64          `bun:"payout_request_id"`
	PayoutStatus          *string         `bun:"payout_status"`
	PayoutCreationDate    *time.Time      `bun:"payout_creation_date"`
	PayoutValidationDate  *time.Time      `bun:"payout_validation_date"`
	PaymentRequestID      *int64          `bun:"payment_request_id"`
	InvoicingMarketplace  *int64          `bun:"invoicing_marketplace_id"`
	CreatedByUserID       *int64          `bun:"created_by_user_id"`
	CreatedOn             time.Time       `bun:"created_on"`
	ModifiedOn            time.Time       `bun:"modified_on"`
}

func (r *paymentRow) toDomain() *payments.Payment {
	p := &payments.Payment{ID: r.ID, UUID: r.UUID, Status: r.Status, Currency: r.Currency,
		Customer: network.Customer{FirstName: r.CustomerFirstName, LastName: r.CustomerLastName, Email: r.CustomerEmail},
		Origin:   r.Origin, Product: r.Product, Type: r.Type, PartnerID: r.PartnerID, PartnerUUID: r.PartnerUUID,
		ReferrerID: r.ReferrerID, Amount: r.Amount, Discount: r.Discount, Commission: r.Commission, NetAmount: r.NetAmount,
		ExtraSourceAmount: r.ExtraSourceAmount, ExtraSourceWalletID: r.ExtraSourceWalletID,
		ExtraSourceWalletUUID: r.ExtraSourceWalletUUID, PayinAmount: r.PayinAmount, RefundedAmount: r.RefundedAmount,
		RefundedExtraSource: r.RefundedExtraSource, RefundedPayin: r.RefundedPayin, RefundedCommission: r.RefundedCommission,
		ReservedExtraSource: r.ReservedExtraSource, ReservedPayin: r.ReservedPayin, ReservedCommission: r.ReservedCommission,
		PayinProvider: r.PayinProvider, PayinRef: r.PayinRef, PayinStatus: r.PayinStatus, PayinURL: r.PayinURL,
		PayinResultCode: r.PayinResultCode, PayinResultMessage: r.PayinResultMessage,
		ReceiptDescription: r.ReceiptDescription, FreezePayoutDate: r.FreezePayoutDate, PaidOn: r.PaidOn,
		PaymentRequestID: r.PaymentRequestID, InvoicingMarketplaceID: r.InvoicingMarketplace, CreatedByUserID: r.CreatedByUserID, CreatedOn: r.CreatedOn,
		ModifiedOn: r.ModifiedOn}
	if r.PayoutRequestID != nil {
		p.Payout = &payments.PayoutRef{ID: *r.PayoutRequestID, Status: *r.PayoutStatus, CreationDate: *r.PayoutCreationDate,
			ValidationDate: r.PayoutValidationDate}
	}
	return p
}

// paymentSelect reads payments (alias pm) with what they show of their
// partner, extra source wallet and payout request.
const paymentSelect = `SELECT pm.id, pm.uuid, pm.partner_id, p.uuid AS partner_uuid, li.referrer_id, pm.status,
		pm.currency, pm.customer_first_name, pm.customer_last_name, pm.customer_email, pm.origin, pm.product, pm.type,
		pm.amount, pm.discount, pm.commission, pm.net_amount, pm.extra_source_amount, pm.extra_source_wallet_id,
		w.uuid AS extra_source_wallet_uuid, pm.payin_amount, pm.refunded_amount, pm.refunded_extra_source,
		pm.refunded_payin, pm.refunded_commission, pm.reserved_extra_source, pm.reserved_payin, pm.reserved_commission,
		pm.payin_provider, pm.payin_ref, pm.payin_status, pm.payin_url, pm.payin_result_code, pm.payin_result_message,
		pm.payment_receipt_description, pm.freeze_payout_date, pm.paid_on, pm.payout_request_id,
		pr.status AS payout_status, pr.creation_date AS payout_creation_date, pr.validation_date AS payout_validation_date,
		pm.payment_request_id, pm.invoicing_marketplace_id, pm.created_by_user_id, pm.created_on, pm.modified_on
	FROM payments pm
	JOIN partners p ON p.id = pm.partner_id
	LEFT JOIN partner_legal_information li ON li.partner_id = pm.partner_id
	LEFT JOIN wallets w ON w.id = pm.extra_source_wallet_id
	LEFT JOIN payout_requests pr ON pr.id = pm.payout_request_id`

// CreatePayment implements payments.PaymentStore.
func (s *PaymentStore) CreatePayment(ctx context.Context, p *payments.Payment) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO payments (uuid, partner_id, status, currency, customer_first_name,
			customer_last_name, customer_email, origin, product, type, amount, discount, commission, net_amount,
			extra_source_amount, extra_source_wallet_id, payin_amount, payment_receipt_description, freeze_payout_date,
			payment_request_id, invoicing_marketplace_id, created_by_user_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id, created_on, modified_on`,
		p.UUID, p.PartnerID, p.Status, p.Currency, p.Customer.FirstName, p.Customer.LastName, p.Customer.Email,
		p.Origin, p.Product, p.Type, p.Amount, p.Discount, p.Commission, p.NetAmount, p.ExtraSourceAmount,
		p.ExtraSourceWalletID, p.PayinAmount, p.ReceiptDescription, p.FreezePayoutDate, p.PaymentRequestID,
		p.InvoicingMarketplaceID, p.CreatedByUserID).Scan(ctx, &p.ID, &p.CreatedOn, &p.ModifiedOn)
	if err != nil {
		return fmt.Errorf("insert payment: %w", err)
	}
	return nil
}

// FindPayment implements payments.PaymentStore. The lock is a statement
// of its own, so that the read after it sees what the transaction that
// held it wrote.
func (s *PaymentStore) FindPayment(ctx context.Context, id uuid.UUID, lock bool) (*payments.Payment, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if lock {
		if err := lockRow(ctx, s.db, "payment", `SELECT id FROM payments WHERE uuid = ? FOR UPDATE`, id); err != nil {
			return nil, err
		}
	}
	var r paymentRow
	if err := s.db.NewRaw(paymentSelect+` WHERE pm.uuid = ?`, id).Scan(ctx, &r); err != nil {
		return nil, notFound(err)
	}
	return r.toDomain(), nil
}

// PaymentsByUUID implements payments.PaymentStore.
func (s *PaymentStore) PaymentsByUUID(ctx context.Context, ids []uuid.UUID) ([]*payments.Payment, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []paymentRow
	if err := s.db.NewRaw(paymentSelect+` WHERE pm.uuid = ANY(?::uuid[])`, pgdialect.Array(ids)).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("select payments: %w", err)
	}
	byUUID := make(map[uuid.UUID]*payments.Payment, len(rows))
	for _, r := range rows {
		byUUID[r.UUID] = r.toDomain()
	}
	out := make([]*payments.Payment, len(ids))
	for i, id := range ids {
		out[i] = byUUID[id]
	}
	return out, nil
}

// PaymentByPayinRef implements payments.PaymentStore.
func (s *PaymentStore) PaymentByPayinRef(ctx context.Context, provider, ref string) (uuid.UUID, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var id uuid.UUID
	err := s.db.NewRaw(`SELECT uuid FROM payments WHERE payin_provider = ? AND payin_ref = ? AND payin_ref <> ''`,
		provider, ref).Scan(ctx, &id)
	return id, notFound(err)
}

// SavePayment implements payments.PaymentStore.
func (s *PaymentStore) SavePayment(ctx context.Context, p *payments.Payment) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`UPDATE payments SET status = ?, payin_provider = ?, payin_ref = ?, payin_status = ?,
			payin_url = ?, payin_result_code = ?, payin_result_message = ?, paid_on = ?, freeze_payout_date = ?,
			refunded_amount = ?, refunded_extra_source = ?, refunded_payin = ?, refunded_commission = ?,
			reserved_extra_source = ?, reserved_payin = ?, reserved_commission = ?, modified_on = now()
		WHERE id = ? RETURNING modified_on`,
		p.Status, p.PayinProvider, p.PayinRef, p.PayinStatus, p.PayinURL, p.PayinResultCode, p.PayinResultMessage,
		p.PaidOn, p.FreezePayoutDate, p.RefundedAmount, p.RefundedExtraSource, p.RefundedPayin, p.RefundedCommission,
		p.ReservedExtraSource, p.ReservedPayin, p.ReservedCommission, p.ID).Scan(ctx, &p.ModifiedOn)
	if err != nil {
		return fmt.Errorf("update payment %d: %w", p.ID, err)
	}
	return nil
}

// ListPayments implements payments.PaymentStore.
func (s *PaymentStore) ListPayments(ctx context.Context, f payments.PaymentFilter, page domain.PageRequest) ([]*payments.Payment, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var c conds
	add := c.add
	if f.Tenant != nil {
		if err := c.addTenant(ctx, s.db, "pm.partner_id", *f.Tenant); err != nil {
			return nil, 0, err
		}
	}
	if f.PartnerUUID != nil {
		add(`pm.partner_id = (SELECT id FROM partners WHERE uuid = ?)`, *f.PartnerUUID)
	}
	if f.CreatedFrom != nil {
		add(`pm.created_on >= ?`, *f.CreatedFrom)
	}
	if f.CreatedBefore != nil {
		add(`pm.created_on < ?`, *f.CreatedBefore)
	}
	if f.Statuses != nil {
		add(`pm.status = ANY(?::text[])`, pgdialect.Array(f.Statuses))
	}
	if f.PayoutRequestStatuses != nil {
		add(`pr.status = ANY(?::text[])`, pgdialect.Array(f.PayoutRequestStatuses))
	}
	for _, c := range []struct{ col, value string }{{"customer_first_name", f.CustomerFirstName},
		{"customer_last_name", f.CustomerLastName}, {"customer_email", f.CustomerEmail}} {
		if c.value != "" {
			add(`lower(pm.`+c.col+`) = lower(?)`, c.value)
		}
	}
	if f.PartiallyRefunded {
		add(`pm.refunded_amount > 0 AND pm.refunded_amount < pm.amount`)
	}
	if f.FullyRefunded {
		add(`pm.refunded_amount = pm.amount`)
	}
	if f.PaymentRequestID != nil {
		add(`pm.payment_request_id = ?`, *f.PaymentRequestID)
	}
	if f.PayoutRequestID != nil {
		add(`pm.payout_request_id = ?`, *f.PayoutRequestID)
	}
	cond, args := c.sql(), c.args
	// The count joins the payout requests only when a filter reads them.
	from := `SELECT count(*) FROM payments pm`
	if f.PayoutRequestStatuses != nil {
		from += ` LEFT JOIN payout_requests pr ON pr.id = pm.payout_request_id`
	}
	var count int
	if err := s.db.NewRaw(from+cond, args...).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count payments: %w", err)
	}
	var rows []paymentRow
	if count > page.Offset() {
		if err := s.db.NewRaw(paymentSelect+cond+` ORDER BY pm.created_on DESC, pm.id DESC LIMIT ? OFFSET ?`,
			append(args, page.Size, page.Offset())...).Scan(ctx, &rows); err != nil {
			return nil, 0, fmt.Errorf("select payments: %w", err)
		}
	}
	out := make([]*payments.Payment, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// AddTransaction implements payments.PaymentStore.
func (s *PaymentStore) AddTransaction(ctx context.Context, t *payments.Transaction) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO payment_transactions (payment_id, refund_id, type, payment_method, status, amount,
			commission, net_amount, currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, created_on`,
		t.PaymentID, t.RefundID, t.Type, t.PaymentMethod, t.Status, t.Amount, t.Commission, t.NetAmount, t.Currency).
		Scan(ctx, &t.ID, &t.CreatedOn)
	if err != nil {
		return fmt.Errorf("insert payment transaction: %w", err)
	}
	return nil
}

// SetPayinTransactions implements payments.PaymentStore.
func (s *PaymentStore) SetPayinTransactions(ctx context.Context, paymentID int64, status string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`UPDATE payment_transactions SET status = ?, modified_on = now()
		WHERE payment_id = ? AND type = 'payin'`, status, paymentID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("update payin transactions of payment %d: %w", paymentID, err)
	}
	return nil
}

type transactionRow struct {
	ID            int64           `bun:"id"`
	PaymentID     int64           `bun:"payment_id"`
	RefundID      *int64          `bun:"refund_id"`
	CreatedOn     time.Time       `bun:"created_on"`
	Type          string          `bun:"type"`
	PaymentMethod string          `bun:"payment_method"`
	Status        string          `bun:"status"`
	Amount        decimal.Decimal `bun:"amount"`
	Commission    decimal.Decimal `bun:"commission"`
	NetAmount     decimal.Decimal `bun:"net_amount"`
	Currency      string          `bun:"currency"`
}

// TransactionsOfPayments implements payments.PaymentStore.
func (s *PaymentStore) TransactionsOfPayments(ctx context.Context, ps []*payments.Payment) ([][]*payments.Transaction, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	byID := make(map[int64]*payments.Payment, len(ps))
	ids := make([]int64, 0, len(ps))
	for _, p := range ps {
		if p != nil {
			byID[p.ID] = p
			ids = append(ids, p.ID)
		}
	}
	var rows []transactionRow
	if err := s.db.NewRaw(`SELECT id, payment_id, refund_id, created_on, type, payment_method, status, amount,
			commission, net_amount, currency
		FROM payment_transactions WHERE payment_id = ANY(?) ORDER BY id`, pgdialect.Array(ids)).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("select transactions of payments: %w", err)
	}
	byPayment := map[int64][]*payments.Transaction{}
	for _, r := range rows {
		p := byID[r.PaymentID]
		byPayment[p.ID] = append(byPayment[p.ID], &payments.Transaction{ID: r.ID, PaymentID: r.PaymentID,
			RefundID: r.RefundID, CreatedOn: r.CreatedOn, Type: r.Type, PaymentMethod: r.PaymentMethod, Status: r.Status,
			Amount: r.Amount, Commission: r.Commission, NetAmount: r.NetAmount, Currency: r.Currency,
			PartnerID: p.PartnerID, PaymentUUID: p.UUID, Customer: p.Customer})
	}
	out := make([][]*payments.Transaction, len(ps))
	for i, p := range ps {
		if p != nil {
			out[i] = byPayment[p.ID]
		}
	}
	return out, nil
}

// CardAccepted implements payments.PaymentStore: the marketplace itself,
// or a partner of its network in its network giftcard settings and not
// inactive, as a use requires.
func (s *PaymentStore) CardAccepted(ctx context.Context, partnerID, marketplaceID int64) (bool, error) {
	if partnerID == marketplaceID {
		return true, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ok bool
	err := s.db.NewRaw(`SELECT EXISTS (SELECT 1 FROM network_partners np JOIN partners p ON p.id = np.partner_id
			JOIN network_giftcard_allowed_partners a ON a.marketplace_id = np.marketplace_id AND a.partner_id = np.partner_id
			WHERE np.marketplace_id = ? AND np.partner_id = ? AND p.status <> ?)`,
		marketplaceID, partnerID, domain.PartnerStatusInactive).Scan(ctx, &ok)
	if err != nil {
		return false, fmt.Errorf("select card acceptance: %w", err)
	}
	return ok, nil
}

type refundRow struct {
	ID                int64           `bun:"id"`
	UUID              uuid.UUID       `bun:"uuid"`
	PaymentID         int64           `bun:"payment_id"`
	PaymentUUID       uuid.UUID       `bun:"payment_uuid"`
	Currency          string          `bun:"currency"`
	Status            string          `bun:"status"`
	Amount            decimal.Decimal `bun:"amount"`
	ExtraSourceAmount decimal.Decimal `bun:"extra_source_amount"`
	PayinAmount       decimal.Decimal `bun:"payin_amount"`
	Commission        decimal.Decimal `bun:"commission"`
	Split             bool            `bun:"split"`
	Reason            string          `bun:"reason"`
	ProviderRef       string          `bun:"provider_ref"`
	ResultCode        string          `bun:"result_code"`
	ResultMessage     string          `bun:"result_message"`
	ActorUserID       *int64          `bun:"actor_user_id"`
	Actor             string          `bun:"actor"`
	CreatedOn         time.Time       `bun:"created_on"`
	FinishedOn        *time.Time      `bun:"finished_on"`
}

func (r *refundRow) toDomain() *payments.Refund {
	return &payments.Refund{ID: r.ID, UUID: r.UUID, PaymentID: r.PaymentID, PaymentUUID: r.PaymentUUID, Currency: r.Currency, Status: r.Status,
		Amount: r.Amount, ExtraSourceAmount: r.ExtraSourceAmount, PayinAmount: r.PayinAmount, Commission: r.Commission,
		Split: r.Split, Reason: r.Reason, ProviderRef: r.ProviderRef, ResultCode: r.ResultCode,
		ResultMessage: r.ResultMessage, ActorUserID: r.ActorUserID, Actor: r.Actor, CreatedOn: r.CreatedOn,
		FinishedOn: r.FinishedOn}
}

const refundSelect = `SELECT r.id, r.uuid, r.payment_id, pm.uuid AS payment_uuid, pm.currency, r.status, r.amount,
		r.extra_source_amount, r.payin_amount, r.commission, r.split, r.reason, r.provider_ref, r.result_code,
		r.result_message, r.actor_user_id, r.actor, r.created_on, r.finished_on
	FROM payment_refunds r JOIN payments pm ON pm.id = r.payment_id`

// CreateRefund implements payments.PaymentStore.
func (s *PaymentStore) CreateRefund(ctx context.Context, r *payments.Refund) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO payment_refunds (uuid, payment_id, status, amount, extra_source_amount,
			payin_amount, commission, split, reason, actor_user_id, actor)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, created_on`,
		r.UUID, r.PaymentID, r.Status, r.Amount, r.ExtraSourceAmount, r.PayinAmount, r.Commission, r.Split, r.Reason,
		r.ActorUserID, r.Actor).Scan(ctx, &r.ID, &r.CreatedOn)
	if err != nil {
		return fmt.Errorf("insert refund: %w", err)
	}
	return nil
}

// FindRefund implements payments.PaymentStore.
func (s *PaymentStore) FindRefund(ctx context.Context, id uuid.UUID) (*payments.Refund, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var r refundRow
	if err := s.db.NewRaw(refundSelect+` WHERE r.uuid = ?`, id).Scan(ctx, &r); err != nil {
		return nil, notFound(err)
	}
	return r.toDomain(), nil
}

// FinishRefund implements payments.PaymentStore.
func (s *PaymentStore) FinishRefund(ctx context.Context, r *payments.Refund) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`UPDATE payment_refunds SET status = ?, provider_ref = ?, result_code = ?,
			result_message = ?, finished_on = ? WHERE id = ?`,
		r.Status, r.ProviderRef, r.ResultCode, r.ResultMessage, r.FinishedOn, r.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("update refund %d: %w", r.ID, err)
	}
	return nil
}

// CountRefunds implements payments.PaymentStore.
func (s *PaymentStore) CountRefunds(ctx context.Context, paymentID int64) (int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var n int
	if err := s.db.NewRaw(`SELECT count(*) FROM payment_refunds WHERE payment_id = ?`, paymentID).Scan(ctx, &n); err != nil {
		return 0, fmt.Errorf("count refunds of payment %d: %w", paymentID, err)
	}
	return n, nil
}

// RefundsOfPayments implements payments.PaymentStore.
func (s *PaymentStore) RefundsOfPayments(ctx context.Context, ids []int64) ([][]*payments.Refund, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []refundRow
	if err := s.db.NewRaw(refundSelect+` WHERE r.payment_id = ANY(?) ORDER BY r.id`, pgdialect.Array(ids)).
		Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("select refunds of payments: %w", err)
	}
	byPayment := map[int64][]*payments.Refund{}
	for i := range rows {
		byPayment[rows[i].PaymentID] = append(byPayment[rows[i].PaymentID], rows[i].toDomain())
	}
	out := make([][]*payments.Refund, len(ids))
	for i, id := range ids {
		out[i] = byPayment[id]
	}
	return out, nil
}

// PendingRefunds implements payments.PaymentStore.
func (s *PaymentStore) PendingRefunds(ctx context.Context, before time.Time, limit int) ([]*payments.Refund, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []refundRow
	if err := s.db.NewRaw(refundSelect+` WHERE r.status = ? AND r.created_on < ? ORDER BY r.id LIMIT ?`,
		payments.RefundPending, before, limit).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("select pending refunds: %w", err)
	}
	out := make([]*payments.Refund, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, nil
}

// StalePayments implements payments.PaymentStore.
func (s *PaymentStore) StalePayments(ctx context.Context, before time.Time, limit int) ([]uuid.UUID, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ids []uuid.UUID
	if err := s.db.NewRaw(`SELECT uuid FROM payments WHERE status = ? AND modified_on < ? ORDER BY modified_on, id LIMIT ?`,
		payments.StatusInProgress, before, limit).Scan(ctx, &ids); err != nil {
		return nil, fmt.Errorf("select stale payments: %w", err)
	}
	return ids, nil
}

// AddAudit implements payments.PaymentStore.
func (s *PaymentStore) AddAudit(ctx context.Context, e *payments.HubAuditEntry) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`INSERT INTO payment_hub_audit (payment_id, payout_request_id, actor_user_id, actor, action,
			reason, before, after) VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)`,
		e.PaymentID, e.PayoutRequestID, e.ActorUserID, e.Actor, e.Action, e.Reason, jsonOrNil(e.Before), string(e.After)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("insert payment hub audit entry: %w", err)
	}
	return nil
}
