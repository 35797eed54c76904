package checkout_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// The price calculator: variant prices, delivery costs, percentage,
// amount and product-restricted coupons, a giftcard paying part or all,
// and totals never below zero.
func TestPriceCalculator(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", nil)
	shirt := f.product(t, "30.00", nil)
	large := f.variant(t, shirt, "35.50", nil)
	f.coupon(t, "TEN", "percentage", "10")
	f.coupon(t, "FIVE", "amount", "5")
	f.coupon(t, "MUGS", "percentage", "50", "eshop_products_ids", "{"+strconv.FormatInt(mug, 10)+"}")
	f.coupon(t, "BIG", "amount", "1000")
	f.coupon(t, "PICKUP", "amount", "1", "offer_delivery_cost_clickandcollect", true)
	f.coupon(t, "MIN", "amount", "5", "price_condition_min_amount", "500")
	f.coupon(t, "OFF", "amount", "5", "is_activated", false)
	f.card(t, "NGC-CHECKOUT-SMALL", "20.00")
	f.card(t, "NGC-CHECKOUT-LARGE", "500.00")

	shirtLine := item(shirt, 2)
	shirtLine.VariantID = &large
	id := f.cart(t, item(mug, 3), shirtLine)
	b, err := f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{DeliveryMode: domain.Some("postal")})
	if err != nil {
		t.Fatal(err)
	}
	// 3 × 10.00 + 2 × 35.50 (the variant's) + 5.00 postal.
	wantDec(t, "line 1", b.Lines[1].UnitPrice, "35.50")
	wantDec(t, "lines", b.Totals.Lines, "101.00")
	wantDec(t, "delivery", b.Totals.Delivery, "5.00")
	wantDec(t, "to pay", b.Totals.ToPay, "106.00")
	if len(b.Delivery) != 3 || b.DeliveryMode != "postal" {
		t.Errorf("delivery %+v %q", b.Delivery, b.DeliveryMode)
	}

	for _, c := range []struct {
		coupon, giftcard, mode string
		discount, card, toPay  string
	}{
		{"TEN", "", "postal", "10.10", "0", "95.90"},
		{"FIVE", "", "postal", "5.00", "0", "101.00"},
		{"MUGS", "", "postal", "15.00", "0", "91.00"},                     // half of the mugs only
		{"BIG", "", "postal", "101.00", "0", "5.00"},                      // at most the lines
		{"PICKUP", "", "pickup", "3.00", "0", "100.00"},                   // 1.00 and the pickup's 2.00
		{"", "NGC-CHECKOUT-SMALL", "postal", "0", "20.00", "86.00"},       // the card pays part
		{"TEN", "NGC-CHECKOUT-LARGE", "postal", "10.10", "95.90", "0.00"}, // the card pays the rest, never more
	} {
		if _, err := f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{DeliveryMode: domain.Some(c.mode)}); err != nil {
			t.Fatal(err)
		}
		b := f.codes(t, id, c.coupon, c.giftcard)
		wantDec(t, c.coupon+c.giftcard+" discount", b.Totals.Discount, c.discount)
		wantDec(t, c.coupon+c.giftcard+" giftcard", b.Totals.Giftcard, c.card)
		wantDec(t, c.coupon+c.giftcard+" to pay", b.Totals.ToPay, c.toPay)
		if b.CouponProblem != "" || b.GiftcardProblem != "" {
			t.Errorf("%s: problems %q %q", c.coupon, b.CouponProblem, b.GiftcardProblem)
		}
		// Remove both for the next case.
		if _, err := f.svc.ApplyCodes(ctx, f.site, id, checkout.CodesInput{Coupon: domain.Some(""), Giftcard: domain.Some("")}); err != nil {
			t.Fatal(err)
		}
	}

	// Codes that do not apply are their fields' errors; the cart keeps none.
	for code, msg := range map[string]string{"MIN": "This coupon applies from 500.00 EUR.", "OFF": checkout.MsgCouponInactive,
		"NOPE": checkout.MsgCouponUnknown} {
		_, err := f.svc.ApplyCodes(ctx, f.site, id, checkout.CodesInput{Coupon: domain.Some(code)})
		if e := domain.AsError(err); e == nil || e.Code != domain.CodeInvalid || len(e.Fields) != 1 || e.Fields[0].Message != msg {
			t.Errorf("coupon %s: %v", code, err)
		}
	}
	// A card unknown, or of a marketplace whose network the shop is not in.
	rival := dbtest.MustPartner(t, persistence.NewDatabase(f.db).Stores().Partners,
		&domain.Partner{Name: "Rival", IsMarketplace: true, Currency: "EUR"})
	f.cardOf(t, rival.ID, "NGC-RIVAL-0001", "20.00")
	for _, code := range []string{"NGC-UNKNOWN-0000", "NGC-RIVAL-0001"} {
		_, err = f.svc.ApplyCodes(ctx, f.site, id, checkout.CodesInput{Giftcard: domain.Some(code)})
		if e := domain.AsError(err); e == nil || e.Code != domain.CodeInvalid || e.Fields[0].Message != checkout.MsgGiftcardUnknown {
			t.Errorf("giftcard %s: %v", code, err)
		}
	}
	if b, _ := f.svc.Basket(ctx, f.site, id); b.Coupon != "" || b.Giftcard != "" {
		t.Errorf("refused codes kept: %q %q", b.Coupon, b.Giftcard)
	}

	// Quantity 0 removes a line; a variant of another product is refused.
	other := f.variant(t, mug, "12", nil)
	_, err = f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{Lines: []checkout.LineInput{{Index: 1, VariantID: domain.Some(other)}}})
	wantFieldError(t, err, "lines.0.variant_id")
	b, err = f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{Lines: []checkout.LineInput{{Index: 0, Quantity: domain.Some(int64(0))}}})
	if err != nil || len(b.Lines) != 1 || b.Lines[0].ProductID != shirt {
		t.Fatalf("after removing the mugs: %v %+v", err, b)
	}
}

