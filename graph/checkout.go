package graph

import (
	"context"
	"sort"
	"strings"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/checkout"
	"salesplatform/graph/model"
)

// The checkout's orders in the graph: the models of domain/checkout's
// orders, and the filter and refund inputs mapped onto the service's.

func toGraphEcommerceOrder(o *checkout.Order) *model.EcommerceOrder {
	b, d := o.Buyer, o.Delivery
	out := &model.EcommerceOrder{GlobalID: model.NumericGlobalID("EcommerceOrder", o.ID), LegacyID: idString(o.ID),
		UUID: o.UUID, Reference: o.Reference, Status: model.EcommerceOrderStatus(strings.ToUpper(o.Status)),
		CurrencyCode: model.CurrencyCode(o.Currency), CartID: o.CartID,
		Buyer: &model.EcommerceOrderBuyer{FirstName: b.FirstName, LastName: b.LastName, Email: b.Email, Phone: b.Phone,
			Language: b.Language},
		Delivery: &model.EcommerceOrderDelivery{Mode: d.Mode, Cost: d.Cost, Street: b.Street, PostalCode: b.PostalCode,
			City: b.City, Country: b.Country, BeneficiaryFirstName: b.BeneficiaryFirstName,
			BeneficiaryLastName: b.BeneficiaryLastName, BeneficiaryEmail: b.BeneficiaryEmail},
		Lines:      make([]*model.EcommerceOrderLine, len(o.Lines)),
		LinesTotal: o.LinesTotal, DeliveryCost: o.DeliveryCost, Discount: o.Discount, GiftcardAmount: o.GiftcardAmount,
		CardAmount: o.CardAmount, Total: o.Total, VatTotal: o.VATTotal, RefundedAmount: o.RefundedAmount,
		CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC(), PaidAt: inZone(o.PaidAt, time.UTC)}
	for i, l := range o.Lines {
		line := &model.EcommerceOrderLine{LegacyID: idString(l.ID), ProductID: idString(l.ProductID), Name: l.Name,
			Quantity: int(l.Quantity), UnitPrice: l.UnitPrice, VatRate: l.VATRate, VatAmount: l.VATAmount, Total: l.Total,
			AttributeValues: []*model.EcommerceAttributeValue{}}
		if l.VariantID != nil {
			v := idString(*l.VariantID)
			line.VariantID = &v
		}
		for id, v := range l.AttributeValues {
			line.AttributeValues = append(line.AttributeValues, &model.EcommerceAttributeValue{AttributeID: idString(id), Value: v})
		}
		sort.Slice(line.AttributeValues, func(i, j int) bool {
			return line.AttributeValues[i].AttributeID < line.AttributeValues[j].AttributeID
		})
		out.Lines[i] = line
	}
	if c := o.Coupon; c != nil {
		out.Coupon = &model.EcommerceOrderCoupon{LegacyID: idString(c.ID), Code: c.Code, Discount: c.Discount}
	}
	if g := o.Giftcard; g != nil {
		out.Giftcard = &model.EcommerceOrderGiftcard{UUID: g.CardUUID, Code: g.Code, Amount: g.Amount}
		if g.UsageID != nil {
			u := idString(*g.UsageID)
			out.Giftcard.UsageID = &u
		}
	}
	if p := o.Payment; p != nil {
		out.Payment = &model.EcommerceOrderPayment{UUID: p.UUID, Status: p.Status, Amount: p.Amount}
	}
	return out
}

func ecommerceOrderConnection(w window, page *domain.Page[*checkout.Order]) *model.EcommerceOrderConnection {
	edges, info := connect(w, page, func(c string, o *checkout.Order) *model.EcommerceOrderEdge {
		return &model.EcommerceOrderEdge{Cursor: c, Node: toGraphEcommerceOrder(o)}
	})
	return &model.EcommerceOrderConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// ecommerceOrderFilter maps the filter onto the REST list's.
func ecommerceOrderFilter(f *model.EcommerceOrderFilter) checkout.OrderListInput {
	var in checkout.OrderListInput
	if f == nil {
		return in
	}
	in.Status = optionalOf(f.Status, func(s model.EcommerceOrderStatus) string { return strings.ToLower(string(s)) })
	in.CreatedAfter, in.CreatedBefore = optional(f.CreatedAfter), optional(f.CreatedBefore)
	return in
}

func refundEcommerceOrderInput(in model.RefundEcommerceOrderInput) checkout.RefundInput {
	return checkout.RefundInput{Amount: optional(in.Amount), Restock: optional(in.Restock)}
}

// ecommerceOrder is the EcommerceOrder lookup of node(id:) and
// ecommerceOrder(id:): key is the record id.
func (r *Resolver) ecommerceOrder(ctx context.Context, key string) (*model.EcommerceOrder, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphEcommerceOrder)(r.Checkout.Order(ctx, id))
}
