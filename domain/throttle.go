package domain

import (
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/time/rate"
)

// ClientThrottle limits what one client (network address) may do: each
// client has a bucket of Burst attempts refilled at one per Refill; with the
// bucket empty the client is refused until it refills.
//
// An attempt takes its token before it runs (reserve), so attempts made at
// once cannot all pass a check made before any of them is counted: at most
// Burst attempts of a client are ever in progress or spent. An operation
// that only counts failures gives the token back when the attempt succeeds
// (giveBack): logins and gift lookups do, so a user who mistypes once is
// never locked out and found codes cost nothing; contact requests spend one
// each.
type ClientThrottle struct {
	mu      sync.Mutex
	buckets *expirable.LRU[string, *rate.Limiter]
	every   rate.Limit
	burst   int
	// latest is the latest time the buckets were used at: the times given
	// to them never go back (see tick).
	latest time.Time
}

// Default throttles (docs/DECISIONS.md): logins, 10 failures then one every
// 30 seconds; gift lookups, 30 unknown codes then one every 10 seconds, so
// codes cannot be guessed by enumeration; contact requests, 10 then one a
// minute. As attempts take their token before they run, a client also has
// at most Burst logins or lookups in progress at once.
const (
	DefaultLoginBurst           = 10
	DefaultLoginRefill          = 30 * time.Second
	DefaultGiftLookupBurst      = 30
	DefaultGiftLookupRefill     = 10 * time.Second
	DefaultContactRequestBurst  = 10
	DefaultContactRequestRefill = time.Minute
	// maxThrottledClients bounds the memory the throttle can use; the
	// clients that least recently made an attempt are forgotten first.
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

// attempt is a token taken from a client's bucket by reserve.
type attempt struct {
	throttle    *ClientThrottle
	bucket      *rate.Limiter
	reservation *rate.Reservation
	at          time.Time
}

// tick returns now, or the latest time the buckets were used at when now is
// earlier (callers read the clock before they hold t.mu). t.mu is held.
func (t *ClientThrottle) tick(now time.Time) time.Time {
	if now.Before(t.latest) {
		return t.latest
	}
	t.latest = now
	return now
}

// Reserve takes one of the client's attempts before the attempt is made.
// Errors: CodeThrottled with the time until the bucket has a token again
// when it is empty; nothing is taken then.
func (t *ClientThrottle) Reserve(client string, now time.Time) (*attempt, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now = t.tick(now)
	l, ok := t.buckets.Get(client)
	if !ok {
		l = rate.NewLimiter(t.every, t.burst)
	}
	// The buckets are used under t.mu only, so nothing comes between the
	// two calls: the reservation never waits.
	if tokens := l.TokensAt(now); tokens < 1 {
		wait := (1 - tokens) / float64(t.every)
		return nil, throttled(time.Duration(math.Ceil(wait * float64(time.Second))))
	}
	r := l.ReserveN(now, 1)
	t.buckets.Add(client, l) // refreshes the entry's lifetime
	return &attempt{throttle: t, bucket: l, reservation: r, at: now}, nil
}

// GiveBack returns the attempt's token to its bucket at now: the attempt
// succeeded, and only failures count.
//
// Reservation.CancelAt alone would give back less than a token: it keeps
// what the bucket refilled between the reservation and the bucket's last
// event (any later reservation) and moves the bucket's clock back to the
// reservation, so a client with attempts in progress would lose a part of a
// token at each one. Making now the last event (a reservation of no token)
// first makes the part kept equal to the refill the moved clock counts
// again: exactly one token comes back. An attempt that lasted longer than a
// refill interval keeps its token (CancelAt then restores nothing).
func (a *attempt) GiveBack(now time.Time) {
	t := a.throttle
	t.mu.Lock()
	defer t.mu.Unlock()
	now = t.tick(now)
	a.bucket.ReserveN(now, 0)
	a.reservation.CancelAt(a.at)
}

// throttled is the refusal of an attempt made wait too early.
func throttled(wait time.Duration) error {
	secs := int((wait + time.Second - 1) / time.Second)
	return &Error{
		Code:       CodeThrottled,
		Message:    fmt.Sprintf("Request was throttled. Expected available in %d seconds.", secs),
		RetryAfter: time.Duration(secs) * time.Second,
	}
}
