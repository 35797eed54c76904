package graph

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/graph/model"
)

// saveCart is createCart and replaceCart: the one service call of
// POST /api/v2/ecommerce/cart/.
// idField is the input field that names the cart replaceCart replaces
// (cartId, or the deprecated id), under which the errors on it are
// reported; "" for createCart.
func (r *Resolver) saveCart(ctx context.Context, in cart.CartInput, idField string) (*model.CartPayload, error) {
	c, _, err := r.Carts.SaveCart(ctx, in)
	if idField != "" {
		err = renameArgument(err, "id", idField)
	}
	if err != nil {
		ue, err := userErrors(err)
		return &model.CartPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.CartPayload{Cart: toGraphCart(c), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// cartRef reads the cart replaceCart names: the key of cartId, a Cart's
// global id, else the deprecated id; and the field it came in.
// Errors: BAD_USER_INPUT on cartId when neither or both are given or
// cartId is not a global id; NOT_FOUND for a global id of another type.
func cartRef(cartID *string, deprecated *uuid.UUID) (key, field string, err error) {
	switch {
	case cartID != nil && deprecated != nil:
		return "", "", argumentError("cartId", domain.VInvalid, "Give either cartId or the deprecated id, not both.")
	case cartID != nil:
		key, err = globalKey("cartId", "Cart", *cartID)
		return key, "cartId", err
	case deprecated != nil:
		return deprecated.String(), "id", nil
	}
	return "", "", argumentError("cartId", domain.VRequired, domain.MsgRequired)
}

func toGraphCart(c *cart.CartView) *model.Cart {
	items := make([]*model.CartItem, len(c.Items))
	for i, it := range c.Items {
		attrs := make([]*model.AttributeValue, 0, len(it.AttributeValues))
		for id, v := range it.AttributeValues {
			attrs = append(attrs, &model.AttributeValue{AttributeID: id, Value: v})
		}
		sort.Slice(attrs, func(a, b int) bool { return attrs[a].AttributeID < attrs[b].AttributeID })
		items[i] = &model.CartItem{ProductID: it.ProductID, Quantity: it.Quantity, VariantID: it.VariantID, AttributeValues: attrs}
	}
	return &model.Cart{ID: c.ID, GlobalID: globalID("Cart", c.ID.String()), Items: items, ReturnURL: c.ReturnURL, FunnelURL: c.FunnelURL,
		LastModified: c.LastModified, CreatedAt: c.CreatedAt, ExpiresAt: c.ExpiresAt, Etag: c.ETag()}
}

// toCartDoc writes the GraphQL cart input as the JSON document the domain
// validates, so both surfaces go through the same rules.
func toCartDoc(id *string, items []*model.CartItemInput, returnURL graphql.Omittable[*string]) map[string]any {
	list := make([]any, len(items))
	for i, it := range items {
		item := map[string]any{
			"product_id": jsonInt(it.ProductID),
			"quantity":   jsonInt(it.Quantity),
		}
		if v, set := it.VariantID.ValueOK(); set {
			item["variant_id"] = nil
			if v != nil {
				item["variant_id"] = jsonInt(*v)
			}
		}
		// A null list means no attributes, as omitting it does.
		if attrs, _ := it.AttributeValues.ValueOK(); attrs != nil {
			m := make(map[string]any, len(attrs))
			for _, a := range attrs {
				m[strconv.FormatInt(a.AttributeID, 10)] = a.Value
			}
			item["attribute_values"] = m
		}
		list[i] = item
	}
	doc := map[string]any{"items": list}
	if id != nil {
		doc["id"] = *id
	}
	if u, _ := returnURL.ValueOK(); u != nil {
		doc["return_url"] = *u
	}
	return doc
}

func jsonInt(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }
