package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/graph/model"
	"strings"
)

// VoucherPrototype is the resolver for the voucherPrototype field.
func (r *adminVoucherResolver) VoucherPrototype(ctx context.Context, obj *model.AdminVoucher) (*model.AdminVoucherPrototype, error) {
	id, err := parseID(obj.VoucherPrototypeID)
	if err != nil {
		return nil, err
	}
	// The loader authorizes the read; a voucher's prototype is of the
	// voucher's partner, so whoever sees the voucher sees it.
	p, err := loadersFrom(ctx).adminPrototypes.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, domain.ErrNotFound
	}
	return toGraphAdminPrototype(p), nil
}

// UpdateVoucherState is the resolver for the updateVoucherState field.
func (r *mutationResolver) UpdateVoucherState(ctx context.Context, input model.UpdateVoucherStateInput) (*model.AdminVoucherPayload, error) {
	v, err := r.VoucherAdmin.UpdateVoucherState(ctx, input.Code, strings.ToLower(string(input.State)))
	return adminVoucherPayload(v, err)
}

// IssueVoucher is the resolver for the issueVoucher field.
func (r *mutationResolver) IssueVoucher(ctx context.Context, input model.IssueVoucherInput) (*model.AdminVoucherPayload, error) {
	return adminVoucherPayload(r.VoucherAdmin.IssueVoucher(ctx, toDomainIssueVoucher(input)))
}

// IssueGiftcard is the resolver for the issueGiftcard field.
func (r *mutationResolver) IssueGiftcard(ctx context.Context, input model.IssueGiftcardInput) (*model.AdminGiftcardPayload, error) {
	return adminGiftcardPayload(r.VoucherAdmin.IssueGiftcard(ctx, domain.IssueGiftcardInput{
		GiftcardPrototypeID: lenientID(input.GiftcardPrototypeID), Value: input.Value, Status: opt(input.Status),
		ExpiresOn: opt(input.ExpiresOn), GifterFirstName: opt(input.GifterFirstName), GifterLastName: opt(input.GifterLastName)}))
}

// AdminVouchers is the resolver for the adminVouchers field.
func (r *queryResolver) AdminVouchers(ctx context.Context, filter *model.AdminVoucherFilter, orderBy []*model.AdminVoucherOrder, first *int, after *string) (*model.AdminVoucherConnection, error) {
	w, err := newWindow(first, after)
	if err != nil {
		return nil, err
	}
	in := toDomainVoucherList(filter, orderBy)
	page, err := listPage(w, func(p domain.PageRequest) (*domain.Page[*domain.AdminVoucher], error) {
		return r.VoucherAdmin.Vouchers(ctx, in, p)
	})
	if err != nil {
		return nil, voucherListArguments(err)
	}
	edges, info := connect(w, page, func(cursor string, v *domain.AdminVoucher) *model.AdminVoucherEdge {
		return &model.AdminVoucherEdge{Cursor: cursor, Node: toGraphAdminVoucher(v)}
	})
	return &model.AdminVoucherConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

// AdminVoucher is the resolver for the adminVoucher field.
func (r *queryResolver) AdminVoucher(ctx context.Context, code string) (*model.AdminVoucher, error) {
	v, err := r.VoucherAdmin.Voucher(ctx, code)
	if err != nil {
		return nil, err
	}
	return toGraphAdminVoucher(v), nil
}

// AdminGiftcards is the resolver for the adminGiftcards field.
func (r *queryResolver) AdminGiftcards(ctx context.Context, filter *model.AdminGiftcardFilter, orderBy []*model.AdminGiftcardOrder, first *int, after *string) (*model.AdminGiftcardConnection, error) {
	w, err := newWindow(first, after)
	if err != nil {
		return nil, err
	}
	in := domain.GiftcardListInput{Ordering: toGiftcardOrdering(orderBy)}
	if filter != nil {
		if s := opt(filter.CreatedOnGte); s != nil {
			in.CreatedOnGte = *s
		}
		if s := opt(filter.CreatedOnLte); s != nil {
			in.CreatedOnLte = *s
		}
	}
	page, err := listPage(w, func(p domain.PageRequest) (*domain.Page[*domain.AdminGiftcard], error) {
		return r.VoucherAdmin.Giftcards(ctx, in, p)
	})
	if err != nil {
		return nil, voucherListArguments(err)
	}
	edges, info := connect(w, page, func(cursor string, g *domain.AdminGiftcard) *model.AdminGiftcardEdge {
		return &model.AdminGiftcardEdge{Cursor: cursor, Node: toGraphAdminGiftcard(g)}
	})
	return &model.AdminGiftcardConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

// AdminGiftcard is the resolver for the adminGiftcard field.
func (r *queryResolver) AdminGiftcard(ctx context.Context, id *string, code *string) (*model.AdminGiftcard, error) {
	var g *domain.AdminGiftcard
	var err error
	switch {
	case (id == nil) == (code == nil):
		return nil, argumentError("id", domain.VInvalid, "Give either id or code.")
	case id != nil:
		g, err = r.VoucherAdmin.Giftcard(ctx, lenientID(*id))
	default:
		g, err = r.VoucherAdmin.GiftcardByCode(ctx, *code)
	}
	if err != nil {
		return nil, err
	}
	return toGraphAdminGiftcard(g), nil
}

// AdminVoucher returns AdminVoucherResolver implementation.
func (r *Resolver) AdminVoucher() AdminVoucherResolver { return &adminVoucherResolver{r} }

type adminVoucherResolver struct{ *Resolver }
