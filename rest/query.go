package rest

import (
	"net/http"
	"strconv"
	"strings"

	"salesplatform/domain"

	"github.com/google/uuid"
)

// Readers of query parameters: lists, and UUIDs.

// idList reads a comma-separated list of integers as django-filter's "in"
// filter does: empty items ignored; blank is no filter (nil), only commas
// select nothing (an empty list). An item that is not an integer is
// refused at field with msg, and the list read as nil.
func idList(raw, field, msg string, r *domain.Refusals) []int64 {
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	ids := []int64{}
	for _, part := range strings.Split(raw, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		id, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			r.Refuse(domain.VInvalid, msg, field)
			return nil
		}
		ids = append(ids, id)
	}
	return ids
}

// terms reads a comma-separated list of terms (an ordering): each trimmed,
// empty ones ignored; nil when there is none.
func terms(raw string) []string {
	var out []string
	for _, t := range strings.Split(raw, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// uuidQuery reads the query parameter name as a UUID, nil when absent or
// blank.
// Errors: CodeInvalid on name for a string that is no UUID.
func uuidQuery(r *http.Request, name string) (*uuid.UUID, error) {
	s := strings.TrimSpace(r.URL.Query().Get(name))
	if s == "" {
		return nil, nil
	}
	u, err := uuid.Parse(s)
	if err != nil {
		var v domain.Validator
		v.Add(domain.VInvalid, domain.MsgUUID, name)
		return nil, v.Err()
	}
	return &u, nil
}
