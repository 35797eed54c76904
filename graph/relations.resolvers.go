package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/graph/model"

	"github.com/google/uuid"
)

// Partner is the resolver for the partner field.
func (r *adminGiftcardResolver) Partner(ctx context.Context, obj *model.AdminGiftcard) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, lenientID(obj.PartnerID))
}

// Prototype is the resolver for the prototype field.
func (r *adminVoucherResolver) Prototype(ctx context.Context, obj *model.AdminVoucher) (*model.AdminVoucherPrototype, error) {
	p, err := loadersFrom(ctx).adminPrototypes.Load(ctx, lenientID(obj.VoucherPrototypeID))
	return toGraphAdminPrototype(p), err
}

// Option is the resolver for the option field.
func (r *adminVoucherOptionResolver) Option(ctx context.Context, obj *model.AdminVoucherOption) (*model.VoucherOption, error) {
	o, err := loadersFrom(ctx).options.Load(ctx, lenientID(obj.OptionID))
	if err != nil || o == nil {
		return nil, err
	}
	return toGraphVoucherOption(o), nil
}

// Partner is the resolver for the partner field.
func (r *adminVoucherPrototypeResolver) Partner(ctx context.Context, obj *model.AdminVoucherPrototype) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, obj.PartnerID)
}

// Images is the resolver for the images field.
func (r *adminVoucherPrototypeResolver) Images(ctx context.Context, obj *model.AdminVoucherPrototype) ([]*model.Media, error) {
	ms, err := loadersFrom(ctx).media.LoadAll(ctx, obj.ImageIDs)
	if err != nil {
		return nil, err
	}
	out := make([]*model.Media, 0, len(ms))
	for _, m := range ms {
		if m != nil {
			out = append(out, r.toGraphMedia(m))
		}
	}
	return out, nil
}

// CoverImage is the resolver for the coverImage field.
func (r *adminVoucherPrototypeResolver) CoverImage(ctx context.Context, obj *model.AdminVoucherPrototype) (*model.Media, error) {
	if obj.CoverMediaID == nil {
		return nil, nil
	}
	m, err := loadersFrom(ctx).media.Load(ctx, *obj.CoverMediaID)
	if err != nil || m == nil {
		return nil, err
	}
	return r.toGraphMedia(m), nil
}

// Partner is the resolver for the partner field.
func (r *mediaResolver) Partner(ctx context.Context, obj *model.Media) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, lenientID(obj.PartnerID))
}

// Marketplace is the resolver for the marketplace field.
func (r *networkGiftcardResolver) Marketplace(ctx context.Context, obj *model.NetworkGiftcard) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, lenientID(obj.MarketplaceID))
}

// Marketplace is the resolver for the marketplace field.
func (r *networkPartnerResolver) Marketplace(ctx context.Context, obj *model.NetworkPartner) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, lenientID(obj.MarketplaceID))
}

// Marketplace is the resolver for the marketplace field.
func (r *networkVoucherResolver) Marketplace(ctx context.Context, obj *model.NetworkVoucher) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, lenientID(obj.MarketplaceID))
}

// Marketplace is the resolver for the marketplace field.
func (r *networkVoucherBoxResolver) Marketplace(ctx context.Context, obj *model.NetworkVoucherBox) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, lenientID(obj.MarketplaceID))
}

// Partner is the resolver for the partner field.
func (r *optionCategoryResolver) Partner(ctx context.Context, obj *model.OptionCategory) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, lenientID(obj.PartnerID))
}

// VoucherPrototypes is the resolver for the voucherPrototypes field.
func (r *partnerResolver) VoucherPrototypes(ctx context.Context, obj *model.Partner, first *int, after *string, last *int, before *string, filter *model.AdminVoucherPrototypeFilter, orderBy *model.AdminVoucherPrototypeOrder) (*model.AdminVoucherPrototypeConnection, error) {
	id, err := partnerKey(obj)
	if err != nil {
		return nil, err
	}
	return r.adminPrototypeConnection(ctx, id, pageArgs{first, after, last, before}, filter, orderBy)
}

// Vouchers is the resolver for the vouchers field.
func (r *partnerResolver) Vouchers(ctx context.Context, obj *model.Partner, filter *model.AdminVoucherFilter, orderBy []*model.AdminVoucherOrder, first *int, after *string, last *int, before *string) (*model.AdminVoucherConnection, error) {
	id, err := partnerKey(obj)
	if err != nil {
		return nil, err
	}
	return r.adminVoucherConnection(ctx, id, filter, orderBy, pageArgs{first, after, last, before})
}

// Giftcards is the resolver for the giftcards field.
func (r *partnerResolver) Giftcards(ctx context.Context, obj *model.Partner, filter *model.AdminGiftcardFilter, orderBy []*model.AdminGiftcardOrder, first *int, after *string, last *int, before *string) (*model.AdminGiftcardConnection, error) {
	id, err := partnerKey(obj)
	if err != nil {
		return nil, err
	}
	return r.adminGiftcardConnection(ctx, id, filter, orderBy, pageArgs{first, after, last, before})
}

// Media is the resolver for the media field.
func (r *partnerResolver) Media(ctx context.Context, obj *model.Partner, first *int, after *string, last *int, before *string, filter *model.MediaFilter, orderBy *model.MediaOrder) (*model.MediaConnection, error) {
	id, err := partnerKey(obj)
	if err != nil {
		return nil, err
	}
	return r.mediaConnection(ctx, id, pageArgs{first, after, last, before}, filter, orderBy)
}

// Options is the resolver for the options field.
func (r *partnerResolver) Options(ctx context.Context, obj *model.Partner, first *int, after *string, last *int, before *string, filter *model.AdminOptionFilter, orderBy *model.AdminOptionOrder) (*model.VoucherOptionConnection, error) {
	id, err := partnerKey(obj)
	if err != nil {
		return nil, err
	}
	return r.optionConnection(ctx, id, pageArgs{first, after, last, before}, filter, orderBy)
}

// OptionCategories is the resolver for the optionCategories field.
func (r *partnerResolver) OptionCategories(ctx context.Context, obj *model.Partner, first *int, after *string, last *int, before *string, filter *model.AdminOptionCategoryFilter, orderBy *model.AdminOptionOrder) (*model.OptionCategoryConnection, error) {
	id, err := partnerKey(obj)
	if err != nil {
		return nil, err
	}
	return r.optionCategoryConnection(ctx, id, pageArgs{first, after, last, before}, filter, orderBy)
}

// AdminPartner is the resolver for the adminPartner field.
func (r *queryResolver) AdminPartner(ctx context.Context, id *string, uuid *uuid.UUID) (*model.Partner, error) {
	switch {
	case (id == nil) == (uuid == nil):
		return nil, argumentError("id", domain.VInvalid, "Give either id or uuid.")
	case uuid != nil:
		return r.adminPartner(ctx, *uuid)
	}
	key, err := globalKey("id", "Partner", *id)
	if err != nil {
		return nil, err
	}
	return r.adminPartner(ctx, mustUUID(key))
}

// Partner is the resolver for the partner field.
func (r *voucherOptionResolver) Partner(ctx context.Context, obj *model.VoucherOption) (*model.Partner, error) {
	return r.loadAdminPartner(ctx, obj.PartnerID)
}
