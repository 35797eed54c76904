package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
)

// CheckoutStores binds the checkout's stores to db (a pool or a
// transaction): orders, the catalogue, coupons, network giftcards and the
// outbox, all on the same db.
func CheckoutStores(db bun.IDB) checkout.Stores {
	return checkout.Stores{Orders: &CheckoutOrderStore{db: db}, Catalogue: NewEcommerceProductStore(db),
		Coupons: &CheckoutCouponStore{db: db}, Network: NetworkStores(db), Outbox: NewOutbox(db), Events: NewWebhookEvents(db)}
}

// CheckoutOrderStore is checkout.OrderStore on PostgreSQL: orders,
// ecommerce_orders, ecommerce_order_lines and order_payments.
type CheckoutOrderStore struct{ db bun.IDB }

var _ checkout.OrderStore = (*CheckoutOrderStore)(nil)

// CreateOrder implements checkout.OrderStore.
func (s *CheckoutOrderStore) CreateOrder(ctx context.Context, o *checkout.Order) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`INSERT INTO orders (uuid, reference, partner_id, kind, status, cart_id, currency, total,
			first_name, last_name, email, phone, language)
		VALUES (?, ?, ?, 'ecommerce', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, created_at, updated_at`,
		o.UUID, o.Reference, o.PartnerID, o.Status, o.CartID, o.Currency, o.Total, o.Buyer.FirstName, o.Buyer.LastName,
		o.Buyer.Email, o.Buyer.Phone, o.Buyer.Language).Scan(ctx, &o.ID, &o.CreatedAt, &o.UpdatedAt)
	if c, ok := uniqueViolation(err); ok && c == "orders_cart_id_idx" {
		return checkout.ErrCartOrdered
	}
	if err != nil {
		return fmt.Errorf("insert order: %w", err)
	}
	var couponID *int64
	if o.Coupon != nil {
		couponID = &o.Coupon.ID
	}
	b := o.Buyer
	var eid int64
	if err := s.db.NewRaw(`INSERT INTO ecommerce_orders (order_id, return_url, delivery_mode, delivery_cost, street,
			postal_code, city, country, beneficiary_first_name, beneficiary_last_name, beneficiary_email, lines_total,
			discount, giftcard_amount, card_amount, vat_total, coupon_id, cart_revision)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		o.ID, o.ReturnURL, o.Delivery.Mode, o.DeliveryCost, b.Street, b.PostalCode, b.City, b.Country,
		b.BeneficiaryFirstName, b.BeneficiaryLastName, b.BeneficiaryEmail, o.LinesTotal, o.Discount, o.GiftcardAmount,
		o.CardAmount, o.VATTotal, couponID, o.CartRevision).Scan(ctx, &eid); err != nil {
		return fmt.Errorf("insert ecommerce order: %w", err)
	}
	for i, l := range o.Lines {
		values := []byte("{}")
		var err error
		if len(l.AttributeValues) > 0 {
			values, err = json.Marshal(l.AttributeValues)
		}
		if err != nil {
			return err
		}
		if err := s.db.NewRaw(`INSERT INTO ecommerce_order_lines (ecommerce_order_id, position, product_id, variant_id,
				attribute_values, name, quantity, unit_price, vat_rate, vat_amount, total)
			VALUES (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?) RETURNING id`, eid, i, l.ProductID, l.VariantID,
			string(values), l.Name, l.Quantity, l.UnitPrice, l.VATRate, l.VATAmount, l.Total).Scan(ctx, &l.ID); err != nil {
			return fmt.Errorf("insert ecommerce order line: %w", err)
		}
	}
	type record struct {
		kind          string
		amount        decimal.Decimal
		paymentUUID   *uuid.UUID
		giftcardUUID  *uuid.UUID
		giftcardCode  *string
		reservationID *string
		couponID      *int64
	}
	var records []record
	if c := o.Coupon; c != nil {
		records = append(records, record{kind: checkout.RecordCoupon, amount: c.Discount, couponID: &c.ID})
	}
	if g := o.Giftcard; g != nil {
		records = append(records, record{kind: checkout.RecordGiftcard, amount: g.Amount, giftcardUUID: &g.CardUUID,
			giftcardCode: &g.Code, reservationID: &g.ReservationID})
	}
	if p := o.Payment; p != nil {
		records = append(records, record{kind: checkout.RecordCard, amount: p.Amount, paymentUUID: &p.UUID})
	}
	for _, r := range records {
		if _, err := s.db.NewRaw(`INSERT INTO order_payments (order_id, kind, amount, status, payment_uuid,
				giftcard_uuid, giftcard_code, reservation_id, coupon_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			o.ID, r.kind, r.amount, checkout.RecordReserved, r.paymentUUID, r.giftcardUUID, r.giftcardCode,
			r.reservationID, r.couponID).Exec(ctx); err != nil {
			return fmt.Errorf("insert order payment: %w", err)
		}
	}
	return nil
}

