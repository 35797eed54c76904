package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// benchShop is the demo seeded into a fresh database and the handler on
// it: the atelier's shop on its site domain, a cart of three lines (a
// teapot with its gift wrap, a bowl in a colour, two printable gift
// cards) delivered by post.
type benchShop struct {
	h        http.Handler
	db       *bun.DB
	stmts    *dbtest.StatementCounter // the statements of the handler's pool
	token    string                   // the atelier's
	cartBody string
}

const benchSite = "http://atelier.localhost"

// newBenchShop seeds the demo. The teapot and the bowl's colour get a
// stock no run sells out (the demo has 3 and 5): paying still takes
// from it by the guarded update, as for any limited product.
func newBenchShop(b *testing.B) *benchShop {
	b.Helper()
	dsn := dbtest.NewDSN(b)
	tokens := SeedDemo(b, dsn, b.TempDir())
	ctx := context.Background()
	stmts := &dbtest.StatementCounter{}
	db, err := dbtest.OpenCounted(ctx, dsn, stmts)
	must(b, err)
	b.Cleanup(func() { db.Close() })
	var teapot, bowl, celadon, giftWrap, giftCard int64
	must(b, db.NewRaw(`SELECT (SELECT id FROM ecommerce_products WHERE name->>'en' = 'Porcelain teapot'),
		(SELECT id FROM ecommerce_products WHERE name->>'en' = 'Stoneware bowl'),
		(SELECT id FROM ecommerce_variants WHERE name->>'en' = 'Celadon blue'),
		(SELECT a.id FROM ecommerce_attributes a JOIN ecommerce_products p ON p.id = a.product_id WHERE p.name->>'en' = 'Porcelain teapot'),
		(SELECT id FROM ecommerce_products WHERE name->>'en' = 'Printable gift card' AND stock IS NULL)`).
		Scan(ctx, &teapot, &bowl, &celadon, &giftWrap, &giftCard))
	_, err = db.NewRaw(`UPDATE ecommerce_products SET stock = 1000000 WHERE id = ?`, teapot).Exec(ctx)
	must(b, err)
	_, err = db.NewRaw(`UPDATE ecommerce_variants SET stock = 1000000 WHERE id = ?`, celadon).Exec(ctx)
	must(b, err)
	return &benchShop{h: Handler(b, db), db: db, stmts: stmts, token: tokens["demo-atelier"], cartBody: fmt.Sprintf(`{"items": [
		{"product_id": %d, "quantity": 1, "attribute_values": {"%d": "yes"}},
		{"product_id": %d, "quantity": 1, "variant_id": %d},
		{"product_id": %d, "quantity": 2}], "return_url": "https://shop.example.org/thanks?from=funnel"}`, teapot, giftWrap, bowl, celadon, giftCard)}
}

// benchBrowser is funnelBrowser without the contract's checks (a
// checkout's time would count them), for any
// testing.TB and from several goroutines (one browser each): cookies,
// the page's form token, and the request sent apart from its answer so
// that a benchmark can time the handler alone.
type benchBrowser struct {
	h       http.Handler
	cookies map[string]string
	csrf    string // the last page's form token
}

func (s *benchShop) browser() *benchBrowser {
	return &benchBrowser{h: s.h, cookies: map[string]string{}}
}

// request is a request of the browser, with its cookies; a body is a
// form posted from the target's own origin.
func (c *benchBrowser) request(method, target string, form url.Values) *http.Request {
	var req *http.Request
	if form == nil {
		req = httptest.NewRequest(method, target, nil)
	} else {
		req = httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", req.URL.Scheme+"://"+req.URL.Host)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for name, value := range c.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	return req
}

// serve sends req to the handler and keeps the answer's cookies and form
// token.
func (c *benchBrowser) serve(req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	c.keep(rec)
	return rec
}

func (c *benchBrowser) keep(rec *httptest.ResponseRecorder) {
	for _, k := range rec.Result().Cookies() {
		if k.MaxAge < 0 {
			delete(c.cookies, k.Name)
		} else {
			c.cookies[k.Name] = k.Value
		}
	}
	if m := csrfField.FindStringSubmatch(rec.Body.String()); m != nil {
		c.csrf = m[1]
	}
}

// page GETs target and checks it is a 200 showing the markers.
func (c *benchBrowser) page(tb testing.TB, target string, markers ...string) {
	tb.Helper()
	wantPage(tb, c.serve(c.request(http.MethodGet, target, nil)), markers...)
}

// post submits form with the last page's token to target and returns
// where it was sent (a 303's Location, checked against pattern).
func (c *benchBrowser) post(tb testing.TB, target string, form url.Values, pattern *regexp.Regexp) string {
	tb.Helper()
	return wantSeeOther(tb, c.serve(c.request(http.MethodPost, target, c.withToken(form))), pattern)
}

func (c *benchBrowser) withToken(form url.Values) url.Values {
	f := url.Values{"csrf_token": {c.csrf}}
	for k, v := range form {
		f[k] = v
	}
	return f
}

func wantPage(tb testing.TB, rec *httptest.ResponseRecorder, markers ...string) {
	tb.Helper()
	for _, m := range markers {
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), m) {
			tb.Fatalf("%d without %q: %s", rec.Code, m, mainOf(rec.Body.String()))
		}
	}
}

