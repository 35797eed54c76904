package domain

import (
	"math"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/time/rate"
)

// LoginThrottle limits failed logins per client: each client has a bucket of
// Burst failures refilled at one per Refill; with the bucket empty every login
// attempt from that client is refused until it refills. Successful logins cost
// nothing, so a user who mistypes once is never locked out.
type LoginThrottle struct {
	mu      sync.Mutex
	buckets *expirable.LRU[string, *rate.Limiter]
	every   rate.Limit
	burst   int
}

// Default login throttle: 10 failures, then one more every 30 seconds.
const (
	DefaultLoginBurst  = 10
	DefaultLoginRefill = 30 * time.Second
	// maxThrottledClients bounds the memory the throttle can use; the least
	// recently failing clients are forgotten first.
	maxThrottledClients = 100_000
)

// NewLoginThrottle returns a throttle allowing burst failures per client,
// refilled at one per refill.
func NewLoginThrottle(burst int, refill time.Duration) *LoginThrottle {
	// A bucket untouched for burst*refill is full again: forget it then.
	keep := time.Duration(burst) * refill
	return &LoginThrottle{
		buckets: expirable.NewLRU[string, *rate.Limiter](maxThrottledClients, nil, keep),
		every:   rate.Every(refill),
		burst:   burst,
	}
}

// check returns how long the client must wait before trying again, zero when
// it may try now.
func (t *LoginThrottle) check(client string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, ok := t.buckets.Get(client)
	if !ok {
		return 0
	}
	tokens := l.TokensAt(now)
	if tokens >= 1 {
		return 0
	}
	wait := (1 - tokens) / float64(t.every)
	return time.Duration(math.Ceil(wait * float64(time.Second)))
}

// fail records a failed attempt by the client.
func (t *LoginThrottle) fail(client string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, ok := t.buckets.Get(client)
	if !ok {
		l = rate.NewLimiter(t.every, t.burst)
	}
	l.AllowN(now, 1)
	t.buckets.Add(client, l) // refreshes the entry's lifetime
}