type orderRow struct {
	ID             int64           `bun:"id"`
	UUID           uuid.UUID       `bun:"uuid"`
	Reference      string          `bun:"reference"`
	PartnerID      int64           `bun:"partner_id"`
	Status         string          `bun:"status"`
	CartID         uuid.UUID       `bun:"cart_id"`
	Currency       string          `bun:"currency"`
	Total          decimal.Decimal `bun:"total"`
	FirstName      string          `bun:"first_name"`
	LastName       string          `bun:"last_name"`
	Email          string          `bun:"email"`
	Phone          string          `bun:"phone"`
	Language       string          `bun:"language"`
	CreatedAt      time.Time       `bun:"created_at"`
	UpdatedAt      time.Time       `bun:"updated_at"`
	PaidAt         *time.Time      `bun:"paid_at"`
	EID            int64           `bun:"eid"`
	ReturnURL      string          `bun:"return_url"`
	DeliveryMode   string          `bun:"delivery_mode"`
	DeliveryCost   decimal.Decimal `bun:"delivery_cost"`
	Street         string          `bun:"street"`
	PostalCode     string          `bun:"postal_code"`
	City           string          `bun:"city"`
	Country        string          `bun:"country"`
	BenFirstName   string          `bun:"beneficiary_first_name"`
	BenLastName    string          `bun:"beneficiary_last_name"`
	BenEmail       string          `bun:"beneficiary_email"`
	LinesTotal     decimal.Decimal `bun:"lines_total"`
	Discount       decimal.Decimal `bun:"discount"`
	GiftcardAmount decimal.Decimal `bun:"giftcard_amount"`
	CardAmount     decimal.Decimal `bun:"card_amount"`
	VATTotal       decimal.Decimal `bun:"vat_total"`
	RefundedAmount decimal.Decimal `bun:"refunded_amount"`
	Restocked      bool            `bun:"restocked"`
	CartRevision   int64           `bun:"cart_revision"`
}

const orderSelect = `SELECT o.id, o.uuid, o.reference, o.partner_id, o.status, o.cart_id, o.currency, o.total,
	o.first_name, o.last_name, o.email, o.phone, o.language, o.created_at, o.updated_at, o.paid_at, e.id AS eid,
	e.return_url, e.delivery_mode, e.delivery_cost, e.street, e.postal_code, e.city, e.country,
	e.beneficiary_first_name, e.beneficiary_last_name, e.beneficiary_email, e.lines_total, e.discount,
	e.giftcard_amount, e.card_amount, e.vat_total, e.refunded_amount, e.restocked, e.cart_revision
	FROM orders o JOIN ecommerce_orders e ON e.order_id = o.id`

func (r *orderRow) toDomain() *checkout.Order {
	return &checkout.Order{ID: r.ID, UUID: r.UUID, Reference: r.Reference, PartnerID: r.PartnerID, CartID: r.CartID,
		ReturnURL: r.ReturnURL, Status: r.Status, Currency: r.Currency,
		Delivery: checkout.OrderDelivery{Mode: r.DeliveryMode, Cost: r.DeliveryCost},
		Buyer: checkout.Information{FirstName: r.FirstName, LastName: r.LastName, Email: r.Email, Phone: r.Phone,
			Street: r.Street, PostalCode: r.PostalCode, City: r.City, Country: r.Country,
			BeneficiaryFirstName: r.BenFirstName, BeneficiaryLastName: r.BenLastName, BeneficiaryEmail: r.BenEmail,
			Language: r.Language},
		LinesTotal: r.LinesTotal, DeliveryCost: r.DeliveryCost, Discount: r.Discount, GiftcardAmount: r.GiftcardAmount,
		CardAmount: r.CardAmount, Total: r.Total, VATTotal: r.VATTotal, RefundedAmount: r.RefundedAmount,
		Restocked: r.Restocked, CartRevision: r.CartRevision, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, PaidAt: r.PaidAt}
}

