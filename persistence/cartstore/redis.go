package cartstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
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

// The client's timeouts, unless the URL sets its own: a Redis that is down or
// frozen must fail a request (503) well within a client's patience, not hold
// it for go-redis's defaults (5 s to dial, 3 s per read, three retries: 8 s
// and more measured).
const (
	dialTimeout = time.Second
	ioTimeout   = time.Second
)

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

// NewRedisClient returns a client of the server at a redis:// or rediss://
// URL, with the service's timeouts where the URL sets none: 1 s to connect,
// 1 s per read or write, 1 s to wait for a pooled connection, and no retry
// (a retry would double the wait on a frozen server; the pool drops a
// connection the server closed before using it, and the caller is told to
// retry); a context's earlier deadline is kept. The one client of the carts,
// the throttles and the caller cache.
func NewRedisClient(rawURL string) (*redis.Client, error) {
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		// A *url.Error quotes the whole URL, password included: keep the reason.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("cartstore: parse redis url: %w", err)
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = dialTimeout
	}
	if opts.ReadTimeout == 0 {
		opts.ReadTimeout = ioTimeout
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = ioTimeout
	}
	if opts.PoolTimeout == 0 {
		opts.PoolTimeout = ioTimeout
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = -1 // go-redis's "none"; 0 means its default, 3
	}
	// Without it go-redis ignores a context's deadline (the caller cache's
	// 100 ms) and waits for its own timeouts.
	opts.ContextTimeoutEnabled = true
	return redis.NewClient(opts), nil
}

// OpenRedis is NewRedisClient, then a ping, so that a wrong REDIS_URL fails
// at start-up rather than on the first cart.
func OpenRedis(ctx context.Context, rawURL string) (*redis.Client, error) {
	client, err := NewRedisClient(rawURL)
	if err != nil {
		return nil, err
	}
	opts := client.Options()
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
		return failed("create", c.ID, err)
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
		return nil, failed("get", id, err)
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
			return failed("update", id, err)
		}
	}
	return fmt.Errorf("cartstore: update cart %s: %d attempts lost to concurrent writes: %w", id, updateAttempts, redis.TxFailedErr)
}

// Delete removes the cart.
func (r *Redis) Delete(ctx context.Context, id uuid.UUID) error {
	if err := r.client.Del(ctx, r.key(id)).Err(); err != nil {
		return failed("delete", id, err)
	}
	return nil
}

// failed wraps a failure of a command on cart id; a failure to reach the
// server reads as the domain's unavailable error (domain.Unavailable).
func failed(op string, id uuid.UUID, err error) error {
	err = fmt.Errorf("cartstore: %s cart %s: %w", op, id, err)
	if unreachable(err) {
		return domain.Unavailable("redis", err)
	}
	return err
}

// unreachable reports a failure to reach the server: the connection refused,
// lost, timed out or not had from the pool in time, or the server answering
// that it cannot serve yet (loading its data, no primary). Other replies of
// the server, a cart that does not decode, a cancelled request are not.
func unreachable(err error) bool {
	var re redis.Error
	if errors.As(err, &re) {
		for _, p := range []string{"LOADING", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "BUSY"} {
			if redis.HasErrorPrefix(err, p) {
				return true
			}
		}
		return false
	}
	var ne net.Error // dial errors, timeouts (deadlines too), resets
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, redis.ErrPoolTimeout) || errors.Is(err, redis.ErrClosed)
}

func decodeCart(id uuid.UUID, b []byte) (*cart.Cart, error) {
	var c cart.Cart
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("cartstore: decode cart %s: %w", id, err)
	}
	return &c, nil
}
