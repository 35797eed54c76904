package e2e

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"salesplatform/domain/account"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// funnelFixture is a shop on its own site domain (shop.example.com) and
// one without (served under /p/{uuid}/), both taking card payments, with
// delivery by e-mail (free), post (4.90, 3 days) and pick-up; the shop
// sells a mug (10.00, five left, in two colours), the other a poster at
// 15.00.
type funnelFixture struct {
	h                http.Handler
	db               *bun.DB
	dsn              string // db's, for the webhook deliveries' worker
	shopTok, pathTok string
	pathUUID         string
	mug, poster      int64
	colour           int64 // the mug's attribute
}

const funnelSite = "http://shop.example.com"

func newFunnelFixture(t *testing.T) *funnelFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	db := OpenDB(t, dsn)
	f := &funnelFixture{h: Handler(t, db), db: db, dsn: dsn}
	accounts := account.NewAccountService(persistence.NewDatabase(db), nil, dbtest.CheapHashing)
	shop := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop", PartnerName: "Shop & Co", PartnerDomain: "shop.example.com",
		Permissions: []string{"permissions.access_financial_management_order_lines"}}) // refunds its orders
	path := dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "nosite", PartnerName: "No Site"})
	f.shopTok, f.pathTok, f.pathUUID = shop.Token, path.Token, path.Partner.UUID.String()
	for _, p := range []int64{shop.Partner.ID, path.Partner.ID} {
		f.exec(t, `INSERT INTO payment_partners (partner_id, legal_representative_email, payout_frequency) VALUES (?, 'rep@example.com', 'week')`, p)
		f.exec(t, `INSERT INTO payment_partner_activations (id, partner_id, provider, provider_ref, status, user_action_url, completed_on)
			VALUES (?, ?, 'simulated', ?, 'COMPLETED', '', now())`, uuid.New(), p, uuid.NewString())
		f.exec(t, `INSERT INTO ecommerce_delivery_settings (partner_id, email, postal, postal_cost, postal_days, pickup, pickup_cost, pickup_address)
			VALUES (?, true, true, 4.90, 3, true, 0, '1 rue du Port')`, p)
	}
	gcMust(t, db.NewRaw(`INSERT INTO ecommerce_products (partner_id, name, price, vat_rate, stock)
		VALUES (?, '{"en": "Mug", "fr": "Tasse"}', 10, 20, 5) RETURNING id`, shop.Partner.ID).Scan(context.Background(), &f.mug))
	gcMust(t, db.NewRaw(`INSERT INTO ecommerce_attributes (product_id, name, "values")
		VALUES (?, '{"en": "Colour", "fr": "Couleur"}', '{red,blue}') RETURNING id`, f.mug).Scan(context.Background(), &f.colour))
	gcMust(t, db.NewRaw(`INSERT INTO ecommerce_products (partner_id, name, price, vat_rate)
		VALUES (?, '{"en": "Poster"}', 15, 20) RETURNING id`, path.Partner.ID).Scan(context.Background(), &f.poster))
	return f
}

func (f *funnelFixture) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	_, err := f.db.NewRaw(q, args...).Exec(context.Background())
	gcMust(t, err)
}

// cart creates a cart with the token and returns its id and funnel_url.
func (f *funnelFixture) cart(t *testing.T, token, body string) (id, funnelURL string) {
	t.Helper()
	res := f.browser().do(t, http.MethodPost, "http://api.test/api/v2/ecommerce/cart/", body,
		"Authorization", "Token "+token, "Content-Type", "application/json")
	if res.Status != http.StatusCreated {
		t.Fatalf("cart: %d %s", res.Status, res.Body)
	}
	m := res.JSON(t)
	return m["id"].(string), m["funnel_url"].(string)
}

// funnelBrowser is a customer's browser without script: it keeps
// cookies, and posts a page's forms with their hidden fields, from the
// page's own origin.
type funnelBrowser struct {
	h       http.Handler
	cookies map[string]string
}

func (f *funnelFixture) browser() *funnelBrowser {
	return &funnelBrowser{h: f.h, cookies: map[string]string{}}
}

func (b *funnelBrowser) do(t *testing.T, method, target, body string, headers ...string) Response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	for name, value := range b.cookies {
		req.AddCookie(&http.Cookie{Name: name, Value: value})
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	b.h.ServeHTTP(rec, req)
	CheckContract(t, req, rec.Code, rec.Header(), rec.Body.Bytes())
	for _, c := range rec.Result().Cookies() {
		if c.MaxAge < 0 {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c.Value
		}
	}
	return Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
}

