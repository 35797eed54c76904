package graph

import (
	"context"
	"salesplatform/graph/model"

	"github.com/google/uuid"
)

// Field is the resolver for the field field.
func (r *cartErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *cartErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.CartErrorCode, error) {
	return errorCode[model.CartErrorCode](obj.Code), nil
}

// CreateCart is the resolver for the createCart field.
func (r *mutationResolver) CreateCart(ctx context.Context, input model.CreateCartInput) (*model.CartPayload, error) {
	return r.saveCart(ctx, toCartInput(nil, input.Items, input.ReturnURL), "")
}

// ReplaceCart is the resolver for the replaceCart field.
func (r *mutationResolver) ReplaceCart(ctx context.Context, input model.ReplaceCartInput) (*model.CartPayload, error) {
	id, field, err := cartRef(opt(input.CartID), opt(input.ID))
	if err != nil {
		return nil, err
	}
	ifMatch, _ := input.IfMatch.ValueOK()
	in := toCartInput(&id, input.Items, input.ReturnURL)
	if ifMatch != nil {
		in.IfMatch = *ifMatch
	}
	return r.saveCart(ctx, in, field)
}

// Cart is the resolver for the cart field.
func (r *queryResolver) Cart(ctx context.Context, id *uuid.UUID, cartID *string) (*model.Cart, error) {
	key, _, err := cartRef(cartID, id)
	if err != nil {
		return nil, err
	}
	return r.cart(ctx, key)
}

// CartError returns CartErrorResolver implementation.
func (r *Resolver) CartError() CartErrorResolver { return &cartErrorResolver{r} }

type cartErrorResolver struct{ *Resolver }
