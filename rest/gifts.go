package rest

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
)

// registerGiftRoutes adds the catalogue routes of GiftService.
func registerGiftRoutes(r *mux.Router, a *api) {
	handle(r, "/api/v2/gift/{code}/", a.handleGiftGet, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/gift/{code}/linked_partners/", a.handleGiftLinkedPartners, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/contact_requests/", a.handleContactRequestCreate, http.MethodPost)
}

// jsonGiftPartner is a partner (or marketplace) in the gift payloads; uuid
// is what a contact request's partner field takes.
type jsonGiftPartner struct {
	ID            int64  `json:"id"`
	UUID          string `json:"uuid"`
	Name          string `json:"name"`
	IsMarketplace bool   `json:"is_marketplace"`
}

func toJSONGiftPartner(p *domain.Partner) jsonGiftPartner {
	return jsonGiftPartner{ID: p.ID, UUID: p.UUID.String(), Name: p.Name, IsMarketplace: p.IsMarketplace}
}

type jsonGiftProduct struct {
	ID   int64  `json:"id"`
	Type string `json:"type"`
}

// jsonGift is the normalized payload of a gift of any kind
// (docs/DECISIONS.md): fields a kind does not have are null.
type jsonGift struct {
	ID                      int64            `json:"id"`
	Code                    string           `json:"code"`
	Type                    string           `json:"type"`
	State                   string           `json:"state"`
	Value                   *string          `json:"value"`
	ValueFormatted          jsonLocalized    `json:"value_formatted"`
	RemainingValue          *string          `json:"remaining_value"`
	RemainingValueFormatted jsonLocalized    `json:"remaining_value_formatted"`
	MaxUsages               *int             `json:"max_usages"`
	UsageCount              *int             `json:"usage_count"`
	CurrencyCode            string           `json:"currency_code"`
	CreationDate            time.Time        `json:"creation_date"`
	ActivationDate          *time.Time       `json:"activation_date"`
	ExpirationDate          *time.Time       `json:"expiration_date"`
	ExpirationDateFormatted jsonLocalized    `json:"expiration_date_formatted"`
	Usable                  bool             `json:"usable"`
	Product                 *jsonGiftProduct `json:"product"`
	Partner                 jsonGiftPartner  `json:"partner"`
}

func toJSONGift(g *gifts.GiftView) jsonGift {
	out := jsonGift{
		ID: g.ID, Code: g.Code, Type: string(g.Kind), State: g.State,
		Value: jsonMoney(g.Value), ValueFormatted: optionalJSONLocalized(g.ValueFormatted),
		RemainingValue: jsonMoney(g.RemainingValue), RemainingValueFormatted: optionalJSONLocalized(g.RemainingValueFormatted),
		MaxUsages: g.MaxUsages, UsageCount: g.UsageCount, CurrencyCode: g.Currency,
		CreationDate:   g.CreatedAt.In(g.Location),
		ActivationDate: jsonTimeIn(g.ActivatesAt, g.Location), ExpirationDate: jsonTimeIn(g.ExpiresAt, g.Location),
		ExpirationDateFormatted: optionalJSONLocalized(g.ExpiresAtFormatted),
		Usable:                  g.Usable, Partner: toJSONGiftPartner(g.Seller),
	}
	if g.ProductID != nil {
		out.Product = &jsonGiftProduct{ID: *g.ProductID, Type: g.ProductType()}
	}
	return out
}

func jsonMoney(d *decimal.Decimal) *string {
	if d == nil {
		return nil
	}
	s := d.StringFixed(2)
	return &s
}

func jsonTimeIn(t *time.Time, loc *time.Location) *time.Time {
	if t == nil {
		return nil
	}
	in := t.In(loc)
	return &in
}

// handleGiftGet is GET /api/v2/gift/{code}/ (gift_retrieve).
func (a *api) handleGiftGet(w http.ResponseWriter, r *http.Request) {
	g, err := a.Gifts.Gift(r.Context(), mux.Vars(r)["code"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONGift(g))
}

type jsonGiftLinkedPartners struct {
	Code     string            `json:"code"`
	Type     string            `json:"type"`
	Partners []jsonGiftPartner `json:"partners"`
}

// handleGiftLinkedPartners is GET /api/v2/gift/{code}/linked_partners/
// (gift_linked_partners_retrieve).
func (a *api) handleGiftLinkedPartners(w http.ResponseWriter, r *http.Request) {
	lp, err := a.Gifts.LinkedPartners(r.Context(), mux.Vars(r)["code"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := jsonGiftLinkedPartners{Code: lp.Gift.Code, Type: string(lp.Gift.Kind), Partners: make([]jsonGiftPartner, len(lp.Partners))}
	for i, p := range lp.Partners {
		out.Partners[i] = toJSONGiftPartner(p)
	}
	writeJSON(w, http.StatusOK, out)
}

type jsonRelatedProduct struct {
	ID    int64  `json:"id"`
	Type  string `json:"type"`
	State string `json:"state"`
}

// jsonContactRequest is the contact request (spec 001, 2.5).
type jsonContactRequest struct {
	ID                    int64              `json:"id"`
	GiftCode              string             `json:"gift_code"`
	FullName              string             `json:"full_name"`
	Email                 string             `json:"email"`
	PhoneNumber           *string            `json:"phone_number"`
	Message               string             `json:"message"`
	Partner               string             `json:"partner"`
	RelatedProductDetails jsonRelatedProduct `json:"related_product_details"`
}

// handleContactRequestCreate is POST /api/v2/contact_requests/
// (contact_requests_create): 201 with the stored request. The body has no
// nested fields, so a form (a site's contact form) is taken as well as JSON.
func (a *api) handleContactRequestCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeFlat(w, r)
	if !ok {
		return
	}
	cr, err := a.Gifts.CreateContactRequest(r.Context(), decodeContactRequestInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, jsonContactRequest{
		ID: cr.ID, GiftCode: cr.GiftCode, FullName: cr.FullName, Email: cr.Email, PhoneNumber: cr.PhoneNumber,
		Message: cr.Message, Partner: cr.Partner.UUID.String(),
		RelatedProductDetails: jsonRelatedProduct{ID: cr.Gift.ID, Type: string(cr.Gift.Kind), State: cr.Gift.State},
	})
}
