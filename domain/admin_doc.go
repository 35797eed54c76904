package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// msgNoName refuses a prototype, option or category without any name.
const msgNoName = "At least one name_<lang> must not be blank."

// Readers of the administration API's JSON bodies: a decoded
// JSON object (numbers as json.Number), read field by field as DRF's
// serializer fields do, with their messages. Unknown fields are ignored,
// as DRF does. The graph builds the same object from its typed input, so
// both surfaces share every rule.

// Messages of DRF's fields used by the administration bodies.
const (
	msgBoolean     = "Must be a valid boolean."
	msgDate        = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD."
	MsgUUID        = "Must be a valid UUID."
	msgPKType      = "Incorrect type. Expected pk value, received %s."
	MsgPKMissing   = "Invalid pk \"%d\" - object does not exist."
	MsgNotAList    = "Expected a list of items but got type \"%s\"."
	MsgNotADict    = "Expected a dictionary of items but got type \"%s\"."
	msgMaxInt32    = "Ensure this value is less than or equal to 2147483647."
	msgMinInt      = "Ensure this value is greater than or equal to %d."
	MaxInt32       = 1<<31 - 1
	maxListedPKs   = 100 // ids in one list field
	MaxServiceRows = 20  // services_info entries of an option
)

// Doc is a decoded JSON object of an administration body.
type Doc = map[string]any

// DocReader reads one body. On a partial update (PATCH) an absent field is
// never an error; otherwise absent required fields are.
type DocReader struct {
	V       *Validator
	Obj     Doc
	Partial bool
}

// Raw returns a field's value; ok is false when it is absent or null (with
// the required and null errors recorded). null reports an explicit null.
func (d *DocReader) Raw(field string, required, nullable bool) (value any, ok, null bool) {
	value, present := d.Obj[field]
	switch {
	case !present:
		if required && !d.Partial {
			d.V.Add(VRequired, MsgRequired, field)
		}
		return nil, false, false
	case value == nil:
		if !nullable {
			d.V.Add(VNull, MsgNull, field)
			return nil, false, false
		}
		return nil, false, true
	}
	return value, true, false
}

// str reads a string of at most max characters; numbers and booleans are
// taken as their text, as DRF's CharField does. Blank strings are allowed.
func (d *DocReader) str(field string, required bool, max int) *string {
	value, ok, _ := d.Raw(field, required, false)
	if !ok {
		return nil
	}
	var s string
	switch x := value.(type) {
	case string:
		s = strings.TrimSpace(x)
	case json.Number:
		s = x.String()
	case bool:
		s = map[bool]string{true: "True", false: "False"}[x]
	default:
		d.V.Add(VInvalid, MsgString, field)
		return nil
	}
	switch {
	case strings.ContainsRune(s, 0):
		d.V.Add(VInvalid, MsgNullCharacters, field)
		return nil
	case utf8.RuneCountInString(s) > max:
		d.V.Add(VMaxLength, fmt.Sprintf(MsgMaxLength, max), field)
		return nil
	}
	return &s
}

// Texts reads prefix_<lang> for every language into into: a blank text
// removes that language.
func (d *DocReader) Texts(prefix string, required bool, max int, into Localized) {
	for _, lang := range Languages {
		if s := d.str(prefix+"_"+lang, required, max); s != nil {
			if *s == "" {
				delete(into, lang)
			} else {
				into[lang] = *s
			}
		}
	}
}

// Nameless records msgNoName when names is empty and no prefix_<lang>
// field has an error of its own; on a partial update only when the body
// gives one of them.
func (d *DocReader) Nameless(prefix string, names Localized) {
	if len(names) > 0 || (d.Partial && !d.touches(prefix)) {
		return
	}
	for _, lang := range Languages {
		if HasFieldError(d.V, prefix+"_"+lang) {
			return
		}
	}
	d.V.Add(VRequired, msgNoName)
}

// touches reports whether the body has any prefix_<lang> field.
func (d *DocReader) touches(prefix string) bool {
	for _, lang := range Languages {
		if _, ok := d.Obj[prefix+"_"+lang]; ok {
			return true
		}
	}
	return false
}