func wantSeeOther(tb testing.TB, rec *httptest.ResponseRecorder, pattern *regexp.Regexp) string {
	tb.Helper()
	loc := rec.Header().Get("Location")
	if rec.Code != http.StatusSeeOther || !pattern.MatchString(loc) {
		tb.Fatalf("%d Location %q, want 303 to %s: %s", rec.Code, loc, pattern, mainOf(rec.Body.String()))
	}
	return loc
}

var (
	funnelURLField = regexp.MustCompile(`"funnel_url":\s*"https://atelier\.localhost(/ecommerce/shop/customization/\?cart=[0-9a-f-]{36})"`)
	toInformation  = regexp.MustCompile(`^/ecommerce/shop/information/\?cart=`)
	toPayment      = regexp.MustCompile(`^/ecommerce/shop/payment/\?cart=`)
	toCardPage     = regexp.MustCompile(`^http://api\.test/psp/sim/card/[^/]+/$`)
	toSummary      = regexp.MustCompile(`^http://atelier\.localhost/ecommerce/shop/summary/\?order=[0-9a-f-]{36}$`)
)

// The forms of the steps, as the customer fills them.
var (
	benchCustomization = url.Values{"lines.0.quantity": {"1"}, "lines.1.quantity": {"1"}, "lines.2.quantity": {"2"},
		"delivery_mode": {"postal"}, "action": {"continue"}}
	benchInformation = url.Values{"first_name": {"Ada"}, "last_name": {"Lovelace"}, "email": {"ada@example.com"},
		"phone": {"+33 6 12 34 56 78"}, "street": {"12 rue des Fleurs"}, "postal_code": {"75011"}, "city": {"Paris"}, "country": {"FR"}}
	benchCodes = url.Values{"coupon": {"WELCOME10"}, "giftcard": {"DEMO-NGC-PAID"}, "action": {"apply"}}
	benchPay   = url.Values{"action": {"pay"}}
)

// Markers of the steps' pages.
const (
	customizationMarker = `id="f-delivery_mode-postal"`
	informationMarker   = `autocomplete="street-address"`
	paymentMarker       = `id="to-pay"`
)

// thankYouMarkers are on the thank-you page of a paid order only: its
// reference, and the refresh to the shop's return_url with it.
var thankYouMarkers = []string{`id="order-reference"`, `from=funnel&amp;order_reference=EC-`}

// funnel is a cart of the shop's, taken through the funnel's steps by
// its own browser.
type funnel struct {
	c                                  *benchBrowser
	custom, info, payment, card, order string
}

// newCart creates the cart with the atelier's token, as its shop's
// backend does, and returns its customization page's URL.
func (s *benchShop) newCart(tb testing.TB) *funnel {
	tb.Helper()
	req := httptest.NewRequest(http.MethodPost, "http://api.test/api/v2/ecommerce/cart/", strings.NewReader(s.cartBody))
	req.Header.Set("Authorization", "Token "+s.token)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	m := funnelURLField.FindStringSubmatch(rec.Body.String())
	if rec.Code != http.StatusCreated || m == nil {
		tb.Fatalf("cart: %d %s", rec.Code, rec.Body)
	}
	return &funnel{c: s.browser(), custom: benchSite + m[1]}
}

