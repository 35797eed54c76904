package graph

// Converters of the prototype and option administration. The mutations
// build the REST body (domain.Doc) from their typed input, so that the
// service reads both surfaces the same way; its field errors name the
// REST fields ("name_fr", "stay_price").

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
	"salesplatform/graph/model"
)

// adminDoc builds a domain.Doc.
type adminDoc domain.Doc

// texts sets prefix_<lang> from in; fill first blanks every language (a
// required text on create). An unknown language is an input error.
func (d adminDoc) texts(prefix string, in []*model.TextInput, fill bool) error {
	if fill {
		for _, l := range domain.Languages {
			d[prefix+"_"+l] = ""
		}
	}
	for _, t := range in {
		lang := language(t.Language, t.Lang)
		if !domain.IsLanguage(lang) {
			return argumentError(prefix, domain.VUnknownLanguage, fmt.Sprintf("%q is not a valid choice.", lang))
		}
		d[prefix+"_"+lang] = t.Text
	}
	return nil
}

func (d adminDoc) optTexts(prefix string, o graphql.Omittable[[]*model.TextInput]) error {
	if in, ok := o.ValueOK(); ok {
		return d.texts(prefix, in, true)
	}
	return nil
}

// setPartner names the partner of a new record, when the input names one.
func setPartner(d adminDoc, partner *uuid.UUID) {
	if partner != nil {
		d["partner_uuid"] = partner.String()
	}
}

// set copies an omittable value: omitted stays absent, null is null.
func set[T any](d adminDoc, key string, o graphql.Omittable[*T], conv func(T) any) {
	v, ok := o.ValueOK()
	switch {
	case !ok:
	case v == nil:
		d[key] = nil
	default:
		d[key] = conv(*v)
	}
}

func same[T any](v T) any                { return v }
func decimalValue(v decimal.Decimal) any { return json.Number(v.String()) }

// keys reads the ids of related typ records a document lists: the key of
// a typ global id, anything else as sent (the deprecated numeric id, or a
// string the service refuses as it always has).
func keys(typ string, in []string) []any {
	out := make([]any, len(in))
	for i, s := range in {
		out[i] = filterKey(typ, s)
	}
	return out
}

// key is keys for one id, as set takes it.
func key(typ string) func(string) any {
	return func(s string) any { return filterKey(typ, s) }
}

// universeTypes are the types that show a universe.
var universeTypes = []string{"Universe", "UniverseRecord"}

func prototypeType(t model.VoucherPrototypeType) string { return strings.ToLower(string(t)) }

func createPrototypeDoc(in model.CreateVoucherPrototypeInput, partner *uuid.UUID) (domain.Doc, error) {
	d := adminDoc{"type": prototypeType(in.Type), "stay_price": decimalValue(in.StayPrice), "universe": keyOf(in.UniverseID, universeTypes...)}
	for prefix, texts := range map[string][]*model.TextInput{"name": in.Name, "description": in.Description, "long_description": in.LongDescription} {
		if err := d.texts(prefix, texts, true); err != nil {
			return nil, err
		}
	}
	setPartner(d, partner)
	return d, prototypeCommon(d, in.RentConditions, in.HowToBookHTML, in.PDFDescription, in.IsActive, in.IsHighlight,
		in.PriceScope, in.MaxCapacity, in.MinCapacity, in.Ranking, in.AdultsPrice, in.ChildrenPrice, in.BabyPrice,
		in.EnvironmentID, in.LastActiveDay, in.ImageIds, in.CoverImageID)
}

func updatePrototypeDoc(in model.UpdateVoucherPrototypeInput) (domain.Doc, error) {
	d := adminDoc{}
	for prefix, o := range map[string]graphql.Omittable[[]*model.TextInput]{"name": in.Name, "description": in.Description, "long_description": in.LongDescription} {
		if err := d.optTexts(prefix, o); err != nil {
			return nil, err
		}
	}
	set(d, "type", in.Type, func(t model.VoucherPrototypeType) any { return prototypeType(t) })
	set(d, "stay_price", in.StayPrice, decimalValue)
	set(d, "universe", in.UniverseID, func(id string) any { return keyOf(id, universeTypes...) })
	return d, prototypeCommon(d, in.RentConditions, in.HowToBookHTML, in.PDFDescription, in.IsActive, in.IsHighlight,
		in.PriceScope, in.MaxCapacity, in.MinCapacity, in.Ranking, in.AdultsPrice, in.ChildrenPrice, in.BabyPrice,
		in.EnvironmentID, in.LastActiveDay, in.ImageIds, in.CoverImageID)
}

