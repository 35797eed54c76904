package graph

import (
	"context"
	"salesplatform/graph/model"
)

// Field is the resolver for the field field.
func (r *giftErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *giftErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.GiftErrorCode, error) {
	return errorCode[model.GiftErrorCode](obj.Code), nil
}

// CreateContactRequest is the resolver for the createContactRequest field.
func (r *mutationResolver) CreateContactRequest(ctx context.Context, input model.ContactRequestInput) (*model.ContactRequestPayload, error) {
	in, err := toContactRequestInput(input)
	if err != nil {
		return nil, err
	}
	cr, err := r.Gifts.CreateContactRequest(ctx, in)
	return contactRequestPayload(cr, partnerErrors(err, "partner", input.PartnerID, input.Partner, "partner"))
}

// Gift is the resolver for the gift field.
func (r *queryResolver) Gift(ctx context.Context, code string) (*model.Gift, error) {
	return converted(toGraphGift)(r.Gifts.Gift(ctx, code))
}

// GiftLinkedPartners is the resolver for the giftLinkedPartners field.
func (r *queryResolver) GiftLinkedPartners(ctx context.Context, code string) (*model.GiftLinkedPartners, error) {
	return converted(toGraphGiftLinkedPartners)(r.Gifts.LinkedPartners(ctx, code))
}

// GiftError returns GiftErrorResolver implementation.
func (r *Resolver) GiftError() GiftErrorResolver { return &giftErrorResolver{r} }

type giftErrorResolver struct{ *Resolver }
