package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/graph/model"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
)

// CreateNetworkGiftcard is the resolver for the createNetworkGiftcard field.
func (r *mutationResolver) CreateNetworkGiftcard(ctx context.Context, input model.CreateNetworkGiftcardInput, idempotencyKey *string) (*model.NetworkGiftcardPayload, error) {
	marketplace, err := r.partnerRef(ctx, graphql.OmittableOf(&input.MarketplaceID), nil)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	g, err := r.NetworkGiftcards.CreateGiftcard(ctx, createNetworkGiftcardInput(input, marketplace))
	out, ue, err := payloadOf(g, err, toGraphNetworkGiftcard)
	return &model.NetworkGiftcardPayload{NetworkGiftcard: out, UserErrors: ue, Errors: ue}, err
}

// UseNetworkGiftcard is the resolver for the useNetworkGiftcard field.
func (r *mutationResolver) UseNetworkGiftcard(ctx context.Context, input model.UseNetworkGiftcardInput, idempotencyKey *string) (*model.NetworkGiftcardUsagePayload, error) {
	in, err := useNetworkGiftcardInput(input)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return networkUsagePayload(r.NetworkGiftcards.Use(ctx, in))
}

// CancelNetworkGiftcardUsage is the resolver for the cancelNetworkGiftcardUsage field.
func (r *mutationResolver) CancelNetworkGiftcardUsage(ctx context.Context, input model.CancelNetworkGiftcardUsageInput, idempotencyKey *string) (*model.NetworkGiftcardUsagePayload, error) {
	id, err := recordID("NetworkGiftcardUsage", input.UsageID)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return networkUsagePayload(r.NetworkGiftcards.CancelUsage(ctx, network.CancelUsageInput{ID: id, Comment: optional(input.Comment)}))
}

// HoldNetworkGiftcard is the resolver for the holdNetworkGiftcard field.
func (r *mutationResolver) HoldNetworkGiftcard(ctx context.Context, input model.HoldNetworkGiftcardInput, idempotencyKey *string) (*model.NetworkGiftcardHoldPayload, error) {
	in, err := holdNetworkGiftcardInput(input)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return networkHoldPayload(r.NetworkGiftcards.Hold(ctx, in))
}

// CaptureNetworkGiftcardHold is the resolver for the captureNetworkGiftcardHold field.
func (r *mutationResolver) CaptureNetworkGiftcardHold(ctx context.Context, input model.CaptureNetworkGiftcardHoldInput, idempotencyKey *string) (*model.NetworkGiftcardUsagePayload, error) {
	ctx, err := withIdempotencyKey(ctx, idempotencyKey)
	if err != nil {
		return nil, err
	}
	return networkUsagePayload(r.NetworkGiftcards.Capture(ctx, captureNetworkGiftcardInput(input)))
}

// ReleaseNetworkGiftcardHold is the resolver for the releaseNetworkGiftcardHold field.
func (r *mutationResolver) ReleaseNetworkGiftcardHold(ctx context.Context, input model.ReleaseNetworkGiftcardHoldInput, idempotencyKey *string) (*model.NetworkGiftcardHoldPayload, error) {
	ctx, err := withIdempotencyKey(ctx, idempotencyKey)
	if err != nil {
		return nil, err
	}
	return networkHoldPayload(r.NetworkGiftcards.Release(ctx, input.Code, input.ReservationID))
}

// AdjustNetworkGiftcard is the resolver for the adjustNetworkGiftcard field.
func (r *mutationResolver) AdjustNetworkGiftcard(ctx context.Context, input model.AdjustNetworkGiftcardInput, idempotencyKey *string) (*model.NetworkGiftcardMovementPayload, error) {
	ctx, err := withIdempotencyKey(ctx, idempotencyKey)
	if err != nil {
		return nil, err
	}
	m, err := r.NetworkGiftcards.Adjust(ctx, adjustNetworkGiftcardInput(input))
	out, ue, err := payloadOf(m, err, toGraphNetworkMovement)
	return &model.NetworkGiftcardMovementPayload{Movement: out, UserErrors: ue, Errors: ue}, err
}

