package catalogue

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"salesplatform/domain"
)

// Product information administration: the settings of each product line,
// replaced whole (see partner_admin.go). The network lines are a
// marketplace's.

// URLEntryInput is one language's URL of a map of URLs (tos_url).
type URLEntryInput struct {
	Lang string
	URL  string
}

// EventsProductInformationInput replaces the events line; the texts of the
// embedded settings are ignored in favour of Title and Description.
type EventsProductInformationInput struct {
	PartnerID          *int64
	Title, Description []domain.TextInput
	TOSURL             []URLEntryInput
	EventsProductInformation
}

// GiftcardsProductInformationInput replaces the giftcards line.
type GiftcardsProductInformationInput struct {
	PartnerID          *int64
	Title, Description []domain.TextInput
}

// NetworkGiftcardsProductInformationInput replaces a marketplace's network
// giftcards line. Amounts are decimal strings; ValidityUnit is "" (not set)
// or one of ValidityDay…ValidityYear.
type NetworkGiftcardsProductInformationInput struct {
	PartnerID          *int64
	Title, Description []domain.TextInput
	Giftcard           struct {
		CustomizedAmount               bool
		Title, Description, TermsOfUse []domain.TextInput
		MinimumAmount                  string
		PredefinedAmounts              []string
		ValidityPeriod                 int
		ValidityUnit                   string
	}
	MoneyPot struct {
		Activated          bool
		Title, Description []domain.TextInput
		Logo               string
	}
}

// NetworkVouchersProductInformationInput replaces a marketplace's network
// vouchers line.
type NetworkVouchersProductInformationInput struct {
	PartnerID                      *int64
	Title, Description, TermsOfUse []domain.TextInput
	NetworkVouchersProductInformation
}

// VouchersProductInformationInput replaces the vouchers line.
type VouchersProductInformationInput struct {
	PartnerID                         *int64
	Title, Subtitle, ShortDescription []domain.TextInput
	VouchersProductInformation
}

// WorkshopsProductInformationInput replaces the workshops line.
type WorkshopsProductInformationInput struct {
	PartnerID          *int64
	Title, Description []domain.TextInput
	TOSURL             []URLEntryInput
	WorkshopsProductInformation
}

// urlMap reads a map of URLs by language.
func urlMap(v *domain.Validator, in []URLEntryInput, path ...any) map[string]string {
	out := map[string]string{}
	at := func(i int, f string) []any { return append(append([]any{}, path...), i, f) }
	for i, e := range in {
		switch {
		case e.Lang == "":
			v.Add(domain.VRequired, domain.MsgRequired, at(i, "language")...)
		case !domain.IsLanguage(e.Lang):
			v.Add(domain.VUnknownLanguage, fmt.Sprintf(domain.MsgLanguageChoice, e.Lang), at(i, "language")...)
		case out[e.Lang] != "":
			v.Add(domain.VUnique, domain.MsgLanguageTwice, at(i, "language")...)
		}
		if u := v.URL(e.URL, at(i, "url")...); u != "" {
			out[e.Lang] = u
		}
	}
	return out
}

// SaveEventsProductInformation replaces the events line of the caller's
// partner (staff: of in.PartnerID), display_events_per_slots included.
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveEventsProductInformation(ctx context.Context, in EventsProductInformationInput) (*EventsProductInformation, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	pi := in.EventsProductInformation
	pi.Title = v.Localized(in.Title, domain.MaxNameLength, false, "title")
	pi.Description = v.Localized(in.Description, domain.MaxDescriptionLength, false, "description")
	pi.TOSURL = urlMap(&v, in.TOSURL, "tosUrl")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveEventsProductInformation(ctx, p.ID, &pi); err != nil {
		return nil, err
	}
	return s.EventsProductInformation(domain.AsCatalogOf(ctx, p))
}

// SaveGiftcardsProductInformation replaces the giftcards line of the
// caller's partner (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveGiftcardsProductInformation(ctx context.Context, in GiftcardsProductInformationInput) (*GiftcardsProductInformationView, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	pi := &GiftcardsProductInformation{Title: v.Localized(in.Title, domain.MaxNameLength, false, "title"),
		Description: v.Localized(in.Description, domain.MaxDescriptionLength, false, "description")}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveGiftcardsProductInformation(ctx, p.ID, pi); err != nil {
		return nil, err
	}
	views, err := s.GiftcardsProductInformation(domain.AsCatalogOf(ctx, p))
	if err != nil {
		return nil, err
	}
	return views[0], nil
}

