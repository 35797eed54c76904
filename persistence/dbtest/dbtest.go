// Package dbtest gives each test its own freshly migrated PostgreSQL
// database, so that database tests run in parallel, in any order, and never
// see each other's rows.
//
// Copying is what keeps it fast: once per test process the schema is
// migrated into a template database, and each test then gets
// CREATE DATABASE ... TEMPLATE, a copy of a few megabytes. Names carry random
// suffixes, so the test processes that go test ./... runs in parallel, and CI
// jobs sharing a server, never collide.
//
// The server is chosen once per test process, the first that works of:
//
//  1. TEST_DATABASE_URL, when set, and then no other: a URL or keyword/value
//     string whose user may create databases. Its database is only used to
//     create and drop the test databases.
//  2. The local server at 127.0.0.1:5432 as user postgres, when it lets us in
//     within a second.
//  3. A private cluster (package pgcluster) in a temporary directory,
//     stopped by Main. It needs the PostgreSQL server binaries; starting it
//     takes a few seconds.
//
// DBTEST_PRIVATE_CLUSTER=1 skips the first two, for tests of the third.
//
// When there is no server a database test fails, with a message saying what
// to do; it never passes by skipping, on CI (CI=true) or elsewhere.
//
// A package with database tests calls Main from its TestMain, which drops
// the template and stops the private cluster once the tests are done:
//
//	func TestMain(m *testing.M) { dbtest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		db := dbtest.New(t)
//		...
//	}
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/persistence"
	"salesplatform/persistence/pgcluster"
)

// Environment variables.
const (
	envURL     = "TEST_DATABASE_URL"
	envPrivate = "DBTEST_PRIVATE_CLUSTER"
)

const (
	localDSN = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	// clusterPrefix names the private clusters' directories, so that a
	// later run finds those whose test process was killed.
	clusterPrefix = "salesplatform-dbtest-"
	dbPrefix      = "salesplatform_"
)

// server is where this test process creates its databases.
type server struct {
	desc     string
	admin    *bun.DB                // to the database the DSN names, for CREATE and DROP
	dsn      func(db string) string // DSN of another database on the server
	template string                 // migrated template database
	cluster  *pgcluster.Cluster     // private cluster, if any
	dir      string                 // and its directory
}

var (
	mu     sync.Mutex
	inMain bool    // Main is running the tests
	srv    *server // set up by the first test needing it
	srvErr error   // or why it could not be
)

// Main runs the package's tests, then drops the template database and
// stops the private cluster, and exits with the tests' exit code.
func Main(m *testing.M) {
	mu.Lock()
	inMain = true
	mu.Unlock()

	code := m.Run()

	mu.Lock()
	s := srv
	srv, srvErr = nil, errors.New("dbtest: used after Main")
	mu.Unlock()
	if s != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if err := s.close(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		cancel()
	}
	os.Exit(code)
}

// New returns a connection pool to a fresh, migrated database of its own,
// closed and dropped when the test ends.
func New(tb testing.TB) *bun.DB {
	tb.Helper()
	dsn := NewDSN(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		tb.Fatalf("dbtest: %v", err)
	}
	tb.Cleanup(func() { db.Close() }) // runs before the drop registered by NewDSN
	return db
}

// NewDSN returns the connection string of a fresh, migrated database of its
// own, dropped when the test ends (connections still open are cut), for
// tests that open their own pool or run a program against it.
func NewDSN(tb testing.TB) string {
	tb.Helper()
	s := setup(tb)
	return s.createDatabase(tb, s.template)
}

// NewEmptyDSN is NewDSN without the migrations: an empty database, for
// tests of the migrations themselves.
func NewEmptyDSN(tb testing.TB) string {
	tb.Helper()
	return setup(tb).createDatabase(tb, "template0")
}

func (s *server) createDatabase(tb testing.TB, template string) string {
	tb.Helper()
	name := dbPrefix + "test_" + randomSuffix()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+template); err != nil {
		tb.Fatalf("dbtest: create test database on %s: %v", s.desc, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := s.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("dbtest: drop test database: %v", err)
		}
	})
	return s.dsn(name)
}

// setup returns the process's server, choosing it and creating the
// template on first use.
func setup(tb testing.TB) *server {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	if !inMain {
		tb.Fatal("dbtest: call dbtest.Main(m) from TestMain in this package, so that the test databases and server are cleaned up")
	}
	if srv == nil && srvErr == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		start := time.Now()
		srv, srvErr = newServer(ctx)
		if srv != nil {
			tb.Logf("dbtest: using %s, template database %s (set up in %v)",
				srv.desc, srv.template, time.Since(start).Round(time.Millisecond))
		}
	}
	if srvErr != nil {
		tb.Fatal(srvErr)
	}
	return srv
}

