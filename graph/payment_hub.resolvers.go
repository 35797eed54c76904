package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/graph/model"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
)

// Partner is the resolver for the partner field.
func (r *kycDocumentResolver) Partner(ctx context.Context, obj *model.KycDocument) (*model.PaymentPartner, error) {
	return r.relatedPaymentPartner(ctx, obj.PartnerUUID)
}

// Partner is the resolver for the partner field.
func (r *multiProductCartResolver) Partner(ctx context.Context, obj *model.MultiProductCart) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, obj.PartnerID)
}

// CreatePaymentPartner is the resolver for the createPaymentPartner field.
func (r *mutationResolver) CreatePaymentPartner(ctx context.Context, input model.CreatePaymentPartnerInput, idempotencyKey *string) (*model.PaymentPartnerPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPaymentPartnerCreate); err != nil { // before reading the input
		return nil, err
	}
	referrer, err := r.partnerRecordID(ctx, opt(input.ReferrerID))
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	return paymentPartnerPayload(r.PaymentPartners.CreatePartner(ctx, createPaymentPartnerInput(input, referrer)))
}

// UpdatePaymentPartner is the resolver for the updatePaymentPartner field.
func (r *mutationResolver) UpdatePaymentPartner(ctx context.Context, input model.UpdatePaymentPartnerInput) (*model.PaymentPartnerPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead); err != nil { // before reading the input
		return nil, err
	}
	id, err := paymentPartnerUUID(input.PartnerID)
	if err != nil {
		return nil, err
	}
	referrer, err := r.partnerRecordID(ctx, opt(input.ReferrerID))
	if err != nil {
		return nil, err
	}
	return paymentPartnerPayload(r.PaymentPartners.UpdatePartner(ctx, id, updatePaymentPartnerInput(input, referrer)))
}

// ActivatePartnerPayments is the resolver for the activatePartnerPayments field.
func (r *mutationResolver) ActivatePartnerPayments(ctx context.Context, input model.ActivatePartnerPaymentsInput, idempotencyKey *string) (*model.PaymentActivationPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead); err != nil { // before reading the input
		return nil, err
	}
	id, err := paymentPartnerUUID(input.PartnerID)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	a, err := r.PaymentPartners.ActivatePayments(ctx, id)
	out, ue, err := payloadOf(a, err, toGraphActivation)
	return &model.PaymentActivationPayload{Activation: out, UserErrors: ue, Errors: ue}, err
}

// UploadKycDocument is the resolver for the uploadKycDocument field.
func (r *mutationResolver) UploadKycDocument(ctx context.Context, input model.UploadKycDocumentInput, idempotencyKey *string) (*model.KycDocumentPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPaymentPartnerRead); err != nil { // before reading the input
		return nil, err
	}
	ctx, err := withIdempotencyKey(ctx, idempotencyKey)
	if err != nil {
		return nil, err
	}
	in := payments.KYCUpload{Comment: domain.Some(input.Comment), DocumentType: domain.Some(string(input.DocumentType)),
		File: input.File.File, Files: 1}
	in.PartnerUUID = uuidRef(filterKey("PaymentPartner", input.PartnerID), "partner_uuid", &in.Refusals)
	d, err := r.PaymentPartners.UploadKYCDocument(ctx, in)
	out, ue, err := payloadOf(d, err, toGraphKYCDocument)
	return &model.KycDocumentPayload{KycDocument: out, UserErrors: ue, Errors: ue}, err
}

// CreateMultiProductCart is the resolver for the createMultiProductCart field.
func (r *mutationResolver) CreateMultiProductCart(ctx context.Context, input model.CreateMultiProductCartInput, idempotencyKey *string) (*model.MultiProductCartPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpMultiProductCartCreate); err != nil { // before reading the input
		return nil, err
	}
	partner, err := r.partnerRef(ctx, graphql.OmittableOf(&input.PartnerID), nil)
	if err != nil {
		return nil, err
	}
	if ctx, err = withIdempotencyKey(ctx, idempotencyKey); err != nil {
		return nil, err
	}
	in, err := createMultiProductCartInput(input, partner)
	if err != nil {
		return multiProductCartPayload(nil, err)
	}
	return multiProductCartPayload(r.MultiProductCarts.CreateCart(ctx, in))
}

