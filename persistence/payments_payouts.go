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

// PayoutStore is the payments.PayoutStore on PostgreSQL.
type PayoutStore struct{ db bun.IDB }

var _ payments.PayoutStore = (*PayoutStore)(nil)

// HubPartners implements payments.PayoutStore.
func (s *PayoutStore) HubPartners(ctx context.Context) ([]uuid.UUID, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ids []uuid.UUID
	if err := s.db.NewRaw(`SELECT p.uuid FROM payment_partners pp JOIN partners p ON p.id = pp.partner_id
		ORDER BY pp.partner_id`).Scan(ctx, &ids); err != nil {
		return nil, fmt.Errorf("select payment partners: %w", err)
	}
	return ids, nil
}

// PayoutExists implements payments.PayoutStore.
func (s *PayoutStore) PayoutExists(ctx context.Context, partnerID int64, currency string, start time.Time) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ok bool
	err := s.db.NewRaw(`SELECT EXISTS (SELECT 1 FROM payout_requests WHERE partner_id = ? AND currency = ? AND period_start = ?)`,
		partnerID, currency, start).Scan(ctx, &ok)
	if err != nil {
		return false, fmt.Errorf("select payout request: %w", err)
	}
	return ok, nil
}

type dueRow struct {
	ID       int64           `bun:"id"`
	Currency string          `bun:"currency"`
	Amount   decimal.Decimal `bun:"amount"`
}

// DuePayments implements payments.PayoutStore: what is left of a
// payment's net amount in its payee's wallet is its net amount less what
// its refunds took back from it (their amount less their commission).
func (s *PayoutStore) DuePayments(ctx context.Context, payeeID int64, end time.Time) ([]payments.DuePayment, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []dueRow
	err := s.db.NewRaw(`SELECT id, currency, net_amount - refunded_amount + refunded_commission AS amount
		FROM payments
		WHERE coalesce(invoicing_marketplace_id, partner_id) = ? AND payout_request_id IS NULL AND status = ?
			AND coalesce(freeze_payout_date, paid_on) < ?
			AND reserved_extra_source = 0 AND reserved_payin = 0 AND reserved_commission = 0
		ORDER BY id FOR UPDATE`, payeeID, payments.StatusPaid, end).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select due payments: %w", err)
	}
	out := make([]payments.DuePayment, len(rows))
	for i, r := range rows {
		out[i] = payments.DuePayment{ID: r.ID, Currency: r.Currency, Due: r.Amount}
	}
	return out, nil
}

// DueRefunds implements payments.PayoutStore.
func (s *PayoutStore) DueRefunds(ctx context.Context, payeeID int64) ([]payments.DueRefund, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []dueRow
	err := s.db.NewRaw(`SELECT r.id, pm.currency, r.amount - r.commission AS amount
		FROM payment_refunds r JOIN payments pm ON pm.id = r.payment_id
		WHERE coalesce(pm.invoicing_marketplace_id, pm.partner_id) = ? AND pm.payout_request_id IS NOT NULL
			AND r.payout_request_id IS NULL AND r.status = ?
		ORDER BY r.id FOR UPDATE OF r`, payeeID, payments.RefundStatusSucceeded).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select due refunds: %w", err)
	}
	out := make([]payments.DueRefund, len(rows))
	for i, r := range rows {
		out[i] = payments.DueRefund{ID: r.ID, Currency: r.Currency, Amount: r.Amount}
	}
	return out, nil
}

// DueUsages implements payments.PayoutStore.
func (s *PayoutStore) DueUsages(ctx context.Context, partnerID int64, end time.Time) ([]payments.DueUsage, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []dueRow
	err := s.db.NewRaw(`SELECT u.id, `+networkUsageCurrency+` AS currency, u.value AS amount
		FROM network_giftcard_usages u
		WHERE u.partner_id = ? AND u.payout_id IS NULL AND u.is_active
			AND coalesce(u.freeze_payout_date, u.creation_date) < ?
		ORDER BY u.id FOR UPDATE OF u`, partnerID, end).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("select due network giftcard usages: %w", err)
	}
	out := make([]payments.DueUsage, len(rows))
	for i, r := range rows {
		out[i] = payments.DueUsage{ID: r.ID, Currency: r.Currency, Value: r.Amount}
	}
	return out, nil
}

