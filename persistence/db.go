package persistence

// All access goes through one *bun.DB per process: a database/sql pool over
// pgx's driver, so that bun, database/sql tooling and pgx's PostgreSQL
// types all meet on the same connections. The one exception is the job
// queue's workers (OpenPgxPool).

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"salesplatform/domain"
)

// connectTimeout bounds Open's wait for the server, which includes waiting
// for one that is still starting (as in docker compose).
const connectTimeout = 10 * time.Second

// DefaultMaxConns is the pool's size unless DB_MAX_CONNS says otherwise:
// enough connections to keep the CPUs busy while others wait on the
// network, few enough that several instances stay well under PostgreSQL's
// default max_connections of 100. No request holds more than one.
const DefaultMaxConns = 16

// Open connects to the PostgreSQL server at dsn, a URL
// (postgres://user:password@host:port/dbname?sslmode=...) or keyword/value
// string, and checks that it answers. Errors never show the password.
func Open(ctx context.Context, dsn string) (*bun.DB, error) {
	cfg, err := ConnConfig(dsn)
	if err != nil {
		return nil, err
	}
	return OpenConfig(ctx, cfg)
}

// ConnConfig is dsn read with this service's defaults: its application
// name, connect timeout and local TLS (applyDefaults).
func ConnConfig(dsn string) (*pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err) // pgx hides the password
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "salesplatform"
	}
	applyDefaults(cfg, dsn)
	return cfg, nil
}

// OpenConfig is Open on a configuration of ConnConfig, which a caller may
// have given a tracer of the statements.
func OpenConfig(ctx context.Context, cfg *pgx.ConnConfig) (*bun.DB, error) {
	sqldb := sql.OpenDB(outageConnector{stdlib.GetConnector(*cfg)})
	SetMaxConns(sqldb, DefaultMaxConns)
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

// OpenPgxPool opens a pgx pool of at most maxConns connections to dsn, with
// Open's defaults but the query mode (pgx's own, which River's statements
// are written for), and checks that the server answers: the pool of the job
// queue's workers (persistence/mailer), which River needs as pgx's own, to
// LISTEN on a connection it holds.
func OpenPgxPool(ctx context.Context, dsn string, maxConns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "salesplatform"
	}
	localTLS(cfg.ConnConfig, dsn)
	cfg.MaxConns = maxConns
	cfg.MaxConnIdleTime = 5 * time.Minute
	cfg.MaxConnLifetime = time.Hour
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("persistence: connect to database %q at %s: %w", cfg.ConnConfig.Database, where(cfg.ConnConfig), err)
	}
	return pool, nil
}

// applyDefaults sets what a dsn leaves unsaid:
//   - the query mode: Bun writes every value into the SQL text, so with
//     pgx's default (prepare and cache each statement text) every new id
//     list costs a prepare round trip and a cache slot; the simple protocol
//     sends each text once, in one round trip;
//   - TLS: none to a server on this host (loopback or a Unix socket), where
//     pgx's default (sslmode=prefer) would negotiate it on every connection.
//
// Either, said in the dsn (default_query_exec_mode, sslmode) or, for TLS,
// in PGSSLMODE, stands.
func applyDefaults(cfg *pgx.ConnConfig, dsn string) {
	if !dsnSays(dsn, "default_query_exec_mode") {
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	}
	localTLS(cfg, dsn)
}

// localTLS is applyDefaults' TLS rule.
func localTLS(cfg *pgx.ConnConfig, dsn string) {
	if !dsnSays(dsn, "sslmode") && os.Getenv("PGSSLMODE") == "" && isLocal(cfg.Host) {
		cfg.TLSConfig, cfg.Fallbacks = nil, nil
	}
}

// dsnSays reports whether dsn, a URL or a keyword/value string, sets the
// parameter key (not merely contains its name, in a password say).
func dsnSays(dsn, key string) bool {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		return u.Query().Has(key)
	}
	for _, field := range strings.Fields(dsn) {
		if strings.HasPrefix(field, key+"=") {
			return true
		}
	}
	return false
}

// isLocal reports whether host is this machine: a Unix socket directory,
// localhost, or a loopback address.
func isLocal(host string) bool {
	if strings.HasPrefix(host, "/") || host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// SetMaxConns sizes the pool: at most n connections, all kept when idle.
func SetMaxConns(db *sql.DB, n int) {
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
}

// outageConnector reports the loss of PostgreSQL (down, restarting, out of
// connections) as domain.CodeUnavailable, so that a request answers 503
// with Retry-After rather than 500: a failure to connect, and a statement
// whose connection died under it. database/sql replaces a dead pooled
// connection by a new one, so the requests after those reach Connect.
type outageConnector struct{ driver.Connector }

func (c outageConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		if ctx.Err() == nil {
			err = domain.Unavailable("database", err)
		}
		return nil, err
	}
	return outageConn{conn.(*stdlib.Conn)}, nil
}

// outageConn is a pgx connection whose statements report its death as
// domain.Unavailable; every other method is pgx's.
type outageConn struct{ *stdlib.Conn }

// died is err, marked unavailable when the connection is closed after it.
func (c outageConn) died(err error) error {
	if err != nil && c.Conn.Conn().IsClosed() {
		return domain.Unavailable("database", err)
	}
	return err
}

func (c outageConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	r, err := c.Conn.ExecContext(ctx, query, args)
	return r, c.died(err)
}

func (c outageConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	r, err := c.Conn.QueryContext(ctx, query, args)
	return r, c.died(err)
}

func (c outageConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.BeginTx(ctx, opts)
	return tx, c.died(err)
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
