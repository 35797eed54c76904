package e2e

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/domain/account"
	"salesplatform/domain/cart"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

var (
	inlineStyle  = regexp.MustCompile(`(?is)<style>(.*?)</style>`)
	inlineScript = regexp.MustCompile(`(?is)<script>`)
)

// wantPageHeaders checks an HTML answer's security headers: nothing
// allowed by default, no framing, no <base>, forms only to formAction
// (stated, whatever it is, when ""),
// inline styles only by their hashes (or where the page lets a library
// inject them), no inline script, no referrer, no sniffing.
func wantPageHeaders(t *testing.T, res Response, formAction string) {
	t.Helper()
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("%d %s: not a page: %s", res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	csp := map[string]string{}
	for d := range strings.SplitSeq(res.Header.Get("Content-Security-Policy"), ";") {
		name, sources, _ := strings.Cut(strings.TrimSpace(d), " ")
		csp[name] = sources
	}
	for name, want := range map[string]string{
		"default-src": "'none'", "frame-ancestors": "'none'", "base-uri": "'none'", "form-action": formAction,
	} {
		if got, ok := csp[name]; !ok || (got != want && want != "") {
			t.Errorf("%s %q, want %q (CSP %q)", name, csp[name], want, res.Header.Get("Content-Security-Policy"))
		}
	}
	for _, m := range inlineStyle.FindAllStringSubmatch(res.Body, -1) {
		sum := sha256.Sum256([]byte(m[1]))
		hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !strings.Contains(csp["style-src"], hash) && !strings.Contains(csp["style-src"], "'unsafe-inline'") {
			t.Errorf("style-src %q does not allow the page's <style> (%s)", csp["style-src"], hash)
		}
	}
	if inlineScript.MatchString(res.Body) {
		t.Error("an inline <script>")
	}
	if res.Header.Get("Referrer-Policy") != "no-referrer" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("Referrer-Policy %q, X-Content-Type-Options %q", res.Header.Get("Referrer-Policy"), res.Header.Get("X-Content-Type-Options"))
	}
}

