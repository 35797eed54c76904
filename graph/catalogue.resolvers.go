package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/graph/model"

	"github.com/99designs/gqlgen/graphql"
)

// Universes is the resolver for the universes field.
func (r *boxResolver) Universes(ctx context.Context, obj *model.Box) ([]*model.UniverseRecord, error) {
	us, err := loadersFrom(ctx).boxUniverses.LoadAll(ctx, obj.UniverseIDs)
	if err != nil {
		return nil, err
	}
	out := make([]*model.UniverseRecord, 0, len(us))
	for _, u := range us {
		if u != nil {
			out = append(out, toGraphUniverseRecord(u))
		}
	}
	return out, nil
}

// Images is the resolver for the images field.
func (r *boxResolver) Images(ctx context.Context, obj *model.Box) ([]string, error) {
	return loadersFrom(ctx).boxImages.Load(ctx, obj.ID)
}

// Offers is the resolver for the offers field.
func (r *boxResolver) Offers(ctx context.Context, obj *model.Box, first *int, after *string, last *int, before *string) (*model.BoxOfferConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).boxOffers, obj.ID, pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return toGraphBoxOfferConnection(w, page), nil
}

// Partner is the resolver for the partner field.
func (r *boxOfferResolver) Partner(ctx context.Context, obj *model.BoxOffer) (*model.CataloguePartner, error) {
	p, err := partnerLoader(ctx, graphql.GetFieldContext(ctx).Field).Load(ctx, obj.PartnerID)
	return toGraphCataloguePartner(p), err
}

// Slots is the resolver for the slots field.
func (r *eventResolver) Slots(ctx context.Context, obj *model.Event, first *int, after *string, last *int, before *string) (*model.EventSlotConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).eventSlots, obj.ID, pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return toGraphEventSlotConnection(w, page), nil
}

// Event is the resolver for the event field.
func (r *eventSlotListItemResolver) Event(ctx context.Context, obj *model.EventSlotListItem) (*model.Event, error) {
	e, err := loadersFrom(ctx).events.Load(ctx, obj.EventID)
	return toGraphEvent(e), found(e, err)
}

// Partner is the resolver for the partner field.
func (r *giftcardPrototypeResolver) Partner(ctx context.Context, obj *model.GiftcardPrototype) (*model.CataloguePartner, error) {
	p, err := partnerLoader(ctx, graphql.GetFieldContext(ctx).Field).Load(ctx, obj.PartnerID)
	return toGraphCataloguePartner(p), err
}

// Events is the resolver for the events field.
func (r *productInformationResolver) Events(ctx context.Context, obj *model.ProductInformation) (*model.EventsProductInformation, error) {
	return converted(toGraphEventsProductInformation)(r.PartnerCatalog.EventsProductInformation(ctx))
}

// Giftcards is the resolver for the giftcards field.
func (r *productInformationResolver) Giftcards(ctx context.Context, obj *model.ProductInformation) (*model.GiftcardsProductInformation, error) {
	pi, err := r.PartnerCatalog.GiftcardsProductInformation(ctx)
	if err != nil {
		return nil, err
	}
	return toGraphGiftcardsProductInformation(pi[0]), nil
}

// NetworkGiftcards is the resolver for the networkGiftcards field.
func (r *productInformationResolver) NetworkGiftcards(ctx context.Context, obj *model.ProductInformation) (*model.NetworkGiftcardsProductInformation, error) {
	return converted(toGraphNetworkGiftcardsProductInformation)(r.PartnerCatalog.NetworkGiftcardsProductInformation(ctx))
}

// NetworkVouchers is the resolver for the networkVouchers field.
func (r *productInformationResolver) NetworkVouchers(ctx context.Context, obj *model.ProductInformation) (*model.NetworkVouchersProductInformation, error) {
	return converted(toGraphNetworkVouchersProductInformation)(r.PartnerCatalog.NetworkVouchersProductInformation(ctx))
}

// Vouchers is the resolver for the vouchers field.
func (r *productInformationResolver) Vouchers(ctx context.Context, obj *model.ProductInformation) (*model.VouchersProductInformation, error) {
	return converted(toGraphVouchersProductInformation)(r.PartnerCatalog.VouchersProductInformation(ctx))
}

// Workshops is the resolver for the workshops field.
func (r *productInformationResolver) Workshops(ctx context.Context, obj *model.ProductInformation) (*model.WorkshopsProductInformation, error) {
	return converted(toGraphWorkshopsProductInformation)(r.PartnerCatalog.WorkshopsProductInformation(ctx))
}

