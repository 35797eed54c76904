package rest

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/ecommerce"
	"salesplatform/rest/drf"
)

// The e-commerce catalogue (docs/API.md, "E-commerce catalogue"): the
// products the cart's items name, read by the shop's pages without a
// token (X-Partner-Domain) and written by the partner; its delivery
// settings.

func registerEcommerceRoutes(r *mux.Router, a *api) {
	handle(r, "/api/v2/ecommerce/products/", a.handleEcommerceProductList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/v2/ecommerce/products/", a.handleEcommerceProductCreate, http.MethodPost)
	handle(r, "/api/v2/ecommerce/products/{id:[0-9]+}/", a.handleEcommerceProductGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/v2/ecommerce/products/{id:[0-9]+}/", a.handleEcommerceProductUpdate, http.MethodPut, http.MethodPatch)
	handleWithToken(r, "/api/v2/ecommerce/delivery-settings/", a.handleEcommerceDeliveryGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/v2/ecommerce/delivery-settings/", a.handleEcommerceDeliveryUpdate, http.MethodPut)
}

type jsonEcommerceVariant struct {
	ID     int64         `json:"id"`
	Name   jsonLocalized `json:"name"`
	Price  string        `json:"price"`
	Stock  *int64        `json:"stock"`
	Active bool          `json:"active"`
}

type jsonEcommerceAttribute struct {
	ID     int64         `json:"id"`
	Name   jsonLocalized `json:"name"`
	Values []string      `json:"values"`
}

type jsonEcommerceProduct struct {
	ID          int64                    `json:"id"`
	Name        jsonLocalized            `json:"name"`
	Description jsonLocalized            `json:"description"`
	Images      []string                 `json:"images"`
	Price       string                   `json:"price"`
	Currency    string                   `json:"currency"`
	VATRate     string                   `json:"vat_rate"`
	Active      bool                     `json:"active"`
	Stock       *int64                   `json:"stock"`
	Variants    []jsonEcommerceVariant   `json:"variants"`
	Attributes  []jsonEcommerceAttribute `json:"attributes"`
	CreatedAt   time.Time                `json:"created_at"`
	UpdatedAt   time.Time                `json:"updated_at"`
}

func toJSONEcommerceProduct(p *ecommerce.Product) jsonEcommerceProduct {
	out := jsonEcommerceProduct{ID: p.ID, Name: toJSONLocalized(p.Name), Description: toJSONLocalized(p.Description),
		Images: p.Images, Price: p.Price.StringFixed(2), Currency: p.Currency, VATRate: p.VATRate.StringFixed(2),
		Active: p.Active, Stock: p.Stock, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
		Variants: make([]jsonEcommerceVariant, len(p.Variants)), Attributes: make([]jsonEcommerceAttribute, len(p.Attributes))}
	for i, v := range p.Variants {
		out.Variants[i] = jsonEcommerceVariant{ID: v.ID, Name: toJSONLocalized(v.Name), Price: v.Price.StringFixed(2),
			Stock: v.Stock, Active: v.Active}
	}
	for i, a := range p.Attributes {
		out.Attributes[i] = jsonEcommerceAttribute{ID: a.ID, Name: toJSONLocalized(a.Name), Values: a.Values}
	}
	return out
}

type jsonEcommerceDelivery struct {
	Email         bool   `json:"email"`
	Postal        bool   `json:"postal"`
	PostalCost    string `json:"postal_cost"`
	PostalDays    int    `json:"postal_days"`
	Pickup        bool   `json:"pickup"`
	PickupCost    string `json:"pickup_cost"`
	PickupAddress string `json:"pickup_address"`
}

func toJSONEcommerceDelivery(d *ecommerce.DeliverySettings) jsonEcommerceDelivery {
	return jsonEcommerceDelivery{Email: d.Email, Postal: d.Postal, PostalCost: d.PostalCost.StringFixed(2),
		PostalDays: d.PostalDays, Pickup: d.Pickup, PickupCost: d.PickupCost.StringFixed(2), PickupAddress: d.PickupAddress}
}

// handleEcommerceProductList is GET /api/v2/ecommerce/products/: a
// catalogue page; active=true|false filters the partner's own list.
func (a *api) handleEcommerceProductList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var in ecommerce.ProductListInput
	if q := r.URL.Query(); q.Has("active") {
		in.Active = drf.New(drf.Object{"active": q.Get("active")}, &in.Refusals).Bool("active")
	}
	products, err := a.Ecommerce.Products(r.Context(), in, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, products, toJSONEcommerceProduct))
}

// handleEcommerceProductGet is GET /api/v2/ecommerce/products/{id}/.
func (a *api) handleEcommerceProductGet(w http.ResponseWriter, r *http.Request) {
	p, err := a.Ecommerce.Product(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONEcommerceProduct(p))
}

// handleEcommerceProductCreate is POST /api/v2/ecommerce/products/: 201.
func (a *api) handleEcommerceProductCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	p, err := a.Ecommerce.CreateProduct(r.Context(), decodeEcommerceProduct(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONEcommerceProduct(p))
}

// handleEcommerceProductUpdate is PUT (the fields creation requires) and
// PATCH (partial) /api/v2/ecommerce/products/{id}/.
func (a *api) handleEcommerceProductUpdate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	p, err := a.Ecommerce.UpdateProduct(r.Context(), pathID(r), decodeEcommerceProduct(doc), r.Method == http.MethodPatch)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONEcommerceProduct(p))
}

// handleEcommerceDeliveryGet is GET /api/v2/ecommerce/delivery-settings/.
func (a *api) handleEcommerceDeliveryGet(w http.ResponseWriter, r *http.Request) {
	d, err := a.Ecommerce.DeliverySettings(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONEcommerceDelivery(d))
}

// handleEcommerceDeliveryUpdate is PUT /api/v2/ecommerce/delivery-settings/.
func (a *api) handleEcommerceDeliveryUpdate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	d, err := a.Ecommerce.UpdateDeliverySettings(r.Context(), decodeEcommerceDeliverySettings(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONEcommerceDelivery(d))
}
