package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
	"salesplatform/domain/ecommerce"
)

// EcommerceProductStore is the ecommerce.ProductStore on PostgreSQL. Stock
// changes only by the guarded UPDATEs of TakeStock and GiveStock:
// PostgreSQL serialises the updates of one row and re-checks the guard
// on the row a concurrent transaction committed, so that stock never goes
// below zero however many orders take it at once.
type EcommerceProductStore struct{ db bun.IDB }

var _ ecommerce.ProductStore = (*EcommerceProductStore)(nil)

// NewEcommerceProductStore returns the catalogue's store on db, a pool or
// a transaction (the checkout's unit of work binds it to its own).
func NewEcommerceProductStore(db bun.IDB) *EcommerceProductStore {
	return &EcommerceProductStore{db: db}
}

// EcommerceStores binds the e-commerce catalogue's stores to db.
func EcommerceStores(db bun.IDB) ecommerce.Stores {
	return ecommerce.Stores{Products: NewEcommerceProductStore(db)}
}

type ecommerceProductRow struct {
	bun.BaseModel `bun:"table:ecommerce_products,alias:p"`

	ID          int64            `bun:"id,pk,autoincrement"`
	PartnerID   int64            `bun:"partner_id,notnull"`
	Name        domain.Localized `bun:"name,type:jsonb,notnull"`
	Description domain.Localized `bun:"description,type:jsonb,notnull"`
	Images      []string         `bun:"images,array,type:uuid[],notnull"`
	Price       decimal.Decimal  `bun:"price,type:numeric(12,2),notnull"`
	VATRate     decimal.Decimal  `bun:"vat_rate,type:numeric(5,2),notnull"`
	Active      bool             `bun:"active,notnull"`
	Stock       *int64           `bun:"stock"`
	CreatedAt   time.Time        `bun:"created_at,notnull,default:now()"`
	UpdatedAt   time.Time        `bun:"updated_at,notnull,default:now()"`
	Currency    string           `bun:"currency,scanonly"`
}

func (r *ecommerceProductRow) toDomain() *ecommerce.Product {
	return &ecommerce.Product{ID: r.ID, PartnerID: r.PartnerID, Name: r.Name, Description: r.Description,
		Images: storedStrings(r.Images), Price: r.Price, Currency: r.Currency, VATRate: r.VATRate, Active: r.Active,
		Stock: r.Stock, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Variants: []*ecommerce.Variant{}, Attributes: []*ecommerce.Attribute{}}
}

func ecommerceProductRowOf(p *ecommerce.Product) *ecommerceProductRow {
	return &ecommerceProductRow{ID: p.ID, PartnerID: p.PartnerID, Name: p.Name, Description: p.Description,
		Images: storedStrings(p.Images), Price: p.Price, VATRate: p.VATRate, Active: p.Active, Stock: p.Stock}
}

type ecommerceVariantRow struct {
	bun.BaseModel `bun:"table:ecommerce_variants,alias:v"`

	ID        int64            `bun:"id,pk,autoincrement"`
	ProductID int64            `bun:"product_id,notnull"`
	Position  int              `bun:"position,notnull"`
	Name      domain.Localized `bun:"name,type:jsonb,notnull"`
	Price     decimal.Decimal  `bun:"price,type:numeric(12,2),notnull"`
	Active    bool             `bun:"active,notnull"`
	Stock     *int64           `bun:"stock"`
}

type ecommerceAttributeRow struct {
	bun.BaseModel `bun:"table:ecommerce_attributes,alias:a"`

	ID        int64            `bun:"id,pk,autoincrement"`
	ProductID int64            `bun:"product_id,notnull"`
	Position  int              `bun:"position,notnull"`
	Name      domain.Localized `bun:"name,type:jsonb,notnull"`
	Values    []string         `bun:"values,array,notnull"`
}

type ecommerceDeliveryRow struct {
	bun.BaseModel `bun:"table:ecommerce_delivery_settings,alias:d"`

	PartnerID     int64           `bun:"partner_id,pk"`
	Email         bool            `bun:"email,notnull"`
	Postal        bool            `bun:"postal,notnull"`
	PostalCost    decimal.Decimal `bun:"postal_cost,type:numeric(12,2),notnull"`
	PostalDays    int             `bun:"postal_days,notnull"`
	Pickup        bool            `bun:"pickup,notnull"`
	PickupCost    decimal.Decimal `bun:"pickup_cost,type:numeric(12,2),notnull"`
	PickupAddress string          `bun:"pickup_address,notnull"`
}

