package checkout_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// An order's changes keep their webhook events, for the shop, in their
// transactions: created when it is reserved, the payment's outcome, the
// giftcard's use (for the card's marketplace too), paid, and each refund
// from the backend. A reservation that fails after the order was written
// keeps none.
func TestOrderWebhookEvents(t *testing.T) {
	t.Parallel()
	dbtest.UseJSONWebhooks()
	f := newFixture(t, 4)
	ctx := context.Background()
	shop := dbtest.WebhookEndpoint(t, f.db, f.shop.ID)
	market := dbtest.WebhookEndpoint(t, f.db, f.market.ID)
	platform := dbtest.WebhookEndpoint(t, f.db, 0, "order.paid")
	mug := f.product(t, "10.00", ptr(int64(10)))
	f.card(t, "NGC-WEBHOOK-0001", "5.00")

	paidCart := f.cart(t, item(mug, 2))
	f.ready(t, paidCart)
	f.codes(t, paidCart, "", "NGC-WEBHOOK-0001")
	out, err := f.svc.Pay(ctx, f.site, paidCart, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"})
	if err != nil {
		t.Fatal(err)
	}
	f.payOnPage(t, out, psp.CardSuccess)
	declined := f.cart(t, item(mug, 1))
	f.ready(t, declined)
	if out, err = f.svc.Pay(ctx, f.site, declined, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"}); err != nil {
		t.Fatal(err)
	}
	f.payOnPage(t, out, psp.CardDecline)

	f.exec(t, `INSERT INTO users (id, username, password_hash) VALUES (91, 'cashier', 'x')`)
	member := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{ID: 91, Username: "cashier"}, Partner: f.shop,
		Permissions: []string{domain.PermAccessFinancialOrderLines}})
	o, err := f.svc.Finish(ctx, f.site, f.orderOfCart(t, paidCart))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RefundOrder(member, o.ID, checkout.RefundInput{Amount: domain.Some(dec("4"))}); err != nil {
		t.Fatal(err)
	}

	// The stock's update fails after the order was written: all rolled back.
	f.exec(t, `CREATE FUNCTION refuse_stock() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'stock refused'; END $$`)
	f.exec(t, `CREATE TRIGGER refuse_stock BEFORE UPDATE ON ecommerce_products FOR EACH ROW EXECUTE FUNCTION refuse_stock()`)
	failing := f.cart(t, item(mug, 1))
	f.ready(t, failing)
	if _, err := f.svc.Pay(ctx, f.site, failing, checkout.PayInput{ReturnURL: "https://shop.example/thanks/"}); err == nil || !strings.Contains(err.Error(), "stock refused") {
		t.Fatalf("Pay through a refused stock update: %v", err)
	}

	want := []string{"order.created", "payment.succeeded", "network_giftcard.used", "order.paid",
		"order.created", "payment.failed", "refund.succeeded", "order.refunded"}
	if got := dbtest.WebhookTypes(t, f.db, shop); !slices.Equal(got, want) {
		t.Errorf("the shop's endpoint got\n%v, want\n%v", got, want)
	}
	if got := dbtest.WebhookTypes(t, f.db, market); !slices.Equal(got, []string{"network_giftcard.used"}) {
		t.Errorf("the card's marketplace's endpoint got %v", got)
	}
	if got := dbtest.WebhookTypes(t, f.db, platform); !slices.Equal(got, []string{"order.paid"}) {
		t.Errorf("the platform's endpoint got %v", got)
	}
	events := dbtest.WebhookEvents(t, f.db, shop)
	for i, status := range map[int]string{0: checkout.OrderPending, 3: checkout.OrderPaid, 7: checkout.OrderPaid} {
		var data struct {
			ID, PartnerID  int64
			Status         string
			RefundedAmount string
		}
		if err := json.Unmarshal(events[i].Data, &data); err != nil || data.ID != o.ID || data.Status != status {
			t.Errorf("%s: data %s, want order %d %s", events[i].Type, events[i].Data, o.ID, status)
		}
		if i == 7 && data.RefundedAmount != "4" {
			t.Errorf("order.refunded: refunded %s, want 4", data.RefundedAmount)
		}
	}
}
