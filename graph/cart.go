package graph

import (
	"context"

	"salesplatform/domain/cart"

	"salesplatform/graph/model"
)

// saveCart is createCart and replaceCart: the one service call of
// POST /api/v2/ecommerce/cart/.
func (r *Resolver) saveCart(ctx context.Context, in cart.CartInput) (*model.CartPayload, error) {
	c, _, err := r.Carts.SaveCart(ctx, in)
	if err != nil {
		ue, err := userErrors(err)
		return &model.CartPayload{UserErrors: ue}, err
	}
	return &model.CartPayload{Cart: toGraphCart(c), UserErrors: []*model.UserError{}}, nil
}
