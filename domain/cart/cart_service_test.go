package cart_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/cart"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
)

// cartFixture is a cart service over a real database and the in-process
// store, with two partners: one with a site domain, one without.
type cartFixture struct {
	svc         *cart.Service
	store       *cartstore.Memory
	shop, other *account.NewAccount
	asShop      context.Context
	asOther     context.Context
	asStaff     context.Context
	accounts    *account.AccountService
	partners    domain.PartnerStore
}

func newCartFixture(t *testing.T, ttl time.Duration) *cartFixture {
	t.Helper()
	db, _ := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, nil, dbtest.CheapHashing)
	store := cartstore.NewMemory(1000)
	t.Cleanup(store.Close)
	f := &cartFixture{
		svc:      cart.NewService(store, db.Stores().Partners, ttl, "http://api.test:8000/"),
		store:    store,
		accounts: accounts,
		partners: db.Stores().Partners,
		shop:     dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop", PartnerDomain: "shop.example.com"}),
		other:    dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "other", PartnerName: "Other"}),
	}
	staff := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "staff", Staff: true})
	f.asShop, f.asOther, f.asStaff = dbtest.AsCaller(t, accounts, f.shop), dbtest.AsCaller(t, accounts, f.other), dbtest.AsCaller(t, accounts, staff)
	return f
}

func (f *cartFixture) mustSave(t *testing.T, ctx context.Context, body string) *cart.CartView {
	t.Helper()
	c, _, err := f.svc.SaveCart(ctx, input(t, body))
	if err != nil {
		t.Fatalf("save %s: %v", body, err)
	}
	return c
}

