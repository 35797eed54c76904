package drf

import (
	"fmt"

	"salesplatform/domain"
)

// MsgNotAnObject is DRF's message for a body that is not a JSON object.
const MsgNotAnObject = "Invalid data. Expected a dictionary, but got %s."

// Body reads a decoded JSON body as the object a serializer takes: any
// other value is refused at non_field_errors, as DRF's serializers do, and
// read as an empty object. The service answers the refusal after its
// authorization, as it always has.
func Body(body any, r *domain.Refusals) Reader {
	obj, ok := body.(map[string]any)
	if !ok {
		r.Refuse(domain.VInvalid, fmt.Sprintf(MsgNotAnObject, domain.JSONTypeName(body)), "non_field_errors")
	}
	return New(obj, r)
}
