package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/graph/model"
)

// Field is the resolver for the field field.
func (r *checkoutErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *checkoutErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.CheckoutErrorCode, error) {
	return errorCode[model.CheckoutErrorCode](obj.Code), nil
}

// RefundEcommerceOrder is the resolver for the refundEcommerceOrder field.
func (r *mutationResolver) RefundEcommerceOrder(ctx context.Context, input model.RefundEcommerceOrderInput, idempotencyKey *string) (*model.RefundEcommerceOrderPayload, error) {
	id, err := recordID("EcommerceOrder", input.OrderID)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	o, err := r.Checkout.RefundOrder(ctx, id, refundEcommerceOrderInput(input))
	out, ue, err := payloadOf(o, err, toGraphEcommerceOrder)
	return &model.RefundEcommerceOrderPayload{Order: out, UserErrors: ue, Errors: ue}, err
}

// EcommerceOrder is the resolver for the ecommerceOrder field.
func (r *queryResolver) EcommerceOrder(ctx context.Context, id string) (*model.EcommerceOrder, error) {
	key, err := lookupKey("EcommerceOrder", id)
	if err != nil {
		return nil, err
	}
	return r.ecommerceOrder(ctx, key)
}

// EcommerceOrders is the resolver for the ecommerceOrders field.
func (r *queryResolver) EcommerceOrders(ctx context.Context, filter *model.EcommerceOrderFilter, first *int, after *string, last *int, before *string) (*model.EcommerceOrderConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*checkout.Order], error) {
		return r.Resolver.Checkout.Orders(ctx, ecommerceOrderFilter(filter), p)
	})
	if err != nil {
		return nil, err
	}
	return ecommerceOrderConnection(w, page), nil
}

// CheckoutError returns CheckoutErrorResolver implementation.
func (r *Resolver) CheckoutError() CheckoutErrorResolver { return &checkoutErrorResolver{r} }

type checkoutErrorResolver struct{ *Resolver }
