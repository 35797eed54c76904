package graph

// The lists of the administration areas, shared by the top-level queries
// and a Partner's fields (partnerID set): the same domain method with the
// same filters, the partner as one more filter.

import (
	"context"

	"salesplatform/domain"
	"salesplatform/domain/media"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
	"salesplatform/graph/model"
)

// loadAdminPartner is the partner of an administration record, through the
// request's loader; null when the caller does not see it.
func (r *Resolver) loadAdminPartner(ctx context.Context, id int64) (*model.Partner, error) {
	p, err := loadersFrom(ctx).adminPartners.Load(ctx, id)
	return toGraphPartner(p), err
}

// The ids keyset cursors carry (readKeyset).
func adminVoucherID(v *vouchers.AdminVoucher) int64   { return v.ID }
func adminGiftcardID(g *vouchers.AdminGiftcard) int64 { return g.ID }
func mediaID(m media.Media) int64                     { return m.ID }

// partnerCurrency is the currency of the amounts of a record of the
// partner with that id (the administration records' currencyCode), read
// through the partners' loader.
func (r *Resolver) partnerCurrency(ctx context.Context, partnerID int64) (model.CurrencyCode, error) {
	p, err := loadersFrom(ctx).adminPartners.Load(ctx, partnerID)
	if err := found(p, err); err != nil {
		return "", err
	}
	return model.CurrencyCode(p.PriceCurrency()), nil
}

// partnerKey is a graph Partner's id as the domain's partner filter.
func partnerKey(p *model.Partner) (*int64, error) {
	id, err := parseID(p.ID)
	return &id, err
}

func (r *Resolver) adminPrototypeConnection(ctx context.Context, partnerID *int64, args pageArgs, filter *model.AdminVoucherPrototypeFilter, orderBy *model.AdminVoucherPrototypeOrder) (*model.AdminVoucherPrototypeConnection, error) {
	f, err := adminPrototypeFilter(filter, orderBy)
	if err != nil {
		return nil, err
	}
	f.PartnerID = partnerID
	w, page, err := readWindow(args, func(req domain.PageRequest) (*domain.Page[*prototypes.AdminVoucherPrototype], error) {
		return r.AdminPrototypes.VoucherPrototypes(ctx, f, req)
	})
	if err != nil {
		return nil, err
	}
	edges, info := connect(w, page, func(c string, p *prototypes.AdminVoucherPrototype) *model.AdminVoucherPrototypeEdge {
		return &model.AdminVoucherPrototypeEdge{Cursor: c, Node: toGraphAdminPrototype(p)}
	})
	return &model.AdminVoucherPrototypeConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

func (r *Resolver) adminVoucherConnection(ctx context.Context, partnerID *int64, filter *model.AdminVoucherFilter, orderBy []*model.AdminVoucherOrder, args pageArgs) (*model.AdminVoucherConnection, error) {
	in := toDomainVoucherList(filter, orderBy)
	in.PartnerID = partnerID
	w, page, err := readKeyset(ctx, args, adminVoucherID, func(p domain.PageRequest) (*domain.Page[*vouchers.AdminVoucher], error) {
		return r.VoucherAdmin.Vouchers(ctx, in, p)
	})
	if err != nil {
		return nil, voucherListArguments(err)
	}
	edges, info := connect(w, page, func(cursor string, v *vouchers.AdminVoucher) *model.AdminVoucherEdge {
		return &model.AdminVoucherEdge{Cursor: cursor, Node: toGraphAdminVoucher(v)}
	})
	return &model.AdminVoucherConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

func (r *Resolver) adminGiftcardConnection(ctx context.Context, partnerID *int64, filter *model.AdminGiftcardFilter, orderBy []*model.AdminGiftcardOrder, args pageArgs) (*model.AdminGiftcardConnection, error) {
	in := vouchers.GiftcardListInput{PartnerID: partnerID, Ordering: toGiftcardOrdering(orderBy)}
	if filter != nil {
		if s := opt(filter.CreatedOnGte); s != nil {
			in.CreatedOnGte = *s
		}
		if s := opt(filter.CreatedOnLte); s != nil {
			in.CreatedOnLte = *s
		}
	}
	w, page, err := readKeyset(ctx, args, adminGiftcardID, func(p domain.PageRequest) (*domain.Page[*vouchers.AdminGiftcard], error) {
		return r.VoucherAdmin.Giftcards(ctx, in, p)
	})
	if err != nil {
		return nil, voucherListArguments(err)
	}
	edges, info := connect(w, page, func(cursor string, g *vouchers.AdminGiftcard) *model.AdminGiftcardEdge {
		return &model.AdminGiftcardEdge{Cursor: cursor, Node: toGraphAdminGiftcard(g)}
	})
	return &model.AdminGiftcardConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

func (r *Resolver) mediaConnection(ctx context.Context, partnerID *int64, args pageArgs, filter *model.MediaFilter, orderBy *model.MediaOrder) (*model.MediaConnection, error) {
	f := mediaFilter(filter, orderBy)
	f.PartnerID = partnerID
	w, page, err := readKeyset(ctx, args, mediaID, func(p domain.PageRequest) (*domain.Page[media.Media], error) {
		return r.MediaLibrary.List(ctx, f, p)
	})
	if err != nil {
		return nil, err
	}
	edges, info := connect(w, page, func(cursor string, m media.Media) *model.MediaEdge {
		return &model.MediaEdge{Cursor: cursor, Node: r.toGraphMedia(&m)}
	})
	return &model.MediaConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

func (r *Resolver) optionConnection(ctx context.Context, partnerID *int64, args pageArgs, filter *model.AdminOptionFilter, orderBy *model.AdminOptionOrder) (*model.VoucherOptionConnection, error) {
	f, err := adminOptionFilter(filter, orderBy)
	if err != nil {
		return nil, err
	}
	f.PartnerID = partnerID
	w, page, err := readWindow(args, func(req domain.PageRequest) (*domain.Page[*vouchers.VoucherOption], error) {
		return r.AdminPrototypes.Options(ctx, f, req)
	})
	if err != nil {
		return nil, err
	}
	return toGraphOptionConnection(w, page), nil
}

func toGraphOptionConnection(w window, page *domain.Page[*vouchers.VoucherOption]) *model.VoucherOptionConnection {
	edges, info := connect(w, page, func(c string, o *vouchers.VoucherOption) *model.VoucherOptionEdge {
		return &model.VoucherOptionEdge{Cursor: c, Node: toGraphVoucherOption(o)}
	})
	return &model.VoucherOptionConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

func (r *Resolver) optionCategoryConnection(ctx context.Context, partnerID *int64, args pageArgs, filter *model.AdminOptionCategoryFilter, orderBy *model.AdminOptionOrder) (*model.OptionCategoryConnection, error) {
	f := adminOptionCategoryFilter(filter, orderBy)
	f.PartnerID = partnerID
	w, page, err := readWindow(args, func(req domain.PageRequest) (*domain.Page[*prototypes.OptionCategory], error) {
		return r.AdminPrototypes.OptionCategories(ctx, f, req)
	})
	if err != nil {
		return nil, err
	}
	edges, info := connect(w, page, func(c string, x *prototypes.OptionCategory) *model.OptionCategoryEdge {
		return &model.OptionCategoryEdge{Cursor: c, Node: toGraphOptionCategory(x)}
	})
	return &model.OptionCategoryConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}
