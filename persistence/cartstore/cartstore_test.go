package cartstore

import (
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/cart"
)

// shortTTL is long enough for a round trip to Redis under -race and short
// enough to keep the suite quick; the lapse tests run in parallel.
const shortTTL = 600 * time.Millisecond

// testCartStore is the contract every CartStore meets. newStore returns an
// empty store that the test may use in parallel with others.
func testCartStore(t *testing.T, newStore func(t *testing.T) cart.CartStore) {
	t.Run("create then get returns an equal cart", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		want := sampleCart()
		mustCreate(t, s, want, time.Minute)

		got, err := s.Get(t.Context(), want.ID)
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		assertCartEqual(t, got, want)
	})

	t.Run("nil and empty items and attributes survive", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		noItems := sampleCart()
		noItems.Items = nil
		emptyItems := sampleCart()
		emptyItems.Items = []cart.CartItem{}
		emptyAttrs := sampleCart()
		emptyAttrs.Items[0].AttributeValues = map[int64]string{}
		for _, want := range []*cart.Cart{noItems, emptyItems, emptyAttrs} {
			mustCreate(t, s, want, time.Minute)
			got, err := s.Get(t.Context(), want.ID)
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			assertCartEqual(t, got, want)
		}
	})

	t.Run("get of unknown id is not found", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		if _, err := s.Get(t.Context(), uuid.New()); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get: got %v, want ErrNotFound", err)
		}
	})

	t.Run("get after ttl is not found", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		mustCreate(t, s, c, shortTTL)
		time.Sleep(shortTTL + shortTTL/4)
		if _, err := s.Get(t.Context(), c.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get: got %v, want ErrNotFound", err)
		}
	})

	t.Run("reading does not extend the ttl", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		mustCreate(t, s, c, shortTTL)
		for range 3 {
			time.Sleep(shortTTL / 4)
			if _, err := s.Get(t.Context(), c.ID); err != nil {
				t.Fatalf("Get before ttl: %v", err)
			}
		}
		time.Sleep(shortTTL/4 + shortTTL/4)
		if _, err := s.Get(t.Context(), c.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get after ttl: got %v, want ErrNotFound", err)
		}
	})

	t.Run("update replaces the cart and restarts the ttl", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		created := time.Now()
		mustCreate(t, s, c, shortTTL)

		time.Sleep(shortTTL / 3)
		want := sampleCart()
		want.ID = c.ID
		want.Revision = c.Revision + 1
		want.ReturnURL = "https://shop.example/changed"
		err := s.Update(t.Context(), c.ID, shortTTL, func(current *cart.Cart) (*cart.Cart, error) {
			assertCartEqual(t, current, c)
			return want, nil
		})
		if err != nil {
			t.Fatalf("Update: %v", err)
		}

		// Past the first deadline, well before the new one.
		time.Sleep(time.Until(created.Add(shortTTL + shortTTL/6)))
		got, err := s.Get(t.Context(), c.ID)
		if err != nil {
			t.Fatalf("Get after the original ttl: %v", err)
		}
		assertCartEqual(t, got, want)

		time.Sleep(time.Until(created.Add(shortTTL/3 + shortTTL + shortTTL/4)))
		if _, err := s.Get(t.Context(), c.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get after the new ttl: got %v, want ErrNotFound", err)
		}
	})

	t.Run("update racing a replace starts over on the new cart", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		mustCreate(t, s, c, time.Minute)
		replacement := cloneCart(c)
		replacement.ReturnURL = "https://shop.example/replaced"
		calls := 0
		err := s.Update(t.Context(), c.ID, time.Minute, func(current *cart.Cart) (*cart.Cart, error) {
			calls++
			if calls == 1 {
				// fn may use the store; this write lands between Update's
				// read and its write.
				mustCreate(t, s, replacement, time.Minute)
			}
			current.Revision++
			return current, nil
		})
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		want := cloneCart(replacement)
		want.Revision++
		got, err := s.Get(t.Context(), c.ID)
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		assertCartEqual(t, got, want)
		if calls != 2 {
			t.Errorf("fn called %d times, want 2", calls)
		}
	})

	t.Run("update racing a delete is not found and writes nothing", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		mustCreate(t, s, c, time.Minute)
		calls := 0
		err := s.Update(t.Context(), c.ID, time.Minute, func(current *cart.Cart) (*cart.Cart, error) {
			calls++
			if err := s.Delete(t.Context(), c.ID); err != nil {
				t.Errorf("Delete: %v", err)
			}
			return current, nil
		})
		if !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Update: got %v, want ErrNotFound", err)
		}
		if _, err := s.Get(t.Context(), c.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get: got %v, want ErrNotFound", err)
		}
		if calls != 1 {
			t.Errorf("fn called %d times, want 1", calls)
		}
	})

	t.Run("update of unknown id is not found and does not call fn", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		err := s.Update(t.Context(), uuid.New(), time.Minute, mustNotCall(t))
		if !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Update: got %v, want ErrNotFound", err)
		}
	})

	t.Run("update of lapsed cart is not found and does not call fn", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		mustCreate(t, s, c, shortTTL)
		time.Sleep(shortTTL + shortTTL/4)
		if err := s.Update(t.Context(), c.ID, time.Minute, mustNotCall(t)); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Update: got %v, want ErrNotFound", err)
		}
		if _, err := s.Get(t.Context(), c.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get: got %v, want ErrNotFound", err)
		}
	})

	t.Run("fn error is returned as is and nothing is written", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		mustCreate(t, s, c, time.Minute)
		fnErr := domain.Errorf(domain.CodePreconditionFailed, "stale")
		err := s.Update(t.Context(), c.ID, time.Minute, func(current *cart.Cart) (*cart.Cart, error) {
			current.ReturnURL = "https://changed.example" // must not leak into the store
			current.Items[0].AttributeValues[1] = "changed"
			return current, fnErr
		})
		if err != fnErr {
			t.Fatalf("Update: got %v, want fn's error itself", err)
		}
		got, err := s.Get(t.Context(), c.ID)
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		assertCartEqual(t, got, c)
	})

	t.Run("update returning another cart id fails and writes nothing", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		mustCreate(t, s, c, time.Minute)
		err := s.Update(t.Context(), c.ID, time.Minute, func(*cart.Cart) (*cart.Cart, error) {
			return sampleCart(), nil
		})
		if err == nil || domain.ErrorCode(err) != domain.CodeInternal {
			t.Fatalf("Update: got %v, want an internal error", err)
		}
		got, err := s.Get(t.Context(), c.ID)
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		assertCartEqual(t, got, c)
	})

	t.Run("non-positive ttl is rejected", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		if err := s.Create(t.Context(), c, 0); err == nil {
			t.Fatal("Create with ttl 0: got nil error")
		}
		if _, err := s.Get(t.Context(), c.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get: got %v, want ErrNotFound", err)
		}
		mustCreate(t, s, c, time.Minute)
		if err := s.Update(t.Context(), c.ID, -time.Second, mustNotCall(t)); err == nil {
			t.Fatal("Update with negative ttl: got nil error")
		}
	})

	t.Run("delete then get is not found", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		mustCreate(t, s, c, time.Minute)
		if err := s.Delete(t.Context(), c.ID); err != nil {
			t.Fatalf("Delete: %v", err)
		}
		if _, err := s.Get(t.Context(), c.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get: got %v, want ErrNotFound", err)
		}
	})

	t.Run("delete of unknown id succeeds", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		if err := s.Delete(t.Context(), uuid.New()); err != nil {
			t.Fatalf("Delete: %v", err)
		}
	})

	t.Run("callers cannot mutate the stored cart", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		want := sampleCart()
		c := cloneCart(want)
		mustCreate(t, s, c, time.Minute)
		mutate(c) // the cart given to Create

		got, err := s.Get(t.Context(), want.ID)
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		mutate(got) // a cart Get returned

		var returned *cart.Cart
		err = s.Update(t.Context(), want.ID, time.Minute, func(current *cart.Cart) (*cart.Cart, error) {
			returned = cloneCart(want)
			return returned, nil
		})
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		mutate(returned) // the cart fn returned, after Update

		got, err = s.Get(t.Context(), want.ID)
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		assertCartEqual(t, got, want)
	})

	t.Run("concurrent updates lose no update", func(t *testing.T) {
		t.Parallel()
		s := newStore(t)
		c := sampleCart()
		c.Revision = 0
		mustCreate(t, s, c, time.Minute)

		const writers = 20
		var wg sync.WaitGroup
		for range writers {
			wg.Go(func() {
				err := s.Update(t.Context(), c.ID, time.Minute, func(current *cart.Cart) (*cart.Cart, error) {
					current.Revision++
					current.Items = append(current.Items, cart.CartItem{ProductID: current.Revision})
					return current, nil
				})
				if err != nil {
					t.Errorf("Update: %v", err)
				}
			})
		}
		wg.Wait()

		got, err := s.Get(t.Context(), c.ID)
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		if got.Revision != writers || len(got.Items) != len(c.Items)+writers {
			t.Fatalf("got revision %d with %d items, want %d with %d", got.Revision, len(got.Items), writers, len(c.Items)+writers)
		}
	})
}

