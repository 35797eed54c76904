package rest

import (
	"net/http"
	"strconv"

	"github.com/gorilla/mux"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/prototypes"
)

// Voucher prototypes, options and option categories of the administration
// API (docs/admin-prototypes.md).

func registerAdminPrototypeRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/voucher_prototypes/", a.handleVoucherPrototypeCreate, http.MethodPost)
	handleWithToken(r, "/api/voucher_prototypes/", a.handleVoucherPrototypeList, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/voucher_prototypes/{id:[0-9]+}/", a.handleVoucherPrototypeGet, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/voucher_prototypes/{id:[0-9]+}/", a.handleVoucherPrototypeUpdate, http.MethodPut, http.MethodPatch)
	handleWithToken(r, "/api/voucher_prototypes/{id:[0-9]+}/options/", a.handleVoucherPrototypeOptions, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/options/", a.handleOptionCreate, http.MethodPost)
	handleWithToken(r, "/api/option_categories/", a.handleOptionCategoryCreate, http.MethodPost)
}

func jsonOptNumber(d *decimal.Decimal) any {
	if d == nil {
		return nil
	}
	return jsonNumber(*d)
}

// flatTexts adds prefix_<lang> for every language, "" where none.
func flatTexts(out map[string]any, prefix string, l domain.Localized) {
	for _, lang := range domain.Languages {
		out[prefix+"_"+lang] = l[lang]
	}
}

// toJSONVoucherPrototype is 2.5: the 4.6 fields plus id, partner and
// nb_orders.
func toJSONVoucherPrototype(p *prototypes.AdminVoucherPrototype) map[string]any {
	out := map[string]any{
		"id": p.ID, "partner": p.PartnerID, "partner_uuid": p.PartnerUUID.String(), "nb_orders": p.NbOrders,
		"is_active": p.IsActive, "type": p.Type, "is_highlight": p.IsHighlight, "price_scope": p.PriceScope,
		"max_capacity": p.MaxCapacity, "min_capacity": p.MinCapacity, "stay_price": jsonNumber(p.StayPrice),
		"adults_price": jsonOptNumber(p.AdultsPrice), "children_price": jsonOptNumber(p.ChildrenPrice),
		"baby_price": jsonOptNumber(p.BabyPrice), "universe": p.UniverseID, "environment": p.EnvironmentID,
		"last_active_day": nil, "ranking": p.Ranking, "images": p.ImageIDs, "cover_image": p.CoverImageID,
	}
	if p.LastActiveDay != nil {
		out["last_active_day"] = p.LastActiveDay.Format("2006-01-02")
	}
	flatTexts(out, "name", p.Name)
	flatTexts(out, "description", p.Description)
	flatTexts(out, "long_description", p.LongDescription)
	flatTexts(out, "rent_conditions", p.RentConditions)
	flatTexts(out, "how_to_book_html", p.HowToBookHTML)
	flatTexts(out, "pdf_description", p.PDFText)
	return out
}

// handleVoucherPrototypeCreate is POST /api/voucher_prototypes/: 201.
func (a *api) handleVoucherPrototypeCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	p, err := a.AdminPrototypes.CreateVoucherPrototype(r.Context(), decodePrototypeCreate(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONVoucherPrototype(p))
}

// handleVoucherPrototypeList is GET /api/voucher_prototypes/: a Page.
func (a *api) handleVoucherPrototypeList(w http.ResponseWriter, r *http.Request) {
	req, err := pageRequest(r)
	if err == nil {
		var page *domain.Page[*prototypes.AdminVoucherPrototype]
		if page, err = a.AdminPrototypes.VoucherPrototypes(r.Context(), prototypes.AdminPrototypeFilter{}, req); err == nil {
			writeJSON(w, http.StatusOK, toAdminPage(r, page, toJSONVoucherPrototype))
			return
		}
	}
	writeError(w, r, err)
}

// handleVoucherPrototypeGet is GET /api/voucher_prototypes/{id}/.
func (a *api) handleVoucherPrototypeGet(w http.ResponseWriter, r *http.Request) {
	p, err := a.AdminPrototypes.VoucherPrototype(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONVoucherPrototype(p))
}

// handleVoucherPrototypeUpdate is PUT (required fields as on create) and
// PATCH (partial) /api/voucher_prototypes/{id}/.
func (a *api) handleVoucherPrototypeUpdate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	p, err := a.AdminPrototypes.UpdateVoucherPrototype(r.Context(), pathID(r), decodePrototypeInput(doc), r.Method == http.MethodPatch)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONVoucherPrototype(p))
}

// handleVoucherPrototypeOptions is GET
// /api/voucher_prototypes/{id}/options/: an array of 2.6, the total in
// X-Total-Count.
func (a *api) handleVoucherPrototypeOptions(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var page *domain.Page[*prototypes.PrototypeOptionLink]
		if page, err = a.AdminPrototypes.PrototypeOptions(r.Context(), pathID(r), req); err == nil {
			out := make([]map[string]any, len(page.Items))
			for i, l := range page.Items {
				out[i] = toJSONPrototypeOptionLink(l)
			}
			w.Header().Set("X-Total-Count", strconv.Itoa(page.Count))
			writeJSON(w, http.StatusOK, out)
			return
		}
	}
	writeError(w, r, err)
}

// toJSONPrototypeOptionLink is 2.6.
func toJSONPrototypeOptionLink(l *prototypes.PrototypeOptionLink) map[string]any {
	o := l.Option
	option := map[string]any{"id": o.ID, "selling_price": jsonNumber(o.SellingPrice), "is_active": o.IsActive,
		"countable": o.Countable, "is_global": o.IsGlobal, "ranking": o.Ranking, "partner": o.PartnerID,
		"partner_uuid": o.PartnerUUID.String(), "voucher_prototypes_ids": o.VoucherPrototypeIDs, "category_id": o.CategoryID}
	flatTexts(option, "name", o.Name)
	flatTexts(option, "description", o.Description)
	return map[string]any{"id": l.ID, "count": l.Count, "included": l.Included, "option": option}
}
