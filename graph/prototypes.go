package graph

// Converters of the prototype and option administration; the service's
// field errors name the REST fields ("name_fr", "stay_price").

import (
	"strings"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
	"salesplatform/graph/model"
)

// universeTypes are the types that show a universe.
var universeTypes = []string{"Universe", "UniverseRecord"}

func prototypeType(t model.VoucherPrototypeType) string { return strings.ToLower(string(t)) }

func toGraphAdminPrototype(p *prototypes.AdminVoucherPrototype) *model.AdminVoucherPrototype {
	if p == nil {
		return nil
	}
	out := &model.AdminVoucherPrototype{ID: p.ID, PartnerID: p.PartnerID, PartnerUUID: p.PartnerUUID,
		Name: toGraphLocalized(p.Name), Description: toGraphLocalized(p.Description),
		LongDescription: toGraphLocalized(p.LongDescription), RentConditions: toGraphLocalized(p.RentConditions),
		HowToBookHTML: toGraphLocalized(p.HowToBookHTML), PDFDescription: toGraphLocalized(p.PDFText),
		IsActive: p.IsActive, IsHighlight: p.IsHighlight, Type: model.VoucherPrototypeType(strings.ToUpper(p.Type)),
		PriceScope: p.PriceScope, MaxCapacity: p.MaxCapacity, MinCapacity: p.MinCapacity, Ranking: p.Ranking,
		StayPrice: p.StayPrice, AdultsPrice: p.AdultsPrice, ChildrenPrice: p.ChildrenPrice, BabyPrice: p.BabyPrice,
		UniverseID: p.UniverseID, EnvironmentID: p.EnvironmentID, ImageIDs: p.ImageIDs, CoverImageID: p.CoverImageID,
		NbOrders: p.NbOrders, CoverMediaID: p.CoverMediaID()}
	if p.LastActiveDay != nil {
		day := p.LastActiveDay.Format("2006-01-02")
		out.LastActiveDay = &day
	}
	return out
}

func toGraphVoucherOption(o *vouchers.VoucherOption) *model.VoucherOption {
	services := make([]*model.OptionService, len(o.Services))
	for i, s := range o.Services {
		services[i] = &model.OptionService{Cost: s.Cost, BuyingVat: s.BuyingVAT, SellingVat: s.SellingVAT, Price: s.Price}
	}
	return &model.VoucherOption{ID: o.ID, PartnerID: o.PartnerID, PartnerUUID: o.PartnerUUID, Name: toGraphLocalized(o.Name),
		Description: toGraphLocalized(o.Description), Price: o.Price, SellingPrice: o.SellingPrice,
		Countable: o.Countable, IsActive: o.IsActive, IsGlobal: o.IsGlobal, Ranking: o.Ranking,
		HasBeenOrdered: o.HasBeenOrdered, Services: services, CategoryID: o.CategoryID, PrototypeIDs: o.VoucherPrototypeIDs}
}

func toGraphOptionCategory(c *prototypes.OptionCategory) *model.OptionCategory {
	if c == nil {
		return nil
	}
	return &model.OptionCategory{ID: idString(c.ID), GlobalID: numericGlobalID("OptionCategory", c.ID), PartnerID: idString(c.PartnerID), PartnerUUID: c.PartnerUUID,
		Name: toGraphLocalized(c.Name), Description: toGraphLocalized(c.Description), IsActive: c.IsActive,
		Ranking: c.Ranking, MinNumberOptions: c.MinNumberOptions, MaxNumberOptions: c.MaxNumberOptions}
}

func toGraphOptionLink(l *prototypes.PrototypeOptionLink) *model.PrototypeOptionLink {
	return &model.PrototypeOptionLink{GlobalID: numericGlobalID("PrototypeOptionLink", l.ID), ID: idString(l.ID), Count: l.Count, Included: l.Included,
		Option: toGraphVoucherOption(l.Option)}
}

// ordering writes a list's orderBy as the service's ordering: the field in
// lower case ("created_on"), after a "-" when descending.
func ordering[F ~string](field F, dir model.OrderDirection) string {
	s := strings.ToLower(string(field))
	if dir == model.OrderDirectionDesc {
		s = "-" + s
	}
	return s
}

// adminPrototypeFilter reads the connection's filter.
func adminPrototypeFilter(f *model.AdminVoucherPrototypeFilter, orderBy *model.AdminVoucherPrototypeOrder) (prototypes.AdminPrototypeFilter, error) {
	var out prototypes.AdminPrototypeFilter
	if orderBy != nil {
		out.Ordering = ordering(orderBy.Field, orderBy.Direction)
	}
	if f == nil {
		return out, nil
	}
	out.IsActive = opt(f.IsActive)
	if t := opt(f.Type); t != nil {
		s := prototypeType(*t)
		out.Type = &s
	}
	universe, err := optID(f.UniverseID, universeTypes...)
	if err != nil {
		return out, argumentError("universeId", domain.VInvalid, "Not a valid id.")
	}
	out.UniverseID = universe
	if s := opt(f.Search); s != nil {
		out.Search = *s
	}
	return out, nil
}

// adminOptionFilter reads the option connection's filter.
func adminOptionFilter(f *model.AdminOptionFilter, orderBy *model.AdminOptionOrder) (prototypes.OptionFilter, error) {
	var out prototypes.OptionFilter
	if orderBy != nil {
		out.Ordering = ordering(orderBy.Field, orderBy.Direction)
	}
	if f == nil {
		return out, nil
	}
	if s := opt(f.CategoryID); s != nil {
		category, err := parseID(filterKey("OptionCategory", *s))
		if err != nil {
			return out, argumentError("categoryId", domain.VInvalid, "Not a valid id.")
		}
		out.CategoryID = &category
	}
	out.IsActive, out.IsGlobal = opt(f.IsActive), opt(f.IsGlobal)
	if s := opt(f.Search); s != nil {
		out.Search = *s
	}
	return out, nil
}

// adminOptionCategoryFilter reads the option category connection's filter.
func adminOptionCategoryFilter(f *model.AdminOptionCategoryFilter, orderBy *model.AdminOptionOrder) prototypes.OptionCategoryFilter {
	var out prototypes.OptionCategoryFilter
	if orderBy != nil {
		out.Ordering = ordering(orderBy.Field, orderBy.Direction)
	}
	if f == nil {
		return out
	}
	out.IsActive = opt(f.IsActive)
	if s := opt(f.Search); s != nil {
		out.Search = *s
	}
	return out
}

func adminPrototypePayload(p *prototypes.AdminVoucherPrototype, err error) (*model.AdminVoucherPrototypePayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.AdminVoucherPrototypePayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.AdminVoucherPrototypePayload{VoucherPrototype: toGraphAdminPrototype(p), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

func toGraphUniverseRecord(u *catalogue.Universe) *model.UniverseRecord {
	out := &model.UniverseRecord{GlobalID: numericGlobalID("UniverseRecord", u.ID), ID: idString(u.ID), Name: toGraphLocalized(u.Name), Order: u.Order}
	if u.ParentID != nil {
		id := idString(*u.ParentID)
		out.ParentID = &id
	}
	return out
}
