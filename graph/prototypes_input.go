package graph

import (
	"fmt"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/prototypes"
	"salesplatform/graph/model"
)

// Readers of the prototype and option administration inputs: each maps
// its generated model onto the service's input. Ids are global ids of
// their type or the deprecated numeric ids; one that names no record is 0,
// which the service refuses as a missing record.

// textReader reads text lists by language, keeping the first error (an
// unknown language).
type textReader struct{ err error }

// read reads the texts in; fill first blanks every language (a required
// text on create, a list that replaces every language).
func (r *textReader) read(prefix string, in []*model.TextInput, fill bool) map[string]domain.Optional[string] {
	out := make(map[string]domain.Optional[string], len(domain.Languages))
	if fill {
		for _, l := range domain.Languages {
			out[l] = domain.Some("")
		}
	}
	for _, t := range in {
		lang := language(t.Language, t.Lang)
		if !domain.IsLanguage(lang) {
			if r.err == nil {
				r.err = argumentError(prefix, domain.VUnknownLanguage, fmt.Sprintf("%q is not a valid choice.", lang))
			}
			continue
		}
		out[lang] = domain.Some(t.Text)
	}
	return out
}

// opt reads optional texts: a given list replaces every language.
func (r *textReader) opt(prefix string, o graphql.Omittable[[]*model.TextInput]) map[string]domain.Optional[string] {
	if in, ok := o.ValueOK(); ok {
		return r.read(prefix, in, true)
	}
	return nil
}

func optInt(o graphql.Omittable[*int]) domain.Optional[int64] {
	return optionalOf(o, func(n int) int64 { return int64(n) })
}

// optRef reads an optional related id of one of types.
func optRef(o graphql.Omittable[*string], types ...string) domain.Optional[int64] {
	return optionalOf(o, func(s string) int64 { return refID(s, types...) })
}

// optRefList reads an optional list of related ids of typ: a null list is
// an empty one.
func optRefList(o graphql.Omittable[[]string], typ string) domain.Optional[[]int64] {
	v, ok := o.ValueOK()
	if !ok {
		return domain.Optional[[]int64]{}
	}
	ids := make([]int64, len(v))
	for i, s := range v {
		ids[i] = refID(s, typ)
	}
	return domain.Some(ids)
}

// optDate reads an optional YYYY-MM-DD date.
// Errors: CodeInvalid on field (msg) for another text.
func optDate(o graphql.Omittable[*string], field, msg string) (domain.Optional[time.Time], error) {
	s, ok := o.ValueOK()
	switch {
	case !ok:
		return domain.Optional[time.Time]{}, nil
	case s == nil:
		return domain.Null[time.Time](), nil
	}
	day, err := time.Parse(time.DateOnly, *s)
	if err != nil {
		var v domain.Validator
		v.Add(domain.VInvalid, msg, field)
		return domain.Optional[time.Time]{}, v.Err()
	}
	return domain.Some(day), nil
}

// msgPrototypeDay is the contract's message for a last_active_day that is
// not a date.
const msgPrototypeDay = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."

func createPrototypeInput(in model.CreateVoucherPrototypeInput, partner *uuid.UUID) (prototypes.PrototypeInput, error) {
	var r textReader
	out := prototypes.PrototypeInput{PartnerUUID: domain.FromPtr(partner),
		Name: r.read("name", in.Name, true), Description: r.read("description", in.Description, true),
		LongDescription: r.read("long_description", in.LongDescription, true),
		Type:            domain.Some(prototypeType(in.Type)), StayPrice: domain.Some(in.StayPrice),
		Universe: domain.Some(refID(in.UniverseID, universeTypes...))}
	err := prototypeCommon(&out, &r, prototypeCommonInput{in.RentConditions, in.HowToBookHTML, in.PDFDescription, in.IsActive, in.IsHighlight,
		in.PriceScope, in.MaxCapacity, in.MinCapacity, in.Ranking, in.AdultsPrice, in.ChildrenPrice, in.BabyPrice,
		in.EnvironmentID, in.LastActiveDay, in.ImageIds, in.CoverImageID})
	return out, err
}