func (b *funnelBrowser) get(t *testing.T, target string, headers ...string) Response {
	t.Helper()
	return b.do(t, http.MethodGet, target, "", headers...)
}

var csrfField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// submit posts form to the page at target as the page's form would: its
// token, from its own origin.
func (b *funnelBrowser) submit(t *testing.T, page Response, target string, form url.Values) Response {
	t.Helper()
	m := csrfField.FindStringSubmatch(page.Body)
	if m == nil {
		t.Fatalf("no form token on the page: %s", page.Body)
	}
	form.Set("csrf_token", m[1])
	u, _ := url.Parse(target)
	return b.do(t, http.MethodPost, target, form.Encode(), "Content-Type", "application/x-www-form-urlencoded",
		"Origin", u.Scheme+"://"+u.Host, "Sec-Fetch-Site", "same-origin")
}

// wantFunnelPage checks a step's page: its status, its headers (the page
// posts only to itself, the pay form to the provider too), under 100 KB, and the texts it must show.
func wantFunnelPage(t *testing.T, res Response, status int, texts ...string) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("%d, want %d: %s", res.Status, status, mainOf(res.Body))
	}
	forms := "'self'"
	if strings.Contains(res.Body, `id="pay"`) { // redirected to the provider's card page
		forms = "'self' http://api.test"
	}
	wantPageHeaders(t, res, forms)
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q", res.Header.Get("Cache-Control"))
	}
	if len(res.Body) > 100_000 {
		t.Errorf("a page of %d bytes", len(res.Body))
	}
	for _, s := range texts {
		if !strings.Contains(res.Body, s) {
			t.Errorf("the page lacks %q:\n%s", s, mainOf(res.Body))
		}
	}
}

// mainOf is a page's <main>, what a failure shows of it.
func mainOf(page string) string {
	if _, after, ok := strings.Cut(page, "<main>"); ok {
		page = after
	}
	return page[:min(len(page), 3000)]
}

// An unknown, lapsed or foreign cart is a 404 page in the customer's
// language, with the way back to the shop: its site, or the origin of
// the return_url of a cart seen; nothing under /p/{uuid}/ otherwise.
func TestFunnelUnknownCart(t *testing.T) {
	t.Parallel()
	f := newFunnelFixture(t)
	unknown := uuid.NewString()
	b := f.browser()
	res := b.get(t, funnelSite+"/ecommerce/shop/customization/?lang=fr&cart="+unknown)
	wantFunnelPage(t, res, 404, `<html lang="fr">`, "Panier introuvable", `<a id="page-link" href="https://shop.example.com/">Retour à la boutique</a>`)
	if _, kept := b.cookies["ecommerce_cart"]; kept {
		t.Error("a cookie for a cart that is not shown")
	}
	// Accept-Language, on the other steps too, and a malformed id.
	for _, target := range []string{"/ecommerce/shop/information/?cart=" + unknown, "/ecommerce/shop/payment/?cart=nope",
		"/ecommerce/order/customization/?cart=" + unknown} {
		res := f.browser().get(t, funnelSite+target, "Accept-Language", "de-CH, de;q=0.9, en;q=0.5")
		wantFunnelPage(t, res, 404, `<html lang="de">`, "Warenkorb nicht gefunden", `href="https://shop.example.com/"`)
	}
	// Another partner's cart is not found on this site.
	other, _ := f.cart(t, f.pathTok, `{"items": [{"product_id": 1, "quantity": 1}]}`)
	wantFunnelPage(t, f.browser().get(t, funnelSite+"/ecommerce/shop/customization/?cart="+other), 404, "Cart not found")

	// Under /p/{uuid}/: no link, until a cart with a return_url was seen.
	pathPage := "http://api.test/p/" + f.pathUUID + "/ecommerce/shop/customization/?cart="
	b = f.browser()
	res = b.get(t, pathPage+unknown, "Accept-Language", "it")
	wantFunnelPage(t, res, 404, "Carrello non trovato")
	if strings.Contains(res.Body, `id="page-link"`) {
		t.Errorf("a link back without a shop known: %s", res.Body)
	}
	id, funnel := f.cart(t, f.pathTok, `{"items": [], "return_url": "https://nosite.example.net/cart?x=1"}`)
	if funnel != pathPage+id {
		t.Fatalf("funnel_url %q", funnel)
	}
	wantFunnelPage(t, b.get(t, funnel), 200)
	wantFunnelPage(t, b.get(t, pathPage+unknown), 404, `href="https://nosite.example.net/"`)

	// No cart in the URL: the session's, else a 400 page.
	wantFunnelPage(t, f.browser().get(t, funnelSite+"/ecommerce/shop/customization/"), 400, "No cart was given.")
	if res := b.get(t, "http://api.test/p/"+f.pathUUID+"/ecommerce/shop/payment/"); res.Status != http.StatusSeeOther ||
		res.Header.Get("Location") != "/p/"+f.pathUUID+"/ecommerce/shop/payment/?cart="+id {
		t.Errorf("the session's cart: %d %q", res.Status, res.Header.Get("Location"))
	}
	if res := f.browser().get(t, "http://api.test/p/not-a-uuid/ecommerce/shop/customization/?cart="+id); res.Status != 404 ||
		strings.Contains(res.Body, `id="page-link"`) {
		t.Errorf("an unknown shop: %d %s", res.Status, mainOf(res.Body))
	}
	// An order that does not exist.
	wantFunnelPage(t, f.browser().get(t, funnelSite+"/ecommerce/shop/summary/?order="+unknown, "Accept-Language", "nl"), 404,
		"Deze bestelling bestaat niet.")
}

