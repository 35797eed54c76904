package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// A partner's company record (domain.Company) is its row of
// partner_legal_information, whose catalogue column names it maps to the
// administration's. Network partners and payment-hub partners write and
// read it through these.

// insertCompany writes the company record of partner, which has none.
func insertCompany(ctx context.Context, db bun.IDB, partnerID int64, c *domain.Company) error {
	var birthday *string // a day: as text, so that no time zone moves it
	if c.LegalRepresentativeBirthday != nil {
		day := c.LegalRepresentativeBirthday.Format(time.DateOnly)
		birthday = &day
	}
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := db.NewRaw(`INSERT INTO partner_legal_information (partner_id, commercial_name, short_name, company_type,
			siret_number, legal_first_name, legal_last_name, legal_representative_birthday, address_line_1,
			address_line_2, postal_code, city, country, rcs, ape, vat_id, agency_email, agency_phone, agency_website,
			hide_from_stats, third_party_sales_only, referrer_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?::date, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		partnerID, c.CommercialName, c.ShortName, c.CompanyType, c.SiretNumber, c.LegalRepresentativeFirstName,
		c.LegalRepresentativeLastName, birthday, c.HQAddressLine1, c.HQAddressLine2, c.HQPostalCode,
		c.HQCity, c.HQCountry, c.RCS, c.APE, c.VATID, c.AgencyEmail, c.AgencyPhone, c.Website, c.HideFromStats,
		c.ThirdPartySalesOnly, c.ReferrerID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("insert company record: %w", err)
	}
	return nil
}

// companyColumns select a company record into a companyRow from
// partner_legal_information li, LEFT JOINed: a partner without one shows
// its defaults.
const companyColumns = `coalesce(li.commercial_name, '') AS commercial_name, coalesce(li.short_name, '') AS short_name,
	coalesce(li.company_type, '') AS company_type, coalesce(li.siret_number, '') AS siret_number,
	coalesce(li.legal_first_name, '') AS legal_first_name, coalesce(li.legal_last_name, '') AS legal_last_name,
	li.legal_representative_birthday,
	coalesce(li.address_line_1, '') AS address_line_1, coalesce(li.address_line_2, '') AS address_line_2,
	coalesce(li.postal_code, '') AS postal_code, coalesce(li.city, '') AS city,
	coalesce(li.country, '') AS country, coalesce(li.rcs, '') AS rcs, coalesce(li.ape, '') AS ape,
	coalesce(li.vat_id, '') AS vat_id, coalesce(li.agency_email, '') AS agency_email,
	coalesce(li.agency_phone, '') AS agency_phone, coalesce(li.agency_website, '') AS agency_website,
	coalesce(li.hide_from_stats, false) AS hide_from_stats,
	coalesce(li.third_party_sales_only, false) AS third_party_sales_only, li.referrer_id`

// companyRow is a company record as companyColumns select it; a row type
// embeds it.
type companyRow struct {
	CommercialName               string     `bun:"commercial_name"`
	ShortName                    string     `bun:"short_name"`
	CompanyType                  string     `bun:"company_type"`
	SiretNumber                  string     `bun:"siret_number"`
	LegalRepresentativeFirstName string     `bun:"legal_first_name"`
	LegalRepresentativeLastName  string     `bun:"legal_last_name"`
	LegalRepresentativeBirthday  *time.Time `bun:"legal_representative_birthday"`
	HQAddressLine1               string     `bun:"address_line_1"`
	HQAddressLine2               string     `bun:"address_line_2"`
	HQPostalCode                 string     `bun:"postal_code"`
	HQCity                       string     `bun:"city"`
	HQCountry                    string     `bun:"country"`
	RCS                          string     `bun:"rcs"`
	APE                          string     `bun:"ape"`
	VATID                        string     `bun:"vat_id"`
	AgencyEmail                  string     `bun:"agency_email"`
	AgencyPhone                  string     `bun:"agency_phone"`
	Website                      string     `bun:"agency_website"`
	HideFromStats                bool       `bun:"hide_from_stats"`
	ThirdPartySalesOnly          bool       `bun:"third_party_sales_only"`
	ReferrerID                   *int64     `bun:"referrer_id"`
}

func (r *companyRow) company() domain.Company {
	return domain.Company{CommercialName: r.CommercialName, ShortName: r.ShortName, CompanyType: r.CompanyType,
		SiretNumber: r.SiretNumber, LegalRepresentativeFirstName: r.LegalRepresentativeFirstName,
		LegalRepresentativeLastName: r.LegalRepresentativeLastName, LegalRepresentativeBirthday: r.LegalRepresentativeBirthday,
		HQAddressLine1: r.HQAddressLine1, HQAddressLine2: r.HQAddressLine2, HQPostalCode: r.HQPostalCode, HQCity: r.HQCity,
		HQCountry: r.HQCountry, RCS: r.RCS, APE: r.APE, VATID: r.VATID, AgencyEmail: r.AgencyEmail,
		AgencyPhone: r.AgencyPhone, Website: r.Website, HideFromStats: r.HideFromStats,
		ThirdPartySalesOnly: r.ThirdPartySalesOnly, ReferrerID: r.ReferrerID}
}
