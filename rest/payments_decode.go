package rest

import (
	"salesplatform/domain"
	"salesplatform/domain/network"
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

// decodeFreezeDate reads a payment's {freeze_payout_date}: a date-time or
// a day; any other value is refused as a malformed date-time.
func decodeFreezeDate(doc domain.Doc) payments.FreezeDateInput {
	var in payments.FreezeDateInput
	value, present := doc["freeze_payout_date"]
	switch {
	case !present:
	case value == nil:
		in.FreezePayoutDate = domain.Null[network.LocalTime]()
	default:
		s, _ := value.(string)
		if l, ok := network.ParseLocalTime(s); ok && len(s) <= 64 {
			in.FreezePayoutDate = domain.Some(l)
		} else {
			in.Refuse(domain.VInvalid, network.MsgDateTime, "freeze_payout_date")
		}
	}
	return in
}