// selectProducts reads products with their partner's currency.
func (s *EcommerceProductStore) selectProducts(rows *[]ecommerceProductRow) *bun.SelectQuery {
	return s.db.NewSelect().Model(rows).Column(columnsOf[ecommerceProductRow](s.db)...).ColumnExpr("pa.currency").
		Join("JOIN partners AS pa ON pa.id = p.partner_id")
}

// withChildren returns the products of rows, in order, with their
// variants and attributes (two statements).
func (s *EcommerceProductStore) withChildren(ctx context.Context, rows []ecommerceProductRow) ([]*ecommerce.Product, error) {
	out := make([]*ecommerce.Product, len(rows))
	byID := make(map[int64]*ecommerce.Product, len(rows))
	ids := make([]int64, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
		byID[rows[i].ID], ids[i] = out[i], rows[i].ID
	}
	if len(rows) == 0 {
		return out, nil
	}
	var variants []ecommerceVariantRow
	if err := s.db.NewSelect().Model(&variants).Where("v.product_id IN (?) AND NOT v.removed", bun.In(ids)).
		Order("v.product_id", "v.position", "v.id").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select ecommerce variants: %w", err)
	}
	for _, v := range variants {
		p := byID[v.ProductID]
		p.Variants = append(p.Variants, &ecommerce.Variant{ID: v.ID, ProductID: v.ProductID, Name: v.Name,
			Price: v.Price, Stock: v.Stock, Active: v.Active})
	}
	var attrs []ecommerceAttributeRow
	if err := s.db.NewSelect().Model(&attrs).Where("a.product_id IN (?)", bun.In(ids)).
		Order("a.product_id", "a.position", "a.id").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select ecommerce attributes: %w", err)
	}
	for _, a := range attrs {
		p := byID[a.ProductID]
		p.Attributes = append(p.Attributes, &ecommerce.Attribute{ID: a.ID, Name: a.Name, Values: storedStrings(a.Values)})
	}
	return out, nil
}

// ProductsOf implements ecommerce.Store.
func (s *EcommerceProductStore) ProductsOf(ctx context.Context, partnerID int64, ids []int64) ([]*ecommerce.Product, error) {
	if len(ids) == 0 {
		return []*ecommerce.Product{}, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []ecommerceProductRow
	if err := s.selectProducts(&rows).Where("p.id IN (?) AND p.partner_id = ?", bun.In(ids), partnerID).
		Order("p.id").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("select ecommerce products: %w", err)
	}
	return s.withChildren(ctx, rows)
}

// Products implements ecommerce.ProductStore.
func (s *EcommerceProductStore) Products(ctx context.Context, f ecommerce.ProductFilter, page domain.PageRequest) ([]*ecommerce.Product, int, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []ecommerceProductRow
	q := s.selectProducts(&rows).Where("p.partner_id = ?", f.PartnerID)
	if f.Active != nil {
		q = q.Where("p.active = ?", *f.Active)
	}
	count, err := q.OrderExpr("p.created_at DESC, p.id DESC").Limit(page.Size).Offset(page.Offset()).ScanAndCount(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, 0, fmt.Errorf("list ecommerce products: %w", err)
	}
	out, err := s.withChildren(ctx, rows)
	return out, count, err
}

// LockProduct implements ecommerce.ProductStore.
func (s *EcommerceProductStore) LockProduct(ctx context.Context, partnerID, id int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	return lockRow(ctx, s.db, "ecommerce product",
		`SELECT id FROM ecommerce_products WHERE id = ? AND partner_id = ? FOR NO KEY UPDATE`, id, partnerID)
}

// CreateProduct implements ecommerce.ProductStore.
func (s *EcommerceProductStore) CreateProduct(ctx context.Context, p *ecommerce.Product) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := ecommerceProductRowOf(p)
	if _, err := s.db.NewInsert().Model(row).ExcludeColumn("id", "created_at", "updated_at").
		Returning("id, created_at, updated_at").Exec(ctx); err != nil {
		return fmt.Errorf("insert ecommerce product: %w", err)
	}
	p.ID, p.CreatedAt, p.UpdatedAt = row.ID, row.CreatedAt, row.UpdatedAt
	return s.writeChildren(ctx, p)
}

