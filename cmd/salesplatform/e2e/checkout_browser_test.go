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
// counted once and the stock lowered. A declined card makes no order,
// releases the giftcard's hold and keeps the cart. axe-core finds no
// violation on any of the funnel's pages.
func TestCheckoutInChromium(t *testing.T) {
	t.Parallel()
	chromium := browser.Path(t)
	if _, err := os.Stat(axeScript); err != nil {
		needed(t, "axe-core is not installed: npm ci --prefix .ci/axe")
	}
	dsn := dbtest.NewDSN(t)
	dataDir := t.TempDir()
	tokens := SeedDemo(t, dsn, dataDir)
	db, err := persistence.Open(context.Background(), dsn)
	gcMust(t, err)
	defer db.Close()
	query := func(q string, dest ...any) {
		t.Helper()
		gcMust(t, db.NewRaw(q).Scan(context.Background(), dest...))
	}

	var h http.Handler
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	srv.StartTLS()
	defer srv.Close()
	carts := cartstore.NewMemory(10)
	defer carts.Close()
	h = app.NewHandler(db, carts, &app.Config{PasswordHashing: dbtest.CheapHashing, CartTTL: time.Hour, PublicBaseURL: srv.URL,
		DataDir: dataDir}, app.NewLogger(io.Discard, 0))
	api := func(method, path, body, token string) Response {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		gcMust(t, err)
		req.Header.Set("Authorization", "Token "+token)
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.Client().Do(req)
		gcMust(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return Response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
	}

	var teapot, bowl, celadon, giftWrap int64
	query(`SELECT id FROM ecommerce_products WHERE name->>'en' = 'Porcelain teapot'`, &teapot)
	query(`SELECT id FROM ecommerce_products WHERE name->>'en' = 'Stoneware bowl'`, &bowl)
	query(`SELECT id FROM ecommerce_variants WHERE name->>'en' = 'Celadon blue'`, &celadon)
	query(`SELECT id FROM ecommerce_attributes WHERE product_id = (SELECT id FROM ecommerce_products WHERE name->>'en' = 'Porcelain teapot')`, &giftWrap)
	stock := func() (teapots, celadons int64) {
		query(`SELECT (SELECT stock FROM ecommerce_products WHERE name->>'en' = 'Porcelain teapot'),
			(SELECT stock FROM ecommerce_variants WHERE name->>'en' = 'Celadon blue')`, &teapots, &celadons)
		return
	}
	couponUses := func() (n int64) {
		query(`SELECT number_of_usage FROM coupons WHERE code = 'WELCOME10'`, &n)
		return
	}
	const card = "DEMO-NGC-PAID"
	balance := func() decimal.Decimal {
		res := api("GET", "/api/networkgiftcards_by_code/"+card+"/", "", tokens["demo-market"])
		var v struct {
			RemainingValue decimal.Decimal `json:"remaining_value"`
		}
		if res.Status != 200 || json.Unmarshal([]byte(res.Body), &v) != nil {
			t.Fatalf("the giftcard: %d %s", res.Status, res.Body)
		}
		return v.RemainingValue
	}
	newCart := func() (id, funnelURL string) {
		t.Helper()
		res := api("POST", "/api/v2/ecommerce/cart/", fmt.Sprintf(`{"items": [
			{"product_id": %d, "quantity": 1, "attribute_values": {"%d": "yes"}},
			{"product_id": %d, "quantity": 1, "variant_id": %d}],
			"return_url": "https://shop.example.org/thanks?from=funnel"}`, teapot, giftWrap, bowl, celadon), tokens["demo-atelier"])
		if res.Status != http.StatusCreated {
			t.Fatalf("cart: %d %s", res.Status, res.Body)
		}
		m := res.JSON(t)
		return m["id"].(string), m["funnel_url"].(string)
	}

	port := strings.TrimPrefix(srv.URL, "https://127.0.0.1")
	ctx, tab := browser.Start(t, chromium,
		chromedp.Flag("host-resolver-rules", "MAP atelier.localhost 127.0.0.1"+port+", MAP shop.example.org 127.0.0.1"+port),
		chromedp.Flag("ignore-certificate-errors", true))
	defer tab.Close()
	checkAxe := func(step string) {
		t.Helper()
		for _, v := range browser.Axe(ctx, t, axeScript) {
			t.Errorf("%s: axe-core: %s", step, v)
		}
	}
	do := func(step string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		stepCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(stepCtx, actions...); err != nil {
			text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText.slice(0, 2000)`))
			_, problems := tab.Seen()
			t.Fatalf("%s: %v\npage: %s\nlogged: %q", step, err, text, problems)
		}
	}
	// submit clicks a form's button and waits for the page it answers (a
	// new document: the old one is marked before the click).
	submit := func(step, button string) {
		t.Helper()
		do(step, chromedp.Evaluate[chromedp.Void](`document.documentElement.dataset.left = "yes"`), chromedp.Click(button))
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			fresh, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.readyState === "complete" && !document.documentElement.dataset.left`))
			if err == nil && fresh {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no new page after %s", step, button)
			}
		}
	}
	before, beforeTeapots, beforeCeladons, beforeUses := balance(), 0, 0, couponUses()
	{
		a, b := stock()
		beforeTeapots, beforeCeladons = int(a), int(b)
	}

	// The paid checkout.
	cartID, funnelURL := newCart()
	if !strings.HasPrefix(funnelURL, "https://atelier.localhost/ecommerce/shop/customization/?cart=") {
		t.Fatalf("funnel_url %q", funnelURL)
	}
	do("customization", chromedp.Navigate(funnelURL), chromedp.WaitVisible(`#customization`))
	checkAxe("customization")
	do("two teapots", chromedp.SetValue(`input[name="lines.0.quantity"]`, "2"), chromedp.Click(`#f-delivery_mode-postal`))
	submit("customization", `button[value="continue"]`)
	do("information", chromedp.WaitVisible(`#information`))
	checkAxe("information")
	do("information",
		chromedp.SendKeys(`input[autocomplete="given-name"]`, "Ada"),
		chromedp.SendKeys(`input[autocomplete="family-name"]`, "Lovelace"),
		chromedp.SendKeys(`input[autocomplete="email"]`, "ada@example.com"),
		chromedp.SendKeys(`input[autocomplete="tel"]`, "+33 6 12 34 56 78"),
		chromedp.SendKeys(`input[autocomplete="street-address"]`, "12 rue des Fleurs"),
		chromedp.SendKeys(`input[autocomplete="postal-code"]`, "75011"),
		chromedp.SendKeys(`input[autocomplete="address-level2"]`, "Paris"),
		chromedp.SendKeys(`input[autocomplete="country"]`, "FR"))
	submit("information", `#information button[type="submit"]`)
	do("payment", chromedp.WaitVisible(`#to-pay`))
	checkAxe("payment")
	do("codes",
		chromedp.SendKeys(`#f-coupon`, "WELCOME10"),
		chromedp.SendKeys(`#f-giftcard`, card))
	submit("codes", `button[value="apply"]`)
	checkAxe("payment with codes")
	toPay := textOf(t, ctx, `#to-pay`)
	// Two teapots at 68.00 and a bowl at 24.00, by post at 4.90, less 10 %
	// of the lines, 16.00, less what the card holds.
	wantToPay := decimal.RequireFromString("148.90").Sub(before)
	if !strings.Contains(strings.ReplaceAll(toPay, ",", "."), wantToPay.StringFixed(2)) {
		t.Fatalf("to pay %q, want %s (giftcard %s)", toPay, wantToPay.StringFixed(2), before)
	}
	submit("pay", `button[value="pay"]`)
	do("card", chromedp.SendKeys(`#card_number`, psp.CardThreeDSecure))
	submit("card", `#card_number ~ button[type="submit"]`)
	do("3-D Secure page", chromedp.WaitVisible(`button[value="authenticate"]`))
	do("3-D Secure", chromedp.Click(`button[value="authenticate"]`))
	landed := waitLocation(t, ctx, regexp.MustCompile(`^https://shop\.example\.org/`))
	m := regexp.MustCompile(`^https://shop\.example\.org/thanks\?from=funnel&order_reference=(EC-[A-Z0-9]+)$`).FindStringSubmatch(landed)
	if m == nil {
		t.Fatalf("landed on %q", landed)
	}

	// What the shop's API then shows.
	if res := api("GET", "/api/v2/ecommerce/cart/"+cartID+"/", "", tokens["demo-atelier"]); res.Status != http.StatusNotFound {
		t.Errorf("the cart after the order: %d", res.Status)
	}
	orders := api("GET", "/api/v2/ecommerce/orders/?status=paid", "", tokens["demo-atelier"]).JSON(t)
	var order map[string]any
	for _, o := range orders["results"].([]any) {
		if o.(map[string]any)["reference"] == m[1] {
			order = o.(map[string]any)
		}
	}
	if order == nil {
		t.Fatalf("no paid order %s: %v", m[1], orders)
	}
	if lines := order["lines"].([]any); len(lines) != 2 || lines[0].(map[string]any)["quantity"] != float64(2) {
		t.Errorf("the order's lines: %v", lines)
	}
	if p := order["payment"].(map[string]any); p["status"] != "ok" || p["amount"] != wantToPay.StringFixed(2) {
		t.Errorf("the order's payment: %v", p)
	}
	if g := order["giftcard"].(map[string]any); g["amount"] != before.StringFixed(2) || g["usage_id"] == nil {
		t.Errorf("the order's giftcard: %v", g)
	}
	if after := balance(); !after.IsZero() {
		t.Errorf("the giftcard after the order: %s, want 0.00 (it held %s)", after, before)
	}
	if uses := couponUses(); uses != beforeUses+1 {
		t.Errorf("the coupon counted %d times, want %d", uses, beforeUses+1)
	}
	if teapots, celadons := stock(); int(teapots) != beforeTeapots-2 || int(celadons) != beforeCeladons-1 {
		t.Errorf("stock: %d teapots and %d celadon bowls, want %d and %d", teapots, celadons, beforeTeapots-2, beforeCeladons-1)
	}

	// A declined card: no order, the hold released, the cart kept.
	refill := decimal.RequireFromString("40.00")
	_, err = db.NewRaw(`UPDATE network_giftcards SET remaining_value = ? WHERE code = ?`, refill, card).Exec(context.Background())
	gcMust(t, err)
	cartID, funnelURL = newCart()
	do("customization again", chromedp.Navigate(funnelURL), chromedp.WaitVisible(`#customization`),
		chromedp.Click(`#f-delivery_mode-email`))
	submit("customization again", `button[value="continue"]`)
	do("information again",
		chromedp.SendKeys(`input[autocomplete="given-name"]`, "Grace"),
		chromedp.SendKeys(`input[autocomplete="family-name"]`, "Hopper"),
		chromedp.SendKeys(`input[autocomplete="email"]`, "grace@example.com"),
		chromedp.SendKeys(`input[autocomplete="tel"]`, "0612345678"))
	submit("information again", `#information button[type="submit"]`)
	do("giftcard again", chromedp.SendKeys(`#f-giftcard`, card))
	submit("giftcard again", `button[value="apply"]`)
	submit("pay again", `button[value="pay"]`)
	do("declined card", chromedp.SendKeys(`#card_number`, psp.CardDecline))
	submit("declined card", `#card_number ~ button[type="submit"]`)
	waitLocation(t, ctx, regexp.MustCompile(`/ecommerce/shop/payment/\?cart=.*&payment=failed$`))
	do("payment failed", chromedp.WaitVisible(`#message`))
	checkAxe("payment failed")
	if res := api("GET", "/api/v2/ecommerce/cart/"+cartID+"/", "", tokens["demo-atelier"]); res.Status != http.StatusOK {
		t.Errorf("the cart after a declined card: %d", res.Status)
	}
	if after := balance(); !after.Equal(refill) {
		t.Errorf("the giftcard after a declined card: %s, want %s", after, refill)
	}
	if n := api("GET", "/api/v2/ecommerce/orders/?status=paid", "", tokens["demo-atelier"]).JSON(t)["count"]; n != float64(1) {
		t.Errorf("paid orders after a declined card: %v", n)
	}

	// An unknown cart: the page says so, in the customer's language.
	u, _ := url.Parse(funnelURL)
	q := u.Query()
	q.Set("cart", "00000000-0000-4000-8000-000000000000")
	q.Set("lang", "fr")
	u.RawQuery = q.Encode()
	// (Navigate would wait for a success: the page is a 404.)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.assign(`+strconv.Quote(u.String())+`); true`)); err != nil {
		t.Fatal(err)
	}
	waitLocation(t, ctx, regexp.MustCompile(`cart=00000000-`))
	if text := textOf(t, ctx, `h1`); text != "Panier introuvable" {
		t.Errorf("unknown cart: %q", text)
	}
	checkAxe("unknown cart")

	requested, problems := tab.Seen()
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

// waitLocation waits, at most 20 seconds, for the tab to be on a URL
// that matches want (through the redirects and refreshes it follows),
// and returns it.
func waitLocation(t *testing.T, ctx context.Context, want *regexp.Regexp) string {
	t.Helper()
	var at string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState === "complete" ? location.href : ""`))
		if err == nil && want.MatchString(href) {
			return href
		}
		if err == nil && href != "" {
			at = href
		}
	}
	t.Fatalf("the browser is on %q, not on %s", at, want)
	return ""
}

// textOf is the text of the element sel.
func textOf(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(sel))
	gcMust(t, err)
	return s
}
