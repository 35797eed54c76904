package rest

import (
	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/rest/drf"
)

// decodeContactRequestInput reads a contact request body: its texts as
// DRF's CharField reads them, the partner's UUID as a string.
func decodeContactRequestInput(doc map[string]any) gifts.ContactRequestInput {
	var in gifts.ContactRequestInput
	d := drf.New(doc, &in.Refusals)
	in.GiftCode, in.FullName, in.Email = d.String("gift_code"), d.String("full_name"), d.String("email")
	in.PhoneNumber, in.Message = d.String("phone_number"), d.String("message")
	in.Partner = d.Text("partner", domain.MsgUUID)
	return in
}
