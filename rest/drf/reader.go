// Package drf reads the legacy REST bodies as the replaced service's
// serializer fields did: a decoded JSON object (numbers as json.Number) or
// form, each field coerced to the type of a domain input field with DRF's
// messages for a value of the wrong type. Whether a field is required,
// its length, range and choices are the domain's rules, not the reader's.
package drf

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
)

// Messages of DRF's fields for a value of the wrong type.
const (
	MsgBoolean   = "Must be a valid boolean."
	MsgDate      = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."
	MsgDateTime  = "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
	MsgDayFormat = domain.MsgDayFormat
	MsgPKType    = "Incorrect type. Expected pk value, received %s."
)

// Object is a decoded JSON object body, numbers as json.Number.
type Object = map[string]any

// Reader reads the fields of one JSON object into Optionals; a value of the
// wrong type is refused (recorded in R) and read as absent.
type Reader struct {
	Obj map[string]any
	R   *domain.Refusals
	// At prefixes the path of every refusal: the reader of a nested
	// object refuses at "gifter.email".
	At []any
}

// New reads obj, recording refusals in r.
func New(obj map[string]any, r *domain.Refusals) Reader { return Reader{Obj: obj, R: r} }

func (d Reader) refuse(msg, field string) {
	d.R.Refuse(domain.VInvalid, msg, append(d.At[:len(d.At):len(d.At)], field)...)
}

// Has reports whether the body has field, even as null.
func (d Reader) Has(field string) bool {
	_, ok := d.Obj[field]
	return ok
}

// raw returns the field's value; the Optional is set (maybe null) when the
// field is present.
func raw[T any](d Reader, field string) (value any, o Optional[T], ok bool) {
	value, present := d.Obj[field]
	switch {
	case !present:
		return nil, o, false
	case value == nil:
		return nil, domain.Null[T](), false
	}
	return value, o, true
}

// Optional is domain.Optional, named here for the readers' signatures.
type Optional[T any] = domain.Optional[T]

// String reads text as DRF's CharField: numbers are taken as their text;
// a boolean, a list or an object is refused.
func (d Reader) String(field string) Optional[string] {
	value, o, ok := raw[string](d, field)
	if !ok {
		return o
	}
	switch x := value.(type) {
	case string:
		return domain.Some(x)
	case json.Number:
		return domain.Some(x.String())
	}
	d.refuse(domain.MsgString, field)
	return o
}

// Bool reads a boolean as DRF's BooleanField: true/false, 1/0 and their
// usual spellings as strings.
func (d Reader) Bool(field string) Optional[bool] {
	value, o, ok := raw[bool](d, field)
	if !ok {
		return o
	}
	switch x := value.(type) {
	case bool:
		return domain.Some(x)
	case json.Number, string:
		switch strings.ToLower(fmt.Sprint(x)) {
		case "true", "1", "yes", "on", "t", "y":
			return domain.Some(true)
		case "false", "0", "no", "off", "f", "n":
			return domain.Some(false)
		}
	}
	d.refuse(MsgBoolean, field)
	return o
}

// Int reads an integer as DRF's IntegerField: a number without a fraction
// or a string holding one.
func (d Reader) Int(field string) Optional[int64] {
	value, o, ok := raw[int64](d, field)
	if !ok {
		return o
	}
	if _, isBool := value.(bool); !isBool {
		if n, ok := domain.AsInt(value); ok {
			return domain.Some(n)
		}
	}
	d.refuse(domain.MsgInteger, field)
	return o
}

// pk reads one primary key as DRF's PrimaryKeyRelatedField.
func pk(value any) (int64, bool) {
	if _, isBool := value.(bool); isBool {
		return 0, false
	}
	return domain.AsInt(value)
}

// PK reads the id of a related record.
func (d Reader) PK(field string) Optional[int64] {
	value, o, ok := raw[int64](d, field)
	if !ok {
		return o
	}
	if n, ok := pk(value); ok {
		return domain.Some(n)
	}
	d.refuse(fmt.Sprintf(MsgPKType, domain.JSONTypeName(value)), field)
	return o
}

