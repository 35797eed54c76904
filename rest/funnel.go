package rest

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"
	"golang.org/x/text/language"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/domain/l10n"
	"salesplatform/rest/pagesecurity"
)

// templateFiles are the service's HTML pages.
//
//go:embed templates/*.html templates/funnel/*.html
var templateFiles embed.FS

// The checkout funnel's pages (funnel*.go): the customization,
// information and payment steps of a cart handed over by a shop, and the
// order's summary, where the payment provider sends the customer back.
// They are served on a partner's own site domain (chosen by Host) and,
// for a partner without one, under /p/{partner uuid}/ on this service's
// address. Plain HTML forms, no script: see docs/DECISIONS.md, "The
// checkout funnel's pages".
func registerFunnelRoutes(r *mux.Router, a *api) {
	for _, root := range []string{"", domain.PartnerPathRoot + "{partner}"} {
		for _, step := range []string{"shop", "order"} {
			path := root + "/ecommerce/" + step + "/customization/"
			handlePage(r, path, a.handleFunnelCustomization, http.MethodGet, http.MethodHead)
			handlePage(r, path, a.handleFunnelCustomize, http.MethodPost)
		}
		handlePage(r, root+funnelInformationPath, a.handleFunnelInformation, http.MethodGet, http.MethodHead)
		handlePage(r, root+funnelInformationPath, a.handleFunnelInform, http.MethodPost)
		handlePage(r, root+funnelPaymentPath, a.handleFunnelPayment, http.MethodGet, http.MethodHead)
		handlePage(r, root+funnelPaymentPath, a.handleFunnelPay, http.MethodPost)
		handlePage(r, root+funnelSummaryPath, a.handleFunnelSummary, http.MethodGet, http.MethodHead)
	}
}

// Paths of the steps, under the site's root.
const (
	funnelCustomizationPath = "/ecommerce/shop/customization/"
	funnelInformationPath   = "/ecommerce/shop/information/"
	funnelPaymentPath       = "/ecommerce/shop/payment/"
	funnelSummaryPath       = "/ecommerce/shop/summary/"
)

// Cookies of the funnel. funnelCookie keeps the cart id in the customer's
// session, as the funnel contract asks; funnelLangCookie the language
// chosen with ?lang=; funnelCSRFCookie the forms' token (double submit);
// funnelShopCookie the origin of the last cart's return_url, the way
// back to the shop from a page that has no cart.
const (
	funnelCookie     = "ecommerce_cart"
	funnelLangCookie = "funnel_lang"
	funnelCSRFCookie = "funnel_csrf"
	funnelShopCookie = "funnel_shop"
	funnelCSRFField  = "csrf_token"
	// maxFunnelForm bounds a step's form: a cart's lines with their
	// options take a few kilobytes.
	maxFunnelForm = 64 << 10
)

var funnelTemplates = template.Must(template.New("funnel").ParseFS(templateFiles, "templates/funnel/*.html"))

// funnelStyles are the hashes of the pages' own <style>.
var funnelStyles = func() []string {
	b, err := templateFiles.ReadFile("templates/funnel/layout.html")
	if err != nil {
		panic(err)
	}
	return pagesecurity.StyleHashes(string(b))
}()

// funnelPolicy: the pages' style, forms posted to the pages themselves.
var funnelPolicy = pagesecurity.Policy{Style: funnelStyles, FormAction: []string{pagesecurity.Self}}

// funnelOrigins refuses a form posted from another site: a browser says so
// in Sec-Fetch-Site, an older one in Origin.
var funnelOrigins = http.NewCrossOriginProtection()

// funnelRequest is one request to a funnel page: the site it is served
// on, the customer's language, and what every page shows.
type funnelRequest struct {
	w      http.ResponseWriter
	r      *http.Request
	a      *api
	site   checkout.Site
	prefix string // "" on the partner's domain, "/p/{uuid}" on this service's
	lang   string
	t      *funnelTexts
	csrf   string
}

// newFunnelRequest reads the site and the language; ok is false when the
// path names no partner (the 404 page is written).
func (a *api) newFunnelRequest(w http.ResponseWriter, r *http.Request) (fr *funnelRequest, ok bool) {
	fr = &funnelRequest{w: w, r: r, a: a, site: checkout.Site{Host: r.Host}}
	fr.lang = funnelLanguage(w, r)
	fr.t = funnelTextsOf(fr.lang)
	if p, byPath := mux.Vars(r)["partner"]; byPath {
		fr.prefix = domain.PartnerPathRoot + p // no link to this host's root
		id, err := uuid.Parse(p)
		if err != nil {
			fr.notFound(fr.t.NotFoundText)
			return nil, false
		}
		fr.site = checkout.Site{PartnerUUID: &id}
		fr.prefix = domain.PartnerPathRoot + id.String()
	}
	return fr, true
}

