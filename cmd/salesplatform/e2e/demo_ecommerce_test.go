package e2e

import (
	"context"
	"testing"
)

// ecommerceDemoChecks use the demo's shop.
var ecommerceDemoChecks = []demoCheck{
	{"Shop", demoShop},
}

// demoShop reads the atelier's shop as its site's visitors and its user
// do: the active products with their limited and unlimited stock, the
// gift-wrap attribute, the delivery settings and the coupon.
func demoShop(t *testing.T, s *seededDemo) {
	shop := s.data.Shops[0]
	partner := s.data.Partner(shop.Partner)
	var page struct {
		Count   int
		Results []struct {
			Stock    *int64
			Variants []struct{ Stock *int64 }
			Attribs  []struct{ Values []string } `json:"attributes"`
		}
	}
	decodeJSON(t, Do(t, "GET", s.srv.URL+"/api/v2/ecommerce/products/", "", "X-Partner-Domain", partner.Domain).Body, &page)
	if page.Count != len(shop.Products)-1 {
		t.Errorf("the site lists %d products, want the %d active ones", page.Count, len(shop.Products)-1)
	}
	var limitedVariant, wrap, unlimited bool
	for _, p := range page.Results {
		for _, v := range p.Variants {
			limitedVariant = limitedVariant || (v.Stock != nil && *v.Stock == 5)
		}
		for _, a := range p.Attribs {
			wrap = wrap || len(a.Values) == 2
		}
		unlimited = unlimited || (p.Stock == nil && len(p.Variants) == 0)
	}
	if !limitedVariant || !wrap || !unlimited {
		t.Errorf("the shop lacks a variant of 5 units (%v), a gift wrap (%v) or an unlimited product (%v)", limitedVariant, wrap, unlimited)
	}
	member := []string{"Authorization", "Token " + s.tokens[partner.Username]}
	res := Do(t, "GET", s.srv.URL+"/api/v2/ecommerce/products/?active=false", "", member...)
	var inactive struct{ Count int }
	decodeJSON(t, res.Body, &inactive)
	if res.Status != 200 || inactive.Count != 1 {
		t.Errorf("the atelier's inactive products: %d %s", res.Status, res.Body)
	}
	res = Do(t, "GET", s.srv.URL+"/api/v2/ecommerce/delivery-settings/", "", member...)
	WantResponse(t, res, 200, `{"email": true, "postal": true, "postal_cost": "4.90", "postal_days": 3, "pickup": true,
		"pickup_cost": "0.00", "pickup_address": "12 rue des Potiers, 37000 Tours"}`)
	var coupons int
	gcMust(t, s.db.NewRaw(`SELECT count(*) FROM coupons c JOIN partners p ON p.id = c.partner_id
		WHERE p.site_domain = ? AND c.code = 'WELCOME10' AND c.activate_for_ecommerce AND c.max_usage = 100
		AND c.start_date <= now() AND c.end_date > now()`, partner.Domain).Scan(context.Background(), &coupons))
	if coupons != 1 {
		t.Errorf("%d WELCOME10 coupons of the atelier", coupons)
	}
}
