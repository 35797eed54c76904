package domain

import (
	"context"
	"fmt"
	"time"
)

// ClientThrottle limits what one client (network address) may do: each
// client has a bucket of Burst attempts refilled at one per Refill; with the
// bucket empty the client is refused until it refills. The buckets live in a
// ThrottleStore: this process's (NewClientThrottle) or one shared by every
// instance (NewSharedClientThrottle, Redis when REDIS_URL is set).
//
// An attempt takes its token before it runs (reserve), so attempts made at
// once cannot all pass a check made before any of them is counted: at most
// Burst attempts of a client are ever in progress or spent. An operation
// that only counts failures gives the token back when the attempt succeeds
// (giveBack): logins and gift lookups do, so a user who mistypes once is
// never locked out and found codes cost nothing; contact requests spend one
// each.
type ClientThrottle struct {
	store ThrottleStore
	name  string // the keys' prefix in a shared store: "login:", …
	limit ThrottleLimit
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
// refilled at one per refill, counted in this process.
func NewClientThrottle(burst int, refill time.Duration) *ClientThrottle {
	// A bucket untouched for burst*refill is full again: forget it then.
	return NewSharedClientThrottle(NewMemoryThrottleStore(time.Duration(burst)*refill), "", burst, refill)
}

// NewSharedClientThrottle returns a throttle keeping its buckets in store,
// under keys name + ":" + client, so that throttles of different names may
// share a store (and every instance of the service using the same store
// counts the same attempts).
func NewSharedClientThrottle(store ThrottleStore, name string, burst int, refill time.Duration) *ClientThrottle {
	prefix := ""
	if name != "" {
		prefix = name + ":"
	}
	return &ClientThrottle{store: store, name: prefix, limit: ThrottleLimit{Burst: burst, Refill: refill}}
}

// attempt is a token taken from a client's bucket by Reserve.
type attempt struct {
	token ThrottleToken
	ctx   context.Context
}

// giveBackTimeout bounds GiveBack's call to a shared store.
const giveBackTimeout = 2 * time.Second

// Reserve takes one of the client's attempts before the attempt is made.
// Errors: CodeThrottled with the time until the bucket has a token again
// when it is empty (nothing is taken then); CodeUnavailable when the shared
// store cannot be reached: the attempt is refused rather than let through
// uncounted.
func (t *ClientThrottle) Reserve(ctx context.Context, client string, now time.Time) (*attempt, error) {
	tok, wait, err := t.store.Reserve(ctx, t.name+client, t.limit, now)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, Unavailable("throttle store", err)
	}
	if tok == nil {
		return nil, throttled(wait)
	}
	return &attempt{token: tok, ctx: ctx}, nil
}

// GiveBack returns the attempt's token to its bucket at now: the attempt
// succeeded, and only failures count (ThrottleToken.GiveBack). A store that
// cannot be reached keeps the token: the client loses one attempt, never
// gains one.
func (a *attempt) GiveBack(now time.Time) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), giveBackTimeout)
	defer cancel()
	_ = a.token.GiveBack(ctx, now)
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