// funnelLanguage is the page's language: ?lang= (kept in a cookie), else
// the cookie's, else the best of Accept-Language, else English.
func funnelLanguage(w http.ResponseWriter, r *http.Request) string {
	if l := r.URL.Query().Get("lang"); funnelTextsByLang[l] != nil {
		http.SetCookie(w, &http.Cookie{Name: funnelLangCookie, Value: l, Path: "/", MaxAge: 365 * 24 * 3600,
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r)})
		return l
	}
	if c, err := r.Cookie(funnelLangCookie); err == nil && funnelTextsByLang[c.Value] != nil {
		return c.Value
	}
	if h := r.Header.Get("Accept-Language"); h != "" {
		if tags, _, err := language.ParseAcceptLanguage(h); err == nil && len(tags) > 0 {
			_, i, conf := funnelMatcher.Match(tags...)
			if conf != language.No {
				return funnelLanguages[i].Code
			}
		}
	}
	return "en"
}

var funnelMatcher = func() language.Matcher {
	tags := make([]language.Tag, len(funnelLanguages))
	for i, l := range funnelLanguages {
		tags[i] = language.Make(l.Code)
	}
	return language.NewMatcher(tags)
}()

func isHTTPS(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
}

// cartID reads ?cart=. Without it, the cart of the session cookie is
// sent to the same page with it in the URL (303; handled is true); with
// neither, or with one that names no cart, the page says so.
func (fr *funnelRequest) cartID() (id uuid.UUID, handled bool) {
	raw := strings.TrimSpace(fr.r.URL.Query().Get("cart"))
	if raw == "" {
		if c, err := fr.r.Cookie(funnelCookie); err == nil && fr.r.Method != http.MethodPost {
			if id, err := uuid.Parse(c.Value); err == nil {
				fr.redirect(fr.stepURL(fr.r.URL.Path, id))
				return uuid.Nil, true
			}
		}
		fr.message(http.StatusBadRequest, fr.t.NotFoundTitle, fr.t.NoCart, fr.shopLink())
		return uuid.Nil, true
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		fr.notFound(fr.t.NotFoundText)
		return uuid.Nil, true
	}
	return id, false
}

// stepURL is a step's path with the cart (and nothing else) in its query:
// the language lives in its cookie once chosen.
func (fr *funnelRequest) stepURL(path string, cartID uuid.UUID, extra ...string) string {
	q := url.Values{"cart": {cartID.String()}}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	return path + "?" + q.Encode()
}

// step is the path of one of the steps on this site.
func (fr *funnelRequest) step(path string) string { return fr.prefix + path }

func (fr *funnelRequest) redirect(to string) {
	fr.w.Header().Set("Cache-Control", "no-store")
	http.Redirect(fr.w, fr.r, to, http.StatusSeeOther)
}

// keepCart puts the cart in the session cookie and remembers the way back
// to the shop, for a page that will have no cart.
func (fr *funnelRequest) keepCart(b *checkout.Basket) {
	http.SetCookie(fr.w, &http.Cookie{Name: funnelCookie, Value: b.CartID.String(), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: isHTTPS(fr.r)})
	if o := origin(b.ReturnTo); o != "" {
		http.SetCookie(fr.w, &http.Cookie{Name: funnelShopCookie, Value: o, Path: fr.prefix + "/",
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: isHTTPS(fr.r)})
	}
}

// origin is the scheme and host of an http(s) URL, "" for anything else.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// shopLink is the way back to the shop from a page without a cart: the
// origin of the last cart's return_url, else the partner's site (its
// domain is the request's host); none under /p/{uuid}/ without a cart
// seen.
func (fr *funnelRequest) shopLink() string {
	if c, err := fr.r.Cookie(funnelShopCookie); err == nil {
		if o := origin(c.Value); o != "" {
			return o + "/"
		}
	}
	if fr.prefix == "" && fr.r.Host != "" {
		return "https://" + fr.r.Host + "/"
	}
	return ""
}