func wantFieldError(t *testing.T, err error, field string) {
	t.Helper()
	e := domain.AsError(err)
	if e == nil || e.Code != domain.CodeInvalid || len(e.Fields) == 0 || domain.PathKey(e.Fields[0].Path) != field {
		t.Errorf("want a field error on %s, got %v", field, err)
	}
}

// A card payment: Pay sends the customer to the provider's card page;
// once paid there, the provider's callback completes the order (the
// settle hook), the provider's page sends the customer back to the
// return URL, and Finish shows the paid order and deletes the cart. The
// giftcard part is captured, the coupon counted, one mail queued.
func TestPayByCard(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(10)))
	coupon := f.coupon(t, "TEN", "percentage", "10")
	card := f.card(t, "NGC-CHECKOUT-0001", "5.00")
	id := f.cart(t, item(mug, 3))
	f.ready(t, id)
	f.codes(t, id, "TEN", "NGC-CHECKOUT-0001")

	out, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: "https://shop.example/ecommerce/shop/thanks/"})
	if err != nil {
		t.Fatal(err)
	}
	o := f.orderOfCart(t, id)
	if f.stockOf(t, mug) != 7 || f.remaining(t, card) != "0.00" || f.count(t, `SELECT number_of_usage FROM coupons WHERE id = ?`, coupon) != 1 {
		t.Errorf("reservations: stock %d, card %s", f.stockOf(t, mug), f.remaining(t, card))
	}
	// A second Pay answers the same payment page.
	again, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: "https://shop.example/ecommerce/shop/thanks/"})
	if err != nil || again.RedirectURL != out.RedirectURL {
		t.Errorf("second Pay: %v %+v, want %s", err, again, out.RedirectURL)
	}
	// The card page's form may end at the shop.
	if csp := f.get(t, mustPath(t, out.RedirectURL)).Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' https://shop.example;") {
		t.Errorf("card page's policy %q", csp)
	}
	f.payOnPage(t, out, psp.CardSuccess)
	// The provider's callback completed the order, before any Finish.
	var status string
	f.scan(t, &status, `SELECT status FROM orders WHERE uuid = ?`, o)
	if status != checkout.OrderPaid {
		t.Errorf("after the callback the order is %s", status)
	}
	// The page, the pay-in ended, sends the customer back to the shop.
	res := f.get(t, mustPath(t, out.RedirectURL))
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || loc != "https://shop.example/ecommerce/shop/thanks/?order="+o.String() {
		t.Errorf("card page after the payment: %d %q", res.StatusCode, loc)
	}
	done, err := f.svc.Finish(ctx, f.site, o)
	if err != nil || done.Status != checkout.OrderPaid || done.PaidAt == nil {
		t.Fatalf("finish: %v %+v", err, done)
	}
	// 30.00 − 3.00 (coupon) − 5.00 (card) = 22.00 by card; VAT 20/120 of 30.00.
	wantDec(t, "card amount", done.CardAmount, "22.00")
	wantDec(t, "giftcard amount", done.GiftcardAmount, "5.00")
	wantDec(t, "discount", done.Discount, "3.00")
	wantDec(t, "vat", done.VATTotal, "5.00")
	if len(done.Lines) != 1 || done.Lines[0].Name != "Tasse" || !strings.HasPrefix(done.Reference, "EC-") {
		t.Errorf("order %+v", done)
	}
	if done.Giftcard == nil || done.Giftcard.UsageID == nil || done.Giftcard.Code != "•••••••••••••0001" {
		t.Errorf("giftcard %+v", done.Giftcard)
	}
	if _, err := f.carts.Get(ctx, id); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("the cart is still there: %v", err)
	}
	if n := f.mails(t); n != 1 {
		t.Errorf("%d mails", n)
	}
	if n := f.count(t, `SELECT count(*) FROM network_giftcard_usages WHERE network_giftcard_id = ?`, card); n != 1 {
		t.Errorf("%d usages", n)
	}
	var subject string
	f.scan(t, &subject, `SELECT args->>'subject' FROM river_job WHERE args->>'kind' = 'ecommerce_order_confirmation'`)
	if subject != "Votre commande "+done.Reference+" chez Shop" {
		t.Errorf("subject %q", subject)
	}
}

