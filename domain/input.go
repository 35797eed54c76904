package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// The typed inputs of the domain's writes. A surface reads its request
// (a DRF body on REST, a generated model in the graph) into the write's
// input struct and calls the service once; the service applies every rule
// and answers field errors named by the contract's field names.

// Optional is one field of a write's input: absent, null, or a value. A
// partial update changes only the fields that are set; a create takes an
// absent field's default.
type Optional[T any] struct {
	Value T
	Set   bool // sent, as a value or as null
	Null  bool // sent as null
}

// Some is a field sent with a value.
func Some[T any](v T) Optional[T] { return Optional[T]{Value: v, Set: true} }

// Null is a field sent as null.
func Null[T any]() Optional[T] { return Optional[T]{Set: true, Null: true} }

// FromPtr is a field that is absent when p is nil.
func FromPtr[T any](p *T) Optional[T] {
	if p == nil {
		return Optional[T]{}
	}
	return Some(*p)
}

// Get returns the value when one was sent.
func (o Optional[T]) Get() (T, bool) { return o.Value, o.Set && !o.Null }

// Refusals holds the field errors a surface found reading a request into
// a typed input, before any rule ran: a value the input cannot hold (DRF's
// "A valid integer is required."). The service answers them with its own
// errors in one response, and its rules skip a refused field. The graph
// never refuses: its schema types every value.
type Refusals struct{ Fields []FieldError }

// Refuse records a field error.
func (r *Refusals) Refuse(code, msg string, path ...any) {
	r.Fields = append(r.Fields, FieldError{Path: path, Code: code, Message: msg})
}

// Validator starts a write's validation with the refusals.
func (r Refusals) Validator() *Validator {
	return &Validator{Fields: append([]FieldError(nil), r.Fields...)}
}

// Fields reads the Optional fields of one input against the rules every
// field shares, with DRF's messages: required (unless Partial), not null
// (unless nullable), not blank, at most so many characters, within range.
// A refused field is skipped: its error is already recorded.
type Fields struct {
	V       *Validator
	Partial bool
}

// present reports whether o holds a value, recording "required" for an
// absent required field and "may not be null" for a null one that may not
// be. null reports an accepted explicit null.
func present[T any](f Fields, field string, o Optional[T], required, nullable bool) (ok, null bool) {
	switch {
	case HasFieldError(f.V, field):
		return false, false
	case !o.Set:
		if required && !f.Partial {
			f.V.Add(VRequired, MsgRequired, field)
		}
		return false, false
	case o.Null:
		if !nullable {
			f.V.Add(VNull, MsgNull, field)
			return false, false
		}
		return false, true
	}
	return true, false
}

// Present is present for rules of an area's own: the value when o holds
// one that is not refused.
func Present[T any](f Fields, field string, o Optional[T], required, nullable bool) (v T, ok, null bool) {
	ok, null = present(f, field, o, required, nullable)
	return o.Value, ok, null
}

// text reads a trimmed string of at most max characters, as DRF's
// CharField; blank strings are allowed.
func (f Fields) text(field string, o Optional[string], required bool, max int) *string {
	if ok, _ := present(f, field, o, required, false); !ok {
		return nil
	}
	s := strings.TrimSpace(o.Value)
	switch {
	case strings.ContainsRune(s, 0):
		f.V.Add(VInvalid, MsgNullCharacters, field)
		return nil
	case utf8.RuneCountInString(s) > max:
		f.V.Add(VMaxLength, fmt.Sprintf(MsgMaxLength, max), field)
		return nil
	}
	return &s
}

// String reads a string of at most max characters: trimmed, blank only
// when allowBlank. nil when absent, null or invalid.
func (f Fields) String(field string, o Optional[string], required, allowBlank bool, max int) *string {
	s := f.text(field, o, required, max)
	if s != nil && *s == "" && !allowBlank {
		f.V.Add(VRequired, MsgBlank, field)
		return nil
	}
	return s
}

// NullableString is String for a field that may be null; set reports a
// value or an explicit null (s nil).
func (f Fields) NullableString(field string, o Optional[string], allowBlank bool, max int) (s *string, set bool) {
	if ok, null := present(f, field, o, false, true); !ok {
		return nil, null
	}
	s = f.String(field, o, false, allowBlank, max)
	return s, s != nil
}

// Email reads an e-mail address (ValidEmail).
func (f Fields) Email(field string, o Optional[string], required bool) *string {
	s := f.String(field, o, required, false, MaxEmailLength)
	if s != nil && !ValidEmail(*s) {
		f.V.Add(VInvalid, MsgEmail, field)
		return nil
	}
	return s
}

// URL reads an absolute http(s) URL (ValidHTTPURL).
func (f Fields) URL(field string, o Optional[string], required bool) *string {
	s := f.String(field, o, required, false, MaxURLLength)
	if s != nil && !ValidHTTPURL(*s) {
		f.V.Add(VInvalid, msgURL, field)
		return nil
	}
	return s
}

// Choice reads a string among choices.
func (f Fields) Choice(field string, o Optional[string], required bool, choices []string) *string {
	s := f.text(field, o, required, MaxNameLength)
	if s == nil {
		return nil
	}
	for _, c := range choices {
		if *s == c {
			return s
		}
	}
	f.V.Add(VInvalid, fmt.Sprintf(MsgLanguageChoice, *s), field)
	return nil
}

// Bool reads an optional boolean.
func (f Fields) Bool(field string, o Optional[bool]) *bool {
	if ok, _ := present(f, field, o, false, false); !ok {
		return nil
	}
	return &o.Value
}

