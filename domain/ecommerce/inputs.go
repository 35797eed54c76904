package ecommerce

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// Limits of the catalogue's inputs.
const (
	MaxVariants        = 50
	MaxAttributes      = 20
	MaxAttributeValues = 50
	MaxValueLength     = 100 // an attribute's value
	MaxStock           = domain.MaxInt32
)

// Messages of the catalogue's rules.
const (
	msgVATRate       = "Ensure this value is less than or equal to 100."
	msgStockVariants = "A product with variants counts its stock on its variants: leave stock null."
	msgIDTwice       = "This id is given more than once."
	msgValueTwice    = "This value is given more than once."
	msgValuesEmpty   = "This list may not be empty."
	msgPickupAddress = "An address is required when pickup is offered."
)

// ProductInput is a product's fields, as REST's body and the graph's
// input give them. Name and Description are texts by language (a blank
// text: none); Images are uuids of the partner's media, in order; Stock
// null is unlimited. Variants and Attributes, when given, are the
// product's whole lists.
type ProductInput struct {
	domain.Refusals
	Name, Description domain.Optional[[]domain.TextInput]
	Images            domain.Optional[[]uuid.UUID]
	Price, VATRate    domain.Optional[decimal.Decimal]
	Active            domain.Optional[bool]
	Stock             domain.Optional[int64]
	Variants          domain.Optional[[]VariantInput]
	Attributes        domain.Optional[[]AttributeInput]
}

// VariantInput is one variant of a product's list: ID keeps one of its
// variants (absent: a new one); name and price are required, stock null
// or absent is unlimited, active defaults to true.
type VariantInput struct {
	ID     domain.Optional[int64]
	Name   domain.Optional[[]domain.TextInput]
	Price  domain.Optional[decimal.Decimal]
	Stock  domain.Optional[int64]
	Active domain.Optional[bool]
}

// AttributeInput is one attribute of a product's list: ID keeps one of
// its attributes (absent: a new one); name and at least one value are
// required.
type AttributeInput struct {
	ID     domain.Optional[int64]
	Name   domain.Optional[[]domain.TextInput]
	Values domain.Optional[[]string]
}

// DeliverySettingsInput is a partner's delivery settings, whole: a field
// left out is off, 0 or empty.
type DeliverySettingsInput struct {
	domain.Refusals
	Email, Postal, Pickup  domain.Optional[bool]
	PostalCost, PickupCost domain.Optional[decimal.Decimal]
	PostalDays             domain.Optional[int64]
	PickupAddress          domain.Optional[string]
}

// at is path with more elements, in a new slice.
func at(path []any, more ...any) []any {
	return append(append([]any{}, path...), more...)
}

// localized reads texts by language into a Localized, its errors at
// path.<lang>: a known language, once, a text of at most max characters
// (a blank one: none). required asks for at least one text.
func localized(v *domain.Validator, in []domain.TextInput, max int, required bool, path ...any) domain.Localized {
	out := domain.Localized{}
	seen := map[string]bool{}
	failed := false
	for _, t := range in {
		text := strings.TrimSpace(t.Text)
		switch {
		case !domain.IsLanguage(t.Lang):
			v.Add(domain.VUnknownLanguage, fmt.Sprintf(domain.MsgLanguageChoice, t.Lang), at(path, t.Lang)...)
		case seen[t.Lang]:
			v.Add(domain.VUnique, domain.MsgLanguageTwice, at(path, t.Lang)...)
		case strings.ContainsRune(text, 0):
			v.Add(domain.VInvalid, domain.MsgNullCharacters, at(path, t.Lang)...)
		case utf8.RuneCountInString(text) > max:
			v.Add(domain.VMaxLength, fmt.Sprintf(domain.MsgMaxLength, max), at(path, t.Lang)...)
		case text != "":
			out[t.Lang] = text
			seen[t.Lang] = true
			continue
		default:
			seen[t.Lang] = true
			continue
		}
		failed = true
	}
	if required && len(out) == 0 && !failed {
		v.Add(domain.VRequired, domain.MsgRequired, path...)
	}
	return out
}

// present is o's value when it has one; it records "required" for an
// absent required field and "may not be null" for a null one that may
// not be. A field refused by its surface, or one of its elements, is
// skipped.
func present[T any](v *domain.Validator, o domain.Optional[T], required, nullable bool, path ...any) (value T, ok, null bool) {
	switch {
	case refused(v, path):
	case !o.Set:
		if required {
			v.Add(domain.VRequired, domain.MsgRequired, path...)
		}
	case o.Null && !nullable:
		v.Add(domain.VNull, domain.MsgNull, path...)
	case o.Null:
		return value, false, true
	default:
		return o.Value, true, false
	}
	return value, false, false
}

