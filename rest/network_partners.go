package rest

import (
	"net/http"

	"github.com/google/uuid"
	"github.com/gorilla/mux"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

func registerNetworkPartnerRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/network_partners/", idempotent(a.handleNetworkPartnerCreate), http.MethodPost)
	handleWithToken(r, "/api/network_partners/", a.handleNetworkPartnerUpdate, http.MethodPatch)
	handleWithToken(r, "/api/network_partners/", a.handleNetworkPartners, http.MethodGet, http.MethodHead)
	handleWithToken(r, "/api/partners/check/", a.handlePartnerCheck, http.MethodGet, http.MethodHead)
}

// jsonNetworkPartner is the network partner record, with the website it
// was created with.
type jsonNetworkPartner struct {
	jsonPartnerRecord
	SourceID          *string  `json:"source_id"`
	LinkToNVSettings  bool     `json:"link_to_nv_settings"`
	LinkToNGCSettings bool     `json:"link_to_ngc_settings"`
	PartnerTags       []string `json:"partner_tags"`
}

func toJSONNetworkPartner(p *network.Partner) jsonNetworkPartner {
	tags := p.Tags
	if tags == nil {
		tags = []string{}
	}
	return jsonNetworkPartner{jsonPartnerRecord: toJSONPartnerRecord(p.ID, p.UUID, p.Status, p.Name, &p.Company),
		SourceID: p.SourceID, LinkToNVSettings: p.LinkedToNVSettings, LinkToNGCSettings: p.LinkedToNGCSettings,
		PartnerTags: tags}
}

// jsonNetworkPartnerUpdate is the update's answer.
type jsonNetworkPartnerUpdate struct {
	ID                  int64  `json:"id"`
	Status              string `json:"status"`
	HideFromStats       bool   `json:"hide_from_stats"`
	ThirdPartySalesOnly bool   `json:"third_party_sales_only"`
	Referrer            *int64 `json:"referrer"`
	Name                string `json:"name"`
	LinkedToNVSettings  bool   `json:"linked_to_nv_settings"`
	LinkedToNGCSettings bool   `json:"linked_to_ngc_settings"`
}

// handleNetworkPartnerCreate is POST /api/network_partners/: 201.
func (a *api) handleNetworkPartnerCreate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	p, err := a.NetworkPartners.CreateNetworkPartner(r.Context(), decodeNetworkPartnerInput(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toJSONNetworkPartner(p))
}

// handleNetworkPartnerUpdate is PATCH /api/network_partners/: the partner
// is named in the body.
func (a *api) handleNetworkPartnerUpdate(w http.ResponseWriter, r *http.Request) {
	doc, ok := decodeDoc(w, r)
	if !ok {
		return
	}
	p, err := a.NetworkPartners.UpdateNetworkPartner(r.Context(), decodeNetworkPartnerUpdate(doc))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonNetworkPartnerUpdate{ID: p.ID, Status: p.Status, HideFromStats: p.HideFromStats,
		ThirdPartySalesOnly: p.ThirdPartySalesOnly, Referrer: p.ReferrerID, Name: p.Name,
		LinkedToNVSettings: p.LinkedToNVSettings, LinkedToNGCSettings: p.LinkedToNGCSettings})
}

// handleNetworkPartners is GET /api/network_partners/: the partners of
// the caller's marketplace's network (staff name the marketplace with
// ?marketplace_uuid=), by partner id, as an array paged as the other plain
// arrays (page, page_size; X-Total-Count).
func (a *api) handleNetworkPartners(w http.ResponseWriter, r *http.Request) {
	req, err := arrayPage(r)
	var marketplace *uuid.UUID
	if err == nil {
		marketplace, err = uuidQuery(r, "marketplace_uuid")
	}
	if err == nil {
		var page *domain.Page[*network.Partner]
		if page, err = a.NetworkPartners.NetworkPartners(r.Context(), marketplace, req); err == nil {
			writeArrayPage(w, r, page, toJSONNetworkPartner)
			return
		}
	}
	writeError(w, r, err)
}

// handlePartnerCheck is GET /api/partners/check/?siret_number=&commercial_name=.
func (a *api) handlePartnerCheck(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, err := a.NetworkPartners.CheckPartner(r.Context(), q.Get("siret_number"), q.Get("commercial_name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"id": id})
}
