package drf

import "salesplatform/domain"

// Text reads a string as sent, refusing any other JSON value with msg (a
// number is not read as its text, unlike String).
func (d Reader) Text(field, msg string) Optional[string] {
	value, o, ok := raw[string](d, field)
	if !ok {
		return o
	}
	if s, isString := value.(string); isString {
		return domain.Some(s)
	}
	d.refuse(msg, field)
	return o
}
