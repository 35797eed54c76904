package domain

import "time"

// CompanyTypes are the company types of a partner's company record.
var CompanyTypes = []string{"bus", "ind", "sol", "org"}

// Company is a partner's company record: what the catalogue shows as its
// legal information, and the administration's settings of it. Network
// partners (domain/network) and payment-hub partners (domain/payments)
// write and read the same record (persistence: partner_legal_information).
type Company struct {
	CommercialName               string
	ShortName                    string
	CompanyType                  string // one of CompanyTypes, or "" (the catalogue's management writes free text)
	SiretNumber                  string
	LegalRepresentativeFirstName string
	LegalRepresentativeLastName  string
	LegalRepresentativeBirthday  *time.Time // a day, at 00:00 UTC
	HQAddressLine1               string
	HQAddressLine2               string
	HQPostalCode                 string
	HQCity                       string
	HQCountry                    string
	RCS                          string
	APE                          string
	VATID                        string
	AgencyEmail                  string
	AgencyPhone                  string
	Website                      string
	HideFromStats                bool
	ThirdPartySalesOnly          bool
	ReferrerID                   *int64
}