func mustPath(t testing.TB, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

// Completion happens once: the provider's callback (the settle hook),
// Finish twice at once and the provider telling again make one paid
// order, one capture, one coupon count, one mail.
func TestCompletionIsIdempotent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8)
	ctx := context.Background()
	mug := f.product(t, "10.00", nil)
	coupon := f.coupon(t, "TEN", "amount", "1")
	card := f.card(t, "NGC-CHECKOUT-0002", "4.00")
	id := f.cart(t, item(mug, 2))
	f.ready(t, id)
	f.codes(t, id, "TEN", "NGC-CHECKOUT-0002")
	out, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"})
	if err != nil {
		t.Fatal(err)
	}
	o := f.orderOfCart(t, id)
	// The card is paid at the provider without the hub being told: the
	// hook and the Finishes race to apply it.
	var ref string
	f.scan(t, &ref, `SELECT ref FROM psp_sim_payins`)
	f.exec(t, `UPDATE psp_sim_payins SET status = 'SUCCEEDED', result_code = '000000' WHERE ref = ?`, ref)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			switch i % 3 {
			case 0:
				_, err := f.svc.Finish(ctx, f.site, o)
				errs <- err
			case 1:
				errs <- f.hub.SyncPayin(ctx, ref)
			default:
				_, err := f.svc.LapsePendingOrders(ctx, time.Now().Add(time.Hour), 10)
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	_ = out
	done, err := f.svc.Finish(ctx, f.site, o)
	if err != nil || done.Status != checkout.OrderPaid {
		t.Fatalf("%v %+v", err, done)
	}
	if n := f.mails(t); n != 1 {
		t.Errorf("%d mails", n)
	}
	if n := f.count(t, `SELECT count(*) FROM network_giftcard_usages WHERE network_giftcard_id = ?`, card); n != 1 {
		t.Errorf("%d usages", n)
	}
	if n := f.count(t, `SELECT number_of_usage FROM coupons WHERE id = ?`, coupon); n != 1 {
		t.Errorf("coupon used %d times", n)
	}
	if n := f.count(t, `SELECT count(*) FROM payment_refunds`); n != 0 {
		t.Errorf("%d refunds", n)
	}
}

