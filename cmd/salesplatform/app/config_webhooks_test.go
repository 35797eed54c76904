package app

import (
	"slices"
	"testing"
	"time"

	"salesplatform/persistence/webhookclient"
)

// WEBHOOK_RETRY_SCHEDULE's default reads back as the standard schedule,
// and a short one as its first attempt and its retries.
func TestParseSchedule(t *testing.T) {
	got, err := parseSchedule(formatSchedule(webhookclient.RetrySchedule[1:]))
	if err != nil || !slices.Equal(got, webhookclient.RetrySchedule) {
		t.Errorf("default: %v, %v; want %v", got, err, webhookclient.RetrySchedule)
	}
	got, err = parseSchedule(" 100ms, 2s ")
	if want := []time.Duration{0, 100 * time.Millisecond, 2 * time.Second}; err != nil || !slices.Equal(got, want) {
		t.Errorf("short: %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"", "5s,", "0s", "1us", "200h", "5s,later"} {
		if _, err := parseSchedule(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
