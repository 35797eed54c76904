package drf

import "salesplatform/domain"

// Text reads a field that takes JSON strings only: a number or a boolean
// is refused, as the legacy serializer's strict text fields do; null is
// read as null.
func (d Reader) Text(field string) Optional[string] {
	if value, ok := d.Obj[field]; ok && value != nil {
		if _, isString := value.(string); !isString {
			d.refuse(domain.MsgString, field)
			return Optional[string]{}
		}
	}
	return d.String(field)
}
