package graph

import (
	"context"
	"salesplatform/domain/catalogue"
	"salesplatform/graph/model"
)

// AddNetworkPartner is the resolver for the addNetworkPartner field.
func (r *mutationResolver) AddNetworkPartner(ctx context.Context, input model.NetworkPartnerInput) (*model.NetworkPayload, error) {
	return r.changeNetwork(ctx, input, false)
}

// RemoveNetworkPartner is the resolver for the removeNetworkPartner field.
func (r *mutationResolver) RemoveNetworkPartner(ctx context.Context, input model.NetworkPartnerInput) (*model.NetworkPayload, error) {
	return r.changeNetwork(ctx, input, true)
}

// UpdatePartnerProfile is the resolver for the updatePartnerProfile field.
func (r *mutationResolver) UpdatePartnerProfile(ctx context.Context, input model.UpdatePartnerProfileInput) (*model.CataloguePartnerPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	in := catalogue.PartnerProfileInput{PartnerID: partnerID, Description: toDomainTexts(input.Description),
		Managers: toDomainTexts(input.Managers), Nearby: toDomainTexts(input.Nearby),
		PracticalInformation: toDomainTexts(input.PracticalInformation), Access: toDomainTexts(input.Access),
		CommercialDescription: toDomainTexts(input.CommercialDescription), Region: input.Region,
		Department: input.Department, City: input.City, Latitude: opt(input.Latitude), Longitude: opt(input.Longitude)}
	if f := input.Facilities; f != nil {
		in.Facilities = catalogue.PartnerFacilities{DisabledAccess: f.DisabledAccess, AirConditioning: f.AirConditioning,
			PrivateParking: f.PrivateParking, Wifi: f.Wifi, SmokingArea: f.SmokingArea, PetsAllowed: f.PetsAllowed,
			FamilyFriendly: f.FamilyFriendly}
	}
	for _, l := range input.SocialLinks {
		in.SocialLinks = append(in.SocialLinks, catalogue.SocialLinkInput{Name: l.Name, URL: l.URL})
	}
	return cataloguePartnerPayload(r.PartnerCatalog.SavePartnerProfile(ctx, in))
}

// AddPartnerLabel is the resolver for the addPartnerLabel field.
func (r *mutationResolver) AddPartnerLabel(ctx context.Context, input model.AddPartnerLabelInput) (*model.CataloguePartnerPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	return cataloguePartnerPayload(r.PartnerCatalog.AddPartnerLabel(ctx, catalogue.PartnerLabelInput{PartnerID: partnerID,
		Name: input.Name, LogoURL: input.Logo}))
}

// RemovePartnerLabel is the resolver for the removePartnerLabel field.
func (r *mutationResolver) RemovePartnerLabel(ctx context.Context, input model.RemovePartnerLabelInput) (*model.CataloguePartnerPayload, error) {
	id, err := parseID(input.ID)
	if err != nil {
		return nil, err
	}
	return cataloguePartnerPayload(r.PartnerCatalog.RemovePartnerLabel(ctx, id))
}

