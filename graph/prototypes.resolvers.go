package graph

import (
	"context"
	"salesplatform/domain"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
	"salesplatform/graph/model"
)

// Universe is the resolver for the universe field.
func (r *adminVoucherPrototypeResolver) Universe(ctx context.Context, obj *model.AdminVoucherPrototype) (*model.UniverseRecord, error) {
	if obj.UniverseID == nil {
		return nil, nil
	}
	u, err := loadersFrom(ctx).adminUniverses.Load(ctx, *obj.UniverseID)
	if err != nil || u == nil {
		return nil, err
	}
	return toGraphUniverseRecord(u), nil
}

// Options is the resolver for the options field.
func (r *adminVoucherPrototypeResolver) Options(ctx context.Context, obj *model.AdminVoucherPrototype, first *int, after *string, last *int, before *string) (*model.PrototypeOptionLinkConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).prototypeOptions, obj.ID, pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	edges, info := connect(w, page, func(c string, l *prototypes.PrototypeOptionLink) *model.PrototypeOptionLinkEdge {
		return &model.PrototypeOptionLinkEdge{Cursor: c, Node: toGraphOptionLink(l)}
	})
	return &model.PrototypeOptionLinkConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}, nil
}

// CurrencyCode is the resolver for the currencyCode field.
func (r *adminVoucherPrototypeResolver) CurrencyCode(ctx context.Context, obj *model.AdminVoucherPrototype) (model.CurrencyCode, error) {
	return r.partnerCurrency(ctx, obj.PartnerID)
}

// CreateVoucherPrototype is the resolver for the createVoucherPrototype field.
func (r *mutationResolver) CreateVoucherPrototype(ctx context.Context, input model.CreateVoucherPrototypeInput) (*model.AdminVoucherPrototypePayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPrototypeWrite); err != nil { // before reading the input
		return nil, err
	}
	partner, err := r.partnerRef(ctx, input.PartnerID, opt(input.PartnerUUID))
	if err != nil {
		return nil, err
	}
	in, err := createPrototypeInput(input, partner)
	if err != nil {
		return adminPrototypePayload(nil, err)
	}
	p, err := r.AdminPrototypes.CreateVoucherPrototype(ctx, in)
	return adminPrototypePayload(p, partnerErrors(err, "partner_uuid", input.PartnerID, input.PartnerUUID, "partnerUuid"))
}

// UpdateVoucherPrototype is the resolver for the updateVoucherPrototype field.
func (r *mutationResolver) UpdateVoucherPrototype(ctx context.Context, input model.UpdateVoucherPrototypeInput) (*model.AdminVoucherPrototypePayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpPrototypeWrite); err != nil { // before reading the input
		return nil, err
	}
	id, err := recordID("AdminVoucherPrototype", input.ID)
	if err != nil {
		return nil, err
	}
	in, err := updatePrototypeInput(input)
	if err != nil {
		return adminPrototypePayload(nil, err)
	}
	return adminPrototypePayload(r.AdminPrototypes.UpdateVoucherPrototype(ctx, id, in, true))
}