// refused reports whether v holds an error at path or below it.
func refused(v *domain.Validator, path []any) bool {
	key := domain.PathKey(path)
	for _, f := range v.Fields {
		if k := domain.PathKey(f.Path); k == key || strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}

// stock reads a stock: null (unlimited) or 0..MaxStock; set reports a
// value or null.
func stock(v *domain.Validator, o domain.Optional[int64], path ...any) (n *int64, set bool) {
	x, ok, null := present(v, o, false, true, path...)
	switch {
	case null:
		return nil, true
	case !ok:
		return nil, false
	case x < 0:
		v.Add(domain.VMinValue, domain.MsgMinZero, path...)
		return nil, false
	case x > MaxStock:
		v.Add(domain.VMaxValue, fmt.Sprintf("Ensure this value is less than or equal to %d.", MaxStock), path...)
		return nil, false
	}
	return &x, true
}

// price reads an amount of money (domain.Validator.Amount's rule).
func price(v *domain.Validator, o domain.Optional[decimal.Decimal], required bool, path ...any) *decimal.Decimal {
	x, ok, _ := present(v, o, required, false, path...)
	if !ok {
		return nil
	}
	before := len(v.Fields)
	d := v.Amount(x, path...)
	if len(v.Fields) > before {
		return nil
	}
	return &d
}

// applyProduct reads in into p (a new product, or one being changed:
// then partial leaves out the required fields) and checks its images
// among the partner's media through st. It returns the input's errors.
func applyProduct(ctx context.Context, st ProductStore, in ProductInput, partial bool, p *Product) error {
	v := in.Validator()
	required := !partial
	if t, ok, _ := present(v, in.Name, required, false, "name"); ok {
		p.Name = localized(v, t, domain.MaxNameLength, true, "name")
	}
	if t, ok, _ := present(v, in.Description, false, false, "description"); ok {
		p.Description = localized(v, t, domain.MaxDescriptionLength, false, "description")
	}
	if d := price(v, in.Price, required, "price"); d != nil {
		p.Price = *d
	}
	if d := price(v, in.VATRate, false, "vat_rate"); d != nil {
		if d.GreaterThan(decimal.NewFromInt(100)) {
			v.Add(domain.VMaxValue, msgVATRate, "vat_rate")
		} else {
			p.VATRate = *d
		}
	}
	if b, ok, _ := present(v, in.Active, false, false, "active"); ok {
		p.Active = b
	}
	if n, set := stock(v, in.Stock, "stock"); set {
		p.Stock = n
	}
	if images, ok, _ := present(v, in.Images, false, false, "images"); ok {
		if err := applyImages(ctx, st, v, images, p); err != nil {
			return err
		}
	}
	if list, ok, _ := present(v, in.Variants, false, false, "variants"); ok {
		p.Variants = applyVariants(v, list, p.Variants)
	}
	if list, ok, _ := present(v, in.Attributes, false, false, "attributes"); ok {
		p.Attributes = applyAttributes(v, list, p.Attributes)
	}
	if len(p.Variants) > 0 && p.Stock != nil && !domain.HasFieldError(v, "stock") {
		v.Add(domain.VInvalid, msgStockVariants, "stock")
	}
	return v.Err()
}

// applyImages sets p's images: at most domain.MaxImages media of the
// partner, each once; another partner's media reads as one that does not
// exist.
func applyImages(ctx context.Context, st ProductStore, v *domain.Validator, images []uuid.UUID, p *Product) error {
	if len(images) > domain.MaxImages {
		v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, domain.MaxImages), "images")
		return nil
	}
	ids := make([]string, 0, len(images))
	seen := map[string]bool{}
	for _, u := range images {
		if s := u.String(); !seen[s] {
			seen[s] = true
			ids = append(ids, s)
		}
	}
	missing, err := st.MissingMedia(ctx, p.PartnerID, ids)
	if err != nil {
		return err
	}
	for _, m := range missing {
		v.Add(domain.VNotFound, fmt.Sprintf("Invalid pk \"%s\" - object does not exist.", m), "images")
	}
	if len(missing) == 0 {
		p.Images = ids
	}
	return nil
}

