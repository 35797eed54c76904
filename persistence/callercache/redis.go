// Package callercache keeps the callers of authenticated API tokens in
// Redis (domain.CallerCache), so that every instance of the service
// answers a token alike.
package callercache

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"

	"salesplatform/domain"
)

// Redis is a domain.CallerCache in Redis: one key per token hash,
// <prefix>caller:<hex>, holding the caller as JSON for the cache's TTL.
// The user's password hash is never written.
type Redis struct {
	client redis.UniversalClient
	prefix string
	ttl    time.Duration
}

var _ domain.CallerCache = (*Redis)(nil)

// NewRedis returns the cache on client, with keys under keyPrefix, whose
// callers live ttl. The caller owns and closes client.
func NewRedis(client redis.UniversalClient, keyPrefix string, ttl time.Duration) *Redis {
	return &Redis{client: client, prefix: keyPrefix + "caller:", ttl: ttl}
}

// timeout bounds each command: a slow Redis must not slow every
// authenticated request; past it the token is read from the database.
const timeout = 100 * time.Millisecond

// Get implements domain.CallerCache.
func (r *Redis) Get(ctx context.Context, key string) (*domain.Caller, bool) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	b, err := r.client.Get(ctx, r.prefix+hex.EncodeToString([]byte(key))).Bytes()
	if err != nil {
		return nil, false
	}
	var c domain.Caller
	if err := json.Unmarshal(b, &c); err != nil || c.User == nil {
		return nil, false
	}
	return &c, true
}

// Put implements domain.CallerCache.
func (r *Redis) Put(ctx context.Context, key string, c *domain.Caller) {
	u := *c.User
	u.PasswordHash = ""
	b, err := json.Marshal(domain.Caller{User: &u, Partner: c.Partner, Permissions: c.Permissions, TokenID: c.TokenID})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_ = r.client.Set(ctx, r.prefix+hex.EncodeToString([]byte(key)), b, r.ttl).Err()
}
