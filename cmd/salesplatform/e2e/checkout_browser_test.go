package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/cmd/salesplatform/e2e/browser"
	"salesplatform/persistence"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// axeScript is axe-core as .ci/axe pins it (npm ci --prefix .ci/axe).
var axeScript = filepath.Join("..", "..", "..", ".ci", "axe", "node_modules", "axe-core", "axe.min.js")

// TestCheckoutInChromium buys from the demo shop as a customer does, in
// headless Chromium, from the funnel_url the shop's API call answered,
// on the shop's own domain: a quantity changed, the information filled
// by its autocomplete tokens, a coupon and a network giftcard applied, a
// 3-D Secure card on the provider's pages, then back to the shop's
// return_url with the order's reference. The API then shows the cart
// gone, the order paid with its lines, the giftcard debited, the coupon
// counted once and the stock lowered. A declined card makes no paid
// order, releases the giftcard's hold and keeps the cart. axe-core finds
// no violation on any of the funnel's pages.
func TestCheckoutInChromium(t *testing.T) {
	t.Parallel()
	s := newChromiumShop(t)
	s.paidCheckout()
	s.declinedCard()
	s.unknownCart()

	requested, problems := s.tab.Seen()
	for _, r := range requested {
		if ru, err := url.Parse(r); err == nil && ru.Scheme == "https" && ru.Hostname() != "atelier.localhost" &&
			ru.Hostname() != "shop.example.org" && ru.Hostname() != "127.0.0.1" {
			t.Errorf("the browser requested %s, outside the shop and this service", r)
		}
	}
	for _, p := range problems {
		// The shop's return page is not this service's (404 here), and
		// the unknown cart's page is a 404 by design.
		if !strings.Contains(p, "https://shop.example.org/") && !strings.Contains(p, "cart=00000000-") {
			t.Errorf("the pages logged: %s", p)
		}
	}
}

// chromiumShop is the demo served over TLS to a Chromium tab in which
// the atelier's site (atelier.localhost) and the shop's return page
// (shop.example.org) both reach it.
type chromiumShop struct {
	t      *testing.T
	db     *bun.DB
	srv    *httptest.Server
	tokens map[string]string
	ctx    context.Context
	tab    *browser.Tab
	// The demo's teapot (with its gift-wrap attribute) and celadon bowl.
	teapot, bowl, celadon, giftWrap int64
}

// chromiumCard is the network giftcard the customer applies.
const chromiumCard = "DEMO-NGC-PAID"

func newChromiumShop(t *testing.T) *chromiumShop {
	chromium := browser.Path(t)
	if _, err := os.Stat(axeScript); err != nil {
		needed(t, "axe-core is not installed: npm ci --prefix .ci/axe")
	}
	dsn, dataDir := dbtest.NewDSN(t), t.TempDir()
	s := &chromiumShop{t: t, tokens: SeedDemo(t, dsn, dataDir)}
	db, err := persistence.Open(context.Background(), dsn)
	gcMust(t, err)
	t.Cleanup(func() { db.Close() })
	s.db = db

	var h http.Handler
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	s.srv.StartTLS()
	t.Cleanup(s.srv.Close)
	carts := cartstore.NewMemory(10)
	t.Cleanup(carts.Close)
	h = app.NewHandler(db, carts, &app.Config{PasswordHashing: dbtest.CheapHashing, CartTTL: time.Hour, PublicBaseURL: s.srv.URL,
		DataDir: dataDir}, app.NewLogger(io.Discard, 0))

	s.query(`SELECT id FROM ecommerce_products WHERE name->>'en' = 'Porcelain teapot'`, &s.teapot)
	s.query(`SELECT id FROM ecommerce_products WHERE name->>'en' = 'Stoneware bowl'`, &s.bowl)
	s.query(`SELECT id FROM ecommerce_variants WHERE name->>'en' = 'Celadon blue'`, &s.celadon)
	s.query(`SELECT id FROM ecommerce_attributes WHERE product_id = ?`, &s.giftWrap, s.teapot)

	port := strings.TrimPrefix(s.srv.URL, "https://127.0.0.1")
	s.ctx, s.tab = browser.Start(t, chromium,
		chromedp.Flag("host-resolver-rules", "MAP atelier.localhost 127.0.0.1"+port+", MAP shop.example.org 127.0.0.1"+port),
		chromedp.Flag("ignore-certificate-errors", true))
	t.Cleanup(s.tab.Close) // before the server's Close: cleanups run last in, first out
	return s
}

