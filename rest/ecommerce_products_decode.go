package rest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/ecommerce"
	"salesplatform/rest/drf"
)

// Decoders of the e-commerce catalogue's bodies (docs/API.md, "E-commerce
// catalogue").

// msgNotAString refuses a value of a string list that is no string.
const msgNotAString = "Not a valid string."

// decodeEcommerceProduct reads a product body (POST, PUT and PATCH).
func decodeEcommerceProduct(doc map[string]any) ecommerce.ProductInput {
	var in ecommerce.ProductInput
	d := drf.New(doc, &in.Refusals)
	in.Name, in.Description = localizedField(d, "name"), localizedField(d, "description")
	in.Images = uuidList(d, "images", domain.MaxImages)
	in.Price, in.VATRate = d.Decimal("price"), d.Decimal("vat_rate")
	in.Active = d.Bool("active")
	in.Stock = d.Int("stock")
	in.Variants = drf.List(d, "variants", ecommerce.MaxVariants, domain.MsgNotADict, func(row drf.Reader) ecommerce.VariantInput {
		return ecommerce.VariantInput{ID: row.PK("id"), Name: localizedField(row, "name"), Price: row.Decimal("price"),
			Stock: row.Int("stock"), Active: row.Bool("active")}
	})
	in.Attributes = drf.List(d, "attributes", ecommerce.MaxAttributes, domain.MsgNotADict, func(row drf.Reader) ecommerce.AttributeInput {
		return ecommerce.AttributeInput{ID: row.PK("id"), Name: localizedField(row, "name"),
			Values: stringList(row, "values", ecommerce.MaxAttributeValues)}
	})
	return in
}

// decodeEcommerceDeliverySettings reads a delivery settings body (PUT).
func decodeEcommerceDeliverySettings(doc map[string]any) ecommerce.DeliverySettingsInput {
	var in ecommerce.DeliverySettingsInput
	d := drf.New(doc, &in.Refusals)
	in.Email, in.Postal, in.Pickup = d.Bool("email"), d.Bool("postal"), d.Bool("pickup")
	in.PostalCost, in.PickupCost = d.Decimal("postal_cost"), d.Decimal("pickup_cost")
	in.PostalDays = d.Int("postal_days")
	in.PickupAddress = d.String("pickup_address")
	return in
}

// localizedField reads a {"<lang>": text} object as the domain's texts,
// in language order; a text that is no string is refused at field.lang.
// Unknown languages are kept for the domain to refuse.
func localizedField(d drf.Reader, field string) domain.Optional[[]domain.TextInput] {
	nested, o, ok := d.Object(field)
	if !ok {
		if o.Null {
			return domain.Null[[]domain.TextInput]()
		}
		return domain.Optional[[]domain.TextInput]{}
	}
	langs := make([]string, 0, len(nested.Obj))
	for k := range nested.Obj {
		langs = append(langs, k)
	}
	slices.Sort(langs)
	out := make([]domain.TextInput, 0, len(langs))
	for _, lang := range langs {
		if nested.Obj[lang] == nil {
			out = append(out, domain.TextInput{Lang: lang}) // null: no text
			continue
		}
		if s, ok := nested.String(lang).Get(); ok {
			out = append(out, domain.TextInput{Lang: lang, Text: s})
		}
	}
	return domain.Some(out)
}

// uuidList reads a list of uuids; a list longer than max is left for the
// domain to refuse, unread.
func uuidList(d drf.Reader, field string, max int) domain.Optional[[]uuid.UUID] {
	list, o, ok := rawList(d, field)
	if !ok {
		return domain.Optional[[]uuid.UUID]{Set: o.Set, Null: o.Null}
	}
	out := make([]uuid.UUID, len(list))
	if len(list) > max {
		return domain.Some(out)
	}
	for i, e := range list {
		s, _ := e.(string)
		u, err := uuid.Parse(strings.TrimSpace(s))
		if err != nil {
			d.R.Refuse(domain.VInvalid, domain.MsgUUID, append(slices.Clone(d.At), field, i)...)
			continue
		}
		out[i] = u
	}
	return domain.Some(out)
}

// stringList reads a list of strings; a list longer than max is left for
// the domain to refuse, unread.
func stringList(d drf.Reader, field string, max int) domain.Optional[[]string] {
	list, o, ok := rawList(d, field)
	if !ok {
		return domain.Optional[[]string]{Set: o.Set, Null: o.Null}
	}
	out := make([]string, len(list))
	if len(list) > max {
		return domain.Some(out)
	}
	for i, e := range list {
		s, isString := e.(string)
		if !isString {
			d.R.Refuse(domain.VInvalid, msgNotAString, append(slices.Clone(d.At), field, i)...)
			continue
		}
		out[i] = s
	}
	return domain.Some(out)
}

// rawList is the field's JSON list; ok is false when the field is absent,
// null (o tells which) or not a list (refused).
func rawList(d drf.Reader, field string) (list []any, o domain.Optional[struct{}], ok bool) {
	value, present := d.Obj[field]
	switch {
	case !present:
		return nil, o, false
	case value == nil:
		return nil, domain.Null[struct{}](), false
	}
	list, isList := value.([]any)
	if !isList {
		d.R.Refuse(domain.VInvalid, fmt.Sprintf(domain.MsgNotAList, domain.JSONTypeName(value)), append(slices.Clone(d.At), field)...)
		return nil, domain.Optional[struct{}]{Set: true}, false
	}
	return list, domain.Some(struct{}{}), true
}