// prototypeCommon sets the optional fields both prototype inputs share.
func prototypeCommon(d adminDoc, rent, howTo, pdf graphql.Omittable[[]*model.TextInput],
	active, highlight graphql.Omittable[*bool], scope, maxCap, minCap, ranking graphql.Omittable[*int],
	adults, children, baby graphql.Omittable[*decimal.Decimal], env, lastDay graphql.Omittable[*string],
	images graphql.Omittable[[]string], cover graphql.Omittable[*string]) error {
	for prefix, o := range map[string]graphql.Omittable[[]*model.TextInput]{"rent_conditions": rent, "how_to_book_html": howTo, "pdf_description": pdf} {
		if err := d.optTexts(prefix, o); err != nil {
			return err
		}
	}
	set(d, "is_active", active, same[bool])
	set(d, "is_highlight", highlight, same[bool])
	for key, o := range map[string]graphql.Omittable[*int]{"price_scope": scope, "max_capacity": maxCap, "min_capacity": minCap, "ranking": ranking} {
		set(d, key, o, same[int])
	}
	for key, o := range map[string]graphql.Omittable[*decimal.Decimal]{"adults_price": adults, "children_price": children, "baby_price": baby} {
		set(d, key, o, decimalValue)
	}
	set(d, "environment", env, same[string])
	set(d, "last_active_day", lastDay, same[string])
	if v, ok := images.ValueOK(); ok {
		d["images"] = keys("Media", v)
	}
	set(d, "cover_image", cover, key("Media"))
	return nil
}

func createOptionDoc(in model.CreateOptionInput, partner *uuid.UUID) (domain.Doc, error) {
	d := adminDoc{}
	if err := d.texts("name", in.Name, true); err != nil {
		return nil, err
	}
	if err := d.texts("description", in.Description, true); err != nil {
		return nil, err
	}
	setPartner(d, partner)
	set(d, "price", in.Price, decimalValue)
	set(d, "selling_price", in.SellingPrice, decimalValue)
	set(d, "countable", in.Countable, same[bool])
	set(d, "is_global", in.IsGlobal, same[bool])
	set(d, "is_active", in.IsActive, same[bool])
	set(d, "ranking", in.Ranking, same[int])
	set(d, "category", in.CategoryID, key("OptionCategory"))
	if v, ok := in.PrototypeIds.ValueOK(); ok {
		d["voucher_prototypes"] = keys("AdminVoucherPrototype", v)
	}
	if v, ok := in.Services.ValueOK(); ok {
		services := make([]any, len(v))
		for i, s := range v {
			sd := adminDoc{}
			set(sd, "service_cost", s.Cost, decimalValue)
			set(sd, "service_buying_vat", s.BuyingVat, decimalValue)
			set(sd, "service_selling_vat", s.SellingVat, decimalValue)
			set(sd, "service_price", s.Price, decimalValue)
			services[i] = map[string]any(sd)
		}
		d["services_info"] = services
	}
	return d, nil
}

func createOptionCategoryDoc(in model.CreateOptionCategoryInput, partner *uuid.UUID) (domain.Doc, error) {
	d := adminDoc{}
	setPartner(d, partner)
	if err := d.texts("name", in.Name, false); err != nil {
		return nil, err
	}
	if err := d.optTexts("description", in.Description); err != nil {
		return nil, err
	}
	set(d, "is_active", in.IsActive, same[bool])
	set(d, "ranking", in.Ranking, same[int])
	set(d, "min_number_options", in.MinNumberOptions, same[int])
	set(d, "max_number_options", in.MaxNumberOptions, same[int])
	return d, nil
}

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
