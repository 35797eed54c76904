package ecommerce_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/ecommerce"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

type fixture struct {
	db            *bun.DB
	svc           *ecommerce.Service
	shop, rival   *domain.Partner
	asShop        context.Context // a member who manages the catalogue
	asShopReader  context.Context // a member without the permission
	asRival       context.Context
	shopMediaUUID uuid.UUID
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := dbtest.New(t)
	partners := persistence.NewDatabase(db).Stores().Partners
	f := &fixture{db: db, svc: ecommerce.NewService(persistence.NewUnitOfWork(db, persistence.EcommerceStores), partners)}
	f.shop = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Shop", Currency: "CHF", SiteDomain: "shop.example.com"})
	f.rival = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Rival", SiteDomain: "rival.example.com"})
	f.asShop = asMember(f.shop, domain.PermManageMasterAdmin)
	f.asShopReader = asMember(f.shop)
	f.asRival = asMember(f.rival, domain.PermManageMasterAdmin)
	if err := db.NewRaw(`INSERT INTO media (partner_id, name, blob_key, content_type, size, width, height)
		VALUES (?, 'mug.png', 'k', 'image/png', 1, 1, 1) RETURNING uuid`, f.shop.ID).Scan(context.Background(), &f.shopMediaUUID); err != nil {
		t.Fatal(err)
	}
	return f
}

func asMember(p *domain.Partner, perms ...string) context.Context {
	return domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: 2}, Partner: p, Permissions: perms})
}

func texts(kv ...string) domain.Optional[[]domain.TextInput] {
	var out []domain.TextInput
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, domain.TextInput{Lang: kv[i], Text: kv[i+1]})
	}
	return domain.Some(out)
}

func money(s string) domain.Optional[decimal.Decimal] {
	return domain.Some(decimal.RequireFromString(s))
}

func mug(f *fixture) ecommerce.ProductInput {
	return ecommerce.ProductInput{Name: texts("en", "Mug", "fr", "Tasse"), Price: money("12.50"), VATRate: money("20"),
		Images: domain.Some([]uuid.UUID{f.shopMediaUUID}),
		Variants: domain.Some([]ecommerce.VariantInput{
			{Name: texts("en", "Blue"), Price: money("12.50"), Stock: domain.Some(int64(5))},
			{Name: texts("en", "Red"), Price: money("13")},
		}),
		Attributes: domain.Some([]ecommerce.AttributeInput{{Name: texts("en", "Gift wrap"), Values: domain.Some([]string{"yes", "no"})}}),
	}
}

func TestCreateAndRead(t *testing.T) {
	f := newFixture(t)
	p, err := f.svc.CreateProduct(f.asShop, mug(f))
	if err != nil {
		t.Fatal(err)
	}
	if p.Currency != "CHF" || !p.Price.Equal(decimal.RequireFromString("12.5")) || !p.Active || p.Stock != nil ||
		len(p.Variants) != 2 || *p.Variants[0].Stock != 5 || p.Variants[1].Stock != nil ||
		len(p.Attributes) != 1 || p.Attributes[0].Values[1] != "no" || p.Images[0] != f.shopMediaUUID.String() ||
		p.Name["fr"] != "Tasse" {
		t.Errorf("created %+v", p)
	}
	got, err := f.svc.Product(f.asShopReader, p.ID)
	if err != nil || got.ID != p.ID {
		t.Fatalf("read = %v, %v", got, err)
	}
	// Another partner's product does not exist for its members, to read or change.
	if _, err := f.svc.Product(f.asRival, p.ID); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("rival read: %v, want not found", err)
	}
	if _, err := f.svc.UpdateProduct(f.asRival, p.ID, ecommerce.ProductInput{Active: domain.Some(false)}, true); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("rival update: %v, want not found", err)
	}
	page, err := f.svc.Products(f.asRival, ecommerce.ProductListInput{}, domain.PageRequest{Number: 1, Size: 20})
	if err != nil || page.Count != 0 {
		t.Errorf("rival list = %+v, %v", page, err)
	}
	// A member without the permission reads but does not write.
	if _, err := f.svc.CreateProduct(f.asShopReader, mug(f)); !domain.IsCode(err, domain.CodeForbidden) {
		t.Errorf("reader create: %v, want forbidden", err)
	}
}