// UpdateProduct implements ecommerce.ProductStore.
func (s *EcommerceProductStore) UpdateProduct(ctx context.Context, p *ecommerce.Product) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := ecommerceProductRowOf(p)
	res, err := s.db.NewUpdate().Model(row).ExcludeColumn("id", "partner_id", "created_at", "updated_at").
		Set("updated_at = now()").Where("p.id = ? AND p.partner_id = ?", p.ID, p.PartnerID).
		Returning("updated_at").Exec(ctx)
	if err != nil {
		return fmt.Errorf("update ecommerce product: %w", err)
	}
	if err := oneRow(res); err != nil {
		return err
	}
	p.UpdatedAt = row.UpdatedAt
	return s.writeChildren(ctx, p)
}

// writeChildren makes the stored variants and attributes of p its lists
// (UpdateProduct's rule), in their order.
func (s *EcommerceProductStore) writeChildren(ctx context.Context, p *ecommerce.Product) error {
	keptVariants := []int64{}
	for i, v := range p.Variants {
		v.ProductID = p.ID
		row := &ecommerceVariantRow{ID: v.ID, ProductID: p.ID, Position: i, Name: v.Name, Price: v.Price,
			Active: v.Active, Stock: v.Stock}
		if v.ID == 0 {
			if _, err := s.db.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
				return fmt.Errorf("insert ecommerce variant: %w", err)
			}
			v.ID = row.ID
		} else {
			res, err := s.db.NewUpdate().Model(row).ExcludeColumn("id", "product_id").
				Where("v.id = ? AND v.product_id = ? AND NOT v.removed", v.ID, p.ID).Exec(ctx)
			if err != nil {
				return fmt.Errorf("update ecommerce variant: %w", err)
			}
			if err := oneRow(res); err != nil {
				return err
			}
		}
		keptVariants = append(keptVariants, v.ID)
	}
	if _, err := s.db.NewRaw(`DELETE FROM ecommerce_variants v WHERE v.product_id = ? AND v.id <> ALL(?::bigint[])
		AND NOT EXISTS (SELECT 1 FROM ecommerce_order_lines l WHERE l.variant_id = v.id)`,
		p.ID, pgdialect.Array(keptVariants)).Exec(ctx); err != nil {
		return fmt.Errorf("delete ecommerce variants: %w", err)
	}
	if _, err := s.db.NewRaw(`UPDATE ecommerce_variants SET removed = true, active = false
		WHERE product_id = ? AND id <> ALL(?::bigint[]) AND NOT removed`,
		p.ID, pgdialect.Array(keptVariants)).Exec(ctx); err != nil {
		return fmt.Errorf("hide ecommerce variants: %w", err)
	}

	keptAttrs := []int64{}
	for i, a := range p.Attributes {
		row := &ecommerceAttributeRow{ID: a.ID, ProductID: p.ID, Position: i, Name: a.Name, Values: storedStrings(a.Values)}
		if a.ID == 0 {
			if _, err := s.db.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
				return fmt.Errorf("insert ecommerce attribute: %w", err)
			}
			a.ID = row.ID
		} else {
			res, err := s.db.NewUpdate().Model(row).ExcludeColumn("id", "product_id").
				Where("a.id = ? AND a.product_id = ?", a.ID, p.ID).Exec(ctx)
			if err != nil {
				return fmt.Errorf("update ecommerce attribute: %w", err)
			}
			if err := oneRow(res); err != nil {
				return err
			}
		}
		keptAttrs = append(keptAttrs, a.ID)
	}
	if _, err := s.db.NewRaw(`DELETE FROM ecommerce_attributes WHERE product_id = ? AND id <> ALL(?::bigint[])`,
		p.ID, pgdialect.Array(keptAttrs)).Exec(ctx); err != nil {
		return fmt.Errorf("delete ecommerce attributes: %w", err)
	}
	return nil
}

// DeliverySettingsOf implements ecommerce.Store.
func (s *EcommerceProductStore) DeliverySettingsOf(ctx context.Context, partnerID int64) (*ecommerce.DeliverySettings, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(ecommerceDeliveryRow)
	err := s.db.NewSelect().Model(row).Where("d.partner_id = ?", partnerID).Scan(ctx)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return &ecommerce.DeliverySettings{PartnerID: partnerID}, nil
	case err != nil:
		return nil, fmt.Errorf("select ecommerce delivery settings: %w", err)
	}
	return row.settings(), nil
}

func (r *ecommerceDeliveryRow) settings() *ecommerce.DeliverySettings {
	return &ecommerce.DeliverySettings{PartnerID: r.PartnerID, Email: r.Email, Postal: r.Postal, PostalCost: r.PostalCost,
		PostalDays: r.PostalDays, Pickup: r.Pickup, PickupCost: r.PickupCost, PickupAddress: r.PickupAddress}
}

