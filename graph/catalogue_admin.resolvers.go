package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/graph/model"
)

// Field is the resolver for the field field.
func (r *catalogueErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *catalogueErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.CatalogueErrorCode, error) {
	return errorCode[model.CatalogueErrorCode](obj.Code), nil
}

// CreateEvent is the resolver for the createEvent field.
func (r *mutationResolver) CreateEvent(ctx context.Context, input model.CreateEventInput) (*model.EventPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	return eventPayload(r.EventCatalog.CreateEvent(ctx, catalogue.EventInput{PartnerID: partnerID,
		Name: toDomainTexts(input.Name), ShortDescription: optTexts(input.ShortDescription),
		LongDescription: optTexts(input.LongDescription), Booking: optTexts(input.Booking),
		CoverImage: opt(input.CoverImage), Images: optList(input.Images),
		DeliveryOptions: toDomainDeliveryOptions(opt(input.DeliveryOptions))}))
}

// UpdateEvent is the resolver for the updateEvent field.
func (r *mutationResolver) UpdateEvent(ctx context.Context, input model.UpdateEventInput) (*model.EventPayload, error) {
	id, err := recordID("Event", input.ID)
	if err != nil {
		return nil, err
	}
	return eventPayload(r.EventCatalog.UpdateEvent(ctx, id, catalogue.EventInput{
		Name: optTexts(input.Name), ShortDescription: optTexts(input.ShortDescription),
		LongDescription: optTexts(input.LongDescription), Booking: optTexts(input.Booking),
		CoverImage: opt(input.CoverImage), Images: optList(input.Images),
		DeliveryOptions: toDomainDeliveryOptions(opt(input.DeliveryOptions))}))
}

// AddEventSlot is the resolver for the addEventSlot field.
func (r *mutationResolver) AddEventSlot(ctx context.Context, input model.AddEventSlotInput) (*model.EventSlotPayload, error) {
	eventID, err := recordID("Event", input.EventID)
	if err != nil {
		return nil, err
	}
	return eventSlotPayload(r.EventCatalog.AddEventSlot(ctx, eventID, catalogue.EventSlotInput{
		StartingAt: &input.StartingDatetime, EndingAt: &input.EndingDatetime, AvailablePlaces: &input.AvailablePlaces}))
}

// UpdateEventSlot is the resolver for the updateEventSlot field.
func (r *mutationResolver) UpdateEventSlot(ctx context.Context, input model.UpdateEventSlotInput) (*model.EventSlotPayload, error) {
	id, err := recordIDOf(input.ID, "EventSlot", "EventSlotListItem")
	if err != nil {
		return nil, err
	}
	return eventSlotPayload(r.EventCatalog.UpdateEventSlot(ctx, id, catalogue.EventSlotInput{
		StartingAt: opt(input.StartingDatetime), EndingAt: opt(input.EndingDatetime),
		AvailablePlaces: opt(input.AvailablePlaces)}))
}