// Partners is the resolver for the partners field.
func (r *queryResolver) Partners(ctx context.Context, first *int, after *string, last *int, before *string, department *string, region *string, ids []string) (*model.CataloguePartnerConnection, error) {
	q := partnerQuery(ids)
	if department != nil {
		q.Department = *department
	}
	if region != nil {
		q.Region = *region
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*catalogue.PartnerListing], error) {
		return r.PartnerCatalog.Partners(ctx, q, p)
	})
	if err != nil {
		return nil, renameArgument(err, "id", "ids")
	}
	return toGraphCataloguePartnerConnection(w, page), nil
}

// Partner is the resolver for the partner field.
func (r *queryResolver) Partner(ctx context.Context, id string) (*model.CataloguePartner, error) {
	key, err := lookupKey("CataloguePartner", id)
	if err != nil {
		return nil, err
	}
	return r.cataloguePartner(ctx, key)
}

// CurrentPartner is the resolver for the currentPartner field.
func (r *queryResolver) CurrentPartner(ctx context.Context) (*model.CataloguePartner, error) {
	return converted(toGraphCataloguePartner)(r.PartnerCatalog.CurrentPartner(ctx))
}

// Destinations is the resolver for the destinations field.
func (r *queryResolver) Destinations(ctx context.Context) ([]*model.Destination, error) {
	return converted(toGraphDestinations)(r.PartnerCatalog.Destinations(ctx))
}

// LegalInformation is the resolver for the legalInformation field.
func (r *queryResolver) LegalInformation(ctx context.Context) (*model.LegalInformation, error) {
	li, err := r.PartnerCatalog.LegalInformation(ctx)
	if err != nil {
		return nil, err
	}
	return toGraphLegalInformation(li[0]), nil
}

// RefundWithdrawalTerms is the resolver for the refundWithdrawalTerms field.
func (r *queryResolver) RefundWithdrawalTerms(ctx context.Context) (*model.Localized, error) {
	terms, err := r.PartnerCatalog.RefundWithdrawalTerms(ctx)
	if err != nil {
		return nil, err
	}
	return toGraphLocalized(terms[0]), nil
}

// ProductInformation is the resolver for the productInformation field.
func (r *queryResolver) ProductInformation(ctx context.Context) (*model.ProductInformation, error) {
	return &model.ProductInformation{}, nil
}

// Event is the resolver for the event field.
func (r *queryResolver) Event(ctx context.Context, id string) (*model.Event, error) {
	key, err := lookupKey("Event", id)
	if err != nil {
		return nil, err
	}
	return r.event(ctx, key)
}

// EventSlots is the resolver for the eventSlots field.
func (r *queryResolver) EventSlots(ctx context.Context, first *int, after *string, last *int, before *string) (*model.EventSlotListConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*catalogue.EventSlotItem], error) {
		return r.EventCatalog.EventSlots(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return toGraphEventSlotListConnection(w, page), nil
}

// Workshop is the resolver for the workshop field.
func (r *queryResolver) Workshop(ctx context.Context, id string) (*model.Workshop, error) {
	key, err := lookupKey("Workshop", id)
	if err != nil {
		return nil, err
	}
	return r.workshop(ctx, key)
}

// WorkshopSessions is the resolver for the workshopSessions field.
func (r *queryResolver) WorkshopSessions(ctx context.Context, workshopID *string, first *int, after *string, last *int, before *string) (*model.WorkshopSessionConnection, error) {
	q := catalogue.WorkshopSessionQuery{}
	if workshopID != nil {
		q.Workshop = filterKey("Workshop", *workshopID)
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*catalogue.WorkshopSessionView], error) {
		q.Page = p
		return r.WorkshopCatalog.WorkshopSessions(ctx, q)
	})
	if err != nil {
		return nil, renameArgument(err, "workshop", "workshopId")
	}
	return toGraphWorkshopSessionConnection(w, page), nil
}

