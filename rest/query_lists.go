package rest

import (
	"strconv"
	"strings"

	"salesplatform/domain"
)

// Readers of the query parameters that hold lists.

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