// paidCheckout buys two teapots and a bowl, delivered by post, with the
// coupon, the giftcard and a 3-D Secure card, and checks what the shop's
// API then shows.
func (s *chromiumShop) paidCheckout() {
	t := s.t
	before, uses := s.balance(), s.couponUses()
	teapots, celadons := s.stock()
	cartID, funnelURL := s.newCart()
	if !strings.HasPrefix(funnelURL, "https://atelier.localhost/ecommerce/shop/customization/?cart=") {
		t.Fatalf("funnel_url %q", funnelURL)
	}
	s.do("customization", chromedp.Navigate(funnelURL), chromedp.WaitVisible(`#customization`))
	s.checkAxe("customization")
	s.do("two teapots", chromedp.SetValue(`input[name="lines.0.quantity"]`, "2"), chromedp.Click(`#f-delivery_mode-postal`))
	s.submit("customization", `button[value="continue"]`)
	s.do("information", chromedp.WaitVisible(`#information`))
	s.checkAxe("information")
	s.do("information",
		chromedp.SendKeys(`input[autocomplete="given-name"]`, "Ada"),
		chromedp.SendKeys(`input[autocomplete="family-name"]`, "Lovelace"),
		chromedp.SendKeys(`input[autocomplete="email"]`, "ada@example.com"),
		chromedp.SendKeys(`input[autocomplete="tel"]`, "+33 6 12 34 56 78"),
		chromedp.SendKeys(`input[autocomplete="street-address"]`, "12 rue des Fleurs"),
		chromedp.SendKeys(`input[autocomplete="postal-code"]`, "75011"),
		chromedp.SendKeys(`input[autocomplete="address-level2"]`, "Paris"),
		chromedp.SendKeys(`input[autocomplete="country"]`, "FR"))
	s.submit("information", `#information button[type="submit"]`)
	s.do("payment", chromedp.WaitVisible(`#to-pay`))
	s.checkAxe("payment")
	s.do("codes", chromedp.SendKeys(`#f-coupon`, "WELCOME10"), chromedp.SendKeys(`#f-giftcard`, chromiumCard))
	s.submit("codes", `button[value="apply"]`)
	s.checkAxe("payment with codes")
	// Two teapots at 68.00 and a bowl at 24.00, by post at 4.90, less 10 %
	// of the lines, 16.00, less what the card holds.
	wantToPay := decimal.RequireFromString("148.90").Sub(before)
	if toPay := s.text(`#to-pay`); !strings.Contains(strings.ReplaceAll(toPay, ",", "."), wantToPay.StringFixed(2)) {
		t.Fatalf("to pay %q, want %s (giftcard %s)", toPay, wantToPay.StringFixed(2), before)
	}
	s.submit("pay", `button[value="pay"]`)
	s.do("card", chromedp.SendKeys(`#card_number`, psp.CardThreeDSecure))
	s.submit("card", `#card_number ~ button[type="submit"]`)
	s.do("3-D Secure page", chromedp.WaitVisible(`button[value="authenticate"]`))
	s.do("3-D Secure", chromedp.Click(`button[value="authenticate"]`))
	landed := s.waitLocation(regexp.MustCompile(`^https://shop\.example\.org/`))
	m := regexp.MustCompile(`^https://shop\.example\.org/thanks\?from=funnel&order_reference=(EC-[A-Z0-9]+)$`).FindStringSubmatch(landed)
	if m == nil {
		t.Fatalf("landed on %q", landed)
	}

	if res := s.api("GET", "/api/v2/ecommerce/cart/"+cartID+"/", "", "demo-atelier"); res.Status != http.StatusNotFound {
		t.Errorf("the cart after the order: %d", res.Status)
	}
	order := s.paidOrder(m[1])
	if lines := order["lines"].([]any); len(lines) != 2 || lines[0].(map[string]any)["quantity"] != float64(2) {
		t.Errorf("the order's lines: %v", lines)
	}
	if p := order["payment"].(map[string]any); p["status"] != "ok" || p["amount"] != wantToPay.StringFixed(2) {
		t.Errorf("the order's payment: %v", p)
	}
	if g := order["giftcard"].(map[string]any); g["amount"] != before.StringFixed(2) || g["usage_id"] == nil {
		t.Errorf("the order's giftcard: %v", g)
	}
	if after := s.balance(); !after.IsZero() {
		t.Errorf("the giftcard after the order: %s, want 0.00 (it held %s)", after, before)
	}
	if n := s.couponUses(); n != uses+1 {
		t.Errorf("the coupon counted %d times, want %d", n, uses+1)
	}
	if a, b := s.stock(); a != teapots-2 || b != celadons-1 {
		t.Errorf("stock: %d teapots and %d celadon bowls, want %d and %d", a, b, teapots-2, celadons-1)
	}
}

