package dbtest

import (
	"context"
	"salesplatform/persistence"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
)

// StatementCounter counts the statements sent on a pool opened with it
// (OpenCounted), so that a test can show how many round trips a request
// costs. It sees what pgx sends, Bun's statements and prepared ones
// alike (a statement prepared, then run, counts once). Safe for
// concurrent use.
type StatementCounter struct {
	n       atomic.Int64
	mu      sync.Mutex
	queries []string
}

var _ pgx.QueryTracer = (*StatementCounter)(nil)

// OpenCounted is persistence.Open with every statement of the pool
// counted by c.
func OpenCounted(ctx context.Context, dsn string, c *StatementCounter) (*bun.DB, error) {
	cfg, err := persistence.ConnConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.Tracer = c
	return persistence.OpenConfig(ctx, cfg)
}

// NewCounted is a fresh migrated database (NewDSN) on a pool whose
// statements the returned counter counts, closed at the test's end.
func NewCounted(tb testing.TB) (*bun.DB, *StatementCounter) {
	tb.Helper()
	c := &StatementCounter{}
	db, err := OpenCounted(context.Background(), NewDSN(tb), c)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db, c
}

// TraceQueryStart implements pgx.QueryTracer: it counts the statement.
func (c *StatementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	c.mu.Lock()
	c.queries = append(c.queries, data.SQL)
	c.mu.Unlock()
	return ctx
}

// TraceQueryEnd implements pgx.QueryTracer.
func (c *StatementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// Count returns the number of statements since the last Reset.
func (c *StatementCounter) Count() int { return int(c.n.Load()) }

// Queries returns the statements since the last Reset, in the order they
// were sent.
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
