package checkout_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/checkout"
	"salesplatform/domain/gifts"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

const simBase = "https://sp.example"

// fixture is a shop (a payment-hub partner with its payments activated,
// in a marketplace's network giftcard settings) with its delivery
// settings (e-mail free, postal 5.00, pickup 2.00), and the checkout on
// the simulated provider and an in-memory cart store.
type fixture struct {
	db           *bun.DB
	svc          *checkout.Service
	hub          *payments.PaymentService
	sim          *psp.Sim
	pages        http.Handler
	carts        *hookedCarts
	shop, market *domain.Partner
	site         checkout.Site
}

func newFixture(t testing.TB, conns int) *fixture {
	t.Helper()
	db := dbtest.New(t)
	persistence.SetMaxConns(db.DB, conns)
	partners := persistence.NewDatabase(db).Stores().Partners
	f := &fixture{db: db}
	f.market = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Market", IsMarketplace: true, Currency: "EUR", TimeZone: "Europe/Paris"})
	f.shop = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Shop", Currency: "EUR", TimeZone: "Europe/Paris"})
	f.exec(t, `INSERT INTO payment_partners (partner_id, legal_representative_email, payout_frequency)
		VALUES (?, 'rep@example.com', 'week')`, f.shop.ID)
	f.exec(t, `INSERT INTO payment_partner_activations (id, partner_id, provider, provider_ref, status, user_action_url, completed_on)
		VALUES (?, ?, 'simulated', ?, 'COMPLETED', '', now())`, uuid.New(), f.shop.ID, uuid.NewString())
	f.exec(t, `INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?)`, f.market.ID, f.shop.ID)
	f.exec(t, `INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?)`, f.market.ID, f.shop.ID)
	f.exec(t, `INSERT INTO ecommerce_delivery_settings (partner_id, email, postal, postal_cost, postal_days, pickup, pickup_cost, pickup_address)
		VALUES (?, true, true, 5, 3, true, 2, '1 rue du Port')`, f.shop.ID)
	f.sim = psp.NewSim(db, simBase)
	f.hub = payments.NewPaymentService(persistence.NewUnitOfWork(db, persistence.PaymentsStores), nil, f.sim)
	f.pages = f.sim.Handler(psp.Callbacks{PayinChanged: f.hub.SyncPayin})
	giftcards := network.NewGiftcardService(persistence.NewUnitOfWork(db, persistence.NetworkStores), nil)
	f.carts = &hookedCarts{CartStore: cartstore.NewMemory(1000)}
	carts := cart.NewService(f.carts, partners, time.Hour, simBase)
	f.svc = checkout.NewService(persistence.NewUnitOfWork(db, persistence.CheckoutStores), carts, f.carts, time.Hour,
		partners, f.hub, giftcards)
	f.site = checkout.Site{PartnerUUID: &f.shop.UUID}
	return f
}

// hookedCarts is the carts' store that runs afterGet (once, then
// forgets it) when a Get returns: a write landing right after the
// checkout read the cart.
type hookedCarts struct {
	cart.CartStore
	mu       sync.Mutex
	afterGet func()
}

func (h *hookedCarts) Get(ctx context.Context, id uuid.UUID) (*cart.Cart, error) {
	c, err := h.CartStore.Get(ctx, id)
	h.mu.Lock()
	fn := h.afterGet
	h.afterGet = nil
	h.mu.Unlock()
	if fn != nil {
		fn()
	}
	return c, err
}

// onNextGet sets the hook of the next Get.
func (h *hookedCarts) onNextGet(fn func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.afterGet = fn
}

