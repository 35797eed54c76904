package domain

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
	Title, Description []TextInput
	TOSURL             []URLEntryInput
	EventsProductInformation
}

// GiftcardsProductInformationInput replaces the giftcards line.
type GiftcardsProductInformationInput struct {
	PartnerID          *int64
	Title, Description []TextInput
}

// NetworkGiftcardsProductInformationInput replaces a marketplace's network
// giftcards line. Amounts are decimal strings; ValidityUnit is "" (not set)
// or one of ValidityDay…ValidityYear.
type NetworkGiftcardsProductInformationInput struct {
	PartnerID          *int64
	Title, Description []TextInput
	Giftcard           struct {
		CustomizedAmount               bool
		Title, Description, TermsOfUse []TextInput
		MinimumAmount                  string
		PredefinedAmounts              []string
		ValidityPeriod                 int
		ValidityUnit                   string
	}
	MoneyPot struct {
		Activated          bool
		Title, Description []TextInput
		Logo               string
	}
}

// NetworkVouchersProductInformationInput replaces a marketplace's network
// vouchers line.
type NetworkVouchersProductInformationInput struct {
	PartnerID                      *int64
	Title, Description, TermsOfUse []TextInput
	NetworkVouchersProductInformation
}

// VouchersProductInformationInput replaces the vouchers line.
type VouchersProductInformationInput struct {
	PartnerID                         *int64
	Title, Subtitle, ShortDescription []TextInput
	VouchersProductInformation
}

// WorkshopsProductInformationInput replaces the workshops line.
type WorkshopsProductInformationInput struct {
	PartnerID          *int64
	Title, Description []TextInput
	TOSURL             []URLEntryInput
	WorkshopsProductInformation
}

// urlMap reads a map of URLs by language.
func (v *Validator) urlMap(in []URLEntryInput, path ...any) map[string]string {
	out := map[string]string{}
	at := func(i int, f string) []any { return append(append([]any{}, path...), i, f) }
	for i, e := range in {
		switch {
		case !IsLanguage(e.Lang):
			v.Add(VUnknownLanguage, fmt.Sprintf(MsgLanguageChoice, e.Lang), at(i, "lang")...)
		case out[e.Lang] != "":
			v.Add(VUnique, msgLanguageTwice, at(i, "lang")...)
		}
		if u := v.url(e.URL, at(i, "url")...); u != "" {
			out[e.Lang] = u
		}
	}
	return out
}

// SaveEventsProductInformation replaces the events line of the caller's
// partner (staff: of in.PartnerID), display_events_per_slots included.
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveEventsProductInformation(ctx context.Context, in EventsProductInformationInput) (*EventsProductInformation, error) {
	p, _, err := AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v Validator
	pi := in.EventsProductInformation
	pi.Title = v.localized(in.Title, MaxNameLength, false, "title")
	pi.Description = v.localized(in.Description, MaxDescriptionLength, false, "description")
	pi.TOSURL = v.urlMap(in.TOSURL, "tosUrl")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveEventsProductInformation(ctx, p.ID, &pi); err != nil {
		return nil, err
	}
	return s.EventsProductInformation(asCatalogOf(ctx, p))
}

// SaveGiftcardsProductInformation replaces the giftcards line of the
// caller's partner (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveGiftcardsProductInformation(ctx context.Context, in GiftcardsProductInformationInput) (*GiftcardsProductInformationView, error) {
	p, _, err := AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v Validator
	pi := &GiftcardsProductInformation{Title: v.localized(in.Title, MaxNameLength, false, "title"),
		Description: v.localized(in.Description, MaxDescriptionLength, false, "description")}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveGiftcardsProductInformation(ctx, p.ID, pi); err != nil {
		return nil, err
	}
	views, err := s.GiftcardsProductInformation(asCatalogOf(ctx, p))
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
	var v Validator
	g, pot := in.Giftcard, in.MoneyPot
	pi := &NetworkGiftcardsProductInformation{
		Title:       v.localized(in.Title, MaxNameLength, false, "title"),
		Description: v.localized(in.Description, MaxDescriptionLength, false, "description"),
		Giftcard: NetworkGiftcardSettings{CustomizedAmount: g.CustomizedAmount,
			Title:          v.localized(g.Title, MaxNameLength, false, "giftcard", "title"),
			Description:    v.localized(g.Description, MaxDescriptionLength, false, "giftcard", "description"),
			TermsOfUse:     v.localized(g.TermsOfUse, MaxDescriptionLength, false, "giftcard", "termsOfUse"),
			ValidityPeriod: v.nonNegative(g.ValidityPeriod, "giftcard", "validityPeriod"),
			ValidityUnit:   g.ValidityUnit},
		MoneyPot: NetworkGiftcardMoneyPot{Activated: pot.Activated,
			Title:       v.localized(pot.Title, MaxNameLength, false, "moneyPot", "title"),
			Description: v.localized(pot.Description, MaxDescriptionLength, false, "moneyPot", "description"),
			Logo:        v.url(pot.Logo, "moneyPot", "logo")},
	}
	if strings.TrimSpace(g.MinimumAmount) != "" {
		pi.Giftcard.MinimumAmount = v.Money(g.MinimumAmount, "giftcard", "minimumAmount")
	}
	if len(g.PredefinedAmounts) > MaxPredefinedAmounts {
		v.Add(VMaxElements, fmt.Sprintf(MsgTooManyElements, MaxPredefinedAmounts), "giftcard", "predefinedAmounts")
	} else {
		for i, a := range g.PredefinedAmounts {
			pi.Giftcard.PredefinedAmounts = append(pi.Giftcard.PredefinedAmounts, v.Money(a, "giftcard", "predefinedAmounts", i))
		}
	}
	if g.ValidityUnit != "" && !slices.Contains(validityUnits, g.ValidityUnit) {
		v.Add(VInvalid, fmt.Sprintf(MsgLanguageChoice, g.ValidityUnit), "giftcard", "validityUnit")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveNetworkGiftcardsProductInformation(ctx, p.ID, pi); err != nil {
		return nil, err
	}
	return s.NetworkGiftcardsProductInformation(asCatalogOf(ctx, p))
}

