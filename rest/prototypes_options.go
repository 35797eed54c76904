package rest

import (
	"net/http"

	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
)

// toJSONOption is the option object of 2.4; voucher_prototypes lists the
// linked prototypes as {"id"} objects.
func toJSONOption(o *vouchers.VoucherOption) map[string]any {
	services := make([]map[string]any, len(o.Services))
	for i, s := range o.Services {
		services[i] = map[string]any{"service_cost": jsonNumber(s.Cost), "service_buying_vat": jsonNumber(s.BuyingVAT),
			"service_selling_vat": jsonNumber(s.SellingVAT), "service_price": jsonNumber(s.Price)}
	}
	prototypes := make([]map[string]any, len(o.VoucherPrototypeIDs))
	for i, id := range o.VoucherPrototypeIDs {
		prototypes[i] = map[string]any{"id": id}
	}
	out := map[string]any{"id": o.ID, "has_been_ordered": o.HasBeenOrdered, "countable": o.Countable,
		"services_info": services, "price": jsonNumber(o.Price), "selling_price": jsonNumber(o.SellingPrice),
		"is_active": o.IsActive, "is_global": o.IsGlobal, "ranking": o.Ranking, "category": o.CategoryID,
		"voucher_prototypes": prototypes}
	flatTexts(out, "name", o.Name)
	flatTexts(out, "description", o.Description)
	return out
}

// toJSONOptionCategory is 2.7.
func toJSONOptionCategory(c *prototypes.OptionCategory) map[string]any {
	out := map[string]any{"id": c.ID, "is_active": c.IsActive, "ranking": c.Ranking,
		"min_number_options": c.MinNumberOptions, "max_number_options": c.MaxNumberOptions,
		"partner": c.PartnerID, "partner_uuid": c.PartnerUUID.String()}
	flatTexts(out, "name", c.Name)
	flatTexts(out, "description", c.Description)
	return out
}

// handleOptionCreate is POST /api/options/: 201.
func (a *api) handleOptionCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	o, err := a.AdminPrototypes.CreateOption(r.Context(), decodeOptionInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONOption(o))
}

// handleOptionCategoryCreate is POST /api/option_categories/: 200, as the
// spec says.
func (a *api) handleOptionCategoryCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	c, err := a.AdminPrototypes.CreateOptionCategory(r.Context(), decodeOptionCategoryInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONOptionCategory(c))
}