// CreateNetworkPartner is the resolver for the createNetworkPartner field.
func (r *mutationResolver) CreateNetworkPartner(ctx context.Context, input model.CreateNetworkPartnerInput, idempotencyKey *string) (*model.NetworkPartnerPayload, error) {
	marketplace, err := r.partnerRef(ctx, input.MarketplaceID, nil)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return networkPartnerPayload(r.NetworkPartners.CreateNetworkPartner(ctx, createNetworkPartnerInput(input, marketplace)))
}

// UpdateNetworkPartner is the resolver for the updateNetworkPartner field.
func (r *mutationResolver) UpdateNetworkPartner(ctx context.Context, input model.UpdateNetworkPartnerInput) (*model.NetworkPartnerPayload, error) {
	marketplace, err := r.partnerRef(ctx, input.MarketplaceID, nil)
	if err != nil {
		return nil, err
	}
	in, err := updateNetworkPartnerInput(input, marketplace)
	if err != nil {
		return nil, err
	}
	return networkPartnerPayload(r.NetworkPartners.UpdateNetworkPartner(ctx, in))
}

// RecordNetworkVoucherUsage is the resolver for the recordNetworkVoucherUsage field.
func (r *mutationResolver) RecordNetworkVoucherUsage(ctx context.Context, input model.RecordNetworkVoucherUsageInput, idempotencyKey *string) (*model.NetworkVoucherUsagePayload, error) {
	in, err := recordNetworkVoucherUsageInput(input)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return networkVoucherUsagePayload(r.NetworkVouchers.RecordUsage(ctx, in))
}

// CancelNetworkVoucherUsage is the resolver for the cancelNetworkVoucherUsage field.
func (r *mutationResolver) CancelNetworkVoucherUsage(ctx context.Context, input model.CancelNetworkVoucherUsageInput, idempotencyKey *string) (*model.NetworkVoucherUsagePayload, error) {
	id, err := recordID("NetworkVoucherUsage", input.UsageID)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return networkVoucherUsagePayload(r.NetworkVouchers.CancelUsage(ctx, network.CancelUsageInput{ID: id, Comment: optional(input.Comment)}))
}

// Field is the resolver for the field field.
func (r *networkErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *networkErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.NetworkErrorCode, error) {
	return errorCode[model.NetworkErrorCode](obj.Code), nil
}

// Usages is the resolver for the usages field.
func (r *networkGiftcardResolver) Usages(ctx context.Context, obj *model.NetworkGiftcard, first *int, after *string, last *int, before *string) (*model.NetworkGiftcardUsageConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).cardUsages, lenientID(obj.ID), pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return networkUsageConnection(w, page), nil
}

// Movements is the resolver for the movements field.
func (r *networkGiftcardResolver) Movements(ctx context.Context, obj *model.NetworkGiftcard, first *int, after *string, last *int, before *string) (*model.NetworkGiftcardMovementConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).cardMovements, lenientID(obj.ID), pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return networkMovementConnection(w, page), nil
}

// Holds is the resolver for the holds field.
func (r *networkGiftcardResolver) Holds(ctx context.Context, obj *model.NetworkGiftcard, first *int, after *string, last *int, before *string) (*model.NetworkGiftcardHoldConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).cardHolds, lenientID(obj.ID), pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return networkHoldConnection(w, page), nil
}

// NetworkGiftcard is the resolver for the networkGiftcard field.
func (r *networkGiftcardHoldResolver) NetworkGiftcard(ctx context.Context, obj *model.NetworkGiftcardHold) (*model.NetworkGiftcard, error) {
	return r.loadNetworkGiftcard(ctx, obj.NetworkGiftcardID)
}

// Partner is the resolver for the partner field.
func (r *networkGiftcardHoldResolver) Partner(ctx context.Context, obj *model.NetworkGiftcardHold) (*model.NetworkPartner, error) {
	return r.loadNetworkPartner(ctx, obj.MarketplaceID, obj.PartnerID)
}

// NetworkGiftcard is the resolver for the networkGiftcard field.
func (r *networkGiftcardUsageResolver) NetworkGiftcard(ctx context.Context, obj *model.NetworkGiftcardUsage) (*model.NetworkGiftcard, error) {
	return r.loadNetworkGiftcard(ctx, obj.NetworkGiftcardID)
}

