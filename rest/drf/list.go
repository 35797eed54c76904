package drf

import (
	"fmt"

	"salesplatform/domain"
)

// List reads a list of objects as DRF's nested many=True serializer: each
// element read by row with a reader whose refusals are placed under
// field.i. A list longer than max is not read (the domain refuses its
// length): its rows are zero values. An element that is no object is
// refused at field.i.non_field_errors with notObject (a format of its
// JSON type name) and read as a zero T.
func List[T any](d Reader, field string, max int, notObject string, row func(Reader) T) Optional[[]T] {
	value, o, ok := raw[[]T](d, field)
	if !ok {
		return o
	}
	list, isList := value.([]any)
	if !isList {
		d.refuse(fmt.Sprintf(domain.MsgNotAList, domain.JSONTypeName(value)), field)
		return o
	}
	out := make([]T, len(list))
	if len(list) > max {
		return domain.Some(out)
	}
	at := append(d.At[:len(d.At):len(d.At)], field)
	for i, e := range list {
		obj, isObj := e.(map[string]any)
		elem := Reader{Obj: obj, R: d.R, At: append(at[:len(at):len(at)], i)}
		if !isObj {
			elem.refuse(fmt.Sprintf(notObject, domain.JSONTypeName(e)), "non_field_errors")
			continue
		}
		out[i] = row(elem)
	}
	return domain.Some(out)
}