// WorkshopThemes is the resolver for the workshopThemes field.
func (r *queryResolver) WorkshopThemes(ctx context.Context, first *int, after *string, last *int, before *string) (*model.WorkshopThemeConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*catalogue.WorkshopTag], error) {
		return r.WorkshopCatalog.WorkshopThemes(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return toGraphWorkshopThemeConnection(w, page), nil
}

// Boxes is the resolver for the boxes field.
func (r *queryResolver) Boxes(ctx context.Context, orderBy []*model.BoxOrder, first *int, after *string, last *int, before *string) (*model.BoxConnection, error) {
	list := catalogue.BoxList{Ordering: toBoxOrdering(orderBy), Texts: boxTexts(ctx), Offers: boxOffersAlong(ctx)}
	list.OfferPartners = list.Offers != nil && offerPartnersAlong(ctx)
	w, page, err := readKeyset(ctx, pageArgs{first, after, last, before}, boxViewID, func(p domain.PageRequest) (*domain.Page[*catalogue.BoxView], error) {
		list.Page = p
		return r.BoxCatalog.Boxes(ctx, list)
	})
	if err != nil {
		return nil, renameArgument(err, "ordering", "orderBy")
	}
	r.prefetchBoxes(ctx, page.Items, list.OfferPartners)
	return toGraphBoxConnection(w, page), nil
}

// Box is the resolver for the box field.
func (r *queryResolver) Box(ctx context.Context, id string) (*model.Box, error) {
	key, err := lookupKey("Box", id)
	if err != nil {
		return nil, err
	}
	return r.box(ctx, key)
}

// BoxUniverses is the resolver for the boxUniverses field.
func (r *queryResolver) BoxUniverses(ctx context.Context) ([]*model.Universe, error) {
	return converted(toGraphUniverses)(r.BoxCatalog.BoxUniverses(ctx))
}

// Universes is the resolver for the universes field.
func (r *queryResolver) Universes(ctx context.Context) ([]*model.Universe, error) {
	return converted(toGraphUniverses)(r.PrototypeCatalog.Universes(ctx))
}

// Themes is the resolver for the themes field.
func (r *queryResolver) Themes(ctx context.Context) ([]*model.Theme, error) {
	return converted(toGraphThemes)(r.PrototypeCatalog.Themes(ctx))
}

// GiftcardPrototypes is the resolver for the giftcardPrototypes field.
func (r *queryResolver) GiftcardPrototypes(ctx context.Context, partnerID *string, first *int, after *string, last *int, before *string) (*model.GiftcardPrototypeConnection, error) {
	partner := ""
	if partnerID != nil {
		partner = filterKey("CataloguePartner", *partnerID)
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*catalogue.GiftcardPrototypeView], error) {
		return r.PrototypeCatalog.GiftcardPrototypes(ctx, partner, p)
	})
	if err != nil {
		return nil, renameArgument(err, "partner", "partnerId")
	}
	return toGraphGiftcardPrototypeConnection(w, page), nil
}

// GiftcardPrototype is the resolver for the giftcardPrototype field.
func (r *queryResolver) GiftcardPrototype(ctx context.Context, id string) (*model.GiftcardPrototype, error) {
	key, err := lookupKey("GiftcardPrototype", id)
	if err != nil {
		return nil, err
	}
	return r.giftcardPrototype(ctx, key)
}

// Sessions is the resolver for the sessions field.
func (r *workshopResolver) Sessions(ctx context.Context, obj *model.Workshop, first *int, after *string, last *int, before *string) (*model.WorkshopSessionConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).workshopSessions, obj.ID, pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return toGraphWorkshopSessionConnection(w, page), nil
}

// Workshop is the resolver for the workshop field.
func (r *workshopSessionResolver) Workshop(ctx context.Context, obj *model.WorkshopSession) (*model.Workshop, error) {
	ws, err := loadersFrom(ctx).workshops.Load(ctx, obj.WorkshopID)
	return toGraphWorkshop(ws), found(ws, err)
}

// Box returns BoxResolver implementation.
func (r *Resolver) Box() BoxResolver { return &boxResolver{r} }

// BoxOffer returns BoxOfferResolver implementation.
func (r *Resolver) BoxOffer() BoxOfferResolver { return &boxOfferResolver{r} }

// Event returns EventResolver implementation.
func (r *Resolver) Event() EventResolver { return &eventResolver{r} }

// EventSlotListItem returns EventSlotListItemResolver implementation.
func (r *Resolver) EventSlotListItem() EventSlotListItemResolver {
	return &eventSlotListItemResolver{r}
}

// GiftcardPrototype returns GiftcardPrototypeResolver implementation.
func (r *Resolver) GiftcardPrototype() GiftcardPrototypeResolver {
	return &giftcardPrototypeResolver{r}
}

// ProductInformation returns ProductInformationResolver implementation.
func (r *Resolver) ProductInformation() ProductInformationResolver {
	return &productInformationResolver{r}
}

// Workshop returns WorkshopResolver implementation.
func (r *Resolver) Workshop() WorkshopResolver { return &workshopResolver{r} }

// WorkshopSession returns WorkshopSessionResolver implementation.
func (r *Resolver) WorkshopSession() WorkshopSessionResolver { return &workshopSessionResolver{r} }

type (
	boxResolver                struct{ *Resolver }
	boxOfferResolver           struct{ *Resolver }
	eventResolver              struct{ *Resolver }
	eventSlotListItemResolver  struct{ *Resolver }
	giftcardPrototypeResolver  struct{ *Resolver }
	productInformationResolver struct{ *Resolver }
	workshopResolver           struct{ *Resolver }
	workshopSessionResolver    struct{ *Resolver }
)
