package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/ecommerce"
	"salesplatform/graph/model"
)

// Field is the resolver for the field field.
func (r *ecommerceErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *ecommerceErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.EcommerceErrorCode, error) {
	return errorCode[model.EcommerceErrorCode](obj.Code), nil
}

// CreateEcommerceProduct is the resolver for the createEcommerceProduct field.
func (r *mutationResolver) CreateEcommerceProduct(ctx context.Context, input model.CreateEcommerceProductInput) (*model.EcommerceProductPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpEcommerceWrite); err != nil { // before reading the input
		return nil, err
	}
	p, err := r.Ecommerce.CreateProduct(ctx, createEcommerceProductInput(input))
	out, ue, err := payloadOf(p, err, toGraphEcommerceProduct)
	return &model.EcommerceProductPayload{Product: out, UserErrors: ue, Errors: ue}, err
}

// UpdateEcommerceProduct is the resolver for the updateEcommerceProduct field.
func (r *mutationResolver) UpdateEcommerceProduct(ctx context.Context, input model.UpdateEcommerceProductInput) (*model.EcommerceProductPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpEcommerceWrite); err != nil { // before reading the input
		return nil, err
	}
	key, err := lookupKey("EcommerceProduct", input.ID)
	if err != nil {
		return nil, err
	}
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	p, err := r.Ecommerce.UpdateProduct(ctx, id, updateEcommerceProductInput(input), true)
	out, ue, err := payloadOf(p, err, toGraphEcommerceProduct)
	return &model.EcommerceProductPayload{Product: out, UserErrors: ue, Errors: ue}, err
}

// UpdateEcommerceDeliverySettings is the resolver for the updateEcommerceDeliverySettings field.
func (r *mutationResolver) UpdateEcommerceDeliverySettings(ctx context.Context, input model.EcommerceDeliverySettingsInput) (*model.EcommerceDeliverySettingsPayload, error) {
	d, err := r.Ecommerce.UpdateDeliverySettings(ctx, ecommerceDeliveryInput(input))
	out, ue, err := payloadOf(d, err, toGraphEcommerceDelivery)
	return &model.EcommerceDeliverySettingsPayload{Settings: out, UserErrors: ue, Errors: ue}, err
}

// EcommerceProducts is the resolver for the ecommerceProducts field.
func (r *queryResolver) EcommerceProducts(ctx context.Context, active *bool, first *int, after *string, last *int, before *string) (*model.EcommerceProductConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*ecommerce.Product], error) {
		return r.Ecommerce.Products(ctx, ecommerce.ProductListInput{Active: domain.FromPtr(active)}, p)
	})
	if err != nil {
		return nil, err
	}
	return ecommerceProductConnection(w, page), nil
}

// EcommerceProduct is the resolver for the ecommerceProduct field.
func (r *queryResolver) EcommerceProduct(ctx context.Context, id string) (*model.EcommerceProduct, error) {
	key, err := lookupKey("EcommerceProduct", id)
	if err != nil {
		return nil, err
	}
	return r.ecommerceProduct(ctx, key)
}

// EcommerceDeliverySettings is the resolver for the ecommerceDeliverySettings field.
func (r *queryResolver) EcommerceDeliverySettings(ctx context.Context) (*model.EcommerceDeliverySettings, error) {
	return converted(toGraphEcommerceDelivery)(r.Ecommerce.DeliverySettings(ctx))
}

// EcommerceError returns EcommerceErrorResolver implementation.
func (r *Resolver) EcommerceError() EcommerceErrorResolver { return &ecommerceErrorResolver{r} }

type ecommerceErrorResolver struct{ *Resolver }
