package rest

import (
	"slices"
	"strconv"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/rest/drf"
)

// decodeCartSave reads a cart body: id a UUID in its 36-character form,
// the items' attribute values texts keyed by attribute id.
func decodeCartSave(body any, ifMatch string) cart.CartInput {
	in := cart.CartInput{IfMatch: ifMatch}
	d := drf.Body(body, &in.Refusals)
	if id, ok := d.Text("id", domain.MsgUUID).Get(); ok {
		if u, err := uuid.Parse(id); err == nil && len(id) == 36 {
			in.ID = domain.Some(u)
		} else {
			in.Refuse(domain.VInvalid, domain.MsgUUID, "id")
		}
	}
	in.ReturnURL = d.Text("return_url", domain.MsgString)
	in.Items = drf.List(d, "items", cart.MaxCartItems, drf.MsgNotAnObject, func(it drf.Reader) cart.ItemInput {
		item := cart.ItemInput{ProductID: it.Int("product_id"), Quantity: it.Int("quantity"), VariantID: it.Int("variant_id")}
		attrs, o, ok := it.Object("attribute_values")
		if !ok {
			item.AttributeValues = domain.Optional[map[string]string]{Set: o.Set, Null: o.Null}
			return item
		}
		item.AttributeValues = domain.Some(attributeValues(attrs))
		return item
	})
	return in
}

// attributeValues reads an item's attribute values: each a string. The
// values of a map the domain refuses whole (too many) or of a key it
// refuses are not read.
func attributeValues(attrs drf.Reader) map[string]string {
	m := make(map[string]string, len(attrs.Obj))
	for k, value := range attrs.Obj {
		if id, err := strconv.ParseInt(k, 10, 64); err != nil || id < 1 || len(attrs.Obj) > cart.MaxAttributesPerItem {
			m[k] = ""
			continue
		}
		if s, ok := value.(string); ok {
			m[k] = s
			continue
		}
		attrs.R.Refuse(domain.VInvalid, domain.MsgString, append(slices.Clone(attrs.At), k)...)
	}
	return m
}
