package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/graph/model"
)

// CreatePaymentRequest is the resolver for the createPaymentRequest field.
func (r *mutationResolver) CreatePaymentRequest(ctx context.Context, input model.CreatePaymentRequestInput, idempotencyKey *string) (*model.PaymentRequestPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPaymentCreate); err != nil { // before reading the input
		return nil, err
	}
	partner, err := paymentPartnerUUID(input.PartnerID)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	pr, err := r.Payments.CreatePaymentRequest(ctx, createPaymentRequestInput(input, partner))
	out, ue, err := payloadOf(pr, err, toGraphPaymentRequest)
	return &model.PaymentRequestPayload{PaymentRequest: out, UserErrors: ue, Errors: ue}, err
}

// Partner is the resolver for the partner field.
func (r *paymentRequestResolver) Partner(ctx context.Context, obj *model.PaymentRequest) (*model.PaymentPartner, error) {
	return r.relatedPaymentPartner(ctx, obj.PartnerUUID)
}

// Payments is the resolver for the payments field.
func (r *paymentRequestResolver) Payments(ctx context.Context, obj *model.PaymentRequest, first *int, after *string, last *int, before *string) (*model.PaymentConnection, error) {
	id, err := parseID(obj.ID)
	if err != nil {
		return nil, err
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*payments.Payment], error) {
		return r.Resolver.Payments.PaymentRequestPayments(ctx, id, p)
	})
	if err != nil {
		return nil, err
	}
	return paymentConnection(w, page), nil
}

// PaymentRequest is the resolver for the paymentRequest field.
func (r *queryResolver) PaymentRequest(ctx context.Context, id string) (*model.PaymentRequest, error) {
	key, err := lookupKey("PaymentRequest", id)
	if err != nil {
		return nil, err
	}
	return r.paymentRequest(ctx, key)
}

// PaymentRequests is the resolver for the paymentRequests field.
func (r *queryResolver) PaymentRequests(ctx context.Context, search *string, first *int, after *string, last *int, before *string) (*model.PaymentRequestConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*payments.PaymentRequest], error) {
		return r.Resolver.Payments.PaymentRequests(ctx, text(search), p)
	})
	if err != nil {
		return nil, err
	}
	return paymentRequestConnection(w, page), nil
}

// PaymentRequest returns PaymentRequestResolver implementation.
func (r *Resolver) PaymentRequest() PaymentRequestResolver { return &paymentRequestResolver{r} }

type paymentRequestResolver struct{ *Resolver }
