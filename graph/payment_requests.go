package graph

// Converters of the payment hub's payment requests
// (payment_requests.graphqls). The creation maps its model onto the
// service's typed input, as REST's decoder does.

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/network"
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

// createPaymentRequestInput is the creation's input.
func createPaymentRequestInput(in model.CreatePaymentRequestInput, partner uuid.UUID) payments.PaymentRequestInput {
	return payments.PaymentRequestInput{PartnerUUID: domain.Some(partner), Amount: domain.Some(in.Amount),
		Customer: paymentCustomerInput(in.Customer), Language: domain.Some(in.Language),
		Reference: optional(in.Reference), Description: optional(in.Description), Origin: optional(in.Origin),
		Product: optional(in.Product), InvoicingMarketplaceID: optional(in.InvoicingMarketplaceID)}
}

// paymentCustomerInput is the customer of a payment or a payment request.
func paymentCustomerInput(c *model.NetworkGiftcardCustomerInput) domain.Optional[network.CustomerInput] {
	if c == nil {
		return domain.Null[network.CustomerInput]()
	}
	return domain.Some(customerInput(c))
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