// touch writes a change of the cart's first line's quantity behind the
// funnel's back (as the shop's cart API does): a new revision.
func (f *fixture) touch(t testing.TB, id uuid.UUID, quantity int64) {
	t.Helper()
	err := f.carts.CartStore.Update(context.Background(), id, time.Hour, func(c *cart.Cart) (*cart.Cart, error) {
		next := *c
		next.Items = append([]cart.CartItem(nil), c.Items...)
		next.Items[0].Quantity = quantity
		next.Revision = c.Revision + 1
		return &next, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) exec(t testing.TB, q string, args ...any) {
	t.Helper()
	if _, err := f.db.NewRaw(q, args...).Exec(context.Background()); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (f *fixture) scan(t testing.TB, dst any, q string, args ...any) {
	t.Helper()
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), dst); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (f *fixture) id(t testing.TB, q string, args ...any) int64 {
	t.Helper()
	var id int64
	f.scan(t, &id, q, args...)
	return id
}

// product writes an active product of the shop (20% VAT); stock nil is
// unlimited.
func (f *fixture) product(t testing.TB, price string, stock *int64) int64 {
	t.Helper()
	return f.id(t, `INSERT INTO ecommerce_products (partner_id, name, price, vat_rate, stock)
		VALUES (?, '{"en": "Mug", "fr": "Tasse"}', ?, 20, ?) RETURNING id`, f.shop.ID, price, stock)
}

func (f *fixture) variant(t testing.TB, product int64, price string, stock *int64) int64 {
	t.Helper()
	return f.id(t, `INSERT INTO ecommerce_variants (product_id, name, price, stock) VALUES (?, '{"en": "Large"}', ?, ?) RETURNING id`,
		product, price, stock)
}

func (f *fixture) stockOf(t testing.TB, product int64) int64 {
	t.Helper()
	var n int64
	f.scan(t, &n, `SELECT stock FROM ecommerce_products WHERE id = ?`, product)
	return n
}

// coupon writes a coupon of the shop for e-commerce, with column
// values kv.
func (f *fixture) coupon(t testing.TB, code, discountType, discount string, kv ...any) int64 {
	t.Helper()
	id := f.id(t, `INSERT INTO coupons (partner_id, code, discount_type, discount, activate_for_ecommerce)
		VALUES (?, ?, ?, ?, true) RETURNING id`, f.shop.ID, code, discountType, discount)
	for i := 0; i < len(kv); i += 2 {
		f.exec(t, `UPDATE coupons SET `+kv[i].(string)+` = ? WHERE id = ?`, kv[i+1], id)
	}
	return id
}

// card issues a paid splittable network giftcard of the market.
func (f *fixture) card(t testing.TB, code, value string) int64 {
	t.Helper()
	return f.cardOf(t, f.market.ID, code, value)
}

// cardOf issues a paid splittable network giftcard of marketplace.
func (f *fixture) cardOf(t testing.TB, marketplace int64, code, value string) int64 {
	t.Helper()
	g := &gifts.NetworkGiftcard{Code: code, MarketplaceID: marketplace, Status: "paid",
		Value: decimal.RequireFromString(value), RemainingValue: decimal.RequireFromString(value)}
	if err := persistence.NewGiftStore(f.db).CreateNetworkGiftcard(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	f.exec(t, `UPDATE network_giftcards SET is_splittable = true WHERE id = ?`, g.ID)
	return g.ID
}

func (f *fixture) remaining(t testing.TB, card int64) string {
	t.Helper()
	var s string
	f.scan(t, &s, `SELECT remaining_value::text FROM network_giftcards WHERE id = ?`, card)
	return s
}

// cart hands a cart of items over to the funnel.
func (f *fixture) cart(t testing.TB, items ...cart.CartItem) uuid.UUID {
	t.Helper()
	now := time.Now().Truncate(time.Millisecond)
	c := &cart.Cart{ID: uuid.New(), PartnerID: f.shop.ID, Items: items, CreatedAt: now, LastModified: now}
	if err := f.carts.Create(context.Background(), c, time.Hour); err != nil {
		t.Fatal(err)
	}
	return c.ID
}

func item(product, quantity int64) cart.CartItem {
	return cart.CartItem{ProductID: product, Quantity: quantity, AttributeValues: map[int64]string{}}
}

// ready chooses e-mail delivery and fills the information step.
func (f *fixture) ready(t testing.TB, id uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	if _, err := f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{DeliveryMode: domain.Some("email")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Inform(ctx, f.site, id, checkout.InformationInput{FirstName: domain.Some("Ada"),
		LastName: domain.Some("Lovelace"), Email: domain.Some("ada@example.com"), Phone: domain.Some("+33600000000"),
		Language: "fr"}); err != nil {
		t.Fatal(err)
	}
}

// codes applies a coupon and a giftcard code ("" leaves it).
func (f *fixture) codes(t testing.TB, id uuid.UUID, coupon, giftcard string) *checkout.Basket {
	t.Helper()
	in := checkout.CodesInput{}
	if coupon != "" {
		in.Coupon = domain.Some(coupon)
	}
	if giftcard != "" {
		in.Giftcard = domain.Some(giftcard)
	}
	b, err := f.svc.ApplyCodes(context.Background(), f.site, id, in)
	if err != nil {
		t.Fatalf("codes %q %q: %v", coupon, giftcard, err)
	}
	return b
}

// post answers a form on the provider's page at pageURL and returns the
// response, redirects not followed.
func (f *fixture) post(t testing.TB, pageURL string, form url.Values) *http.Response {
	t.Helper()
	u, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodPost, u.Path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	f.pages.ServeHTTP(w, r)
	return w.Result()
}

func (f *fixture) get(t testing.TB, path string) *http.Response {
	t.Helper()
	w := httptest.NewRecorder()
	f.pages.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w.Result()
}

// payOnPage types card on the provider's card page the Pay outcome sent
// the customer to.
func (f *fixture) payOnPage(t testing.TB, out *checkout.PayOutcome, card string) *http.Response {
	t.Helper()
	if out == nil || out.RedirectURL == "" || !strings.Contains(out.RedirectURL, psp.PagePrefix+"card/") {
		t.Fatalf("the outcome sends nowhere to pay: %+v", out)
	}
	res := f.post(t, out.RedirectURL, url.Values{"card_number": {card}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("card page answered %d", res.StatusCode)
	}
	return res
}

// orderOfCart is the uuid of the cart's latest order.
func (f *fixture) orderOfCart(t testing.TB, id uuid.UUID) uuid.UUID {
	t.Helper()
	var o uuid.UUID
	f.scan(t, &o, `SELECT uuid FROM orders WHERE cart_id = ? ORDER BY id DESC LIMIT 1`, id)
	return o
}

func (f *fixture) count(t testing.TB, q string, args ...any) int {
	t.Helper()
	var n int
	f.scan(t, &n, q, args...)
	return n
}

func (f *fixture) mails(t testing.TB) int {
	return f.count(t, `SELECT count(*) FROM river_job WHERE args->>'kind' = 'ecommerce_order_confirmation'`)
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func ptr[T any](v T) *T { return &v }

func wantDec(t testing.TB, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(dec(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}