// Partner is the resolver for the partner field.
func (r *networkGiftcardUsageResolver) Partner(ctx context.Context, obj *model.NetworkGiftcardUsage) (*model.NetworkPartner, error) {
	return r.loadNetworkPartner(ctx, obj.MarketplaceID, obj.PartnerID)
}

// CurrencyCode is the resolver for the currencyCode field.
func (r *networkVoucherResolver) CurrencyCode(ctx context.Context, obj *model.NetworkVoucher) (model.CurrencyCode, error) {
	return r.partnerCurrency(ctx, lenientID(obj.MarketplaceID))
}

// Usages is the resolver for the usages field.
func (r *networkVoucherResolver) Usages(ctx context.Context, obj *model.NetworkVoucher, first *int, after *string, last *int, before *string) (*model.NetworkVoucherUsageConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).voucherUsages, lenientID(obj.ID), pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return networkVoucherUsageConnection(w, page), nil
}

// CurrencyCode is the resolver for the currencyCode field.
func (r *networkVoucherBoxResolver) CurrencyCode(ctx context.Context, obj *model.NetworkVoucherBox) (model.CurrencyCode, error) {
	return r.partnerCurrency(ctx, lenientID(obj.MarketplaceID))
}

// Offers is the resolver for the offers field.
func (r *networkVoucherBoxResolver) Offers(ctx context.Context, obj *model.NetworkVoucherBox, first *int, after *string, last *int, before *string) (*model.NetworkVoucherBoxOfferConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).networkOffers, lenientID(obj.ID), pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return networkOfferConnection(w, page, lenientID(obj.MarketplaceID)), nil
}

// Partner is the resolver for the partner field.
func (r *networkVoucherBoxOfferResolver) Partner(ctx context.Context, obj *model.NetworkVoucherBoxOffer) (*model.NetworkPartner, error) {
	return r.loadNetworkPartner(ctx, obj.MarketplaceID, obj.PartnerID)
}

// Partner is the resolver for the partner field.
func (r *networkVoucherUsageResolver) Partner(ctx context.Context, obj *model.NetworkVoucherUsage) (*model.NetworkPartner, error) {
	return r.loadNetworkPartner(ctx, obj.MarketplaceID, obj.PartnerID)
}

// CheckNetworkPartner is the resolver for the checkNetworkPartner field.
func (r *queryResolver) CheckNetworkPartner(ctx context.Context, siretNumber string, commercialName string) (*string, error) {
	id, err := r.Services.NetworkPartners.CheckPartner(ctx, siretNumber, commercialName)
	if err != nil {
		return nil, err
	}
	s := strconv.FormatInt(id, 10)
	return &s, nil
}

// NetworkGiftcard is the resolver for the networkGiftcard field.
func (r *queryResolver) NetworkGiftcard(ctx context.Context, code string) (*model.NetworkGiftcard, error) {
	return converted(toGraphNetworkGiftcard)(r.Resolver.NetworkGiftcards.GiftcardByCode(ctx, code))
}

// NetworkGiftcards is the resolver for the networkGiftcards field.
func (r *queryResolver) NetworkGiftcards(ctx context.Context, first *int, after *string, last *int, before *string) (*model.NetworkGiftcardConnection, error) {
	w, page, err := readKeyset(ctx, pageArgs{first, after, last, before}, networkGiftcardID, func(p domain.PageRequest) (*domain.Page[*network.Giftcard], error) {
		return r.Resolver.NetworkGiftcards.Giftcards(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return networkGiftcardConnection(w, page), nil
}

// NetworkGiftcardsByEmail is the resolver for the networkGiftcardsByEmail field.
func (r *queryResolver) NetworkGiftcardsByEmail(ctx context.Context, email string, first *int, after *string, last *int, before *string) (*model.NetworkGiftcardConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*network.Giftcard], error) {
		return r.Resolver.NetworkGiftcards.GiftcardsByEmail(ctx, email, p)
	})
	if err != nil {
		return nil, err
	}
	return networkGiftcardConnection(w, page), nil
}

