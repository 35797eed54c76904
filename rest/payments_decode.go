package rest

import (
	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/rest/drf"
)

// The decoders of the payments area's writes: each reads its DRF body into
// the operation's typed input.

// decodePayoutChange reads the body of a payout request's validation or
// payment: {reason}.
func decodePayoutChange(doc domain.Doc) payments.PayoutChangeInput {
	var in payments.PayoutChangeInput
	in.Reason = drf.New(doc, &in.Refusals).String("reason")
	return in
}
