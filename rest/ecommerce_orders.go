package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/checkout"
)

// The orders the checkout funnel made, for the partner's backend.
func registerEcommerceOrderRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/v2/ecommerce/orders/", a.handleOrderList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/v2/ecommerce/orders/{id}/", a.handleOrderGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/v2/ecommerce/orders/{id}/refund/", idempotent(a.handleOrderRefund), http.MethodPost)
}

// jsonOrder is an e-commerce order with its related order's reference,
// its lines and its payment records (docs/API.md, "E-commerce orders").
type jsonOrder struct {
	ID             int64             `json:"id"`
	UUID           string            `json:"uuid"`
	Reference      string            `json:"reference"`
	Status         string            `json:"status"`
	Currency       string            `json:"currency"`
	CartID         string            `json:"cart_id"`
	Buyer          jsonOrderBuyer    `json:"buyer"`
	Delivery       jsonOrderDelivery `json:"delivery"`
	Lines          []jsonOrderLine   `json:"lines"`
	LinesTotal     string            `json:"lines_total"`
	DeliveryCost   string            `json:"delivery_cost"`
	Discount       string            `json:"discount"`
	GiftcardAmount string            `json:"giftcard_amount"`
	CardAmount     string            `json:"card_amount"`
	Total          string            `json:"total"`
	VATTotal       string            `json:"vat_total"`
	RefundedAmount string            `json:"refunded_amount"`
	Coupon         *jsonOrderCoupon  `json:"coupon"`
	Giftcard       *jsonOrderCard    `json:"giftcard"`
	Payment        *jsonOrderPayment `json:"payment"`
	CreatedAt      any               `json:"created_at"`
	UpdatedAt      any               `json:"updated_at"`
	PaidAt         any               `json:"paid_at"`
}

type jsonOrderBuyer struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Email     string `json:"email"`
	Phone     string `json:"phone"`
	Language  string `json:"language"`
}

type jsonOrderDelivery struct {
	Mode                 string `json:"mode"`
	Cost                 string `json:"cost"`
	Street               string `json:"street"`
	PostalCode           string `json:"postal_code"`
	City                 string `json:"city"`
	Country              string `json:"country"`
	BeneficiaryFirstName string `json:"beneficiary_first_name"`
	BeneficiaryLastName  string `json:"beneficiary_last_name"`
	BeneficiaryEmail     string `json:"beneficiary_email"`
}

type jsonOrderLine struct {
	ID              int64             `json:"id"`
	ProductID       int64             `json:"product_id"`
	VariantID       *int64            `json:"variant_id"`
	AttributeValues map[string]string `json:"attribute_values"`
	Name            string            `json:"name"`
	Quantity        int64             `json:"quantity"`
	UnitPrice       string            `json:"unit_price"`
	VATRate         string            `json:"vat_rate"`
	VATAmount       string            `json:"vat_amount"`
	Total           string            `json:"total"`
}

type jsonOrderCoupon struct {
	ID       int64  `json:"id"`
	Code     string `json:"code"`
	Discount string `json:"discount"`
}

type jsonOrderCard struct {
	UUID    string `json:"uuid"`
	Code    string `json:"code"`
	Amount  string `json:"amount"`
	UsageID *int64 `json:"usage_id"`
}

type jsonOrderPayment struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Amount string `json:"amount"`
}

func toJSONOrder(o *checkout.Order) jsonOrder {
	b, d := o.Buyer, o.Delivery
	out := jsonOrder{ID: o.ID, UUID: o.UUID.String(), Reference: o.Reference, Status: o.Status, Currency: o.Currency,
		CartID: o.CartID.String(),
		Buyer:  jsonOrderBuyer{FirstName: b.FirstName, LastName: b.LastName, Email: b.Email, Phone: b.Phone, Language: b.Language},
		Delivery: jsonOrderDelivery{Mode: d.Mode, Cost: d.Cost.StringFixed(2), Street: b.Street, PostalCode: b.PostalCode,
			City: b.City, Country: b.Country, BeneficiaryFirstName: b.BeneficiaryFirstName,
			BeneficiaryLastName: b.BeneficiaryLastName, BeneficiaryEmail: b.BeneficiaryEmail},
		Lines:      make([]jsonOrderLine, len(o.Lines)),
		LinesTotal: o.LinesTotal.StringFixed(2), DeliveryCost: o.DeliveryCost.StringFixed(2),
		Discount: o.Discount.StringFixed(2), GiftcardAmount: o.GiftcardAmount.StringFixed(2),
		CardAmount: o.CardAmount.StringFixed(2), Total: o.Total.StringFixed(2), VATTotal: o.VATTotal.StringFixed(2),
		RefundedAmount: o.RefundedAmount.StringFixed(2),
		CreatedAt:      jsonTime(&o.CreatedAt, time.UTC), UpdatedAt: jsonTime(&o.UpdatedAt, time.UTC),
		PaidAt: jsonTime(o.PaidAt, time.UTC)}
	for i, l := range o.Lines {
		attrs := make(map[string]string, len(l.AttributeValues))
		for k, v := range l.AttributeValues {
			attrs[strconv.FormatInt(k, 10)] = v
		}
		out.Lines[i] = jsonOrderLine{ID: l.ID, ProductID: l.ProductID, VariantID: l.VariantID, AttributeValues: attrs,
			Name: l.Name, Quantity: l.Quantity, UnitPrice: l.UnitPrice.StringFixed(2), VATRate: l.VATRate.StringFixed(2),
			VATAmount: l.VATAmount.StringFixed(2), Total: l.Total.StringFixed(2)}
	}
	if c := o.Coupon; c != nil {
		out.Coupon = &jsonOrderCoupon{ID: c.ID, Code: c.Code, Discount: c.Discount.StringFixed(2)}
	}
	if g := o.Giftcard; g != nil {
		out.Giftcard = &jsonOrderCard{UUID: g.CardUUID.String(), Code: g.Code, Amount: g.Amount.StringFixed(2), UsageID: g.UsageID}
	}
	if p := o.Payment; p != nil {
		out.Payment = &jsonOrderPayment{ID: p.UUID.String(), Status: p.Status, Amount: p.Amount.StringFixed(2)}
	}
	return out
}

// handleOrderList is GET /api/v2/ecommerce/orders/: a page of the
// partner's orders, newest first; status, created_after and
// created_before narrow it.
func (a *api) handleOrderList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	orders, err := a.Checkout.Orders(r.Context(), decodeOrderListInput(r.URL.Query()), page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toAdminPage(r, orders, toJSONOrder))
}

// handleOrderGet is GET /api/v2/ecommerce/orders/{id}/.
func (a *api) handleOrderGet(w http.ResponseWriter, r *http.Request) {
	o, err := a.Checkout.Order(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONOrder(o))
}

// handleOrderRefund is POST /api/v2/ecommerce/orders/{id}/refund/ with
// {amount, restock}: 200, the order as it is after the refund.
func (a *api) handleOrderRefund(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	o, err := a.Checkout.RefundOrder(r.Context(), pathID(r), decodeOrderRefundInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONOrder(o))
}