// The language: ?lang= (then kept in a cookie), else Accept-Language,
// else English; the switcher links each language.
func TestFunnelLanguage(t *testing.T) {
	t.Parallel()
	f := newFunnelFixture(t)
	id, funnel := f.cart(t, f.shopTok, `{"items": []}`)
	page := strings.Replace(funnel, "https://shop.example.com", funnelSite, 1)
	b := f.browser()
	wantFunnelPage(t, b.get(t, page, "Accept-Language", "fr"), 200, `<html lang="fr">`, "Votre panier")
	wantFunnelPage(t, b.get(t, page+"&lang=es", "Accept-Language", "fr"), 200, `<html lang="es">`, "Su carrito")
	if b.cookies["funnel_lang"] != "es" {
		t.Errorf("cookies %v", b.cookies)
	}
	wantFunnelPage(t, b.get(t, page, "Accept-Language", "fr"), 200, `<html lang="es">`)
	res := f.browser().get(t, page, "Accept-Language", "ja")
	wantFunnelPage(t, res, 200, `<html lang="en">`, "Your cart",
		`<a href="/ecommerce/shop/customization/?cart=`+id+`&amp;lang=ca" lang="ca" hreflang="ca">Català</a>`)
	if res.Header.Get("Content-Language") != "en" {
		t.Errorf("Content-Language %q", res.Header.Get("Content-Language"))
	}
}

// A form posted without the page's token, with another token, or from
// another site is refused with a 403 page, and changes nothing.
func TestFunnelCSRF(t *testing.T) {
	t.Parallel()
	f := newFunnelFixture(t)
	_, funnel := f.cart(t, f.shopTok, `{"items": [{"product_id": 1, "quantity": 3}]}`)
	page := strings.Replace(funnel, "https://shop.example.com", funnelSite, 1)
	b := f.browser()
	shown := b.get(t, page)
	wantFunnelPage(t, shown, 200, `value="3"`)
	token := csrfField.FindStringSubmatch(shown.Body)[1]
	form := "lines.0.quantity=9&action=update"
	for name, c := range map[string]struct {
		body    string
		headers []string
	}{
		"no token":      {form, []string{"Sec-Fetch-Site", "same-origin"}},
		"another token": {form + "&csrf_token=" + strings.Repeat("A", 43), []string{"Sec-Fetch-Site", "same-origin"}},
		"cross-site":    {form + "&csrf_token=" + token, []string{"Sec-Fetch-Site", "cross-site"}},
		"other origin":  {form + "&csrf_token=" + token, []string{"Origin", "https://evil.example.net"}},
	} {
		t.Run(name, func(t *testing.T) {
			res := b.do(t, http.MethodPost, page, c.body, append(c.headers, "Content-Type", "application/x-www-form-urlencoded")...)
			wantFunnelPage(t, res, 403, "This form has expired", `id="page-link"`)
		})
	}
	// Without a cookie at all (another browser).
	res := f.browser().do(t, http.MethodPost, page, form+"&csrf_token="+token, "Content-Type", "application/x-www-form-urlencoded")
	wantFunnelPage(t, res, 403)
	wantFunnelPage(t, b.get(t, page), 200, `value="3"`)
	// The page's own form goes through.
	if res := b.submit(t, shown, page, url.Values{"lines.0.quantity": {"9"}, "action": {"update"}}); res.Status != http.StatusSeeOther {
		t.Fatalf("the page's form: %d %s", res.Status, res.Body)
	}
	wantFunnelPage(t, b.get(t, page), 200, `value="9"`)
}