// declinedCard pays a cart by e-mail delivery with the giftcard (refilled
// to 40.00) and a declined card: the payment step again, the cart kept,
// the giftcard's hold released, no paid order more.
func (s *chromiumShop) declinedCard() {
	t := s.t
	refill := decimal.RequireFromString("40.00")
	_, err := s.db.NewRaw(`UPDATE network_giftcards SET remaining_value = ? WHERE code = ?`, refill, chromiumCard).Exec(context.Background())
	gcMust(t, err)
	cartID, funnelURL := s.newCart()
	s.do("customization", chromedp.Navigate(funnelURL), chromedp.WaitVisible(`#customization`), chromedp.Click(`#f-delivery_mode-email`))
	s.submit("customization", `button[value="continue"]`)
	s.do("information",
		chromedp.SendKeys(`input[autocomplete="given-name"]`, "Grace"),
		chromedp.SendKeys(`input[autocomplete="family-name"]`, "Hopper"),
		chromedp.SendKeys(`input[autocomplete="email"]`, "grace@example.com"),
		chromedp.SendKeys(`input[autocomplete="tel"]`, "0612345678"))
	s.submit("information", `#information button[type="submit"]`)
	s.do("giftcard", chromedp.SendKeys(`#f-giftcard`, chromiumCard))
	s.submit("giftcard", `button[value="apply"]`)
	s.submit("pay", `button[value="pay"]`)
	s.do("declined card", chromedp.SendKeys(`#card_number`, psp.CardDecline))
	s.submit("declined card", `#card_number ~ button[type="submit"]`)
	s.waitLocation(regexp.MustCompile(`/ecommerce/shop/payment/\?cart=.*&payment=failed$`))
	s.do("payment failed", chromedp.WaitVisible(`#message`))
	s.checkAxe("payment failed")
	if res := s.api("GET", "/api/v2/ecommerce/cart/"+cartID+"/", "", "demo-atelier"); res.Status != http.StatusOK {
		t.Errorf("the cart after a declined card: %d", res.Status)
	}
	if after := s.balance(); !after.Equal(refill) {
		t.Errorf("the giftcard after a declined card: %s, want %s", after, refill)
	}
	if n := s.api("GET", "/api/v2/ecommerce/orders/?status=paid", "", "demo-atelier").JSON(t)["count"]; n != float64(1) {
		t.Errorf("paid orders after a declined card: %v", n)
	}
}

// unknownCart opens the funnel of a cart that does not exist, in French:
// the page says so.
func (s *chromiumShop) unknownCart() {
	u := "https://atelier.localhost/ecommerce/shop/customization/?cart=00000000-0000-4000-8000-000000000000&lang=fr"
	// Not Navigate, which waits for a success: the page is a 404.
	if _, err := chromedp.Run(s.ctx, chromedp.Evaluate[bool](`location.assign(`+strconv.Quote(u)+`); true`)); err != nil {
		s.t.Fatal(err)
	}
	s.waitLocation(regexp.MustCompile(`cart=00000000-`))
	if text := s.text(`h1`); text != "Panier introuvable" {
		s.t.Errorf("unknown cart: %q", text)
	}
	s.checkAxe("unknown cart")
}

