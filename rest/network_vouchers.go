package rest

import (
	"bytes"
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/rest/drf"
)

// registerNetworkVoucherRoutes adds the administration routes of network
// voucher boxes, network vouchers and their usages.
func registerNetworkVoucherRoutes(r *mux.Router, a *api) {
	get := []string{http.MethodGet, http.MethodHead}
	handleWithToken(r, "/api/networkvouchers/boxes/", a.handleNetworkVoucherBoxes, get...)
	handleWithToken(r, "/api/networkvouchers/boxes/{id:[0-9]+}/", a.handleNetworkVoucherBox, get...)
	handleWithToken(r, "/api/networkvouchers/boxes/{id:[0-9]+}/offers/", a.handleNetworkVoucherBoxOffers, get...)
	handleWithToken(r, "/api/networkvouchers_by_code/{code}/", a.handleNetworkVoucherByCode, get...)
	handleWithToken(r, "/api/networkvouchers_by_email/{email}/", a.handleNetworkVouchersByEmail, get...)
	handleWithToken(r, "/api/networkvouchers_by_code/{code}/usages/", a.handleNetworkVoucherUsages, get...)
	handleWithToken(r, "/api/networkvouchers_by_code/{code}/use/", idempotent(a.handleNetworkVoucherUse(false)), http.MethodPost)
	handleWithToken(r, "/api/networkvouchers_by_code/{code}/use_with_service_id/", idempotent(a.handleNetworkVoucherUse(true)), http.MethodPost)
	handleWithToken(r, "/api/networkvoucher_usages/{id:[0-9]+}/cancel/", idempotent(a.handleNetworkVoucherUsageCancel), http.MethodPost)
}

// handleNetworkVoucherBoxes is GET /api/networkvouchers/boxes/: an array of
// boxes.
func (a *api) handleNetworkVoucherBoxes(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var p *domain.Page[*network.BoxRecord]
		if p, err = a.NetworkVouchers.Boxes(r.Context(), req); err == nil {
			writeArrayPage(w, r, p, toJSONNetworkBox)
			return
		}
	}
	writeError(w, r, err)
}

// handleNetworkVoucherBox is GET /api/networkvouchers/boxes/{id}/.
func (a *api) handleNetworkVoucherBox(w http.ResponseWriter, r *http.Request) {
	b, err := a.NetworkVouchers.Box(r.Context(), pathID(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONNetworkBox(b))
}

// handleNetworkVoucherBoxOffers is GET
// /api/networkvouchers/boxes/{id}/offers/: an array of offers.
func (a *api) handleNetworkVoucherBoxOffers(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var p *domain.Page[*network.Offer]
		if p, err = a.NetworkVouchers.BoxOffers(r.Context(), pathID(r), req); err == nil {
			writeArrayPage(w, r, p, toJSONBoxOffer)
			return
		}
	}
	writeError(w, r, err)
}

// handleNetworkVoucherByCode is GET /api/networkvouchers_by_code/{code}/.
func (a *api) handleNetworkVoucherByCode(w http.ResponseWriter, r *http.Request) {
	v, err := a.NetworkVouchers.NetworkVoucherByCode(r.Context(), mux.Vars(r)["code"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONNetworkVoucher(v))
}

// handleNetworkVouchersByEmail is GET
// /api/networkvouchers_by_email/{email}/: an array of network vouchers.
func (a *api) handleNetworkVouchersByEmail(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var p *domain.Page[*network.Voucher]
		if p, err = a.NetworkVouchers.NetworkVouchersByEmail(r.Context(), mux.Vars(r)["email"], req); err == nil {
			writeArrayPage(w, r, p, toJSONNetworkVoucher)
			return
		}
	}
	writeError(w, r, err)
}

// handleNetworkVoucherUsages is GET
// /api/networkvouchers_by_code/{code}/usages/: an array of usages.
func (a *api) handleNetworkVoucherUsages(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	if err == nil {
		var p *domain.Page[*network.VoucherUsage]
		if p, err = a.NetworkVouchers.UsagesByCode(r.Context(), mux.Vars(r)["code"], req); err == nil {
			writeArrayPage(w, r, p, toJSONNetworkVoucherUsage)
			return
		}
	}
	writeError(w, r, err)
}