// NetworkPartners is the resolver for the networkPartners field.
func (r *queryResolver) NetworkPartners(ctx context.Context, marketplaceID *string, first *int, after *string, last *int, before *string) (*model.NetworkPartnerConnection, error) {
	marketplace, err := r.partnerRef(ctx, graphql.OmittableOf(marketplaceID), nil)
	if err != nil {
		return nil, err
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*network.Partner], error) {
		return r.Resolver.NetworkPartners.NetworkPartners(ctx, marketplace, p)
	})
	if err != nil {
		return nil, renameArgument(err, "marketplace_uuid", "marketplaceId")
	}
	return networkPartnerConnection(w, page), nil
}

// NetworkVoucherBoxes is the resolver for the networkVoucherBoxes field.
func (r *queryResolver) NetworkVoucherBoxes(ctx context.Context, first *int, after *string, last *int, before *string) (*model.NetworkVoucherBoxConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*network.BoxRecord], error) {
		return r.NetworkVouchers.Boxes(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return networkBoxConnection(w, page), nil
}

// NetworkVoucherBox is the resolver for the networkVoucherBox field.
func (r *queryResolver) NetworkVoucherBox(ctx context.Context, id string) (*model.NetworkVoucherBox, error) {
	key, err := lookupKey("NetworkVoucherBox", id)
	if err != nil {
		return nil, err
	}
	return r.networkVoucherBox(ctx, key)
}

// NetworkVoucher is the resolver for the networkVoucher field.
func (r *queryResolver) NetworkVoucher(ctx context.Context, code string) (*model.NetworkVoucher, error) {
	return r.networkVoucher(ctx, code)
}

// NetworkVouchersByEmail is the resolver for the networkVouchersByEmail field.
func (r *queryResolver) NetworkVouchersByEmail(ctx context.Context, email string, first *int, after *string, last *int, before *string) (*model.NetworkVoucherConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*network.Voucher], error) {
		return r.NetworkVouchers.NetworkVouchersByEmail(ctx, email, p)
	})
	if err != nil {
		return nil, err
	}
	return networkVoucherConnection(w, page), nil
}

// NetworkError returns NetworkErrorResolver implementation.
func (r *Resolver) NetworkError() NetworkErrorResolver { return &networkErrorResolver{r} }

// NetworkGiftcard returns NetworkGiftcardResolver implementation.
func (r *Resolver) NetworkGiftcard() NetworkGiftcardResolver { return &networkGiftcardResolver{r} }

// NetworkGiftcardHold returns NetworkGiftcardHoldResolver implementation.
func (r *Resolver) NetworkGiftcardHold() NetworkGiftcardHoldResolver {
	return &networkGiftcardHoldResolver{r}
}

// NetworkGiftcardUsage returns NetworkGiftcardUsageResolver implementation.
func (r *Resolver) NetworkGiftcardUsage() NetworkGiftcardUsageResolver {
	return &networkGiftcardUsageResolver{r}
}

// NetworkPartner returns NetworkPartnerResolver implementation.
func (r *Resolver) NetworkPartner() NetworkPartnerResolver { return &networkPartnerResolver{r} }

// NetworkVoucher returns NetworkVoucherResolver implementation.
func (r *Resolver) NetworkVoucher() NetworkVoucherResolver { return &networkVoucherResolver{r} }

// NetworkVoucherBox returns NetworkVoucherBoxResolver implementation.
func (r *Resolver) NetworkVoucherBox() NetworkVoucherBoxResolver {
	return &networkVoucherBoxResolver{r}
}

// NetworkVoucherBoxOffer returns NetworkVoucherBoxOfferResolver implementation.
func (r *Resolver) NetworkVoucherBoxOffer() NetworkVoucherBoxOfferResolver {
	return &networkVoucherBoxOfferResolver{r}
}

// NetworkVoucherUsage returns NetworkVoucherUsageResolver implementation.
func (r *Resolver) NetworkVoucherUsage() NetworkVoucherUsageResolver {
	return &networkVoucherUsageResolver{r}
}

type (
	networkErrorResolver           struct{ *Resolver }
	networkGiftcardResolver        struct{ *Resolver }
	networkGiftcardHoldResolver    struct{ *Resolver }
	networkGiftcardUsageResolver   struct{ *Resolver }
	networkPartnerResolver         struct{ *Resolver }
	networkVoucherResolver         struct{ *Resolver }
	networkVoucherBoxResolver      struct{ *Resolver }
	networkVoucherBoxOfferResolver struct{ *Resolver }
	networkVoucherUsageResolver    struct{ *Resolver }
)
