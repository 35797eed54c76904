package domain

import (
	"math"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/time/rate"
)

// ClientThrottle limits what one client (network address) may do: each
// client has a bucket of Burst attempts refilled at one per Refill; with the
// bucket empty the client is refused until it refills. Logins and gift
// lookups spend a token only when they fail, so a user who mistypes once is
// never locked out; contact requests spend one each.
type ClientThrottle struct {
	mu      sync.Mutex
	buckets *expirable.LRU[string, *rate.Limiter]
	every   rate.Limit
	burst   int
}

// Default throttles (docs/DECISIONS.md): logins, 10 failures then one every
// 30 seconds; gift lookups, 30 unknown codes then one every 10 seconds, so
// codes cannot be guessed by enumeration; contact requests, 10 then one a
// minute.
const (
	DefaultLoginBurst           = 10
	DefaultLoginRefill          = 30 * time.Second
	DefaultGiftLookupBurst      = 30
	DefaultGiftLookupRefill     = 10 * time.Second
	DefaultContactRequestBurst  = 10
	DefaultContactRequestRefill = time.Minute
	// maxThrottledClients bounds the memory the throttle can use; the least
	// recently failing clients are forgotten first.
	maxThrottledClients = 100_000
)

// NewClientThrottle returns a throttle allowing burst attempts per client,
// refilled at one per refill.
func NewClientThrottle(burst int, refill time.Duration) *ClientThrottle {
	// A bucket untouched for burst*refill is full again: forget it then.
	keep := time.Duration(burst) * refill
	return &ClientThrottle{
		buckets: expirable.NewLRU[string, *rate.Limiter](maxThrottledClients, nil, keep),
		every:   rate.Every(refill),
		burst:   burst,
	}
}

// check returns how long the client must wait before trying again, zero when
// it may try now.
func (t *ClientThrottle) check(client string, now time.Time) time.Duration {
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

// take spends one of the client's attempts: it returns how long the
// client must wait when none is left, zero when the attempt may go on.
func (t *ClientThrottle) take(client string, now time.Time) time.Duration {
	if wait := t.check(client, now); wait > 0 {
		return wait
	}
	t.fail(client, now)
	return 0
}

// fail records a failed attempt by the client.
func (t *ClientThrottle) fail(client string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	l, ok := t.buckets.Get(client)
	if !ok {
		l = rate.NewLimiter(t.every, t.burst)
	}
	l.AllowN(now, 1)
	t.buckets.Add(client, l) // refreshes the entry's lifetime
}
