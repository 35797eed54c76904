package demo

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/ecommerce"
	"salesplatform/persistence"
)

// Shop is a demo partner's e-commerce catalogue (ecommerce.json): its
// delivery settings, its products and its e-commerce coupons.
type Shop struct {
	Partner  string // a demo partner's key
	Delivery ShopDelivery
	Coupons  []ShopCoupon
	Products []ShopProduct
}

// ShopDelivery is a shop's delivery settings.
type ShopDelivery struct {
	Email, Postal, Pickup  bool
	PostalCost, PickupCost decimal.Decimal
	PostalDays             int64
	PickupAddress          string
}

// ShopCoupon is a coupon of the shop's orders, valid from three months
// ago to nine months ahead.
type ShopCoupon struct {
	Code, Text, DiscountType string
	Discount                 decimal.Decimal
	MaxUsage                 int
}

// ShopProduct is a product; Stock nil is unlimited, Active nil is true.
type ShopProduct struct {
	Name, Description domain.Localized
	Price, VATRate    decimal.Decimal
	Stock             *int64
	Active            *bool
	Variants          []ShopVariant
	Attributes        []ShopAttribute
}

// ShopVariant is a product's variant; Stock nil is unlimited.
type ShopVariant struct {
	Name  domain.Localized
	Price decimal.Decimal
	Stock *int64
}

// ShopAttribute is a product's attribute and its values.
type ShopAttribute struct {
	Name   domain.Localized
	Values []string
}

// checkShops reports a shop of no demo partner.
func (d *Dataset) checkShops() []error {
	var errs []error
	for _, s := range d.Shops {
		if d.Partner(s.Partner) == nil {
			errs = append(errs, fmt.Errorf("shop of %q: no such partner", s.Partner))
		}
	}
	return errs
}

// ecommerceLoader loads the shops through the e-commerce catalogue's
// service as each partner's demo user (with PartnerPermissions); the
// coupons with SQL, as no service writes coupons.
type ecommerceLoader struct {
	tx       bun.IDB
	data     *Dataset
	now      time.Time
	partners map[string]*domain.Partner
	svc      *ecommerce.Service
	users    interface {
		FindUserByUsername(context.Context, string) (*domain.User, error)
	}
	tally tally
}

func newEcommerceLoader(tx bun.IDB, data *Dataset, partners map[string]*domain.Partner, now time.Time) *ecommerceLoader {
	database := persistence.NewDatabase(tx)
	return &ecommerceLoader{tx: tx, data: data, now: now, partners: partners, users: database.Stores().Users,
		svc: ecommerce.NewService(persistence.NewUnitOfWork(tx, persistence.EcommerceStores), database.Stores().Partners)}
}

// loadedAlready reports whether the shops were loaded: the first shop
// has a product.
func (l *ecommerceLoader) loadedAlready(ctx context.Context) (bool, error) {
	if len(l.data.Shops) == 0 {
		return true, nil
	}
	var loaded bool
	err := l.tx.NewRaw(`SELECT EXISTS (SELECT 1 FROM ecommerce_products WHERE partner_id = ?)`,
		l.partners[l.data.Shops[0].Partner].ID).Scan(ctx, &loaded)
	return loaded, err
}

func (l *ecommerceLoader) load(ctx context.Context) error {
	for _, s := range l.data.Shops {
		if err := l.loadShop(ctx, s); err != nil {
			return seedErr("shop of "+s.Partner, err)
		}
	}
	return nil
}

func (l *ecommerceLoader) loadShop(ctx context.Context, s Shop) error {
	partner := l.partners[s.Partner]
	u, err := l.users.FindUserByUsername(ctx, l.data.Partner(s.Partner).Username)
	if err != nil {
		return err
	}
	pctx := domain.WithCaller(ctx, &domain.Caller{User: u, Partner: partner, Permissions: l.data.PartnerPermissions})
	d := s.Delivery
	if _, err := l.svc.UpdateDeliverySettings(pctx, ecommerce.DeliverySettingsInput{Email: domain.Some(d.Email),
		Postal: domain.Some(d.Postal), PostalCost: domain.Some(d.PostalCost), PostalDays: domain.Some(d.PostalDays),
		Pickup: domain.Some(d.Pickup), PickupCost: domain.Some(d.PickupCost), PickupAddress: domain.Some(d.PickupAddress)}); err != nil {
		return err
	}
	// The partner's first image illustrates its products.
	var images []uuid.UUID
	if err := l.tx.NewRaw(`SELECT uuid FROM media WHERE partner_id = ? ORDER BY id LIMIT 1`, partner.ID).Scan(ctx, &images); err != nil {
		return err
	}
	for _, p := range s.Products {
		if _, err := l.svc.CreateProduct(pctx, productInput(p, images)); err != nil {
			return err
		}
		l.tally.add("e-commerce products", 1)
	}
	for _, c := range s.Coupons {
		if _, err := l.tx.NewRaw(`INSERT INTO coupons (partner_id, code, type, discount_text, discount, discount_type,
				max_usage, start_date, end_date, activate_for_ecommerce)
			VALUES (?, ?, 'discount', ?, ?, ?, ?, ?, ?, true)`,
			partner.ID, c.Code, c.Text, c.Discount, c.DiscountType, c.MaxUsage,
			l.now.AddDate(0, -3, 0), l.now.AddDate(0, 9, 0)).Exec(ctx); err != nil {
			return seedErr("coupon "+c.Code, err)
		}
		l.tally.add("e-commerce coupons", 1)
	}
	return nil
}

// productInput is the service's input of a demo product.
func productInput(p ShopProduct, images []uuid.UUID) ecommerce.ProductInput {
	in := ecommerce.ProductInput{Name: textInputs(p.Name), Description: textInputs(p.Description),
		Images: domain.Some(images), Price: domain.Some(p.Price), VATRate: domain.Some(p.VATRate),
		Stock: domain.FromPtr(p.Stock), Active: domain.FromPtr(p.Active)}
	variants := make([]ecommerce.VariantInput, len(p.Variants))
	for i, v := range p.Variants {
		variants[i] = ecommerce.VariantInput{Name: textInputs(v.Name), Price: domain.Some(v.Price), Stock: domain.FromPtr(v.Stock)}
	}
	attributes := make([]ecommerce.AttributeInput, len(p.Attributes))
	for i, a := range p.Attributes {
		attributes[i] = ecommerce.AttributeInput{Name: textInputs(a.Name), Values: domain.Some(a.Values)}
	}
	in.Variants, in.Attributes = domain.Some(variants), domain.Some(attributes)
	return in
}

// textInputs are l's texts as the services take them, in language order.
func textInputs(l domain.Localized) domain.Optional[[]domain.TextInput] {
	out := []domain.TextInput{}
	for _, lang := range domain.Languages {
		if s, ok := l[lang]; ok {
			out = append(out, domain.TextInput{Lang: lang, Text: s})
		}
	}
	return domain.Some(out)
}

func (l *ecommerceLoader) report(out io.Writer, baseURL string) {
	fmt.Fprintln(out, "Loaded the demo shops:")
	for _, line := range l.tally.lines() {
		fmt.Fprintln(out, "  "+line)
	}
	for _, s := range l.data.Shops {
		fmt.Fprintf(out, "  %s/api/v2/ecommerce/products/ with X-Partner-Domain: %s\n", baseURL, l.data.Partner(s.Partner).Domain)
	}
}
