package cartstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"salesplatform/domain"
	"salesplatform/domain/cart"
)

// updateAttempts bounds Update's optimistic retries. An attempt fails only
// because another write to the same cart succeeded, so this many concurrent
// writers of one cart always get through; a shopper's cart sees a few at most.
const updateAttempts = 50

// pingTimeout bounds OpenRedis's check when ctx has no earlier deadline, so a
// black-holed address fails start-up instead of hanging it.
const pingTimeout = 5 * time.Second

// Redis is a CartStore that keeps each cart as a JSON string under
// "<prefix>cart:<id>" with a native Redis expiry, so that every instance of
// the service using the same server and prefix shares the carts. It is safe
// for concurrent use.
type Redis struct {
	client redis.UniversalClient
	prefix string
}

// NewRedis returns a store using client, with keys under keyPrefix (for
// example "salesplatform:"). The caller owns and closes client.
func NewRedis(client redis.UniversalClient, keyPrefix string) *Redis {
	return &Redis{client: client, prefix: keyPrefix}
}

// PoolStats are the counters of the store's Redis connection pool (the
// metrics of a shared cart store).
func (s *Redis) PoolStats() *redis.PoolStats { return s.client.PoolStats() }

// OpenRedis connects to the server at a redis:// or rediss:// URL and pings
// it, so that a wrong REDIS_URL fails at start-up rather than on the first
// cart.
func OpenRedis(ctx context.Context, rawURL string) (*redis.Client, error) {
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		// A *url.Error quotes the whole URL, password included: keep the reason.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("cartstore: parse redis url: %w", err)
	}
	client := redis.NewClient(opts)
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if err := client.Ping(ctx).Err(); err != nil {
		_ = client.Close()
		return nil, fmt.Errorf("cartstore: ping redis at %s: %w", opts.Addr, err)
	}
	return client, nil
}

// Ping reports whether the server answers (the readiness check).
func (r *Redis) Ping(ctx context.Context) error {
	return r.client.Ping(ctx).Err()
}

func (r *Redis) key(id uuid.UUID) string {
	return r.prefix + "cart:" + id.String()
}

// Create stores c. A cart with the same ID is replaced.
func (r *Redis) Create(ctx context.Context, c *cart.Cart, ttl time.Duration) error {
	if c == nil {
		return errNilCart
	}
	if err := checkTTL(ttl); err != nil {
		return err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("cartstore: encode cart %s: %w", c.ID, err)
	}
	if err := r.client.Set(ctx, r.key(c.ID), b, ttl).Err(); err != nil {
		return fmt.Errorf("cartstore: create cart %s: %w", c.ID, err)
	}
	return nil
}

// Get returns the cart.
func (r *Redis) Get(ctx context.Context, id uuid.UUID) (*cart.Cart, error) {
	b, err := r.client.Get(ctx, r.key(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, domain.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("cartstore: get cart %s: %w", id, err)
	}
	return decodeCart(id, b)
}

// Update reads the cart, calls fn and writes its result in a WATCH/MULTI/EXEC
// transaction, so the write fails if anyone else wrote the cart in between;
// it then starts over, calling fn again, up to updateAttempts times.
func (r *Redis) Update(ctx context.Context, id uuid.UUID, ttl time.Duration, fn func(current *cart.Cart) (*cart.Cart, error)) error {
	if err := checkTTL(ttl); err != nil {
		return err
	}
	key := r.key(id)
	for range updateAttempts {
		var fnErr error // fn's failure, returned as is rather than wrapped
		err := r.client.Watch(ctx, func(tx *redis.Tx) error {
			b, err := tx.Get(ctx, key).Bytes()
			if err != nil {
				return err
			}
			current, err := decodeCart(id, b)
			if err != nil {
				return err
			}
			next, err := fn(current)
			if err == nil {
				err = checkReplacement(id, next)
			}
			if err != nil {
				fnErr = err
				return err
			}
			if b, err = json.Marshal(next); err != nil {
				return fmt.Errorf("encode: %w", err)
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				// XX: never resurrect a cart that lapsed after the GET, on
				// servers where expiry does not abort the transaction.
				p.SetArgs(ctx, key, b, redis.SetArgs{Mode: "XX", TTL: ttl})
				return nil
			})
			return err
		}, key)
		switch {
		case err == nil:
			return nil
		case fnErr != nil:
			return fnErr
		case errors.Is(err, redis.TxFailedErr):
			continue
		case errors.Is(err, redis.Nil):
			return domain.ErrNotFound
		default:
			return fmt.Errorf("cartstore: update cart %s: %w", id, err)
		}
	}
	return fmt.Errorf("cartstore: update cart %s: %d attempts lost to concurrent writes: %w", id, updateAttempts, redis.TxFailedErr)
}

// Delete removes the cart.
func (r *Redis) Delete(ctx context.Context, id uuid.UUID) error {
	if err := r.client.Del(ctx, r.key(id)).Err(); err != nil {
		return fmt.Errorf("cartstore: delete cart %s: %w", id, err)
	}
	return nil
}

func decodeCart(id uuid.UUID, b []byte) (*cart.Cart, error) {
	var c cart.Cart
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("cartstore: decode cart %s: %w", id, err)
	}
	return &c, nil
}