// SaveNetworkVouchersProductInformation replaces the network vouchers line
// of the caller's marketplace (staff: of in.PartnerID).
// Errors: those of marketplacePartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveNetworkVouchersProductInformation(ctx context.Context, in NetworkVouchersProductInformationInput) (*NetworkVouchersProductInformation, error) {
	p, err := marketplacePartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v Validator
	pi := in.NetworkVouchersProductInformation
	pi.Title = v.localized(in.Title, MaxNameLength, false, "title")
	pi.Description = v.localized(in.Description, MaxDescriptionLength, false, "description")
	pi.TermsOfUse = v.localized(in.TermsOfUse, MaxDescriptionLength, false, "termsOfUse")
	v.nonNegative(pi.ValidityPeriod, "validityPeriod")
	v.nonNegative(pi.ValidityPeriodUnit, "validityPeriodUnit")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveNetworkVouchersProductInformation(ctx, p.ID, &pi); err != nil {
		return nil, err
	}
	return s.NetworkVouchersProductInformation(asCatalogOf(ctx, p))
}

// SaveVouchersProductInformation replaces the vouchers line of the caller's
// partner (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveVouchersProductInformation(ctx context.Context, in VouchersProductInformationInput) (*VouchersProductInformation, error) {
	p, _, err := AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v Validator
	pi := in.VouchersProductInformation
	pi.Title = v.localized(in.Title, MaxNameLength, false, "title")
	pi.Subtitle = v.localized(in.Subtitle, MaxNameLength, false, "subtitle")
	pi.ShortDescription = v.localized(in.ShortDescription, MaxDescriptionLength, false, "shortDescription")
	v.nonNegative(pi.ValidityPeriod, "validityPeriod")
	v.nonNegative(pi.ValidityPeriodUnit, "validityPeriodUnit")
	v.nonNegative(pi.MethodOfDisplay, "methodOfDisplay")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveVouchersProductInformation(ctx, p.ID, &pi); err != nil {
		return nil, err
	}
	return s.VouchersProductInformation(asCatalogOf(ctx, p))
}

// SaveWorkshopsProductInformation replaces the workshops line of the
// caller's partner (staff: of in.PartnerID).
// Errors: those of adminPartner; CodeInvalid with every field error.
func (s *PartnerCatalogService) SaveWorkshopsProductInformation(ctx context.Context, in WorkshopsProductInformationInput) (*WorkshopsProductInformation, error) {
	p, _, err := AdminPartner(ctx, s.partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v Validator
	pi := in.WorkshopsProductInformation
	pi.Title = v.localized(in.Title, MaxNameLength, false, "title")
	pi.Description = v.localized(in.Description, MaxDescriptionLength, false, "description")
	pi.TOSURL = v.urlMap(in.TOSURL, "tosUrl")
	v.nonNegative(pi.MinNbFreePlacesForLabelShown, "minNbFreePlacesForLabelShown")
	pi.PhoneNumber = v.text(pi.PhoneNumber, MaxPhoneLength, "phoneNumber")
	pi.DefaultWorkshopImage = v.url(pi.DefaultWorkshopImage, "defaultWorkshopImage")
	v.nonNegative(pi.ValidityPeriod, "validityPeriod")
	v.nonNegative(pi.ValidityPeriodUnit, "validityPeriodUnit")
	if err := v.Err(); err != nil {
		return nil, err
	}
	if err := s.store.SaveWorkshopsProductInformation(ctx, p.ID, &pi); err != nil {
		return nil, err
	}
	return s.WorkshopsProductInformation(asCatalogOf(ctx, p))
}
