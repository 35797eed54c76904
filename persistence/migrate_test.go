package persistence_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/migrations"
)

func openEmpty(t *testing.T) *bun.DB {
	t.Helper()
	db, err := persistence.Open(t.Context(), dbtest.NewEmptyDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func tableExists(t *testing.T, db *bun.DB, table string) bool {
	t.Helper()
	var ok bool
	if err := db.NewRaw("SELECT to_regclass(?) IS NOT NULL", table).Scan(t.Context(), &ok); err != nil {
		t.Fatal(err)
	}
	return ok
}

func checkStatus(t *testing.T, db *bun.DB, applied bool, group int64) {
	t.Helper()
	states, err := persistence.MigrationStatus(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	if len(states) == 0 || len(states) != len(migrations.Migrations.Sorted()) {
		t.Fatalf("%d states for %d migrations", len(states), len(migrations.Migrations.Sorted()))
	}
	for _, s := range states {
		if s.Applied != applied || s.GroupID != group || s.MigratedAt.IsZero() == applied {
			t.Errorf("%+v: want applied %v in group %d", s, applied, group)
		}
	}
	if states[0].Name != "20261122000001" || states[0].Comment != "accounts" {
		t.Errorf("first migration %s_%s, want 20261122000001_accounts", states[0].Name, states[0].Comment)
	}
}

func TestMigrateAndRollback(t *testing.T) {
	t.Parallel()
	db := openEmpty(t)
	ctx := t.Context()
	tables := []string{"partners", "users", "api_tokens", "permissions", "user_permissions", "river_job", "river_migration"}

	checkStatus(t, db, false, 0)
	if tableExists(t, db, "bun_migrations") {
		t.Error("MigrationStatus created bun_migrations")
	}

	if err := persistence.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		if !tableExists(t, db, table) {
			t.Errorf("no table %s after Migrate", table)
		}
	}
	var n int
	if err := db.NewRaw("SELECT count(*) FROM permissions").Scan(ctx, &n); err != nil || n != 15 {
		t.Errorf("%d permissions, %v; want 15", n, err)
	}
	checkStatus(t, db, true, 1)
	before, err := persistence.MigrationStatus(ctx, db)
	if err != nil {
		t.Fatal(err)
	}

	if err := persistence.Migrate(ctx, db); err != nil {
		t.Fatalf("second Migrate: %v", err)
	}
	after, err := persistence.MigrationStatus(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(before, after, func(a, b persistence.MigrationState) bool {
		return a.Name == b.Name && a.GroupID == b.GroupID && a.MigratedAt.Equal(b.MigratedAt)
	}) {
		t.Errorf("second Migrate changed the status: %+v, then %+v", before, after)
	}

	// One step: only the newest migration is reverted.
	reverted, err := persistence.Rollback(ctx, db, false)
	if err != nil || len(reverted) != 1 || !strings.HasPrefix(reverted[0], before[len(before)-1].Name) {
		t.Fatalf("one step reverted %v, %v; want %s", reverted, err, before[len(before)-1].Name)
	}
	states, err := persistence.MigrationStatus(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range states {
		if st.Applied != (i < len(states)-1) {
			t.Errorf("after one step, %s applied = %v", st.Name, st.Applied)
		}
	}
	if !tableExists(t, db, "partners") || !tableExists(t, db, "river_job") {
		t.Error("one step dropped the first migration's tables or River's")
	}

	// All the rest, and River's tables.
	if reverted, err := persistence.Rollback(ctx, db, true); err != nil || len(reverted) != len(before) ||
		reverted[len(reverted)-1] != "river job queue" {
		t.Fatalf("all reverted %q, %v; want %d migrations and River's", reverted, err, len(before)-1)
	}
	for _, table := range tables {
		if tableExists(t, db, table) {
			t.Errorf("table %s left after Rollback", table)
		}
	}
	checkStatus(t, db, false, 0)

	if reverted, err := persistence.Rollback(ctx, db, true); err != nil || len(reverted) != 0 {
		t.Errorf("Rollback with nothing applied: %v %v", reverted, err)
	}
	if err := persistence.Migrate(ctx, db); err != nil {
		t.Fatalf("Migrate after Rollback: %v", err)
	}
	checkStatus(t, db, true, 1)
}

// TestMigrateConcurrently starts servers together on a fresh database: all
// succeed, and the migrations are applied once.
func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewEmptyDSN(t)
	const servers = 4
	var wg sync.WaitGroup
	for i := range servers {
		wg.Go(func() {
			db, err := persistence.Open(t.Context(), dsn)
			if err != nil {
				t.Error(err)
				return
			}
			defer db.Close()
			if err := persistence.Migrate(t.Context(), db); err != nil {
				t.Errorf("server %d: %v", i, err)
			}
		})
	}
	wg.Wait()

	db, err := persistence.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkStatus(t, db, true, 1)
	var rows int
	if err := db.NewRaw("SELECT count(*) FROM bun_migrations").Scan(t.Context(), &rows); err != nil || rows != len(migrations.Migrations.Sorted()) {
		t.Errorf("%d rows in bun_migrations, %v; want one per migration", rows, err)
	}
}

func TestMigrateReportsLeftoverLock(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	// As a migrator killed while holding bun's lock would leave it.
	if err := migrate.NewMigrator(db, migrations.Migrations).Lock(t.Context()); err != nil {
		t.Fatal(err)
	}
	err := persistence.Migrate(t.Context(), db)
	if err == nil || !strings.Contains(err.Error(), "DELETE FROM bun_migration_locks") {
		t.Fatalf("got %v, want an error saying how to release the lock", err)
	}
	if _, err := db.ExecContext(t.Context(), "DELETE FROM bun_migration_locks"); err != nil {
		t.Fatal(err)
	}
	if err := persistence.Migrate(t.Context(), db); err != nil {
		t.Fatal(err)
	}
}

// TestMultiStatementExecIsAtomic guards what Migrate's documentation
// promises: a migration file, executed as one multi-statement string,
// commits entirely or not at all.
func TestMultiStatementExecIsAtomic(t *testing.T) {
	t.Parallel()
	db := openEmpty(t)
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "CREATE TABLE half (id int);\nSELECT 1/0;\n"); err == nil {
		t.Fatal("division by zero succeeded")
	}
	if tableExists(t, db, "half") {
		t.Error("the statement before the failing one was committed")
	}
}