// applyVariants reads a variants list; an id must name one of old.
func applyVariants(v *domain.Validator, list []VariantInput, old []*Variant) []*Variant {
	if len(list) > MaxVariants {
		v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxVariants), "variants")
		return old
	}
	v.ListLength(len(list), "variants")
	known := map[int64]bool{}
	for _, o := range old {
		known[o.ID] = true
	}
	taken := map[int64]bool{}
	out := make([]*Variant, len(list))
	for i, in := range list {
		path := []any{"variants", i}
		x := &Variant{Name: domain.Localized{}, Active: true}
		if id, ok, _ := present(v, in.ID, false, true, at(path, "id")...); ok {
			switch {
			case !known[id]:
				v.Add(domain.VNotFound, fmt.Sprintf(domain.MsgPKMissing, id), at(path, "id")...)
			case taken[id]:
				v.Add(domain.VUnique, msgIDTwice, at(path, "id")...)
			}
			taken[id], x.ID = true, id
		}
		if t, ok, _ := present(v, in.Name, true, false, at(path, "name")...); ok {
			x.Name = localized(v, t, domain.MaxNameLength, true, at(path, "name")...)
		}
		if d := price(v, in.Price, true, at(path, "price")...); d != nil {
			x.Price = *d
		}
		x.Stock, _ = stock(v, in.Stock, at(path, "stock")...)
		if b, ok, _ := present(v, in.Active, false, false, at(path, "active")...); ok {
			x.Active = b
		}
		out[i] = x
	}
	return out
}

// applyAttributes reads an attributes list; an id must name one of old.
func applyAttributes(v *domain.Validator, list []AttributeInput, old []*Attribute) []*Attribute {
	if len(list) > MaxAttributes {
		v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxAttributes), "attributes")
		return old
	}
	v.ListLength(len(list), "attributes")
	known := map[int64]bool{}
	for _, o := range old {
		known[o.ID] = true
	}
	taken := map[int64]bool{}
	out := make([]*Attribute, len(list))
	for i, in := range list {
		path := []any{"attributes", i}
		x := &Attribute{Name: domain.Localized{}, Values: []string{}}
		if id, ok, _ := present(v, in.ID, false, true, at(path, "id")...); ok {
			switch {
			case !known[id]:
				v.Add(domain.VNotFound, fmt.Sprintf(domain.MsgPKMissing, id), at(path, "id")...)
			case taken[id]:
				v.Add(domain.VUnique, msgIDTwice, at(path, "id")...)
			}
			taken[id], x.ID = true, id
		}
		if t, ok, _ := present(v, in.Name, true, false, at(path, "name")...); ok {
			x.Name = localized(v, t, domain.MaxNameLength, true, at(path, "name")...)
		}
		if values, ok, _ := present(v, in.Values, true, false, at(path, "values")...); ok {
			x.Values = attributeValues(v, values, at(path, "values")...)
		}
		out[i] = x
	}
	return out
}

// attributeValues reads an attribute's values: 1 to MaxAttributeValues
// texts, none blank, each once.
func attributeValues(v *domain.Validator, values []string, path ...any) []string {
	switch {
	case len(values) == 0:
		v.Add(domain.VRequired, msgValuesEmpty, path...)
		return []string{}
	case len(values) > MaxAttributeValues:
		v.Add(domain.VMaxElements, fmt.Sprintf(domain.MsgTooManyElements, MaxAttributeValues), path...)
		return []string{}
	}
	out := make([]string, 0, len(values))
	seen := map[string]bool{}
	for i, s := range values {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
			v.Add(domain.VRequired, domain.MsgBlank, at(path, i)...)
		case strings.ContainsRune(s, 0):
			v.Add(domain.VInvalid, domain.MsgNullCharacters, at(path, i)...)
		case utf8.RuneCountInString(s) > MaxValueLength:
			v.Add(domain.VMaxLength, fmt.Sprintf(domain.MsgMaxLength, MaxValueLength), at(path, i)...)
		case seen[s]:
			v.Add(domain.VUnique, msgValueTwice, at(path, i)...)
		default:
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// settings reads the whole settings of the partner.
func (in DeliverySettingsInput) settings(partnerID int64) (*DeliverySettings, error) {
	v := in.Validator()
	d := &DeliverySettings{PartnerID: partnerID}
	f := domain.Fields{V: v}
	d.Email = domain.Pick(f.Bool("email", in.Email), false)
	d.Postal = domain.Pick(f.Bool("postal", in.Postal), false)
	d.Pickup = domain.Pick(f.Bool("pickup", in.Pickup), false)
	if m := price(v, in.PostalCost, false, "postal_cost"); m != nil {
		d.PostalCost = *m
	}
	if m := price(v, in.PickupCost, false, "pickup_cost"); m != nil {
		d.PickupCost = *m
	}
	if n, _ := f.Integer("postal_days", in.PostalDays, false, false, 0); n != nil {
		if *n > 365 {
			v.Add(domain.VMaxValue, "Ensure this value is less than or equal to 365.", "postal_days")
		}
		d.PostalDays = *n
	}
	if s := f.String("pickup_address", in.PickupAddress, false, true, domain.MaxNameLength); s != nil {
		d.PickupAddress = *s
	}
	if d.Pickup && d.PickupAddress == "" && !domain.HasFieldError(v, "pickup_address") {
		v.Add(domain.VRequired, msgPickupAddress, "pickup_address")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return d, nil
}