// SaveNetworkGiftcardsProductInformation replaces the network giftcards
// line of the caller's marketplace (staff: of in.PartnerID).
// Errors: those of marketplacePartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveNetworkGiftcardsProductInformation(ctx context.Context, in NetworkGiftcardsProductInformationInput) (*NetworkGiftcardsProductInformationView, error) {
	p, err := marketplacePartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	g, pot := in.Giftcard, in.MoneyPot
	pi := &NetworkGiftcardsProductInformation{
		Title:       v.Localized(in.Title, domain.MaxNameLength, false, "title"),
		Description: v.Localized(in.Description, domain.MaxDescriptionLength, false, "description"),
		Giftcard: NetworkGiftcardSettings{CustomizedAmount: g.CustomizedAmount,
			Title:          v.Localized(g.Title, domain.MaxNameLength, false, "giftcard", "title"),
			Description:    v.Localized(g.Description, domain.MaxDescriptionLength, false, "giftcard", "description"),
			TermsOfUse:     v.Localized(g.TermsOfUse, domain.MaxDescriptionLength, false, "giftcard", "termsOfUse"),
			ValidityPeriod: v.NonNegative(g.ValidityPeriod, "giftcard", "validityPeriod"),
			ValidityUnit:   g.ValidityUnit},
		MoneyPot: NetworkGiftcardMoneyPot{Activated: pot.Activated,
			Title:       v.Localized(pot.Title, domain.MaxNameLength, false, "moneyPot", "title"),
			Description: v.Localized(pot.Description, domain.MaxDescriptionLength, false, "moneyPot", "description"),
			Logo:        v.URL(pot.Logo, "moneyPot", "logo")},
	}
	if strings.TrimSpace(g.MinimumAmount) != "" {
		pi.Giftcard.MinimumAmount = v.Money(g.MinimumAmount, "giftcard", "minimumAmount")
	}
	if len(g.PredefinedAmounts) > MaxPredefinedAmounts {
		v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxPredefinedAmounts), "giftcard", "predefinedAmounts")
	} else {
		for i, a := range g.PredefinedAmounts {
			pi.Giftcard.PredefinedAmounts = append(pi.Giftcard.PredefinedAmounts, v.Money(a, "giftcard", "predefinedAmounts", i))
		}
	}
	if g.ValidityUnit != "" && !slices.Contains(validityUnits, g.ValidityUnit) {
		v.Add(domain.VInvalid, fmt.Sprintf(domain.MsgLanguageChoice, g.ValidityUnit), "giftcard", "validityUnit")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveNetworkGiftcardsProductInformation(ctx, p.ID, pi); err != nil {
		return nil, err
	}
	return s.NetworkGiftcardsProductInformation(domain.AsCatalogOf(ctx, p))
}

// SaveNetworkVouchersProductInformation replaces the network vouchers line
// of the caller's marketplace (staff: of in.PartnerID).
// Errors: those of marketplacePartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveNetworkVouchersProductInformation(ctx context.Context, in NetworkVouchersProductInformationInput) (*NetworkVouchersProductInformation, error) {
	p, err := marketplacePartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	pi := in.NetworkVouchersProductInformation
	pi.Title = v.Localized(in.Title, domain.MaxNameLength, false, "title")
	pi.Description = v.Localized(in.Description, domain.MaxDescriptionLength, false, "description")
	pi.TermsOfUse = v.Localized(in.TermsOfUse, domain.MaxDescriptionLength, false, "termsOfUse")
	v.NonNegative(pi.ValidityPeriod, "validityPeriod")
	v.NonNegative(pi.ValidityPeriodUnit, "validityPeriodUnit")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveNetworkVouchersProductInformation(ctx, p.ID, &pi); err != nil {
		return nil, err
	}
	return s.NetworkVouchersProductInformation(domain.AsCatalogOf(ctx, p))
}

// SaveVouchersProductInformation replaces the vouchers line of the caller's
// partner (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveVouchersProductInformation(ctx context.Context, in VouchersProductInformationInput) (*VouchersProductInformation, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	pi := in.VouchersProductInformation
	pi.Title = v.Localized(in.Title, domain.MaxNameLength, false, "title")
	pi.Subtitle = v.Localized(in.Subtitle, domain.MaxNameLength, false, "subtitle")
	pi.ShortDescription = v.Localized(in.ShortDescription, domain.MaxDescriptionLength, false, "shortDescription")
	v.NonNegative(pi.ValidityPeriod, "validityPeriod")
	v.NonNegative(pi.ValidityPeriodUnit, "validityPeriodUnit")
	v.NonNegative(pi.MethodOfDisplay, "methodOfDisplay")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveVouchersProductInformation(ctx, p.ID, &pi); err != nil {
		return nil, err
	}
	return s.VouchersProductInformation(domain.AsCatalogOf(ctx, p))
}

// SaveWorkshopsProductInformation replaces the workshops line of the
// caller's partner (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveWorkshopsProductInformation(ctx context.Context, in WorkshopsProductInformationInput) (*WorkshopsProductInformation, error) {
	p, _, err := domain.AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	pi := in.WorkshopsProductInformation
	pi.Title = v.Localized(in.Title, domain.MaxNameLength, false, "title")
	pi.Description = v.Localized(in.Description, domain.MaxDescriptionLength, false, "description")
	pi.TOSURL = urlMap(&v, in.TOSURL, "tosUrl")
	v.NonNegative(pi.MinNbFreePlacesForLabelShown, "minNbFreePlacesForLabelShown")
	pi.PhoneNumber = v.Text(pi.PhoneNumber, domain.MaxPhoneLength, "phoneNumber")
	pi.DefaultWorkshopImage = v.URL(pi.DefaultWorkshopImage, "defaultWorkshopImage")
	v.NonNegative(pi.ValidityPeriod, "validityPeriod")
	v.NonNegative(pi.ValidityPeriodUnit, "validityPeriodUnit")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveWorkshopsProductInformation(ctx, p.ID, &pi); err != nil {
		return nil, err
	}
	return s.WorkshopsProductInformation(domain.AsCatalogOf(ctx, p))
}