type orderLineRow struct {
	ID              int64            `bun:"id"`
	EID             int64            `bun:"ecommerce_order_id"`
	ProductID       int64            `bun:"product_id"`
	VariantID       *int64           `bun:"variant_id"`
	AttributeValues map[int64]string `bun:"attribute_values,type:jsonb"`
	Name            string           `bun:"name"`
	Quantity        int64            `bun:"quantity"`
	UnitPrice       decimal.Decimal  `bun:"unit_price"`
	VATRate         decimal.Decimal  `bun:"vat_rate"`
	VATAmount       decimal.Decimal  `bun:"vat_amount"`
	Total           decimal.Decimal  `bun:"total"`
}

type orderPaymentRow struct {
	OrderID       int64           `bun:"order_id"`
	Kind          string          `bun:"kind"`
	Amount        decimal.Decimal `bun:"amount"`
	Status        string          `bun:"status"`
	PaymentUUID   *uuid.UUID      `bun:"payment_uuid"`
	PaymentStatus *string         `bun:"payment_status"`
	GiftcardUUID  *uuid.UUID      `bun:"giftcard_uuid"`
	GiftcardCode  *string         `bun:"giftcard_code"`
	ReservationID *string         `bun:"reservation_id"`
	UsageID       *int64          `bun:"usage_id"`
	CouponID      *int64          `bun:"coupon_id"`
	CouponCode    *string         `bun:"coupon_code"`
}

// withDetails reads the orders' lines and payment records, in two
// statements for the whole list.
func (s *CheckoutOrderStore) withDetails(ctx context.Context, rows []orderRow) ([]*checkout.Order, error) {
	out := make([]*checkout.Order, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	byEID := make(map[int64]*checkout.Order, len(rows))
	byID := make(map[int64]*checkout.Order, len(rows))
	eids, ids := make([]int64, len(rows)), make([]int64, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
		byEID[rows[i].EID], byID[rows[i].ID] = out[i], out[i]
		eids[i], ids[i] = rows[i].EID, rows[i].ID
	}
	var lines []orderLineRow
	if err := s.db.NewRaw(`SELECT id, ecommerce_order_id, product_id, variant_id, attribute_values, name, quantity,
			unit_price, vat_rate, vat_amount, total FROM ecommerce_order_lines WHERE ecommerce_order_id = ANY(?::bigint[])
		ORDER BY ecommerce_order_id, position`, pgdialect.Array(eids)).Scan(ctx, &lines); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select order lines: %w", err)
	}
	for _, l := range lines {
		o := byEID[l.EID]
		o.Lines = append(o.Lines, &checkout.OrderLine{ID: l.ID, ProductID: l.ProductID, VariantID: l.VariantID,
			AttributeValues: l.AttributeValues, Name: l.Name, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
			VATRate: l.VATRate, VATAmount: l.VATAmount, Total: l.Total})
	}
	var records []orderPaymentRow
	if err := s.db.NewRaw(`SELECT op.order_id, op.kind, op.amount, op.status, op.payment_uuid, pm.status AS payment_status,
			op.giftcard_uuid, op.giftcard_code, op.reservation_id, op.usage_id, op.coupon_id, c.code AS coupon_code
		FROM order_payments op LEFT JOIN payments pm ON pm.uuid = op.payment_uuid
		LEFT JOIN coupons c ON c.id = op.coupon_id WHERE op.order_id = ANY(?::bigint[])`,
		pgdialect.Array(ids)).Scan(ctx, &records); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select order payments: %w", err)
	}
	for _, r := range records {
		o := byID[r.OrderID]
		switch r.Kind {
		case checkout.RecordCard:
			p := &checkout.OrderPayment{UUID: *r.PaymentUUID, Amount: r.Amount}
			if r.PaymentStatus != nil {
				p.Status = *r.PaymentStatus
			}
			o.Payment = p
		case checkout.RecordGiftcard:
			g := &checkout.OrderGiftcard{Amount: r.Amount, UsageID: r.UsageID}
			if r.GiftcardUUID != nil {
				g.CardUUID = *r.GiftcardUUID
			}
			g.Code, g.ReservationID = deref(r.GiftcardCode), deref(r.ReservationID)
			o.Giftcard = g
		case checkout.RecordCoupon:
			if r.CouponID != nil { // a deleted coupon leaves the discount alone
				o.Coupon = &checkout.OrderCoupon{ID: *r.CouponID, Code: deref(r.CouponCode), Discount: r.Amount}
			}
		}
	}
	for _, o := range out {
		if o.Lines == nil {
			o.Lines = []*checkout.OrderLine{}
		}
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (s *CheckoutOrderStore) one(ctx context.Context, cond string, args ...any) (*checkout.Order, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []orderRow
	if err := s.db.NewRaw(orderSelect+` WHERE `+cond, args...).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select order: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	out, err := s.withDetails(ctx, rows)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// FindOrder implements checkout.OrderStore.
func (s *CheckoutOrderStore) FindOrder(ctx context.Context, id uuid.UUID, lock bool) (*checkout.Order, error) {
	if lock {
		if err := lockRow(ctx, s.db, "order", `SELECT id FROM orders WHERE uuid = ? FOR UPDATE`, id); err != nil {
			if domain.IsCode(err, domain.CodeNotFound) {
				return nil, domain.ErrNotFound
			}
			return nil, err
		}
	}
	return s.one(ctx, `o.uuid = ?`, id)
}

// FindOrderByID implements checkout.OrderStore.
func (s *CheckoutOrderStore) FindOrderByID(ctx context.Context, id int64) (*checkout.Order, error) {
	return s.one(ctx, `o.id = ?`, id)
}

// LiveOrderOfCart implements checkout.OrderStore.
func (s *CheckoutOrderStore) LiveOrderOfCart(ctx context.Context, cartID uuid.UUID) (*checkout.Order, error) {
	return s.one(ctx, `o.cart_id = ? AND o.status <> 'failed'`, cartID)
}

// OrderOfPayment implements checkout.OrderStore.
func (s *CheckoutOrderStore) OrderOfPayment(ctx context.Context, paymentUUID uuid.UUID) (uuid.UUID, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ids []uuid.UUID
	if err := s.db.NewRaw(`SELECT o.uuid FROM order_payments op JOIN orders o ON o.id = op.order_id
		WHERE op.payment_uuid = ?`, paymentUUID).Scan(ctx, &ids); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return uuid.Nil, fmt.Errorf("select order of payment: %w", err)
	}
	if len(ids) == 0 {
		return uuid.Nil, domain.ErrNotFound
	}
	return ids[0], nil
}

// SaveOrderState implements checkout.OrderStore.
func (s *CheckoutOrderStore) SaveOrderState(ctx context.Context, o *checkout.Order) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewRaw(`UPDATE orders SET status = ?, paid_at = ?, updated_at = now() WHERE id = ?`,
		o.Status, o.PaidAt, o.ID).Exec(ctx); err != nil {
		return fmt.Errorf("update order: %w", err)
	}
	if _, err := s.db.NewRaw(`UPDATE ecommerce_orders SET refunded_amount = ?, restocked = ? WHERE order_id = ?`,
		o.RefundedAmount, o.Restocked, o.ID).Exec(ctx); err != nil {
		return fmt.Errorf("update ecommerce order: %w", err)
	}
	return nil
}

