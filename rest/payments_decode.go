package rest

import (
	"salesplatform/domain"
	"salesplatform/domain/network"
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

// decodeLocalTime reads a date-time or a day (network.ParseLocalTime);
// anything else, a long text included, is refused.
func decodeLocalTime(d drf.Reader, field string) drf.Optional[network.LocalTime] {
	value, present := d.Obj[field]
	switch {
	case !present:
		return drf.Optional[network.LocalTime]{}
	case value == nil:
		return domain.Null[network.LocalTime]()
	}
	s, _ := value.(string)
	if l, ok := network.ParseLocalTime(s); ok && len(s) <= 64 {
		return domain.Some(l)
	}
	d.R.Refuse(domain.VInvalid, network.MsgDateTime, field)
	return drf.Optional[network.LocalTime]{}
}

// decodePaymentInput reads a payment's creation body.
func decodePaymentInput(doc map[string]any) payments.PaymentInput {
	var in payments.PaymentInput
	d := drf.New(doc, &in.Refusals)
	in.Customer, in.PartnerUUID = decodeCustomer(d, "customer"), d.UUID("partner_uuid")
	in.Amount, in.Discount = d.Decimal("amount"), d.Decimal("discount")
	in.Product, in.Type, in.Origin = d.String("product"), d.String("type"), d.String("origin")
	in.ReceiptDescription = d.String("payment_receipt_description")
	in.FreezePayoutDate = decodeLocalTime(d, "freeze_payout_date")
	in.ExtraSourceWalletUUID, in.ExtraSourceAmount = d.UUID("extra_source_wallet_uuid"), d.Decimal("extra_source_amount")
	in.Card = d.String("card")
	return in
}

// decodeFreezeDate reads a payment's freeze date change.
func decodeFreezeDate(doc map[string]any) payments.FreezeDateInput {
	var in payments.FreezeDateInput
	in.FreezePayoutDate = decodeLocalTime(drf.New(doc, &in.Refusals), "freeze_payout_date")
	return in
}