// The public reads of the site (X-Partner-Domain, no token) list the
// active products only; the partner's members see them all.
func TestPublicReadShowsActiveOnly(t *testing.T) {
	f := newFixture(t)
	on, err := f.svc.CreateProduct(f.asShop, mug(f))
	if err != nil {
		t.Fatal(err)
	}
	in := mug(f)
	in.Active = domain.Some(false)
	off, err := f.svc.CreateProduct(f.asShop, in)
	if err != nil {
		t.Fatal(err)
	}
	public := domain.WithPartnerDomain(context.Background(), "shop.example.com")
	page, err := f.svc.Products(public, ecommerce.ProductListInput{}, domain.PageRequest{Number: 1, Size: 20})
	if err != nil || page.Count != 1 || page.Items[0].ID != on.ID {
		t.Fatalf("public list = %+v, %v", page, err)
	}
	if _, err := f.svc.Product(public, off.ID); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("public read of an inactive product: %v, want not found", err)
	}
	// The rival's token on the shop's site is a visitor's.
	rivalOnShop := domain.WithPartnerDomain(f.asRival, "shop.example.com")
	if page, err := f.svc.Products(rivalOnShop, ecommerce.ProductListInput{}, domain.PageRequest{Number: 1, Size: 20}); err != nil || page.Count != 1 {
		t.Errorf("rival on the shop's site = %+v, %v", page, err)
	}
	page, err = f.svc.Products(f.asShopReader, ecommerce.ProductListInput{}, domain.PageRequest{Number: 1, Size: 20})
	if err != nil || page.Count != 2 || page.Items[0].ID != off.ID {
		t.Fatalf("own list = %+v, %v", page, err)
	}
	page, err = f.svc.Products(f.asShopReader, ecommerce.ProductListInput{Active: domain.Some(false)}, domain.PageRequest{Number: 1, Size: 20})
	if err != nil || page.Count != 1 || page.Items[0].ID != off.ID {
		t.Fatalf("own inactive list = %+v, %v", page, err)
	}
	if _, err := f.svc.Products(context.Background(), ecommerce.ProductListInput{}, domain.PageRequest{Number: 1, Size: 20}); !domain.IsCode(err, domain.CodeInvalid) {
		t.Errorf("no partner named: %v, want invalid", err)
	}
}

