package graph

import (
	"context"
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

// toCartInput is the service's input. id is the key of the cart replaced:
// one that is no UUID is refused at id, once the caller is known (a global
// id's key is text).
func toCartInput(id *string, items []*model.CartItemInput, returnURL graphql.Omittable[*string]) cart.CartInput {
	list := make([]cart.ItemInput, len(items))
	for i, it := range items {
		list[i] = cart.ItemInput{ProductID: domain.Some(it.ProductID), Quantity: domain.Some(it.Quantity), VariantID: optional(it.VariantID)}
		// A null list means no attributes, as omitting it does.
		if attrs, _ := it.AttributeValues.ValueOK(); attrs != nil {
			m := make(map[string]string, len(attrs))
			for _, a := range attrs {
				m[strconv.FormatInt(a.AttributeID, 10)] = a.Value
			}
			list[i].AttributeValues = domain.Some(m)
		}
	}
	in := cart.CartInput{Items: domain.Some(list), ReturnURL: domain.FromPtr(opt(returnURL))}
	if id != nil {
		if u, err := uuid.Parse(*id); err == nil && len(*id) == 36 {
			in.ID = domain.Some(u)
		} else {
			in.Refuse(domain.VInvalid, domain.MsgUUID, "id")
		}
	}
	return in
}
