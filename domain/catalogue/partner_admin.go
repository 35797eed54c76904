package catalogue

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// Partner catalogue administration: a partner (or staff for it) writes its
// public profile, labels, legal information, refund terms and the settings
// of each product line. These are settings objects: each input replaces the
// whole object (what it leaves out takes its default), unlike the records
// of the other admin inputs. See admin.go for the shared rules.

// Partner settings limits.
const (
	MaxPlaceLength       = 100 // region, department, city
	MaxLegalFieldLength  = 255
	MaxSocialLinks       = 20
	maxCoordinatePlaces  = 6
	msgCoordinatePlaces  = "Ensure that there are no more than 6 decimal places."
	msgCoordinateRange   = "Ensure this value is between %d and %d."
	msgEnterValidEmail   = "Enter a valid email address."
	msgSocialNetworkName = "Enter a network name of at most 50 characters."
)

// SocialLinkInput is one entry of a partner's social links.
type SocialLinkInput struct {
	Name string
	URL  string
}

// PartnerProfileInput is a partner's public profile. Latitude and
// Longitude are decimal strings, or nil when the place is not located.
type PartnerProfileInput struct {
	PartnerID             *int64
	Description           []domain.TextInput
	Managers              []domain.TextInput
	Nearby                []domain.TextInput
	PracticalInformation  []domain.TextInput
	Access                []domain.TextInput
	CommercialDescription []domain.TextInput
	Region                string
	Department            string
	City                  string
	Latitude              *string
	Longitude             *string
	Facilities            PartnerFacilities
	SocialLinks           []SocialLinkInput
}

// LegalInformationInput is a partner's legal information; CapitalStock is
// a decimal string ("" for 0).
type LegalInformationInput struct {
	PartnerID *int64
	LegalInformation
	CapitalStock string
}

// PartnerLabelInput adds a label the partner displays.
type PartnerLabelInput struct {
	PartnerID *int64
	Name      string
	LogoURL   string
}

// PartnerAdminStore is what the partner administration writes with,
// beyond PartnerCatalogStore's Save methods.
type PartnerAdminStore interface {
	// GetPartnerLabel returns the label; ErrNotFound when none.
	GetPartnerLabel(ctx context.Context, id int64) (*PartnerLabel, error)
	// RemovePartnerLabel deletes the label.
	RemovePartnerLabel(ctx context.Context, id int64) error
}

// coordinate reads a latitude or longitude: a decimal string within
// ±limit, at most six decimal places.
func coordinate(v *domain.Validator, s *string, limit int, path ...any) *decimal.Decimal {
	if s == nil {
		return nil
	}
	d, err := decimal.NewFromString(strings.TrimSpace(*s))
	switch {
	case err != nil:
		v.Add(domain.VInvalid, domain.MsgDecimal, path...)
	case d.Exponent() < -maxCoordinatePlaces && !d.Equal(d.Round(maxCoordinatePlaces)):
		v.Add(domain.VMaxDecimals, msgCoordinatePlaces, path...)
	case d.Abs().GreaterThan(decimal.NewFromInt(int64(limit))):
		v.Add(domain.VMaxValue, fmt.Sprintf(msgCoordinateRange, -limit, limit), path...)
	default:
		return &d
	}
	return nil
}

// SavePartnerProfile replaces the public profile of the caller's partner
// (staff: of in.PartnerID) and returns the partner as its catalogue shows
// it.
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SavePartnerProfile(ctx context.Context, in PartnerProfileInput) (*PartnerListing, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	pr := &PartnerProfile{
		Description:           v.Localized(in.Description, domain.MaxDescriptionLength, false, "description"),
		Managers:              v.Localized(in.Managers, domain.MaxDescriptionLength, false, "managers"),
		Nearby:                v.Localized(in.Nearby, domain.MaxDescriptionLength, false, "nearby"),
		PracticalInformation:  v.Localized(in.PracticalInformation, domain.MaxDescriptionLength, false, "practicalInformation"),
		Access:                v.Localized(in.Access, domain.MaxDescriptionLength, false, "access"),
		CommercialDescription: v.Localized(in.CommercialDescription, domain.MaxDescriptionLength, false, "commercialDescription"),
		Region:                v.Text(in.Region, MaxPlaceLength, "region"),
		Department:            v.Text(in.Department, MaxPlaceLength, "department"),
		City:                  v.Text(in.City, MaxPlaceLength, "city"),
		Latitude:              coordinate(&v, in.Latitude, 90, "latitude"),
		Longitude:             coordinate(&v, in.Longitude, 180, "longitude"),
		Facilities:            in.Facilities,
		SocialLinks:           map[string]string{},
	}
	if len(in.SocialLinks) > MaxSocialLinks {
		v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxSocialLinks), "socialLinks")
	} else {
		for i, l := range in.SocialLinks {
			name := strings.TrimSpace(l.Name)
			switch {
			case name == "" || len([]rune(name)) > 50:
				v.Add(domain.VInvalid, msgSocialNetworkName, "socialLinks", i, "name")
			case pr.SocialLinks[name] != "":
				v.Add(domain.VUnique, "This network is given more than once.", "socialLinks", i, "name")
			}
			u := strings.TrimSpace(l.URL)
			if u == "" {
				v.Add(domain.VRequired, domain.MsgBlank, "socialLinks", i, "url")
			} else {
				v.URL(u, "socialLinks", i, "url")
			}
			pr.SocialLinks[name] = u
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SavePartnerProfile(ctx, p.ID, pr); err != nil {
		return nil, err
	}
	return s.ownListing(ctx, p)
}

// ownListing is the partner as its own catalogue shows it.
func (s *PartnerCatalogService) ownListing(ctx context.Context, p *domain.Partner) (*PartnerListing, error) {
	got, err := s.store.FindPartnerListings(ctx, PartnerFilter{Self: p.ID, IDs: []int64{p.ID}})
	if err != nil {
		return nil, err
	}
	if len(got) == 0 {
		return nil, domain.ErrNotFound
	}
	return got[0], nil
}

// AddPartnerLabel adds a label to the caller's partner (staff: to
// in.PartnerID) and returns the partner as its catalogue shows it.
// Errors: those of adminPartner; CodeInvalid on "name" or "logo".
func (s *PartnerCatalogService) AddPartnerLabel(ctx context.Context, in PartnerLabelInput) (*PartnerListing, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	l := &PartnerLabel{PartnerID: p.ID, Name: v.Text(in.Name, domain.MaxNameLength, "name"), LogoURL: v.URL(in.LogoURL, "logo")}
	if l.Name == "" && !domain.HasFieldError(&v, "name") {
		v.Add(domain.VRequired, domain.MsgBlank, "name")
	}
	if l.LogoURL == "" && !domain.HasFieldError(&v, "logo") {
		v.Add(domain.VRequired, domain.MsgBlank, "logo")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.AddPartnerLabel(ctx, l); err != nil {
		return nil, err
	}
	return s.ownListing(ctx, p)
}

// RemovePartnerLabel removes a label of a partner the caller manages.
// Errors: CodeUnauthenticated; CodeNotFound for another partner's label.
func (s *PartnerCatalogService) RemovePartnerLabel(ctx context.Context, id int64) (*PartnerListing, error) {
	if _, err := domain.Authorize(ctx, domain.OpCatalogueWrite); err != nil {
		return nil, err
	}
	l, err := s.store.GetPartnerLabel(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := domain.OwnerPartner(ctx, s.partners, l.PartnerID)
	if err != nil {
		return nil, err
	}
	if err := s.store.RemovePartnerLabel(ctx, id); err != nil {
		return nil, err
	}
	return s.ownListing(ctx, p)
}

// SaveLegalInformation replaces the legal information of the caller's
// partner (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveLegalInformation(ctx context.Context, in LegalInformationInput) (*LegalInformationView, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	li := in.LegalInformation
	for _, f := range []struct {
		value *string
		field string
	}{
		{&li.AgencyName, "agencyName"}, {&li.AddressLine1, "addressLine1"}, {&li.AddressLine2, "addressLine2"},
		{&li.AddressLine3, "addressLine3"}, {&li.PostalCode, "postalCode"}, {&li.City, "city"},
		{&li.Country, "country"}, {&li.CompanyType, "companyType"}, {&li.HQPhoneNumber, "hqPhoneNumber"},
		{&li.AgencyPhone, "agencyPhone"}, {&li.LegalForm, "legalForm"}, {&li.LegalFirstName, "legalFirstName"},
		{&li.LegalLastName, "legalLastName"}, {&li.SIRETNumber, "siretNumber"}, {&li.VATID, "vatId"}, {&li.RCS, "rcs"},
		{&li.LegalNoticeEmail, "legalNoticeEmail"},
	} {
		*f.value = v.Text(*f.value, MaxLegalFieldLength, f.field)
	}
	if li.LegalNoticeEmail != "" && !domain.ValidEmail(li.LegalNoticeEmail) {
		v.Add(domain.VInvalid, msgEnterValidEmail, "legalNoticeEmail")
	}
	li.AgencyWebsite = v.URL(li.AgencyWebsite, "agencyWebsite")
	li.CapitalStock = decimal.Zero
	if strings.TrimSpace(in.CapitalStock) != "" {
		li.CapitalStock = v.Money(in.CapitalStock, "capitalStock")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveLegalInformation(ctx, p.ID, &li); err != nil {
		return nil, err
	}
	views, err := s.LegalInformation(domain.AsCatalogOf(ctx, p))
	if err != nil {
		return nil, err
	}
	return views[0], nil
}

// SaveRefundWithdrawalTerms replaces the refund and withdrawal terms of the
// caller's partner (staff: of partnerID); it returns them as the catalogue
// shows them.
// Errors: those of adminPartner; CodeInvalid on "terms".
func (s *PartnerCatalogService) SaveRefundWithdrawalTerms(ctx context.Context, partnerID *int64, terms []domain.TextInput) (domain.Localized, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, partnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	l := v.Localized(terms, domain.MaxDescriptionLength*4, false, "terms")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveRefundWithdrawalTerms(ctx, p.ID, l); err != nil {
		return nil, err
	}
	all, err := s.RefundWithdrawalTerms(domain.AsCatalogOf(ctx, p))
	if err != nil {
		return nil, err
	}
	return all[0], nil
}