// Every HTML page the service serves, in its outcomes, through the whole
// handler.
func TestPageSecurityHeaders(t *testing.T) {
	t.Parallel()
	f := newPayFixture(t)
	f.inHub(t)
	const form = "Content-Type"
	const urlencoded = "application/x-www-form-urlencoded"

	// The funnel: on a partner's own domain (the request's Host), and
	// under /p/{partner}/.
	const shopSite = "http://shop.example.com"
	shop := dbtest.MustAccount(t, f.accounts, account.NewAccountInput{Username: "funnelshop", PartnerName: "Funnel shop", PartnerDomain: "shop.example.com"})
	cartOf := func(token string) map[string]any {
		res := f.call(t, http.MethodPost, "/api/v2/ecommerce/cart/", token, `{"items": [{"product_id": 31, "quantity": 4}]}`)
		if res.Status != http.StatusCreated && res.Status != http.StatusOK {
			t.Fatalf("cart: %d %s", res.Status, res.Body)
		}
		return res.JSON(t)
	}
	shopCart := cartOf(shop.Token)["id"].(string)
	pathFunnel := strings.TrimPrefix(cartOf(f.marketTok)["funnel_url"].(string), "http://api.test")
	if !strings.HasPrefix(pathFunnel, "/p/") {
		t.Fatalf("funnel_url %q", pathFunnel)
	}

	// A payment request's page, the provider's card, 3-D Secure and
	// activation pages.
	payURL := f.request(t)["payment_url"].(string)
	cardPage := f.payRequest(t, f.request(t)) // awaiting the card
	card3DS := f.payRequest(t, f.request(t))
	if res := f.form(t, card3DS, "card_number="+psp.CardThreeDSecure); res.Status != http.StatusSeeOther {
		t.Fatalf("3-D Secure card: %d %s", res.Status, res.Body)
	}
	activation := f.call(t, http.MethodPost, hubBase+f.inactiveUUID+"/activate-payments/", f.marketTok, "").JSON(t)

	// The pay page's form goes to the page, then to the provider's card
	// page (the simulated provider's: at the public base URL).
	const payForm, self, none = "'self' http://api.test", "'self'", "'none'"
	for _, c := range []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		formAction               string
	}{
		{"funnel, partner's domain", "GET", shopSite + "/ecommerce/shop/customization/?cart=" + shopCart, "", nil, 200, self},
		{"funnel, order step", "GET", shopSite + "/ecommerce/order/customization/?cart=" + shopCart, "", nil, 200, self},
		{"funnel, partner's path", "GET", pathFunnel, "", nil, 200, self},
		{"funnel, no cart", "GET", shopSite + "/ecommerce/shop/customization/", "", nil, 400, self},
		{"funnel, unknown partner", "GET", "/p/nope/ecommerce/shop/customization/?cart=" + shopCart, "", nil, 404, self},
		{"pay page", "GET", payURL, "", nil, 200, payForm},
		{"pay page, HEAD", "HEAD", payURL, "", nil, 200, payForm},
		{"pay page, unknown code", "GET", "/pay/AAAAAAAAAAAA/", "", nil, 404, none},
		{"pay form, unknown code", "POST", "/pay/AAAAAAAAAAAA/", "", []string{form, urlencoded}, 404, none},
		{"provider's card page", "GET", cardPage, "", nil, 200, self},
		{"provider's card page, 3-D Secure asked", "GET", card3DS, "", nil, 303, none}, // on to the challenge
		{"provider's 3-D Secure page", "GET", strings.Replace(card3DS, "/card/", "/3ds/", 1), "", nil, 200, self},
		{"provider's activation page", "GET", pagePath(t, activation["user_action_url"].(string)), "", nil, 200, self},
		{"provider's form, no decision", "POST", pagePath(t, activation["user_action_url"].(string)), "decision=maybe", []string{form, urlencoded}, 400, self},
		{"provider's unknown page", "GET", "/psp/sim/nothing/", "", nil, 404, self},
		{"playground", "GET", "/playground", "", nil, 200, none},
		{"playground, folder", "GET", "/playground/", "", nil, 200, none},
		{"API reference", "GET", "/api/schema/docs/", "", nil, 200, none},
		// An answer no page helper wrote: net/http's redirect body, which
		// the safety net covers.
		{"GraphQL endpoint in a browser", "GET", "/graphql", "", []string{"Accept", "text/html"}, 303, none},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := f.call(t, c.method, c.path, "", c.body, c.headers...)
			if res.Status != c.status {
				t.Fatalf("%d, want %d: %s", res.Status, c.status, res.Body)
			}
			wantPageHeaders(t, res, c.formAction)
			if c.name == "API reference" && !strings.Contains(res.Header.Get("Content-Security-Policy"), "worker-src 'self' blob:") {
				t.Errorf("the viewer's search worker: %s", res.Header.Get("Content-Security-Policy"))
			}
		})
	}

	// Every route of the router, its path variables "1", read through the
	// whole handler: an HTML answer, whichever, has the headers.
	router, _ := app.NewRouter(f.db, cartstore.NewMemory(10), &app.Config{PasswordHashing: dbtest.CheapHashing, DataDir: t.TempDir(),
		CartTTL: cart.DefaultCartTTL, PublicBaseURL: "http://api.test"}, app.NewLogger(io.Discard, 0))
	pages, seen := 0, map[string]bool{}
	err := router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tpl, err := route.GetPathTemplate()
		if err != nil {
			return nil
		}
		path := pathVariable.ReplaceAllString(strings.ReplaceAll(tpl, "{slash:/?}", "/"), "1")
		if seen[path] { // another method's route
			return nil
		}
		seen[path] = true
		for _, target := range []string{path, shopSite + path} {
			res := f.call(t, http.MethodGet, target, "", "", "Accept", "text/html")
			if strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				pages++
				t.Run("GET "+target, func(t *testing.T) { wantPageHeaders(t, res, "") })
			}
		}
		return nil
	})
	if err != nil || pages < 10 {
		t.Errorf("walked the routes: %d pages, %v", pages, err)
	}

	// JSON answers carry no page policy.
	if res := f.call(t, http.MethodGet, "/api/nothing-here/", "", ""); res.Header.Get("Content-Security-Policy") != "" {
		t.Errorf("a JSON answer got a CSP: %v", res.Header)
	}
}
