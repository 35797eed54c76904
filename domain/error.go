package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Code classifies an Error. The transports map each code once: rest to an HTTP
// status and a DRF body, graph to extensions.code.
type Code string

const (
	CodeInvalid            Code = "invalid"             // input breaks a rule; see Fields
	CodeUnauthenticated    Code = "unauthenticated"     // no or bad credentials
	CodeForbidden          Code = "forbidden"           // authenticated but not allowed
	CodeNotFound           Code = "not_found"           // absent, or another tenant's
	CodePreconditionFailed Code = "precondition_failed" // If-Match did not match
	CodeConflict           Code = "conflict"            // the record's state refuses the change
	CodeUnprocessable      Code = "unprocessable"       // well-formed, but cannot be processed as sent (an idempotency key reused for another request)
	CodeThrottled          Code = "throttled"           // too many attempts; see RetryAfter
	CodeTooLarge           Code = "too_large"           // an input is past its size limit
	CodeUnavailable        Code = "unavailable"         // a dependency or capacity is out for now; see RetryAfter
	CodeInternal           Code = "internal"            // a bug or an outage, never shown as is
)

// Messages the legacy clients already parse; the transports show them verbatim.
const (
	MsgNotAuthenticated = "Authentication credentials were not provided."
	MsgInvalidToken     = "Invalid token."
	MsgPermissionDenied = "You do not have permission to perform this action."
	MsgNotFound         = "Not found."
	MsgUnavailable      = "Service temporarily unavailable, try again later." // DRF's 503
)

// Error is the one error type of the domain. Anything else reaching a
// transport is treated as internal.
type Error struct {
	Code    Code
	Message string
	// Fields lists the input errors of a CodeInvalid error.
	Fields []FieldError
	// ListLengths gives, for each list in the input that has errors (keyed by
	// its dotted path, "items"), how many elements it had, so a transport can
	// report one entry per element as DRF does.
	ListLengths map[string]int
	// RetryAfter is set on CodeThrottled and CodeUnavailable errors, and
	// on a CodeConflict that clears by itself (another request's work in
	// progress).
	RetryAfter time.Duration
}

// FieldError is one invalid input value. Path holds field names (string) and
// list indexes (int) from the root of the input: ["items", 1, "quantity"].
type FieldError struct {
	Path    []any
	Code    string
	Message string
}

func (e *Error) Error() string {
	if len(e.Fields) > 0 {
		return fmt.Sprintf("%s: %s (%d field errors)", e.Code, e.Message, len(e.Fields))
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Describe returns err with its field errors spelled out, "path: message"
// joined by "; ", for a terminal (the commands of the binary); other errors
// are returned as they are.
func Describe(err error) error {
	var de *Error
	if !errors.As(err, &de) || len(de.Fields) == 0 {
		return err
	}
	msgs := make([]string, len(de.Fields))
	for i, f := range de.Fields {
		msgs[i] = PathKey(f.Path) + ": " + f.Message
	}
	return errors.New(strings.Join(msgs, "; "))
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, CodeInternal when err is not an *Error.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// AsError is err as the transports show it: the *Error it is or wraps;
// CodeUnavailable when a deadline passed (the database did not answer
// within its statement timeout: the client may retry); nil for anything
// else, which is a fault of the server.
func AsError(err error) *Error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, context.DeadlineExceeded):
		return ErrUnavailable
	}
	return nil
}

// IsCode reports whether err is an *Error with the given code.
func IsCode(err error, code Code) bool {
	return err != nil && ErrorCode(err) == code
}

// ErrNotFound is returned by stores when a row or key does not exist.
var ErrNotFound = &Error{Code: CodeNotFound, Message: MsgNotFound}

// ErrUnavailable is the answer while a store's server (PostgreSQL, Redis)
// cannot be reached or does not answer in time.
var ErrUnavailable = &Error{Code: CodeUnavailable, Message: MsgUnavailable, RetryAfter: 5 * time.Second}

// Unavailable marks err, a store's failure to reach its server, as the
// domain's ErrUnavailable: errors.As finds ErrUnavailable in it, so the
// request answers 503 with Retry-After, and err stays in it for the log.
// It is the one mapping of an outage, used by every store; what names the
// server ("database", "redis").
func Unavailable(what string, err error) error { return unavailableError{what, err} }

type unavailableError struct {
	what string
	err  error
}

func (e unavailableError) Error() string { return e.what + " unavailable: " + e.err.Error() }
func (e unavailableError) Unwrap() error { return e.err }

// As lets errors.As find ErrUnavailable in it.
func (e unavailableError) As(target any) bool {
	if p, ok := target.(**Error); ok {
		*p = ErrUnavailable
		return true
	}
	return false
}
