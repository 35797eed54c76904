package domain

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"
)

var ctx = context.Background()

// Attempts taken at once from one bucket: exactly burst pass, the others
// are refused with the time until a token is back.
func TestClientThrottleReserveConcurrent(t *testing.T) {
	th := NewClientThrottle(10, 30*time.Second)
	now := time.Now()
	var mu sync.Mutex
	passed, refused := 0, 0
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			_, err := th.Reserve(ctx, "198.51.100.1", now)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				passed++
			case IsCode(err, CodeThrottled):
				refused++
				if e := err.(*Error); e.RetryAfter != 30*time.Second {
					t.Errorf("RetryAfter = %v, want 30s", e.RetryAfter)
				}
			default:
				t.Errorf("reserve: %v", err)
			}
		})
	}
	wg.Wait()
	if passed != 10 || refused != 90 {
		t.Errorf("%d passed, %d refused; want 10 and 90", passed, refused)
	}
	if _, err := th.Reserve(ctx, "198.51.100.2", now); err != nil {
		t.Errorf("another client: %v", err)
	}
}

// An attempt given back restores exactly one token, whatever the attempts
// in progress around it and however long it lasted: overlapping successes
// neither wear the bucket down nor refill it faster.
func TestClientThrottleGiveBack(t *testing.T) {
	const refill = time.Minute
	th := NewClientThrottle(3, refill)
	start := time.Now()
	at := func(ms int) time.Time { return start.Add(time.Duration(ms) * time.Millisecond) }
	reserve := func(ms int) *attempt {
		t.Helper()
		a, err := th.Reserve(ctx, "c", at(ms))
		if err != nil {
			t.Fatalf("reserve at %dms: %v", ms, err)
		}
		return a
	}
	tokens := func(ms int) float64 {
		l, _ := th.store.(*MemoryThrottleStore).buckets.Get("c")
		return l.TokensAt(at(ms))
	}
	wantTokens := func(ms int, want float64) {
		t.Helper()
		if got := tokens(ms); math.Abs(got-want) > 1e-9 {
			t.Fatalf("at %dms: %v tokens, want %v", ms, got, want)
		}
	}

	// Two spent: one token left, which refills at one a minute.
	reserve(0)
	reserve(0)
	wantTokens(0, 1)
	// Attempts in progress at once, each lasting about a second, given back
	// in any order: 100 rounds.
	ms := 0
	for range 100 {
		a := reserve(ms)
		ms += 10
		if tokens(ms) >= 1 { // once a token has refilled
			b := reserve(ms)
			b.GiveBack(at(ms + 500))
		}
		a.GiveBack(at(ms + 1000))
		ms += 1000
	}
	// Exactly the refill since 0 was added to the one token left.
	wantTokens(ms, 1+float64(ms)/float64(refill.Milliseconds()))

	// Several given back one after another, in every order, while others
	// are in progress.
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}} {
		th = NewClientThrottle(5, refill)
		reserve(0)
		reserve(0)
		held := []*attempt{reserve(0), reserve(10_000), reserve(20_000)}
		for i, j := range order {
			held[j].GiveBack(at(30_000 + i*5_000))
		}
		wantTokens(40_000, 3+40_000/float64(refill.Milliseconds()))
	}

	// A bucket of three, each attempt overlapping the next two and lasting
	// 1.5 s.
	th = NewClientThrottle(3, refill)
	var out []*attempt
	for i := range 200 {
		out = append(out, reserve(500*i))
		if len(out) == 3 {
			out[0].GiveBack(at(500*i + 1))
			out = out[1:]
		}
	}
	for _, a := range out {
		a.GiveBack(at(100_000))
	}
	wantTokens(100_000, 3)
	// And the three are spent as usual, then refused until the refill.
	for i := range 3 {
		reserve(100_000 + i)
	}
	if _, err := th.Reserve(ctx, "c", at(100_003)); !IsCode(err, CodeThrottled) {
		t.Fatalf("fourth attempt: %v, want throttled", err)
	}
	if _, err := th.Reserve(ctx, "c", at(100_002).Add(refill)); err != nil {
		t.Errorf("after one refill: %v", err)
	}
}

// A clock read before the throttle's lock may be earlier than one already
// used: the buckets never go back in time.
func TestClientThrottleClockNeverGoesBack(t *testing.T) {
	th := NewClientThrottle(1, time.Hour)
	now := time.Now()
	a, err := th.Reserve(ctx, "c", now)
	if err != nil {
		t.Fatal(err)
	}
	a.GiveBack(now.Add(-time.Minute))
	if _, err := th.Reserve(ctx, "c", now.Add(-2*time.Minute)); err != nil {
		t.Fatalf("after giving back: %v", err)
	}
	if _, err := th.Reserve(ctx, "c", now.Add(-3*time.Minute)); !IsCode(err, CodeThrottled) {
		t.Fatalf("second attempt: %v, want throttled", err)
	}
}
