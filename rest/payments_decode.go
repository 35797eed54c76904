package rest

import (
	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/rest/drf"
)

// Decoders of the payment hub's writes: each reads its DRF body into the
// write's typed input, refusing values of the wrong type.

// decodeRefundInput reads a refund's body.
func decodeRefundInput(doc map[string]any) payments.RefundInput {
	var in payments.RefundInput
	d := drf.New(doc, &in.Refusals)
	in.Amount = d.Decimal("amount")
	if nested, o, ok := d.Object("split"); ok {
		var split payments.RefundSplit
		sd := drf.New(nested.Obj, &split.Refusals)
		split.ExtraSourceAmount = sd.Decimal("extra_source_amount")
		split.AdditionalPayinAmount = sd.Decimal("additional_payin_amount")
		in.Split = domain.Some(split)
	} else {
		in.Split.Set, in.Split.Null = o.Set, o.Null
	}
	in.Reason = d.String("reason")
	return in
}

// decodePayoutChange reads the body of a payout's validation or payment.
func decodePayoutChange(doc map[string]any) payments.PayoutChangeInput {
	var in payments.PayoutChangeInput
	in.Reason = drf.New(doc, &in.Refusals).String("reason")
	return in
}

// decodeCustomer reads the nested customer of a payment or a request.
func decodeCustomer(d drf.Reader, field string) drf.Optional[payments.CustomerInput] {
	nested, o, ok := d.Object(field)
	if !ok {
		return drf.Optional[payments.CustomerInput]{Set: o.Set, Null: o.Null}
	}
	var cu payments.CustomerInput
	cd := drf.New(nested.Obj, &cu.Refusals)
	cu.FirstName, cu.LastName, cu.Email = cd.String("first_name"), cd.String("last_name"), cd.String("email")
	return domain.Some(cu)
}

// decodePaymentRequestInput reads a payment request's creation body.
func decodePaymentRequestInput(doc map[string]any) payments.PaymentRequestInput {
	var in payments.PaymentRequestInput
	d := drf.New(doc, &in.Refusals)
	in.PartnerUUID, in.Amount, in.Customer = d.UUID("partner_uuid"), d.Decimal("amount"), decodeCustomer(d, "customer")
	in.Language, in.Reference, in.Description = d.String("language"), d.String("reference"), d.String("description")
	in.Origin, in.Product = d.String("origin"), d.String("product")
	in.InvoicingMarketplaceID = d.PK("invoicing_marketplace_id")
	return in
}
