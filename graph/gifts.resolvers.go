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
	return converted(toGraphGift)(r.Gifts.Gift(ctx, code))
}

// GiftLinkedPartners is the resolver for the giftLinkedPartners field.
func (r *queryResolver) GiftLinkedPartners(ctx context.Context, code string) (*model.GiftLinkedPartners, error) {
	return converted(toGraphGiftLinkedPartners)(r.Gifts.LinkedPartners(ctx, code))
}