// SaveDeliverySettings implements ecommerce.ProductStore.
func (s *EcommerceProductStore) SaveDeliverySettings(ctx context.Context, d *ecommerce.DeliverySettings) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &ecommerceDeliveryRow{PartnerID: d.PartnerID, Email: d.Email, Postal: d.Postal, PostalCost: d.PostalCost,
		PostalDays: d.PostalDays, Pickup: d.Pickup, PickupCost: d.PickupCost, PickupAddress: d.PickupAddress}
	_, err := s.db.NewInsert().Model(row).On("CONFLICT (partner_id) DO UPDATE").
		Set("email = EXCLUDED.email, postal = EXCLUDED.postal, postal_cost = EXCLUDED.postal_cost").
		Set("postal_days = EXCLUDED.postal_days, pickup = EXCLUDED.pickup, pickup_cost = EXCLUDED.pickup_cost").
		Set("pickup_address = EXCLUDED.pickup_address").Exec(ctx)
	if err != nil {
		return fmt.Errorf("save ecommerce delivery settings: %w", err)
	}
	return nil
}

// TakeStock implements ecommerce.Store: one guarded UPDATE per line, on
// the variant when the line names one (active, not removed, of an active
// product), else on the product (active).
func (s *EcommerceProductStore) TakeStock(ctx context.Context, lines []ecommerce.StockLine) (*ecommerce.StockLine, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	for i := range lines {
		l := &lines[i]
		if l.Quantity <= 0 { // a negative take would add stock
			return nil, fmt.Errorf("take ecommerce stock: quantity %d of product %d", l.Quantity, l.ProductID)
		}
		var res sql.Result
		var err error
		if l.VariantID != nil {
			res, err = s.db.NewRaw(`UPDATE ecommerce_variants SET stock = stock - ?0
				WHERE id = ?1 AND product_id = ?2 AND active AND NOT removed AND (stock IS NULL OR stock >= ?0)
					AND EXISTS (SELECT 1 FROM ecommerce_products WHERE id = ?2 AND active)`,
				l.Quantity, *l.VariantID, l.ProductID).Exec(ctx)
		} else {
			res, err = s.db.NewRaw(`UPDATE ecommerce_products SET stock = stock - ?0
				WHERE id = ?1 AND active AND (stock IS NULL OR stock >= ?0)`, l.Quantity, l.ProductID).Exec(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("take ecommerce stock: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, err
		} else if n == 0 {
			return l, nil
		}
	}
	return nil, nil
}

// GiveStock implements ecommerce.Store; NULL (unlimited) stays NULL.
func (s *EcommerceProductStore) GiveStock(ctx context.Context, lines []ecommerce.StockLine) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	for _, l := range lines {
		if l.Quantity <= 0 {
			return fmt.Errorf("give ecommerce stock: quantity %d of product %d", l.Quantity, l.ProductID)
		}
		var err error
		if l.VariantID != nil {
			_, err = s.db.NewRaw(`UPDATE ecommerce_variants SET stock = stock + ? WHERE id = ? AND product_id = ?`,
				l.Quantity, *l.VariantID, l.ProductID).Exec(ctx)
		} else {
			_, err = s.db.NewRaw(`UPDATE ecommerce_products SET stock = stock + ? WHERE id = ?`,
				l.Quantity, l.ProductID).Exec(ctx)
		}
		if err != nil {
			return fmt.Errorf("give ecommerce stock: %w", err)
		}
	}
	return nil
}

// MissingMedia implements ecommerce.ProductStore.
func (s *EcommerceProductStore) MissingMedia(ctx context.Context, partnerID int64, ids []string) ([]string, error) {
	out := []string{}
	if len(ids) == 0 {
		return out, nil
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	err := s.db.NewRaw(`SELECT t.id::text FROM unnest(?::uuid[]) WITH ORDINALITY AS t(id, ord)
		WHERE NOT EXISTS (SELECT 1 FROM media m WHERE m.uuid = t.id AND m.partner_id = ?) ORDER BY t.ord`,
		pgdialect.Array(ids), partnerID).Scan(ctx, &out)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("check ecommerce media: %w", err)
	}
	return out, nil
}

// PartnerCurrency implements ecommerce.ProductStore.
func (s *EcommerceProductStore) PartnerCurrency(ctx context.Context, partnerID int64) (string, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var currency string
	if err := s.db.NewRaw(`SELECT currency FROM partners WHERE id = ?`, partnerID).Scan(ctx, &currency); err != nil {
		return "", notFound(err)
	}
	return currency, nil
}
