package rest

import (
	"salesplatform/domain/media"
	"salesplatform/rest/drf"
)

// decodeRenameInput reads a media rename body ({"name"}).
func decodeRenameInput(body any) media.RenameInput {
	var in media.RenameInput
	in.Name = drf.Body(body, &in.Refusals).String("name")
	return in
}
