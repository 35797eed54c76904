package e2e

import (
	"fmt"
	"net/url"
	"strings"
)

// catalogueTour is the public catalogue's and the account's part of
// TestOpenAPITour.
var catalogueTour = []tourStep{tourAccount, tourCatalogue, tourCarts}

// tourAccount logs in and reads permissions.
func tourAccount(tr *tour) {
	call, data, staff := tr.call, tr.data, tr.staff
	call("POST", "/api-token-auth/", fmt.Sprintf(`{"username": %q, "password": %q}`, data.Staff.Username, data.Staff.Password))
	call("POST", "/api-token-auth/", `{"username": "nobody", "password": "wrong"}`)
	call("GET", "/api/permissions/", "", "Authorization", staff)
	call("GET", "/api/permissions/", "", "Authorization", "Token 0000000000000000000000000000000000000000")
}

// tourCatalogue reads the public catalogue as each demo partner's site
// does.
func tourCatalogue(tr *tour) {
	t, call, list, id, data := tr.t, tr.call, tr.list, tourID, tr.data
	catalogue := []string{"/api/v2/partners/", "/api/v2/partners/me/", "/api/v2/destinations/",
		"/api/v2/partner_legal_information/", "/api/v2/refund_withdrawal_terms/",
		"/api/v2/product_information/events/", "/api/v2/product_information/giftcards/",
		"/api/v2/product_information/network_giftcards/", "/api/v2/product_information/network_vouchers/",
		"/api/v2/product_information/vouchers/", "/api/v2/product_information/workshops/",
		"/api/v2/event_slots/", "/api/v2/network_vouchers/boxes/?ordering=-price", "/api/v2/network_vouchers/universes/",
		"/api/v2/universes/", "/api/v2/themes/", "/api/v2/giftcard_prototypes/", "/api/v2/workshop_sessions/",
		"/api/v2/workshop_themes/"}
	for _, p := range data.Partners {
		site := []string{"X-Partner-Domain", p.Domain}
		for _, path := range catalogue {
			res := call("GET", path, "", site...)
			for _, it := range list(res) {
				switch {
				case strings.HasPrefix(path, "/api/v2/partners/"):
					call("GET", "/api/v2/partners/"+id(it["id"])+"/", "", site...)
				case path == "/api/v2/event_slots/":
					call("GET", "/api/v2/event_prototypes/"+id(it["event_id"])+"/", "", site...)
				case strings.HasPrefix(path, "/api/v2/network_vouchers/boxes/"):
					call("GET", "/api/v2/network_vouchers/boxes/"+id(it["id"])+"/", "", site...)
				case path == "/api/v2/giftcard_prototypes/":
					call("GET", "/api/v2/giftcard_prototypes/"+id(it["id"])+"/", "", site...)
				case path == "/api/v2/workshop_sessions/":
					call("GET", "/api/v2/workshops/"+id(it["workshop_id"])+"/", "", site...)
					call("OPTIONS", "/api/v2/workshops/"+id(it["workshop_id"])+"/", "", site...)
				}
			}
		}
		call("GET", "/api/v2/partners/999999/", "", site...)
		call("GET", "/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
		call("HEAD", "/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
		call("OPTIONS", "/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
	}
	call("GET", "/api/v2/partners/", "") // no partner: refused
	for _, g := range data.Gifts {
		seller := []string{"X-Partner-Domain", data.Seller(g).Domain}
		res := call("GET", "/api/v2/gift/"+url.PathEscape(g.Code)+"/", "", seller...)
		call("GET", "/api/v2/gift/"+url.PathEscape(g.Code)+"/linked_partners/", "", seller...)
		if res.Status == 200 {
			partner, _ := res.JSON(t)["partner"].(map[string]any)
			call("POST", "/api/v2/contact_requests/", fmt.Sprintf(
				`{"gift_code": %q, "full_name": "Ada Tour", "email": "ada@example.com", "message": "Hello", "partner": %q}`,
				g.Code, partner["uuid"]), seller...)
		}
	}
}

// tourCarts creates a cart and follows its checkout handoff, on a
// partner's site and, for a partner without one, on this service's
// address.
func tourCarts(tr *tour) {
	t, call, data, dsn, tokens := tr.t, tr.call, tr.data, tr.dsn, tr.tokens
	shops := []string{"Token " + CreateUser(t, dsn, "--username", "tour-nosite", "--password", "tour-password-1",
		"--partner-name", "No Site")}
	for _, p := range data.Partners {
		shops = append(shops, "Token "+tokens[p.Username])
	}
	for _, token := range shops {
		res := call("POST", "/api/v2/ecommerce/cart/", `{"items": [{"product_id": 1, "quantity": 2}], "return_url": "https://example.com/"}`,
			"Authorization", token)
		if res.Status != 201 {
			continue
		}
		cart := res.JSON(t)
		cartID := cart["id"].(string)
		call("POST", "/api/v2/ecommerce/cart/", `{"id": "`+cartID+`", "items": [{"product_id": 1, "quantity": 3}]}`, "Authorization", token)
		got := call("GET", "/api/v2/ecommerce/cart/"+cartID+"/", "", "Authorization", token)
		call("GET", "/api/v2/ecommerce/cart/"+cartID+"/", "", "Authorization", token, "If-None-Match", got.Header.Get("ETag"))
		funnel, err := url.Parse(cart["funnel_url"].(string))
		if err != nil {
			t.Fatal(err)
		}
		call("GET", funnel.RequestURI(), "", "Host", funnel.Host)
		other := strings.Replace(funnel.RequestURI(), "/shop/", "/order/", 1)
		call("GET", other, "", "Host", funnel.Host)
	}
	call("GET", "/ecommerce/shop/customization/", "")
	call("GET", "/p/not-a-uuid/ecommerce/order/customization/?cart=x", "")
}
