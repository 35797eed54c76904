package graph

// Converters of the catalogue administration: graph inputs to domain
// inputs. An input field that is omitted or null keeps the stored value:
// the domain inputs tell it by nil.

import (
	"context"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/graph/model"
)

// toDomainTexts makes a Localized input; nil stays nil (unchanged).
func toDomainTexts(in []*model.TextInput) []domain.TextInput {
	if in == nil {
		return nil
	}
	out := make([]domain.TextInput, len(in))
	for i, t := range in {
		out[i] = domain.TextInput{Lang: language(t.Language, t.Lang), Text: t.Text}
	}
	return out
}

// language is the language code of a text or URL input: its language's,
// else its deprecated lang's as sent; "" when neither is given, which the
// domain refuses.
func language(enum graphql.Omittable[*model.Language], code graphql.Omittable[*string]) string {
	if l := opt(enum); l != nil {
		return strings.ToLower(string(*l))
	}
	if l := opt(code); l != nil {
		return *l
	}
	return ""
}

func optTexts(o graphql.Omittable[[]*model.TextInput]) []domain.TextInput {
	return toDomainTexts(optList(o))
}

// noUserErrors is the userErrors of a payload that succeeded.
func noUserErrors() []*model.UserError { return []*model.UserError{} }

func toDomainDeliveryOptions(d *model.DeliveryOptionsInput) *catalogue.DeliveryOptionsInput {
	if d == nil {
		return nil
	}
	return &catalogue.DeliveryOptionsInput{EmailToBuyer: d.ActivatedEmailToBuyer,
		EmailToBeneficiary: d.ActivatedEmailToBeneficiaryDelivery, PostalMailToBuyer: d.ActivatedPostalMailToBuyer,
		PostalMailToBeneficiary: d.ActivatedPostalMailToBeneficiaryDelivery,
		PostalMailShippingCost:  d.PostalMailShippingCost, PostalMailDuration: d.PostalMailDuration,
		PickupOnSite: d.ActivatedPickupOnSiteDelivery, PickupOnSiteDuration: d.PickupOnSiteDuration,
		PickupOnSiteCost: d.PickupOnSiteCost, Activated3MAToBuyer: d.Activated3MAToBuyer,
		Activated3MAToBeneficiary: d.Activated3MAToBeneficiary, MessengerDeliveryCost: d.MessengerDeliveryCost}
}

func toGraphEventSlot(s *catalogue.EventSlotView) *model.EventSlot {
	return &model.EventSlot{GlobalID: numericGlobalID("EventSlot", s.ID), ID: idString(s.ID),
		StartingDatetime: s.Start, StartingDatetimeFormatted: toGraphLocalized(s.StartFormatted),
		EndingDatetime: s.End, EndingDatetimeFormatted: toGraphLocalized(s.EndFormatted),
		DurationFormatted: toGraphLocalized(s.DurationFormatted), FunnelLink: s.FunnelLink,
		AvailablePlaces: s.AvailablePlaces}
}

