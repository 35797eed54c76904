package rest

import (
	"embed"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/rest/pagesecurity"
)

//go:embed templates/*.html
var templateFiles embed.FS

var funnelTemplates = template.Must(template.ParseFS(templateFiles, "templates/*.html"))

// funnelCookie keeps the cart id in the customer's session, as the funnel
// contract asks.
const funnelCookie = "ecommerce_cart"

// registerFunnelRoutes serves the checkout handoff: the customization step
// of the funnel, on a partner's own site domain (chosen by Host) or, for a
// partner without one, under /p/{partner uuid}/ on this service's address.
func registerFunnelRoutes(r *mux.Router, a *api) {
	for _, step := range []string{"shop", "order"} {
		path := "/ecommerce/" + step + "/customization/"
		handle(r, path, a.handleFunnel, http.MethodGet, http.MethodHead)
		handle(r, "/p/{partner}"+path, a.handleFunnel, http.MethodGet, http.MethodHead)
	}
}

type funnelPage struct {
	Cart    *cart.CartView
	Message string
}

// handleFunnel shows the stored items of the cart in the query parameter
// `cart`, with a way back to the shop only to the cart's ReturnTo (its
// return_url as the domain's rule accepts it today), never to the stored
// return_url as such. An unknown, lapsed or foreign cart gets a 404 page that says so
// (the contract leaves that case open; see docs/DECISIONS.md).
func (a *api) handleFunnel(w http.ResponseWriter, r *http.Request) {
	site := cart.FunnelSite{Host: r.Host}
	if p := mux.Vars(r)["partner"]; p != "" {
		id, err := uuid.Parse(p)
		if err != nil {
			renderFunnel(w, r, http.StatusNotFound, funnelPage{Message: "This shop does not exist."})
			return
		}
		site.PartnerUUID = &id
	}
	raw := strings.TrimSpace(r.URL.Query().Get("cart"))
	if raw == "" {
		renderFunnel(w, r, http.StatusBadRequest, funnelPage{Message: "No cart was given."})
		return
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		renderFunnel(w, r, http.StatusNotFound, funnelPage{Message: "This cart has expired or does not exist."})
		return
	}
	cart, err := a.Carts.FunnelCart(r.Context(), site, id)
	if domain.IsCode(err, domain.CodeNotFound) {
		renderFunnel(w, r, http.StatusNotFound, funnelPage{Message: "This cart has expired or does not exist."})
		return
	}
	if err != nil {
		logger(r).Error("funnel", "error", err.Error())
		if de := domain.AsError(err); de != nil && de.Code == domain.CodeUnavailable {
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(de.RetryAfter.Seconds()))))
			renderFunnel(w, r, http.StatusServiceUnavailable, funnelPage{Message: "The shop is briefly unavailable. Please try again in a moment."})
			return
		}
		renderFunnel(w, r, http.StatusInternalServerError, funnelPage{Message: "Something went wrong. Please try again."})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: funnelCookie, Value: cart.ID.String(), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
	renderFunnel(w, r, http.StatusOK, funnelPage{Cart: cart})
}

// funnelPolicy: text, and a form posted to the page itself.
var funnelPolicy = pagesecurity.Policy{FormAction: []string{pagesecurity.Self}}

func renderFunnel(w http.ResponseWriter, r *http.Request, status int, page funnelPage) {
	funnelPolicy.Set(w.Header())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := funnelTemplates.ExecuteTemplate(w, "customization.html", page); err != nil {
		logger(r).Error("render funnel", "error", err.Error())
	}
}
