package e2e

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
)

// checkoutIsolation is the checkout's part of TestAdminIsolation: the
// owner's paid e-commerce order, as its backend reads and refunds it.
var checkoutIsolation = isoArea{
	tables: []string{"orders", "ecommerce_orders", "ecommerce_order_lines", "order_payments"},
	rest:   (*isoFixture).checkoutREST,
	graph:  (*isoFixture).checkoutGraph,
	malformed: func(f *isoFixture, _ *testing.T) []isoMalformed {
		return []isoMalformed{{"POST", fmt.Sprintf("/api/v2/ecommerce/orders/%d/refund/", f.shopOrder), `{"amount": "x"}`, "application/json"}}
	},
}

// seedOrder writes a paid order of the owner's product, as the funnel
// leaves one, with the buyer's name marked secret.
func (f *isoFixture) seedOrder(t *testing.T) {
	t.Helper()
	var order, ecommerceOrder int64
	gcMust(t, f.db.NewRaw(`INSERT INTO orders (uuid, reference, partner_id, kind, status, cart_id, currency, total, first_name, paid_at)
		VALUES (?, 'EC-ISO', ?, 'ecommerce', 'paid', ?, 'EUR', 10, ?, now()) RETURNING id`,
		uuid.New(), f.owner, uuid.New(), isoSecret).Scan(t.Context(), &order))
	gcMust(t, f.db.NewRaw(`INSERT INTO ecommerce_orders (order_id, delivery_mode, lines_total, card_amount) VALUES (?, 'email', 10, 10)
		RETURNING id`, order).Scan(t.Context(), &ecommerceOrder))
	_, err := f.db.NewRaw(`INSERT INTO ecommerce_order_lines (ecommerce_order_id, position, product_id, name, quantity, unit_price, vat_rate, vat_amount, total)
		VALUES (?, 0, ?, ?, 1, 10, 0, 0, 10)`, ecommerceOrder, f.shopProduct, isoSecret).Exec(t.Context())
	gcMust(t, err)
	f.shopOrder = order
}

func (f *isoFixture) checkoutREST(*testing.T) []isoREST {
	const js = "application/json"
	order := fmt.Sprintf("/api/v2/ecommerce/orders/%d/", f.shopOrder)
	return []isoREST{
		{"GET", "/api/v2/ecommerce/orders/", "", js, 200, 200, 200},
		{"GET", order, "", js, 200, 404, 404},
		{"POST", order + "refund/", `{"amount": "1.00"}`, js, 0, 404, 404},
	}
}

func (f *isoFixture) checkoutGraph() []isoGraph {
	id := isoID(f.shopOrder)
	return []isoGraph{
		{"ecommerceOrder", `query($id: ID!) { ecommerceOrder(id: $id) { reference buyer { firstName } } }`, map[string]any{"id": id}, "NOT_FOUND"},
		{"ecommerceOrders", `{ ecommerceOrders { totalCount edges { node { reference buyer { firstName } } } } }`, nil, ""},
		{"refundEcommerceOrder", `mutation($id: ID!) { refundEcommerceOrder(input: {orderId: $id, amount: "1.00"}) ` + isoPayload + ` }`,
			map[string]any{"id": id}, "NOT_FOUND"},
	}
}
