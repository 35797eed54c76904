package rest

import (
	"salesplatform/domain"
	"salesplatform/domain/vouchers"
	"salesplatform/rest/drf"
)

// decodeStateInput reads a voucher's PATCH body ({"state": ...}).
func decodeStateInput(doc map[string]any) vouchers.StateInput {
	var in vouchers.StateInput
	in.State = drf.New(doc, &in.Refusals).Text("state", domain.MsgString)
	return in
}