// Boolean reads a boolean as DRF's BooleanField: true/false, 1/0 and their
// usual spellings as strings.
func (d *DocReader) Boolean(field string) *bool {
	value, ok, _ := d.Raw(field, false, false)
	if !ok {
		return nil
	}
	var b bool
	switch x := value.(type) {
	case bool:
		b = x
	case json.Number, string:
		switch strings.ToLower(fmt.Sprint(x)) {
		case "true", "1", "yes", "on", "t", "y":
			b = true
		case "false", "0", "no", "off", "f", "n":
		default:
			d.V.Add(VInvalid, msgBoolean, field)
			return nil
		}
	default:
		d.V.Add(VInvalid, msgBoolean, field)
		return nil
	}
	return &b
}

// Integer reads an integer within [min, 2^31-1]. set reports a value or
// an explicit null (nullable fields only); n is nil for null.
func (d *DocReader) Integer(field string, required, nullable bool, min int64) (n *int, set bool) {
	value, ok, null := d.Raw(field, required, nullable)
	if !ok {
		return nil, null
	}
	i, ok := AsInt(value)
	switch {
	case !ok:
		d.V.Add(VInvalid, MsgInteger, field)
		return nil, false
	case i < min:
		d.V.Add(VMinValue, fmt.Sprintf(msgMinInt, min), field)
		return nil, false
	case i > MaxInt32:
		d.V.Add(VMaxValue, msgMaxInt32, field)
		return nil, false
	}
	x := int(i)
	return &x, true
}

// Money reads an amount of at least 0 with at most two decimals, given as
// a JSON number or a decimal string (DRF's DecimalField).
func (d *DocReader) Money(field string, required, nullable bool) (m *decimal.Decimal, set bool) {
	value, ok, null := d.Raw(field, required, nullable)
	if !ok {
		return nil, null
	}
	var s string
	switch x := value.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = x
	default:
		d.V.Add(VInvalid, MsgDecimal, field)
		return nil, false
	}
	before := len(d.V.Fields)
	amount := d.V.Money(s, field)
	if len(d.V.Fields) > before {
		return nil, false
	}
	return &amount, true
}

// Choice reads a string among choices.
func (d *DocReader) Choice(field string, required bool, choices []string) *string {
	s := d.str(field, required, MaxNameLength)
	if s == nil {
		return nil
	}
	for _, c := range choices {
		if *s == c {
			return s
		}
	}
	d.V.Add(VInvalid, fmt.Sprintf(MsgLanguageChoice, *s), field)
	return nil
}

// pkValue reads one primary key as DRF's PrimaryKeyRelatedField.
func pkValue(value any) (int64, bool) {
	if _, isBool := value.(bool); isBool {
		return 0, false
	}
	return AsInt(value)
}

// PK reads the id of a related record; set reports a value or an explicit
// null (nullable fields only).
func (d *DocReader) PK(field string, required, nullable bool) (id *int64, set bool) {
	value, ok, null := d.Raw(field, required, nullable)
	if !ok {
		return nil, null
	}
	n, ok := pkValue(value)
	if !ok {
		d.V.Add(VInvalid, fmt.Sprintf(msgPKType, JSONTypeName(value)), field)
		return nil, false
	}
	return &n, true
}

// PKList reads a list of at most maxListedPKs ids, without duplicates;
// nil when absent or invalid.
func (d *DocReader) PKList(field string) []int64 {
	value, ok, _ := d.Raw(field, false, false)
	if !ok {
		return nil
	}
	list, isList := value.([]any)
	if !isList {
		d.V.Add(VInvalid, fmt.Sprintf(MsgNotAList, JSONTypeName(value)), field)
		return nil
	}
	if len(list) > maxListedPKs {
		d.V.Add(VMaxElements, fmt.Sprintf(MsgTooManyElements, maxListedPKs), field)
		return nil
	}
	ids := make([]int64, 0, len(list))
	seen := map[int64]bool{}
	for _, e := range list {
		n, ok := pkValue(e)
		if !ok {
			d.V.Add(VInvalid, fmt.Sprintf(msgPKType, JSONTypeName(e)), field)
			return nil
		}
		if !seen[n] {
			seen[n] = true
			ids = append(ids, n)
		}
	}
	return ids
}