func updatePrototypeInput(in model.UpdateVoucherPrototypeInput) (prototypes.PrototypeInput, error) {
	var r textReader
	out := prototypes.PrototypeInput{Name: r.opt("name", in.Name), Description: r.opt("description", in.Description),
		LongDescription: r.opt("long_description", in.LongDescription),
		Type:            optionalOf(in.Type, prototypeType), StayPrice: optional(in.StayPrice),
		Universe: optRef(in.UniverseID, universeTypes...)}
	err := prototypeCommon(&out, &r, prototypeCommonInput{in.RentConditions, in.HowToBookHTML, in.PDFDescription, in.IsActive, in.IsHighlight,
		in.PriceScope, in.MaxCapacity, in.MinCapacity, in.Ranking, in.AdultsPrice, in.ChildrenPrice, in.BabyPrice,
		in.EnvironmentID, in.LastActiveDay, in.ImageIds, in.CoverImageID})
	return out, err
}

// prototypeCommonInput holds the optional fields both prototype inputs
// share.
type prototypeCommonInput struct {
	rent, howTo, pdf               graphql.Omittable[[]*model.TextInput]
	active, highlight              graphql.Omittable[*bool]
	scope, maxCap, minCap, ranking graphql.Omittable[*int]
	adults, children, baby         graphql.Omittable[*decimal.Decimal]
	env, lastDay                   graphql.Omittable[*string]
	images                         graphql.Omittable[[]string]
	cover                          graphql.Omittable[*string]
}

// prototypeCommon reads the fields both prototype inputs share into out.
// Errors: an unknown language; a last active day that is not a date.
func prototypeCommon(out *prototypes.PrototypeInput, r *textReader, c prototypeCommonInput) error {
	out.RentConditions, out.HowToBookHTML = r.opt("rent_conditions", c.rent), r.opt("how_to_book_html", c.howTo)
	out.PDFText = r.opt("pdf_description", c.pdf)
	out.IsActive, out.IsHighlight = optional(c.active), optional(c.highlight)
	out.PriceScope, out.MaxCapacity, out.MinCapacity, out.Ranking = optInt(c.scope), optInt(c.maxCap), optInt(c.minCap), optInt(c.ranking)
	out.AdultsPrice, out.ChildrenPrice, out.BabyPrice = optional(c.adults), optional(c.children), optional(c.baby)
	out.Environment = optRef(c.env)
	out.Images, out.CoverImage = optRefList(c.images, "Media"), optRef(c.cover, "Media")
	if r.err != nil {
		return r.err
	}
	var err error
	out.LastActiveDay, err = optDate(c.lastDay, "last_active_day", msgPrototypeDay)
	return err
}

func createOptionInput(in model.CreateOptionInput, partner *uuid.UUID) (prototypes.OptionInput, error) {
	var r textReader
	out := prototypes.OptionInput{PartnerUUID: domain.FromPtr(partner),
		Name: r.read("name", in.Name, true), Description: r.read("description", in.Description, true),
		Price: optional(in.Price), SellingPrice: optional(in.SellingPrice),
		Countable: optional(in.Countable), IsGlobal: optional(in.IsGlobal), IsActive: optional(in.IsActive),
		Ranking: optInt(in.Ranking), Category: optRef(in.CategoryID, "OptionCategory"),
		VoucherPrototypes: optRefList(in.PrototypeIds, "AdminVoucherPrototype")}
	if v, ok := in.Services.ValueOK(); ok {
		services := make([]prototypes.OptionServiceInput, len(v))
		for i, s := range v {
			services[i] = prototypes.OptionServiceInput{Cost: optional(s.Cost), BuyingVAT: optional(s.BuyingVat),
				SellingVAT: optional(s.SellingVat), Price: optional(s.Price)}
		}
		out.Services = domain.Some(services)
	}
	return out, r.err
}

func createOptionCategoryInput(in model.CreateOptionCategoryInput, partner *uuid.UUID) (prototypes.OptionCategoryInput, error) {
	var r textReader
	out := prototypes.OptionCategoryInput{PartnerUUID: domain.FromPtr(partner),
		Name: r.read("name", in.Name, false), Description: r.opt("description", in.Description),
		IsActive: optional(in.IsActive), Ranking: optInt(in.Ranking),
		MinNumberOptions: optInt(in.MinNumberOptions), MaxNumberOptions: optInt(in.MaxNumberOptions)}
	return out, r.err
}
