package rest

import (
	"net/http"

	"github.com/gorilla/mux"

	"salesplatform/domain/catalogue"
)

// registerBoxRoutes adds the catalogue routes of BoxService.
func registerBoxRoutes(r *mux.Router, a *api) {
	handle(r, "/api/v2/network_vouchers/boxes/", a.handleBoxList, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/network_vouchers/boxes/{id}/", a.handleBoxGet, http.MethodGet, http.MethodHead)
	handle(r, "/api/v2/network_vouchers/universes/", a.handleBoxUniverseList, http.MethodGet, http.MethodHead)
}

// jsonBox is a box list item (catalogue 2.10).
type jsonBox struct {
	ID               int64         `json:"id"`
	IsActive         bool          `json:"is_active"`
	IsHighlight      bool          `json:"is_highlight"`
	DisplayNbOffers  bool          `json:"display_nb_offers"`
	NbOffers         int           `json:"nb_offers"`
	Name             jsonLocalized `json:"name"`
	ShortDescription jsonLocalized `json:"short_description"`
	Price            string        `json:"price"`
	PriceFormatted   jsonLocalized `json:"price_formatted"`
	CurrencyCode     string        `json:"currency_code"`
	Ranking          int           `json:"ranking"`
	Universes        []int64       `json:"universes"`
}

// jsonBoxDetail is a box detail (catalogue 2.10). delivery_options is
// always null: the contract shows no other value.
type jsonBoxDetail struct {
	jsonBox
	LongDescription        jsonLocalized `json:"long_description"`
	PeopleIncluded         int           `json:"people_included"`
	MaxNumberUsages        int           `json:"max_number_usages"`
	MaxDaysAfterFirstUsage int           `json:"max_days_after_first_usage"`
	Images                 []string      `json:"images"`
	DeliveryOptions        *struct{}     `json:"delivery_options"`
}

func toJSONBox(b *catalogue.BoxView) jsonBox {
	return jsonBox{
		ID:               b.ID,
		IsActive:         b.IsActive,
		IsHighlight:      b.IsHighlight,
		DisplayNbOffers:  b.DisplayNbOffers,
		NbOffers:         b.NbOffers,
		Name:             toJSONLocalized(b.Name),
		ShortDescription: toJSONLocalized(b.ShortDescription),
		Price:            b.Price.StringFixed(2),
		PriceFormatted:   toJSONLocalized(b.PriceFormatted()),
		CurrencyCode:     b.CurrencyCode,
		Ranking:          b.Ranking,
		Universes:        b.UniverseIDs,
	}
}

func toJSONBoxDetail(b *catalogue.BoxView) jsonBoxDetail {
	return jsonBoxDetail{
		jsonBox:                toJSONBox(b),
		LongDescription:        toJSONLocalized(b.LongDescription),
		PeopleIncluded:         b.PeopleIncluded,
		MaxNumberUsages:        b.MaxNumberUsages,
		MaxDaysAfterFirstUsage: b.MaxDaysAfterFirstUsage,
		Images:                 b.Images,
	}
}

// jsonUniverse is a universe with its sub-universes (catalogue 2.11).
type jsonUniverse struct {
	ID           int64          `json:"id"`
	Name         jsonLocalized  `json:"name"`
	Order        *int           `json:"order"`
	SubUniverses []jsonUniverse `json:"sub_universes"`
}

func toJSONUniverses(nodes []*catalogue.UniverseNode) []jsonUniverse {
	out := make([]jsonUniverse, len(nodes))
	for i, n := range nodes {
		out[i] = jsonUniverse{ID: n.ID, Name: toJSONLocalized(n.Name), Order: n.Order, SubUniverses: toJSONUniverses(n.SubUniverses)}
	}
	return out
}

// handleBoxList is network_vouchers_boxes_list.
func (a *api) handleBoxList(w http.ResponseWriter, r *http.Request) {
	page, err := pageRequest(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// The list shows the short description, not the long one.
	boxes, err := a.BoxCatalog.Boxes(r.Context(), catalogue.BoxList{Ordering: terms(r.URL.Query().Get("ordering")), Page: page,
		Texts: catalogue.BoxShortDescription})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONPage(r, boxes, toJSONBox))
}

// handleBoxGet is network_vouchers_boxes_retrieve.
func (a *api) handleBoxGet(w http.ResponseWriter, r *http.Request) {
	box, err := a.BoxCatalog.Box(r.Context(), mux.Vars(r)["id"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONBoxDetail(box))
}

// handleBoxUniverseList is network_vouchers_universes_list.
func (a *api) handleBoxUniverseList(w http.ResponseWriter, r *http.Request) {
	universes, err := a.BoxCatalog.BoxUniverses(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONUniverses(universes))
}