// A declined card fails the order: stock, giftcard hold and coupon use
// come back, and the cart stays for another try, which makes a new order.
func TestDeclinedCard(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(5)))
	coupon := f.coupon(t, "ONCE", "amount", "1", "max_usage", 1)
	card := f.card(t, "NGC-CHECKOUT-0003", "4.00")
	id := f.cart(t, item(mug, 2))
	f.ready(t, id)
	f.codes(t, id, "ONCE", "NGC-CHECKOUT-0003")
	out, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"})
	if err != nil {
		t.Fatal(err)
	}
	o := f.orderOfCart(t, id)
	f.payOnPage(t, out, psp.CardDecline)
	done, err := f.svc.Finish(ctx, f.site, o)
	if err != nil || done.Status != checkout.OrderFailed {
		t.Fatalf("%v %+v", err, done)
	}
	if s := f.stockOf(t, mug); s != 5 {
		t.Errorf("stock %d", s)
	}
	if r := f.remaining(t, card); r != "4.00" {
		t.Errorf("card %s", r)
	}
	if n := f.count(t, `SELECT number_of_usage FROM coupons WHERE id = ?`, coupon); n != 0 {
		t.Errorf("coupon used %d times", n)
	}
	if n := f.count(t, `SELECT count(*) FROM order_payments WHERE status <> 'released'`); n != 0 {
		t.Errorf("%d records not released", n)
	}
	if _, err := f.carts.Get(ctx, id); err != nil {
		t.Errorf("the cart is gone: %v", err)
	}
	// Another try: a new order, paid.
	out, err = f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"})
	if err != nil {
		t.Fatal(err)
	}
	f.payOnPage(t, out, psp.CardSuccess)
	if done, err := f.svc.Finish(ctx, f.site, f.orderOfCart(t, id)); err != nil || done.Status != checkout.OrderPaid {
		t.Fatalf("second try: %v %+v", err, done)
	}
}

