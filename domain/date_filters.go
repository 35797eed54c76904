package domain

// The date filters of the administration's lists (x__gte, x__lte,
// x__range), as the legacy service reads them.

import (
	"strings"
	"time"
)

// Date filter messages.
const (
	msgDateFormat = "Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm])."
	msgDateRange  = "Enter two dates separated by a comma."
)

// DateFilters reads x__gte, x__lte and x__range into [from, to): a bare
// date is a whole day in loc, so __lte of a date includes that day; a
// date-time without an offset is in loc. Both __range and the bounds may
// be given: every bound applies.
func DateFilters(v *Validator, loc *time.Location, field, gte, lte, rng string) (from, to *time.Time) {
	narrow := func(f, t *time.Time) {
		if f != nil && (from == nil || f.After(*from)) {
			from = f
		}
		if t != nil && (to == nil || t.Before(*to)) {
			to = t
		}
	}
	if gte != "" {
		if start, _, msg := ParseDateBound(gte, loc); msg == "" {
			narrow(&start, nil)
		} else {
			v.Add(VInvalid, msg, field+"__gte")
		}
	}
	if lte != "" {
		if _, end, msg := ParseDateBound(lte, loc); msg == "" {
			narrow(nil, &end)
		} else {
			v.Add(VInvalid, msg, field+"__lte")
		}
	}
	if rng != "" {
		a, b, found := strings.Cut(rng, ",")
		start, _, msgA := ParseDateBound(strings.TrimSpace(a), loc)
		_, end, msgB := ParseDateBound(strings.TrimSpace(b), loc)
		switch {
		case !found || strings.Contains(b, ","):
			v.Add(VInvalid, msgDateRange, field+"__range")
		case msgA != "":
			v.Add(VInvalid, msgA, field+"__range")
		case msgB != "":
			v.Add(VInvalid, msgB, field+"__range")
		default:
			narrow(&start, &end)
		}
	}
	return from, to
}

// ParseDateBound reads a date or a date-time: start is the instant it
// starts at, end the first instant after it (the next day for a date, the
// next microsecond, the database's precision, for a date-time). msg is
// empty when s is a bound, else what is wrong with it.
func ParseDateBound(s string, loc *time.Location) (start, end time.Time, msg string) {
	if len(s) > 40 {
		return start, end, msgDateFormat
	}
	if d, err := time.ParseInLocation(time.DateOnly, s, loc); err == nil {
		start, end = d, d.AddDate(0, 0, 1)
	} else {
		msg = msgDateFormat
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02T15:04Z07:00"} {
			if t, err := time.ParseInLocation(layout, s, loc); err == nil {
				start, end, msg = t, t.Add(time.Microsecond), ""
				break
			}
		}
	}
	if msg == "" && (!InTimeRange(start) || end.After(MaxInputTime)) {
		msg = MsgDateOutOfRange
	}
	return start, end, msg
}
