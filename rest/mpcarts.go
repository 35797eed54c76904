package rest

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"

	"salesplatform/domain/mpcart"
)

// The administration API's multi-product carts; the read is this
// service's.
func registerMultiProductCartRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/multi_product_carts/", idempotent(a.handleMultiProductCartCreate), http.MethodPost)
	handleWithToken(r, "/api/multi_product_carts/{id}/", a.handleMultiProductCart, http.MethodGet, http.MethodHead)
}

// jsonMultiProductCart is the contract's multi-product cart.
type jsonMultiProductCart struct {
	ID          string                   `json:"id"`
	PartnerUUID string                   `json:"partner_uuid"`
	Data        jsonMultiProductCartData `json:"data"`
}

type jsonMultiProductCartData struct {
	NetworkGiftcards []jsonMultiProductCartGiftcard `json:"network_giftcards"`
	NetworkVouchers  []jsonMultiProductCartVoucher  `json:"network_vouchers"`
}

type jsonMultiProductCartGiftcard struct {
	Amount      json.Number `json:"amount"`
	Quantity    int         `json:"quantity"`
	ThemedPDFID int64       `json:"themed_pdf_id"`
}

type jsonMultiProductCartVoucher struct {
	ID       int64 `json:"id"`
	Quantity int   `json:"quantity"`
}

func toJSONMultiProductCart(c *mpcart.Cart) jsonMultiProductCart {
	data := jsonMultiProductCartData{NetworkGiftcards: make([]jsonMultiProductCartGiftcard, len(c.Giftcards)),
		NetworkVouchers: make([]jsonMultiProductCartVoucher, len(c.Vouchers))}
	for i, g := range c.Giftcards {
		data.NetworkGiftcards[i] = jsonMultiProductCartGiftcard{Amount: jsonMoneyNumber(g.Amount), Quantity: g.Quantity,
			ThemedPDFID: g.ThemedPDFID}
	}
	for i, v := range c.Vouchers {
		data.NetworkVouchers[i] = jsonMultiProductCartVoucher{ID: v.BoxID, Quantity: v.Quantity}
	}
	return jsonMultiProductCart{ID: c.ID.String(), PartnerUUID: c.PartnerUUID.String(), Data: data}
}

// handleMultiProductCartCreate is POST /api/multi_product_carts/: 201,
// the cart, and its Location.
func (a *api) handleMultiProductCartCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	c, err := a.MultiProductCarts.CreateCart(r.Context(), decodeCartInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/multi_product_carts/"+c.ID.String()+"/")
	writeJSON(w, http.StatusCreated, toJSONMultiProductCart(c))
}

// handleMultiProductCart is GET /api/multi_product_carts/{id}/.
func (a *api) handleMultiProductCart(w http.ResponseWriter, r *http.Request) {
	c, err := a.MultiProductCarts.Cart(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONMultiProductCart(c))
}
