package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/gifts"
	"salesplatform/domain/widgets"
	"salesplatform/persistence"
)

// catalogueLoader writes the catalogue through the services the graph's
// catalogue management calls, as the demo staff user, on one transaction.
// What no service creates is written by its store (see docs/admin-seed.md):
// the catalogue's voucher prototypes (then filed by the service), workshop
// levels, targets, skills and recipes, network giftcard acceptance and the
// sold gifts with their fixed codes.
type catalogueLoader struct {
	data     *Dataset
	now      time.Time
	partners map[string]*domain.Partner // by Partner.Key
	staff    context.Context            // the demo staff user's calls
	ids      ids
	tally    tally

	catalog   *catalogue.PartnerCatalogService
	events    *catalogue.EventService
	workshops *catalogue.WorkshopService
	protos    *catalogue.PrototypeService
	boxes     *catalogue.BoxService
	widgets   *widgets.WidgetService

	protoStore    *persistence.PrototypeStore
	workshopStore *persistence.WorkshopStore
	giftStore     *persistence.GiftStore
	widgetStore   *persistence.WidgetStore
}

// newCatalogueLoader returns the loader of the catalogue on tx, whose
// calls are staff's.
func newCatalogueLoader(ctx context.Context, tx bun.Tx, data *Dataset, partners map[string]*domain.Partner, staff *domain.User,
	now time.Time) *catalogueLoader {
	stores := persistence.NewDatabase(tx).Stores()
	return &catalogueLoader{data: data, now: now, partners: partners, ids: ids{},
		staff:         domain.WithCaller(ctx, &domain.Caller{User: staff}),
		catalog:       catalogue.NewPartnerCatalogService(persistence.NewPartnerCatalogStore(tx), stores.Partners),
		events:        catalogue.NewEventService(persistence.NewEventStore(tx), stores.Partners),
		workshops:     catalogue.NewWorkshopService(persistence.NewUnitOfWork(tx, persistence.WorkshopStores)),
		protos:        catalogue.NewPrototypeService(persistence.NewUnitOfWork(tx, persistence.PrototypeStores)),
		boxes:         catalogue.NewBoxService(persistence.NewUnitOfWork(tx, persistence.BoxStores)),
		widgets:       widgets.NewWidgetService(persistence.NewUnitOfWork(tx, persistence.WidgetStores)),
		protoStore:    persistence.NewPrototypeStore(tx),
		workshopStore: persistence.NewWorkshopStore(tx),
		giftStore:     persistence.NewGiftStore(tx),
		widgetStore:   persistence.NewWidgetStore(tx),
	}
}

// loadedAlready reports whether the catalogue was loaded: the first demo
// partner has its widgets.
// Errors: the widget key belongs to another partner.
func (l *catalogueLoader) loadedAlready(ctx context.Context) (bool, error) {
	first := l.data.Partners[0]
	w, err := l.widgetStore.FindWidgetsByKey(ctx, first.Widgets.Key)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		return false, nil
	case err != nil:
		return false, err
	case w.PartnerID != l.partners[first.Key].ID:
		return false, fmt.Errorf("the widget key %s belongs to partner %d, not to %s: seed another database",
			first.Widgets.Key, w.PartnerID, first.Domain)
	}
	return true, nil
}

