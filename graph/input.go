package graph

import (
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/graph/model"
)

// Readers of the generated input models shared by every area: optional
// values, ids and decimals, and the payload of a mutation that answers
// user errors.

// parseID reads a record id given as an ID. An id that is not an integer
// names no record: NOT_FOUND, as the catalogue reads answer.
func parseID(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0, domain.ErrNotFound
	}
	return n, nil
}

// optID reads an optional id, a global id of one of types or the numeric
// id: nil when omitted or null.
func optID(o graphql.Omittable[*string], types ...string) (*int64, error) {
	s, _ := o.ValueOK()
	if s == nil {
		return nil, nil
	}
	n, err := parseID(keyOf(*s, types...))
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// opt is the value of an optional scalar: nil when omitted or null.
func opt[T any](o graphql.Omittable[*T]) *T {
	v, _ := o.ValueOK()
	return v
}

// optList is the value of an optional list: nil when omitted or null, a
// non-nil list (maybe empty) otherwise.
func optList[T any](o graphql.Omittable[[]T]) []T {
	v, ok := o.ValueOK()
	if !ok || v == nil {
		return nil
	}
	return v
}

// payloadOf splits a mutation's answer: the record converted (nil when
// refused), the input errors, and any other error for the GraphQL errors.
func payloadOf[T, M any](v *T, err error, to func(*T) *M) (*M, []*model.UserError, error) {
	if err != nil {
		ue, err := userErrors(err)
		return nil, ue, err
	}
	return to(v), noUserErrors(), nil
}

// optional is an input field as the domain's writes take it: omitted is
// absent, null is null.
func optional[T any](o graphql.Omittable[*T]) domain.Optional[T] {
	return optionalOf(o, func(v T) T { return v })
}

// optionalOf is optional with the value converted (an enum to its code, a
// global id to its key).
func optionalOf[T, U any](o graphql.Omittable[*T], conv func(T) U) domain.Optional[U] {
	v, ok := o.ValueOK()
	switch {
	case !ok:
		return domain.Optional[U]{}
	case v == nil:
		return domain.Null[U]()
	}
	return domain.Some(conv(*v))
}

// uuidRef reads a record's key given as text that should be a UUID: a
// text that is none is refused at field with REST's message, as the
// field's type is text in the schema.
func uuidRef(key, field string, r *domain.Refusals) domain.Optional[uuid.UUID] {
	u, err := uuid.Parse(strings.TrimSpace(key))
	if err != nil {
		r.Refuse(domain.VInvalid, domain.MsgUUID, field)
		return domain.Optional[uuid.UUID]{}
	}
	return domain.Some(u)
}
