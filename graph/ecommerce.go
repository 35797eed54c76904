package graph

// Converters of the e-commerce catalogue (ecommerce.graphqls). The writes
// map their models onto the service's typed inputs, as REST's decoders
// do.

import (
	"context"
	"strconv"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/ecommerce"
	"salesplatform/graph/model"
)

func toGraphEcommerceProduct(p *ecommerce.Product) *model.EcommerceProduct {
	out := &model.EcommerceProduct{GlobalID: numericGlobalID("EcommerceProduct", p.ID), ID: idString(p.ID),
		Name: toGraphLocalized(p.Name), Description: toGraphLocalized(p.Description), Images: make([]uuid.UUID, 0, len(p.Images)),
		Price: p.Price, CurrencyCode: model.CurrencyCode(p.Currency), VatRate: p.VATRate, Active: p.Active, Stock: p.Stock,
		Variants: make([]*model.EcommerceVariant, len(p.Variants)), Attributes: make([]*model.EcommerceAttribute, len(p.Attributes)),
		CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC()}
	for _, s := range p.Images {
		if u, err := uuid.Parse(s); err == nil {
			out.Images = append(out.Images, u)
		}
	}
	for i, v := range p.Variants {
		out.Variants[i] = &model.EcommerceVariant{GlobalID: numericGlobalID("EcommerceVariant", v.ID), ID: idString(v.ID),
			Name: toGraphLocalized(v.Name), Price: v.Price, Stock: v.Stock, Active: v.Active}
	}
	for i, a := range p.Attributes {
		out.Attributes[i] = &model.EcommerceAttribute{GlobalID: numericGlobalID("EcommerceAttribute", a.ID), ID: idString(a.ID),
			Name: toGraphLocalized(a.Name), Values: a.Values}
	}
	return out
}

func toGraphEcommerceDelivery(d *ecommerce.DeliverySettings) *model.EcommerceDeliverySettings {
	return &model.EcommerceDeliverySettings{Email: d.Email, Postal: d.Postal, PostalCost: d.PostalCost, PostalDays: d.PostalDays,
		Pickup: d.Pickup, PickupCost: d.PickupCost, PickupAddress: d.PickupAddress}
}

func ecommerceProductConnection(w window, page *domain.Page[*ecommerce.Product]) *model.EcommerceProductConnection {
	edges, info := connect(w, page, func(c string, p *ecommerce.Product) *model.EcommerceProductEdge {
		return &model.EcommerceProductEdge{Cursor: c, Node: toGraphEcommerceProduct(p)}
	})
	return &model.EcommerceProductConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// ecommerceProduct is the lookup of the EcommerceProduct Node type
// (graph/node.go) and of the ecommerceProduct field.
func (r *Resolver) ecommerceProduct(ctx context.Context, key string) (*model.EcommerceProduct, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphEcommerceProduct)(r.Ecommerce.Product(ctx, id))
}

// ecommerceChildID is a variant's or attribute's id as sent: its global
// id of typ or its numeric id; one that names nothing reads as 0, which no
// product's variant or attribute has.
func ecommerceChildID(typ string, o graphql.Omittable[*string]) domain.Optional[int64] {
	return optionalOf(o, func(s string) int64 {
		key, err := lookupKey(typ, s)
		if err != nil {
			return 0
		}
		n, _ := strconv.ParseInt(key, 10, 64)
		return n
	})
}

// ecommerceTexts is a localized input: omitted is absent.
func ecommerceTexts(o graphql.Omittable[[]*model.TextInput]) domain.Optional[[]domain.TextInput] {
	v, ok := o.ValueOK()
	switch {
	case !ok:
		return domain.Optional[[]domain.TextInput]{}
	case v == nil:
		return domain.Null[[]domain.TextInput]()
	}
	return domain.Some(toDomainTexts(v))
}

func ecommerceVariants(o graphql.Omittable[[]*model.EcommerceVariantInput]) domain.Optional[[]ecommerce.VariantInput] {
	v, ok := o.ValueOK()
	switch {
	case !ok:
		return domain.Optional[[]ecommerce.VariantInput]{}
	case v == nil:
		return domain.Null[[]ecommerce.VariantInput]()
	}
	out := make([]ecommerce.VariantInput, len(v))
	for i, in := range v {
		out[i] = ecommerce.VariantInput{ID: ecommerceChildID("EcommerceVariant", in.ID), Name: domain.Some(toDomainTexts(in.Name)),
			Price: domain.Some(in.Price), Stock: optional(in.Stock), Active: optional(in.Active)}
	}
	return domain.Some(out)
}

func ecommerceAttributes(o graphql.Omittable[[]*model.EcommerceAttributeInput]) domain.Optional[[]ecommerce.AttributeInput] {
	v, ok := o.ValueOK()
	switch {
	case !ok:
		return domain.Optional[[]ecommerce.AttributeInput]{}
	case v == nil:
		return domain.Null[[]ecommerce.AttributeInput]()
	}
	out := make([]ecommerce.AttributeInput, len(v))
	for i, in := range v {
		out[i] = ecommerce.AttributeInput{ID: ecommerceChildID("EcommerceAttribute", in.ID), Name: domain.Some(toDomainTexts(in.Name)),
			Values: domain.Some(in.Values)}
	}
	return domain.Some(out)
}

func ecommerceImages(o graphql.Omittable[[]uuid.UUID]) domain.Optional[[]uuid.UUID] {
	v, ok := o.ValueOK()
	switch {
	case !ok:
		return domain.Optional[[]uuid.UUID]{}
	case v == nil:
		return domain.Null[[]uuid.UUID]()
	}
	return domain.Some(v)
}

func createEcommerceProductInput(in model.CreateEcommerceProductInput) ecommerce.ProductInput {
	return ecommerce.ProductInput{Name: domain.Some(toDomainTexts(in.Name)), Description: ecommerceTexts(in.Description),
		Images: ecommerceImages(in.Images), Price: domain.Some(in.Price), VATRate: optional(in.VatRate),
		Active: optional(in.Active), Stock: optional(in.Stock), Variants: ecommerceVariants(in.Variants),
		Attributes: ecommerceAttributes(in.Attributes)}
}

func updateEcommerceProductInput(in model.UpdateEcommerceProductInput) ecommerce.ProductInput {
	return ecommerce.ProductInput{Name: ecommerceTexts(in.Name), Description: ecommerceTexts(in.Description),
		Images: ecommerceImages(in.Images), Price: optional(in.Price), VATRate: optional(in.VatRate),
		Active: optional(in.Active), Stock: optional(in.Stock), Variants: ecommerceVariants(in.Variants),
		Attributes: ecommerceAttributes(in.Attributes)}
}

func ecommerceDeliveryInput(in model.EcommerceDeliverySettingsInput) ecommerce.DeliverySettingsInput {
	return ecommerce.DeliverySettingsInput{Email: optional(in.Email), Postal: optional(in.Postal), Pickup: optional(in.Pickup),
		PostalCost: optional(in.PostalCost), PickupCost: optional(in.PickupCost),
		PostalDays: optionalOf(in.PostalDays, func(n int) int64 { return int64(n) }), PickupAddress: optional(in.PickupAddress)}
}
