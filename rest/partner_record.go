package rest

import (
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
)

// jsonPartnerRecord is the administration API's partner record (the
// company record of a network partner or a payment-hub partner), with the
// website it was created with.
type jsonPartnerRecord struct {
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
}

func toJSONPartnerRecord(id int64, u uuid.UUID, status, name string, c *domain.Company) jsonPartnerRecord {
	return jsonPartnerRecord{ID: id, UUID: u.String(), Status: status, Name: name,
		CommercialName: c.CommercialName, ShortName: c.ShortName, CompanyType: c.CompanyType, SiretNumber: c.SiretNumber,
		LegalRepresentativeFirstName: c.LegalRepresentativeFirstName, LegalRepresentativeLastName: c.LegalRepresentativeLastName,
		LegalRepresentativeBirthday: c.LegalRepresentativeBirthday, HQAddressLine1: c.HQAddressLine1,
		HQAddressLine2: c.HQAddressLine2, HQPostalCode: c.HQPostalCode, HQCity: c.HQCity, HQCountry: c.HQCountry,
		RCS: c.RCS, APE: c.APE, VATID: c.VATID, AgencyEmail: c.AgencyEmail, AgencyPhone: c.AgencyPhone,
		Website: c.Website, HideFromStats: c.HideFromStats, ThirdPartySalesOnly: c.ThirdPartySalesOnly, Referrer: c.ReferrerID}
}
