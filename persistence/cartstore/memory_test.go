package cartstore

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/cart"
)

func TestMemory(t *testing.T) {
	testCartStore(t, func(t *testing.T) cart.CartStore {
		m := newMemory(0, 50*time.Millisecond, time.Now)
		t.Cleanup(m.Close)
		return m
	})
}

// fakeClock drives the capacity tests, where only the order of deadlines
// matters and real sleeps would only slow them down.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newFakeMemory(t *testing.T, maxCarts int) (*Memory, *fakeClock) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	m := newMemory(maxCarts, time.Hour, clock.Now)
	t.Cleanup(m.Close)
	return m, clock
}

// createIDs creates one cart per id, a second apart, all with ttl.
func createIDs(t *testing.T, m *Memory, clock *fakeClock, ttl time.Duration, n int) []uuid.UUID {
	t.Helper()
	ids := make([]uuid.UUID, n)
	for i := range ids {
		c := sampleCart()
		ids[i] = c.ID
		mustCreate(t, m, c, ttl)
		clock.Advance(time.Second)
	}
	return ids
}

func assertPresent(t *testing.T, m *Memory, want map[uuid.UUID]bool) {
	t.Helper()
	for id, present := range want {
		_, err := m.Get(t.Context(), id)
		switch {
		case present && err != nil:
			t.Errorf("cart %s: %v, want present", id, err)
		case !present && !errors.Is(err, domain.ErrNotFound):
			t.Errorf("cart %s: %v, want ErrNotFound", id, err)
		}
	}
}

func TestMemoryFullEvictsLeastRecentlyModified(t *testing.T) {
	m, clock := newFakeMemory(t, 3)
	ids := createIDs(t, m, clock, time.Hour, 3)

	// Touching the oldest cart saves it; reading the next one does not.
	if err := m.Update(t.Context(), ids[0], time.Hour, func(c *cart.Cart) (*cart.Cart, error) { return c, nil }); err != nil {
		t.Fatalf("Update: %v", err)
	}
	if _, err := m.Get(t.Context(), ids[1]); err != nil {
		t.Fatalf("Get: %v", err)
	}
	clock.Advance(time.Second)
	newer := createIDs(t, m, clock, time.Hour, 2)

	assertPresent(t, m, map[uuid.UUID]bool{ids[0]: true, ids[1]: false, ids[2]: false, newer[0]: true, newer[1]: true})
	if got := m.Len(); got != 3 {
		t.Errorf("Len = %d, want 3", got)
	}
}

func TestMemoryFullEvictsLapsedCartFirst(t *testing.T) {
	m, clock := newFakeMemory(t, 2)
	long := createIDs(t, m, clock, time.Hour, 1)
	short := createIDs(t, m, clock, time.Minute, 1) // newer, but lapses first
	clock.Advance(2 * time.Minute)
	newer := createIDs(t, m, clock, time.Hour, 1)

	assertPresent(t, m, map[uuid.UUID]bool{long[0]: true, short[0]: false, newer[0]: true})
	if got := m.Len(); got != 2 {
		t.Errorf("Len = %d, want 2", got)
	}
}

func TestMemoryFreesLapsedCarts(t *testing.T) {
	const ttl = 100 * time.Millisecond
	m := newMemory(0, 20*time.Millisecond, time.Now)
	t.Cleanup(m.Close)
	for range 5 {
		mustCreate(t, m, sampleCart(), ttl)
	}
	mustCreate(t, m, sampleCart(), time.Minute)
	if got := m.Len(); got != 6 {
		t.Fatalf("Len = %d, want 6", got)
	}

	deadline := time.Now().Add(ttl + 2*time.Second)
	for m.Len() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("Len = %d long after the ttl, want 1: lapsed carts not freed", m.Len())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestMemoryCloseStopsJanitorOnly(t *testing.T) {
	m := NewMemory(0)
	m.Close()
	m.Close() // idempotent
	c := sampleCart()
	mustCreate(t, m, c, time.Minute)
	if _, err := m.Get(t.Context(), c.ID); err != nil {
		t.Fatalf("Get after Close: %v", err)
	}
}

// TestMemoryConcurrentWritersOfOneCart is for the race detector: Update,
// Create and Delete on one id, with the janitor and eviction running.
func TestMemoryConcurrentWritersOfOneCart(t *testing.T) {
	m := newMemory(4, time.Millisecond, time.Now)
	t.Cleanup(m.Close)
	c := sampleCart()
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			for range 50 {
				var err error
				switch i % 3 {
				case 0:
					err = m.Update(t.Context(), c.ID, time.Millisecond, func(cur *cart.Cart) (*cart.Cart, error) {
						cur.Revision++
						return cur, nil
					})
				case 1:
					err = m.Create(t.Context(), cloneCart(c), time.Minute)
				default:
					err = errors.Join(
						m.Delete(t.Context(), c.ID),
						m.Create(t.Context(), sampleCart(), time.Minute), // forces evictions
					)
				}
				if err != nil && !errors.Is(err, domain.ErrNotFound) {
					t.Errorf("write: %v", err)
				}
			}
		})
	}
	wg.Wait()
	if got, err := m.Get(t.Context(), c.ID); err == nil && got.ID != c.ID {
		t.Errorf("cart %s stored under %s", got.ID, c.ID)
	}
	if got := m.Len(); got > 4 {
		t.Errorf("Len = %d, want at most 4", got)
	}
}
