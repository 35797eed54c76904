package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"salesplatform/persistence/psp"
)

// tourFunnel buys from the demo's shop (atelier) through the checkout
// funnel's pages, on its site (by Host, back to a return_url) and under
// /p/{uuid}/ (the thank-you page): every step's page and form.
func tourFunnel(tr *tour) {
	t := tr.t
	shop := tr.data.Partner("atelier")
	var partnerID int64
	var partnerUUID string
	gcMust(t, tr.db.NewRaw(`SELECT id, uuid::text FROM partners WHERE site_domain = ?`, shop.Domain).Scan(context.Background(), &partnerID, &partnerUUID))
	var product int64
	gcMust(t, tr.db.NewRaw(`SELECT p.id FROM ecommerce_products p WHERE p.partner_id = ? AND p.active AND (p.stock IS NULL OR p.stock > 2)
		AND NOT EXISTS (SELECT 1 FROM ecommerce_variants v WHERE v.product_id = p.id)
		AND NOT EXISTS (SELECT 1 FROM ecommerce_attributes a WHERE a.product_id = p.id) ORDER BY p.id LIMIT 1`, partnerID).
		Scan(context.Background(), &product))
	token := "Token " + tr.tokens[shop.Username]

	for _, site := range []struct{ host, root, returnURL string }{
		{shop.Domain, "", `, "return_url": "https://example.com/thanks"`},
		{"", "/p/" + partnerUUID, ""},
	} {
		res := tr.call("POST", "/api/v2/ecommerce/cart/", fmt.Sprintf(`{"items": [{"product_id": %d, "quantity": 1}]%s}`, product, site.returnURL),
			"Authorization", token)
		if res.Status != http.StatusCreated {
			t.Fatalf("cart: %d %s", res.Status, res.Body)
		}
		cart := "?cart=" + res.JSON(t)["id"].(string)
		b := &tourBrowser{tr: tr, host: site.host, cookies: map[string]string{}}
		steps := site.root + "/ecommerce/"
		page := b.get(steps + "order/customization/" + cart)
		b.post(page, steps+"order/customization/"+cart, url.Values{"lines.0.quantity": {"2"}, "action": {"update"}})
		page = b.get(steps + "shop/customization/" + cart)
		b.post(page, steps+"shop/customization/"+cart, url.Values{"delivery_mode": {"email"}, "action": {"continue"}})
		page = b.get(steps + "shop/information/" + cart)
		b.post(page, steps+"shop/information/"+cart, url.Values{"first_name": {"Ada"}, "last_name": {"Lovelace"},
			"email": {"ada@example.com"}, "phone": {"0612345678"}})
		page = b.get(steps + "shop/payment/" + cart)
		b.post(page, steps+"shop/payment/"+cart, url.Values{"coupon": {""}, "giftcard": {""}, "action": {"apply"}})
		pay := b.post(page, steps+"shop/payment/"+cart, url.Values{"action": {"pay"}})
		card, err := url.Parse(pay.Header.Get("Location"))
		if err != nil || !strings.HasPrefix(card.Path, psp.PagePrefix+"card/") {
			t.Fatalf("pay: %d %q", pay.Status, pay.Header.Get("Location"))
		}
		provider := &tourBrowser{tr: tr, cookies: map[string]string{}}
		provider.do("POST", card.Path, "card_number="+psp.CardSuccess, "Content-Type", "application/x-www-form-urlencoded")
		back, err := url.Parse(provider.do("GET", card.Path, "").Header.Get("Location"))
		if err != nil || !strings.HasSuffix(back.Path, "/ecommerce/shop/summary/") {
			t.Fatalf("the provider's way back: %v", back)
		}
		if done := b.do("GET", back.RequestURI(), ""); done.Status != http.StatusOK && done.Status != http.StatusSeeOther {
			t.Errorf("summary: %d", done.Status)
		}
	}

	// The shop's backend reads the orders; staff refunds one, restocked.
	orders := tr.list(tr.call("GET", "/api/v2/ecommerce/orders/?status=paid&page_size=1", "", "Authorization", token))
	if len(orders) != 1 {
		t.Fatalf("paid orders: %v", orders)
	}
	order := fmt.Sprintf("/api/v2/ecommerce/orders/%d/", int64(orders[0]["id"].(float64)))
	if res := tr.call("GET", order, "", "Authorization", token); res.Status != http.StatusOK {
		t.Errorf("GET %s: %d", order, res.Status)
	}
	if res := tr.call("POST", order+"refund/", `{"restock": true}`, "Authorization", "Token "+tr.tokens["demo-staff"]); res.Status != http.StatusOK {
		t.Errorf("refund: %d %s", res.Status, res.Body)
	}
}

// tourBrowser follows the funnel's pages on the tour's server, on a site
// (Host) or its address, keeping cookies and posting forms with their
// token.
type tourBrowser struct {
	tr      *tour
	host    string
	cookies map[string]string
}

// do sends a request without following its redirect, checked against
// the document.
func (b *tourBrowser) do(method, path, body string, headers ...string) Response {
	t := b.tr.t
	t.Helper()
	req, err := http.NewRequest(method, b.tr.srv.URL+path, strings.NewReader(body))
	gcMust(t, err)
	if b.host != "" {
		req.Host = b.host
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	for name, value := range b.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Do(req)
	gcMust(t, err)
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	gcMust(t, err)
	CheckContract(t, req, res.StatusCode, res.Header, got)
	for _, c := range res.Cookies() {
		b.cookies[c.Name] = c.Value
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: string(got)}
}

func (b *tourBrowser) get(path string) Response {
	b.tr.t.Helper()
	res := b.do("GET", path, "")
	if res.Status != http.StatusOK {
		b.tr.t.Errorf("GET %s: %d %s", path, res.Status, mainOf(res.Body))
	}
	return res
}

// post sends the page's form; the step answers 303.
func (b *tourBrowser) post(page Response, path string, form url.Values) Response {
	b.tr.t.Helper()
	if m := csrfField.FindStringSubmatch(page.Body); m != nil {
		form.Set("csrf_token", m[1])
	}
	res := b.do("POST", path, form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "same-origin")
	if res.Status != http.StatusSeeOther {
		b.tr.t.Errorf("POST %s: %d %s", path, res.Status, mainOf(res.Body))
	}
	return res
}