// UpdateLegalInformation is the resolver for the updateLegalInformation field.
func (r *mutationResolver) UpdateLegalInformation(ctx context.Context, input model.UpdateLegalInformationInput) (*model.LegalInformationPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	v, err := r.PartnerCatalog.SaveLegalInformation(ctx, catalogue.LegalInformationInput{PartnerID: partnerID,
		CapitalStock: input.CapitalStock, LegalInformation: catalogue.LegalInformation{AgencyName: input.AgencyName,
			AddressLine1: input.AddressLine1, AddressLine2: input.AddressLine2, AddressLine3: input.AddressLine3,
			PostalCode: input.PostalCode, City: input.City, Country: input.Country, CompanyType: input.CompanyType,
			HQPhoneNumber: input.HqPhoneNumber, AgencyPhone: input.AgencyPhone, AgencyWebsite: input.AgencyWebsite,
			LegalNoticeEmail: input.LegalNoticeEmail, LegalForm: input.LegalForm, LegalFirstName: input.LegalFirstName,
			LegalLastName: input.LegalLastName, SIRETNumber: input.SiretNumber, VATID: input.VatID, RCS: input.Rcs}})
	if err != nil {
		ue, err := userErrors(err)
		return &model.LegalInformationPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.LegalInformationPayload{LegalInformation: toGraphLegalInformation(v), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// UpdateRefundWithdrawalTerms is the resolver for the updateRefundWithdrawalTerms field.
func (r *mutationResolver) UpdateRefundWithdrawalTerms(ctx context.Context, input model.UpdateRefundWithdrawalTermsInput) (*model.RefundWithdrawalTermsPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	terms, err := r.PartnerCatalog.SaveRefundWithdrawalTerms(ctx, partnerID, toDomainTexts(input.Terms))
	if err != nil {
		ue, err := userErrors(err)
		return &model.RefundWithdrawalTermsPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.RefundWithdrawalTermsPayload{RefundWithdrawalTerms: toGraphLocalized(terms), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// UpdateEventsProductInformation is the resolver for the updateEventsProductInformation field.
func (r *mutationResolver) UpdateEventsProductInformation(ctx context.Context, input model.UpdateEventsProductInformationInput) (*model.EventsProductInformationPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	pi, err := r.PartnerCatalog.SaveEventsProductInformation(ctx, catalogue.EventsProductInformationInput{PartnerID: partnerID,
		Title: toDomainTexts(input.Title), Description: toDomainTexts(input.Description), TOSURL: toDomainURLEntries(input.TosURL),
		EventsProductInformation: catalogue.EventsProductInformation{DisplayFullyBookedEvents: input.DisplayFullyBookedEvents,
			DisplayEventsPerSlots: input.DisplayEventsPerSlots}})
	if err != nil {
		ue, err := userErrors(err)
		return &model.EventsProductInformationPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.EventsProductInformationPayload{EventsProductInformation: toGraphEventsProductInformation(pi), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// UpdateGiftcardsProductInformation is the resolver for the updateGiftcardsProductInformation field.
func (r *mutationResolver) UpdateGiftcardsProductInformation(ctx context.Context, input model.UpdateGiftcardsProductInformationInput) (*model.GiftcardsProductInformationPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	v, err := r.PartnerCatalog.SaveGiftcardsProductInformation(ctx, catalogue.GiftcardsProductInformationInput{PartnerID: partnerID,
		Title: toDomainTexts(input.Title), Description: toDomainTexts(input.Description)})
	if err != nil {
		ue, err := userErrors(err)
		return &model.GiftcardsProductInformationPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.GiftcardsProductInformationPayload{GiftcardsProductInformation: toGraphGiftcardsProductInformation(v), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// UpdateNetworkGiftcardsProductInformation is the resolver for the updateNetworkGiftcardsProductInformation field.
func (r *mutationResolver) UpdateNetworkGiftcardsProductInformation(ctx context.Context, input model.UpdateNetworkGiftcardsProductInformationInput) (*model.NetworkGiftcardsProductInformationPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	in := catalogue.NetworkGiftcardsProductInformationInput{PartnerID: partnerID,
		Title: toDomainTexts(input.Title), Description: toDomainTexts(input.Description)}
	if g := input.Giftcard; g != nil {
		in.Giftcard.CustomizedAmount, in.Giftcard.MinimumAmount = g.CustomizedAmount, g.MinimumAmount
		in.Giftcard.Title, in.Giftcard.Description = toDomainTexts(g.Title), toDomainTexts(g.Description)
		in.Giftcard.TermsOfUse, in.Giftcard.PredefinedAmounts = toDomainTexts(g.TermsOfUse), g.PredefinedAmounts
		in.Giftcard.ValidityPeriod = g.ValidityPeriod
		if u := toDomainValidityUnit(opt(g.ValidityUnit)); u != nil {
			in.Giftcard.ValidityUnit = *u
		}
	}
	if pot := input.MoneyPot; pot != nil {
		in.MoneyPot.Activated, in.MoneyPot.Logo = pot.Activated, pot.Logo
		in.MoneyPot.Title, in.MoneyPot.Description = toDomainTexts(pot.Title), toDomainTexts(pot.Description)
	}
	v, err := r.PartnerCatalog.SaveNetworkGiftcardsProductInformation(ctx, in)
	if err != nil {
		ue, err := userErrors(err)
		return &model.NetworkGiftcardsProductInformationPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.NetworkGiftcardsProductInformationPayload{NetworkGiftcardsProductInformation: toGraphNetworkGiftcardsProductInformation(v),
		UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// UpdateNetworkVouchersProductInformation is the resolver for the updateNetworkVouchersProductInformation field.
func (r *mutationResolver) UpdateNetworkVouchersProductInformation(ctx context.Context, input model.UpdateNetworkVouchersProductInformationInput) (*model.NetworkVouchersProductInformationPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	pi, err := r.PartnerCatalog.SaveNetworkVouchersProductInformation(ctx, catalogue.NetworkVouchersProductInformationInput{
		PartnerID: partnerID, Title: toDomainTexts(input.Title), Description: toDomainTexts(input.Description),
		TermsOfUse: toDomainTexts(input.TermsOfUse), NetworkVouchersProductInformation: catalogue.NetworkVouchersProductInformation{
			DisplayByUniverse: input.DisplayByUniverse, ValidityPeriod: input.ValidityPeriod,
			ValidityPeriodUnit: input.ValidityPeriodUnit, ActivatedProductFeature: input.ActivatedProductFeature,
			ActivatedGroupPayment: input.ActivatedGroupPayment, DisplayOffersMap: input.DisplayOffersMap,
			ActivatedOfferCountryFilter:    input.ActivatedOfferCountryFilter,
			ActivatedOfferDepartmentFilter: input.ActivatedOfferDepartmentFilter,
			ActivatedOfferRegionFilter:     input.ActivatedOfferRegionFilter}})
	if err != nil {
		ue, err := userErrors(err)
		return &model.NetworkVouchersProductInformationPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.NetworkVouchersProductInformationPayload{NetworkVouchersProductInformation: toGraphNetworkVouchersProductInformation(pi),
		UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// UpdateVouchersProductInformation is the resolver for the updateVouchersProductInformation field.
func (r *mutationResolver) UpdateVouchersProductInformation(ctx context.Context, input model.UpdateVouchersProductInformationInput) (*model.VouchersProductInformationPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	pi, err := r.PartnerCatalog.SaveVouchersProductInformation(ctx, catalogue.VouchersProductInformationInput{
		PartnerID: partnerID, Title: toDomainTexts(input.Title), Subtitle: toDomainTexts(input.Subtitle),
		ShortDescription: toDomainTexts(input.ShortDescription), VouchersProductInformation: catalogue.VouchersProductInformation{
			ActivatedDestinationFilter: input.ActivatedDestinationFilter, ActivatedUniverseFilter: input.ActivatedUniverseFilter,
			ActivatedPriceFilter: input.ActivatedPriceFilter, ActivatedTargetFilter: input.ActivatedTargetFilter,
			ActivatedThemeFilter: input.ActivatedThemeFilter, ActivatedEnvironmentFilter: input.ActivatedEnvironmentFilter,
			ActivatedOfferOrderingByRanking: input.ActivatedOfferOrderingByRanking, ValidityPeriod: input.ValidityPeriod,
			ValidityPeriodUnit: input.ValidityPeriodUnit, MethodOfDisplay: input.MethodOfDisplay,
			ActivatedGroupPayment: input.ActivatedGroupPayment}})
	if err != nil {
		ue, err := userErrors(err)
		return &model.VouchersProductInformationPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.VouchersProductInformationPayload{VouchersProductInformation: toGraphVouchersProductInformation(pi), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// UpdateWorkshopsProductInformation is the resolver for the updateWorkshopsProductInformation field.
func (r *mutationResolver) UpdateWorkshopsProductInformation(ctx context.Context, input model.UpdateWorkshopsProductInformationInput) (*model.WorkshopsProductInformationPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	pi, err := r.PartnerCatalog.SaveWorkshopsProductInformation(ctx, catalogue.WorkshopsProductInformationInput{
		PartnerID: partnerID, Title: toDomainTexts(input.Title), Description: toDomainTexts(input.Description),
		TOSURL: toDomainURLEntries(input.TosURL), WorkshopsProductInformation: catalogue.WorkshopsProductInformation{
			DisplayWorkshopsByMonth: input.DisplayWorkshopsByMonth, DisplayWorkshopsPerSession: input.DisplayWorkshopsPerSession,
			DisplayFullyBookedSessions: input.DisplayFullyBookedSessions, ActivatedMonthFilter: input.ActivatedMonthFilter,
			ActivatedDayFilter: input.ActivatedDayFilter, ActivatedTimeFilter: input.ActivatedTimeFilter,
			ActivatedPriceFilter: input.ActivatedPriceFilter, ActivatedCategoryFilter: input.ActivatedCategoryFilter,
			ActivatedDurationFilter: input.ActivatedDurationFilter, ActivatedTargetFilter: input.ActivatedTargetFilter,
			ActivatedLevelFilter: input.ActivatedLevelFilter, ActivatedThemeFilter: input.ActivatedThemeFilter,
			MinNbFreePlacesForLabelShown: input.MinNbFreePlacesForLabelShown, DisplayPhoneNumber: input.DisplayPhoneNumber,
			PhoneNumber: input.PhoneNumber, DefaultWorkshopImage: input.DefaultWorkshopImage,
			ValidityPeriod: input.ValidityPeriod, ValidityPeriodUnit: input.ValidityPeriodUnit}})
	if err != nil {
		ue, err := userErrors(err)
		return &model.WorkshopsProductInformationPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.WorkshopsProductInformationPayload{WorkshopsProductInformation: toGraphWorkshopsProductInformation(pi), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}