// handleNetworkVoucherUse is POST /api/networkvouchers_by_code/{code}/use/
// (the partner by partner_source_id) and .../use_with_service_id/ (by
// partner_id, byID): 200 with the usage.
func (a *api) handleNetworkVoucherUse(byID bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeFlat(w, r)
		if !ok {
			return
		}
		u, err := a.NetworkVouchers.RecordUsage(r.Context(), decodeUsageInput(mux.Vars(r)["code"], body, byID))
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, toJSONNetworkVoucherUsage(u))
	}
}

// handleNetworkVoucherUsageCancel is POST
// /api/networkvoucher_usages/{id}/cancel/ with an optional {"comment"}:
// 200 with the usage.
func (a *api) handleNetworkVoucherUsageCancel(w http.ResponseWriter, r *http.Request) {
	body, ok := decodeOptionalFlat(w, r)
	if !ok {
		return
	}
	u, err := a.NetworkVouchers.CancelUsage(r.Context(), decodeVoucherCancelInput(pathID(r), body))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSONNetworkVoucherUsage(u))
}

// decodeOptionalFlat is decodeFlat for an optional body: no body at all
// (no Content-Type, no bytes) is an empty one, as DRF reads it.
func decodeOptionalFlat(w http.ResponseWriter, r *http.Request) (drf.Object, bool) {
	if r.Header.Get("Content-Type") != "" {
		return decodeFlat(w, r)
	}
	b, herr := readBody(w, r)
	switch {
	case herr != nil:
		herr.write(w)
		return nil, false
	case len(bytes.TrimSpace(b)) > 0:
		unsupported(r).write(w)
		return nil, false
	}
	return drf.Object{}, true
}

// utcTime writes a date in UTC, the zone of the network records.
func utcTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// priceRangeLanguages are the languages of a price range's names in a box
// record: the contract's seven, without German.
var priceRangeLanguages = []string{"en", "fr", "es", "it", "nl", "ca", "pt"}

// toJSONNetworkBox is the box record.
func toJSONNetworkBox(b *network.BoxRecord) map[string]any {
	out := map[string]any{
		"id": b.ID, "creation_date": utcTime(&b.CreationDate), "is_active": b.IsActive, "is_highlight": b.IsHighlight,
		"price": jsonNumber(b.Price), "weight": b.Weight, "price_scope": b.PriceScope, "max_usages": b.MaxUsages,
		"max_days_after_first_usage": b.MaxDaysAfterFirstUsage, "nb_mpo_orders": b.NbMPOOrders,
		"marketplace": b.MarketplaceID, "price_range": nil,
	}
	flatTexts(out, "name", b.Name)
	flatTexts(out, "short_description", b.ShortDescription)
	flatTexts(out, "long_description", b.LongDescription)
	if pr := b.PriceRange; pr != nil {
		r := map[string]any{"id": pr.ID, "partner": pr.PartnerID}
		for _, lang := range priceRangeLanguages {
			r["name_"+lang] = pr.Name[lang]
		}
		out["price_range"] = r
	}
	images := make([]map[string]any, len(b.Images))
	for i, im := range b.Images {
		m := im.Media
		images[i] = map[string]any{"id": im.ID, "image": map[string]any{
			"id": m.ID, "uuid": m.UUID.String(), "name": m.Name, "size": m.Size,
			"readable": m.ArchivedOn == nil, "writable": false,
			"created_on": utcTime(&m.CreatedOn), "updated_on": utcTime(&m.CreatedOn), "archived_on": utcTime(m.ArchivedOn),
			"cover": im.Cover,
		}}
	}
	out["images"] = images
	partners := make([]map[string]any, len(b.AllowedPartners))
	for i, p := range b.AllowedPartners {
		partners[i] = map[string]any{"id": p.ID, "source_id": p.SourceID, "agency_name": p.AgencyName}
	}
	out["allowed_partners"] = partners
	products := make([]map[string]any, len(b.Products))
	for i, p := range b.Products {
		products[i] = map[string]any{"id": p.ID, "price_range": p.PriceRangeID}
		flatTexts(products[i], "name", p.Name)
	}
	out["products"] = products
	return out
}

