package graph

import (
	"context"
	"salesplatform/domain/gifts"
	"salesplatform/graph/model"
)

// CreateContactRequest is the resolver for the createContactRequest field.
func (r *mutationResolver) CreateContactRequest(ctx context.Context, input model.ContactRequestInput) (*model.ContactRequestPayload, error) {
	return contactRequestPayload(r.Gifts.CreateContactRequest(ctx, gifts.ContactRequestInput{Doc: toContactRequestDoc(input)}))
}

// Gift is the resolver for the gift field.
func (r *queryResolver) Gift(ctx context.Context, code string) (*model.Gift, error) {
	g, err := r.Gifts.Gift(ctx, code)
	if err != nil {
		return nil, err
	}
	return toGraphGift(g), nil
}

// GiftLinkedPartners is the resolver for the giftLinkedPartners field.
func (r *queryResolver) GiftLinkedPartners(ctx context.Context, code string) (*model.GiftLinkedPartners, error) {
	lp, err := r.Gifts.LinkedPartners(ctx, code)
	if err != nil {
		return nil, err
	}
	return toGraphGiftLinkedPartners(lp), nil
}
