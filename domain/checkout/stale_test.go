package checkout_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/domain/payments"
	"salesplatform/persistence/psp"
)

const thanks = "https://shop.example/thanks/"

// orderQuantity is the quantity of the order's first line.
func (f *fixture) orderQuantity(t testing.TB, o uuid.UUID) int64 {
	t.Helper()
	var n int64
	f.scan(t, &n, `SELECT l.quantity FROM ecommerce_order_lines l JOIN ecommerce_orders e ON e.id = l.ecommerce_order_id
		JOIN orders o ON o.id = e.order_id WHERE o.uuid = ? ORDER BY l.position LIMIT 1`, o)
	return n
}

func (f *fixture) statusOf(t testing.TB, o uuid.UUID) string {
	t.Helper()
	var s string
	f.scan(t, &s, `SELECT status FROM orders WHERE uuid = ?`, o)
	return s
}

func (f *fixture) refunded(t testing.TB) string {
	t.Helper()
	var s string
	f.scan(t, &s, `SELECT coalesce(sum(amount), 0)::text FROM payment_refunds WHERE status = 'succeeded'`)
	return s
}

// A customer who goes back from the card page and changes the cart pays
// for the cart as changed: the change fails the pending order (its stock
// back), the next Pay reserves a new one, and the old page's payment,
// made anyway, is refunded.
func TestCartChangedWhilePaying(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(10)))
	coupon := f.coupon(t, "ONE", "amount", "1")
	id := f.cart(t, item(mug, 1))
	f.ready(t, id)
	f.codes(t, id, "ONE", "")
	first, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks})
	if err != nil {
		t.Fatal(err)
	}
	old := f.orderOfCart(t, id)
	if f.stockOf(t, mug) != 9 {
		t.Fatalf("stock %d", f.stockOf(t, mug))
	}
	if _, err := f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{
		Lines: []checkout.LineInput{{Index: 0, Quantity: domain.Some(int64(3))}}}); err != nil {
		t.Fatal(err)
	}
	if s := f.statusOf(t, old); s != checkout.OrderFailed || f.stockOf(t, mug) != 10 ||
		f.count(t, `SELECT number_of_usage FROM coupons WHERE id = ?`, coupon) != 0 {
		t.Fatalf("after the change: order %s, stock %d", s, f.stockOf(t, mug))
	}
	second, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks})
	if err != nil {
		t.Fatal(err)
	}
	if second.RedirectURL == first.RedirectURL {
		t.Fatal("the second Pay sends to the old order's page")
	}
	paid := f.orderOfCart(t, id)
	if q := f.orderQuantity(t, paid); paid == old || q != 3 || f.stockOf(t, mug) != 7 {
		t.Fatalf("new order %s of %d, stock %d", paid, q, f.stockOf(t, mug))
	}
	// The old page is paid anyway: refunded, its order stays failed.
	f.payOnPage(t, first, psp.CardSuccess)
	if s := f.statusOf(t, old); s != checkout.OrderFailed || f.refunded(t) != "9.00" {
		t.Errorf("old order %s, refunded %s", s, f.refunded(t))
	}
	f.payOnPage(t, second, psp.CardSuccess)
	done, err := f.svc.Finish(ctx, f.site, paid)
	if err != nil || done.Status != checkout.OrderPaid || done.Lines[0].Quantity != 3 {
		t.Fatalf("%v %+v", err, done)
	}
	wantDec(t, "card amount", done.CardAmount, "29.00")
}

// Inform and ApplyCodes are changes too; a refused change is none.
func TestRefusedChangeKeepsOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(10)))
	id := f.cart(t, item(mug, 1))
	f.ready(t, id)
	if _, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks}); err != nil {
		t.Fatal(err)
	}
	o := f.orderOfCart(t, id)
	if _, err := f.svc.ApplyCodes(ctx, f.site, id, checkout.CodesInput{Coupon: domain.Some("NOPE")}); !domain.IsCode(err, domain.CodeInvalid) {
		t.Fatalf("unknown coupon: %v", err)
	}
	if s := f.statusOf(t, o); s != checkout.OrderPending {
		t.Fatalf("a refused code failed the order: %s", s)
	}
	f.ready(t, id)
	if s := f.statusOf(t, o); s != checkout.OrderFailed || f.stockOf(t, mug) != 10 {
		t.Fatalf("after Inform: order %s, stock %d", s, f.stockOf(t, mug))
	}
}

// A cart changed behind the funnel's back (the shop's cart API) after
// its order was reserved: Pay finds the order stale, fails it and
// reserves one for the cart as it is.
func TestPayFailsStaleOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(10)))
	id := f.cart(t, item(mug, 1))
	f.ready(t, id)
	first, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks})
	if err != nil {
		t.Fatal(err)
	}
	old := f.orderOfCart(t, id)
	f.touch(t, id, 2)
	second, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks})
	if err != nil || second.RedirectURL == first.RedirectURL {
		t.Fatalf("%v %+v", err, second)
	}
	now := f.orderOfCart(t, id)
	if f.statusOf(t, old) != checkout.OrderFailed || f.orderQuantity(t, now) != 2 || f.stockOf(t, mug) != 8 {
		t.Errorf("old %s, new of %d, stock %d", f.statusOf(t, old), f.orderQuantity(t, now), f.stockOf(t, mug))
	}
}

