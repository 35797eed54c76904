package cartstore

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/persistence/redistest"
)

// openTestRedis connects to the test server through OpenRedis.
func openTestRedis(t *testing.T) *redis.Client {
	t.Helper()
	redistest.Options(t) // skipped locally, failed under CI, without a server
	client, err := OpenRedis(t.Context(), redistest.URL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

func TestRedis(t *testing.T) {
	client := openTestRedis(t)
	testCartStore(t, func(t *testing.T) cart.CartStore {
		return NewRedis(client, redistest.Prefix(t, client, "cartstore-test"))
	})

	t.Run("the key expires natively after the ttl", func(t *testing.T) {
		t.Parallel()
		s := NewRedis(client, redistest.Prefix(t, client, "cartstore-test"))
		c := sampleCart()
		mustCreate(t, s, c, time.Minute)
		assertPTTL(t, client, s.key(c.ID), time.Minute)

		err := s.Update(t.Context(), c.ID, 2*time.Minute, func(c *cart.Cart) (*cart.Cart, error) { return c, nil })
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		assertPTTL(t, client, s.key(c.ID), 2*time.Minute)
	})

	t.Run("stores on the same server and prefix share carts", func(t *testing.T) {
		t.Parallel()
		prefix := redistest.Prefix(t, client, "cartstore-test")
		a := NewRedis(client, prefix)
		b := NewRedis(openTestRedis(t), prefix) // as another process would
		c := sampleCart()
		mustCreate(t, a, c, time.Minute)

		err := b.Update(t.Context(), c.ID, time.Minute, func(current *cart.Cart) (*cart.Cart, error) {
			assertCartEqual(t, current, c)
			current.Revision++
			return current, nil
		})
		if err != nil {
			t.Fatalf("Update through b: %v", err)
		}
		got, err := a.Get(t.Context(), c.ID)
		if err != nil {
			t.Fatalf("Get through a: %v", err)
		}
		if got.Revision != c.Revision+1 {
			t.Errorf("a sees revision %d, want %d", got.Revision, c.Revision+1)
		}

		if err := b.Delete(t.Context(), c.ID); err != nil {
			t.Fatalf("Delete through b: %v", err)
		}
		if _, err := a.Get(t.Context(), c.ID); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("Get through a: got %v, want ErrNotFound", err)
		}
	})

	t.Run("a corrupt value is an internal error", func(t *testing.T) {
		t.Parallel()
		s := NewRedis(client, redistest.Prefix(t, client, "cartstore-test"))
		id := uuid.New()
		if err := client.Set(t.Context(), s.key(id), "not json", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		_, err := s.Get(t.Context(), id)
		if err == nil || domain.ErrorCode(err) != domain.CodeInternal {
			t.Fatalf("Get: got %v, want an internal error", err)
		}
		err = s.Update(t.Context(), id, time.Minute, mustNotCall(t))
		if err == nil || domain.ErrorCode(err) != domain.CodeInternal {
			t.Fatalf("Update: got %v, want an internal error", err)
		}
	})
}

func assertPTTL(t *testing.T, client redis.UniversalClient, key string, ttl time.Duration) {
	t.Helper()
	got, err := client.PTTL(t.Context(), key).Result()
	if err != nil {
		t.Fatalf("PTTL: %v", err)
	}
	if got > ttl || got < ttl-5*time.Second {
		t.Errorf("PTTL %s = %v, want just under %v", key, got, ttl)
	}
}

func TestOpenRedisHidesPassword(t *testing.T) {
	for _, raw := range []string{
		"redis://user:s3cret@127.0.0.1:notaport/0", // does not parse
		"redis://user:s3cret@127.0.0.1:1/0",        // nothing listens
	} {
		client, err := OpenRedis(t.Context(), raw)
		if err == nil {
			_ = client.Close()
			t.Fatalf("OpenRedis(%q): got nil error", raw)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("OpenRedis error shows the password: %v", err)
		}
	}
}

// A server that is gone or frozen fails every operation within a second or
// so, as the domain's unavailable error (503), not an internal one.
func TestRedisOutage(t *testing.T) {
	t.Parallel()
	for name, addr := range map[string]string{"unreachable": redistest.ClosedPort(t), "frozen": redistest.FrozenServer(t)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			client, err := NewRedisClient("redis://" + addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = client.Close() })
			s := NewRedis(client, "outage:")
			c := sampleCart()
			ops := map[string]func() error{
				"Create": func() error { return s.Create(t.Context(), c, time.Minute) },
				"Get":    func() error { _, err := s.Get(t.Context(), c.ID); return err },
				"Update": func() error {
					return s.Update(t.Context(), c.ID, time.Minute, func(c *cart.Cart) (*cart.Cart, error) { return c, nil })
				},
				"Delete": func() error { return s.Delete(t.Context(), c.ID) },
			}
			for op, call := range ops {
				start := time.Now()
				err := call()
				if !domain.IsCode(err, domain.CodeUnavailable) {
					t.Errorf("%s: %v, want unavailable", op, err)
				}
				if took := time.Since(start); took > 2*time.Second {
					t.Errorf("%s took %v", op, took)
				}
			}
		})
	}
}
