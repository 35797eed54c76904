package throttlestore

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"salesplatform/domain"
	"salesplatform/persistence/redistest"
)

// testThrottleStore is the contract of a domain.ThrottleStore, run against
// every implementation. Times are given, not read from the clock.
func testThrottleStore(t *testing.T, newStore func(t *testing.T) domain.ThrottleStore) {
	ctx := context.Background()
	t0 := time.Now().Truncate(time.Millisecond)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	limit := domain.ThrottleLimit{Burst: 3, Refill: 10 * time.Second}
	reserve := func(t *testing.T, s domain.ThrottleStore, key string, ms int) domain.ThrottleToken {
		t.Helper()
		tok, wait, err := s.Reserve(ctx, key, limit, at(ms))
		if err != nil || tok == nil {
			t.Fatalf("reserve %s at %dms: token %v, wait %v, err %v; want a token", key, ms, tok, wait, err)
		}
		return tok
	}
	refused := func(t *testing.T, s domain.ThrottleStore, key string, ms int, want time.Duration) {
		t.Helper()
		tok, wait, err := s.Reserve(ctx, key, limit, at(ms))
		if err != nil || tok != nil {
			t.Fatalf("reserve %s at %dms: token %v, err %v; want refused", key, ms, tok, err)
		}
		if d := wait - want; d < -time.Millisecond || d > time.Millisecond {
			t.Fatalf("reserve %s at %dms: wait %v, want %v", key, ms, wait, want)
		}
	}

	t.Run("BurstThenRefusedUntilRefill", func(t *testing.T) {
		s := newStore(t)
		for range limit.Burst {
			reserve(t, s, "a", 0)
		}
		refused(t, s, "a", 0, 10*time.Second)
		refused(t, s, "a", 4_000, 6*time.Second)
		reserve(t, s, "b", 0) // another key has its own bucket
		reserve(t, s, "a", 10_000)
		refused(t, s, "a", 10_000, 10*time.Second)
		// A bucket left alone fills up to Burst, no more.
		for range limit.Burst {
			reserve(t, s, "a", 100_000)
		}
		refused(t, s, "a", 100_000, 10*time.Second)
	})

	t.Run("ConcurrentReservations", func(t *testing.T) {
		s := newStore(t)
		big := domain.ThrottleLimit{Burst: 10, Refill: time.Hour}
		var mu sync.Mutex
		passed := 0
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() {
				tok, _, err := s.Reserve(ctx, "c", big, at(0))
				if err != nil {
					t.Errorf("reserve: %v", err)
				}
				mu.Lock()
				defer mu.Unlock()
				if tok != nil {
					passed++
				}
			})
		}
		wg.Wait()
		if passed != big.Burst {
			t.Errorf("%d of 100 concurrent reservations passed, want %d", passed, big.Burst)
		}
	})

	t.Run("GiveBackRestoresOneToken", func(t *testing.T) {
		s := newStore(t)
		toks := []domain.ThrottleToken{reserve(t, s, "a", 0), reserve(t, s, "a", 0), reserve(t, s, "a", 0)}
		refused(t, s, "a", 100, 9_900*time.Millisecond)
		if err := toks[1].GiveBack(ctx, at(500)); err != nil {
			t.Fatal(err)
		}
		reserve(t, s, "a", 600)
		refused(t, s, "a", 700, 9_300*time.Millisecond)
	})

	t.Run("GiveBackNeverOverfills", func(t *testing.T) {
		s := newStore(t)
		tok := reserve(t, s, "a", 0)
		if err := tok.GiveBack(ctx, at(100)); err != nil {
			t.Fatal(err)
		}
		for range limit.Burst {
			reserve(t, s, "a", 200)
		}
		refused(t, s, "a", 200, 10*time.Second)

		// Given back after the bucket refilled to full: still Burst.
		tok = reserve(t, s, "b", 0)
		reserve(t, s, "b", 0)
		if err := tok.GiveBack(ctx, at(9_999)); err != nil {
			t.Fatal(err)
		}
		for range limit.Burst {
			reserve(t, s, "b", 60_000)
		}
		refused(t, s, "b", 60_000, 10*time.Second)
	})

	t.Run("LongAttemptKeepsItsToken", func(t *testing.T) {
		s := newStore(t)
		tok := reserve(t, s, "a", 0)
		reserve(t, s, "a", 0)
		reserve(t, s, "a", 0)
		// Lasted more than a refill: one token refilled meanwhile, and the
		// attempt's token does not come back.
		if err := tok.GiveBack(ctx, at(10_500)); err != nil {
			t.Fatal(err)
		}
		reserve(t, s, "a", 10_500)
		refused(t, s, "a", 10_500, 9_500*time.Millisecond)
	})
}

func TestMemory(t *testing.T) {
	testThrottleStore(t, func(*testing.T) domain.ThrottleStore { return domain.NewMemoryThrottleStore(time.Hour) })
}

func TestRedis(t *testing.T) {
	client := redistest.Open(t)
	testThrottleStore(t, func(t *testing.T) domain.ThrottleStore {
		return NewRedis(client, redistest.Prefix(t, client, "throttlestore-test"))
	})
}

// TestRedisExpiresFullBuckets: a bucket's key lapses when it is full again,
// and is deleted when a token given back fills it.
func TestRedisExpiresFullBuckets(t *testing.T) {
	client := redistest.Open(t)
	prefix := redistest.Prefix(t, client, "throttlestore-test")
	s := NewRedis(client, prefix)
	ctx := t.Context()
	now := time.Now()
	limit := domain.ThrottleLimit{Burst: 5, Refill: time.Minute}
	tok, _, err := s.Reserve(ctx, "k", limit, now)
	if err != nil || tok == nil {
		t.Fatalf("reserve: %v %v", tok, err)
	}
	s.Reserve(ctx, "k", limit, now)
	ttl, err := client.PTTL(ctx, prefix+"throttle:k").Result()
	if err != nil || ttl < 119*time.Second || ttl > 120*time.Second {
		t.Errorf("PTTL after two reservations = %v (%v), want 2m", ttl, err)
	}
	if err := tok.GiveBack(ctx, now); err != nil {
		t.Fatal(err)
	}
	if ttl, _ := client.PTTL(ctx, prefix+"throttle:k").Result(); ttl < 59*time.Second || ttl > 60*time.Second {
		t.Errorf("PTTL after one given back = %v, want 1m", ttl)
	}
	tok2, _, _ := s.Reserve(ctx, "j", limit, now)
	if err := tok2.GiveBack(ctx, now); err != nil {
		t.Fatal(err)
	}
	if n, _ := client.Exists(ctx, prefix+"throttle:j").Result(); n != 0 {
		t.Errorf("a full bucket's key is kept")
	}
}

// TestRedisDown: a store that cannot be reached is an error, which the
// throttle turns into CodeUnavailable (the attempt is refused, not let
// through uncounted).
func TestRedisDown(t *testing.T) {
	client := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = client.Close() })
	th := domain.NewSharedClientThrottle(NewRedis(client, "x:"), "login", 3, time.Minute)
	_, err := th.Reserve(t.Context(), "192.0.2.1", time.Now())
	if !domain.IsCode(err, domain.CodeUnavailable) {
		t.Fatalf("reserve with Redis down: %v, want unavailable", err)
	}
}
