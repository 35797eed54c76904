package idempotency

import (
	"encoding/json"
	"errors"
	"fmt"

	"salesplatform/domain"
)

// outcome is what a key stores once done, as JSON: the work's result, or
// the refusal it answered.
type outcome struct {
	Result any          `json:"result"`
	Error  *storedError `json:"error,omitempty"`
}

// storedError is a refusal (a *domain.Error) as stored.
type storedError struct {
	Code        domain.Code    `json:"code"`
	Message     string         `json:"message"`
	Fields      []storedField  `json:"fields,omitempty"`
	ListLengths map[string]int `json:"list_lengths,omitempty"`
}

type storedField struct {
	Path    []any  `json:"path"` // names (string) and list indexes (number)
	Code    string `json:"code"`
	Message string `json:"message"`
}

// refusal is err as stored when it is a refusal to answer alike to every
// repeat: a *domain.Error but the codes that may change by themselves
// (credentials, throttles, an outage) and a refusal that says when to try
// again (RetryAfter: another request's work in progress); nil otherwise.
func refusal(err error) *storedError {
	var de *domain.Error
	if !errors.As(err, &de) || de.RetryAfter > 0 {
		return nil
	}
	switch de.Code {
	case domain.CodeUnauthenticated, domain.CodeThrottled, domain.CodeUnavailable, domain.CodeInternal:
		return nil
	}
	s := &storedError{Code: de.Code, Message: de.Message, ListLengths: de.ListLengths}
	for _, f := range de.Fields {
		s.Fields = append(s.Fields, storedField{Path: f.Path, Code: f.Code, Message: f.Message})
	}
	return s
}

// replay answers a stored outcome: the result decoded into T, or the
// refusal.
func replay[T any](b []byte) (T, error) {
	var zero T
	var o struct {
		Result json.RawMessage `json:"result"`
		Error  *storedError    `json:"error"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return zero, fmt.Errorf("idempotency: stored outcome: %w", err)
	}
	if o.Error != nil {
		return zero, o.Error.toDomain()
	}
	var v T
	if err := json.Unmarshal(o.Result, &v); err != nil {
		return zero, fmt.Errorf("idempotency: stored result as %T: %w", v, err)
	}
	return v, nil
}

func (s *storedError) toDomain() *domain.Error {
	e := &domain.Error{Code: s.Code, Message: s.Message, ListLengths: s.ListLengths}
	for _, f := range s.Fields {
		path := make([]any, len(f.Path))
		for i, p := range f.Path {
			if n, ok := p.(float64); ok { // a list index
				p = int(n)
			}
			path[i] = p
		}
		e.Fields = append(e.Fields, domain.FieldError{Path: path, Code: f.Code, Message: f.Message})
	}
	return e
}
