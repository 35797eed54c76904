package rest

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/cart"
)

// registerCartRoutes adds the cart API and the funnel page it hands off to.
func registerCartRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/v2/ecommerce/cart/", a.handleCartSave, http.MethodPost)
	handleWithToken(r, "/api/v2/ecommerce/cart/{id}/", a.handleCartGet, http.MethodGet, http.MethodHead)
	registerFunnelRoutes(r, a)
}

type jsonCartItem struct {
	ProductID       int64             `json:"product_id"`
	Quantity        int64             `json:"quantity"`
	VariantID       *int64            `json:"variant_id"`
	AttributeValues map[string]string `json:"attribute_values"`
}

// jsonCart is the legacy cart shape; created_at and expires_at are additions
// old clients ignore.
type jsonCart struct {
	ID           string         `json:"id"`
	Items        []jsonCartItem `json:"items"`
	ReturnURL    string         `json:"return_url"`
	FunnelURL    string         `json:"funnel_url"`
	LastModified int64          `json:"last_modified"`
	CreatedAt    time.Time      `json:"created_at"`
	ExpiresAt    time.Time      `json:"expires_at"`
}

func toJSONCart(c *cart.CartView) jsonCart {
	items := make([]jsonCartItem, len(c.Items))
	for i, it := range c.Items {
		attrs := make(map[string]string, len(it.AttributeValues))
		for k, v := range it.AttributeValues {
			attrs[strconv.FormatInt(k, 10)] = v
		}
		items[i] = jsonCartItem{ProductID: it.ProductID, Quantity: it.Quantity, VariantID: it.VariantID, AttributeValues: attrs}
	}
	return jsonCart{
		ID:           c.ID.String(),
		Items:        items,
		ReturnURL:    c.ReturnURL,
		FunnelURL:    c.FunnelURL,
		LastModified: c.LastModified.UnixMilli(),
		CreatedAt:    c.CreatedAt.UTC(),
		ExpiresAt:    c.ExpiresAt.UTC(),
	}
}

// handleCartSave is POST /api/v2/ecommerce/cart/: create (201) or, with an
// id, replace (200). If-Match guards a replace against lost updates.
func (a *api) handleCartSave(w http.ResponseWriter, r *http.Request) {
	doc, herr := decodeJSON(w, r)
	if herr != nil {
		herr.write(w)
		return
	}
	cart, created, err := a.Carts.SaveCart(r.Context(), decodeCartSave(doc, strings.Join(r.Header.Values("If-Match"), ",")))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("ETag", cart.ETag())
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		w.Header().Set("Location", "/api/v2/ecommerce/cart/"+cart.ID.String()+"/")
	}
	writeJSON(w, status, toJSONCart(cart))
}

// handleCartGet is GET /api/v2/ecommerce/cart/{id}/.
func (a *api) handleCartGet(w http.ResponseWriter, r *http.Request) {
	cart, err := a.Carts.Cart(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("ETag", cart.ETag())
	w.Header().Set("Cache-Control", "private, no-cache")
	if notModified(r, cart.ETag()) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeJSON(w, http.StatusOK, toJSONCart(cart))
}