// RemoveEventSlot is the resolver for the removeEventSlot field.
func (r *mutationResolver) RemoveEventSlot(ctx context.Context, input model.RemoveEventSlotInput) (*model.RemoveEventSlotPayload, error) {
	id, err := recordIDOf(input.ID, "EventSlot", "EventSlotListItem")
	if err != nil {
		return nil, err
	}
	if err := r.EventCatalog.RemoveEventSlot(ctx, id); err != nil {
		ue, err := userErrors(err)
		return &model.RemoveEventSlotPayload{UserErrors: ue, Errors: ue}, err
	}
	removed := numericGlobalID("EventSlot", id)
	return &model.RemoveEventSlotPayload{RemovedSlotID: &removed, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// AddEventFormula is the resolver for the addEventFormula field.
func (r *mutationResolver) AddEventFormula(ctx context.Context, input model.AddEventFormulaInput) (*model.EventFormulaPayload, error) {
	eventID, err := recordID("Event", input.EventID)
	if err != nil {
		return nil, err
	}
	return eventFormulaPayload(r.EventCatalog.AddEventFormula(ctx, eventID, catalogue.EventFormulaInput{
		Name: toDomainTexts(input.Name), Price: &input.Price}))
}

// UpdateEventFormula is the resolver for the updateEventFormula field.
func (r *mutationResolver) UpdateEventFormula(ctx context.Context, input model.UpdateEventFormulaInput) (*model.EventFormulaPayload, error) {
	id, err := recordIDOf(input.ID, "EventFormula")
	if err != nil {
		return nil, err
	}
	return eventFormulaPayload(r.EventCatalog.UpdateEventFormula(ctx, id, catalogue.EventFormulaInput{
		Name: optTexts(input.Name), Price: opt(input.Price)}))
}

// UpdateEventSettings is the resolver for the updateEventSettings field.
func (r *mutationResolver) UpdateEventSettings(ctx context.Context, input model.UpdateEventSettingsInput) (*model.EventSettingsPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	set, err := r.EventCatalog.SaveEventSettings(ctx, partnerID, catalogue.EventSettings{DisplayEventsPerSlots: input.DisplayEventsPerSlots})
	if err != nil {
		ue, err := userErrors(err)
		return &model.EventSettingsPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.EventSettingsPayload{EventSettings: &model.EventSettings{DisplayEventsPerSlots: set.DisplayEventsPerSlots},
		UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// CreateWorkshop is the resolver for the createWorkshop field.
func (r *mutationResolver) CreateWorkshop(ctx context.Context, input model.CreateWorkshopInput) (*model.WorkshopPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	categoryID := refID(input.CategoryID, "WorkshopCategory")
	levelID, clearLevel := optRefID(input.LevelID, "WorkshopLevel")
	return workshopPayload(r.WorkshopCatalog.CreateWorkshop(ctx, catalogue.WorkshopInput{PartnerID: partnerID,
		Name: toDomainTexts(input.Name), ShortDescription: optTexts(input.ShortDescription),
		LongDescription: optTexts(input.LongDescription), BookingConditions: optTexts(input.BookingConditions),
		Images: optList(input.Images), CanBePrivatized: opt(input.CanBePrivatized), DisplayCalendar: opt(input.DisplayCalendar),
		Address: opt(input.Address), ActivateWorkshopsGroupPayment: opt(input.ActivateWorkshopsGroupPayment),
		CategoryID: &categoryID, LevelID: levelID, ClearLevel: clearLevel,
		ThemeIDs: refIDs(input.ThemeIds, "WorkshopTheme"), TargetIDs: refIDs(input.TargetIds, "WorkshopTarget"),
		SkillIDs: refIDs(input.SkillIds, "WorkshopSkill"), RecipeIDs: refIDs(input.RecipeIds, "WorkshopRecipe")}))
}

// UpdateWorkshop is the resolver for the updateWorkshop field.
func (r *mutationResolver) UpdateWorkshop(ctx context.Context, input model.UpdateWorkshopInput) (*model.WorkshopPayload, error) {
	id, err := recordID("Workshop", input.ID)
	if err != nil {
		return nil, err
	}
	categoryID, _ := optRefID(input.CategoryID, "WorkshopCategory")
	levelID, clearLevel := optRefID(input.LevelID, "WorkshopLevel")
	return workshopPayload(r.WorkshopCatalog.UpdateWorkshop(ctx, id, catalogue.WorkshopInput{
		Name: optTexts(input.Name), ShortDescription: optTexts(input.ShortDescription),
		LongDescription: optTexts(input.LongDescription), BookingConditions: optTexts(input.BookingConditions),
		Images: optList(input.Images), CanBePrivatized: opt(input.CanBePrivatized), DisplayCalendar: opt(input.DisplayCalendar),
		Address: opt(input.Address), ActivateWorkshopsGroupPayment: opt(input.ActivateWorkshopsGroupPayment),
		CategoryID: categoryID, LevelID: levelID, ClearLevel: clearLevel,
		ThemeIDs: refIDs(input.ThemeIds, "WorkshopTheme"), TargetIDs: refIDs(input.TargetIds, "WorkshopTarget"),
		SkillIDs: refIDs(input.SkillIds, "WorkshopSkill"), RecipeIDs: refIDs(input.RecipeIds, "WorkshopRecipe")}))
}

// AddWorkshopSession is the resolver for the addWorkshopSession field.
func (r *mutationResolver) AddWorkshopSession(ctx context.Context, input model.AddWorkshopSessionInput) (*model.WorkshopSessionPayload, error) {
	workshopID, err := recordID("Workshop", input.WorkshopID)
	if err != nil {
		return nil, err
	}
	return workshopSessionPayload(r.WorkshopCatalog.AddWorkshopSession(ctx, workshopID, catalogue.WorkshopSessionInput{
		StartingAt: &input.StartingDatetime, EndingAt: &input.EndingDatetime, MinCapacity: &input.MinCapacity,
		MaxCapacity: &input.MaxCapacity, AvailablePlaces: opt(input.AvailablePlaces)}))
}

// UpdateWorkshopSession is the resolver for the updateWorkshopSession field.
func (r *mutationResolver) UpdateWorkshopSession(ctx context.Context, input model.UpdateWorkshopSessionInput) (*model.WorkshopSessionPayload, error) {
	id, err := recordIDOf(input.ID, "WorkshopSession")
	if err != nil {
		return nil, err
	}
	return workshopSessionPayload(r.WorkshopCatalog.UpdateWorkshopSession(ctx, id, catalogue.WorkshopSessionInput{
		StartingAt: opt(input.StartingDatetime), EndingAt: opt(input.EndingDatetime), MinCapacity: opt(input.MinCapacity),
		MaxCapacity: opt(input.MaxCapacity), AvailablePlaces: opt(input.AvailablePlaces)}))
}

// CreateWorkshopCategory is the resolver for the createWorkshopCategory field.
func (r *mutationResolver) CreateWorkshopCategory(ctx context.Context, input model.CreateWorkshopCategoryInput) (*model.WorkshopCategoryPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	return workshopCategoryPayload(r.WorkshopCatalog.CreateWorkshopCategory(ctx, catalogue.WorkshopCategoryInput{
		PartnerID: partnerID, Name: toDomainTexts(input.Name), Price: &input.Price,
		SpecificValidityPeriod: opt(input.SpecificValidityPeriod)}))
}

// UpdateWorkshopCategory is the resolver for the updateWorkshopCategory field.
func (r *mutationResolver) UpdateWorkshopCategory(ctx context.Context, input model.UpdateWorkshopCategoryInput) (*model.WorkshopCategoryPayload, error) {
	id, err := recordIDOf(input.ID, "WorkshopCategory")
	if err != nil {
		return nil, err
	}
	validity, set := input.SpecificValidityPeriod.ValueOK()
	return workshopCategoryPayload(r.WorkshopCatalog.UpdateWorkshopCategory(ctx, id, catalogue.WorkshopCategoryInput{
		Name: optTexts(input.Name), Price: opt(input.Price), SpecificValidityPeriod: validity,
		ClearSpecificValidityPeriod: set && validity == nil}))
}

// CreateWorkshopTheme is the resolver for the createWorkshopTheme field.
func (r *mutationResolver) CreateWorkshopTheme(ctx context.Context, input model.CreateWorkshopThemeInput) (*model.WorkshopThemePayload, error) {
	return workshopThemePayload(r.WorkshopCatalog.CreateWorkshopTheme(ctx, toDomainTexts(input.Name)))
}

// UpdateWorkshopTheme is the resolver for the updateWorkshopTheme field.
func (r *mutationResolver) UpdateWorkshopTheme(ctx context.Context, input model.UpdateWorkshopThemeInput) (*model.WorkshopThemePayload, error) {
	id, err := recordIDOf(input.ID, "WorkshopTheme")
	if err != nil {
		return nil, err
	}
	return workshopThemePayload(r.WorkshopCatalog.UpdateWorkshopTheme(ctx, id, toDomainTexts(input.Name)))
}

// CreateGiftcardPrototype is the resolver for the createGiftcardPrototype field.
func (r *mutationResolver) CreateGiftcardPrototype(ctx context.Context, input model.CreateGiftcardPrototypeInput) (*model.GiftcardPrototypePayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	return giftcardPrototypePayload(r.PrototypeCatalog.CreateGiftcardPrototype(ctx, catalogue.GiftcardPrototypeInput{
		PartnerID: partnerID, Title: toDomainTexts(input.Title), Description: optTexts(input.Description),
		TermsOfUse: optTexts(input.TermsOfUse), CustomizedAmount: opt(input.CustomizedAmount),
		MinimumAmount: opt(input.MinimumAmount), PredefinedAmounts: optList(input.PredefinedAmounts),
		MoneyPotActivated: opt(input.MoneyPotActivated), MoneyPotLogo: opt(input.MoneyPotLogo),
		ValidityPeriod: opt(input.ValidityPeriod), ValidityUnit: toDomainValidityUnit(opt(input.ValidityUnit))}))
}

// UpdateGiftcardPrototype is the resolver for the updateGiftcardPrototype field.
func (r *mutationResolver) UpdateGiftcardPrototype(ctx context.Context, input model.UpdateGiftcardPrototypeInput) (*model.GiftcardPrototypePayload, error) {
	id, err := recordID("GiftcardPrototype", input.ID)
	if err != nil {
		return nil, err
	}
	return giftcardPrototypePayload(r.PrototypeCatalog.UpdateGiftcardPrototype(ctx, id, catalogue.GiftcardPrototypeInput{
		Title: optTexts(input.Title), Description: optTexts(input.Description),
		TermsOfUse: optTexts(input.TermsOfUse), CustomizedAmount: opt(input.CustomizedAmount),
		MinimumAmount: opt(input.MinimumAmount), PredefinedAmounts: optList(input.PredefinedAmounts),
		MoneyPotActivated: opt(input.MoneyPotActivated), MoneyPotLogo: opt(input.MoneyPotLogo),
		ValidityPeriod: opt(input.ValidityPeriod), ValidityUnit: toDomainValidityUnit(opt(input.ValidityUnit))}))
}

// FileVoucherPrototype is the resolver for the fileVoucherPrototype field.
func (r *mutationResolver) FileVoucherPrototype(ctx context.Context, input model.FileVoucherPrototypeInput) (*model.VoucherPrototypePayload, error) {
	id, err := recordID("AdminVoucherPrototype", input.ID)
	if err != nil {
		return nil, err
	}
	universeID, clearUniverse := optRefID(input.UniverseID, universeTypes...)
	p, err := r.PrototypeCatalog.FileVoucherPrototype(ctx, id, catalogue.VoucherPrototypeFilingInput{
		UniverseID: universeID, ClearUniverse: clearUniverse, ThemeIDs: refIDs(input.ThemeIds, "Theme")})
	if err != nil {
		ue, err := userErrors(err)
		return &model.VoucherPrototypePayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.VoucherPrototypePayload{VoucherPrototype: toGraphVoucherPrototype(p), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// CreateTheme is the resolver for the createTheme field.
func (r *mutationResolver) CreateTheme(ctx context.Context, input model.CreateThemeInput) (*model.ThemePayload, error) {
	return themePayload(r.PrototypeCatalog.CreateTheme(ctx, toDomainTexts(input.Name)))
}

// UpdateTheme is the resolver for the updateTheme field.
func (r *mutationResolver) UpdateTheme(ctx context.Context, input model.UpdateThemeInput) (*model.ThemePayload, error) {
	id, err := recordIDOf(input.ID, "Theme")
	if err != nil {
		return nil, err
	}
	return themePayload(r.PrototypeCatalog.UpdateTheme(ctx, id, toDomainTexts(input.Name)))
}

// CreateUniverse is the resolver for the createUniverse field.
func (r *mutationResolver) CreateUniverse(ctx context.Context, input model.CreateUniverseInput) (*model.UniversePayload, error) {
	parentID, _ := optRefID(input.ParentID, universeTypes...)
	return universePayload(r.PrototypeCatalog.CreateUniverse(ctx, catalogue.UniverseInput{
		Name: toDomainTexts(input.Name), ParentID: parentID, Order: opt(input.Order)}))
}

// UpdateUniverse is the resolver for the updateUniverse field.
func (r *mutationResolver) UpdateUniverse(ctx context.Context, input model.UpdateUniverseInput) (*model.UniversePayload, error) {
	id, err := recordIDOf(input.ID, universeTypes...)
	if err != nil {
		return nil, err
	}
	parentID, clearParent := optRefID(input.ParentID, universeTypes...)
	order, orderSet := input.Order.ValueOK()
	return universePayload(r.PrototypeCatalog.UpdateUniverse(ctx, id, catalogue.UniverseInput{
		Name: optTexts(input.Name), ParentID: parentID, ClearParent: clearParent,
		Order: order, ClearOrder: orderSet && order == nil}))
}

// CreateBox is the resolver for the createBox field.
func (r *mutationResolver) CreateBox(ctx context.Context, input model.CreateBoxInput) (*model.BoxPayload, error) {
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	return boxPayload(r.BoxCatalog.CreateBox(ctx, catalogue.BoxInput{PartnerID: partnerID,
		Name: toDomainTexts(input.Name), ShortDescription: optTexts(input.ShortDescription),
		LongDescription: optTexts(input.LongDescription), IsActive: opt(input.IsActive),
		IsHighlight: opt(input.IsHighlight), DisplayNbOffers: opt(input.DisplayNbOffers), Price: &input.Price,
		Ranking: opt(input.Ranking), PeopleIncluded: opt(input.PeopleIncluded), MaxNumberUsages: opt(input.MaxNumberUsages),
		MaxDaysAfterFirstUsage: opt(input.MaxDaysAfterFirstUsage), UniverseIDs: refIDs(input.UniverseIds, universeTypes...),
		Images: optList(input.Images)}))
}

// UpdateBox is the resolver for the updateBox field.
func (r *mutationResolver) UpdateBox(ctx context.Context, input model.UpdateBoxInput) (*model.BoxPayload, error) {
	id, err := recordIDOf(input.ID, "Box", "ManagedBox")
	if err != nil {
		return nil, err
	}
	return boxPayload(r.BoxCatalog.UpdateBox(ctx, id, catalogue.BoxInput{
		Name: optTexts(input.Name), ShortDescription: optTexts(input.ShortDescription),
		LongDescription: optTexts(input.LongDescription), IsActive: opt(input.IsActive),
		IsHighlight: opt(input.IsHighlight), DisplayNbOffers: opt(input.DisplayNbOffers), Price: opt(input.Price),
		Ranking: opt(input.Ranking), PeopleIncluded: opt(input.PeopleIncluded), MaxNumberUsages: opt(input.MaxNumberUsages),
		MaxDaysAfterFirstUsage: opt(input.MaxDaysAfterFirstUsage), UniverseIDs: refIDs(input.UniverseIds, universeTypes...),
		Images: optList(input.Images)}))
}

// ProposeBoxOffer is the resolver for the proposeBoxOffer field.
func (r *mutationResolver) ProposeBoxOffer(ctx context.Context, input model.ProposeBoxOfferInput) (*model.BoxOfferPayload, error) {
	boxID, err := recordIDOf(input.BoxID, "Box", "ManagedBox")
	if err != nil {
		return nil, err
	}
	partnerID, err := r.partnerRecordID(ctx, opt(input.PartnerID))
	if err != nil {
		return nil, err
	}
	return boxOfferPayload(r.BoxCatalog.ProposeBoxOffer(ctx, boxID, partnerID))
}

// ReviewBoxOffer is the resolver for the reviewBoxOffer field.
func (r *mutationResolver) ReviewBoxOffer(ctx context.Context, input model.ReviewBoxOfferInput) (*model.BoxOfferPayload, error) {
	id, err := recordIDOf(input.ID, "BoxOffer", "ManagedBoxOffer")
	if err != nil {
		return nil, err
	}
	return boxOfferPayload(r.BoxCatalog.ReviewBoxOffer(ctx, id, string(input.Decision)))
}

// ManagedBoxes is the resolver for the managedBoxes field.
func (r *queryResolver) ManagedBoxes(ctx context.Context, partnerID *string, first *int, after *string, last *int, before *string) (*model.ManagedBoxConnection, error) {
	partner, err := r.partnerRecordID(ctx, partnerID)
	if err != nil {
		return nil, err
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(req domain.PageRequest) (*domain.Page[*catalogue.BoxView], error) {
		return r.BoxCatalog.ManagedBoxes(ctx, partner, req)
	})
	if err != nil {
		return nil, err
	}
	edges, info := connect(w, page, func(c string, b *catalogue.BoxView) *model.ManagedBoxEdge {
		return &model.ManagedBoxEdge{Cursor: c, Node: toGraphManagedBox(b)}
	})
	return &model.ManagedBoxConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

// ManagedBoxOffers is the resolver for the managedBoxOffers field.
func (r *queryResolver) ManagedBoxOffers(ctx context.Context, partnerID *string, boxID *string, status *model.BoxOfferStatus, first *int, after *string, last *int, before *string) (*model.ManagedBoxOfferConnection, error) {
	partner, err := r.partnerRecordID(ctx, partnerID)
	if err != nil {
		return nil, err
	}
	if boxID != nil {
		key := keyOf(*boxID, "Box", "ManagedBox")
		boxID = &key
	}
	box, err := idArg(boxID)
	if err != nil {
		return nil, err
	}
	var st string
	if status != nil {
		st = string(*status)
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(req domain.PageRequest) (*domain.Page[*catalogue.BoxOffer], error) {
		return r.BoxCatalog.ManagedBoxOffers(ctx, partner, box, st, req)
	})
	if err != nil {
		return nil, err
	}
	edges, info := connect(w, page, func(c string, o *catalogue.BoxOffer) *model.ManagedBoxOfferEdge {
		return &model.ManagedBoxOfferEdge{Cursor: c, Node: toGraphManagedOffer(o)}
	})
	return &model.ManagedBoxOfferConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

// CatalogueError returns CatalogueErrorResolver implementation.
func (r *Resolver) CatalogueError() CatalogueErrorResolver { return &catalogueErrorResolver{r} }

type catalogueErrorResolver struct{ *Resolver }