// csrfToken is the forms' token: the cookie's, or a new one (set).
func (fr *funnelRequest) csrfToken() string {
	if fr.csrf != "" {
		return fr.csrf
	}
	if c, err := fr.r.Cookie(funnelCSRFCookie); err == nil && len(c.Value) == 43 {
		fr.csrf = c.Value
		return fr.csrf
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	fr.csrf = base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(fr.w, &http.Cookie{Name: funnelCSRFCookie, Value: fr.csrf, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: isHTTPS(fr.r)})
	return fr.csrf
}

// readForm reads a posted step's form and checks it came from the page:
// same origin (Fetch metadata, Origin), and the token of the cookie. A
// refusal writes the 403 page (ok false).
func (fr *funnelRequest) readForm() (form url.Values, ok bool) {
	fr.r.Body = http.MaxBytesReader(fr.w, fr.r.Body, maxFunnelForm)
	if err := fr.r.ParseForm(); err != nil {
		status := http.StatusBadRequest
		if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
			status = http.StatusRequestEntityTooLarge
		}
		fr.message(status, fr.t.TryAgain, "", fr.r.URL.RequestURI())
		return nil, false
	}
	c, err := fr.r.Cookie(funnelCSRFCookie)
	sent := fr.r.PostForm.Get(funnelCSRFField)
	if funnelOrigins.Check(fr.r) != nil || err != nil || sent == "" ||
		subtle.ConstantTimeCompare([]byte(c.Value), []byte(sent)) != 1 {
		fr.message(http.StatusForbidden, fr.t.ExpiredTitle, fr.t.ExpiredText, fr.r.URL.RequestURI())
		return nil, false
	}
	return fr.r.PostForm, true
}

// failed answers a service error that is not the step's own: the cart's
// 404 page, 409 with the service's message, 429 and 503 with
// Retry-After, else 500.
func (fr *funnelRequest) failed(err error) {
	de := domain.AsError(err)
	switch {
	case de != nil && de.Code == domain.CodeNotFound:
		fr.notFound(fr.t.NotFoundText)
	case de != nil && de.Code == domain.CodeConflict: // the cart changed under the step: its message
		fr.message(http.StatusConflict, fr.t.TryAgain, fr.refusal(de.Message), fr.r.URL.RequestURI())
	case de != nil && de.Code == domain.CodeUnavailable:
		fr.w.Header().Set("Retry-After", strconv.Itoa(max(1, int(de.RetryAfter.Seconds()))))
		fr.message(http.StatusServiceUnavailable, fr.t.Unavailable503, "", fr.r.URL.RequestURI())
	case de != nil && de.Code == domain.CodeThrottled: // too many codes refused
		fr.w.Header().Set("Retry-After", strconv.Itoa(max(1, int(de.RetryAfter.Seconds()))))
		fr.message(http.StatusTooManyRequests, fr.t.TryAgain, de.Message, fr.r.URL.RequestURI())
	default:
		logger(fr.r).Error("funnel", "error", err.Error())
		fr.message(http.StatusInternalServerError, fr.t.TryAgain, "", "")
	}
}

func (fr *funnelRequest) notFound(text string) {
	fr.message(http.StatusNotFound, fr.t.NotFoundTitle, text, fr.shopLink())
}

// message writes a page of a heading, a text and a link (the way back to
// the shop, or the page to reload).
func (fr *funnelRequest) message(status int, title, text, link string) {
	linkText := fr.t.BackToShop
	if link != "" && !strings.Contains(link, "://") {
		linkText = fr.t.Reload
	}
	fr.render(status, &funnelPage{Step: "message", Title: title, Text: text, Link: link, LinkText: linkText})
}

// funnelPage is the template's data.
type funnelPage struct {
	Lang      string
	T         *funnelTexts
	Languages []funnelLanguageLink
	Step      string // customization, information, payment, done, pending, message
	StepIndex int    // 1 to 4 in the steps' list, 0 outside it
	Title     string
	Shop      string
	CSRF      string
	Action    string // the form's URL: the page's own
	Prefix    string
	CartQuery string // "?cart=…" for the links between steps
	Currency  string

	Basket   *checkout.Basket
	Lines    []funnelLine
	Delivery []funnelDelivery
	Order    *checkout.Order
	// The information step's groups of fields (Address in postal mode,
	// Beneficiary in e-mail mode) and the payment step's codes.
	Buyer, Address, Beneficiary, Codes []funnelField
	Back                               string // the previous step
	// Form is what the customer typed, shown again with Errors beside
	// their fields (by field name); Message is about the whole form.
	Form    url.Values
	Errors  map[string]string
	Message string

	Text, Link, LinkText string
	Refresh              bool
	// RefreshTo is where the page sends the browser at once (the shop's
	// return_url after the order).
	RefreshTo string
	// FormAction is where the page's forms go, redirects included
	// (funnelPolicy's when empty).
	FormAction []string
}