func newServer(ctx context.Context) (*server, error) {
	s, err := chooseServer(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.createTemplate(ctx); err != nil {
		s.close(ctx)
		return nil, err
	}
	return s, nil
}

func chooseServer(ctx context.Context) (*server, error) {
	if forced, _ := strconv.ParseBool(os.Getenv(envPrivate)); forced {
		s, err := startCluster(ctx)
		if err != nil {
			return nil, fmt.Errorf("dbtest: %s is set, but: %w", envPrivate, err)
		}
		return s, nil
	}

	if dsn := os.Getenv(envURL); dsn != "" {
		s, err := connect(ctx, dsn, envURL)
		if err != nil {
			return nil, fmt.Errorf("dbtest: %s: %w", envURL, err)
		}
		return s, nil
	}

	localCtx, cancel := context.WithTimeout(ctx, time.Second)
	s, localErr := connect(localCtx, localDSN, "the local server at 127.0.0.1:5432")
	cancel()
	if localErr == nil {
		return s, nil
	}

	s, clusterErr := startCluster(ctx)
	if clusterErr == nil {
		return s, nil
	}
	return nil, fmt.Errorf("dbtest: no PostgreSQL server for the tests. "+
		"Set %s to one whose user may create databases (postgres://user:password@host:5432/postgres), "+
		"or install the PostgreSQL server binaries (Debian/Ubuntu: apt-get install postgresql) for a private one.\n"+
		"%s is not set.\nThe local server: %v\nThe private cluster: %v",
		envURL, envURL, localErr, clusterErr)
}

func connect(ctx context.Context, dsn, desc string) (*server, error) {
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return &server{
		desc:  desc,
		admin: db,
		dsn:   func(name string) string { return withDatabase(dsn, name) },
	}, nil
}

// withDatabase returns dsn naming database db instead.
func withDatabase(dsn, db string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		if u, err := url.Parse(dsn); err == nil {
			u.Path, u.RawPath = "/"+db, ""
			return u.String()
		}
	}
	return dsn + " dbname=" + db // keyword/value: the last one wins
}

func startCluster(ctx context.Context) (*server, error) {
	if _, err := pgcluster.FindBinDir(); err != nil {
		return nil, err
	}
	removeAbandonedClusters(ctx)
	dir, err := os.MkdirTemp("", clusterPrefix)
	if err != nil {
		return nil, err
	}
	c, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: dir, NoSync: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s, err := connect(ctx, c.DSN("postgres"), "a private cluster in "+dir)
	if err != nil {
		c.Stop(ctx)
		os.RemoveAll(dir)
		return nil, err
	}
	s.cluster, s.dir = c, dir
	return s, nil
}

// removeAbandonedClusters removes the private clusters of test processes
// that were killed before Main could stop them (go test -timeout does
// that), whose servers would otherwise run forever. A cluster whose server
// runs holds a postmaster.pid; pgcluster refuses to remove one still owned.
func removeAbandonedClusters(ctx context.Context) {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), clusterPrefix+"*"))
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "postmaster.pid")); err != nil {
			continue
		}
		_ = pgcluster.Remove(ctx, pgcluster.Options{DataDir: dir, Logger: slog.Default()})
	}
}

func (s *server) createTemplate(ctx context.Context) error {
	name := dbPrefix + "tmpl_" + randomSuffix()
	if _, err := s.admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE template0"); err != nil {
		return fmt.Errorf("dbtest: create template database on %s: %w", s.desc, err)
	}
	s.template = name
	db, err := persistence.Open(ctx, s.dsn(name))
	if err != nil {
		return fmt.Errorf("dbtest: %w", err)
	}
	// Closing disconnects everyone, as copying the template requires.
	defer db.Close()
	if err := persistence.Migrate(ctx, db); err != nil {
		return fmt.Errorf("dbtest: %w", err)
	}
	return nil
}

// close drops the template and stops the private cluster.
func (s *server) close(ctx context.Context) error {
	var errs []error
	if s.template != "" && s.cluster == nil {
		if _, err := s.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+s.template+" WITH (FORCE)"); err != nil {
			errs = append(errs, fmt.Errorf("drop template database %s: %w", s.template, err))
		}
	}
	s.admin.Close()
	if s.cluster != nil {
		if err := s.cluster.Stop(ctx); err != nil {
			errs = append(errs, err)
		} else if err := os.RemoveAll(s.dir); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("dbtest: clean up: %w", err)
	}
	return nil
}

func randomSuffix() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}