// SetRecordStatus implements checkout.OrderStore.
func (s *CheckoutOrderStore) SetRecordStatus(ctx context.Context, orderID int64, kind, status string, usageID *int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewRaw(`UPDATE order_payments SET status = ?, usage_id = coalesce(?, usage_id)
		WHERE order_id = ? AND kind = ?`, status, usageID, orderID, kind).Exec(ctx); err != nil {
		return fmt.Errorf("update order payment: %w", err)
	}
	return nil
}

// ListOrders implements checkout.OrderStore.
func (s *CheckoutOrderStore) ListOrders(ctx context.Context, f checkout.OrderFilter, page domain.PageRequest) ([]*checkout.Order, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var c conds
	if f.Tenant != nil {
		c.add(`o.partner_id = ?`, *f.Tenant)
	}
	if f.Status != "" {
		c.add(`o.status = ?`, f.Status)
	}
	if f.CreatedFrom != nil {
		c.add(`o.created_at >= ?`, *f.CreatedFrom)
	}
	if f.CreatedBefore != nil {
		c.add(`o.created_at < ?`, *f.CreatedBefore)
	}
	var count int
	if err := s.db.NewRaw(`SELECT count(*) FROM orders o`+c.sql(), c.args...).Scan(ctx, &count); err != nil {
		return nil, 0, fmt.Errorf("count orders: %w", err)
	}
	var rows []orderRow
	if count > page.Offset() {
		if err := s.db.NewRaw(orderSelect+c.sql()+` ORDER BY o.created_at DESC, o.id DESC LIMIT ? OFFSET ?`,
			append(c.args, page.Size, page.Offset())...).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, 0, fmt.Errorf("select orders: %w", err)
		}
	}
	out, err := s.withDetails(ctx, rows)
	return out, count, err
}