// The steps, each from the state the one before left, each checking its
// answer.
func (f *funnel) customization(tb testing.TB) { f.c.page(tb, f.custom, customizationMarker) }
func (f *funnel) customize(tb testing.TB) {
	f.info = benchSite + f.c.post(tb, f.custom, benchCustomization, toInformation)
}
func (f *funnel) information(tb testing.TB) { f.c.page(tb, f.info, informationMarker) }
func (f *funnel) inform(tb testing.TB) {
	f.payment = benchSite + f.c.post(tb, f.info, benchInformation, toPayment)
}
func (f *funnel) paymentPage(tb testing.TB) { f.c.page(tb, f.payment, paymentMarker) }

// startPay posts the payment step's pay form, which sends to the
// provider's card page.
func (f *funnel) startPay(tb testing.TB) { f.card = f.c.post(tb, f.payment, benchPay, toCardPage) }

// cardRequest posts a card that succeeds on the provider's page (a page
// of its own, without the funnel's form token).
func (f *funnel) cardRequest() *http.Request {
	req := f.c.request(http.MethodPost, f.card, url.Values{"card_number": {psp.CardSuccess}})
	req.Header.Del("Origin")
	req.Header.Del("Sec-Fetch-Site")
	return req
}

func (f *funnel) submitCard(tb testing.TB) {
	tb.Helper()
	wantSeeOther(tb, f.c.serve(f.cardRequest()), f.cardAgain())
}

// cardAgain is the provider's answer to the card: its page again, which
// then sends back to the shop.
func (f *funnel) cardAgain() *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(strings.TrimPrefix(f.card, "http://api.test")) + `$`)
}

// backFromCard follows the provider's page back to the summary.
func (f *funnel) backFromCard(tb testing.TB) {
	f.order = wantSeeOther(tb, f.c.serve(f.c.request(http.MethodGet, f.card, nil)), toSummary)
}

func (f *funnel) thankYou(tb testing.TB) { f.c.page(tb, f.order, thankYouMarkers...) }

// whole is a checkout from the cart to the thank-you page.
func (s *benchShop) whole(tb testing.TB) {
	tb.Helper()
	f := s.newCart(tb)
	f.customization(tb)
	f.customize(tb)
	f.information(tb)
	f.inform(tb)
	f.paymentPage(tb)
	f.startPay(tb)
	f.submitCard(tb)
	f.backFromCard(tb)
	f.thankYou(tb)
}

// BenchmarkFunnelPages measures each page of the checkout funnel and each
// of its main forms, on the demo's atelier shop: the server's time of
// that request alone, through the whole handler, the cart brought to the
// step before it outside the timer (a fresh cart for each request). Each
// answer is checked: the page's status and a marker of its content, or
// the form's 303 to the next step.
func BenchmarkFunnelPages(b *testing.B) {
	s := newBenchShop(b)
	type step = func(*funnel, testing.TB)
	then := func(before []step, more ...step) []step { return slices.Concat(before, more) }
	// The steps before each request.
	shown := []step{(*funnel).customization}
	customized := then(shown, (*funnel).customize)
	informed := then(customized, (*funnel).information, (*funnel).inform)
	atPayment := then(informed, (*funnel).paymentPage)
	atCard := then(atPayment, (*funnel).startPay)
	back := then(atCard, (*funnel).submitCard, (*funnel).backFromCard)
	var paid *funnel // the order whose thank-you page is shown again
	get := func(url func(*funnel) string) func(*funnel) *http.Request {
		return func(f *funnel) *http.Request { return f.c.request(http.MethodGet, url(f), nil) }
	}
	post := func(url func(*funnel) string, form url.Values) func(*funnel) *http.Request {
		return func(f *funnel) *http.Request { return f.c.request(http.MethodPost, url(f), f.c.withToken(form)) }
	}
	custom := func(f *funnel) string { return f.custom }
	info := func(f *funnel) string { return f.info }
	payment := func(f *funnel) string { return f.payment }
	order := func(f *funnel) string { return f.order }
	for _, c := range []struct {
		name    string
		prepare func(testing.TB) *funnel
		request func(*funnel) *http.Request
		check   func(*funnel, testing.TB, *httptest.ResponseRecorder)
	}{
		{"customization", s.newCart, get(custom), pageOf(customizationMarker)},
		{"customization_continue", s.stepsTo(shown), post(custom, benchCustomization), redirectTo(toInformation)},
		{"information", s.stepsTo(customized), get(info), pageOf(informationMarker)},
		{"information_submit", s.stepsTo(then(customized, (*funnel).information)), post(info, benchInformation), redirectTo(toPayment)},
		{"payment", s.stepsTo(informed), get(payment), pageOf(paymentMarker)},
		{"payment_apply_codes", s.stepsTo(atPayment), post(payment, benchCodes), redirectTo(toPayment)},
		{"payment_pay", s.stepsTo(atPayment), post(payment, benchPay), redirectTo(toCardPage)},
		// The simulated provider's card page: the charge, and the order
		// completed by the payment's settlement hook.
		{"provider_card_submit", s.stepsTo(atCard), (*funnel).cardRequest,
			func(f *funnel, tb testing.TB, rec *httptest.ResponseRecorder) { wantSeeOther(tb, rec, f.cardAgain()) }},
		// The first visit to the thank-you page (it forgets the cart).
		{"summary_first", s.stepsTo(back), get(order), pageOf(thankYouMarkers...)},
		// The thank-you page of a paid order, again.
		{"summary", func(tb testing.TB) *funnel {
			if paid == nil {
				paid = s.stepsTo(then(back, (*funnel).thankYou))(tb)
			}
			return paid
		}, get(order), pageOf(thankYouMarkers...)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			stmts := 0
			for b.Loop() {
				b.StopTimer()
				f := c.prepare(b)
				req, rec := c.request(f), httptest.NewRecorder()
				s.stmts.Reset()
				b.StartTimer()
				s.h.ServeHTTP(rec, req)
				b.StopTimer()
				stmts += s.stmts.Count()
				c.check(f, b, rec)
				f.c.keep(rec)
				b.StartTimer()
			}
			b.ReportMetric(float64(stmts)/float64(b.N), "stmts/op")
		})
	}
}