// sampleCart returns a new cart with a fresh ID that uses every field: a nil
// and a set VariantID, attribute values, and times that are not in UTC, one
// at millisecond and one at nanosecond precision.
func sampleCart() *cart.Cart {
	zone := time.FixedZone("UTC+2", 2*60*60)
	variant := int64(7)
	return &cart.Cart{
		ID:        uuid.New(),
		PartnerID: 42,
		Items: []cart.CartItem{
			{ProductID: 1, Quantity: 2, VariantID: &variant, AttributeValues: map[int64]string{1: "red", 2: "XL"}},
			{ProductID: 3, Quantity: 1},
		},
		ReturnURL:    "https://shop.example/return?x=1&y=ä",
		CreatedAt:    time.Date(2026, 11, 22, 10, 30, 0, 123_000_000, zone),
		LastModified: time.Now().In(zone),
		Revision:     3,
	}
}

// mutate changes every part of c a shallow copy would share.
func mutate(c *cart.Cart) {
	c.ReturnURL = "https://mutated.example"
	c.Items[0].Quantity = 99
	*c.Items[0].VariantID = 99
	c.Items[0].AttributeValues[1] = "mutated"
	c.Items = append(c.Items[:1], cart.CartItem{ProductID: 99})
}

func mustCreate(t *testing.T, s cart.CartStore, c *cart.Cart, ttl time.Duration) {
	t.Helper()
	if err := s.Create(t.Context(), c, ttl); err != nil {
		t.Fatalf("Create: %v", err)
	}
}

func mustNotCall(t *testing.T) func(*cart.Cart) (*cart.Cart, error) {
	return func(c *cart.Cart) (*cart.Cart, error) {
		t.Error("fn called")
		return c, nil
	}
}

// assertCartEqual compares carts deeply, times by instant: the JSON of a
// time keeps nanoseconds and the offset, but not the *time.Location or the
// monotonic reading, so == on time.Time would be too strict.
func assertCartEqual(t *testing.T, got, want *cart.Cart) {
	t.Helper()
	if !got.CreatedAt.Equal(want.CreatedAt) || !got.LastModified.Equal(want.LastModified) {
		t.Errorf("times: got %v / %v, want %v / %v", got.CreatedAt, got.LastModified, want.CreatedAt, want.LastModified)
	}
	g, w := cloneCart(got), cloneCart(want)
	g.CreatedAt, g.LastModified = time.Time{}, time.Time{}
	w.CreatedAt, w.LastModified = time.Time{}, time.Time{}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("cart:\n got %+v\nwant %+v", g, w)
	}
}
