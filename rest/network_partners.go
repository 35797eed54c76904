package rest

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"

	"salesplatform/domain/network"
)

func registerNetworkPartnerRoutes(r *mux.Router, a *api) {
	handleWithToken(r, "/api/network_partners/", a.handleNetworkPartnerCreate, http.MethodPost)
	handleWithToken(r, "/api/network_partners/", a.handleNetworkPartnerUpdate, http.MethodPatch)
	handleWithToken(r, "/api/partners/check/", a.handlePartnerCheck, http.MethodGet, http.MethodHead)
}

// jsonNetworkPartner is the network partner record, with the website it
// was created with.
type jsonNetworkPartner struct {
	ID                           int64      `json:"id"`
	UUID                         string     `json:"uuid"`
	Status                       string     `json:"status"`
	Name                         string     `json:"name"`
	CommercialName               string     `json:"commercial_name"`
	ShortName                    string     `json:"short_name"`
	CompanyType                  string     `json:"company_type"`
	SiretNumber                  string     `json:"siret_number"`
	LegalRepresentativeFirstName string     `json:"legal_representative_first_name"`
	LegalRepresentativeLastName  string     `json:"legal_representative_last_name"`
	LegalRepresentativeBirthday  *time.Time `json:"legal_representative_birthday"`
	HQAddressLine1               string     `json:"hq_address_line_1"`
	HQAddressLine2               string     `json:"hq_address_line_2"`
	HQPostalCode                 string     `json:"hq_postal_code"`
	HQCity                       string     `json:"hq_city"`
	HQCountry                    string     `json:"hq_country"`
	RCS                          string     `json:"rcs"`
	APE                          string     `json:"ape"`
	VATID                        string     `json:"vat_id"`
	AgencyEmail                  string     `json:"agency_email"`
	AgencyPhone                  string     `json:"agency_phone"`
	Website                      string     `json:"website"`
	HideFromStats                bool       `json:"hide_from_stats"`
	ThirdPartySalesOnly          bool       `json:"third_party_sales_only"`
	Referrer                     *int64     `json:"referrer"`
	SourceID                     *string    `json:"source_id"`
	LinkToNVSettings             bool       `json:"link_to_nv_settings"`
	LinkToNGCSettings            bool       `json:"link_to_ngc_settings"`
	PartnerTags                  []string   `json:"partner_tags"`
}

func toJSONNetworkPartner(p *network.NetworkPartner) jsonNetworkPartner {
	tags := p.Tags
	if tags == nil {
		tags = []string{}
	}
	return jsonNetworkPartner{ID: p.ID, UUID: p.UUID.String(), Status: p.Status, Name: p.Name,
		CommercialName: p.CommercialName, ShortName: p.ShortName, CompanyType: p.CompanyType, SiretNumber: p.SiretNumber,
		LegalRepresentativeFirstName: p.LegalRepresentativeFirstName, LegalRepresentativeLastName: p.LegalRepresentativeLastName,
		LegalRepresentativeBirthday: p.LegalRepresentativeBirthday, HQAddressLine1: p.HQAddressLine1,
		HQAddressLine2: p.HQAddressLine2, HQPostalCode: p.HQPostalCode, HQCity: p.HQCity, HQCountry: p.HQCountry,
		RCS: p.RCS, APE: p.APE, VATID: p.VATID, AgencyEmail: p.AgencyEmail, AgencyPhone: p.AgencyPhone,
		Website: p.Website, HideFromStats: p.HideFromStats, ThirdPartySalesOnly: p.ThirdPartySalesOnly,
		Referrer: p.ReferrerID, SourceID: p.SourceID, LinkToNVSettings: p.LinkedToNVSettings,
		LinkToNGCSettings: p.LinkedToNGCSettings, PartnerTags: tags}
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
	p, err := a.NetworkPartners.CreateNetworkPartner(r.Context(), doc)
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
	p, err := a.NetworkPartners.UpdateNetworkPartner(r.Context(), doc)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonNetworkPartnerUpdate{ID: p.ID, Status: p.Status, HideFromStats: p.HideFromStats,
		ThirdPartySalesOnly: p.ThirdPartySalesOnly, Referrer: p.ReferrerID, Name: p.Name,
		LinkedToNVSettings: p.LinkedToNVSettings, LinkedToNGCSettings: p.LinkedToNGCSettings})
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
