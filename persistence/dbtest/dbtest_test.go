package dbtest_test

import (
	"fmt"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func count(t *testing.T, db *bun.DB, query string) int {
	t.Helper()
	var n int
	if err := db.NewRaw(query).Scan(t.Context(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDatabasesAreMigratedAndIsolated(t *testing.T) {
	t.Parallel()
	a, b := dbtest.New(t), dbtest.New(t)

	for _, db := range []*bun.DB{a, b} {
		if n := count(t, db, "SELECT count(*) FROM permissions"); n != 15 {
			t.Fatalf("%d permissions, want 15", n)
		}
	}
	if _, err := a.ExecContext(t.Context(), "INSERT INTO partners (name) VALUES ('only in a')"); err != nil {
		t.Fatal(err)
	}
	if n := count(t, a, "SELECT count(*) FROM partners"); n != 1 {
		t.Errorf("database a has %d partners, want 1", n)
	}
	if n := count(t, b, "SELECT count(*) FROM partners"); n != 0 {
		t.Errorf("database b has %d partners, want 0", n)
	}
}

func TestNewDSNIsDroppedAtCleanup(t *testing.T) {
	t.Parallel()
	var name string
	t.Run("use", func(t *testing.T) {
		db, err := persistence.Open(t.Context(), dbtest.NewDSN(t))
		if err != nil {
			t.Fatal(err)
		}
		// Left open on purpose: the drop must cut it.
		if err := db.NewRaw("SELECT current_database()").Scan(t.Context(), &name); err != nil {
			t.Fatal(err)
		}
		states, err := persistence.MigrationStatus(t.Context(), db)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range states {
			if !s.Applied {
				t.Errorf("migration %s not applied", s.Name)
			}
		}
	})
	db := dbtest.New(t)
	if n := count(t, db, fmt.Sprintf("SELECT count(*) FROM pg_database WHERE datname = '%s'", name)); n != 0 {
		t.Errorf("database %s still exists after its test", name)
	}
}

func TestNewEmptyDSN(t *testing.T) {
	t.Parallel()
	db, err := persistence.Open(t.Context(), dbtest.NewEmptyDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := count(t, db, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"); n != 0 {
		t.Errorf("%d tables in the empty database", n)
	}
}

func TestManyParallel(t *testing.T) {
	for i := range 8 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			db := dbtest.New(t)
			if _, err := db.ExecContext(t.Context(), "INSERT INTO partners (name) VALUES ('p')"); err != nil {
				t.Fatal(err)
			}
			if n := count(t, db, "SELECT count(*) FROM partners"); n != 1 {
				t.Errorf("%d partners, want 1", n)
			}
		})
	}
}
