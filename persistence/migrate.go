package persistence

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"salesplatform/persistence/migrations"
)

// migrateLockKey names the PostgreSQL advisory lock that serialises Migrate
// and Rollback on a database: 0x73616c6573 is "sales".
const migrateLockKey int64 = 0x73616c6573

// MigrationState is one migration and whether the database has it.
type MigrationState struct {
	Name       string // version, from the file name: 20261122000001
	Comment    string // the rest of the file name: accounts
	Applied    bool
	GroupID    int64     // the Migrate call that applied it, counting from 1; 0 when not applied
	MigratedAt time.Time // zero when not applied
}

// Migrate applies the pending migrations, in name order, as one group;
// MigrationStatus then tells which (GroupID). Then it brings the job
// queue's tables (river_job, …) to the River version this binary is built
// with, by River's own migrations, which River versions in
// river_migration. It does nothing when the schema is up to date.
//
// Servers starting together may all call it: they take turns, and the
// later ones find nothing to do. A migration that fails is not recorded,
// and a file without --bun:split directives goes to the server as one
// multi-statement query, which PostgreSQL runs as one transaction: fixing
// the cause and running Migrate again is enough.
func Migrate(ctx context.Context, db *bun.DB) error {
	err := withMigrator(ctx, db, func(m *migrate.Migrator) error {
		if _, err := m.Migrate(ctx); err != nil {
			return err
		}
		rm, err := riverMigrator(db)
		if err != nil {
			return err
		}
		if _, err := rm.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
			return fmt.Errorf("river: %w", err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("persistence: migrate: %w", err)
	}
	return nil
}

// riverJobQueue names River's tables among Rollback's reverted migrations.
const riverJobQueue = "river job queue"

// riverMigrator migrates River's tables, in the search path's schema like
// ours. Its log says only what the result says.
func riverMigrator(db *bun.DB) (*rivermigrate.Migrator[*sql.Tx], error) {
	return rivermigrate.New(riverdatabasesql.New(db.DB), &rivermigrate.Config{Logger: slog.New(slog.DiscardHandler)})
}

// Rollback reverts the last applied migration, or with all every applied
// migration, newest first, and River's tables (queued jobs included; named
// "river job queue" among the reverted), and returns the names it reverted
// (none when no migration is applied). Each migration is marked unapplied
// once its down script succeeded, so a failed one can be reverted again.
func Rollback(ctx context.Context, db *bun.DB, all bool) ([]string, error) {
	var reverted []string
	err := withMigrator(ctx, db, func(m *migrate.Migrator) error {
		ms, err := m.MigrationsWithStatus(ctx)
		if err != nil {
			return err
		}
		applied := ms.Applied() // newest first
		if !all {
			applied = applied[:min(len(applied), 1)]
		}
		for i := range applied {
			mig := &applied[i]
			if mig.Down != nil {
				if err := mig.Down(ctx, m, mig); err != nil {
					return fmt.Errorf("%s: down: %w", mig.Name, err)
				}
			}
			if err := m.MarkUnapplied(ctx, mig); err != nil {
				return err
			}
			reverted = append(reverted, mig.Name+" "+mig.Comment)
		}
		if !all {
			return nil
		}
		rm, err := riverMigrator(db)
		if err != nil {
			return err
		}
		res, err := rm.Migrate(ctx, rivermigrate.DirectionDown, &rivermigrate.MigrateOpts{TargetVersion: -1})
		if err != nil {
			return fmt.Errorf("river: %w", err)
		}
		if len(res.Versions) > 0 {
			reverted = append(reverted, riverJobQueue)
		}
		return nil
	})
	if err != nil {
		return reverted, fmt.Errorf("persistence: rollback: %w", err)
	}
	return reverted, nil
}

// MigrationStatus lists the migrations this binary knows, in the order
// Migrate applies them, and which the database has. It changes nothing,
// not even on a database never migrated.
func MigrationStatus(ctx context.Context, db *bun.DB) ([]MigrationState, error) {
	var ms migrate.MigrationSlice
	var initialised bool
	err := db.NewRaw("SELECT to_regclass(?) IS NOT NULL", migrationsTable).Scan(ctx, &initialised)
	if err != nil {
		return nil, fmt.Errorf("persistence: migration status: %w", err)
	}
	if initialised {
		ms, err = newMigrator(db).MigrationsWithStatus(ctx)
		if err != nil {
			return nil, fmt.Errorf("persistence: migration status: %w", err)
		}
	} else {
		ms = migrations.Migrations.Sorted()
	}

	states := make([]MigrationState, len(ms))
	for i, m := range ms {
		states[i] = MigrationState{
			Name:       m.Name,
			Comment:    m.Comment,
			Applied:    m.IsApplied(),
			GroupID:    m.GroupID,
			MigratedAt: m.MigratedAt,
		}
	}
	return states, nil
}

// migrationsTable is bun's default, where it records applied migrations.
const migrationsTable = "bun_migrations"

func newMigrator(db *bun.DB) *migrate.Migrator {
	// Marking a migration applied only once it succeeded lets a failed one
	// run again; bun's default marks it first.
	return migrate.NewMigrator(db, migrations.Migrations,
		migrate.WithTableName(migrationsTable), migrate.WithMarkAppliedOnSuccess(true))
}

// withMigrator runs fn with a migrator holding both locks.
//
// bun's own lock is a row in bun_migration_locks: a second migrator fails at
// once instead of waiting, and a process killed while holding it leaves
// the row behind for good. So we first take a PostgreSQL advisory lock,
// which waits its turn and dies with its session, and keep bun's lock to
// shut out other bun-based tools. It also covers creating bun's tables,
// which concurrent CREATE TABLE IF NOT EXISTS does not make safe. The pool
// must allow two connections: one holds the advisory lock while the
// migrations run on others.
func withMigrator(ctx context.Context, db *bun.DB, fn func(*migrate.Migrator) error) (err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", migrateLockKey); err != nil {
		// The connection may have been cancelled mid-call; never hand one
		// that might hold the lock back to the pool.
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		conn.Close()
		return fmt.Errorf("wait for the migration lock: %w", err)
	}
	defer func() {
		// Release even when ctx is done, or the lock outlives the call.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock(?)", migrateLockKey); err != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}()

	m := newMigrator(db)
	if err := m.Init(ctx); err != nil {
		return err
	}
	if err := m.Lock(ctx); err != nil {
		if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return fmt.Errorf("%w; no Migrate or Rollback of this program is running, so it is left over "+
				"from a crashed one or held by another tool: when none runs, release it with "+
				"DELETE FROM bun_migration_locks", err)
		}
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if uerr := m.Unlock(ctx); uerr != nil && err == nil {
			err = fmt.Errorf("release the migration lock: %w", uerr)
		}
	}()
	return fn(m)
}