// eventPayload answers an event mutation.
func eventPayload(v *catalogue.EventView, err error) (*model.EventPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.EventPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.EventPayload{Event: toGraphEvent(v), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func eventSlotPayload(v *catalogue.EventSlotView, err error) (*model.EventSlotPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.EventSlotPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.EventSlotPayload{Slot: toGraphEventSlot(v), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func eventFormulaPayload(v *catalogue.EventFormulaView, err error) (*model.EventFormulaPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.EventFormulaPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.EventFormulaPayload{Formula: &model.EventFormula{ID: v.ID, Name: toGraphLocalized(v.Name),
		Price: toGraphMoney(v.Price, v.CurrencyCode)}, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// refID reads the id of a related record: a global id of one of types,
// or the numeric id (deprecated). One that is neither is 0, which names no
// record: the service reports it as a field error.
func refID(id string, types ...string) int64 {
	n, err := strconv.ParseInt(keyOf(id, types...), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// optRefID reads an optional related id, as refID: the id when given,
// clear when given as null.
func optRefID(o graphql.Omittable[*string], types ...string) (id *int64, clear bool) {
	s, set := o.ValueOK()
	if s == nil {
		return nil, set
	}
	n := refID(*s, types...)
	return &n, false
}

// refIDs reads a list of related ids, as refID: nil when omitted or null.
func refIDs(o graphql.Omittable[[]string], types ...string) []int64 {
	ids := optList(o)
	if ids == nil {
		return nil
	}
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = refID(id, types...)
	}
	return out
}

func workshopPayload(v *catalogue.WorkshopView, err error) (*model.WorkshopPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.WorkshopPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.WorkshopPayload{Workshop: toGraphWorkshop(v), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func workshopSessionPayload(s *catalogue.WorkshopSessionView, err error) (*model.WorkshopSessionPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.WorkshopSessionPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.WorkshopSessionPayload{Session: &model.WorkshopSession{ID: s.ID, WorkshopID: s.WorkshopID,
		StartingDatetime: s.Start, StartingDatetimeFormatted: toGraphLocalized(s.StartFormatted),
		EndingDatetime: s.End, EndingDatetimeFormatted: toGraphLocalized(s.EndFormatted),
		MinCapacity: s.MinCapacity, MaxCapacity: s.MaxCapacity,
		DurationFormatted:      toGraphLocalized(s.DurationFormatted),
		DurationValueFormatted: toGraphLocalized(s.DurationValueFormatted),
		AvailablePlaces:        s.AvailablePlaces, FunnelLink: s.FunnelLink}, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func workshopCategoryPayload(c *catalogue.WorkshopCategoryView, err error) (*model.WorkshopCategoryPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.WorkshopCategoryPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.WorkshopCategoryPayload{Category: &model.WorkshopCategory{ID: c.ID, Name: toGraphLocalized(c.Name),
		Price: toGraphMoney(c.Price, c.CurrencyCode), SpecificValidityPeriod: c.SpecificValidityPeriod},
		UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func workshopThemePayload(t *catalogue.WorkshopTag, err error) (*model.WorkshopThemePayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.WorkshopThemePayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.WorkshopThemePayload{Theme: toGraphWorkshopTag[model.WorkshopTheme](t), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func toDomainValidityUnit(u *model.ValidityUnit) *string {
	if u == nil {
		return nil
	}
	s := strings.ToLower(string(*u))
	return &s
}

func giftcardPrototypePayload(p *catalogue.GiftcardPrototypeView, err error) (*model.GiftcardPrototypePayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.GiftcardPrototypePayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.GiftcardPrototypePayload{GiftcardPrototype: toGraphGiftcardPrototype(p), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func toGraphVoucherPrototype(p *catalogue.VoucherPrototype) *model.VoucherPrototype {
	out := &model.VoucherPrototype{GlobalID: numericGlobalID("VoucherPrototype", p.ID), ID: idString(p.ID), Name: toGraphLocalized(p.Name), ThemeIds: make([]string, len(p.ThemeIDs))}
	if p.UniverseID != nil {
		id := idString(*p.UniverseID)
		out.UniverseID = &id
	}
	for i, t := range p.ThemeIDs {
		out.ThemeIds[i] = idString(t)
	}
	return out
}

func themePayload(t *catalogue.Theme, err error) (*model.ThemePayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.ThemePayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.ThemePayload{Theme: &model.Theme{GlobalID: numericGlobalID("Theme", t.ID), ID: idString(t.ID), Name: toGraphLocalized(t.Name)}, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func universePayload(u *catalogue.Universe, err error) (*model.UniversePayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.UniversePayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.UniversePayload{Universe: toGraphUniverseRecord(u), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func boxPayload(b *catalogue.BoxView, err error) (*model.BoxPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.BoxPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.BoxPayload{Box: toGraphManagedBox(b), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func toGraphManagedBox(b *catalogue.BoxView) *model.ManagedBox {
	universes := make([]string, len(b.UniverseIDs))
	for i, id := range b.UniverseIDs {
		universes[i] = idString(id)
	}
	return &model.ManagedBox{GlobalID: numericGlobalID("ManagedBox", b.ID), ID: idString(b.ID), Name: toGraphLocalized(b.Name),
		ShortDescription: toGraphLocalized(b.ShortDescription), LongDescription: toGraphLocalized(b.LongDescription),
		IsActive: b.IsActive, IsHighlight: b.IsHighlight, DisplayNbOffers: b.DisplayNbOffers, NbOffers: b.NbOffers,
		Price: toGraphMoney(b.Price, b.CurrencyCode), Ranking: b.Ranking, PeopleIncluded: b.PeopleIncluded,
		MaxNumberUsages: b.MaxNumberUsages, MaxDaysAfterFirstUsage: b.MaxDaysAfterFirstUsage,
		UniverseIds: universes, Images: toGraphStrings(b.Images)}
}

func boxOfferPayload(o *catalogue.BoxOffer, err error) (*model.BoxOfferPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.BoxOfferPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.BoxOfferPayload{Offer: toGraphManagedOffer(o), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func toGraphManagedOffer(o *catalogue.BoxOffer) *model.ManagedBoxOffer {
	return &model.ManagedBoxOffer{GlobalID: numericGlobalID("ManagedBoxOffer", o.ID), ID: idString(o.ID), BoxID: idString(o.BoxID),
		PartnerID: idString(o.PartnerID), Status: model.BoxOfferStatus(o.Status)}
}

// idArg reads an optional ID argument: nil when absent or null.
// Errors: NOT_FOUND for an id that is not one of ours, as parseID.
func idArg(s *string) (*int64, error) {
	if s == nil {
		return nil, nil
	}
	n, err := parseID(*s)
	return &n, err
}

// changeNetwork is addNetworkPartner and removeNetworkPartner.
func (r *Resolver) changeNetwork(ctx context.Context, input model.NetworkPartnerInput, remove bool) (*model.NetworkPayload, error) {
	marketplaceID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	ids, err := r.PartnerCatalog.ChangeNetwork(ctx, catalogue.NetworkChange{MarketplaceID: marketplaceID,
		PartnerID: refID(input.NetworkPartnerID), Remove: remove})
	if err != nil {
		ue, err := userErrors(err)
		return &model.NetworkPayload{UserErrors: ue, Errors: ue}, err
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = idString(id)
	}
	return &model.NetworkPayload{NetworkPartnerIds: out, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func toDomainURLEntries(in []*model.URLEntryInput) []catalogue.URLEntryInput {
	out := make([]catalogue.URLEntryInput, len(in))
	for i, e := range in {
		out[i] = catalogue.URLEntryInput{Lang: language(e.Language, e.Lang), URL: e.URL}
	}
	return out
}

func cataloguePartnerPayload(p *catalogue.PartnerListing, err error) (*model.CataloguePartnerPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.CataloguePartnerPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.CataloguePartnerPayload{Partner: toGraphCataloguePartner(p), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}
