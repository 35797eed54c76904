package domain

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/time/rate"
)

// ThrottleStore keeps the buckets of client throttles (ClientThrottle): a
// bucket of limit.Burst attempts per key, refilled at one per limit.Refill.
// MemoryThrottleStore keeps them in the process (the default);
// persistence/throttlestore keeps them in Redis (REDIS_URL), so that every
// instance of the service counts the same attempts.
//
// Both operations are atomic: attempts reserved at once, from one process
// or several, never take more than the bucket holds.
type ThrottleStore interface {
	// Reserve takes one token from key's bucket at now, before the attempt
	// it counts is made. When the bucket has no whole token, nothing is
	// taken and wait is the time until it has one again (token nil).
	// err is a failure of the store itself.
	Reserve(ctx context.Context, key string, limit ThrottleLimit, now time.Time) (token ThrottleToken, wait time.Duration, err error)
}

// ThrottleLimit is a bucket's size and refill interval.
type ThrottleLimit struct {
	Burst  int
	Refill time.Duration
}

// ThrottleToken is a token Reserve took.
type ThrottleToken interface {
	// GiveBack returns the token to its bucket at now: the attempt
	// succeeded, and only failures count. Exactly one token comes back
	// (never past a full bucket) when the attempt lasted less than one
	// refill interval; a longer attempt keeps its token.
	GiveBack(ctx context.Context, now time.Time) error
}

// MemoryThrottleStore keeps buckets in this process (golang.org/x/time/rate
// limiters), at most maxThrottledClients of them; the keys that least
// recently made an attempt are forgotten first. It is safe for concurrent
// use.
type MemoryThrottleStore struct {
	mu      sync.Mutex
	buckets *expirable.LRU[string, *rate.Limiter]
	// latest is the latest time the buckets were used at: the times given
	// to them never go back (see tick).
	latest time.Time
}

// NewMemoryThrottleStore returns an empty store; a bucket untouched for
// keep is forgotten (it must be at least Burst×Refill of every limit used
// with the store, the time an empty bucket takes to fill).
func NewMemoryThrottleStore(keep time.Duration) *MemoryThrottleStore {
	return &MemoryThrottleStore{buckets: expirable.NewLRU[string, *rate.Limiter](maxThrottledClients, nil, keep)}
}

// memoryToken is a token taken from a bucket of a MemoryThrottleStore.
type memoryToken struct {
	store       *MemoryThrottleStore
	bucket      *rate.Limiter
	reservation *rate.Reservation
	at          time.Time
}

// tick returns now, or the latest time the buckets were used at when now is
// earlier (callers read the clock before they hold s.mu). s.mu is held.
func (s *MemoryThrottleStore) tick(now time.Time) time.Time {
	if now.Before(s.latest) {
		return s.latest
	}
	s.latest = now
	return now
}

// Reserve implements ThrottleStore.
func (s *MemoryThrottleStore) Reserve(_ context.Context, key string, limit ThrottleLimit, now time.Time) (ThrottleToken, time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = s.tick(now)
	every := rate.Every(limit.Refill)
	l, ok := s.buckets.Get(key)
	if !ok {
		l = rate.NewLimiter(every, limit.Burst)
	}
	// The buckets are used under s.mu only, so nothing comes between the
	// two calls: the reservation never waits.
	if tokens := l.TokensAt(now); tokens < 1 {
		wait := (1 - tokens) / float64(every)
		return nil, time.Duration(math.Ceil(wait * float64(time.Second))), nil
	}
	r := l.ReserveN(now, 1)
	s.buckets.Add(key, l) // refreshes the entry's lifetime
	return &memoryToken{store: s, bucket: l, reservation: r, at: now}, 0, nil
}

// GiveBack implements ThrottleToken.
//
// Reservation.CancelAt alone would give back less than a token: it keeps
// what the bucket refilled between the reservation and the bucket's last
// event (any later reservation) and moves the bucket's clock back to the
// reservation, so a client with attempts in progress would lose a part of a
// token at each one. Making now the last event (a reservation of no token)
// first makes the part kept equal to the refill the moved clock counts
// again: exactly one token comes back. An attempt that lasted longer than a
// refill interval keeps its token (CancelAt then restores nothing).
func (a *memoryToken) GiveBack(_ context.Context, now time.Time) error {
	s := a.store
	s.mu.Lock()
	defer s.mu.Unlock()
	now = s.tick(now)
	a.bucket.ReserveN(now, 0)
	a.reservation.CancelAt(a.at)
	return nil
}
