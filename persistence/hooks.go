package persistence

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// StatementCounter is a bun query hook that counts the statements run on a
// *bun.DB (db.AddQueryHook), so that a test can show how many round trips a
// request costs. Safe for concurrent use.
type StatementCounter struct {
	n       atomic.Int64
	mu      sync.Mutex
	queries []string
}

var _ bun.QueryHook = (*StatementCounter)(nil)

// BeforeQuery implements bun.QueryHook.
func (c *StatementCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

// AfterQuery implements bun.QueryHook: it counts the statement.
func (c *StatementCounter) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	c.n.Add(1)
	c.mu.Lock()
	c.queries = append(c.queries, e.Query)
	c.mu.Unlock()
}

// Count returns the number of statements since the last Reset.
func (c *StatementCounter) Count() int { return int(c.n.Load()) }

// Queries returns the statements since the last Reset, in the order they
// finished.
func (c *StatementCounter) Queries() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.queries...)
}

// Reset starts counting again from zero.
func (c *StatementCounter) Reset() {
	c.mu.Lock()
	c.n.Store(0)
	c.queries = nil
	c.mu.Unlock()
}