// Integer reads an integer within [min, 2^31-1]. set reports a value or
// an explicit null (nullable fields only); n is nil for null.
func (f Fields) Integer(field string, o Optional[int64], required, nullable bool, min int64) (n *int, set bool) {
	ok, null := present(f, field, o, required, nullable)
	if !ok {
		return nil, null
	}
	switch i := o.Value; {
	case i < min:
		f.V.Add(VMinValue, fmt.Sprintf(msgMinInt, min), field)
		return nil, false
	case i > MaxInt32:
		f.V.Add(VMaxValue, msgMaxInt32, field)
		return nil, false
	}
	x := int(o.Value)
	return &x, true
}

// Money reads an amount (Amount's rule). set reports a value or an
// explicit null (nullable fields only).
func (f Fields) Money(field string, o Optional[decimal.Decimal], required, nullable bool) (m *decimal.Decimal, set bool) {
	ok, null := present(f, field, o, required, nullable)
	if !ok {
		return nil, null
	}
	before := len(f.V.Fields)
	amount := f.V.Amount(o.Value, field)
	if len(f.V.Fields) > before {
		return nil, false
	}
	return &amount, true
}

// MsgPositive refuses an amount of 0 or less where one must be more.
const MsgPositive = "Ensure this value is greater than 0."

// PositiveMoney is Money for an amount that must be more than 0 (a
// payment's, a use's, a refund's): 0 or less is refused as that, not as
// below 0.
func (f Fields) PositiveMoney(field string, o Optional[decimal.Decimal], required bool) *decimal.Decimal {
	if ok, _ := present(f, field, o, required, false); !ok {
		return nil
	}
	if !o.Value.IsPositive() {
		f.V.Add(VMinValue, MsgPositive, field)
		return nil
	}
	m, _ := f.Money(field, o, required, false)
	return m
}

// PK reads the id of a related record; set reports a value or an explicit
// null (nullable fields only).
func (f Fields) PK(field string, o Optional[int64], required, nullable bool) (id *int64, set bool) {
	ok, null := present(f, field, o, required, nullable)
	if !ok {
		return nil, null
	}
	return &o.Value, true
}

// PKList reads a list of at most maxListedPKs ids, duplicates dropped;
// nil when absent or invalid.
func (f Fields) PKList(field string, o Optional[[]int64]) []int64 {
	if ok, _ := present(f, field, o, false, false); !ok {
		return nil
	}
	if len(o.Value) > maxListedPKs {
		f.V.Add(VMaxElements, fmt.Sprintf(MsgTooManyElements, maxListedPKs), field)
		return nil
	}
	ids := make([]int64, 0, len(o.Value))
	seen := map[int64]bool{}
	for _, n := range o.Value {
		if !seen[n] {
			seen[n] = true
			ids = append(ids, n)
		}
	}
	return ids
}

// Date reads a calendar day or null within the input range; out of it,
// msg (the surface's format message: the day cannot be stored).
func (f Fields) Date(field string, o Optional[time.Time], msg string) (day *time.Time, set bool) {
	ok, null := present(f, field, o, false, true)
	if !ok {
		return nil, null
	}
	if !InTimeRange(o.Value) {
		f.V.Add(VInvalid, msg, field)
		return nil, false
	}
	return &o.Value, true
}

// UUID reads a UUID; nil when absent, null or refused.
func (f Fields) UUID(field string, o Optional[uuid.UUID], required bool) *uuid.UUID {
	if ok, _ := present(f, field, o, required, false); !ok {
		return nil
	}
	return &o.Value
}

// Texts reads the prefix_<lang> fields of texts into into: a blank text
// removes that language.
func (f Fields) Texts(prefix string, texts map[string]Optional[string], required bool, max int, into Localized) {
	for _, lang := range Languages {
		if s := f.text(prefix+"_"+lang, texts[lang], required, max); s != nil {
			if *s == "" {
				delete(into, lang)
			} else {
				into[lang] = *s
			}
		}
	}
}

// Nameless records msgNoName when names is empty and no prefix_<lang>
// field has an error of its own; on a partial update only when the input
// sets one of texts.
func (f Fields) Nameless(prefix string, texts map[string]Optional[string], names Localized) {
	if len(names) > 0 || (f.Partial && !anySet(texts)) {
		return
	}
	for _, lang := range Languages {
		if HasFieldError(f.V, prefix+"_"+lang) {
			return
		}
	}
	f.V.Add(VRequired, msgNoName)
}

func anySet(texts map[string]Optional[string]) bool {
	for _, t := range texts {
		if t.Set {
			return true
		}
	}
	return false
}

// MissingPK records DRF's error for an id naming no record visible here.
func (f Fields) MissingPK(field string, id int64) {
	f.V.Add(VNotFound, fmt.Sprintf(MsgPKMissing, id), field)
}

// WritePartner reads partner_uuid and returns the partner the write
// creates a record for (WritePartner); when that is refused, nil with the
// field error recorded among the input's others. required asks for
// partner_uuid even from a member (option categories).
// Errors: a failed partner lookup.
func (f Fields) WritePartner(ctx context.Context, partners PartnerStore, c *Caller, o Optional[uuid.UUID], required bool) (*Partner, error) {
	u := f.UUID("partner_uuid", o, required)
	if required && u == nil {
		return nil, nil
	}
	partner, err := WritePartner(ctx, partners, c, u, "partner_uuid")
	var e *Error
	if errors.As(err, &e) && e.Code == CodeInvalid {
		f.V.Fields = append(f.V.Fields, e.Fields...)
		return nil, nil
	}
	return partner, err
}
