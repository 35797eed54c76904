package persistence

// All access goes through one *bun.DB per process: a database/sql pool over
// pgx's driver, so that bun, database/sql tooling and pgx's PostgreSQL
// types all meet on the same connections.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// connectTimeout bounds Open's wait for the server, which includes waiting
// for one that is still starting (as in docker compose).
const connectTimeout = 10 * time.Second

// Open connects to the PostgreSQL server at dsn, a URL
// (postgres://user:password@host:port/dbname?sslmode=...) or keyword/value
// string, and checks that it answers. Errors never show the password.
func Open(ctx context.Context, dsn string) (*bun.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err) // pgx hides the password
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "salesplatform"
	}

	sqldb := stdlib.OpenDB(*cfg)
	// Enough connections to keep every CPU busy while others wait on the
	// network, few enough that several instances stay well under
	// PostgreSQL's default max_connections of 100.
	conns := max(4, 2*runtime.GOMAXPROCS(0))
	sqldb.SetMaxOpenConns(conns)
	sqldb.SetMaxIdleConns(conns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	// Recycling lets a pool follow a failover or DNS change.
	sqldb.SetConnMaxLifetime(time.Hour)

	db := bun.NewDB(sqldb, pgdialect.New())
	if err := ping(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("persistence: connect to database %q at %s: %w", cfg.Database, where(cfg), err)
	}
	return db, nil
}

// ping waits until the server answers, retrying while it is unreachable or
// starting up, for connectTimeout at most.
func ping(ctx context.Context, db *bun.DB) error {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		err := db.PingContext(ctx)
		if err == nil || !transient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// transient reports errors that go away once the server is up.
func transient(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "57P03" // cannot_connect_now: starting up, shutting down, recovering
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) // no TCP listener or no socket yet
}

func where(cfg *pgx.ConnConfig) string {
	if len(cfg.Host) > 0 && cfg.Host[0] == '/' {
		return fmt.Sprintf("unix socket %s/.s.PGSQL.%d", cfg.Host, cfg.Port)
	}
	return fmt.Sprintf("%s:%d", cfg.Host, cfg.Port)
}
