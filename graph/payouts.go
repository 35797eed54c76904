package graph

// Converters of the payment hub's payout requests (payouts.graphqls). The
// mutations map their models onto the service's typed inputs, as REST's
// decoders do.

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/graph/model"
)

// payoutStatuses are the payout requests' statuses, by enum value.
var payoutStatuses = map[model.PayoutRequestStatus]string{
	model.PayoutRequestStatusToBeValidated: payments.PayoutToValidate,
	model.PayoutRequestStatusValidated:     payments.PayoutValidated,
	model.PayoutRequestStatusPaid:          payments.PayoutPaid,
}

func payoutStatus(s string) model.PayoutRequestStatus { return enumOf(payoutStatuses, s) }

func toGraphPayoutRequest(p *payments.Payout) *model.PayoutRequest {
	return &model.PayoutRequest{GlobalID: numericGlobalID("PayoutRequest", p.ID), ID: idString(p.ID), UUID: p.UUID,
		Status: payoutStatus(p.Status), CurrencyCode: model.CurrencyCode(p.Currency), PartnerLegacyID: idString(p.PartnerID),
		PartnerUUID: p.PartnerUUID, Amount: p.Amount, UsagesAmount: p.UsagesAmount, PaymentsCount: p.PaymentsCount,
		UsagesCount: p.UsagesCount, PeriodStart: p.PeriodStart.UTC(), PeriodEnd: p.PeriodEnd.UTC(),
		CreationDate: p.CreationDate.UTC(), ValidationDate: inZone(p.ValidationDate, time.UTC),
		PaidDate: inZone(p.PaidDate, time.UTC)}
}

func payoutRequestConnection(w window, page *domain.Page[*payments.Payout]) *model.PayoutRequestConnection {
	edges, info := connect(w, page, func(c string, p *payments.Payout) *model.PayoutRequestEdge {
		return &model.PayoutRequestEdge{Cursor: c, Node: toGraphPayoutRequest(p)}
	})
	return &model.PayoutRequestConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// payoutFilter is the list's query, as REST's: the service reads and
// checks both the same way.
func payoutFilter(f *model.PayoutRequestFilter) (payments.PayoutListInput, error) {
	var in payments.PayoutListInput
	if f == nil {
		return in, nil
	}
	in.CreationDateGte, in.CreationDateLte = text(opt(f.CreationDateGte)), text(opt(f.CreationDateLte))
	if id := opt(f.PartnerID); id != nil {
		u, err := paymentPartnerUUID(*id)
		if err != nil {
			return in, err
		}
		in.PartnerUUID = u.String()
	}
	if list, _ := f.StatusIn.ValueOK(); list != nil {
		in.StatusIn = codesOf(payoutStatuses, list)
	}
	return in, nil
}

// payoutChange is the input of a validation or a payment.
func payoutChange(reason graphql.Omittable[*string]) payments.PayoutChangeInput {
	return payments.PayoutChangeInput{Reason: optional(reason)}
}

func payoutRequestPayload(p *payments.Payout, err error) (*model.PayoutRequestPayload, error) {
	out, ue, err := payloadOf(p, err, toGraphPayoutRequest)
	return &model.PayoutRequestPayload{PayoutRequest: out, UserErrors: ue, Errors: ue}, err
}

// payoutRequest is the lookup of the PayoutRequest Node type
// (graph/node.go) and of the payoutRequest field.
func (r *Resolver) payoutRequest(ctx context.Context, key string) (*model.PayoutRequest, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphPayoutRequest)(r.Payouts.Payout(ctx, id))
}
