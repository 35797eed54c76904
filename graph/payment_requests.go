package graph

// Converters of the payment hub's payment requests
// (payment_requests.graphqls). The creation builds the REST body
// (domain.Doc) from the typed input, so that the service reads both
// surfaces the same way.

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/graph/model"
)

func toGraphPaymentRequest(r *payments.PaymentRequest) *model.PaymentRequest {
	return &model.PaymentRequest{GlobalID: numericGlobalID("PaymentRequest", r.ID), ID: idString(r.ID), Code: r.Code,
		Status: model.PaymentRequestStatus(strings.ToUpper(r.Status)), Amount: r.Amount,
		CurrencyCode: model.CurrencyCode(r.Currency), Customer: toGraphNetworkCustomer(&r.Customer),
		PartnerUUID: r.PartnerUUID, Language: r.Language, Reference: r.Reference, Description: r.Description,
		Origin: r.Origin, Product: r.Product, InvoicingMarketplaceID: r.InvoicingMarketplaceID, PaymentURL: r.URL,
		PaidOn: inZone(r.PaidOn, time.UTC), CreatedOn: r.CreatedOn.UTC(), ModifiedOn: r.ModifiedOn.UTC()}
}

func paymentRequestConnection(w window, page *domain.Page[*payments.PaymentRequest]) *model.PaymentRequestConnection {
	edges, info := connect(w, page, func(c string, r *payments.PaymentRequest) *model.PaymentRequestEdge {
		return &model.PaymentRequestEdge{Cursor: c, Node: toGraphPaymentRequest(r)}
	})
	return &model.PaymentRequestConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// createPaymentRequestDoc is the creation's body, in REST's field names.
func createPaymentRequestDoc(in model.CreatePaymentRequestInput, partner uuid.UUID) domain.Doc {
	d := adminDoc{"partner_uuid": partner.String(), "amount": decimalValue(in.Amount),
		"customer": networkCustomerDoc(in.Customer), "language": in.Language}
	set(d, "reference", in.Reference, same[string])
	set(d, "description", in.Description, same[string])
	set(d, "origin", in.Origin, same[string])
	set(d, "product", in.Product, same[string])
	set(d, "invoicing_marketplace_id", in.InvoicingMarketplaceID, same[int64])
	return domain.Doc(d)
}

// paymentRequest is the lookup of the PaymentRequest Node type
// (graph/node.go) and of the paymentRequest field.
func (r *Resolver) paymentRequest(ctx context.Context, key string) (*model.PaymentRequest, error) {
	id, err := parseID(key)
	if err != nil {
		return nil, err
	}
	return converted(toGraphPaymentRequest)(r.Payments.PaymentRequest(ctx, id))
}
