package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/graph/model"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
)

// CreatePayment is the resolver for the createPayment field.
func (r *mutationResolver) CreatePayment(ctx context.Context, input model.CreatePaymentInput, idempotencyKey *string) (*model.PaymentPayload, error) {
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
	return paymentPayload(r.Payments.CreatePayment(ctx, createPaymentInput(input, partner)))
}

// UpdatePaymentFreezeDate is the resolver for the updatePaymentFreezeDate field.
func (r *mutationResolver) UpdatePaymentFreezeDate(ctx context.Context, input model.UpdatePaymentFreezeDateInput) (*model.PaymentPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPaymentUpdate); err != nil { // before reading the input
		return nil, err
	}
	id, err := paymentUUID(input.PaymentID)
	if err != nil {
		return nil, err
	}
	var in payments.FreezeDateInput
	in.FreezePayoutDate = localTime(graphql.OmittableOf(&input.FreezePayoutDate), &in.Refusals)
	return paymentPayload(r.Payments.UpdateFreezeDate(ctx, id, in))
}

// RefundPayment is the resolver for the refundPayment field.
func (r *mutationResolver) RefundPayment(ctx context.Context, input model.RefundPaymentInput, idempotencyKey *string) (*model.RefundPaymentPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPaymentRefund); err != nil { // before reading the input
		return nil, err
	}
	id, err := paymentUUID(input.PaymentID)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	ref, err := r.Payments.RefundPayment(ctx, id, refundInput(input))
	out, ue, err := payloadOf(ref, err, toGraphRefund)
	if err != nil || out == nil {
		return &model.RefundPaymentPayload{UserErrors: ue, Errors: ue}, err
	}
	p, err := r.payment(ctx, id)
	if err != nil {
		return nil, err
	}
	return &model.RefundPaymentPayload{Refund: out, Payment: p, UserErrors: ue, Errors: ue}, nil
}

// Partner is the resolver for the partner field.
func (r *paymentResolver) Partner(ctx context.Context, obj *model.Payment) (*model.PaymentPartner, error) {
	return r.relatedPaymentPartner(ctx, obj.PartnerUUID)
}

// ExtraSourceWallet is the resolver for the extraSourceWallet field.
func (r *paymentResolver) ExtraSourceWallet(ctx context.Context, obj *model.Payment) (*model.Wallet, error) {
	if obj.ExtraSourceWalletUUID == nil {
		return nil, nil
	}
	w, err := r.wallet(ctx, *obj.ExtraSourceWalletUUID)
	if domain.IsCode(err, domain.CodeNotFound) { // the caller may not read it
		return nil, nil
	}
	return w, err
}

// Transactions is the resolver for the transactions field.
func (r *paymentResolver) Transactions(ctx context.Context, obj *model.Payment) ([]*model.PaymentTransaction, error) {
	ts, err := loadersFrom(ctx).paymentTransactions.Load(ctx, obj.UUID)
	if err != nil {
		return nil, err
	}
	out := make([]*model.PaymentTransaction, len(ts))
	for i, t := range ts {
		out[i] = toGraphPaymentTransaction(t)
	}
	return out, nil
}

// Refunds is the resolver for the refunds field.
func (r *paymentResolver) Refunds(ctx context.Context, obj *model.Payment) ([]*model.Refund, error) {
	rs, err := loadersFrom(ctx).paymentRefunds.Load(ctx, obj.UUID)
	if err != nil {
		return nil, err
	}
	out := make([]*model.Refund, len(rs))
	for i, ref := range rs {
		out[i] = toGraphRefund(ref)
	}
	return out, nil
}

// Payment is the resolver for the payment field.
func (r *queryResolver) Payment(ctx context.Context, uuid uuid.UUID) (*model.Payment, error) {
	return r.payment(ctx, uuid)
}

// Payments is the resolver for the payments field.
func (r *queryResolver) Payments(ctx context.Context, filter *model.PaymentFilter, first *int, after *string, last *int, before *string) (*model.PaymentConnection, error) {
	in, err := paymentFilter(filter)
	if err != nil {
		return nil, err
	}
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*payments.Payment], error) {
		return r.Resolver.Payments.Payments(ctx, in, p)
	})
	if err != nil {
		return nil, err
	}
	return paymentConnection(w, page), nil
}

// Payment returns PaymentResolver implementation.
func (r *Resolver) Payment() PaymentResolver { return &paymentResolver{r} }

type paymentResolver struct{ *Resolver }