// A change that lands after Pay read the cart and before its order is
// reserved finds no order to fail: Pay, re-reading the cart after its
// reservation, fails its order and asks the customer to review the cart.
func TestCartChangedDuringReservation(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(10)))
	id := f.cart(t, item(mug, 1))
	f.ready(t, id)
	f.carts.onNextGet(func() { f.touch(t, id, 4) })
	_, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks})
	if e := domain.AsError(err); e == nil || e.Code != domain.CodeConflict || e.Message != checkout.MsgCartChanged {
		t.Fatalf("pay: %v", err)
	}
	o := f.orderOfCart(t, id)
	if f.statusOf(t, o) != checkout.OrderFailed || f.stockOf(t, mug) != 10 {
		t.Fatalf("order %s, stock %d", f.statusOf(t, o), f.stockOf(t, mug))
	}
	if _, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks}); err != nil {
		t.Fatal(err)
	}
	if q := f.orderQuantity(t, f.orderOfCart(t, id)); q != 4 || f.stockOf(t, mug) != 6 {
		t.Errorf("order of %d, stock %d", q, f.stockOf(t, mug))
	}
}

// A product or a variant made inactive after Pay priced the cart: the
// reservation refuses the line, nothing is taken.
func TestInactiveProductRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(10)))
	shirt := f.product(t, "30.00", nil)
	large := f.variant(t, shirt, "35.00", ptr(int64(5)))
	line := item(shirt, 1)
	line.VariantID = &large
	for _, c := range []struct {
		name, sql string
		arg       int64
		line      int
	}{
		{"product", `UPDATE ecommerce_products SET active = false WHERE id = ?`, mug, 1},
		{"variant", `UPDATE ecommerce_variants SET active = false WHERE id = ?`, large, 2},
		{"variant's product", `UPDATE ecommerce_products SET active = false WHERE id = ?`, shirt, 2},
	} {
		f.exec(t, `UPDATE ecommerce_products SET active = true`)
		f.exec(t, `UPDATE ecommerce_variants SET active = true`)
		id := f.cart(t, item(mug, 1), line)
		f.ready(t, id)
		f.carts.onNextGet(func() { f.exec(t, c.sql, c.arg) })
		_, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks})
		want := fmt.Sprintf("Line %d: this product is no longer sold.", c.line)
		if e := domain.AsError(err); e == nil || e.Code != domain.CodeConflict || e.Message != want {
			t.Errorf("%s: %v", c.name, err)
		}
		var variantStock int64
		f.scan(t, &variantStock, `SELECT stock FROM ecommerce_variants WHERE id = ?`, large)
		if f.stockOf(t, mug) != 10 || variantStock != 5 || f.count(t, `SELECT count(*) FROM orders`) != 0 {
			t.Errorf("%s: stock %d and %d", c.name, f.stockOf(t, mug), variantStock)
		}
	}
}

// A refund owed for a failed order's payment that was never asked (the
// settle hook lost it) is asked by RefundFailedOrders, once.
func TestRefundFailedOrders(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", nil)
	id := f.cart(t, item(mug, 1))
	f.ready(t, id)
	out, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: thanks})
	if err != nil {
		t.Fatal(err)
	}
	o := f.orderOfCart(t, id)
	f.ready(t, id) // the order fails
	f.hub.WithSettled(func(context.Context, *payments.Payment) {})
	f.payOnPage(t, out, psp.CardSuccess)
	if f.refunded(t) != "0" || f.statusOf(t, o) != checkout.OrderFailed {
		t.Fatalf("before the sweep: %s refunded, order %s", f.refunded(t), f.statusOf(t, o))
	}
	if n, err := f.svc.RefundFailedOrders(ctx, 10); err != nil || n != 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	if f.refunded(t) != "10.00" {
		t.Errorf("refunded %s", f.refunded(t))
	}
	if n, err := f.svc.RefundFailedOrders(ctx, 10); err != nil || n != 0 {
		t.Errorf("second sweep: %d %v", n, err)
	}
	if n := f.count(t, `SELECT count(*) FROM payment_refunds`); n != 1 {
		t.Errorf("%d refunds", n)
	}
}

// Refused codes count against the client's throttle, codes that apply
// do not; with the bucket empty every code is refused, another client's
// are not.
func TestCodesThrottled(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	f.svc.WithCodeThrottle(domain.NewClientThrottle(3, time.Hour))
	guesser := domain.WithClientAddr(context.Background(), "203.0.113.9")
	mug := f.product(t, "10.00", nil)
	f.coupon(t, "TEN", "amount", "1")
	id := f.cart(t, item(mug, 1))
	for range 5 {
		if _, err := f.svc.ApplyCodes(guesser, f.site, id, checkout.CodesInput{Coupon: domain.Some("TEN")}); err != nil {
			t.Fatal(err)
		}
	}
	for i, in := range []checkout.CodesInput{{Coupon: domain.Some("GUESS1")}, {Giftcard: domain.Some("NGC-GUESS-0002")},
		{Coupon: domain.Some("GUESS3")}} {
		if _, err := f.svc.ApplyCodes(guesser, f.site, id, in); !domain.IsCode(err, domain.CodeInvalid) {
			t.Fatalf("guess %d: %v", i, err)
		}
	}
	if _, err := f.svc.ApplyCodes(guesser, f.site, id, checkout.CodesInput{Coupon: domain.Some("TEN")}); !domain.IsCode(err, domain.CodeThrottled) {
		t.Errorf("after three refusals: %v", err)
	}
	// Removing the codes looks nothing up.
	if _, err := f.svc.ApplyCodes(guesser, f.site, id, checkout.CodesInput{Coupon: domain.Some("")}); err != nil {
		t.Errorf("removing a code: %v", err)
	}
	other := domain.WithClientAddr(context.Background(), "198.51.100.7")
	if _, err := f.svc.ApplyCodes(other, f.site, id, checkout.CodesInput{Coupon: domain.Some("TEN")}); err != nil {
		t.Errorf("another client: %v", err)
	}
}
