// Package throttlestore implements domain.ThrottleStore in Redis, so that
// every instance of the service using the same server counts the same
// attempts (domain.MemoryThrottleStore is the in-process default).
package throttlestore

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"salesplatform/domain"
)

var _ domain.ThrottleStore = (*Redis)(nil)

// Redis keeps each bucket as one integer under "<prefix>throttle:<key>":
// the bucket's theoretical arrival time (GCRA), in microseconds since the
// Unix epoch, the time at which the bucket is full again. A bucket holds
// Burst - (tat - now)/Refill tokens; a reservation moves tat one Refill
// later, a token given back one Refill earlier. The key expires when the
// bucket is full, so idle clients cost nothing. Each operation is one Lua
// script, which Redis runs atomically: attempts reserved at once by several
// instances never take more than the bucket holds.
//
// The time is the caller's (each instance's clock): a bucket used by an
// instance whose clock is behind looks emptier to it, never fuller.
type Redis struct {
	client redis.UniversalClient
	prefix string
}

// NewRedis returns a store using client, with keys under keyPrefix (for
// example "salesplatform:"). The caller owns and closes client.
func NewRedis(client redis.UniversalClient, keyPrefix string) *Redis {
	return &Redis{client: client, prefix: keyPrefix}
}

// reserveScript: KEYS[1] the bucket; ARGV now, refill (µs), burst. Returns
// {1, 0} when a token was taken, {0, wait µs} when the bucket has no whole
// token.
var reserveScript = redis.NewScript(`
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local excess = tat - now + interval - burst * interval
if excess > 0 then
  return {0, excess}
end
tat = tat + interval
redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', math.ceil((tat - now) / 1000))
return {1, 0}
`)

// giveBackScript: KEYS[1] the bucket; ARGV now, refill (µs). Moves the
// bucket's tat one refill earlier, deleting the key once the bucket is full.
var giveBackScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local now = tonumber(ARGV[1])
local tat = tonumber(v) - tonumber(ARGV[2])
if tat <= now then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', math.ceil((tat - now) / 1000))
end
return 1
`)

func (r *Redis) key(key string) string { return r.prefix + "throttle:" + key }

// Reserve implements domain.ThrottleStore.
func (r *Redis) Reserve(ctx context.Context, key string, limit domain.ThrottleLimit, now time.Time) (domain.ThrottleToken, time.Duration, error) {
	if limit.Burst < 1 || limit.Refill < time.Microsecond {
		return nil, 0, fmt.Errorf("throttlestore: invalid limit %+v", limit)
	}
	k := r.key(key)
	res, err := reserveScript.Run(ctx, r.client, []string{k}, now.UnixMicro(), limit.Refill.Microseconds(), limit.Burst).Int64Slice()
	if err != nil {
		return nil, 0, fmt.Errorf("throttlestore: reserve: %w", err)
	}
	if len(res) != 2 {
		return nil, 0, fmt.Errorf("throttlestore: reserve: unexpected reply %v", res)
	}
	if res[0] == 0 {
		return nil, time.Duration(res[1]) * time.Microsecond, nil
	}
	return &redisToken{store: r, key: k, refill: limit.Refill, at: now}, 0, nil
}

// redisToken is a token taken by Redis.Reserve.
type redisToken struct {
	store  *Redis
	key    string
	refill time.Duration
	at     time.Time
}

// GiveBack implements domain.ThrottleToken.
func (t *redisToken) GiveBack(ctx context.Context, now time.Time) error {
	if now.Sub(t.at) >= t.refill {
		return nil // the attempt lasted a refill interval or more: it keeps its token
	}
	if err := giveBackScript.Run(ctx, t.store.client, []string{t.key}, now.UnixMicro(), t.refill.Microseconds()).Err(); err != nil {
		return fmt.Errorf("throttlestore: give back: %w", err)
	}
	return nil
}