// PKList reads a list of ids.
func (d Reader) PKList(field string) Optional[[]int64] {
	value, o, ok := raw[[]int64](d, field)
	if !ok {
		return o
	}
	list, isList := value.([]any)
	if !isList {
		d.refuse(fmt.Sprintf(domain.MsgNotAList, domain.JSONTypeName(value)), field)
		return o
	}
	ids := make([]int64, 0, len(list))
	for _, e := range list {
		n, ok := pk(e)
		if !ok {
			d.refuse(fmt.Sprintf(MsgPKType, domain.JSONTypeName(e)), field)
			return o
		}
		ids = append(ids, n)
	}
	return domain.Some(ids)
}

// maxExponent bounds the exponent of a number written with one ("1e3"):
// 1e1000000000 is a few bytes of JSON but a billion digits to compare or
// round.
const maxExponent = 100

// Decimal reads a number as DRF's DecimalField: a JSON number or a
// decimal string, its exponent (if written with one) within maxExponent.
func (d Reader) Decimal(field string) Optional[decimal.Decimal] {
	value, o, ok := raw[decimal.Decimal](d, field)
	if !ok {
		return o
	}
	var s string
	switch x := value.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = strings.TrimSpace(x)
	}
	n, err := decimal.NewFromString(s)
	if err == nil && (!strings.ContainsAny(s, "eE") || n.Exponent() >= -maxExponent && n.Exponent() <= maxExponent) {
		return domain.Some(n)
	}
	d.refuse(domain.MsgDecimal, field)
	return o
}

// Date reads a YYYY-MM-DD date.
func (d Reader) Date(field string) Optional[time.Time] {
	value, o, ok := raw[time.Time](d, field)
	if !ok {
		return o
	}
	s, _ := value.(string)
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		d.refuse(MsgDate, field)
		return o
	}
	return domain.Some(t)
}

// DateTime reads an RFC 3339 date-time with its offset, as DRF's
// DateTimeField.
func (d Reader) DateTime(field string) Optional[time.Time] {
	value, o, ok := raw[time.Time](d, field)
	if !ok {
		return o
	}
	s, _ := value.(string)
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		d.refuse(MsgDateTime, field)
		return o
	}
	return domain.Some(t)
}

// Day reads a calendar day: YYYY-MM-DD, or an RFC 3339 date-time whose
// date in its own offset is the day.
func (d Reader) Day(field string) Optional[time.Time] {
	value, o, ok := raw[time.Time](d, field)
	if !ok {
		return o
	}
	s, _ := value.(string)
	s = strings.TrimSpace(s)
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		if at, err2 := time.Parse(time.RFC3339, s); err2 == nil {
			t, err = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC), nil
		}
	}
	if err != nil {
		d.refuse(MsgDayFormat, field)
		return o
	}
	return domain.Some(t)
}

// UUID reads a UUID.
func (d Reader) UUID(field string) Optional[uuid.UUID] {
	value, o, ok := raw[uuid.UUID](d, field)
	if !ok {
		return o
	}
	s, _ := value.(string)
	u, err := uuid.Parse(strings.TrimSpace(s))
	if err != nil {
		d.refuse(domain.MsgUUID, field)
		return o
	}
	return domain.Some(u)
}

// Texts reads the prefix_<lang> fields of every language.
func (d Reader) Texts(prefix string) map[string]Optional[string] {
	out := make(map[string]Optional[string], len(domain.Languages))
	for _, lang := range domain.Languages {
		out[lang] = d.String(prefix + "_" + lang)
	}
	return out
}

// Object reads a nested object; ok is false when the field is absent,
// null (o tells which) or not an object (refused as DRF's nested
// serializer does).
func (d Reader) Object(field string) (nested Reader, o Optional[struct{}], ok bool) {
	value, o, ok := raw[struct{}](d, field)
	if !ok {
		return Reader{}, o, false
	}
	obj, isObj := value.(map[string]any)
	if !isObj {
		d.refuse(fmt.Sprintf(domain.MsgNotADict, domain.JSONTypeName(value)), field)
		return Reader{}, o, false
	}
	at := append(d.At[:len(d.At):len(d.At)], field)
	return Reader{Obj: obj, R: d.R, At: at}, domain.Some(struct{}{}), true
}