// location is a redirect's target, checked against a pattern.
func location(t *testing.T, res Response, pattern string) string {
	t.Helper()
	loc := res.Header.Get("Location")
	if res.Status != http.StatusSeeOther || !regexp.MustCompile(pattern).MatchString(loc) {
		t.Fatalf("%d Location %q, want 303 to %s: %s", res.Status, loc, pattern, mainOf(res.Body))
	}
	return loc
}

// refreshTo is where a page sends the browser at once (its meta
// refresh), matching pattern; the page is the thank-you page, which links
// there too.
func refreshTo(t *testing.T, res Response, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(`<meta http-equiv="refresh" content="0; url=([^"]+)">`).FindStringSubmatch(res.Body)
	if res.Status != http.StatusOK || m == nil {
		t.Fatalf("%d, no refresh: %s", res.Status, mainOf(res.Body))
	}
	to := html.UnescapeString(m[1])
	if !regexp.MustCompile(pattern).MatchString(to) || !strings.Contains(res.Body, `id="order-reference"`) ||
		!strings.Contains(res.Body, `<a id="return-to-shop" href="`+m[1]+`">`) {
		t.Fatalf("refresh to %q, want %s, on the thank-you page with its link: %s", to, pattern, mainOf(res.Body))
	}
	return to
}

