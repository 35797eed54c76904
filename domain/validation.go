package domain

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Validation error codes, shared by every input. The messages are DRF's, which
// legacy clients display.
const (
	VRequired  = "required"
	VNull      = "null"
	VInvalid   = "invalid"
	VMinValue  = "min_value"
	VMaxValue  = "max_value"
	VMaxLength = "max_length"
	VNotFound  = "does_not_exist"
)

// Validator collects field errors for one input.
type Validator struct {
	Fields []FieldError
	// lengths are the lists' lengths (ListLength), made into the error's
	// map only when there is an error.
	lengths []listLength
}

type listLength struct {
	path []any
	n    int
}

func (v *Validator) Add(code, msg string, path ...any) {
	v.Fields = append(v.Fields, FieldError{Path: path, Code: code, Message: msg})
}

// ListLength records the length of a list that may carry element errors.
func (v *Validator) ListLength(n int, path ...any) {
	v.lengths = append(v.lengths, listLength{path: path, n: n})
}

// Err returns the collected errors as one *Error, or nil.
func (v *Validator) Err() error {
	if len(v.Fields) == 0 {
		return nil
	}
	var lengths map[string]int
	if len(v.lengths) > 0 {
		lengths = make(map[string]int, len(v.lengths))
		for _, l := range v.lengths {
			lengths[PathKey(l.path)] = l.n
		}
	}
	return &Error{Code: CodeInvalid, Message: "Invalid input.", Fields: v.Fields, ListLengths: lengths}
}

// PathKey joins a field path with dots: ["items", 1] is "items.1".
func PathKey(path []any) string {
	if len(path) == 1 {
		if s, ok := path[0].(string); ok {
			return s
		}
	}
	var b strings.Builder
	for i, p := range path {
		if i > 0 {
			b.WriteByte('.')
		}
		switch p := p.(type) {
		case string:
			b.WriteString(p)
		case int:
			b.WriteString(strconv.Itoa(p))
		default:
			fmt.Fprint(&b, p)
		}
	}
	return b.String()
}

// JSONTypeName is the Python type name DRF's messages give a JSON value.
func JSONTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "str"
	case bool:
		return "bool"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	default:
		return "int"
	}
}

// AsInt reads an integer from a decoded JSON value: a number without a
// fraction, or a string holding one, as DRF's IntegerField accepts.
func AsInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case json.Number:
		return parseIntLike(n.String())
	case string:
		return parseIntLike(strings.TrimSpace(n))
	}
	return 0, false
}

func parseIntLike(s string) (int64, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, true
	}
	// DRF accepts 3.0 as 3 but not 3.5.
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) || f > 1<<53 || f < -(1<<53) {
		return 0, false
	}
	return int64(f), true
}

// Messages of DRF's fields, which legacy clients display.
const (
	MsgRequired = "This field is required."
	MsgNull     = "This field may not be null."
	MsgBlank    = "This field may not be blank."
	MsgString   = "Not a valid string."
	MsgInteger  = "A valid integer is required."
)

// The instants an input may name. PostgreSQL has no year 0 and Go's
// date formats write four-digit years, so every date or date-time input
// is kept to years 1 to 9999 in UTC; outside them the database would
// refuse the statement, which must be the client's 400, not a 500.
var (
	minInputTime = time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)
	MaxInputTime = time.Date(10000, time.January, 1, 0, 0, 0, 0, time.UTC)
)

const MsgDateOutOfRange = "Enter a date between 0001-01-01 and 9999-12-31 (UTC)."

// InTimeRange reports whether t is an instant an input may name.
func InTimeRange(t time.Time) bool {
	return !t.Before(minInputTime) && t.Before(MaxInputTime)
}

// TimeInRange records an error at path when t is outside the input range.
func (v *Validator) TimeInRange(t time.Time, path ...any) bool {
	if !InTimeRange(t) {
		v.Add(VInvalid, MsgDateOutOfRange, path...)
		return false
	}
	return true
}

// OptTime reads an optional date-time input: old when p is nil.
func (v *Validator) OptTime(p *time.Time, old time.Time, path ...any) time.Time {
	if p == nil || !v.TimeInRange(*p, path...) {
		return old
	}
	return *p
}

// Limits and messages of the text, URL and e-mail checks every input shares.
const (
	MaxURLLength      = 2048
	MaxPhoneLength    = 32
	MsgNullCharacters = "Null characters are not allowed."
	msgURL            = "Enter a valid URL."
	MsgEmail          = "Enter a valid email address."
)

// PlainText records an error at path for a text with a NUL character or
// longer than max characters.
func (v *Validator) PlainText(s string, max int, path []any) {
	switch {
	case strings.ContainsRune(s, 0):
		v.Add(VInvalid, MsgNullCharacters, path...)
	case utf8.RuneCountInString(s) > max:
		v.Add(VMaxLength, fmt.Sprintf("Ensure this field has no more than %d characters.", max), path...)
	}
}

// HTTPURL records an error at path unless u is "" or an absolute http(s)
// URL of at most MaxURLLength characters.
func (v *Validator) HTTPURL(u string, path []any) {
	switch {
	case u == "":
	case utf8.RuneCountInString(u) > MaxURLLength:
		v.Add(VMaxLength, fmt.Sprintf("Ensure this field has no more than %d characters.", MaxURLLength), path...)
	case !ValidHTTPURL(u):
		v.Add(VInvalid, msgURL, path...)
	}
}

// ValidHTTPURL accepts absolute http and https URLs with a host, as DRF's
// URLField does.
func ValidHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(s, " \t\r\n")
}

// ValidEmail is the one e-mail rule: a bare address (no display name)
// whose domain has a dot, as DRF's EmailField accepts.
func ValidEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	host := s[at+1:]
	return at > 0 && strings.Contains(host, ".") && !strings.HasPrefix(host, ".") && !strings.HasSuffix(host, ".")
}

// HasFieldError reports whether v holds an error at exactly path.
func HasFieldError(v *Validator, path ...any) bool {
	if len(v.Fields) == 0 {
		return false
	}
	key := PathKey(path)
	for _, f := range v.Fields {
		if PathKey(f.Path) == key {
			return true
		}
	}
	return false
}