// StaleOrders implements checkout.OrderStore.
func (s *CheckoutOrderStore) StaleOrders(ctx context.Context, cutoff time.Time, limit int) ([]uuid.UUID, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ids []uuid.UUID
	if err := s.db.NewRaw(`SELECT uuid FROM orders WHERE status = 'pending' AND updated_at < ?
		ORDER BY updated_at LIMIT ?`, cutoff, limit).Scan(ctx, &ids); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select stale orders: %w", err)
	}
	return ids, nil
}

// UnrefundedOrders implements checkout.OrderStore.
func (s *CheckoutOrderStore) UnrefundedOrders(ctx context.Context, limit int) ([]uuid.UUID, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var ids []uuid.UUID
	if err := s.db.NewRaw(`SELECT o.uuid FROM orders o
		JOIN order_payments op ON op.order_id = o.id AND op.kind = 'card'
		JOIN payments pm ON pm.uuid = op.payment_uuid
		WHERE o.status = 'failed' AND pm.status = 'ok' AND pm.amount > pm.refunded_amount
			AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.payment_id = pm.id AND r.status = 'pending')
		ORDER BY o.updated_at LIMIT ?`, limit).Scan(ctx, &ids); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select unrefunded orders: %w", err)
	}
	return ids, nil
}

// CheckoutCouponStore is checkout.CouponStore on the coupons table.
type CheckoutCouponStore struct{ db bun.IDB }

var _ checkout.CouponStore = (*CheckoutCouponStore)(nil)

type checkoutCouponRow struct {
	ID            int64           `bun:"id"`
	PartnerID     int64           `bun:"partner_id"`
	Code          string          `bun:"code"`
	Valid         bool            `bun:"valid"`
	IsActivated   bool            `bun:"is_activated"`
	ForEcommerce  bool            `bun:"activate_for_ecommerce"`
	Discount      decimal.Decimal `bun:"discount"`
	DiscountType  string          `bun:"discount_type"`
	NumberOfUsage int             `bun:"number_of_usage"`
	MaxUsage      int             `bun:"max_usage"`
	StartDate     *time.Time      `bun:"start_date"`
	EndDate       *time.Time      `bun:"end_date"`
	ProductIDs    []int64         `bun:"eshop_products_ids,array"`
	PriceMin      string          `bun:"price_condition_min_amount"`
	PaymentMin    string          `bun:"payment_amount_condition_minimum"`
	FreePickup    bool            `bun:"offer_delivery_cost_clickandcollect"`
}

// CouponByCode implements checkout.CouponStore.
func (s *CheckoutCouponStore) CouponByCode(ctx context.Context, partnerID int64, code string) (*checkout.Coupon, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []checkoutCouponRow
	if err := s.db.NewRaw(`SELECT id, partner_id, code, valid, is_activated, activate_for_ecommerce, discount,
			discount_type, number_of_usage, max_usage, start_date, end_date, eshop_products_ids,
			price_condition_min_amount, payment_amount_condition_minimum, offer_delivery_cost_clickandcollect
		FROM coupons WHERE partner_id = ? AND code = ?`, partnerID, code).Scan(ctx, &rows); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select coupon: %w", err)
	}
	if len(rows) == 0 {
		return nil, domain.ErrNotFound
	}
	r := rows[0]
	return &checkout.Coupon{ID: r.ID, PartnerID: r.PartnerID, Code: r.Code, Valid: r.Valid, IsActivated: r.IsActivated,
		ForEcommerce: r.ForEcommerce, Discount: r.Discount, DiscountType: r.DiscountType, NumberOfUsage: r.NumberOfUsage,
		MaxUsage: r.MaxUsage, StartDate: r.StartDate, EndDate: r.EndDate, ProductIDs: r.ProductIDs,
		PriceMin: r.PriceMin, PaymentMin: r.PaymentMin, FreePickup: r.FreePickup}, nil
}

// UseCoupon implements checkout.CouponStore.
func (s *CheckoutCouponStore) UseCoupon(ctx context.Context, id int64) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	res, err := s.db.NewRaw(`UPDATE coupons SET number_of_usage = number_of_usage + 1
		WHERE id = ? AND (max_usage = 0 OR number_of_usage < max_usage)`, id).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("use coupon: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// GiveCouponBack implements checkout.CouponStore.
func (s *CheckoutCouponStore) GiveCouponBack(ctx context.Context, id int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewRaw(`UPDATE coupons SET number_of_usage = number_of_usage - 1
		WHERE id = ? AND number_of_usage > 0`, id).Exec(ctx); err != nil {
		return fmt.Errorf("give coupon back: %w", err)
	}
	return nil
}
