package graph

// Converters of the payment hub's payments (payments.graphqls). The
// mutations map their models onto the service's typed inputs, as REST's
// decoders do.

import (
	"context"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/graph/model"
)

// paymentStatuses are the payments' statuses, by enum value.
var paymentStatuses = map[model.PaymentStatus]string{
	model.PaymentStatusInProgress: payments.StatusInProgress,
	model.PaymentStatusPaid:       payments.StatusPaid,
	model.PaymentStatusFailed:     payments.StatusFailed,
}

func paymentStatus(s string) model.PaymentStatus { return enumOf(paymentStatuses, s) }

func toGraphPayment(p *payments.Payment) *model.Payment {
	out := &model.Payment{GlobalID: globalID("Payment", p.UUID.String()), LegacyID: p.UUID.String(), UUID: p.UUID, Status: paymentStatus(p.Status),
		CurrencyCode: model.CurrencyCode(p.Currency), Customer: toGraphNetworkCustomer(&p.Customer),
		PartnerUUID: p.PartnerUUID, Product: p.Product, Origin: p.Origin, Type: p.Type, Amount: p.Amount,
		Discount: p.Discount, Commission: p.Commission, NetAmount: p.NetAmount, RefundedAmount: p.RefundedAmount,
		ExtraSourceAmount: p.ExtraSourceAmount, ExtraSourceWalletUUID: p.ExtraSourceWalletUUID,
		PayinAmount: p.PayinAmount, PayinResultCode: p.PayinResultCode, PayinResultMessage: p.PayinResultMessage,
		ReceiptDescription: p.ReceiptDescription, FreezePayoutDate: inZone(p.FreezePayoutDate, time.UTC),
		PaidOn: inZone(p.PaidOn, time.UTC), PaymentRequestID: p.PaymentRequestID, CreatedOn: p.CreatedOn.UTC(),
		ModifiedOn: p.ModifiedOn.UTC()}
	if p.PayinURL != "" {
		out.PayinURL = &p.PayinURL
	}
	if p.Payout != nil {
		out.PayoutRequestID, out.PayoutRequestStatus = &p.Payout.ID, &p.Payout.Status
		out.PayoutRequestCreationDate = inZone(&p.Payout.CreationDate, time.UTC)
		out.PayoutRequestValidationDate = inZone(p.Payout.ValidationDate, time.UTC)
	}
	return out
}

func toGraphPaymentTransaction(t *payments.Transaction) *model.PaymentTransaction {
	return &model.PaymentTransaction{ID: idString(t.ID), CreatedOn: t.CreatedOn.UTC(),
		Type: model.PaymentTransactionType(strings.ToUpper(t.Type)), PaymentMethod: model.PaymentMethod(strings.ToUpper(t.PaymentMethod)),
		Status: model.PaymentTransactionStatus(strings.ToUpper(t.Status)), Amount: t.Amount, Commission: t.Commission,
		NetAmount: t.NetAmount, CurrencyCode: model.CurrencyCode(t.Currency)}
}

func toGraphRefund(r *payments.Refund) *model.Refund {
	return &model.Refund{UUID: r.UUID, Status: model.RefundStatus(strings.ToUpper(r.Status)), Amount: r.Amount,
		ExtraSourceAmount: r.ExtraSourceAmount, PayinAmount: r.PayinAmount, Commission: r.Commission, Split: r.Split,
		Reason: r.Reason, ResultCode: r.ResultCode, ResultMessage: r.ResultMessage, Actor: r.Actor,
		CreatedOn: r.CreatedOn.UTC(), FinishedOn: inZone(r.FinishedOn, time.UTC)}
}

func paymentConnection(w window, page *domain.Page[*payments.Payment]) *model.PaymentConnection {
	edges, info := connect(w, page, func(c string, p *payments.Payment) *model.PaymentEdge {
		return &model.PaymentEdge{Cursor: c, Node: toGraphPayment(p)}
	})
	return &model.PaymentConnection{Edges: edges, PageInfo: info, TotalCount: page.Count}
}

