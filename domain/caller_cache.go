package domain

import (
	"context"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
)

// CallerCache keeps the callers of recently authenticated API tokens, by
// the hash of the token's key, for a short time: a request whose token was
// seen within it is authenticated without reading the database. A change
// to the account (deactivated, permissions changed, token revoked) is
// therefore seen within that time, not at once (docs/DECISIONS.md, "Token
// cache").
// MemoryCallerCache keeps them in the process (the default);
// persistence/callercache keeps them in Redis (REDIS_URL), so that every
// instance of the service answers a token alike.
//
// The callers it answers are shared: they are read, never changed.
type CallerCache interface {
	// Get answers the caller cached for key; a miss or a failure of the
	// cache itself is false (the caller is then read from the database).
	Get(ctx context.Context, key string) (*Caller, bool)
	// Put keeps c for key; a failure of the cache is not an error (the
	// next request reads the database).
	Put(ctx context.Context, key string, c *Caller)
}

// Caller cache sizes.
const (
	// CallerCacheTTL is how long a token's caller is kept: the longest a
	// change to an account takes to reach its tokens.
	CallerCacheTTL = 30 * time.Second
	// maxCachedCallers bounds the in-process cache; the least recently
	// used tokens are forgotten first.
	maxCachedCallers = 10_000
)

// MemoryCallerCache is a CallerCache in the process, safe for concurrent
// use.
type MemoryCallerCache struct {
	callers *expirable.LRU[string, *Caller]
}

// NewMemoryCallerCache returns an empty cache whose callers live ttl.
func NewMemoryCallerCache(ttl time.Duration) *MemoryCallerCache {
	return &MemoryCallerCache{callers: expirable.NewLRU[string, *Caller](maxCachedCallers, nil, ttl)}
}

// Get implements CallerCache.
func (m *MemoryCallerCache) Get(_ context.Context, key string) (*Caller, bool) {
	return m.callers.Get(key)
}

// Put implements CallerCache.
func (m *MemoryCallerCache) Put(_ context.Context, key string, c *Caller) { m.callers.Add(key, c) }
