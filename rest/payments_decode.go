package rest

import (
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
		in.Split.Value, in.Split.Set = split, o.Set
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