// paymentUUID reads an input's paymentId: its Payment global id, or its
// uuid.
// Errors: NOT_FOUND for anything else, as REST answers a path that names
// no payment.
func paymentUUID(id string) (uuid.UUID, error) {
	key, err := lookupKey("Payment", id)
	if err != nil {
		return uuid.Nil, err
	}
	u, err := uuid.Parse(key)
	if err != nil || u.String() != strings.ToLower(key) {
		return uuid.Nil, domain.ErrNotFound
	}
	return u, nil
}

// createPaymentInput is the creation's input.
func createPaymentInput(in model.CreatePaymentInput, partner uuid.UUID) payments.PaymentInput {
	out := payments.PaymentInput{Customer: paymentCustomerInput(in.Customer), PartnerUUID: domain.Some(partner),
		Amount: domain.Some(in.Amount), Discount: domain.Some(in.Discount), Product: domain.Some(in.Product),
		Type: domain.Some(in.Type), Origin: optional(in.Origin), ReceiptDescription: optional(in.ReceiptDescription),
		ExtraSourceWalletUUID: optional(in.ExtraSourceWalletUUID), ExtraSourceAmount: optional(in.ExtraSourceAmount),
		Card: optional(in.Card)}
	out.FreezePayoutDate = localTime(in.FreezePayoutDate, &out.Refusals)
	return out
}

// localTime reads freeze_payout_date, a date-time or a day the schema
// types as a String: a text of neither form is refused, as REST's.
func localTime(o graphql.Omittable[*string], r *domain.Refusals) domain.Optional[network.LocalTime] {
	s, ok := o.ValueOK()
	switch {
	case !ok:
		return domain.Optional[network.LocalTime]{}
	case s == nil:
		return domain.Null[network.LocalTime]()
	}
	if l, ok := network.ParseLocalTime(*s); ok && len(*s) <= 64 {
		return domain.Some(l)
	}
	r.Refuse(domain.VInvalid, network.MsgDateTime, "freeze_payout_date")
	return domain.Optional[network.LocalTime]{}
}

// refundInput is the refund's input.
func refundInput(in model.RefundPaymentInput) payments.RefundInput {
	return payments.RefundInput{Amount: domain.Some(in.Amount), Reason: optional(in.Reason),
		Split: optionalOf(in.Split, func(s model.RefundSplitInput) payments.RefundSplit {
			return payments.RefundSplit{ExtraSourceAmount: domain.Some(s.ExtraSourceAmount),
				AdditionalPayinAmount: domain.Some(s.AdditionalPayinAmount)}
		})}
}

// paymentFilter is the list's query, as REST's: the service reads and
// checks both the same way.
func paymentFilter(f *model.PaymentFilter) (payments.PaymentListInput, error) {
	var in payments.PaymentListInput
	if f == nil {
		return in, nil
	}
	in.CreatedOnGte, in.CreatedOnLte = text(opt(f.CreatedOnGte)), text(opt(f.CreatedOnLte))
	in.CustomerFirstName, in.CustomerLastName = text(opt(f.CustomerFirstName)), text(opt(f.CustomerLastName))
	in.CustomerEmail = text(opt(f.CustomerEmail))
	if id := opt(f.PartnerID); id != nil {
		u, err := paymentPartnerUUID(*id)
		if err != nil {
			return in, err
		}
		in.PartnerUUID = u.String()
	}
	if list, _ := f.StatusIn.ValueOK(); list != nil {
		in.StatusIn = codesOf(paymentStatuses, list)
	}
	if list, _ := f.PayoutRequestStatusIn.ValueOK(); list != nil {
		in.PayoutRequestStatusIn = strings.Join(list, ",")
	}
	if b := opt(f.PartiallyRefunded); b != nil && *b {
		in.PartiallyRefunded = "true"
	}
	if b := opt(f.FullyRefunded); b != nil && *b {
		in.FullyRefunded = "true"
	}
	return in, nil
}

func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func paymentPayload(p *payments.Payment, err error) (*model.PaymentPayload, error) {
	out, ue, err := payloadOf(p, err, toGraphPayment)
	return &model.PaymentPayload{Payment: out, UserErrors: ue, Errors: ue}, err
}

// payment is the lookup of the Payment Node type (graph/node.go).
func (r *Resolver) payment(ctx context.Context, id uuid.UUID) (*model.Payment, error) {
	return converted(toGraphPayment)(r.Payments.Payment(ctx, id))
}