func TestValidation(t *testing.T) {
	f := newFixture(t)
	var rivalMedia uuid.UUID
	if err := f.db.NewRaw(`INSERT INTO media (partner_id, name, blob_key, content_type, size, width, height)
		VALUES (?, 'x.png', 'k2', 'image/png', 1, 1, 1) RETURNING uuid`, f.rival.ID).Scan(context.Background(), &rivalMedia); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.CreateProduct(f.asShop, ecommerce.ProductInput{})
	dbtest.WantFieldErrors(t, err, map[string]string{"name": domain.MsgRequired, "price": domain.MsgRequired})

	long := make([]byte, 256)
	for i := range long {
		long[i] = 'a'
	}
	many := make([]ecommerce.VariantInput, ecommerce.MaxVariants+1)
	_, err = f.svc.CreateProduct(f.asShop, ecommerce.ProductInput{
		Name: texts("en", string(long), "xx", "?"), Price: money("-1"), VATRate: money("100.01"),
		Stock: domain.Some(int64(-1)), Images: domain.Some([]uuid.UUID{rivalMedia}), Variants: domain.Some(many),
		Attributes: domain.Some([]ecommerce.AttributeInput{{Name: texts("en", "Wrap"), Values: domain.Some([]string{"yes", "yes", " "})}}),
	})
	dbtest.WantFieldErrors(t, err, map[string]string{
		"name.en":               "Ensure this field has no more than 255 characters.",
		"name.xx":               `"xx" is not a valid choice.`,
		"price":                 domain.MsgMinZero,
		"vat_rate":              "Ensure this value is less than or equal to 100.",
		"stock":                 domain.MsgMinZero,
		"images":                `Invalid pk "` + rivalMedia.String() + `" - object does not exist.`,
		"variants":              "Ensure this field has no more than 50 elements.",
		"attributes.0.values.1": "This value is given more than once.",
		"attributes.0.values.2": domain.MsgBlank,
	})

	in := mug(f)
	in.Stock = domain.Some(int64(3))
	in.Variants = domain.Some([]ecommerce.VariantInput{{Name: texts("en", "Blue")}, {ID: domain.Some(int64(99)), Name: texts("en", "Red"), Price: money("1")}})
	_, err = f.svc.CreateProduct(f.asShop, in)
	dbtest.WantFieldErrors(t, err, map[string]string{
		"variants.0.price": domain.MsgRequired,
		"variants.1.id":    `Invalid pk "99" - object does not exist.`,
		"stock":            "A product with variants counts its stock on its variants: leave stock null.",
	})
	var n int
	if err := f.db.NewRaw(`SELECT count(*) FROM ecommerce_products`).Scan(context.Background(), &n); err != nil || n != 0 {
		t.Errorf("products after refused writes = %d, %v", n, err)
	}
}