// load creates every record of the catalogue, referenced records first.
func (l *catalogueLoader) load(ctx context.Context) error {
	for _, step := range []func(context.Context) error{
		l.loadPartners, l.loadUniverses, l.loadThemes, l.loadVoucherPrototypes, l.loadGiftcardPrototypes,
		l.loadEvents, l.loadWorkshopTags, l.loadWorkshopCategories, l.loadWorkshops, l.loadBoxes, l.loadGifts,
	} {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// loadPartners saves what each demo partner shows of itself: network,
// profile, labels, legal information, refund terms, product information and
// marketing widgets.
func (l *catalogueLoader) loadPartners(ctx context.Context) error {
	for _, d := range l.data.Partners {
		p := l.partners[d.Key]
		what := func(s string) string { return s + " of " + d.Domain }
		if d.NetworkOf != "" {
			marketplace := l.partners[d.NetworkOf].ID
			if _, err := l.catalog.ChangeNetwork(l.staff, catalogue.NetworkChange{MarketplaceID: &marketplace, PartnerID: p.ID}); err != nil {
				return seedErr(what("network membership"), err)
			}
			// No service sets which partners take a marketplace's network giftcards.
			if err := l.giftStore.AddNetworkGiftcardAllowedPartner(ctx, marketplace, p.ID); err != nil {
				return seedErr(what("network giftcard acceptance"), err)
			}
			l.tally.add("network partners (they take the network giftcards)", 1)
		}
		if _, err := l.catalog.SavePartnerProfile(l.staff, profileInput(p.ID, d.Profile)); err != nil {
			return seedErr(what("profile"), err)
		}
		l.tally.add("partner profiles", 1)
		for _, label := range d.Labels {
			in := catalogue.PartnerLabelInput{PartnerID: &p.ID, Name: label.Name, LogoURL: label.LogoURL}
			if _, err := l.catalog.AddPartnerLabel(l.staff, in); err != nil {
				return seedErr(what("label "+label.Name), err)
			}
			l.tally.add("partner labels", 1)
		}
		legal := catalogue.LegalInformationInput{PartnerID: &p.ID, LegalInformation: d.Legal, CapitalStock: d.Legal.CapitalStock.String()}
		if _, err := l.catalog.SaveLegalInformation(l.staff, legal); err != nil {
			return seedErr(what("legal information"), err)
		}
		if _, err := l.catalog.SaveRefundWithdrawalTerms(l.staff, &p.ID, texts(d.RefundTerms)); err != nil {
			return seedErr(what("refund and withdrawal terms"), err)
		}
		l.tally.add("legal information and refund terms", 1)
		if err := l.loadProductInformation(p, d.Products); err != nil {
			return err
		}
		w := &widgets.MarketingWidgets{PartnerID: p.ID, Key: d.Widgets.Key, Navbar: d.Widgets.Navbar, FloatingBar: d.Widgets.FloatingBar}
		if err := l.widgets.CreateWidgets(ctx, w); err != nil {
			return seedErr(what("marketing widgets"), err)
		}
		l.tally.add("marketing widgets (navbar and floating bar)", 1)
	}
	return nil
}

func profileInput(partnerID int64, pr catalogue.PartnerProfile) catalogue.PartnerProfileInput {
	in := catalogue.PartnerProfileInput{PartnerID: &partnerID,
		Description: texts(pr.Description), Managers: texts(pr.Managers), Nearby: texts(pr.Nearby),
		PracticalInformation: texts(pr.PracticalInformation), Access: texts(pr.Access),
		CommercialDescription: texts(pr.CommercialDescription),
		Region:                pr.Region, Department: pr.Department, City: pr.City, Facilities: pr.Facilities}
	if pr.Latitude != nil {
		s := pr.Latitude.String()
		in.Latitude = &s
	}
	if pr.Longitude != nil {
		s := pr.Longitude.String()
		in.Longitude = &s
	}
	for _, name := range sortedKeys(pr.SocialLinks) {
		in.SocialLinks = append(in.SocialLinks, catalogue.SocialLinkInput{Name: name, URL: pr.SocialLinks[name]})
	}
	return in
}

// urls is a map of URLs by language as a service input.
func urls(m map[string]string) []catalogue.URLEntryInput {
	var in []catalogue.URLEntryInput
	for _, lang := range sortedKeys(m) {
		in = append(in, catalogue.URLEntryInput{Lang: lang, URL: m[lang]})
	}
	return in
}

// loadProductInformation saves the settings of the product lines the
// partner sells; the events line's display_events_per_slots is saved as the
// partner's event settings too.
func (l *catalogueLoader) loadProductInformation(p *domain.Partner, pi ProductInformation) error {
	saved := 0
	check := func(line string, err error) error {
		saved++
		return seedErr(line+" product information of "+p.SiteDomain, err)
	}
	if v := pi.Events; v != nil {
		if _, err := l.events.SaveEventSettings(l.staff, &p.ID, catalogue.EventSettings{DisplayEventsPerSlots: v.DisplayEventsPerSlots}); err != nil {
			return seedErr("event settings of "+p.SiteDomain, err)
		}
		l.tally.add("event settings", 1)
		_, err := l.catalog.SaveEventsProductInformation(l.staff, catalogue.EventsProductInformationInput{PartnerID: &p.ID,
			Title: texts(v.Title), Description: texts(v.Description), TOSURL: urls(v.TOSURL), EventsProductInformation: *v})
		if err := check("events", err); err != nil {
			return err
		}
	}
	if v := pi.Giftcards; v != nil {
		_, err := l.catalog.SaveGiftcardsProductInformation(l.staff, catalogue.GiftcardsProductInformationInput{PartnerID: &p.ID,
			Title: texts(v.Title), Description: texts(v.Description)})
		if err := check("giftcards", err); err != nil {
			return err
		}
	}
	if v := pi.NetworkGiftcards; v != nil {
		in := catalogue.NetworkGiftcardsProductInformationInput{PartnerID: &p.ID, Title: texts(v.Title), Description: texts(v.Description)}
		g := v.Giftcard
		in.Giftcard.CustomizedAmount, in.Giftcard.ValidityPeriod, in.Giftcard.ValidityUnit = g.CustomizedAmount, g.ValidityPeriod, g.ValidityUnit
		in.Giftcard.Title, in.Giftcard.Description, in.Giftcard.TermsOfUse = texts(g.Title), texts(g.Description), texts(g.TermsOfUse)
		in.Giftcard.MinimumAmount = g.MinimumAmount.String()
		for _, a := range g.PredefinedAmounts {
			in.Giftcard.PredefinedAmounts = append(in.Giftcard.PredefinedAmounts, a.String())
		}
		pot := v.MoneyPot
		in.MoneyPot.Activated, in.MoneyPot.Logo = pot.Activated, pot.Logo
		in.MoneyPot.Title, in.MoneyPot.Description = texts(pot.Title), texts(pot.Description)
		_, err := l.catalog.SaveNetworkGiftcardsProductInformation(l.staff, in)
		if err := check("network giftcards", err); err != nil {
			return err
		}
	}
	if v := pi.NetworkVouchers; v != nil {
		_, err := l.catalog.SaveNetworkVouchersProductInformation(l.staff, catalogue.NetworkVouchersProductInformationInput{
			PartnerID: &p.ID, Title: texts(v.Title), Description: texts(v.Description), TermsOfUse: texts(v.TermsOfUse),
			NetworkVouchersProductInformation: *v})
		if err := check("network vouchers", err); err != nil {
			return err
		}
	}
	if v := pi.Vouchers; v != nil {
		_, err := l.catalog.SaveVouchersProductInformation(l.staff, catalogue.VouchersProductInformationInput{PartnerID: &p.ID,
			Title: texts(v.Title), Subtitle: texts(v.Subtitle), ShortDescription: texts(v.ShortDescription),
			VouchersProductInformation: *v})
		if err := check("vouchers", err); err != nil {
			return err
		}
	}
	if v := pi.Workshops; v != nil {
		_, err := l.catalog.SaveWorkshopsProductInformation(l.staff, catalogue.WorkshopsProductInformationInput{PartnerID: &p.ID,
			Title: texts(v.Title), Description: texts(v.Description), TOSURL: urls(v.TOSURL), WorkshopsProductInformation: *v})
		if err := check("workshops", err); err != nil {
			return err
		}
	}
	l.tally.add("product information lines", saved)
	return nil
}

func (l *catalogueLoader) loadUniverses(ctx context.Context) error {
	for _, d := range l.data.Universes {
		in := catalogue.UniverseInput{Name: texts(d.Name), Order: &d.Order}
		if d.Parent != "" {
			parent := l.ids.id(d.Parent)
			in.ParentID = &parent
		}
		u, err := l.protos.CreateUniverse(l.staff, in)
		if err != nil {
			return seedErr("universe "+d.Key, err)
		}
		l.ids[d.Key] = u.ID
		l.tally.add("universes", 1)
	}
	return nil
}

func (l *catalogueLoader) loadThemes(ctx context.Context) error {
	for _, d := range l.data.Themes {
		t, err := l.protos.CreateTheme(l.staff, texts(d.Name))
		if err != nil {
			return seedErr("theme "+d.Key, err)
		}
		l.ids[d.Key] = t.ID
		l.tally.add("themes", 1)
	}
	return nil
}

// loadVoucherPrototypes creates the catalogue's voucher prototypes by
// their store (the service that creates prototypes wants the whole
// administration record, which comes with the administration part), then
// files them under their universe and themes through the service.
func (l *catalogueLoader) loadVoucherPrototypes(ctx context.Context) error {
	for _, d := range l.data.VoucherPrototypes {
		p := &catalogue.VoucherPrototype{PartnerID: l.partners[d.Partner].ID, Name: d.Name}
		if err := l.protoStore.CreateVoucherPrototype(ctx, p); err != nil {
			return seedErr("voucher prototype "+d.Key, err)
		}
		universe := l.ids.id(d.Universe)
		in := catalogue.VoucherPrototypeFilingInput{UniverseID: &universe, ThemeIDs: l.ids.of(d.Themes)}
		if _, err := l.protos.FileVoucherPrototype(l.staff, p.ID, in); err != nil {
			return seedErr("voucher prototype "+d.Key, err)
		}
		l.ids[d.Key] = p.ID
		l.tally.add("voucher prototypes", 1)
	}
	return nil
}

func (l *catalogueLoader) loadGiftcardPrototypes(ctx context.Context) error {
	for _, d := range l.data.GiftcardPrototypes {
		in := catalogue.GiftcardPrototypeInput{PartnerID: &l.partners[d.Partner].ID,
			Title: texts(d.Title), Description: texts(d.Description), TermsOfUse: texts(d.TermsOfUse),
			CustomizedAmount: &d.CustomizedAmount, PredefinedAmounts: d.PredefinedAmounts,
			MoneyPotActivated: &d.MoneyPotActivated, MoneyPotLogo: &d.MoneyPotLogo,
			ValidityPeriod: &d.ValidityPeriod, ValidityUnit: &d.ValidityUnit}
		if d.MinimumAmount != "" {
			in.MinimumAmount = &d.MinimumAmount
		}
		p, err := l.protos.CreateGiftcardPrototype(l.staff, in)
		if err != nil {
			return seedErr("giftcard prototype "+d.Key, err)
		}
		l.ids[d.Key] = p.ID
		l.tally.add("giftcard prototypes", 1)
	}
	return nil
}

// partnerZone is the partner with that key and its time zone, in which the
// dataset's slot and session dates are written.
func (l *catalogueLoader) partnerZone(key string) (*domain.Partner, *time.Location, error) {
	partner := l.partners[key]
	loc, err := partner.Location()
	if err != nil {
		return nil, nil, fmt.Errorf("time zone of %s: %w", partner.SiteDomain, err)
	}
	return partner, loc, nil
}

func (l *catalogueLoader) loadEvents(ctx context.Context) error {
	for _, d := range l.data.Events {
		partner, loc, err := l.partnerZone(d.Partner)
		if err != nil {
			return err
		}
		o := d.DeliveryOptions
		e, err := l.events.CreateEvent(l.staff, catalogue.EventInput{PartnerID: &partner.ID,
			Name: texts(d.Name), ShortDescription: texts(d.ShortDescription), LongDescription: texts(d.LongDescription),
			Booking: texts(d.Booking), CoverImage: &d.CoverImage, Images: d.Images,
			DeliveryOptions: &catalogue.DeliveryOptionsInput{EmailToBuyer: o.EmailToBuyer, EmailToBeneficiary: o.EmailToBeneficiary,
				PostalMailToBuyer: o.PostalMailToBuyer, PostalMailToBeneficiary: o.PostalMailToBeneficiary,
				PostalMailShippingCost: o.PostalMailShippingCost.String(), PostalMailDuration: o.PostalMailDuration,
				PickupOnSite: o.PickupOnSite, PickupOnSiteDuration: o.PickupOnSiteDuration,
				PickupOnSiteCost: o.PickupOnSiteCost.String(), Activated3MAToBuyer: o.Activated3MAToBuyer,
				Activated3MAToBeneficiary: o.Activated3MAToBeneficiary, MessengerDeliveryCost: o.MessengerDeliveryCost.String()}})
		if err != nil {
			return seedErr("event "+d.Name["en"], err)
		}
		l.tally.add("events", 1)
		for _, f := range d.Formulas {
			in := catalogue.EventFormulaInput{Name: texts(f.Name), Price: &f.Price}
			if _, err := l.events.AddEventFormula(l.staff, e.Event.ID, in); err != nil {
				return seedErr("formula of the event "+d.Name["en"], err)
			}
			l.tally.add("event formulas", 1)
		}
		for _, date := range d.Slots {
			start, end, err := date.times(l.now, loc)
			if err != nil {
				return err
			}
			in := catalogue.EventSlotInput{StartingAt: &start, EndingAt: &end, AvailablePlaces: &date.Places}
			if _, err := l.events.AddEventSlot(l.staff, e.Event.ID, in); err != nil {
				return seedErr("slot of the event "+d.Name["en"], err)
			}
			l.tally.add("upcoming event slots", 1)
		}
	}
	return nil
}

// loadWorkshopTags creates the terms of the shared workshop vocabularies:
// themes through the service, the other kinds, which no service writes,
// by their store.
func (l *catalogueLoader) loadWorkshopTags(ctx context.Context) error {
	for _, d := range l.data.WorkshopTags {
		t := &catalogue.WorkshopTag{Name: d.Name}
		var err error
		if d.Kind == catalogue.WorkshopTheme {
			t, err = l.workshops.CreateWorkshopTheme(l.staff, texts(d.Name))
		} else {
			err = l.workshopStore.CreateWorkshopTag(ctx, d.Kind, t)
		}
		if err != nil {
			return seedErr(fmt.Sprintf("workshop %s %s", d.Kind, d.Key), err)
		}
		l.ids[d.Key] = t.ID
		l.tally.add("workshop levels, themes, targets, skills and recipes", 1)
	}
	return nil
}

func (l *catalogueLoader) loadWorkshopCategories(ctx context.Context) error {
	for _, d := range l.data.WorkshopCategories {
		c, err := l.workshops.CreateWorkshopCategory(l.staff, catalogue.WorkshopCategoryInput{PartnerID: &l.partners[d.Partner].ID,
			Name: texts(d.Name), Price: &d.Price, SpecificValidityPeriod: d.SpecificValidityPeriod})
		if err != nil {
			return seedErr("workshop category "+d.Key, err)
		}
		l.ids[d.Key] = c.ID
		l.tally.add("workshop categories", 1)
	}
	return nil
}

func (l *catalogueLoader) loadWorkshops(ctx context.Context) error {
	for _, d := range l.data.Workshops {
		partner, loc, err := l.partnerZone(d.Partner)
		if err != nil {
			return err
		}
		category := l.ids.id(d.Category)
		in := catalogue.WorkshopInput{PartnerID: &partner.ID, Name: texts(d.Name), ShortDescription: texts(d.ShortDescription),
			LongDescription: texts(d.LongDescription), BookingConditions: texts(d.BookingConditions), Images: d.Images,
			CanBePrivatized: &d.CanBePrivatized, DisplayCalendar: &d.DisplayCalendar, Address: &d.Address,
			ActivateWorkshopsGroupPayment: &d.ActivateWorkshopsGroupPayment, CategoryID: &category,
			ThemeIDs: l.ids.of(d.Themes), TargetIDs: l.ids.of(d.Targets), SkillIDs: l.ids.of(d.Skills), RecipeIDs: l.ids.of(d.Recipes)}
		if d.Level != "" {
			level := l.ids.id(d.Level)
			in.LevelID = &level
		}
		w, err := l.workshops.CreateWorkshop(l.staff, in)
		if err != nil {
			return seedErr("workshop "+d.Name["en"], err)
		}
		l.tally.add("workshops", 1)
		for _, date := range d.Sessions {
			start, end, err := date.times(l.now, loc)
			if err != nil {
				return err
			}
			in := catalogue.WorkshopSessionInput{StartingAt: &start, EndingAt: &end,
				MinCapacity: &date.MinCapacity, MaxCapacity: &date.MaxCapacity, AvailablePlaces: &date.Places}
			if _, err := l.workshops.AddWorkshopSession(l.staff, w.Workshop.ID, in); err != nil {
				return seedErr("session of the workshop "+d.Name["en"], err)
			}
			l.tally.add("upcoming workshop sessions", 1)
		}
	}
	return nil
}

// offerDecisions are the marketplace's decisions that take a proposed
// (draft) offer to a status.
var offerDecisions = map[string]string{
	catalogue.BoxOfferStatusValidated: catalogue.BoxOfferValidate,
	catalogue.BoxOfferStatusRefused:   catalogue.BoxOfferRefuse,
}

// loadBoxes creates the marketplace's boxes; each offer is proposed for
// the partner, then reviewed as its status says.
func (l *catalogueLoader) loadBoxes(ctx context.Context) error {
	for _, d := range l.data.Boxes {
		b, err := l.boxes.CreateBox(l.staff, catalogue.BoxInput{PartnerID: &l.partners[d.Marketplace].ID,
			Name: texts(d.Name), ShortDescription: texts(d.ShortDescription), LongDescription: texts(d.LongDescription),
			IsActive: &d.IsActive, IsHighlight: &d.IsHighlight, DisplayNbOffers: &d.DisplayNbOffers, Price: &d.Price,
			Ranking: &d.Ranking, PeopleIncluded: &d.PeopleIncluded, MaxNumberUsages: &d.MaxNumberUsages,
			MaxDaysAfterFirstUsage: &d.MaxDaysAfterFirstUsage, UniverseIDs: l.ids.of(d.Universes), Images: d.Images})
		if err != nil {
			return seedErr("network voucher box "+d.Key, err)
		}
		l.ids[d.Key] = b.ID
		l.tally.add("network voucher boxes", 1)
		for _, o := range d.Offers {
			what := "offer of " + o.Partner + " in the box " + d.Key
			offer, err := l.boxes.ProposeBoxOffer(l.staff, b.ID, &l.partners[o.Partner].ID)
			if err != nil {
				return seedErr(what, err)
			}
			if decision, ok := offerDecisions[o.Status]; ok {
				if _, err := l.boxes.ReviewBoxOffer(l.staff, offer.ID, decision); err != nil {
					return seedErr(what, err)
				}
			} else if o.Status != offer.Status {
				return fmt.Errorf("%s: unknown status %q", what, o.Status)
			}
			l.tally.add("box offers", 1)
		}
	}
	return nil
}

// loadGifts creates the sold gifts by their store: gift codes are sold by
// the funnel, which no service here covers, and the demo's are fixed.
func (l *catalogueLoader) loadGifts(ctx context.Context) error {
	for _, d := range l.data.Gifts {
		bought := l.now.AddDate(0, 0, -d.BoughtDaysAgo)
		expires := bought.AddDate(0, d.ValidMonths, 0)
		var err error
		switch d.Kind {
		case gifts.GiftKindVoucher:
			err = l.giftStore.CreateVoucher(ctx, &gifts.Voucher{Code: d.Code, VoucherPrototypeID: l.ids.id(d.Of),
				State: d.State, TotalPrice: d.Value, CreationDate: bought, ExpirationDate: &expires,
				GifterFirstName: d.Gifter[0], GifterLastName: d.Gifter[1],
				GifteeFirstName: d.Giftee[0], GifteeLastName: d.Giftee[1]})
		case gifts.GiftKindGiftcard:
			err = l.giftStore.CreateGiftcard(ctx, &gifts.Giftcard{Code: d.Code, GiftcardPrototypeID: l.ids.id(d.Of),
				Status: d.State, Value: d.Value, RemainingValue: d.Remaining, CreatedOn: bought, ExpiresOn: &expires})
		case gifts.GiftKindNetworkGiftcard:
			err = l.giftStore.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: d.Code,
				MarketplaceID: l.partners[d.Of].ID, Status: d.State, Value: d.Value, RemainingValue: d.Remaining,
				CreationDate: bought, ActivationDate: &bought, ExpirationDate: &expires})
		case gifts.GiftKindNetworkVoucher:
			err = l.giftStore.CreateNetworkVoucher(ctx, &gifts.NetworkVoucher{Code: d.Code, BoxID: l.ids.id(d.Of),
				Status: d.State, MaxUsages: d.MaxUsages, CreationDate: bought,
				ExpirationDate: &expires})
		}
		if err != nil {
			return seedErr("gift "+d.Code, err)
		}
		l.tally.add("gift codes", 1)
	}
	return nil
}
