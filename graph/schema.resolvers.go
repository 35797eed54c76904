package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/cart"
	"salesplatform/graph/model"

	"github.com/google/uuid"
)

// CreateToken is the resolver for the createToken field.
func (r *mutationResolver) CreateToken(ctx context.Context, input model.CreateTokenInput) (*model.CreateTokenPayload, error) {
	res, err := r.Accounts.Login(ctx, account.LoginInput{Username: input.Username, Password: input.Password})
	if err != nil {
		ue, err := userErrors(err)
		return &model.CreateTokenPayload{UserErrors: ue}, err
	}
	return &model.CreateTokenPayload{Token: &res.Token, UUID: &res.UUID, User: toGraphUser(res.User), UserErrors: []*model.UserError{}}, nil
}

// CreateCart is the resolver for the createCart field.
func (r *mutationResolver) CreateCart(ctx context.Context, input model.CreateCartInput) (*model.CartPayload, error) {
	return r.saveCart(ctx, cart.CartInput{Doc: toCartDoc(nil, input.Items, input.ReturnURL)})
}

// ReplaceCart is the resolver for the replaceCart field.
func (r *mutationResolver) ReplaceCart(ctx context.Context, input model.ReplaceCartInput) (*model.CartPayload, error) {
	id := input.ID.String()
	ifMatch, _ := input.IfMatch.ValueOK()
	in := cart.CartInput{Doc: toCartDoc(&id, input.Items, input.ReturnURL)}
	if ifMatch != nil {
		in.IfMatch = *ifMatch
	}
	return r.saveCart(ctx, in)
}

// Viewer is the resolver for the viewer field.
func (r *queryResolver) Viewer(ctx context.Context) (*model.Viewer, error) {
	c, err := domain.CallerFrom(ctx)
	if err != nil {
		return nil, err
	}
	perms, err := r.Accounts.Permissions(ctx)
	if err != nil {
		return nil, err
	}
	return &model.Viewer{User: toGraphUser(c.User), Partner: toGraphPartner(c.Partner), Permissions: perms}, nil
}

// Cart is the resolver for the cart field.
func (r *queryResolver) Cart(ctx context.Context, id uuid.UUID) (*model.Cart, error) {
	c, err := r.Carts.Cart(ctx, id.String())
	if err != nil {
		return nil, err
	}
	return toGraphCart(c), nil
}

// Mutation returns MutationResolver implementation.
func (r *Resolver) Mutation() MutationResolver { return &mutationResolver{r} }

// Partner returns PartnerResolver implementation.
func (r *Resolver) Partner() PartnerResolver { return &partnerResolver{r} }

// Query returns QueryResolver implementation.
func (r *Resolver) Query() QueryResolver { return &queryResolver{r} }

type (
	mutationResolver struct{ *Resolver }
	partnerResolver  struct{ *Resolver }
	queryResolver    struct{ *Resolver }
)
