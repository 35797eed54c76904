package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/vouchers"
	"salesplatform/graph/model"
	"strings"
)

// CurrencyCode is the resolver for the currencyCode field.
func (r *adminGiftcardResolver) CurrencyCode(ctx context.Context, obj *model.AdminGiftcard) (model.CurrencyCode, error) {
	return r.partnerCurrency(ctx, lenientID(obj.PartnerID))
}

// CurrencyCode is the resolver for the currencyCode field.
func (r *adminVoucherResolver) CurrencyCode(ctx context.Context, obj *model.AdminVoucher) (model.CurrencyCode, error) {
	return r.partnerCurrency(ctx, obj.PartnerID)
}

// UpdateVoucherState is the resolver for the updateVoucherState field.
func (r *mutationResolver) UpdateVoucherState(ctx context.Context, input model.UpdateVoucherStateInput) (*model.AdminVoucherPayload, error) {
	v, err := r.VoucherAdmin.UpdateVoucherState(ctx, input.Code, vouchers.StateInput{State: domain.Some(strings.ToLower(string(input.State)))})
	return adminVoucherPayload(v, err)
}

// IssueVoucher is the resolver for the issueVoucher field.
func (r *mutationResolver) IssueVoucher(ctx context.Context, input model.IssueVoucherInput) (*model.AdminVoucherPayload, error) {
	return adminVoucherPayload(r.VoucherAdmin.IssueVoucher(ctx, toDomainIssueVoucher(input)))
}

// IssueGiftcard is the resolver for the issueGiftcard field.
func (r *mutationResolver) IssueGiftcard(ctx context.Context, input model.IssueGiftcardInput) (*model.AdminGiftcardPayload, error) {
	return adminGiftcardPayload(r.VoucherAdmin.IssueGiftcard(ctx, vouchers.IssueGiftcardInput{
		GiftcardPrototypeID: refRecordID("GiftcardPrototype", input.GiftcardPrototypeID), Value: input.Value, Status: opt(input.Status),
		ExpiresOn: opt(input.ExpiresOn), GifterFirstName: opt(input.GifterFirstName), GifterLastName: opt(input.GifterLastName)}))
}

// AdminVouchers is the resolver for the adminVouchers field.
func (r *queryResolver) AdminVouchers(ctx context.Context, filter *model.AdminVoucherFilter, orderBy []*model.AdminVoucherOrder, first *int, after *string, last *int, before *string) (*model.AdminVoucherConnection, error) {
	return r.adminVoucherConnection(ctx, nil, filter, orderBy, pageArgs{first, after, last, before})
}

// AdminVoucher is the resolver for the adminVoucher field.
func (r *queryResolver) AdminVoucher(ctx context.Context, id *string, code *string) (*model.AdminVoucher, error) {
	switch {
	case (id == nil) == (code == nil):
		return nil, argumentError("id", domain.VInvalid, "Give either id or code.")
	case code != nil:
		return r.adminVoucher(ctx, *code)
	}
	key, err := globalKey("id", "AdminVoucher", *id)
	if err != nil {
		return nil, err
	}
	return r.adminVoucher(ctx, key)
}

// AdminGiftcards is the resolver for the adminGiftcards field.
func (r *queryResolver) AdminGiftcards(ctx context.Context, filter *model.AdminGiftcardFilter, orderBy []*model.AdminGiftcardOrder, first *int, after *string, last *int, before *string) (*model.AdminGiftcardConnection, error) {
	return r.adminGiftcardConnection(ctx, nil, filter, orderBy, pageArgs{first, after, last, before})
}

// AdminGiftcard is the resolver for the adminGiftcard field.
func (r *queryResolver) AdminGiftcard(ctx context.Context, id *string, code *string) (*model.AdminGiftcard, error) {
	switch {
	case (id == nil) == (code == nil):
		return nil, argumentError("id", domain.VInvalid, "Give either id or code.")
	case code != nil:
		g, err := r.VoucherAdmin.GiftcardByCode(ctx, *code)
		if err != nil {
			return nil, err
		}
		return toGraphAdminGiftcard(g), nil
	}
	key, err := lookupKey("AdminGiftcard", *id)
	if err != nil {
		return nil, err
	}
	return r.adminGiftcard(ctx, key)
}

// Field is the resolver for the field field.
func (r *voucherErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *voucherErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.VoucherErrorCode, error) {
	return errorCode[model.VoucherErrorCode](obj.Code), nil
}

// AdminGiftcard returns AdminGiftcardResolver implementation.
func (r *Resolver) AdminGiftcard() AdminGiftcardResolver { return &adminGiftcardResolver{r} }

// AdminVoucher returns AdminVoucherResolver implementation.
func (r *Resolver) AdminVoucher() AdminVoucherResolver { return &adminVoucherResolver{r} }

// AdminVoucherOption returns AdminVoucherOptionResolver implementation.
func (r *Resolver) AdminVoucherOption() AdminVoucherOptionResolver {
	return &adminVoucherOptionResolver{r}
}

// VoucherError returns VoucherErrorResolver implementation.
func (r *Resolver) VoucherError() VoucherErrorResolver { return &voucherErrorResolver{r} }

type (
	adminGiftcardResolver      struct{ *Resolver }
	adminVoucherResolver       struct{ *Resolver }
	adminVoucherOptionResolver struct{ *Resolver }
	voucherErrorResolver       struct{ *Resolver }
)
