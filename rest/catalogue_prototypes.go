package rest

import (
	"net/http"

	"github.com/gorilla/mux"

	"salesplatform/domain/catalogue"
)

// registerPrototypeRoutes adds the catalogue routes of PrototypeService.
func registerPrototypeRoutes(r *mux.Router, a *api) {
	handle(r, "/api/v2/universes/", a.handleUniverseList, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/themes/", a.handleThemeList, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/giftcard_prototypes/", a.handleGiftcardPrototypeList, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/giftcard_prototypes/{id}/", a.handleGiftcardPrototypeGet, http.MethodGet, http.MethodHead)
}

// jsonTheme is a theme (catalogue 2.14).
type jsonTheme struct {
	ID   int64         `json:"id"`
	Name jsonLocalized `json:"name"`
}

// jsonMoneyPot is a giftcard prototype's money pot setting.
type jsonMoneyPot struct {
	Activated bool   `json:"activated"`
	Logo      string `json:"logo"`
}

// jsonGiftcardPrototype is a giftcard prototype (catalogue 2.7).
type jsonGiftcardPrototype struct {
	ID                         int64           `json:"id"`
	CustomizedAmount           bool            `json:"customized_amount"`
	Description                jsonLocalized   `json:"description"`
	MinimumAmount              string          `json:"minimum_amount"`
	MinimumAmountFormatted     jsonLocalized   `json:"minimum_amount_formatted"`
	MoneyPot                   jsonMoneyPot    `json:"money_pot"`
	PartnerID                  int64           `json:"partner_id"`
	PartnerName                string          `json:"partner_name"`
	PredefinedAmounts          []string        `json:"predefined_amounts"`
	PredefinedAmountsFormatted []jsonLocalized `json:"predefined_amounts_formatted"`
	TermsOfUse                 jsonLocalized   `json:"terms_of_use"`
	Title                      jsonLocalized   `json:"title"`
	ValidityPeriod             int             `json:"validity_period"`
	ValidityUnit               string          `json:"validity_unit"`
}

func toJSONGiftcardPrototype(p *catalogue.GiftcardPrototypeView) jsonGiftcardPrototype {
	out := jsonGiftcardPrototype{
		ID:                         p.ID,
		CustomizedAmount:           p.CustomizedAmount,
		Description:                toJSONLocalized(p.Description),
		MinimumAmount:              p.MinimumAmount.StringFixed(2),
		MinimumAmountFormatted:     toJSONLocalized(p.MinimumAmountFormatted),
		MoneyPot:                   jsonMoneyPot{Activated: p.MoneyPotActivated, Logo: p.MoneyPotLogo},
		PartnerID:                  p.PartnerID,
		PartnerName:                p.PartnerName,
		PredefinedAmounts:          make([]string, len(p.PredefinedAmounts)),
		PredefinedAmountsFormatted: make([]jsonLocalized, len(p.PredefinedAmountsFormatted)),
		TermsOfUse:                 toJSONLocalized(p.TermsOfUse),
		Title:                      toJSONLocalized(p.Title),
		ValidityPeriod:             p.ValidityPeriod,
		ValidityUnit:               p.ValidityUnit,
	}
	for i, a := range p.PredefinedAmounts {
		out.PredefinedAmounts[i] = a.StringFixed(2)
	}
	for i, f := range p.PredefinedAmountsFormatted {
		out.PredefinedAmountsFormatted[i] = toJSONLocalized(f)
	}
	return out
}

// handleUniverseList is universes_list.
func (a *api) handleUniverseList(w http.ResponseWriter, r *http.Request) {
	universes, err := a.PrototypeCatalog.Universes(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONUniverses(universes))
}

// handleThemeList is themes_list.
func (a *api) handleThemeList(w http.ResponseWriter, r *http.Request) {
	themes, err := a.PrototypeCatalog.Themes(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]jsonTheme, len(themes))
	for i, t := range themes {
		out[i] = jsonTheme{ID: t.ID, Name: toJSONLocalized(t.Name)}
	}
	writeJSON(w, http.StatusOK, out)
}

// handleGiftcardPrototypeList is giftcard_prototypes_list.
func (a *api) handleGiftcardPrototypeList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	protos, err := a.PrototypeCatalog.GiftcardPrototypes(r.Context(), r.URL.Query().Get("partner"), page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, protos, toJSONGiftcardPrototype))
}

// handleGiftcardPrototypeGet is giftcard_prototypes_retrieve.
func (a *api) handleGiftcardPrototypeGet(w http.ResponseWriter, r *http.Request) {
	proto, err := a.PrototypeCatalog.GiftcardPrototype(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONGiftcardPrototype(proto))
}