// Partner is the resolver for the partner field.
func (r *paymentActivationResolver) Partner(ctx context.Context, obj *model.PaymentActivation) (*model.PaymentPartner, error) {
	return r.relatedPaymentPartner(ctx, obj.PartnerUUID)
}

// Field is the resolver for the field field.
func (r *paymentHubErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *paymentHubErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.PaymentHubErrorCode, error) {
	return errorCode[model.PaymentHubErrorCode](obj.Code), nil
}

// PaymentPartner is the resolver for the paymentPartner field.
func (r *queryResolver) PaymentPartner(ctx context.Context, uuid uuid.UUID) (*model.PaymentPartner, error) {
	return r.paymentPartner(ctx, uuid)
}

// Wallet is the resolver for the wallet field.
func (r *queryResolver) Wallet(ctx context.Context, uuid uuid.UUID) (*model.Wallet, error) {
	return r.wallet(ctx, uuid)
}

// MultiProductCart is the resolver for the multiProductCart field.
func (r *queryResolver) MultiProductCart(ctx context.Context, id string) (*model.MultiProductCart, error) {
	key, err := lookupKey("MultiProductCart", id)
	if err != nil {
		return nil, err
	}
	return r.multiProductCart(ctx, key)
}

// Partner is the resolver for the partner field.
func (r *walletResolver) Partner(ctx context.Context, obj *model.Wallet) (*model.PaymentPartner, error) {
	id, err := uuid.Parse(obj.PartnerUUID)
	if err != nil { // not a partner's wallet
		return nil, nil
	}
	return r.relatedPaymentPartner(ctx, id)
}

// NetworkGiftcard is the resolver for the networkGiftcard field.
func (r *walletResolver) NetworkGiftcard(ctx context.Context, obj *model.Wallet) (*model.NetworkGiftcard, error) {
	if obj.CardID == 0 {
		return nil, nil
	}
	return r.loadNetworkGiftcard(ctx, idString(obj.CardID))
}

// Movements is the resolver for the movements field.
func (r *walletResolver) Movements(ctx context.Context, obj *model.Wallet, first *int, after *string, last *int, before *string) (*model.WalletMovementConnection, error) {
	w, page, err := readWindow(pageArgs{first, after, last, before}, func(p domain.PageRequest) (*domain.Page[*payments.Movement], error) {
		return r.Wallets.Movements(ctx, obj.UUID, p)
	})
	if err != nil {
		return nil, err
	}
	return walletMovementConnection(w, page), nil
}

// KycDocument returns KycDocumentResolver implementation.
func (r *Resolver) KycDocument() KycDocumentResolver { return &kycDocumentResolver{r} }

// MultiProductCart returns MultiProductCartResolver implementation.
func (r *Resolver) MultiProductCart() MultiProductCartResolver { return &multiProductCartResolver{r} }

// PaymentActivation returns PaymentActivationResolver implementation.
func (r *Resolver) PaymentActivation() PaymentActivationResolver {
	return &paymentActivationResolver{r}
}

// PaymentHubError returns PaymentHubErrorResolver implementation.
func (r *Resolver) PaymentHubError() PaymentHubErrorResolver { return &paymentHubErrorResolver{r} }

// Wallet returns WalletResolver implementation.
func (r *Resolver) Wallet() WalletResolver { return &walletResolver{r} }

type (
	kycDocumentResolver       struct{ *Resolver }
	multiProductCartResolver  struct{ *Resolver }
	paymentActivationResolver struct{ *Resolver }
	paymentHubErrorResolver   struct{ *Resolver }
	walletResolver            struct{ *Resolver }
)
