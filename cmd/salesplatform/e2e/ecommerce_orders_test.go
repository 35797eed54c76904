package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"salesplatform/persistence/psp"
)

// checkoutOnce buys two mugs of the funnel fixture's shop through the
// funnel's forms, delivered by post and paid by card, and returns the
// order's reference as the shop's return_url receives it.
func (f *funnelFixture) checkoutOnce(t *testing.T) string {
	t.Helper()
	id, custom := f.cart(t, f.shopTok, fmt.Sprintf(`{"items": [{"product_id": %d, "quantity": 2}],
		"return_url": "https://shop.example.com/thanks"}`, f.mug))
	custom = strings.Replace(custom, "https://", "http://", 1)
	b := f.browser()
	page := b.get(t, custom)
	info := location(t, b.submit(t, page, custom, url.Values{"lines.0.quantity": {"2"}, "delivery_mode": {"postal"},
		"action": {"continue"}}), `^/ecommerce/shop/information/\?cart=`+id+`$`)
	page = b.get(t, funnelSite+info)
	pay := location(t, b.submit(t, page, funnelSite+info, url.Values{"first_name": {"Ada"}, "last_name": {"Lovelace"},
		"email": {"ada@example.com"}, "phone": {"0612345678"}, "street": {"12 rue des Fleurs"}, "postal_code": {"75011"},
		"city": {"Paris"}, "country": {"FR"}}), `/ecommerce/shop/payment/`)
	page = b.get(t, funnelSite+pay)
	card := strings.TrimPrefix(location(t, b.submit(t, page, funnelSite+pay, url.Values{"action": {"pay"}}), `^http://api\.test/psp/sim/card/`),
		"http://api.test")
	b.do(t, http.MethodPost, "http://api.test"+card, "card_number="+psp.CardSuccess, "Content-Type", "application/x-www-form-urlencoded")
	summary := location(t, b.get(t, "http://api.test"+card), `/ecommerce/shop/summary/\?order=`)
	back := refreshTo(t, b.get(t, summary), `^https://shop\.example\.com/thanks\?order_reference=`)
	return regexp.MustCompile(`order_reference=([A-Z0-9-]+)`).FindStringSubmatch(back)[1]
}