// stepsTo is a fresh cart taken through steps.
func (s *benchShop) stepsTo(steps []func(*funnel, testing.TB)) func(testing.TB) *funnel {
	return func(tb testing.TB) *funnel {
		f := s.newCart(tb)
		for _, step := range steps {
			step(f, tb)
		}
		return f
	}
}

func pageOf(markers ...string) func(*funnel, testing.TB, *httptest.ResponseRecorder) {
	return func(_ *funnel, tb testing.TB, rec *httptest.ResponseRecorder) { wantPage(tb, rec, markers...) }
}

func redirectTo(pattern *regexp.Regexp) func(*funnel, testing.TB, *httptest.ResponseRecorder) {
	return func(_ *funnel, tb testing.TB, rec *httptest.ResponseRecorder) { wantSeeOther(tb, rec, pattern) }
}

// BenchmarkCheckoutCompleted measures whole checkouts on the demo's
// atelier shop, from 4 goroutines per core: the cart created by the
// shop's backend, then every page and form of the funnel, the provider's
// card page, and the thank-you page, which must show the paid order's
// reference. It reports completed checkouts per second. Afterwards the
// shop must hold one more paid order per checkout.
func BenchmarkCheckoutCompleted(b *testing.B) {
	s := newBenchShop(b)
	before := s.paidOrders(b)
	s.whole(b) // warm: the first checkout is checked before timing
	s.stmts.Reset()
	var failed atomic.Value
	b.SetParallelism(4)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := checkoutErr(s); err != nil {
				failed.Store(err)
				return
			}
		}
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	if paid := s.paidOrders(b) - before; paid != b.N+1 { // and the warm-up's
		b.Fatalf("%d paid orders after %d checkouts", paid, b.N+1)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "checkouts/s")
	b.ReportMetric(float64(s.stmts.Count())/float64(b.N), "stmts/op")
}

// paidOrders is how many paid orders of the funnel the database holds.
func (s *benchShop) paidOrders(b *testing.B) int {
	var n int
	must(b, s.db.NewRaw(`SELECT count(*) FROM ecommerce_orders e JOIN orders o ON o.id = e.order_id
		WHERE o.status = 'paid'`).Scan(context.Background(), &n))
	return n
}

// checkoutErr is whole in a goroutine of RunParallel, where a benchmark
// may not fail: the failure comes back as an error.
func checkoutErr(s *benchShop) (err error) {
	r := &goroutineTB{}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
		if r.failed {
			err = fmt.Errorf("checkout: %s", r.msg)
		}
	}()
	s.whole(r)
	return nil
}

// goroutineTB is a testing.TB for a goroutine: Fatalf records the message
// and unwinds the checkout.
type goroutineTB struct {
	testing.TB
	failed bool
	msg    string
}

func (r *goroutineTB) Helper() {}

func (r *goroutineTB) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	panic(r)
}