// api calls the REST API with the token of the demo user.
func (s *chromiumShop) api(method, path, body, user string) Response {
	s.t.Helper()
	req, err := http.NewRequest(method, s.srv.URL+path, strings.NewReader(body))
	gcMust(s.t, err)
	req.Header.Set("Authorization", "Token "+s.tokens[user])
	req.Header.Set("Content-Type", "application/json")
	res, err := s.srv.Client().Do(req)
	gcMust(s.t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return Response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

func (s *chromiumShop) query(q string, dest any, args ...any) {
	s.t.Helper()
	gcMust(s.t, s.db.NewRaw(q, args...).Scan(context.Background(), dest))
}

// newCart is the shop's cart of a teapot, gift-wrapped, and a celadon
// bowl, back to shop.example.org.
func (s *chromiumShop) newCart() (id, funnelURL string) {
	s.t.Helper()
	res := s.api("POST", "/api/v2/ecommerce/cart/", fmt.Sprintf(`{"items": [
		{"product_id": %d, "quantity": 1, "attribute_values": {"%d": "yes"}},
		{"product_id": %d, "quantity": 1, "variant_id": %d}],
		"return_url": "https://shop.example.org/thanks?from=funnel"}`, s.teapot, s.giftWrap, s.bowl, s.celadon), "demo-atelier")
	if res.Status != http.StatusCreated {
		s.t.Fatalf("cart: %d %s", res.Status, res.Body)
	}
	m := res.JSON(s.t)
	return m["id"].(string), m["funnel_url"].(string)
}

// paidOrder is the shop's paid order with that reference.
func (s *chromiumShop) paidOrder(reference string) map[string]any {
	s.t.Helper()
	orders := s.api("GET", "/api/v2/ecommerce/orders/?status=paid", "", "demo-atelier").JSON(s.t)
	for _, o := range orders["results"].([]any) {
		if o.(map[string]any)["reference"] == reference {
			return o.(map[string]any)
		}
	}
	s.t.Fatalf("no paid order %s: %v", reference, orders)
	return nil
}

func (s *chromiumShop) stock() (teapots, celadons int64) {
	s.query(`SELECT stock FROM ecommerce_products WHERE id = ?`, &teapots, s.teapot)
	s.query(`SELECT stock FROM ecommerce_variants WHERE id = ?`, &celadons, s.celadon)
	return
}

func (s *chromiumShop) couponUses() (n int64) {
	s.query(`SELECT number_of_usage FROM coupons WHERE code = 'WELCOME10'`, &n)
	return
}

// balance is the giftcard's remaining value, as its marketplace reads it.
func (s *chromiumShop) balance() decimal.Decimal {
	res := s.api("GET", "/api/networkgiftcards_by_code/"+chromiumCard+"/", "", "demo-market")
	var v struct {
		RemainingValue decimal.Decimal `json:"remaining_value"`
	}
	if res.Status != 200 || json.Unmarshal([]byte(res.Body), &v) != nil {
		s.t.Fatalf("the giftcard: %d %s", res.Status, res.Body)
	}
	return v.RemainingValue
}

// checkAxe fails the test for every violation axe-core finds on the page.
func (s *chromiumShop) checkAxe(step string) {
	s.t.Helper()
	for _, v := range browser.Axe(s.ctx, s.t, axeScript) {
		s.t.Errorf("%s: axe-core: %s", step, v)
	}
}

// do runs the actions of a step, within 30 seconds.
func (s *chromiumShop) do(step string, actions ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		text, _ := chromedp.Run(s.ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText.slice(0, 2000)`))
		_, problems := s.tab.Seen()
		s.t.Fatalf("%s: %v\npage: %s\nlogged: %q", step, err, text, problems)
	}
}

// submit clicks a form's button and waits for the page it answers: a new
// document (the old one is marked before the click).
func (s *chromiumShop) submit(step, button string) {
	s.t.Helper()
	s.do(step, chromedp.Evaluate[chromedp.Void](`document.documentElement.dataset.left = "yes"`), chromedp.Click(button))
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		fresh, err := chromedp.Run(s.ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && !document.documentElement.dataset.left`))
		if err == nil && fresh {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: no new page after %s", step, button)
		}
	}
}

// waitLocation waits, at most 20 seconds, for the tab to be on a URL
// that matches want (through the redirects and refreshes it follows),
// and returns it.
func (s *chromiumShop) waitLocation(want *regexp.Regexp) string {
	s.t.Helper()
	var at string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		href, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](`document.readyState === "complete" ? location.href : ""`))
		if err == nil && want.MatchString(href) {
			return href
		}
		if err == nil && href != "" {
			at = href
		}
	}
	s.t.Fatalf("the browser is on %q, not on %s", at, want)
	return ""
}

// text is the text of the element sel.
func (s *chromiumShop) text(sel string) string {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Text(sel))
	gcMust(s.t, err)
	return v
}
