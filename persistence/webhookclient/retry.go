package webhookclient

import "time"

// RetrySchedule is the delay before each attempt of a delivery: the first at
// once, then growing delays (Standard Webhooks' suggested schedule) so an
// endpoint down for a day still receives it; 8 attempts over 27 h 35 min 5 s.
var RetrySchedule = []time.Duration{
	0,
	5 * time.Second,
	5 * time.Minute,
	30 * time.Minute,
	2 * time.Hour,
	5 * time.Hour,
	10 * time.Hour,
	10 * time.Hour,
}

// NextAttempt is the delay after the failed attempt number attempt (1 for
// the first) before the next one, or false once the schedule is spent.
func NextAttempt(attempt int) (time.Duration, bool) { return NextIn(RetrySchedule, attempt) }

// NextIn is NextAttempt under another schedule (WEBHOOK_RETRY_SCHEDULE):
// schedule[0] is the first attempt's delay, which is none.
func NextIn(schedule []time.Duration, attempt int) (time.Duration, bool) {
	if attempt < 0 {
		attempt = 0
	}
	if attempt >= len(schedule) {
		return 0, false
	}
	return schedule[attempt], true
}
