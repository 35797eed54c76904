package graph

// Converters of the catalogue, domain to graph.

import (
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/graph/model"
)

func idString(id int64) string { return strconv.FormatInt(id, 10) }

func toGraphLocalized(l domain.Localized) *model.Localized { return model.NewLocalized(l) }

// The CurrencyCode enum (schema/currency.graphqls) lists the currencies of
// the CLDR data money is formatted with.
//
//go:generate go run ./internal/currencygen

func toGraphMoney(amount decimal.Decimal, currency string) *model.Money {
	return &model.Money{Amount: amount, Currency: currency}
}

// toGraphEntries lists a map's entries by key.
func toGraphEntries(m map[string]string) []*model.StringEntry {
	out := make([]*model.StringEntry, 0, len(m))
	for k, v := range m {
		out = append(out, &model.StringEntry{Key: k, Value: v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// toGraphStrings makes a missing list an empty one.
func toGraphStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func toGraphCoordinate(d *decimal.Decimal) *float64 {
	if d == nil {
		return nil
	}
	f, _ := d.Float64()
	return &f
}

func toGraphCataloguePartner(p *catalogue.PartnerListing) *model.CataloguePartner {
	if p == nil {
		return nil
	}
	pr, f := p.Profile, p.Profile.Facilities
	labels := make([]*model.PartnerLabel, len(p.Labels))
	for i, l := range p.Labels {
		labels[i] = &model.PartnerLabel{Name: l.Name, Logo: l.LogoURL}
	}
	return &model.CataloguePartner{ID: idString(p.ID), GlobalID: numericGlobalID("CataloguePartner", p.ID), Name: p.Name,
		Description: toGraphLocalized(pr.Description), Managers: toGraphLocalized(pr.Managers),
		Nearby: toGraphLocalized(pr.Nearby), PracticalInformation: toGraphLocalized(pr.PracticalInformation),
		Access: toGraphLocalized(pr.Access), CommercialDescription: toGraphLocalized(pr.CommercialDescription),
		Region: pr.Region, Department: pr.Department, City: pr.City,
		Latitude: toGraphCoordinate(pr.Latitude), Longitude: toGraphCoordinate(pr.Longitude),
		Facilities: &model.PartnerFacilities{DisabledAccess: f.DisabledAccess, AirConditioning: f.AirConditioning,
			PrivateParking: f.PrivateParking, Wifi: f.Wifi, SmokingArea: f.SmokingArea, PetsAllowed: f.PetsAllowed,
			FamilyFriendly: f.FamilyFriendly},
		SocialLinks: toGraphEntries(pr.SocialLinks), Labels: labels}
}

func toGraphCataloguePartnerConnection(w window, page *domain.Page[*catalogue.PartnerListing]) *model.CataloguePartnerConnection {
	edges, info := connect(w, page, func(c string, p *catalogue.PartnerListing) *model.CataloguePartnerEdge {
		return &model.CataloguePartnerEdge{Cursor: c, Node: toGraphCataloguePartner(p)}
	})
	return &model.CataloguePartnerConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func toGraphDestinations(ds []catalogue.Destination) []*model.Destination {
	out := make([]*model.Destination, len(ds))
	for i, d := range ds {
		out[i] = &model.Destination{City: d.City, Department: d.Department, Region: d.Region}
	}
	return out
}

func toGraphLegalInformation(v *catalogue.LegalInformationView) *model.LegalInformation {
	li := v.LegalInformation
	return &model.LegalInformation{AgencyName: li.AgencyName, Name: v.Name, AddressLine1: li.AddressLine1,
		AddressLine2: li.AddressLine2, AddressLine3: li.AddressLine3, PostalCode: li.PostalCode, City: li.City,
		Country: li.Country, CompanyType: li.CompanyType, CreationDate: v.CreationDate,
		HqPhoneNumber: li.HQPhoneNumber, AgencyPhone: li.AgencyPhone, AgencyWebsite: li.AgencyWebsite,
		LegalNoticeEmail: li.LegalNoticeEmail, LegalForm: li.LegalForm, CapitalStock: li.CapitalStock,
		CurrencySymbol: v.CurrencySymbol, LegalFirstName: li.LegalFirstName, LegalLastName: li.LegalLastName,
		SiretNumber: li.SIRETNumber, VatID: li.VATID, Rcs: li.RCS}
}

func toGraphEventsProductInformation(pi *catalogue.EventsProductInformation) *model.EventsProductInformation {
	return &model.EventsProductInformation{Title: toGraphLocalized(pi.Title), Description: toGraphLocalized(pi.Description),
		TosURL: toGraphEntries(pi.TOSURL), DisplayFullyBookedEvents: pi.DisplayFullyBookedEvents,
		DisplayEventsPerSlots: pi.DisplayEventsPerSlots}
}

func toGraphGiftcardsProductInformation(v *catalogue.GiftcardsProductInformationView) *model.GiftcardsProductInformation {
	partners := make([]*model.PartnerAgency, len(v.Partners))
	for i, p := range v.Partners {
		partners[i] = &model.PartnerAgency{GlobalID: numericGlobalID("PartnerAgency", p.ID), ID: idString(p.ID), AgencyName: p.AgencyName}
	}
	return &model.GiftcardsProductInformation{Title: toGraphLocalized(v.Title),
		Description: toGraphLocalized(v.Description), Partners: partners}
}

// toGraphValidityUnit is nil for a unit that is not set.
func toGraphValidityUnit(unit string) *model.ValidityUnit {
	if unit == "" {
		return nil
	}
	u := model.ValidityUnit(strings.ToUpper(unit))
	return &u
}

func toGraphNetworkGiftcardsProductInformation(v *catalogue.NetworkGiftcardsProductInformationView) *model.NetworkGiftcardsProductInformation {
	g, pot := v.Giftcard, v.MoneyPot
	amounts := make([]*model.Money, len(g.PredefinedAmounts))
	for i, a := range g.PredefinedAmounts {
		amounts[i] = toGraphMoney(a, v.CurrencyCode)
	}
	return &model.NetworkGiftcardsProductInformation{Title: toGraphLocalized(v.Title),
		Description: toGraphLocalized(v.Description),
		Giftcard: &model.NetworkGiftcardSettings{CustomizedAmount: g.CustomizedAmount,
			Description: toGraphLocalized(g.Description), MinimumAmount: toGraphMoney(g.MinimumAmount, v.CurrencyCode),
			PredefinedAmounts: amounts, TermsOfUse: toGraphLocalized(g.TermsOfUse), Title: toGraphLocalized(g.Title),
			ValidityPeriod: g.ValidityPeriod, ValidityUnit: toGraphValidityUnit(g.ValidityUnit)},
		MoneyPot: &model.NetworkGiftcardMoneyPot{Activated: pot.Activated, Description: toGraphLocalized(pot.Description),
			Logo: pot.Logo, Title: toGraphLocalized(pot.Title)}}
}

func toGraphNetworkVouchersProductInformation(pi *catalogue.NetworkVouchersProductInformation) *model.NetworkVouchersProductInformation {
	return &model.NetworkVouchersProductInformation{Title: toGraphLocalized(pi.Title),
		Description: toGraphLocalized(pi.Description), TermsOfUse: toGraphLocalized(pi.TermsOfUse),
		DisplayByUniverse: pi.DisplayByUniverse, ValidityPeriod: pi.ValidityPeriod,
		ValidityPeriodUnit: pi.ValidityPeriodUnit, ActivatedProductFeature: pi.ActivatedProductFeature,
		ActivatedGroupPayment: pi.ActivatedGroupPayment, DisplayOffersMap: pi.DisplayOffersMap,
		ActivatedOfferCountryFilter:    pi.ActivatedOfferCountryFilter,
		ActivatedOfferDepartmentFilter: pi.ActivatedOfferDepartmentFilter,
		ActivatedOfferRegionFilter:     pi.ActivatedOfferRegionFilter}
}

func toGraphVouchersProductInformation(pi *catalogue.VouchersProductInformation) *model.VouchersProductInformation {
	return &model.VouchersProductInformation{Title: toGraphLocalized(pi.Title), Subtitle: toGraphLocalized(pi.Subtitle),
		ShortDescription:           toGraphLocalized(pi.ShortDescription),
		ActivatedDestinationFilter: pi.ActivatedDestinationFilter, ActivatedUniverseFilter: pi.ActivatedUniverseFilter,
		ActivatedPriceFilter: pi.ActivatedPriceFilter, ActivatedTargetFilter: pi.ActivatedTargetFilter,
		ActivatedThemeFilter: pi.ActivatedThemeFilter, ActivatedEnvironmentFilter: pi.ActivatedEnvironmentFilter,
		ActivatedOfferOrderingByRanking: pi.ActivatedOfferOrderingByRanking, ValidityPeriod: pi.ValidityPeriod,
		ValidityPeriodUnit: pi.ValidityPeriodUnit, MethodOfDisplay: pi.MethodOfDisplay,
		ActivatedGroupPayment: pi.ActivatedGroupPayment}
}

func toGraphWorkshopsProductInformation(pi *catalogue.WorkshopsProductInformation) *model.WorkshopsProductInformation {
	return &model.WorkshopsProductInformation{Title: toGraphLocalized(pi.Title),
		Description: toGraphLocalized(pi.Description), TosURL: toGraphEntries(pi.TOSURL),
		DisplayWorkshopsByMonth: pi.DisplayWorkshopsByMonth, DisplayWorkshopsPerSession: pi.DisplayWorkshopsPerSession,
		DisplayFullyBookedSessions: pi.DisplayFullyBookedSessions, ActivatedMonthFilter: pi.ActivatedMonthFilter,
		ActivatedDayFilter: pi.ActivatedDayFilter, ActivatedTimeFilter: pi.ActivatedTimeFilter,
		ActivatedPriceFilter: pi.ActivatedPriceFilter, ActivatedCategoryFilter: pi.ActivatedCategoryFilter,
		ActivatedDurationFilter: pi.ActivatedDurationFilter, ActivatedTargetFilter: pi.ActivatedTargetFilter,
		ActivatedLevelFilter: pi.ActivatedLevelFilter, ActivatedThemeFilter: pi.ActivatedThemeFilter,
		MinNbFreePlacesForLabelShown: pi.MinNbFreePlacesForLabelShown, DisplayPhoneNumber: pi.DisplayPhoneNumber,
		PhoneNumber: pi.PhoneNumber, DefaultWorkshopImage: pi.DefaultWorkshopImage,
		ValidityPeriod: pi.ValidityPeriod, ValidityPeriodUnit: pi.ValidityPeriodUnit}
}

func toGraphEvent(v *catalogue.EventView) *model.Event {
	if v == nil {
		return nil
	}
	e, d, currency := v.Event, v.Event.DeliveryOptions, v.CurrencyCode
	formulas := make([]*model.EventFormula, len(v.Formulas))
	for i, f := range v.Formulas {
		formulas[i] = &model.EventFormula{ID: f.ID, Name: toGraphLocalized(f.Name), Price: toGraphMoney(f.Price, currency)}
	}
	out := &model.Event{ID: e.ID, Name: toGraphLocalized(e.Name), ShortDescription: toGraphLocalized(e.ShortDescription),
		LongDescription: toGraphLocalized(e.LongDescription), Booking: toGraphLocalized(e.Booking),
		CoverImage: e.CoverImage, Images: toGraphStrings(e.Images), Formulas: formulas,
		DeliveryOptions: &model.DeliveryOptions{ActivatedEmailToBuyer: d.EmailToBuyer,
			ActivatedEmailToBeneficiaryDelivery:      d.EmailToBeneficiary,
			ActivatedPostalMailToBuyer:               d.PostalMailToBuyer,
			ActivatedPostalMailToBeneficiaryDelivery: d.PostalMailToBeneficiary,
			PostalMailShippingCost:                   toGraphMoney(d.PostalMailShippingCost, currency),
			PostalMailDuration:                       d.PostalMailDuration,
			ActivatedPickupOnSiteDelivery:            d.PickupOnSite,
			PickupOnSiteDuration:                     d.PickupOnSiteDuration,
			PickupOnSiteCost:                         toGraphMoney(d.PickupOnSiteCost, currency),
			Activated3MAToBuyer:                      d.Activated3MAToBuyer,
			Activated3MAToBeneficiary:                d.Activated3MAToBeneficiary,
			MessengerDeliveryCost:                    toGraphMoney(d.MessengerDeliveryCost, currency)}}
	if v.LowestPrice != nil {
		out.LowestPrice = toGraphMoney(*v.LowestPrice, currency)
	}
	return out
}

func toGraphEventSlotConnection(w window, page *domain.Page[*catalogue.EventSlotView]) *model.EventSlotConnection {
	edges, info := connect(w, page, func(c string, s *catalogue.EventSlotView) *model.EventSlotEdge {
		return &model.EventSlotEdge{Cursor: c, Node: &model.EventSlot{GlobalID: numericGlobalID("EventSlot", s.ID), ID: idString(s.ID),
			StartingDatetime: s.Start, StartingDatetimeFormatted: toGraphLocalized(s.StartFormatted),
			EndingDatetime: s.End, EndingDatetimeFormatted: toGraphLocalized(s.EndFormatted),
			DurationFormatted: toGraphLocalized(s.DurationFormatted), FunnelLink: s.FunnelLink,
			AvailablePlaces: s.AvailablePlaces}}
	})
	return &model.EventSlotConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func toGraphEventSlotListConnection(w window, page *domain.Page[*catalogue.EventSlotItem]) *model.EventSlotListConnection {
	edges, info := connect(w, page, func(c string, it *catalogue.EventSlotItem) *model.EventSlotListEdge {
		node := &model.EventSlotListItem{ID: it.Slot.ID, EventID: it.Slot.EventID,
			Name: toGraphLocalized(it.EventName), Description: toGraphLocalized(it.EventDescription),
			StartingDatetime: it.Start, StartingDatetimeFormatted: toGraphLocalized(it.StartFormatted),
			EndingDatetime: it.End, EndingDatetimeFormatted: toGraphLocalized(it.EndFormatted),
			DurationFormatted: toGraphLocalized(it.DurationFormatted), FormulasCount: it.FormulasCount,
			AvailablePlaces: it.Slot.AvailablePlaces, SlotsCount: it.SlotsCount}
		if it.LowestPrice != nil {
			node.Price = toGraphMoney(*it.LowestPrice, it.CurrencyCode)
		}
		return &model.EventSlotListEdge{Cursor: c, Node: node}
	})
	return &model.EventSlotListConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// workshopTerm is the model of a workshop vocabulary's type
// (model.WorkshopLevel…), each a model.WorkshopTag under its own name.
type workshopTerm interface {
	~struct {
		ID   int64
		Name *model.Localized
	}
}

func toGraphWorkshopTag[T workshopTerm](t *catalogue.WorkshopTag) *T {
	if t == nil {
		return nil
	}
	out := T(model.WorkshopTag{ID: t.ID, Name: toGraphLocalized(t.Name)})
	return &out
}

func toGraphWorkshopTags[T workshopTerm](ts []catalogue.WorkshopTag) []*T {
	out := make([]*T, len(ts))
	for i := range ts {
		out[i] = toGraphWorkshopTag[T](&ts[i])
	}
	return out
}

func toGraphWorkshop(v *catalogue.WorkshopView) *model.Workshop {
	if v == nil {
		return nil
	}
	w, c := v.Workshop, v.Category
	return &model.Workshop{ID: w.ID, Name: toGraphLocalized(w.Name), ShortDescription: toGraphLocalized(w.ShortDescription),
		LongDescription: toGraphLocalized(w.LongDescription), BookingConditions: toGraphLocalized(w.BookingConditions),
		Images: toGraphStrings(w.Images), CanBePrivatized: w.CanBePrivatized, DisplayCalendar: w.DisplayCalendar,
		Address: w.Address,
		Category: &model.WorkshopCategory{ID: c.ID, Name: toGraphLocalized(c.Name),
			Price: toGraphMoney(c.Price, c.CurrencyCode), SpecificValidityPeriod: c.SpecificValidityPeriod},
		Level: toGraphWorkshopTag[model.WorkshopLevel](w.Level), Themes: toGraphWorkshopTags[model.WorkshopTheme](w.Themes),
		Targets: toGraphWorkshopTags[model.WorkshopTarget](w.Targets), Skills: toGraphWorkshopTags[model.WorkshopSkill](w.Skills),
		Recipes: toGraphWorkshopTags[model.WorkshopRecipe](w.Recipes), ActivateWorkshopsGroupPayment: w.ActivateWorkshopsGroupPayment}
}

func toGraphWorkshopSessionConnection(w window, page *domain.Page[*catalogue.WorkshopSessionView]) *model.WorkshopSessionConnection {
	edges, info := connect(w, page, func(c string, s *catalogue.WorkshopSessionView) *model.WorkshopSessionEdge {
		return &model.WorkshopSessionEdge{Cursor: c, Node: &model.WorkshopSession{ID: s.ID, WorkshopID: s.WorkshopID,
			StartingDatetime: s.Start, StartingDatetimeFormatted: toGraphLocalized(s.StartFormatted),
			EndingDatetime: s.End, EndingDatetimeFormatted: toGraphLocalized(s.EndFormatted),
			MinCapacity: s.MinCapacity, MaxCapacity: s.MaxCapacity,
			DurationFormatted:      toGraphLocalized(s.DurationFormatted),
			DurationValueFormatted: toGraphLocalized(s.DurationValueFormatted),
			AvailablePlaces:        s.AvailablePlaces, FunnelLink: s.FunnelLink}}
	})
	return &model.WorkshopSessionConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func toGraphWorkshopThemeConnection(w window, page *domain.Page[*catalogue.WorkshopTag]) *model.WorkshopThemeConnection {
	edges, info := connect(w, page, func(c string, t *catalogue.WorkshopTag) *model.WorkshopThemeEdge {
		return &model.WorkshopThemeEdge{Cursor: c, Node: toGraphWorkshopTag[model.WorkshopTheme](t)}
	})
	return &model.WorkshopThemeConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func toGraphBox(b *catalogue.BoxView) *model.Box {
	return &model.Box{ID: b.ID, Name: toGraphLocalized(b.Name), ShortDescription: toGraphLocalized(b.ShortDescription),
		LongDescription: toGraphLocalized(b.LongDescription), IsHighlight: b.IsHighlight,
		DisplayNbOffers: b.DisplayNbOffers, NbOffers: b.NbOffers, Price: toGraphMoney(b.Price, b.CurrencyCode),
		Ranking: b.Ranking, PeopleIncluded: b.PeopleIncluded, MaxNumberUsages: b.MaxNumberUsages,
		MaxDaysAfterFirstUsage: b.MaxDaysAfterFirstUsage, UniverseIDs: b.UniverseIDs}
}

// boxViewID is the id a box's keyset cursor carries (readKeyset).
func boxViewID(b *catalogue.BoxView) int64 { return b.ID }

func toGraphBoxConnection(w window, page *domain.Page[*catalogue.BoxView]) *model.BoxConnection {
	edges, info := connect(w, page, func(c string, b *catalogue.BoxView) *model.BoxEdge {
		return &model.BoxEdge{Cursor: c, Node: toGraphBox(b)}
	})
	return &model.BoxConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func toGraphBoxOfferConnection(w window, page *domain.Page[*catalogue.BoxOffer]) *model.BoxOfferConnection {
	edges, info := connect(w, page, func(c string, o *catalogue.BoxOffer) *model.BoxOfferEdge {
		return &model.BoxOfferEdge{Cursor: c, Node: toGraphBoxOffer(o)}
	})
	return &model.BoxOfferConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// toBoxOrdering writes orderBy as the terms of the box list's ordering.
func toBoxOrdering(orderBy []*model.BoxOrder) []string {
	terms := make([]string, len(orderBy))
	for i, o := range orderBy {
		terms[i] = strings.ToLower(string(o.Field))
		if o.Direction == model.OrderDirectionDesc {
			terms[i] = "-" + terms[i]
		}
	}
	return terms
}

func toGraphUniverses(nodes []*catalogue.UniverseNode) []*model.Universe {
	out := make([]*model.Universe, len(nodes))
	for i, n := range nodes {
		out[i] = &model.Universe{GlobalID: numericGlobalID("Universe", n.ID), ID: idString(n.ID), Name: toGraphLocalized(n.Name), Order: n.Order,
			SubUniverses: toGraphUniverses(n.SubUniverses)}
	}
	return out
}

func toGraphThemes(themes []*catalogue.Theme) []*model.Theme {
	out := make([]*model.Theme, len(themes))
	for i, t := range themes {
		out[i] = &model.Theme{GlobalID: numericGlobalID("Theme", t.ID), ID: idString(t.ID), Name: toGraphLocalized(t.Name)}
	}
	return out
}

func toGraphGiftcardPrototype(p *catalogue.GiftcardPrototypeView) *model.GiftcardPrototype {
	amounts := make([]*model.Money, len(p.PredefinedAmounts))
	for i, a := range p.PredefinedAmounts {
		amounts[i] = toGraphMoney(a, p.PartnerCurrency)
	}
	pot := &model.MoneyPot{Activated: p.MoneyPotActivated}
	if p.MoneyPotLogo != "" {
		pot.Logo = &p.MoneyPotLogo
	}
	return &model.GiftcardPrototype{ID: p.ID, Title: toGraphLocalized(p.Title),
		Description: toGraphLocalized(p.Description), TermsOfUse: toGraphLocalized(p.TermsOfUse),
		CustomizedAmount: p.CustomizedAmount, MinimumAmount: toGraphMoney(p.MinimumAmount, p.PartnerCurrency),
		PredefinedAmounts: amounts, MoneyPot: pot, ValidityPeriod: p.ValidityPeriod,
		ValidityUnit: model.ValidityUnit(strings.ToUpper(p.ValidityUnit)), PartnerID: p.PartnerID,
		PartnerName: p.PartnerName}
}

func toGraphGiftcardPrototypeConnection(w window, page *domain.Page[*catalogue.GiftcardPrototypeView]) *model.GiftcardPrototypeConnection {
	edges, info := connect(w, page, func(c string, p *catalogue.GiftcardPrototypeView) *model.GiftcardPrototypeEdge {
		return &model.GiftcardPrototypeEdge{Cursor: c, Node: toGraphGiftcardPrototype(p)}
	})
	return &model.GiftcardPrototypeConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func toGraphBoxOffer(o *catalogue.BoxOffer) *model.BoxOffer {
	return &model.BoxOffer{ID: o.ID, PartnerID: o.PartnerID}
}
