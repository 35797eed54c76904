package rest

import (
	"salesplatform/domain"
	"salesplatform/domain/prototypes"
	"salesplatform/rest/drf"
)

// Decoders of the prototype and option administration bodies.

// decodePrototypeCreate reads a voucher prototype creation body.
func decodePrototypeCreate(doc map[string]any) prototypes.PrototypeInput {
	in := decodePrototypeInput(doc)
	in.PartnerUUID = drf.New(doc, &in.Refusals).UUID("partner_uuid")
	return in
}

// decodePrototypeInput reads a voucher prototype update body (PUT and
// PATCH): the partner does not change, partner_uuid is ignored.
func decodePrototypeInput(doc map[string]any) prototypes.PrototypeInput {
	var in prototypes.PrototypeInput
	d := drf.New(doc, &in.Refusals)
	in.Name, in.Description, in.LongDescription = d.Texts("name"), d.Texts("description"), d.Texts("long_description")
	in.RentConditions, in.HowToBookHTML, in.PDFText = d.Texts("rent_conditions"), d.Texts("how_to_book_html"), d.Texts("pdf_description")
	in.IsActive, in.IsHighlight = d.Bool("is_active"), d.Bool("is_highlight")
	in.Type = d.String("type")
	in.PriceScope, in.MaxCapacity, in.MinCapacity, in.Ranking = d.Int("price_scope"), d.Int("max_capacity"), d.Int("min_capacity"), d.Int("ranking")
	in.StayPrice = d.Decimal("stay_price")
	in.AdultsPrice, in.ChildrenPrice, in.BabyPrice = d.Decimal("adults_price"), d.Decimal("children_price"), d.Decimal("baby_price")
	in.LastActiveDay = d.Date("last_active_day")
	in.Universe, in.Environment, in.CoverImage = d.PK("universe"), d.PK("environment"), d.PK("cover_image")
	in.Images = d.PKList("images")
	return in
}

// decodeOptionInput reads an option body.
func decodeOptionInput(doc map[string]any) prototypes.OptionInput {
	var in prototypes.OptionInput
	d := drf.New(doc, &in.Refusals)
	in.PartnerUUID = d.UUID("partner_uuid")
	in.Name, in.Description = d.Texts("name"), d.Texts("description")
	in.Price, in.SellingPrice = d.Decimal("price"), d.Decimal("selling_price")
	in.Countable, in.IsGlobal, in.IsActive = d.Bool("countable"), d.Bool("is_global"), d.Bool("is_active")
	in.Ranking = d.Int("ranking")
	in.Category = d.PK("category")
	in.VoucherPrototypes = d.PKList("voucher_prototypes")
	in.Services = drf.List(d, "services_info", domain.MaxServiceRows, domain.MsgNotADict, func(row drf.Reader) prototypes.OptionServiceInput {
		return prototypes.OptionServiceInput{Cost: row.Decimal("service_cost"), BuyingVAT: row.Decimal("service_buying_vat"),
			SellingVAT: row.Decimal("service_selling_vat"), Price: row.Decimal("service_price")}
	})
	return in
}

// decodeOptionCategoryInput reads an option category body.
func decodeOptionCategoryInput(doc map[string]any) prototypes.OptionCategoryInput {
	var in prototypes.OptionCategoryInput
	d := drf.New(doc, &in.Refusals)
	in.PartnerUUID = d.UUID("partner_uuid")
	in.Name, in.Description = d.Texts("name"), d.Texts("description")
	in.IsActive = d.Bool("is_active")
	in.Ranking, in.MinNumberOptions, in.MaxNumberOptions = d.Int("ranking"), d.Int("min_number_options"), d.Int("max_number_options")
	return in
}
