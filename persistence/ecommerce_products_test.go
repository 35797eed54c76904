package persistence_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/ecommerce"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// errShort rolls back a transaction whose stock was short.
var errShort = errors.New("short")

func newShopProduct(t *testing.T, db *bun.DB, p *ecommerce.Product) *ecommerce.Product {
	t.Helper()
	ctx := context.Background()
	if p.PartnerID == 0 {
		if err := db.NewRaw(`INSERT INTO partners (name) VALUES ('Shop') RETURNING id`).Scan(ctx, &p.PartnerID); err != nil {
			t.Fatal(err)
		}
	}
	if err := persistence.NewEcommerceProductStore(db).CreateProduct(ctx, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func stockOf(t *testing.T, db *bun.DB, table string, id int64) *int64 {
	t.Helper()
	var stock *int64
	if err := db.NewRaw(`SELECT stock FROM `+table+` WHERE id = ?`, id).Scan(context.Background(), &stock); err != nil {
		t.Fatal(err)
	}
	return stock
}

// Twenty orders, each in its own transaction, take one of five units at
// once: five succeed, the others see the stock short, and it ends at 0,
// never below.
func TestEcommerceTakeStockConcurrently(t *testing.T) {
	db := dbtest.New(t)
	five := int64(5)
	p := newShopProduct(t, db, &ecommerce.Product{Name: domain.Localized{"en": "Mug"}, Price: decimal.RequireFromString("12.50"),
		Active: true, Variants: []*ecommerce.Variant{{Name: domain.Localized{"en": "Blue"}, Price: decimal.RequireFromString("12.50"), Stock: &five, Active: true}}})
	plain := newShopProduct(t, db, &ecommerce.Product{PartnerID: p.PartnerID, Name: domain.Localized{"en": "Tea"},
		Price: decimal.RequireFromString("4"), Active: true, Stock: &five})
	uow := persistence.NewUnitOfWork(db, persistence.EcommerceStores)

	for _, tc := range []struct {
		name  string
		line  ecommerce.StockLine
		table string
		id    int64
	}{
		{"variant", ecommerce.StockLine{ProductID: p.ID, VariantID: &p.Variants[0].ID, Quantity: 1}, "ecommerce_variants", p.Variants[0].ID},
		{"product", ecommerce.StockLine{ProductID: plain.ID, Quantity: 1}, "ecommerce_products", plain.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dbtest.Concurrently(20, func(int) error {
				return uow.RunInTx(context.Background(), func(ctx context.Context, tx ecommerce.Stores) error {
					short, err := tx.Products.TakeStock(ctx, []ecommerce.StockLine{tc.line})
					if err != nil {
						return err
					}
					if short != nil {
						return domain.Errorf(domain.CodeConflict, "short")
					}
					return nil
				})
			})
			if got[""] != 5 || got[domain.CodeConflict] != 15 {
				t.Errorf("outcomes = %v, want 5 successes and 15 short", got)
			}
			if s := stockOf(t, db, tc.table, tc.id); s == nil || *s != 0 {
				t.Errorf("stock = %v, want 0", s)
			}
		})
	}
}

// A short line names itself and the caller's rollback undoes the lines
// taken before it; unlimited stock is always taken and stays NULL, given
// back too.
func TestEcommerceTakeAndGiveStock(t *testing.T) {
	db := dbtest.New(t)
	two := int64(2)
	limited := newShopProduct(t, db, &ecommerce.Product{Name: domain.Localized{"en": "Pen"}, Price: decimal.NewFromInt(3), Active: true, Stock: &two})
	unlimited := newShopProduct(t, db, &ecommerce.Product{PartnerID: limited.PartnerID, Name: domain.Localized{"en": "Ebook"},
		Price: decimal.NewFromInt(9), Active: true})
	uow := persistence.NewUnitOfWork(db, persistence.EcommerceStores)
	ctx := context.Background()

	lines := []ecommerce.StockLine{{ProductID: unlimited.ID, Quantity: 100}, {ProductID: limited.ID, Quantity: 3}}
	err := uow.RunInTx(ctx, func(ctx context.Context, tx ecommerce.Stores) error {
		short, err := tx.Products.TakeStock(ctx, lines)
		if err != nil {
			return err
		}
		if short == nil || short.ProductID != limited.ID {
			t.Errorf("short = %+v, want the line of product %d", short, limited.ID)
		}
		return errShort
	})
	if !errors.Is(err, errShort) {
		t.Fatal(err)
	}
	if s := stockOf(t, db, "ecommerce_products", limited.ID); *s != 2 {
		t.Errorf("stock after a rollback = %d, want 2", *s)
	}

	lines[1].Quantity = 2
	if short, err := uow.Stores().Products.TakeStock(ctx, lines); err != nil || short != nil {
		t.Fatalf("take = %+v, %v", short, err)
	}
	if s := stockOf(t, db, "ecommerce_products", limited.ID); *s != 0 {
		t.Errorf("stock = %d, want 0", *s)
	}
	if err := uow.Stores().Products.GiveStock(ctx, lines); err != nil {
		t.Fatal(err)
	}
	if s := stockOf(t, db, "ecommerce_products", limited.ID); *s != 2 {
		t.Errorf("stock given back = %d, want 2", *s)
	}
	if s := stockOf(t, db, "ecommerce_products", unlimited.ID); s != nil {
		t.Errorf("unlimited stock = %d, want NULL", *s)
	}
}