func TestSaveCart(t *testing.T) {
	t.Parallel()
	f := newCartFixture(t, time.Hour)

	t.Run("OKCreate", func(t *testing.T) {
		before := time.Now().Truncate(time.Millisecond)
		c, created, err := f.svc.SaveCart(f.asShop, input(t, `{
			"items": [{"product_id": 7, "quantity": 2},
			          {"product_id": 8, "quantity": 1, "variant_id": 3, "attribute_values": {"12": "red", "4": ""}}],
			"return_url": "https://shop.example.com/thanks", "unknown": true}`))
		if err != nil {
			t.Fatal(err)
		}
		if !created || c.ID == uuid.Nil || c.Revision != 0 {
			t.Errorf("created=%v id=%v revision=%d", created, c.ID, c.Revision)
		}
		three := int64(3)
		want := []cart.CartItem{
			{ProductID: 7, Quantity: 2, AttributeValues: map[int64]string{}},
			{ProductID: 8, Quantity: 1, VariantID: &three, AttributeValues: map[int64]string{12: "red", 4: ""}},
		}
		if !reflect.DeepEqual(c.Items, want) {
			t.Errorf("items = %+v, want %+v", c.Items, want)
		}
		if c.ReturnURL != "https://shop.example.com/thanks" {
			t.Errorf("return_url = %q", c.ReturnURL)
		}
		if wantURL := "https://shop.example.com/ecommerce/shop/customization/?cart=" + c.ID.String(); c.FunnelURL != wantURL {
			t.Errorf("funnel_url = %q, want %q", c.FunnelURL, wantURL)
		}
		if c.LastModified.Before(before) || !c.LastModified.Equal(c.CreatedAt) || c.LastModified.Nanosecond()%int(time.Millisecond) != 0 {
			t.Errorf("last_modified = %v, created_at = %v", c.LastModified, c.CreatedAt)
		}
		if !c.ExpiresAt.Equal(c.LastModified.Add(time.Hour)) {
			t.Errorf("expires_at = %v, want last_modified + ttl", c.ExpiresAt)
		}
	})

	t.Run("OKEmptyItemsAndFunnelPathForm", func(t *testing.T) {
		c := f.mustSave(t, f.asOther, `{"items": [], "return_url": ""}`)
		if len(c.Items) != 0 || c.ReturnURL != "" {
			t.Errorf("cart = %+v", c.Cart)
		}
		want := "http://api.test:8000/p/" + f.other.Partner.UUID.String() + "/ecommerce/shop/customization/?cart=" + c.ID.String()
		if c.FunnelURL != want {
			t.Errorf("funnel_url = %q, want %q", c.FunnelURL, want)
		}
	})

	t.Run("OKReplace", func(t *testing.T) {
		c := f.mustSave(t, f.asShop, `{"items": [{"product_id": 1, "quantity": 1}], "return_url": "https://a.example/"}`)
		r, created, err := f.svc.SaveCart(f.asShop, input(t, `{"id": "`+c.ID.String()+`", "items": [{"product_id": 2, "quantity": 5}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if created || r.ID != c.ID || r.Revision != 1 {
			t.Errorf("created=%v id=%v revision=%d", created, r.ID, r.Revision)
		}
		if len(r.Items) != 1 || r.Items[0].ProductID != 2 || r.ReturnURL != "" {
			t.Errorf("contents not overwritten: %+v", r.Cart)
		}
		if !r.LastModified.After(c.LastModified) || !r.CreatedAt.Equal(c.CreatedAt) {
			t.Errorf("last_modified %v -> %v, created_at %v -> %v", c.LastModified, r.LastModified, c.CreatedAt, r.CreatedAt)
		}
		got, err := f.svc.Cart(f.asShop, c.ID.String())
		if err != nil || got.Items[0].ProductID != 2 {
			t.Errorf("stored cart = %+v, %v", got, err)
		}
	})

	t.Run("ErrReplaceOtherPartnersCart", func(t *testing.T) {
		c := f.mustSave(t, f.asShop, `{"items": [{"product_id": 1, "quantity": 1}]}`)
		_, _, err := f.svc.SaveCart(f.asOther, input(t, `{"id": "`+c.ID.String()+`", "items": []}`))
		dbtest.WantFieldErrors(t, err, map[string]string{"id": "Cart not found"})
		got, _ := f.svc.Cart(f.asShop, c.ID.String())
		if len(got.Items) != 1 {
			t.Error("another partner's replace changed the cart")
		}
	})

	t.Run("ErrReplaceUnknownCart", func(t *testing.T) {
		_, _, err := f.svc.SaveCart(f.asShop, input(t, `{"id": "`+uuid.NewString()+`", "items": []}`))
		dbtest.WantFieldErrors(t, err, map[string]string{"id": "Cart not found"})
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		_, _, err := f.svc.SaveCart(f.asStaff, input(t, `{"items": []}`))
		dbtest.WantCode(t, err, domain.CodeForbidden)
	})

	t.Run("ErrUnauthenticated", func(t *testing.T) {
		_, _, err := f.svc.SaveCart(context.Background(), input(t, `{"items": []}`))
		dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	})
}

func TestSaveCartValidation(t *testing.T) {
	t.Parallel()
	f := newCartFixture(t, time.Hour)
	long := strings.Repeat("x", 256)
	many := "[" + strings.TrimSuffix(strings.Repeat(`{"product_id": 1, "quantity": 1},`, cart.MaxCartItems+1), ",") + "]"

	cases := map[string]struct {
		body string
		want map[string]string // dotted path -> message
	}{
		"items missing":      {`{}`, map[string]string{"items": "This field is required."}},
		"items null":         {`{"items": null}`, map[string]string{"items": "This field may not be null."}},
		"too many items":     {`{"items": ` + many + `}`, map[string]string{"items": "Ensure this field has no more than 100 elements."}},
		"product_id missing": {`{"items": [{"quantity": 1}]}`, map[string]string{"items.0.product_id": "This field is required."}},
		"product_id null":    {`{"items": [{"product_id": null, "quantity": 1}]}`, map[string]string{"items.0.product_id": "This field may not be null."}},
		"product_id zero":    {`{"items": [{"product_id": 0, "quantity": 1}]}`, map[string]string{"items.0.product_id": "Ensure this value is greater than or equal to 1."}},
		"quantity missing":   {`{"items": [{"product_id": 1}]}`, map[string]string{"items.0.quantity": "This field is required."}},
		"quantity negative":  {`{"items": [{"product_id": 1, "quantity": -1}]}`, map[string]string{"items.0.quantity": "Ensure this value is greater than or equal to 0."}},
		"quantity too large": {`{"items": [{"product_id": 1, "quantity": 100001}]}`, map[string]string{"items.0.quantity": "Ensure this value is less than or equal to 100000."}},
		"attributes null":    {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": null}]}`, map[string]string{"items.0.attribute_values": "This field may not be null."}},
		"attribute key text": {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": {"color": "red"}}]}`, map[string]string{"items.0.attribute_values.color": "Attribute ids must be positive integers."}},
		"attribute key form": {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": {"1": "a", "01": "b", "+2": "c"}}]}`,
			map[string]string{"items.0.attribute_values.01": cart.MsgAttributeIDForm, "items.0.attribute_values.+2": cart.MsgAttributeIDForm}},
		"attribute value long": {`{"items": [{"product_id": 1, "quantity": 1, "attribute_values": {"12": "` + long + `"}}]}`, map[string]string{"items.0.attribute_values.12": "Ensure this field has no more than 255 characters."}},
		"return_url invalid":   {`{"items": [], "return_url": "not a url"}`, map[string]string{"return_url": "Enter a valid URL."}},
		"return_url ftp":       {`{"items": [], "return_url": "ftp://x.example/"}`, map[string]string{"return_url": "Enter a valid URL."}},
		"errors on two items": {`{"items": [{"product_id": 1, "quantity": 1}, {"product_id": 1, "quantity": -1}, {"quantity": 1}]}`,
			map[string]string{"items.1.quantity": "Ensure this value is greater than or equal to 0.", "items.2.product_id": "This field is required."}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := f.store.Len()
			_, _, err := f.svc.SaveCart(f.asShop, input(t, tc.body))
			e := dbtest.WantFieldErrors(t, err, tc.want)
			if strings.HasPrefix(name, "errors on two items") && e.ListLengths["items"] != 3 {
				t.Errorf("ListLengths = %v, want items: 3", e.ListLengths)
			}
			if f.store.Len() != before {
				t.Error("an invalid cart was stored")
			}
		})
	}
}

func TestSaveCartIfMatch(t *testing.T) {
	t.Parallel()
	f := newCartFixture(t, time.Hour)
	c := f.mustSave(t, f.asShop, `{"items": []}`)
	replace := func(ifMatch string) (*cart.CartView, error) {
		in := input(t, `{"id": "`+c.ID.String()+`", "items": [{"product_id": 1, "quantity": 1}]}`)
		in.IfMatch = ifMatch
		v, _, err := f.svc.SaveCart(f.asShop, in)
		return v, err
	}

	t.Run("OKMatch", func(t *testing.T) {
		r, err := replace(c.ETag())
		if err != nil {
			t.Fatal(err)
		}
		if r.ETag() == c.ETag() {
			t.Error("the ETag did not change on replace")
		}
		c = r
	})
	t.Run("OKStarOrList", func(t *testing.T) {
		r, err := replace(`"other", ` + c.ETag())
		if err != nil {
			t.Fatal(err)
		}
		if c, err = replace("*"); err != nil {
			t.Fatal(err)
		}
		_ = r
	})
	t.Run("ErrStale", func(t *testing.T) {
		stale := c.ETag()
		if _, err := replace(stale); err != nil {
			t.Fatal(err)
		}
		_, err := replace(stale)
		dbtest.WantCode(t, err, domain.CodePreconditionFailed)
	})
	t.Run("ErrOnCreate", func(t *testing.T) {
		_, _, err := f.svc.SaveCart(f.asShop, withIfMatch(input(t, `{"items": []}`), "*"))
		dbtest.WantCode(t, err, domain.CodePreconditionFailed)
	})
}

func TestCartLifecycle(t *testing.T) {
	t.Parallel()
	const ttl = time.Second
	f := newCartFixture(t, ttl)

	t.Run("ErrOtherPartner", func(t *testing.T) {
		c := f.mustSave(t, f.asShop, `{"items": []}`)
		_, err := f.svc.Cart(f.asOther, c.ID.String())
		if e := dbtest.WantCode(t, err, domain.CodeNotFound); e.Message != "Cart not found" {
			t.Errorf("message = %q", e.Message)
		}
	})

	t.Run("ErrExpired", func(t *testing.T) {
		c := f.mustSave(t, f.asShop, `{"items": []}`)
		// A replace before the end restarts the lifetime.
		time.Sleep(ttl * 3 / 5)
		f.mustSave(t, f.asShop, `{"id": "`+c.ID.String()+`", "items": []}`)
		time.Sleep(ttl * 3 / 5)
		if _, err := f.svc.Cart(f.asShop, c.ID.String()); err != nil {
			t.Fatalf("cart lapsed although replaced within its lifetime: %v", err)
		}
		time.Sleep(ttl + 200*time.Millisecond)
		_, err := f.svc.Cart(f.asShop, c.ID.String())
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, _, err = f.svc.SaveCart(f.asShop, input(t, `{"id": "`+c.ID.String()+`", "items": []}`))
		dbtest.WantFieldErrors(t, err, map[string]string{"id": "Cart not found"})
	})

	t.Run("DeleteAtCheckout", func(t *testing.T) {
		c := f.mustSave(t, f.asShop, `{"items": []}`)
		foreign := f.mustSave(t, f.asOther, `{"items": []}`)
		site := cart.FunnelSite{Host: "SHOP.example.com"}
		if err := f.svc.DeleteCart(context.Background(), site, foreign.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Cart(f.asOther, foreign.ID.String()); err != nil {
			t.Errorf("deleting through another partner's site removed the cart: %v", err)
		}
		if err := f.svc.DeleteCart(context.Background(), site, c.ID); err != nil {
			t.Fatal(err)
		}
		_, err := f.svc.Cart(f.asShop, c.ID.String())
		dbtest.WantCode(t, err, domain.CodeNotFound)
		if err := f.svc.DeleteCart(context.Background(), site, c.ID); err != nil {
			t.Errorf("deleting twice: %v", err)
		}
	})
}

func TestFunnelCart(t *testing.T) {
	t.Parallel()
	f := newCartFixture(t, time.Hour)
	shopCart := f.mustSave(t, f.asShop, `{"items": [{"product_id": 1, "quantity": 2}]}`)
	otherCart := f.mustSave(t, f.asOther, `{"items": []}`)
	otherUUID := f.other.Partner.UUID

	t.Run("OKByHost", func(t *testing.T) {
		c, _, err := f.svc.FunnelCart(context.Background(), cart.FunnelSite{Host: "shop.example.com"}, shopCart.ID)
		if err != nil || c.Items[0].Quantity != 2 {
			t.Fatalf("cart = %+v, %v", c, err)
		}
	})
	t.Run("OKByPartnerUUID", func(t *testing.T) {
		if _, p, err := f.svc.FunnelCart(context.Background(), cart.FunnelSite{PartnerUUID: &otherUUID}, otherCart.ID); err != nil || p.UUID != otherUUID {
			t.Fatalf("partner %+v, %v; want the site's", p, err)
		}
	})
	t.Run("ErrOtherPartnersSite", func(t *testing.T) {
		_, _, err := f.svc.FunnelCart(context.Background(), cart.FunnelSite{Host: "shop.example.com"}, otherCart.ID)
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, _, err = f.svc.FunnelCart(context.Background(), cart.FunnelSite{PartnerUUID: &otherUUID}, shopCart.ID)
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})
	t.Run("ErrUnknownSite", func(t *testing.T) {
		_, _, err := f.svc.FunnelCart(context.Background(), cart.FunnelSite{Host: "nowhere.example"}, shopCart.ID)
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})
}