// A 3-D Secure card: the order waits while the card holder answers the
// challenge, then Finish finds it paid.
func TestThreeDSecure(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", nil)
	id := f.cart(t, item(mug, 1))
	f.ready(t, id)
	out, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"})
	if err != nil {
		t.Fatal(err)
	}
	o := f.orderOfCart(t, id)
	f.payOnPage(t, out, psp.CardThreeDSecure)
	if done, err := f.svc.Finish(ctx, f.site, o); err != nil || done.Status != checkout.OrderPending {
		t.Fatalf("before the challenge: %v %+v", err, done)
	}
	threeDS := strings.Replace(mustPath(t, out.RedirectURL), "/card/", "/3ds/", 1)
	if res := f.post(t, threeDS, url.Values{"decision": {"authenticate"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("3-D Secure page: %d", res.StatusCode)
	}
	done, err := f.svc.Finish(ctx, f.site, o)
	if err != nil || done.Status != checkout.OrderPaid || done.Payment == nil || done.Payment.Status != payments.StatusPaid {
		t.Fatalf("after the challenge: %v %+v", err, done)
	}
	// Another site does not see the order.
	other := checkout.Site{Host: "elsewhere.example"}
	if _, err := f.svc.Finish(ctx, other, o); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("another site: %v", err)
	}
}

// The last five units, twenty customers paying at once: five orders are
// reserved, the others are refused before paying, and the five are paid.
// A payment that succeeds for an order that lapsed meanwhile is refunded
// in full, its stock back.
func TestLastUnits(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 10)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(5)))
	ids := make([]uuid.UUID, 20)
	for i := range ids {
		ids[i] = f.cart(t, item(mug, 1))
		f.ready(t, ids[i])
	}
	outs := make([]*checkout.PayOutcome, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			outs[i], errs[i] = f.svc.Pay(ctx, f.site, ids[i], checkout.PayInput{ReturnURL: "https://shop.example/thanks/"})
		}(i)
	}
	wg.Wait()
	var reserved []int
	for i, err := range errs {
		switch {
		case err == nil:
			reserved = append(reserved, i)
		case domain.IsCode(err, domain.CodeConflict) && strings.HasPrefix(domain.AsError(err).Message, "Line 1:"):
		default:
			t.Errorf("customer %d: %v", i, err)
		}
	}
	if len(reserved) != 5 || f.stockOf(t, mug) != 0 {
		t.Fatalf("%d orders reserved, stock %d", len(reserved), f.stockOf(t, mug))
	}
	// Four pay at once; the fifth lapses before paying.
	for _, i := range reserved[:4] {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f.payOnPage(t, outs[i], psp.CardSuccess)
		}(i)
	}
	wg.Wait()
	late := reserved[4]
	lateOrder := f.orderOfCart(t, ids[late])
	f.exec(t, `UPDATE orders SET updated_at = now() - interval '2 hours' WHERE uuid = ?`, lateOrder)
	if n, err := f.svc.LapsePendingOrders(ctx, time.Now().Add(-time.Hour), 10); err != nil || n != 1 {
		t.Fatalf("lapse: %d %v", n, err)
	}
	if f.stockOf(t, mug) != 1 {
		t.Fatalf("stock after the lapse %d", f.stockOf(t, mug))
	}
	// The late customer pays anyway: refunded in full, the order failed.
	f.payOnPage(t, outs[late], psp.CardSuccess)
	o, err := f.svc.Finish(ctx, f.site, lateOrder)
	if err != nil || o.Status != checkout.OrderFailed {
		t.Fatalf("late order: %v %+v", err, o)
	}
	var refunded string
	f.scan(t, &refunded, `SELECT coalesce(sum(amount), 0)::text FROM payment_refunds WHERE status = 'succeeded'`)
	if refunded != "10.00" {
		t.Errorf("refunded %s", refunded)
	}
	if n := f.count(t, `SELECT count(*) FROM orders WHERE status = 'paid'`); n != 4 {
		t.Errorf("%d paid orders", n)
	}
	if n := f.mails(t); n != 4 {
		t.Errorf("%d mails", n)
	}
}

// Coupon uses are counted by a guarded update: of eight orders paying at
// once with a coupon of max_usage 3, exactly three reserve it.
func TestCouponMaxUsage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 10)
	ctx := context.Background()
	mug := f.product(t, "10.00", nil)
	coupon := f.coupon(t, "THREE", "amount", "1", "max_usage", 3)
	ids := make([]uuid.UUID, 8)
	for i := range ids {
		ids[i] = f.cart(t, item(mug, 1))
		f.ready(t, ids[i])
		f.codes(t, ids[i], "THREE", "")
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, usedUp := 0, 0
	for i := range ids {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := f.svc.Pay(ctx, f.site, ids[i], checkout.PayInput{})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case domain.IsCode(err, domain.CodeConflict) && domain.AsError(err).Message == checkout.MsgCouponUsedUp:
				usedUp++
			default:
				t.Errorf("pay %d: %v", i, err)
			}
		}(i)
	}
	wg.Wait()
	if ok != 3 || usedUp != 5 || f.count(t, `SELECT number_of_usage FROM coupons WHERE id = ?`, coupon) != 3 {
		t.Errorf("%d reserved, %d refused", ok, usedUp)
	}
}