// CreatePayout implements payments.PayoutStore.
func (s *PayoutStore) CreatePayout(ctx context.Context, p *payments.Payout) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO payout_requests (partner_id, currency, status, period_start, period_end, amount,
			usages_amount, validation_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, uuid, creation_date`,
		p.PartnerID, p.Currency, p.Status, p.PeriodStart, p.PeriodEnd, p.Amount, p.UsagesAmount, p.ValidationDate).
		Scan(ctx, &p.ID, &p.UUID, &p.CreationDate)
	if err != nil {
		return fmt.Errorf("insert payout request: %w", err)
	}
	return nil
}

// Attach implements payments.PayoutStore.
func (s *PayoutStore) Attach(ctx context.Context, payoutID int64, pays, refunds, usages []int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	for _, st := range []struct {
		what, query string
		ids         []int64
	}{
		{"payments", `UPDATE payments SET payout_request_id = ?, modified_on = now() WHERE id = ANY(?::bigint[])`, pays},
		// The refunds that came before: the net amount was counted less them.
		{"refunds of payments", `UPDATE payment_refunds SET payout_request_id = ?
			WHERE payment_id = ANY(?::bigint[]) AND payout_request_id IS NULL`, pays},
		{"refunds", `UPDATE payment_refunds SET payout_request_id = ? WHERE id = ANY(?::bigint[])`, refunds},
		{"usages", `UPDATE network_giftcard_usages SET payout_id = ? WHERE id = ANY(?::bigint[])`, usages},
		{"usage movements", `UPDATE network_giftcard_movements SET payout_id = ?
			WHERE usage_id = ANY(?::bigint[]) AND kind = 'use'`, usages},
	} {
		if len(st.ids) == 0 {
			continue
		}
		if _, err := s.db.NewRaw(st.query, payoutID, pgdialect.Array(st.ids)).Exec(ctx); err != nil {
			return fmt.Errorf("attach %s to payout request %d: %w", st.what, payoutID, err)
		}
	}
	return nil
}

type payoutRow struct {
	ID             int64           `bun:"id"`
	UUID           uuid.UUID       `bun:"uuid"`
	PartnerID      int64           `bun:"partner_id"`
	PartnerUUID    uuid.UUID       `bun:"partner_uuid"`
	ReferrerID     *int64          `bun:"referrer_id"`
	Currency       string          `bun:"currency"`
	Status         string          `bun:"status"`
	PeriodStart    time.Time       `bun:"period_start"`
	PeriodEnd      time.Time       `bun:"period_end"`
	Amount         decimal.Decimal `bun:"amount"`
	UsagesAmount   decimal.Decimal `bun:"usages_amount"`
	PaymentsCount  int             `bun:"payments_count"`
	UsagesCount    int             `bun:"usages_count"`
	CreationDate   time.Time       `bun:"creation_date"`
	ValidationDate *time.Time      `bun:"validation_date"`
	PaidDate       *time.Time      `bun:"paid_date"`
}

func (r *payoutRow) toDomain() *payments.Payout {
	return &payments.Payout{ID: r.ID, UUID: r.UUID, PartnerID: r.PartnerID, PartnerUUID: r.PartnerUUID,
		ReferrerID: r.ReferrerID, Currency: r.Currency, Status: r.Status, PeriodStart: r.PeriodStart,
		PeriodEnd: r.PeriodEnd, Amount: r.Amount, UsagesAmount: r.UsagesAmount, PaymentsCount: r.PaymentsCount,
		UsagesCount: r.UsagesCount, CreationDate: r.CreationDate, ValidationDate: r.ValidationDate, PaidDate: r.PaidDate}
}

// payoutSelect reads payout requests (alias pr) with their payee's uuid
// and referrer and their counts.
const payoutSelect = `SELECT pr.id, pr.uuid, pr.partner_id, p.uuid AS partner_uuid, li.referrer_id, pr.currency,
		pr.status, pr.period_start, pr.period_end, pr.amount, pr.usages_amount,
		(SELECT count(*) FROM payments pm WHERE pm.payout_request_id = pr.id) AS payments_count,
		(SELECT count(*) FROM network_giftcard_usages u WHERE u.payout_id = pr.id) AS usages_count,
		pr.creation_date, pr.validation_date, pr.paid_date
	FROM payout_requests pr
	JOIN partners p ON p.id = pr.partner_id
	LEFT JOIN partner_legal_information li ON li.partner_id = pr.partner_id`

// FindPayout implements payments.PayoutStore.
func (s *PayoutStore) FindPayout(ctx context.Context, id int64, lock bool) (*payments.Payout, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if lock {
		if err := lockRow(ctx, s.db, "payout request", `SELECT id FROM payout_requests WHERE id = ? FOR UPDATE`, id); err != nil {
			return nil, err
		}
	}
	var r payoutRow
	if err := s.db.NewRaw(payoutSelect+` WHERE pr.id = ?`, id).Scan(ctx, &r); err != nil {
		return nil, notFound(err)
	}
	return r.toDomain(), nil
}

// SavePayout implements payments.PayoutStore.
func (s *PayoutStore) SavePayout(ctx context.Context, p *payments.Payout) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`UPDATE payout_requests SET status = ?, validation_date = ?, paid_date = ? WHERE id = ?`,
		p.Status, p.ValidationDate, p.PaidDate, p.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("update payout request %d: %w", p.ID, err)
	}
	return nil
}

// ListPayouts implements payments.PayoutStore.
func (s *PayoutStore) ListPayouts(ctx context.Context, f payments.PayoutFilter, page domain.PageRequest) ([]*payments.Payout, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var c conds
	add := c.add
	if f.Tenant != nil {
		if err := c.addTenant(ctx, s.db, "pr.partner_id", *f.Tenant); err != nil {
			return nil, 0, err
		}
	}
	if f.PartnerUUID != nil {
		add(`p.uuid = ?`, *f.PartnerUUID)
	}
	if f.CreatedFrom != nil {
		add(`pr.creation_date >= ?`, *f.CreatedFrom)
	}
	if f.CreatedBefore != nil {
		add(`pr.creation_date < ?`, *f.CreatedBefore)
	}
	if f.Statuses != nil {
		add(`pr.status = ANY(?::text[])`, pgdialect.Array(f.Statuses))
	}
	cond, args := c.sql(), c.args
	var count int
	if err := s.db.NewRaw(`SELECT count(*) FROM payout_requests pr JOIN partners p ON p.id = pr.partner_id`+cond,
		args...).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count payout requests: %w", err)
	}
	var rows []payoutRow
	if count > page.Offset() {
		if err := s.db.NewRaw(payoutSelect+cond+` ORDER BY pr.creation_date DESC, pr.id DESC LIMIT ? OFFSET ?`,
			append(args, page.Size, page.Offset())...).Scan(ctx, &rows); err != nil {
			return nil, 0, fmt.Errorf("select payout requests: %w", err)
		}
	}
	out := make([]*payments.Payout, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}

// UsagesOfPayout implements payments.PayoutStore.
func (s *PayoutStore) UsagesOfPayout(ctx context.Context, id int64, page domain.PageRequest) ([]*network.Usage, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var count int
	if err := s.db.NewRaw(`SELECT count(*) FROM network_giftcard_usages WHERE payout_id = ?`, id).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count usages of payout request %d: %w", id, err)
	}
	var rows []networkUsageRow
	if count > page.Offset() {
		if err := s.db.NewRaw(`SELECT `+networkUsageColumns+` FROM network_giftcard_usages AS u
			WHERE u.payout_id = ? ORDER BY u.id LIMIT ? OFFSET ?`, id, page.Size, page.Offset()).Scan(ctx, &rows); err != nil {
			return nil, 0, fmt.Errorf("select usages of payout request %d: %w", id, err)
		}
	}
	out := make([]*network.Usage, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out, count, nil
}