// toJSONBoxOffer is the offer record.
func toJSONBoxOffer(o *network.Offer) map[string]any {
	out := map[string]any{
		"id": o.ID, "edition_date": utcTime(&o.EditionDate), "rejection_date": utcTime(o.RejectionDate),
		"is_active": o.IsActive, "status": o.Status, "ranking": o.Ranking, "box": o.BoxID, "product": o.ProductID,
		"partner": o.PartnerID,
	}
	flatTexts(out, "name", o.Name)
	flatTexts(out, "description", o.Description)
	flatTexts(out, "terms_of_use", o.TermsOfUse)
	return out
}

// jsonNetworkVoucher is the network voucher record.
type jsonNetworkVoucher struct {
	ID               int64      `json:"id"`
	UUID             string     `json:"uuid"`
	Code             string     `json:"code"`
	Status           string     `json:"status"`
	CreationDate     any        `json:"creation_date"`
	ExpirationDate   any        `json:"expiration_date"`
	MaxUsages        int        `json:"max_usages"`
	UsageCount       int        `json:"usage_count"`
	Box              int64      `json:"box"`
	BoxName          string     `json:"box_name"`
	BoxPrice         any        `json:"box_price"`
	IsBoxActive      bool       `json:"is_box_active"`
	Description      string     `json:"description"`
	ShortDescription string     `json:"short_description"`
	Universes        [][]string `json:"universes"`
	Tags             [][]string `json:"tags"`
}

// toJSONNetworkVoucher is the network voucher record: the box's texts in the voucher's language;
// description is the box's long description.
func toJSONNetworkVoucher(v *network.Voucher) jsonNetworkVoucher {
	out := jsonNetworkVoucher{ID: v.ID, UUID: v.UUID.String(), Code: v.Code, Status: v.Status,
		CreationDate: utcTime(&v.CreationDate), ExpirationDate: utcTime(v.ExpirationDate), MaxUsages: v.MaxUsages,
		UsageCount: v.UsageCount, Box: v.BoxID, BoxName: v.Text(v.Box.Name), BoxPrice: jsonNumber(v.Box.Price),
		IsBoxActive: v.Box.IsActive, Description: v.Text(v.Box.LongDescription),
		ShortDescription: v.Text(v.Box.ShortDescription), Universes: make([][]string, len(v.Box.Universes)),
		Tags: [][]string{}}
	for i, path := range v.Box.Universes {
		out.Universes[i] = make([]string, len(path))
		for j, name := range path {
			out.Universes[i][j] = v.Text(name)
		}
	}
	return out
}

// jsonNetworkVoucherUsage is the network voucher usage record.
type jsonNetworkVoucherUsage struct {
	ID                int64  `json:"id"`
	CreationDate      any    `json:"creation_date"`
	NetworkVoucher    int64  `json:"network_voucher"`
	Partner           int64  `json:"partner"`
	PartnerAgencyName string `json:"partner_agency_name"`
	PartnerSourceID   *int64 `json:"partner_source_id"`
	IsActive          bool   `json:"is_active"`
	Comment           string `json:"comment"`
	ManagementFees    any    `json:"management_fees"`
	CommissionRate    any    `json:"commission_rate"`
}

func toJSONNetworkVoucherUsage(u *network.VoucherUsage) jsonNetworkVoucherUsage {
	return jsonNetworkVoucherUsage{ID: u.ID, CreationDate: utcTime(&u.CreationDate), NetworkVoucher: u.VoucherID,
		Partner: u.PartnerID, PartnerAgencyName: u.PartnerAgencyName, PartnerSourceID: u.PartnerSourceID,
		IsActive: u.IsActive, Comment: u.Comment, ManagementFees: jsonNumber(u.ManagementFees),
		CommissionRate: jsonNumber(u.CommissionRate)}
}