// A giftcard that pays it all: the order is paid at once, without the
// provider, and the cart deleted.
func TestGiftcardPaysAll(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(3)))
	card := f.card(t, "NGC-CHECKOUT-0009", "50.00")
	id := f.cart(t, item(mug, 2))
	f.ready(t, id)
	f.codes(t, id, "", "NGC-CHECKOUT-0009")
	out, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"})
	if err != nil || out.RedirectURL != "" || out.Order == nil || out.Order.Status != checkout.OrderPaid || out.Order.Payment != nil {
		t.Fatalf("%v %+v", err, out)
	}
	if r := f.remaining(t, card); r != "30.00" {
		t.Errorf("card %s", r)
	}
	if n := f.count(t, `SELECT count(*) FROM payments`); n != 0 {
		t.Errorf("%d payments", n)
	}
	if _, err := f.carts.Get(ctx, id); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("the cart is still there: %v", err)
	}
	if f.stockOf(t, mug) != 1 || f.mails(t) != 1 {
		t.Errorf("stock %d, %d mails", f.stockOf(t, mug), f.mails(t))
	}
}

// The steps' refusals: field errors by form field name, nothing written;
// Pay refuses an incomplete funnel.
func TestStepRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(1)))
	id := f.cart(t, item(mug, 2))
	if _, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{}); !domain.IsCode(err, domain.CodeConflict) ||
		domain.AsError(err).Message != "Line 1: only 1 left." {
		t.Errorf("pay beyond the stock: %v", err)
	}
	_, err := f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{DeliveryMode: domain.Some("drone"),
		Lines: []checkout.LineInput{{Index: 0, Quantity: domain.Some(int64(-1))}, {Index: 4, Quantity: domain.Some(int64(1))}}})
	e := domain.AsError(err)
	if e == nil || e.Code != domain.CodeInvalid || len(e.Fields) != 3 {
		t.Fatalf("customize: %v", err)
	}
	b, err := f.svc.Customize(ctx, f.site, id, checkout.CustomizationInput{DeliveryMode: domain.Some("postal"),
		Lines: []checkout.LineInput{{Index: 0, Quantity: domain.Some(int64(1))}}})
	if err != nil || b.Lines[0].Quantity != 1 || b.DeliveryMode != "postal" {
		t.Fatalf("customize: %v %+v", err, b)
	}
	if _, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{}); !domain.IsCode(err, domain.CodeConflict) ||
		domain.AsError(err).Message != checkout.MsgInformationIncomplete {
		t.Errorf("pay before the information: %v", err)
	}
	_, err = f.svc.Inform(ctx, f.site, id, checkout.InformationInput{FirstName: domain.Some("Ada"), LastName: domain.Some(""),
		Email: domain.Some("not-an-address"), Phone: domain.Some("1"), PostalCode: domain.Some("12345678901"), Country: domain.Some("France")})
	var got []string
	for _, fe := range domain.AsError(err).Fields {
		got = append(got, domain.PathKey(fe.Path))
	}
	if strings.Join(got, ",") != "last_name,email,postal_code,country" {
		t.Errorf("inform's field errors %v", got)
	}
	// Postal delivery needs the address.
	_, err = f.svc.Inform(ctx, f.site, id, checkout.InformationInput{FirstName: domain.Some("Ada"), LastName: domain.Some("L"),
		Email: domain.Some("ada@example.com"), Phone: domain.Some("1")})
	if e := domain.AsError(err); e == nil || e.Code != domain.CodeInvalid || len(e.Fields) != 4 {
		t.Errorf("inform without an address: %v", err)
	}
	if b, _ := f.svc.Basket(ctx, f.site, id); b.Information.FirstName != "" {
		t.Errorf("refused information written: %+v", b.Information)
	}
	// Another site's customer does not find the cart.
	if _, err := f.svc.Basket(ctx, checkout.Site{Host: "elsewhere.example"}, id); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("another site: %v", err)
	}
}

