package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/graph/model"
)

// Field is the resolver for the field field.
func (r *accountErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *accountErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.AccountErrorCode, error) {
	return errorCode[model.AccountErrorCode](obj.Code), nil
}

// CreateToken is the resolver for the createToken field.
func (r *mutationResolver) CreateToken(ctx context.Context, input model.CreateTokenInput) (*model.CreateTokenPayload, error) {
	res, err := r.Accounts.Login(ctx, account.LoginInput{Username: domain.Some(input.Username), Password: domain.Some(input.Password)})
	if err != nil {
		ue, err := userErrors(err)
		return &model.CreateTokenPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.CreateTokenPayload{Token: &res.Token, UUID: &res.UUID, User: toGraphUser(res.User), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
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

// Node is the resolver for the node field.
func (r *queryResolver) Node(ctx context.Context, id string) (model.Node, error) {
	return r.resolveNode(ctx, "id", id)
}

// Nodes is the resolver for the nodes field.
func (r *queryResolver) Nodes(ctx context.Context, ids []string) ([]model.Node, error) {
	return r.resolveNodes(ctx, ids)
}

// AccountError returns AccountErrorResolver implementation.
func (r *Resolver) AccountError() AccountErrorResolver { return &accountErrorResolver{r} }

// Mutation returns MutationResolver implementation.
func (r *Resolver) Mutation() MutationResolver { return &mutationResolver{r} }

// Partner returns PartnerResolver implementation.
func (r *Resolver) Partner() PartnerResolver { return &partnerResolver{r} }

// Query returns QueryResolver implementation.
func (r *Resolver) Query() QueryResolver { return &queryResolver{r} }

type (
	accountErrorResolver struct{ *Resolver }
	mutationResolver     struct{ *Resolver }
	partnerResolver      struct{ *Resolver }
	queryResolver        struct{ *Resolver }
)
