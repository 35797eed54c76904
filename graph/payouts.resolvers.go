package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/graph/model"
)

// ValidatePayoutRequest is the resolver for the validatePayoutRequest field.
func (r *mutationResolver) ValidatePayoutRequest(ctx context.Context, input model.ValidatePayoutRequestInput, idempotencyKey *string) (*model.PayoutRequestPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPayoutValidate); err != nil { // before reading the input
		return nil, err
	}
	id, err := recordID("PayoutRequest", input.PayoutRequestID)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return payoutRequestPayload(r.Payouts.ValidatePayout(ctx, id, payoutChange(input.Reason)))
}

// MarkPayoutRequestPaid is the resolver for the markPayoutRequestPaid field.
func (r *mutationResolver) MarkPayoutRequestPaid(ctx context.Context, input model.MarkPayoutRequestPaidInput, idempotencyKey *string) (*model.PayoutRequestPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPayoutValidate); err != nil { // before reading the input
		return nil, err
	}
	id, err := recordID("PayoutRequest", input.PayoutRequestID)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return payoutRequestPayload(r.Payouts.MarkPayoutPaid(ctx, id, payoutChange(input.Reason)))
}

// Partner is the resolver for the partner field.
func (r *payoutRequestResolver) Partner(ctx context.Context, obj *model.PayoutRequest) (*model.PaymentPartner, error) {
	return r.relatedPaymentPartner(ctx, obj.PartnerUUID)
}

// Payments is the resolver for the payments field.
func (r *payoutRequestResolver) Payments(ctx context.Context, obj *model.PayoutRequest, first *int, after *string, last *int, before *string) (*model.PaymentConnection, error) {
	id, err := parseID(obj.ID)
	if err != nil {
		return nil, err
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*payments.Payment], error) {
		return r.Payouts.PayoutPayments(ctx, id, p)
	})
	if err != nil {
		return nil, err
	}
	return paymentConnection(w, page), nil
}

// Usages is the resolver for the usages field.
func (r *payoutRequestResolver) Usages(ctx context.Context, obj *model.PayoutRequest, first *int, after *string, last *int, before *string) (*model.NetworkGiftcardUsageConnection, error) {
	id, err := parseID(obj.ID)
	if err != nil {
		return nil, err
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*network.Usage], error) {
		return r.Payouts.PayoutUsages(ctx, id, p)
	})
	if err != nil {
		return nil, err
	}
	return networkUsageConnection(w, page), nil
}

// PayoutRequest is the resolver for the payoutRequest field.
func (r *queryResolver) PayoutRequest(ctx context.Context, id string) (*model.PayoutRequest, error) {
	key, err := lookupKey("PayoutRequest", id)
	if err != nil {
		return nil, err
	}
	return r.payoutRequest(ctx, key)
}

// PayoutRequests is the resolver for the payoutRequests field.
func (r *queryResolver) PayoutRequests(ctx context.Context, filter *model.PayoutRequestFilter, first *int, after *string, last *int, before *string) (*model.PayoutRequestConnection, error) {
	in, err := payoutFilter(filter)
	if err != nil {
		return nil, err
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*payments.Payout], error) {
		return r.Payouts.Payouts(ctx, in, p)
	})
	if err != nil {
		return nil, err
	}
	return payoutRequestConnection(w, page), nil
}

// PayoutRequest returns PayoutRequestResolver implementation.
func (r *Resolver) PayoutRequest() PayoutRequestResolver { return &payoutRequestResolver{r} }

type payoutRequestResolver struct{ *Resolver }