type funnelLanguageLink struct {
	Code, Name, URL string
	Current         bool
}

// Money writes an amount of the page's currency in its language.
func (p *funnelPage) Money(d decimal.Decimal) string {
	return l10n.MoneyWriter(d, p.Currency)(p.Lang)
}

// Value is the field's text: as typed, else the stored one.
func (p *funnelPage) Value(field, stored string) string {
	if vs, ok := p.Form[field]; ok && len(vs) > 0 {
		return vs[0]
	}
	return stored
}

// field is an input of the page: the value as typed or stored, its
// error.
func (p *funnelPage) field(name, label, typ, autocomplete, stored string, required bool) funnelField {
	id := fieldID(name)
	f := funnelField{Name: name, ID: id, Label: label, Type: typ, Autocomplete: autocomplete, Value: p.Value(name, stored),
		Error: p.Errors[name], ErrorID: id + "-error", HintID: id + "-hint", Required: required}
	if typ == "number" {
		f.Type, f.Number = "text", true // inputmode numeric: a number input rounds and hides what was typed
	}
	return f
}

// selectOf is a select of the page, without its options.
func (p *funnelPage) selectOf(name, label string) funnelSelect {
	id := fieldID(name)
	return funnelSelect{Name: name, ID: id, Label: label, Error: p.Errors[name], ErrorID: id + "-error"}
}

// PayLabel is the pay button's text, with the amount.
func (p *funnelPage) PayLabel() string {
	return fill(p.T.Pay, "amount", p.Money(p.Basket.Totals.ToPay))
}

// Error is the error beside a field, "" for none.
func (p *funnelPage) Error(field string) string { return p.Errors[field] }

// fieldID is a field's id: its name, dots as dashes.
func fieldID(field string) string { return "f-" + strings.ReplaceAll(field, ".", "-") }

// render writes a page with the funnel's headers: its policy, no cache.
func (fr *funnelRequest) render(status int, p *funnelPage) {
	p.Lang, p.T, p.Prefix = fr.lang, fr.t, fr.prefix
	if p.Step == "customization" || p.Step == "information" || p.Step == "payment" { // the pages with forms
		p.CSRF = fr.csrfToken()
	}
	if p.Action == "" {
		p.Action = fr.r.URL.RequestURI()
	}
	if p.Basket != nil {
		p.CartQuery = "?" + url.Values{"cart": {p.Basket.CartID.String()}}.Encode()
		if p.Basket.Partner != nil {
			p.Shop = p.Basket.Partner.Name
		}
		fr.keepCart(p.Basket)
	}
	if p.Shop == "" {
		p.Shop = fr.t.Checkout
	}
	for _, l := range funnelLanguages {
		q := fr.r.URL.Query()
		q.Set("lang", l.Code)
		p.Languages = append(p.Languages, funnelLanguageLink{Code: l.Code, Name: l.Name,
			URL: fr.r.URL.Path + "?" + q.Encode(), Current: l.Code == fr.lang})
	}
	policy := funnelPolicy
	if p.FormAction != nil {
		policy.FormAction = p.FormAction
	}
	policy.Set(fr.w.Header())
	fr.w.Header().Set("Cache-Control", "no-store")
	fr.w.Header().Set("Content-Language", fr.lang)
	fr.w.Header().Add("Vary", "Accept-Language, Cookie")
	fr.w.WriteHeader(status)
	if err := funnelTemplates.ExecuteTemplate(fr.w, "layout.html", p); err != nil {
		logger(fr.r).Error("render funnel page", "error", err.Error())
	}
}

// fieldErrors are a CodeInvalid error's messages by form field (the
// domain's path, dotted), in the page's language where the page knows the
// message; rename maps a domain path onto its field ("" keeps it).
func (fr *funnelRequest) fieldErrors(de *domain.Error, rename func(path []any) string) map[string]string {
	out := map[string]string{}
	for _, f := range de.Fields {
		key := ""
		if rename != nil {
			key = rename(f.Path)
		}
		if key == "" {
			key = domain.PathKey(f.Path)
		}
		if _, seen := out[key]; !seen {
			out[key] = fr.refusal(f.Message)
		}
	}
	return out
}

// localized is a text in lang, else in English, else in any language.
func localized(l domain.Localized, lang string) string {
	if s := l[lang]; s != "" {
		return s
	}
	if s := l["en"]; s != "" {
		return s
	}
	for _, code := range l10n.Languages {
		if s := l[code]; s != "" {
			return s
		}
	}
	return ""
}