// The partner's backend: its orders only, filtered; a refund through the
// hub, partial then whole (refunded), the stock given back once.
func TestOrdersBackend(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ctx := context.Background()
	mug := f.product(t, "10.00", ptr(int64(10)))
	var paid uuid.UUID
	for i, card := range []string{psp.CardSuccess, psp.CardDecline} {
		id := f.cart(t, item(mug, 2))
		f.ready(t, id)
		out, err := f.svc.Pay(ctx, f.site, id, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"})
		if err != nil {
			t.Fatal(err)
		}
		f.payOnPage(t, out, card)
		if i == 0 {
			paid = f.orderOfCart(t, id)
		}
	}
	f.exec(t, `INSERT INTO users (id, username, password_hash) VALUES (91, 'cashier', 'x'), (92, 'other', 'x')`)
	member := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{ID: 91, Username: "cashier"}, Partner: f.shop,
		Permissions: []string{domain.PermAccessFinancialOrderLines}})
	outsider := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{ID: 92, Username: "other"}, Partner: f.market})
	page := domain.PageRequest{Number: 1, Size: 10}
	all, err := f.svc.Orders(member, checkout.OrderListInput{}, page)
	if err != nil || all.Count != 2 {
		t.Fatalf("orders: %v %+v", err, all)
	}
	onlyPaid, err := f.svc.Orders(member, checkout.OrderListInput{Status: domain.Some("paid"),
		CreatedAfter: domain.Some(time.Now().UTC().Format(time.DateOnly))}, page)
	if err != nil || onlyPaid.Count != 1 || onlyPaid.Items[0].UUID != paid {
		t.Fatalf("paid orders: %v %+v", err, onlyPaid)
	}
	if none, err := f.svc.Orders(outsider, checkout.OrderListInput{}, page); err != nil || none.Count != 0 {
		t.Errorf("another partner's list: %v %+v", err, none)
	}
	if _, err := f.svc.Orders(member, checkout.OrderListInput{CreatedBefore: domain.Some("yesterday")}, page); !domain.IsCode(err, domain.CodeInvalid) {
		t.Errorf("a bad date: %v", err)
	}
	o := onlyPaid.Items[0]
	if _, err := f.svc.Order(outsider, o.ID); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("another partner's order: %v", err)
	}
	if _, err := f.svc.RefundOrder(member, o.ID, checkout.RefundInput{Amount: domain.Some(dec("25"))}); !domain.IsCode(err, domain.CodeInvalid) {
		t.Errorf("refund above the card part: %v", err)
	}
	part, err := f.svc.RefundOrder(member, o.ID, checkout.RefundInput{Amount: domain.Some(dec("5")), Restock: domain.Some(true)})
	if err != nil || part.Status != checkout.OrderPaid || !part.RefundedAmount.Equal(dec("5")) || f.stockOf(t, mug) != 8+2 {
		t.Fatalf("partial refund: %v %+v, stock %d", err, part, f.stockOf(t, mug))
	}
	whole, err := f.svc.RefundOrder(member, o.ID, checkout.RefundInput{Restock: domain.Some(true)})
	if err != nil || whole.Status != checkout.OrderRefunded || !whole.RefundedAmount.Equal(dec("20")) || f.stockOf(t, mug) != 10 {
		t.Fatalf("whole refund: %v %+v, stock %d", err, whole, f.stockOf(t, mug))
	}
	if _, err := f.svc.RefundOrder(member, o.ID, checkout.RefundInput{}); !domain.IsCode(err, domain.CodeConflict) {
		t.Errorf("refund of a refunded order: %v", err)
	}
}
