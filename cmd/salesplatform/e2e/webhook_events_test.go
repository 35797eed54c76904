package e2e

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"salesplatform/domain/account"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// webhookEvent is an event as its endpoint receives it: its body.
type webhookEvent struct {
	Type      string         `json:"type"`
	Timestamp string         `json:"timestamp"`
	Data      map[string]any `json:"data"`
}

func webhookTypes(events []webhookEvent) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.Type)
	}
	return out
}

// A checkout through the funnel keeps order.created and order.paid for
// the shop's endpoint; order.paid's data is the order as its backend's
// GET answers it, and order.created's the same order, pending. Another
// partner's endpoint receives nothing.
func TestCheckoutWebhookEvents(t *testing.T) {
	t.Parallel()
	f := newFunnelFixture(t)
	var shop, other int64
	gcMust(t, f.db.NewRaw(`SELECT id FROM partners WHERE name = 'Shop & Co'`).Scan(context.Background(), &shop))
	gcMust(t, f.db.NewRaw(`SELECT id FROM partners WHERE name = 'No Site'`).Scan(context.Background(), &other))
	hooks := newWebhookReceiver(t, f.dsn, f.db)
	endpoint := hooks.endpoint(t, shop, "order.created", "order.paid")
	otherEndpoint := hooks.endpoint(t, other)

	ref := f.checkoutOnce(t)
	events := hooks.received(t, endpoint)
	if got := webhookTypes(events); !slices.Equal(got, []string{"order.created", "order.paid"}) {
		t.Fatalf("the shop's endpoint got %v", got)
	}
	api := f.browser()
	order := api.get(t, fmt.Sprintf("http://api.test/api/v2/ecommerce/orders/%v/", events[1].Data["id"]),
		"Authorization", "Token "+f.shopTok).JSON(t)
	if order["reference"] != ref || !reflect.DeepEqual(events[1].Data, order) {
		t.Errorf("order.paid's data\n%v\nis not the order's GET\n%v", events[1].Data, order)
	}
	created := events[0].Data
	if created["id"] != order["id"] || created["status"] != "pending" || created["paid_at"] != nil ||
		!reflect.DeepEqual(created["lines"], order["lines"]) || created["total"] != order["total"] {
		t.Errorf("order.created's data %v", created)
	}
	if got := hooks.received(t, otherEndpoint); len(got) != 0 {
		t.Errorf("another partner's endpoint got %v", webhookTypes(got))
	}

	// The event types' example of order.paid has the real event's shape.
	accounts := account.NewAccountService(persistence.NewDatabase(f.db), nil, dbtest.CheapHashing)
	staff := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "hooks-staff", Staff: true})
	types := api.get(t, "http://api.test/api/webhooks/event_types/?page_size=100", "Authorization", "Token "+staff.Token).JSON(t)
	for _, it := range types["results"].([]any) {
		if it := it.(map[string]any); it["type"] == "order.paid" {
			example := it["example"].(map[string]any)
			if !sameKeys(example["data"], events[1].Data) || example["type"] != "order.paid" || example["timestamp"] == nil {
				t.Errorf("order.paid's example\n%v\nhas not the shape of the event\n%v", example, events[1].Data)
			}
			return
		}
	}
	t.Errorf("no order.paid among the event types %v", types)
}

// sameKeys reports whether a and b are JSON values of the same shape: the
// same keys in their objects (at every depth, lists by their first item).
func sameKeys(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || (v != nil && w != nil && !sameKeys(v, w)) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		return ok && (len(a) == 0 || len(b) == 0 || sameKeys(a[0], b[0]))
	}
	return true
}

// A network giftcard's creation and use keep their events for its
// marketplace's endpoint, the use for the partner's where it was used
// too; their data are the records the API answered.
func TestNetworkGiftcardWebhookEvents(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t)
	hooks := newWebhookReceiver(t, f.dsn, f.db)
	market := hooks.endpoint(t, f.market)
	spa := hooks.endpoint(t, f.spa, "network_giftcard.used")
	rival := hooks.endpoint(t, f.rival)
	card := f.create(t, f.marketTok, "paid", "50", "")
	r := f.post(t, "/api/networkgiftcards_by_code/"+card["code"].(string)+"/use/", f.marketTok,
		`{"creation_date": "2026-03-10", "value": "20.50", "partner_source_id": 101, "send_usage_notification_email": false}`)
	if r.Status != 200 {
		t.Fatalf("use: %d %s", r.Status, r.Body)
	}
	usage := r.JSON(t)

	events := hooks.received(t, market)
	if got := webhookTypes(events); !slices.Equal(got, []string{"network_giftcard.created", "network_giftcard.used"}) {
		t.Fatalf("the marketplace's endpoint got %v", got)
	}
	if !reflect.DeepEqual(events[0].Data, card) {
		t.Errorf("network_giftcard.created's data\n%v\nis not the creation's answer\n%v", events[0].Data, card)
	}
	if !reflect.DeepEqual(events[1].Data, usage) {
		t.Errorf("network_giftcard.used's data\n%v\nis not the use's answer\n%v", events[1].Data, usage)
	}
	if got := hooks.received(t, spa); len(got) != 1 || !reflect.DeepEqual(got[0].Data, usage) {
		t.Errorf("the partner's endpoint got %+v", got)
	}
	if got := hooks.received(t, rival); len(got) != 0 {
		t.Errorf("another marketplace's endpoint got %v", webhookTypes(got))
	}
}

// A payment request paid by card keeps payment_request.paid and
// payment.succeeded for its partner's endpoint, their data the request's
// and the payment's GET.
func TestPaymentRequestWebhookEvents(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	var spa int64
	gcMust(t, f.db.NewRaw(`SELECT id FROM partners WHERE uuid = ?`, f.spaUUID).Scan(context.Background(), &spa))
	hooks := newWebhookReceiver(t, f.dsn, f.db)
	endpoint := hooks.endpoint(t, spa, "payment_request.paid", "payment.succeeded")
	r := f.request(t)
	card := f.payRequest(t, r)
	if res := f.form(t, card, "card_number="+psp.CardSuccess); res.Status != http.StatusSeeOther {
		t.Fatalf("card form %d %s", res.Status, res.Body)
	}
	events := hooks.received(t, endpoint)
	if got := webhookTypes(events); !slices.Equal(got, []string{"payment_request.paid", "payment.succeeded"}) {
		t.Fatalf("the partner's endpoint got %v", got)
	}
	request := f.call(t, http.MethodGet, requestsBase+fmt.Sprint(r["id"])+"/", f.cashierTok, "").JSON(t)
	if !reflect.DeepEqual(events[0].Data, request) {
		t.Errorf("payment_request.paid's data\n%v\nis not the request's GET\n%v", events[0].Data, request)
	}
	payment := f.call(t, http.MethodGet, paymentsBase+fmt.Sprint(events[1].Data["id"])+"/", f.cashierTok, "").JSON(t)
	if payment["payment_request_id"] != r["id"] || !reflect.DeepEqual(events[1].Data, payment) {
		t.Errorf("payment.succeeded's data\n%v\nis not the payment's GET\n%v", events[1].Data, payment)
	}
}
