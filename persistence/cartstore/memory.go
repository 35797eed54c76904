package cartstore

import (
	"container/heap"
	"context"
	"sync"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/cart"
)

// DefaultMaxCarts is the capacity of a Memory store created with maxCarts <= 0.
// The bound counts carts, not bytes: the size of one cart is bounded by the
// API's input validation.
const DefaultMaxCarts = 100_000

// janitorInterval is how often Memory frees lapsed carts. A lapsed cart is
// invisible at once (every read checks its deadline); the sweep only gives its
// memory back, so it may lag.
const janitorInterval = time.Minute

// Memory is a CartStore that keeps carts in this process. It is safe for
// concurrent use. Call Close to stop its janitor goroutine.
//
// It holds at most maxCarts carts. Creating a cart in a full store evicts the
// cart that lapses soonest: a lapsed one if any, else, as the service uses one
// TTL, the least recently modified. Refusing new carts instead would break the
// checkout of every new shopper until old carts lapse, hours later, while the
// cart left alone the longest is the likeliest abandoned and loses the least
// remaining life. Reads do not count, as reading does not extend a cart.
//
// A min-heap on deadlines serves both that eviction and the janitor, with
// per-call TTLs, which an expiring LRU with one TTL per cache could not.
type Memory struct {
	max int
	now func() time.Time

	mu         sync.RWMutex
	carts      map[uuid.UUID]*entry
	byDeadline deadlineHeap // the same entries, soonest deadline first
	writes     uint64       // orders entries with equal deadlines

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

type entry struct {
	// mu serializes Updates of this cart without holding the store lock while
	// fn runs, so a slow fn stalls only its own cart and may use the store.
	mu sync.Mutex

	// The fields below are guarded by Memory.mu.
	id       uuid.UUID
	cart     *cart.Cart // owned by the store, never handed out
	deadline time.Time
	write    uint64
	index    int // position in byDeadline
}

// NewMemory returns a Memory store holding at most maxCarts carts, or
// DefaultMaxCarts when maxCarts <= 0.
func NewMemory(maxCarts int) *Memory {
	return newMemory(maxCarts, janitorInterval, time.Now)
}

// newMemory lets tests sweep more often and drive the clock.
func newMemory(maxCarts int, sweepEvery time.Duration, now func() time.Time) *Memory {
	if maxCarts <= 0 {
		maxCarts = DefaultMaxCarts
	}
	m := &Memory{
		max:   maxCarts,
		now:   now,
		carts: make(map[uuid.UUID]*entry),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
	}
	go m.janitor(sweepEvery)
	return m
}

// Close stops the janitor and waits for it. The store keeps working, but
// lapsed carts are then freed only when evicted. Close may be called again.
func (m *Memory) Close() {
	m.closeOnce.Do(func() {
		close(m.stop)
		<-m.done
	})
}

// Len returns how many carts the store holds, lapsed ones not yet freed
// included.
func (m *Memory) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.carts)
}

// Create stores a copy of c. A cart with the same ID is replaced.
func (m *Memory) Create(_ context.Context, c *cart.Cart, ttl time.Duration) error {
	if c == nil {
		return errNilCart
	}
	if err := checkTTL(ttl); err != nil {
		return err
	}
	stored := cloneCart(c)

	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.carts[c.ID]; ok {
		// A new entry, not an overwrite, so an Update in flight on the old
		// one notices and starts over.
		m.remove(old)
	} else if len(m.carts) >= m.max {
		m.remove(m.byDeadline[0])
	}
	m.writes++
	e := &entry{id: c.ID, cart: stored, deadline: m.now().Add(ttl), write: m.writes}
	m.carts[e.id] = e
	heap.Push(&m.byDeadline, e)
	return nil
}

// Get returns a copy of the cart.
func (m *Memory) Get(_ context.Context, id uuid.UUID) (*cart.Cart, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	e := m.live(id)
	if e == nil {
		return nil, domain.ErrNotFound
	}
	return cloneCart(e.cart), nil
}

// Update gives fn a copy of the cart and stores a copy of its result. fn
// runs again, on the new cart, if the cart is replaced by Create meanwhile.
func (m *Memory) Update(_ context.Context, id uuid.UUID, ttl time.Duration, fn func(current *cart.Cart) (*cart.Cart, error)) error {
	if err := checkTTL(ttl); err != nil {
		return err
	}
	for {
		m.mu.RLock()
		e := m.live(id)
		m.mu.RUnlock()
		if e == nil {
			return domain.ErrNotFound
		}
		if done, err := m.update(e, ttl, fn); done {
			return err
		}
		// The entry was replaced, deleted, evicted or lapsed while we waited
		// for it or ran fn: look the cart up again.
	}
}

// update runs fn on e under e's lock. It reports done=false, without writing,
// when e is no longer the live entry of its cart.
func (m *Memory) update(e *entry, ttl time.Duration, fn func(*cart.Cart) (*cart.Cart, error)) (done bool, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()

	m.mu.RLock()
	var current *cart.Cart
	if m.live(e.id) == e {
		current = cloneCart(e.cart)
	}
	m.mu.RUnlock()
	if current == nil {
		return false, nil
	}

	next, err := fn(current)
	if err != nil {
		return true, err
	}
	if err := checkReplacement(e.id, next); err != nil {
		return true, err
	}
	stored := cloneCart(next)

	m.mu.Lock()
	defer m.mu.Unlock()
	if m.live(e.id) != e {
		return false, nil
	}
	m.writes++
	e.cart, e.deadline, e.write = stored, m.now().Add(ttl), m.writes
	heap.Fix(&m.byDeadline, e.index)
	return true, nil
}

// Delete removes the cart, lapsed or not.
func (m *Memory) Delete(_ context.Context, id uuid.UUID) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.carts[id]; ok {
		m.remove(e)
	}
	return nil
}

// live returns the entry of a cart that has not lapsed, or nil. m.mu must be
// held.
func (m *Memory) live(id uuid.UUID) *entry {
	e, ok := m.carts[id]
	if !ok || !m.now().Before(e.deadline) {
		return nil
	}
	return e
}

// remove forgets e. m.mu must be held for writing.
func (m *Memory) remove(e *entry) {
	delete(m.carts, e.id)
	heap.Remove(&m.byDeadline, e.index)
}

func (m *Memory) janitor(every time.Duration) {
	defer close(m.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.sweep()
		}
	}
}

// sweep frees the lapsed carts, which sit at the top of the heap.
func (m *Memory) sweep() {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for len(m.byDeadline) > 0 && !now.Before(m.byDeadline[0].deadline) {
		m.remove(m.byDeadline[0])
	}
}

// deadlineHeap implements heap.Interface: soonest deadline first, then
// oldest write, so that eviction order does not depend on clock resolution.
type deadlineHeap []*entry

func (h deadlineHeap) Len() int { return len(h) }

func (h deadlineHeap) Less(i, j int) bool {
	if !h[i].deadline.Equal(h[j].deadline) {
		return h[i].deadline.Before(h[j].deadline)
	}
	return h[i].write < h[j].write
}

func (h deadlineHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (h *deadlineHeap) Push(x any) {
	e := x.(*entry)
	e.index = len(*h)
	*h = append(*h, e)
}

func (h *deadlineHeap) Pop() any {
	old := *h
	n := len(old) - 1
	e := old[n]
	old[n] = nil // let the cart be collected
	*h = old[:n]
	return e
}