// A customer goes through the funnel with plain HTML forms, on the shop's
// site: customization (a wrong quantity, then the changes), information
// (errors beside their fields, what was typed kept), payment (a code
// that does not apply, then the card on the provider's page), and back
// to the shop's return_url with the order's reference.
func TestFunnelFlow(t *testing.T) {
	t.Parallel()
	f := newFunnelFixture(t)
	colour := strconv.FormatInt(f.colour, 10)
	id, _ := f.cart(t, f.shopTok, fmt.Sprintf(`{"items": [{"product_id": %d, "quantity": 7, "attribute_values": {"%s": "red"}}],
		"return_url": "https://shop.example.com/thanks?src=funnel"}`, f.mug, colour))
	b := f.browser()
	custom := funnelSite + "/ecommerce/shop/customization/?cart=" + id
	page := b.get(t, custom)
	wantFunnelPage(t, page, 200, "<h2>Mug</h2>", "€10.00", "€70.00", "Only 5 left",
		`<label for="f-lines-0-attribute_values-`+colour+`">Colour</label>`, `<option value="red" selected>red</option>`,
		`name="delivery_mode" id="f-delivery_mode-postal" value="postal"`, "By post, within 3 days – €4.90", "Pick-up at 1 rue du Port – Free",
		`<a id="return-to-shop" href="https://shop.example.com/thanks?src=funnel">`)
	if b.cookies["ecommerce_cart"] != id {
		t.Errorf("the session keeps %q", b.cookies["ecommerce_cart"])
	}

	// A quantity that is no number: beside its field, as typed.
	res := b.submit(t, page, custom, url.Values{"lines.0.quantity": {"two"}, "action": {"continue"}})
	wantFunnelPage(t, res, 400, `value="two"`, `aria-describedby="f-lines-0-quantity-hint f-lines-0-quantity-error"`,
		`<span class="error" id="f-lines-0-quantity-error">Enter a whole number.</span>`)
	// No delivery mode yet: Continue stays.
	res = b.submit(t, page, custom, url.Values{"lines.0.quantity": {"2"}, "action": {"continue"}})
	wantFunnelPage(t, res, 400, "Choose a delivery mode.", `value="2"`)
	info := location(t, b.submit(t, page, custom, url.Values{"lines.0.quantity": {"2"}, "lines.0.attribute_values." + colour: {"blue"},
		"delivery_mode": {"postal"}, "action": {"continue"}}), `^/ecommerce/shop/information/\?cart=`+id+`$`)

	// Every input has its label and its autocomplete token.
	page = b.get(t, funnelSite+info)
	wantFunnelPage(t, page, 200)
	for field, token := range map[string]string{"first_name": "given-name", "last_name": "family-name", "email": "email", "phone": "tel",
		"street": "street-address", "postal_code": "postal-code", "city": "address-level2", "country": "country"} {
		label := regexp.MustCompile(`<label for="f-` + field + `">[^<]+</label>`)
		input := regexp.MustCompile(`<input type="[a-z]+" id="f-` + field + `" name="` + field + `" value="[^"]*" autocomplete="` + token + `"`)
		if !label.MatchString(page.Body) || !input.MatchString(page.Body) {
			t.Errorf("%s: no label or no autocomplete %q", field, token)
		}
	}
	if strings.Contains(page.Body, "beneficiary") {
		t.Error("a beneficiary asked for a postal delivery")
	}
	typed := url.Values{"first_name": {"Ada"}, "last_name": {"Lovelace"}, "email": {"ada@"}, "phone": {"+33 6 12 34 56 78"},
		"street": {"12 rue des Fleurs"}, "postal_code": {"75011"}, "city": {""}, "country": {"FR"}}
	res = b.submit(t, page, funnelSite+info, typed)
	wantFunnelPage(t, res, 400, `value="Ada"`, `value="ada@"`, `value="12 rue des Fleurs"`,
		`aria-invalid="true" aria-describedby="f-email-error"><span class="error" id="f-email-error">Enter a valid e-mail address.</span>`)
	typed.Set("email", "ada@example.com")
	res = b.submit(t, page, funnelSite+info, typed)
	wantFunnelPage(t, res, 400, `value="ada@example.com"`, `<span class="error" id="f-city-error">This field is required.</span>`)
	typed.Set("city", "Paris")
	pay := location(t, b.submit(t, page, funnelSite+info, typed), `^/ecommerce/shop/payment/\?cart=`+id+`$`)

	// The server's totals; a coupon that does not apply, beside its field.
	page = b.get(t, funnelSite+pay)
	wantFunnelPage(t, page, 200, "<td>Mug</td>", `<td class="num" id="to-pay">€24.90</td>`, "Pay €24.90",
		`<label for="f-coupon">Coupon code</label>`, `<label for="f-giftcard">Gift card code</label>`)
	res = b.submit(t, page, funnelSite+pay, url.Values{"coupon": {"NOPE"}, "giftcard": {""}, "action": {"apply"}})
	wantFunnelPage(t, res, 400, `value="NOPE"`, `<span class="error" id="f-coupon-error">This coupon does not exist.</span>`)
	location(t, b.submit(t, page, funnelSite+pay, url.Values{"coupon": {""}, "giftcard": {""}, "action": {"apply"}}), `^/ecommerce/shop/payment/`)

	// Pay: the provider's card page, then back to the summary, then to
	// the shop with the reference.
	card := location(t, b.submit(t, page, funnelSite+pay, url.Values{"action": {"pay"}}), `^http://api\.test/psp/sim/card/`)
	cardPage := strings.TrimPrefix(card, "http://api.test")
	location(t, b.do(t, http.MethodPost, "http://api.test"+cardPage, "card_number="+psp.CardSuccess,
		"Content-Type", "application/x-www-form-urlencoded"), `^`+regexp.QuoteMeta(cardPage)+`$`)
	summary := location(t, b.get(t, "http://api.test"+cardPage), `^http://shop\.example\.com/ecommerce/shop/summary/\?order=`)
	back := refreshTo(t, b.get(t, summary), `^https://shop\.example\.com/thanks\?src=funnel&order_reference=EC-`)
	if _, kept := b.cookies["ecommerce_cart"]; kept {
		t.Errorf("the session still names the cart: %v", b.cookies)
	}
	// The cart is gone; the summary sends to the shop again.
	wantFunnelPage(t, b.get(t, custom), 404)
	if again := refreshTo(t, b.get(t, summary), `^https://`); again != back {
		t.Errorf("the summary again: %q, want %q", again, back)
	}
}