// CreateOption is the resolver for the createOption field.
func (r *mutationResolver) CreateOption(ctx context.Context, input model.CreateOptionInput) (*model.VoucherOptionPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpOptionWrite); err != nil { // before reading the input
		return nil, err
	}
	partner, err := r.partnerRef(ctx, input.PartnerID, opt(input.PartnerUUID))
	if err != nil {
		return nil, err
	}
	in, err := createOptionInput(input, partner)
	var o *vouchers.VoucherOption
	if err == nil {
		o, err = r.AdminPrototypes.CreateOption(ctx, in)
	}
	if err != nil {
		ue, err := userErrors(partnerErrors(err, "partner_uuid", input.PartnerID, input.PartnerUUID, "partnerUuid"))
		return &model.VoucherOptionPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.VoucherOptionPayload{Option: toGraphVoucherOption(o), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// CreateOptionCategory is the resolver for the createOptionCategory field.
func (r *mutationResolver) CreateOptionCategory(ctx context.Context, input model.CreateOptionCategoryInput) (*model.OptionCategoryPayload, error) {
	if _, err := domain.Authorize(ctx, domain.OpOptionWrite); err != nil { // before reading the input
		return nil, err
	}
	partner, err := r.partnerRef(ctx, input.PartnerID, opt(input.PartnerUUID))
	if err != nil {
		return nil, err
	}
	in, err := createOptionCategoryInput(input, partner)
	var c *prototypes.OptionCategory
	if err == nil {
		c, err = r.AdminPrototypes.CreateOptionCategory(ctx, in)
	}
	if err != nil {
		ue, err := userErrors(partnerErrors(err, "partner_uuid", input.PartnerID, input.PartnerUUID, "partnerUuid"))
		return &model.OptionCategoryPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.OptionCategoryPayload{OptionCategory: toGraphOptionCategory(c), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// SetPrototypeOption is the resolver for the setPrototypeOption field.
func (r *mutationResolver) SetPrototypeOption(ctx context.Context, input model.SetPrototypeOptionInput) (*model.PrototypeOptionLinkPayload, error) {
	prototypeID, err := recordID("AdminVoucherPrototype", input.PrototypeID)
	if err != nil {
		return nil, err
	}
	optionID, err := recordID("VoucherOption", input.OptionID)
	if err != nil {
		optionID = 0 // names no option: the service's field error
	}
	l, err := r.AdminPrototypes.SetPrototypeOption(ctx, prototypeID, optionID, input.Count, input.Included)
	if err != nil {
		ue, err := userErrors(err)
		return &model.PrototypeOptionLinkPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.PrototypeOptionLinkPayload{Link: toGraphOptionLink(l), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// Options is the resolver for the options field.
func (r *optionCategoryResolver) Options(ctx context.Context, obj *model.OptionCategory, first *int, after *string, last *int, before *string) (*model.VoucherOptionConnection, error) {
	w, page, err := loadPage(ctx, loadersFrom(ctx).categoryOptions, lenientID(obj.ID), pageArgs{first, after, last, before})
	if err != nil {
		return nil, err
	}
	return toGraphOptionConnection(w, page), nil
}

// Field is the resolver for the field field.
func (r *prototypeErrorResolver) Field(ctx context.Context, obj *model.UserError) ([]string, error) {
	return inputPath(ctx, obj.Field), nil
}

// Code is the resolver for the code field.
func (r *prototypeErrorResolver) Code(ctx context.Context, obj *model.UserError) (model.PrototypeErrorCode, error) {
	return errorCode[model.PrototypeErrorCode](obj.Code), nil
}

// AdminVoucherPrototypes is the resolver for the adminVoucherPrototypes field.
func (r *queryResolver) AdminVoucherPrototypes(ctx context.Context, first *int, after *string, last *int, before *string, filter *model.AdminVoucherPrototypeFilter, orderBy *model.AdminVoucherPrototypeOrder) (*model.AdminVoucherPrototypeConnection, error) {
	return r.adminPrototypeConnection(ctx, nil, pageArgs{first, after, last, before}, filter, orderBy)
}

// AdminVoucherPrototype is the resolver for the adminVoucherPrototype field.
func (r *queryResolver) AdminVoucherPrototype(ctx context.Context, id string) (*model.AdminVoucherPrototype, error) {
	key, err := lookupKey("AdminVoucherPrototype", id)
	if err != nil {
		return nil, err
	}
	return r.adminVoucherPrototype(ctx, key)
}

// AdminOptions is the resolver for the adminOptions field.
func (r *queryResolver) AdminOptions(ctx context.Context, first *int, after *string, last *int, before *string, filter *model.AdminOptionFilter, orderBy *model.AdminOptionOrder) (*model.VoucherOptionConnection, error) {
	return r.optionConnection(ctx, nil, pageArgs{first, after, last, before}, filter, orderBy)
}

// AdminOption is the resolver for the adminOption field.
func (r *queryResolver) AdminOption(ctx context.Context, id string) (*model.VoucherOption, error) {
	key, err := lookupKey("VoucherOption", id)
	if err != nil {
		return nil, err
	}
	return r.adminOption(ctx, key)
}

// AdminOptionCategories is the resolver for the adminOptionCategories field.
func (r *queryResolver) AdminOptionCategories(ctx context.Context, first *int, after *string, last *int, before *string, filter *model.AdminOptionCategoryFilter, orderBy *model.AdminOptionOrder) (*model.OptionCategoryConnection, error) {
	return r.optionCategoryConnection(ctx, nil, pageArgs{first, after, last, before}, filter, orderBy)
}

// AdminOptionCategory is the resolver for the adminOptionCategory field.
func (r *queryResolver) AdminOptionCategory(ctx context.Context, id string) (*model.OptionCategory, error) {
	key, err := lookupKey("OptionCategory", id)
	if err != nil {
		return nil, err
	}
	return r.adminOptionCategory(ctx, key)
}

// Category is the resolver for the category field.
func (r *voucherOptionResolver) Category(ctx context.Context, obj *model.VoucherOption) (*model.OptionCategory, error) {
	if obj.CategoryID == nil {
		return nil, nil
	}
	c, err := loadersFrom(ctx).optionCategories.Load(ctx, *obj.CategoryID)
	return toGraphOptionCategory(c), err
}

// Prototypes is the resolver for the prototypes field.
func (r *voucherOptionResolver) Prototypes(ctx context.Context, obj *model.VoucherOption) ([]*model.AdminVoucherPrototype, error) {
	ps, err := loadersFrom(ctx).adminPrototypes.LoadAll(ctx, obj.PrototypeIDs)
	if err != nil {
		return nil, err
	}
	out := make([]*model.AdminVoucherPrototype, 0, len(ps))
	for _, p := range ps {
		if p != nil {
			out = append(out, toGraphAdminPrototype(p))
		}
	}
	return out, nil
}

// CurrencyCode is the resolver for the currencyCode field.
func (r *voucherOptionResolver) CurrencyCode(ctx context.Context, obj *model.VoucherOption) (model.CurrencyCode, error) {
	return r.partnerCurrency(ctx, obj.PartnerID)
}

// AdminVoucherPrototype returns AdminVoucherPrototypeResolver implementation.
func (r *Resolver) AdminVoucherPrototype() AdminVoucherPrototypeResolver {
	return &adminVoucherPrototypeResolver{r}
}

// OptionCategory returns OptionCategoryResolver implementation.
func (r *Resolver) OptionCategory() OptionCategoryResolver { return &optionCategoryResolver{r} }

// PrototypeError returns PrototypeErrorResolver implementation.
func (r *Resolver) PrototypeError() PrototypeErrorResolver { return &prototypeErrorResolver{r} }

// VoucherOption returns VoucherOptionResolver implementation.
func (r *Resolver) VoucherOption() VoucherOptionResolver { return &voucherOptionResolver{r} }

type (
	adminVoucherPrototypeResolver struct{ *Resolver }
	optionCategoryResolver        struct{ *Resolver }
	prototypeErrorResolver        struct{ *Resolver }
	voucherOptionResolver         struct{ *Resolver }
)
