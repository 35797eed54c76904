// Package rest is the compatibility layer for the legacy REST clients: a
// gorilla/mux router whose handlers decode the legacy request, call the same
// domain service method as the GraphQL resolver, and encode the legacy (DRF)
// response. Status codes and bodies follow the legacy service's, described in rest/openapi/openapi.yaml.
package rest

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"

	"salesplatform/domain"
	"salesplatform/domain/services"
)

type api struct {
	services.Services
}

// Register adds the legacy REST routes to r, with the legacy 404 and 405
// bodies.
func Register(r *mux.Router, s services.Services) {
	a := &api{s}
	// One line per area of domain/, each in the files named after it.
	registerAccountRoutes(r, a)
	registerCartRoutes(r, a)
	registerEcommerceOrderRoutes(r, a) // ecommerce_orders*.go
	registerPartnerCatalogRoutes(r, a) // catalogue_*.go
	registerEventRoutes(r, a)
	registerWorkshopRoutes(r, a)
	registerBoxRoutes(r, a)
	registerPrototypeRoutes(r, a)
	registerGiftRoutes(r, a)
	registerWidgetRoutes(r, a)
	registerNetworkPartnerRoutes(r, a)
	registerVoucherAdminRoutes(r, a) // vouchers*.go
	registerMediaRoutes(r, a)
	registerAdminPrototypeRoutes(r, a) // prototypes*.go
	registerNetworkGiftcardRoutes(r, a)
	registerMultiProductCartRoutes(r, a)
	registerNetworkVoucherRoutes(r, a)   // network_vouchers.go
	registerPaymentPartnerRoutes(r, a)   // payments_partners.go
	registerPaymentRoutes(r, a)          // payments.go
	registerPaymentWalletRoutes(r, a)    // payments_wallets.go
	registerPayoutRoutes(r, a)           // payouts.go
	registerPaymentRequestRoutes(r, a)   // payment_requests.go
	registerEcommerceRoutes(r, a)        // ecommerce_products.go
	registerWebhookRoutes(r, a)          // webhooks*.go
	registerWebhookEventTypeRoutes(r, a) // webhook_event_types.go
	registerOpenAPIRoutes(r, a)          // openapi.go: the document of these routes

	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusNotFound, detail(domain.MsgNotFound))
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if allowed := allowedMethods(r, req); len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
		}
		writeJSON(w, http.StatusMethodNotAllowed, detail(`Method "`+req.Method+`" not allowed.`))
	})
}

// handle registers a legacy path: it ends with "/" and is served the same
// without it (no redirect: a redirected POST loses its body).
func handle(r *mux.Router, path string, h http.HandlerFunc, methods ...string) {
	r.Handle(strings.TrimSuffix(path, "/")+"{slash:/?}", textPath(legacyQuery(h))).Methods(methods...)
}

// handlePage is handle for an HTML page: a path that is not text reaches
// the page, whose service answers it as an unknown code (the page's 404),
// rather than the API's JSON 400.
func handlePage(r *mux.Router, path string, h http.HandlerFunc, methods ...string) {
	r.Handle(strings.TrimSuffix(path, "/")+"{slash:/?}", legacyQuery(h)).Methods(methods...)
}

// textPath refuses a decoded path that is not text (domain.TextProblem: a
// NUL, bytes that are not UTF-8) with a 400, before any handler reads its
// segments.
func textPath(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := domain.TextProblem(r.URL.Path); msg != "" {
			writeJSON(w, http.StatusBadRequest, detail("Malformed URL path: "+msg))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// handleWithToken is handle for the routes the contract serves only to a
// token (the cart and the administration API): a request without an
// accepted token is answered 401 before its body is read, whatever the
// body, as the legacy service did. The services still check the caller.
func handleWithToken(r *mux.Router, path string, h http.HandlerFunc, methods ...string) {
	handle(r, path, func(w http.ResponseWriter, req *http.Request) {
		if _, err := domain.CallerFrom(req.Context()); err != nil {
			writeError(w, req, err)
			return
		}
		h(w, req)
	}, methods...)
}

// legacyQuery reads the query string as the legacy service did: ";" is part
// of a value, not a separator (Python's parse_qsl; Go would drop the whole
// pair, so "ordering=price;x" would silently lose its ordering). A query
// string that still cannot be parsed is a 400, rather than parameters lost
// without a word. So is a query parameter that is not text
// (domain.TextProblem: a NUL, bytes that are not UTF-8), before any
// handler reads it. A parameter given more than once is read at its last
// value, as Django's QueryDict reads it (Go's Get takes the first).
func legacyQuery(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.RawQuery, ";") {
			r = r.Clone(r.Context())
			r.URL.RawQuery = strings.ReplaceAll(r.URL.RawQuery, ";", "%3B")
		}
		values, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, detail("Malformed query string: "+err.Error()+"."))
			return
		}
		repeated := false
		for k, vs := range values {
			for _, s := range append(vs, k) {
				if msg := domain.TextProblem(s); msg != "" {
					writeJSON(w, http.StatusBadRequest, detail("Malformed query string: "+msg))
					return
				}
			}
			if len(vs) > 1 {
				values[k], repeated = vs[len(vs)-1:], true
			}
		}
		if repeated {
			r = r.Clone(r.Context())
			r.URL.RawQuery = values.Encode()
		}
		h.ServeHTTP(w, r)
	})
}

// allowedMethods lists the methods that would match req's path, for Allow.
func allowedMethods(r *mux.Router, req *http.Request) []string {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		probe := req.Clone(req.Context())
		probe.Method = m
		var match mux.RouteMatch
		if r.Match(probe, &match) && match.MatchErr == nil {
			allowed = append(allowed, m)
		}
	}
	return allowed
}