// Under /p/{uuid}/, without a return_url: delivery by e-mail to a
// beneficiary, a declined card (the payment step again, the cart kept),
// then a card that pays and the thank-you page.
func TestFunnelFlowThankYouPage(t *testing.T) {
	t.Parallel()
	f := newFunnelFixture(t)
	id, funnel := f.cart(t, f.pathTok, fmt.Sprintf(`{"items": [{"product_id": %d, "quantity": 1}]}`, f.poster))
	root := "http://api.test/p/" + f.pathUUID
	b := f.browser()
	page := b.get(t, funnel+"&lang=fr")
	wantFunnelPage(t, page, 200, "<h2>Poster</h2>", "15,00\u00a0€", "Par e-mail – Gratuit")
	info := location(t, b.submit(t, page, funnel, url.Values{"lines.0.quantity": {"2"}, "delivery_mode": {"email"}, "action": {"continue"}}),
		`^/p/`+f.pathUUID+`/ecommerce/shop/information/\?cart=`+id+`$`)
	page = b.get(t, "http://api.test"+info)
	wantFunnelPage(t, page, 200, "Destinataire du cadeau (facultatif)",
		`autocomplete="section-beneficiary given-name"`, `autocomplete="section-beneficiary email"`)
	if strings.Contains(page.Body, `name="street"`) {
		t.Error("an address asked for an e-mail delivery")
	}
	pay := location(t, b.submit(t, page, "http://api.test"+info, url.Values{"first_name": {"Ada"}, "last_name": {"Lovelace"},
		"email": {"ada@example.com"}, "phone": {"0612345678"}, "beneficiary_first_name": {"Grace"}, "beneficiary_last_name": {"Hopper"},
		"beneficiary_email": {"grace@example.com"}}), `^/p/`+f.pathUUID+`/ecommerce/shop/payment/`)
	page = b.get(t, "http://api.test"+pay)
	wantFunnelPage(t, page, 200, "Payer 30,00\u00a0€")
	// A coupon that does not exist: the service's refusal in French,
	// beside its field.
	res := b.submit(t, page, "http://api.test"+pay, url.Values{"coupon": {"NOPE"}, "giftcard": {""}, "action": {"apply"}})
	wantFunnelPage(t, res, 400, `value="NOPE"`, `<span class="error" id="f-coupon-error">Ce code promo n&#39;existe pas.</span>`)

	payOnce := func(cardNumber string) string {
		t.Helper()
		card := strings.TrimPrefix(location(t, b.submit(t, page, "http://api.test"+pay, url.Values{"action": {"pay"}}), `^http://api\.test/psp/sim/card/`),
			"http://api.test")
		b.do(t, http.MethodPost, "http://api.test"+card, "card_number="+cardNumber, "Content-Type", "application/x-www-form-urlencoded")
		return location(t, b.get(t, "http://api.test"+card), `^http://api\.test/p/`+f.pathUUID+`/ecommerce/shop/summary/\?order=`)
	}
	failed := location(t, b.get(t, payOnce(psp.CardDecline)), `/ecommerce/shop/payment/\?cart=`+id+`&payment=failed$`)
	wantFunnelPage(t, b.get(t, "http://api.test"+failed), 200, "Le paiement a échoué. Votre panier est conservé")

	res = b.get(t, payOnce(psp.CardSuccess))
	wantFunnelPage(t, res, 200, "Merci pour votre commande", `<strong id="order-reference">EC-`, "<td>Poster</td>", "30,00\u00a0€")
	if strings.Contains(res.Body, "return-to-shop") {
		t.Errorf("a way back without a return_url: %s", mainOf(res.Body))
	}
	wantFunnelPage(t, b.get(t, root+"/ecommerce/shop/customization/?cart="+id), 404)
}

// A funnel page finds the site's partner once.
func TestFunnelPageFindsItsSiteOnce(t *testing.T) {
	t.Parallel()
	f := newFunnelFixture(t)
	stmts := &dbtest.StatementCounter{}
	db, err := dbtest.OpenCounted(t.Context(), f.dsn, stmts)
	gcMust(t, err)
	t.Cleanup(func() { db.Close() })
	f.h = Handler(t, db)
	id, _ := f.cart(t, f.shopTok, fmt.Sprintf(`{"items": [{"product_id": %d, "quantity": 1}]}`, f.mug))
	stmts.Reset()
	wantFunnelPage(t, f.browser().get(t, funnelSite+"/ecommerce/shop/customization/?cart="+id), 200, "<h2>Mug</h2>")
	var lookups []string
	for _, q := range stmts.Queries() {
		if strings.Contains(q, "WHERE (site_domain") {
			lookups = append(lookups, q)
		}
	}
	if len(lookups) != 1 {
		t.Errorf("%d look-ups of the site's partner, want 1: %q", len(lookups), lookups)
	}
}
