package graph

import (
	"strings"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/graph/model"
)

// Converters of the gifts, contact requests and marketing widgets fields
// (graph/schema/catalogue_gifts.graphqls).

// toGraphGiftType is a gift kind as enum GiftType: "network_voucher" is
// NETWORK_VOUCHER.
func toGraphGiftType(k gifts.GiftKind) model.GiftType {
	return model.GiftType(strings.ToUpper(string(k)))
}

func toGraphGiftPartner(p *domain.Partner) *model.GiftPartner {
	return &model.GiftPartner{GlobalID: numericGlobalID("GiftPartner", p.ID), ID: idString(p.ID), PartnerID: globalID("Partner", p.UUID.String()), UUID: p.UUID, Name: p.Name, IsMarketplace: p.IsMarketplace}
}

// toGraphGift is the normalized gift payload of GET /api/v2/gift/{code}/:
// amounts in the seller's currency, dates in its time zone.
func toGraphGift(g *gifts.GiftView) *model.Gift {
	out := &model.Gift{
		GlobalID: globalID("Gift", string(g.Kind)+":"+idString(g.ID)), ID: idString(g.ID), Code: g.Code, Type: toGraphGiftType(g.Kind), State: g.State,
		MaxUsages: g.MaxUsages, UsageCount: g.UsageCount, CurrencyCode: model.CurrencyCode(g.Currency),
		CreationDate:   g.CreatedAt.In(g.Location),
		ActivationDate: timeIn(g.ActivatesAt, g.Location), ExpirationDate: timeIn(g.ExpiresAt, g.Location),
		Usable: g.Usable, Partner: toGraphGiftPartner(g.Seller),
	}
	if g.Value != nil {
		out.Value = toGraphMoney(*g.Value, g.Currency)
	}
	if g.RemainingValue != nil {
		out.RemainingValue = toGraphMoney(*g.RemainingValue, g.Currency)
	}
	if g.ExpiresAtFormatted != nil {
		out.ExpirationDateFormatted = toGraphLocalized(g.ExpiresAtFormatted)
	}
	if g.ProductID != nil {
		out.Product = &model.GiftProduct{GlobalID: globalID("GiftProduct", g.ProductType()+":"+idString(*g.ProductID)),
			ID: idString(*g.ProductID), Type: g.ProductType()}
	}
	return out
}

func timeIn(t *time.Time, loc *time.Location) *time.Time {
	if t == nil {
		return nil
	}
	in := t.In(loc)
	return &in
}

func toGraphGiftLinkedPartners(lp *gifts.GiftLinkedPartners) *model.GiftLinkedPartners {
	out := &model.GiftLinkedPartners{Code: lp.Gift.Code, Type: toGraphGiftType(lp.Gift.Kind),
		Partners: make([]*model.GiftPartner, len(lp.Partners))}
	for i, p := range lp.Partners {
		out.Partners[i] = toGraphGiftPartner(p)
	}
	return out
}

// contactRequestFields maps the REST body's fields to the input's.
var contactRequestFields = map[string]string{
	"gift_code": "giftCode", "full_name": "fullName", "email": "email",
	"phone_number": "phoneNumber", "message": "message", "partner": "partner",
}

// toContactRequestInput is the service's input; an omitted or null
// phoneNumber is absent. partnerId, a Partner's global id, gives the
// partner UUID; without it, the deprecated partner does (the service
// reports a missing one).
// Errors: those of partnerUUID.
func toContactRequestInput(in model.ContactRequestInput) (gifts.ContactRequestInput, error) {
	out := gifts.ContactRequestInput{GiftCode: domain.Some(in.GiftCode), FullName: domain.Some(in.FullName),
		Email: domain.Some(in.Email), Message: domain.Some(in.Message), Partner: domain.FromPtr(opt(in.Partner)),
		PhoneNumber: domain.FromPtr(opt(in.PhoneNumber))}
	if opt(in.PartnerID) != nil {
		id, err := partnerUUID(in.PartnerID, nil)
		if err != nil {
			return out, err
		}
		out.Partner = domain.Some(id.String())
	}
	return out, nil
}

// contactRequestPayload is the mutation's answer: the stored request, or
// its input errors under the input's field names.
func contactRequestPayload(cr *gifts.ContactRequestView, err error) (*model.ContactRequestPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		for _, e := range ue {
			if len(e.Field) > 0 {
				if name, ok := contactRequestFields[e.Field[0]]; ok {
					e.Field[0] = name
				}
			}
		}
		return &model.ContactRequestPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.ContactRequestPayload{ContactRequest: &model.ContactRequest{
		GlobalID: numericGlobalID("ContactRequest", cr.ID), ID: idString(cr.ID), GiftCode: cr.GiftCode, FullName: cr.FullName, Email: cr.Email,
		PhoneNumber: cr.PhoneNumber, Message: cr.Message, Partner: cr.Partner.UUID,
		RelatedProductDetails: &model.RelatedProductDetails{
			GlobalID: globalID("RelatedProductDetails", string(cr.Gift.Kind)+":"+idString(cr.Gift.ID)), ID: idString(cr.Gift.ID),
			Type: toGraphGiftType(cr.Gift.Kind), State: cr.Gift.State},
	}, UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}