// The partner's backend reads the order the funnel made, with its lines
// and payment, filters its list, refunds it (giving the stock back), and
// another partner sees none of it; the graph answers the same.
func TestEcommerceOrdersBackend(t *testing.T) {
	t.Parallel()
	f := newFunnelFixture(t)
	ref := f.checkoutOnce(t)
	api := f.browser()
	get := func(token, path string) Response {
		t.Helper()
		return api.get(t, "http://api.test"+path, "Authorization", "Token "+token)
	}

	list := get(f.shopTok, "/api/v2/ecommerce/orders/?status=paid").JSON(t)
	if list["count"] != float64(1) {
		t.Fatalf("paid orders: %v", list)
	}
	o := list["results"].([]any)[0].(map[string]any)
	if o["reference"] != ref || o["status"] != "paid" || o["total"] != "24.90" || o["delivery_cost"] != "4.90" ||
		o["card_amount"] != "24.90" || o["vat_total"] != "3.33" {
		t.Errorf("the order: %v", o)
	}
	if p := o["payment"].(map[string]any); p["status"] != "ok" || p["amount"] != "24.90" {
		t.Errorf("its payment: %v", p)
	}
	line := o["lines"].([]any)[0].(map[string]any)
	if line["name"] != "Mug" || line["quantity"] != float64(2) || line["unit_price"] != "10.00" || line["total"] != "20.00" ||
		line["vat_rate"] != "20.00" {
		t.Errorf("its line: %v", line)
	}
	if d := o["delivery"].(map[string]any); d["mode"] != "postal" || d["city"] != "Paris" {
		t.Errorf("its delivery: %v", d)
	}
	id := fmt.Sprint(int64(o["id"].(float64)))
	if got := get(f.shopTok, "/api/v2/ecommerce/orders/?status=failed").JSON(t)["count"]; got != float64(0) {
		t.Errorf("failed orders: %v", got)
	}
	if got := get(f.shopTok, "/api/v2/ecommerce/orders/?created_after=2999-01-01").JSON(t)["count"]; got != float64(0) {
		t.Errorf("orders after 2999: %v", got)
	}
	if got := get(f.shopTok, "/api/v2/ecommerce/orders/?created_before=2999-01-01&created_after="+time.Now().UTC().Format(time.DateOnly)).JSON(t)["count"]; got != float64(1) {
		t.Errorf("orders created from today: %v", got)
	}
	if res := get(f.shopTok, "/api/v2/ecommerce/orders/?created_after=tomorrow"); res.Status != http.StatusBadRequest || !strings.Contains(res.Body, `"created_after"`) {
		t.Errorf("a date that is none: %d %s", res.Status, res.Body)
	}
	if res := get(f.shopTok, "/api/v2/ecommerce/orders/?status=lost"); res.Status != http.StatusBadRequest {
		t.Errorf("an unknown status: %d %s", res.Status, res.Body)
	}

	// Another partner: not found, and not listed.
	if res := get(f.pathTok, "/api/v2/ecommerce/orders/"+id+"/"); res.Status != http.StatusNotFound {
		t.Errorf("another partner's order: %d", res.Status)
	}
	if got := get(f.pathTok, "/api/v2/ecommerce/orders/").JSON(t)["count"]; got != float64(0) {
		t.Errorf("another partner lists %v orders", got)
	}
	if res := get(f.shopTok, "/api/v2/ecommerce/orders/"); res.Status != http.StatusOK {
		t.Fatal(res.Body)
	}

	// Two mugs were taken from five.
	stock := func() int64 {
		var n int64
		gcMust(t, f.db.NewRaw(`SELECT stock FROM ecommerce_products WHERE id = ?`, f.mug).Scan(t.Context(), &n))
		return n
	}
	if n := stock(); n != 3 {
		t.Errorf("stock after the order: %d", n)
	}
	refund := func(token, body string) Response {
		t.Helper()
		return api.do(t, http.MethodPost, "http://api.test/api/v2/ecommerce/orders/"+id+"/refund/", body,
			"Authorization", "Token "+token, "Content-Type", "application/json")
	}
	if res := refund(f.pathTok, `{}`); res.Status != http.StatusNotFound {
		t.Errorf("another partner's refund: %d", res.Status)
	}
	if res := refund(f.shopTok, `{"amount": "-1"}`); res.Status != http.StatusBadRequest || !strings.Contains(res.Body, `"amount"`) {
		t.Errorf("a negative refund: %d %s", res.Status, res.Body)
	}
	res := refund(f.shopTok, `{"restock": true}`)
	if res.Status != http.StatusOK {
		t.Fatalf("refund: %d %s", res.Status, res.Body)
	}
	if o := res.JSON(t); o["status"] != "refunded" || o["refunded_amount"] != "24.90" {
		t.Errorf("after the refund: %v", o)
	}
	if n := stock(); n != 5 {
		t.Errorf("stock after the refund with restock: %d", n)
	}
	if res := refund(f.shopTok, `{}`); res.Status != http.StatusConflict {
		t.Errorf("a refunded order again: %d %s", res.Status, res.Body)
	}

	// The graph: the same order, by the list and by node(id:).
	q := `{ ecommerceOrders(filter: {status: REFUNDED}) { totalCount edges { node { id reference status total
		lines { name quantity } payment { status } } } } }`
	gres := api.do(t, http.MethodPost, "http://api.test/graphql", string(mustJSON(t, map[string]any{"query": q})),
		"Authorization", "Token "+f.shopTok, "Content-Type", "application/json")
	var out struct {
		Data struct {
			EcommerceOrders struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						ID, Reference, Status, Total string
						Payment                      struct{ Status string }
					}
				}
			}
		}
		Errors []any
	}
	gcMust(t, json.Unmarshal([]byte(gres.Body), &out))
	if len(out.Errors) > 0 || out.Data.EcommerceOrders.TotalCount != 1 {
		t.Fatalf("graph: %s", gres.Body)
	}
	n := out.Data.EcommerceOrders.Edges[0].Node
	if n.Reference != ref || n.Status != "REFUNDED" || n.Total != "24.90" || n.Payment.Status != "ok" {
		t.Errorf("graph order: %+v", n)
	}
	for token, want := range map[string]string{f.shopTok: ref, f.pathTok: "null"} {
		res := api.do(t, http.MethodPost, "http://api.test/graphql",
			string(mustJSON(t, map[string]any{"query": `query($id: ID!) { node(id: $id) { ... on EcommerceOrder { reference } } }`,
				"variables": map[string]any{"id": n.ID}})),
			"Authorization", "Token "+token, "Content-Type", "application/json")
		if !strings.Contains(res.Body, want) {
			t.Errorf("node(id:) with the token of %s: %s", want, res.Body)
		}
	}
}