// Date reads a YYYY-MM-DD date or null.
func (d *DocReader) Date(field string) (day *time.Time, set bool) {
	value, ok, null := d.Raw(field, false, true)
	if !ok {
		return nil, null
	}
	s, _ := value.(string)
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil || !InTimeRange(t) {
		d.V.Add(VInvalid, msgDate, field)
		return nil, false
	}
	return &t, true
}

// uuidField reads a UUID; nil when absent, null or invalid.
func (d *DocReader) uuidField(field string, required bool) *uuid.UUID {
	value, ok, _ := d.Raw(field, required, false)
	if !ok {
		return nil
	}
	s, _ := value.(string)
	u, err := uuid.Parse(strings.TrimSpace(s))
	if err != nil {
		d.V.Add(VInvalid, MsgUUID, field)
		return nil
	}
	return &u
}

// MissingPK records DRF's error for ids naming no record visible here.
func (d *DocReader) MissingPK(field string, id int64) {
	d.V.Add(VNotFound, fmt.Sprintf(MsgPKMissing, id), field)
}

// WritePartner reads partner_uuid and returns the partner the write
// creates a record for (WritePartner); when that is refused, nil with the
// field error recorded among the body's others. required asks for
// partner_uuid even from a member (option categories).
// Errors: a failed partner lookup.
func (d *DocReader) WritePartner(ctx context.Context, partners PartnerStore, c *Caller, required bool) (*Partner, error) {
	u := d.uuidField("partner_uuid", required)
	if required && u == nil {
		return nil, nil
	}
	partner, err := WritePartner(ctx, partners, c, u, "partner_uuid")
	var e *Error
	if errors.As(err, &e) && e.Code == CodeInvalid {
		d.V.Fields = append(d.V.Fields, e.Fields...)
		return nil, nil
	}
	return partner, err
}

// Messages of the readers below.
const (
	MsgDayFormat = "Date has wrong format. Use one of these formats instead: YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
	// MaxEmailLength is DRF's EmailField's (RFC 5321's path limit).
	MaxEmailLength = 254
)

// String reads a string of at most max characters as DRF's CharField:
// trimmed, numbers and booleans taken as their text; blank only when
// allowBlank ("This field may not be blank." otherwise). nil when absent,
// null or invalid.
func (d *DocReader) String(field string, required, allowBlank bool, max int) *string {
	s := d.str(field, required, max)
	if s != nil && *s == "" && !allowBlank {
		d.V.Add(VRequired, MsgBlank, field)
		return nil
	}
	return s
}

// Email reads an e-mail address as DRF's EmailField (ValidEmail).
func (d *DocReader) Email(field string, required bool) *string {
	s := d.String(field, required, false, MaxEmailLength)
	if s != nil && !ValidEmail(*s) {
		d.V.Add(VInvalid, MsgEmail, field)
		return nil
	}
	return s
}

// URL reads an absolute http(s) URL as DRF's URLField (ValidHTTPURL).
func (d *DocReader) URL(field string, required bool) *string {
	s := d.String(field, required, false, MaxURLLength)
	if s != nil && !ValidHTTPURL(*s) {
		d.V.Add(VInvalid, msgURL, field)
		return nil
	}
	return s
}

// UUID reads a UUID; nil when absent, null or invalid.
func (d *DocReader) UUID(field string, required bool) *uuid.UUID {
	return d.uuidField(field, required)
}

// Day reads a calendar day or null: YYYY-MM-DD, or an RFC 3339 date-time,
// whose date in its own offset is the day.
func (d *DocReader) Day(field string) (day *time.Time, set bool) {
	value, ok, null := d.Raw(field, false, true)
	if !ok {
		return nil, null
	}
	s, _ := value.(string)
	s = strings.TrimSpace(s)
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		if at, err2 := time.Parse(time.RFC3339, s); err2 == nil {
			t, err = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC), nil
		}
	}
	if err != nil || !InTimeRange(t) {
		d.V.Add(VInvalid, MsgDayFormat, field)
		return nil, false
	}
	return &t, true
}
