package rest

import (
	"strconv"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/rest/drf"
)

// The decoders of the network area's bodies: each reads one operation's
// body into its typed input, refusing values of the wrong type with DRF's
// messages; the service applies the rules.

// msgNotAnObject refuses an element of a list of objects that is not one.
const msgNotAnObject = "Invalid data. Expected a dictionary, but got %s."

// maxLocalTime bounds the text of a date-time: longer is no date.
const maxLocalTime = 64

// localTime reads a date-time or a day (network.ParseLocalTime); any other
// value, a string or not, is refused.
func localTime(r drf.Reader, field string) domain.Optional[network.LocalTime] {
	value, present := r.Obj[field]
	switch {
	case !present:
		return domain.Optional[network.LocalTime]{}
	case value == nil:
		return domain.Null[network.LocalTime]()
	}
	s, _ := value.(string)
	if len(s) > maxLocalTime {
		s = ""
	}
	l, ok := network.ParseLocalTime(s)
	if !ok {
		r.R.Refuse(domain.VInvalid, network.MsgDateTime, field)
		return domain.Optional[network.LocalTime]{}
	}
	return domain.Some(l)
}

// intText reads an integer as its text (a partner's source id).
func intText(r drf.Reader, field string) domain.Optional[string] {
	n := r.Int(field)
	if v, ok := n.Get(); ok {
		return domain.Some(strconv.FormatInt(v, 10))
	}
	return domain.Optional[string]{Set: n.Set, Null: n.Null}
}

func decodeNotice(r drf.Reader) network.Notice {
	return network.Notice{Notify: r.Bool("send_usage_notification_email"), GifteeEmail: r.String("giftee_email")}
}

// decodeUseInput reads the body of a use of the card with code; byID: the
// partner is partner_id (use_with_service_id), else partner_source_id.
func decodeUseInput(code string, doc drf.Object, byID bool) network.UseInput {
	in := network.UseInput{Code: code}
	r := drf.New(doc, &in.Refusals)
	if byID {
		in.ByPartnerID, in.PartnerID = true, r.Int(network.PartnerByID)
	} else {
		in.PartnerSourceID = intText(r, network.PartnerBySourceID)
	}
	in.Value = r.Decimal("value")
	in.CreationDate = localTime(r, "creation_date")
	in.FreezePayoutDate = localTime(r, "freeze_payout_date")
	in.Comment = r.String("comment")
	in.ReservationID = r.String("reservation_id")
	in.Notice = decodeNotice(r)
	return in
}

// decodeCancelUsageInput reads the body of a giftcard usage's cancel.
func decodeCancelUsageInput(id int64, doc drf.Object) network.CancelUsageInput {
	in := network.CancelUsageInput{ID: id}
	in.Comment = drf.New(doc, &in.Refusals).String("comment")
	return in
}

// decodeHoldInput reads the body of a hold: the partner by
// partner_source_id or partner_id.
func decodeHoldInput(code string, doc drf.Object) network.HoldInput {
	in := network.HoldInput{Code: code}
	r := drf.New(doc, &in.Refusals)
	switch {
	case r.Has(network.PartnerBySourceID) && r.Has(network.PartnerByID):
		// Both given: the pair is refused, whatever their values.
		in.PartnerSourceID, in.PartnerID = domain.Some(""), domain.Some(int64(0))
	case r.Has(network.PartnerByID):
		in.PartnerID = r.Int(network.PartnerByID)
	default:
		in.PartnerSourceID = intText(r, network.PartnerBySourceID)
	}
	in.Amount = r.Decimal("amount")
	in.ReservationID = r.String("reservation_id")
	in.ExpiresIn = r.Int("expires_in")
	return in
}

// decodeCaptureInput reads the body of a capture, every field optional.
func decodeCaptureInput(code, reservationID string, doc drf.Object) network.CaptureInput {
	in := network.CaptureInput{Code: code, ReservationID: reservationID}
	r := drf.New(doc, &in.Refusals)
	in.Value = r.Decimal("value")
	in.CreationDate = localTime(r, "creation_date")
	in.FreezePayoutDate = localTime(r, "freeze_payout_date")
	in.Comment = r.String("comment")
	in.Notice = decodeNotice(r)
	return in
}

// decodeAdjustInput reads the body of an adjustment: amount (signed; the
// range rule judges it) and reason.
func decodeAdjustInput(code string, doc drf.Object) network.AdjustInput {
	in := network.AdjustInput{Code: code}
	r := drf.New(doc, &in.Refusals)
	in.Amount, in.Reason = r.Decimal("amount"), r.String("reason")
	return in
}

// decodeCustomer reads a card's gifter or giftee object.
func decodeCustomer(r drf.Reader, field string) domain.Optional[network.CustomerInput] {
	sub, o, ok := r.Object(field)
	if !ok {
		return domain.Optional[network.CustomerInput]{Set: o.Set, Null: o.Null}
	}
	return domain.Some(network.CustomerInput{FirstName: sub.String("first_name"), LastName: sub.String("last_name"),
		Email: sub.String("email")})
}

// decodeGiftcardInput reads the body of a network giftcard's creation.
func decodeGiftcardInput(doc drf.Object) network.GiftcardInput {
	var in network.GiftcardInput
	r := drf.New(doc, &in.Refusals)
	in.MarketplaceUUID = r.UUID("marketplace_uuid")
	in.Status = r.String("status")
	in.Value = r.Decimal("value")
	in.Gifter = decodeCustomer(r, "gifter")
	in.Giftee = decodeCustomer(r, "giftee")
	in.FromGifter = r.String("from_gifter")
	in.Theme = r.String("theme")
	in.Language = r.String("language")
	in.IsSplittable = r.Bool("is_splittable")
	in.IsActive = r.Bool("is_active")
	in.ActivationDate = localTime(r, "activation_date")
	in.ExpirationDate = localTime(r, "expiration_date")
	return in
}