// PATCH changes only what it names; a variants list replaces the
// product's: a listed id keeps its variant, the others go, new ones come.
func TestUpdateReplacesVariants(t *testing.T) {
	f := newFixture(t)
	p, err := f.svc.CreateProduct(f.asShop, mug(f))
	if err != nil {
		t.Fatal(err)
	}
	blue, red := p.Variants[0], p.Variants[1]
	up, err := f.svc.UpdateProduct(f.asShop, p.ID, ecommerce.ProductInput{
		Variants: domain.Some([]ecommerce.VariantInput{
			{Name: texts("en", "Green"), Price: money("14")},
			{ID: domain.Some(blue.ID), Name: texts("en", "Navy"), Price: money("12.50"), Stock: domain.Some(int64(4))},
		}),
		Attributes: domain.Some([]ecommerce.AttributeInput{}),
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Variants) != 2 || up.Variants[1].ID != blue.ID || up.Variants[1].Name["en"] != "Navy" || *up.Variants[1].Stock != 4 ||
		up.Variants[0].ID == red.ID || up.Variants[0].Name["en"] != "Green" || len(up.Attributes) != 0 {
		t.Errorf("variants after update = %+v %+v, attributes %v", up.Variants[0], up.Variants[1], up.Attributes)
	}
	if up.Name["en"] != "Mug" || !up.Price.Equal(decimal.RequireFromString("12.5")) || len(up.Images) != 1 {
		t.Errorf("PATCH changed fields it did not name: %+v", up)
	}
	var n int
	if err := f.db.NewRaw(`SELECT count(*) FROM ecommerce_variants WHERE id = ?`, red.ID).Scan(context.Background(), &n); err != nil || n != 0 {
		t.Errorf("red variant rows = %d, %v", n, err)
	}

	// PUT asks for what creation asks for.
	_, err = f.svc.UpdateProduct(f.asShop, p.ID, ecommerce.ProductInput{Active: domain.Some(false)}, false)
	dbtest.WantFieldErrors(t, err, map[string]string{"name": domain.MsgRequired, "price": domain.MsgRequired})
	up, err = f.svc.UpdateProduct(f.asShop, p.ID, ecommerce.ProductInput{Name: texts("en", "Cup"), Price: money("9"),
		Variants: domain.Some([]ecommerce.VariantInput{}), Stock: domain.Some(int64(7))}, false)
	if err != nil {
		t.Fatal(err)
	}
	if up.Name["en"] != "Cup" || up.Name["fr"] != "" || *up.Stock != 7 || len(up.Variants) != 0 {
		t.Errorf("after PUT: %+v", up)
	}
}

func TestDeliverySettings(t *testing.T) {
	f := newFixture(t)
	d, err := f.svc.DeliverySettings(f.asShop)
	if err != nil || len(d.Modes()) != 0 {
		t.Fatalf("initial settings = %+v, %v", d, err)
	}
	_, err = f.svc.UpdateDeliverySettings(f.asShop, ecommerce.DeliverySettingsInput{Pickup: domain.Some(true), PostalCost: money("-1")})
	dbtest.WantFieldErrors(t, err, map[string]string{"postal_cost": domain.MsgMinZero,
		"pickup_address": "An address is required when pickup is offered."})
	_, err = f.svc.UpdateDeliverySettings(f.asShop, ecommerce.DeliverySettingsInput{Email: domain.Some(true), Postal: domain.Some(true),
		PostalCost: money("4.90"), PostalDays: domain.Some(int64(3))})
	if err != nil {
		t.Fatal(err)
	}
	d, err = f.svc.DeliverySettings(f.asShopReader)
	if err != nil {
		t.Fatal(err)
	}
	if cost, ok := d.Cost(ecommerce.DeliveryPostal); !ok || !cost.Equal(decimal.RequireFromString("4.9")) || d.PostalDays != 3 || d.Pickup {
		t.Errorf("settings = %+v", d)
	}
	if d, err := f.svc.DeliverySettings(f.asRival); err != nil || d.Email {
		t.Errorf("rival settings = %+v, %v", d, err)
	}
}

// A variant an order line names is hidden when its product's list leaves
// it out, so that the line keeps its reference; it stays out of reads.
func TestUpdateHidesAnOrderedVariant(t *testing.T) {
	f := newFixture(t)
	p, err := f.svc.CreateProduct(f.asShop, mug(f))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	blue := p.Variants[0]
	if _, err := f.db.NewRaw(`WITH o AS (INSERT INTO orders (uuid, reference, partner_id, kind, status, currency, total)
			VALUES (gen_random_uuid(), 'R1', ?, 'ecommerce', 'paid', 'CHF', 12.5) RETURNING id),
		e AS (INSERT INTO ecommerce_orders (order_id, delivery_mode, lines_total) SELECT id, 'email', 12.5 FROM o RETURNING id)
		INSERT INTO ecommerce_order_lines (ecommerce_order_id, position, product_id, variant_id, name, quantity, unit_price,
			vat_rate, vat_amount, total) SELECT id, 0, ?, ?, 'Mug', 1, 12.5, 20, 2.08, 12.5 FROM e`,
		f.shop.ID, p.ID, blue.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	up, err := f.svc.UpdateProduct(f.asShop, p.ID, ecommerce.ProductInput{
		Variants: domain.Some([]ecommerce.VariantInput{{ID: domain.Some(p.Variants[1].ID), Name: texts("en", "Red"), Price: money("13")}})}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Variants) != 1 || up.Variants[0].ID != p.Variants[1].ID {
		t.Errorf("variants = %+v", up.Variants)
	}
	var removed, active bool
	if err := f.db.NewRaw(`SELECT removed, active FROM ecommerce_variants WHERE id = ?`, blue.ID).Scan(ctx, &removed, &active); err != nil {
		t.Fatal(err)
	}
	if !removed || active {
		t.Errorf("the ordered variant: removed %v, active %v", removed, active)
	}
	// Its id is no longer the product's to keep.
	_, err = f.svc.UpdateProduct(f.asShop, p.ID, ecommerce.ProductInput{
		Variants: domain.Some([]ecommerce.VariantInput{{ID: domain.Some(blue.ID), Name: texts("en", "Blue"), Price: money("1")}})}, true)
	dbtest.WantFieldErrors(t, err, map[string]string{"variants.0.id": `Invalid pk "` + strconv.FormatInt(blue.ID, 10) + `" - object does not exist.`})
}
