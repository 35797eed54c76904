package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/uptrace/bun"

	"salesplatform/persistence"
	"salesplatform/persistence/pgcluster"
)

// embeddedDBName is the database the service uses in its private cluster.
const embeddedDBName = "salesplatform"

// openDatabase connects to DATABASE_URL or, when it is empty, starts the
// private PostgreSQL cluster in DATA_DIR. With borrow, a cluster that a
// running server already owns is used as is, so that createuser and migrate
// work beside it. closeFn closes what was opened. It sets cfg.dsn.
func openDatabase(ctx context.Context, cfg *Config, log *slog.Logger, borrow bool) (db *bun.DB, closeFn func(), err error) {
	useWebhookData()
	if cfg.DatabaseURL != "" {
		db, err := persistence.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, nil, err
		}
		persistence.SetMaxConns(db.DB, cfg.DBMaxConns)
		cfg.dsn = cfg.DatabaseURL
		return db, func() { _ = db.Close() }, nil
	}
	dir, err := filepath.Abs(filepath.Join(cfg.DataDir, "postgres"))
	if err != nil {
		return nil, nil, err
	}
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{DataDir: dir, Logger: log})
	if borrow && errors.Is(err, pgcluster.ErrInUse) {
		cluster, err = pgcluster.Attach(dir)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("start the private PostgreSQL (set DATABASE_URL to use another): %w", err)
	}
	stop := func() {
		if err := cluster.Stop(context.WithoutCancel(ctx)); err != nil {
			log.Error("stop private PostgreSQL", "error", err.Error())
		}
	}
	if err := ensureDatabase(ctx, cluster.DSN("postgres"), embeddedDBName); err != nil {
		stop()
		return nil, nil, err
	}
	db, err = persistence.Open(ctx, cluster.DSN(embeddedDBName))
	if err != nil {
		stop()
		return nil, nil, err
	}
	persistence.SetMaxConns(db.DB, cfg.DBMaxConns)
	cfg.dsn = cluster.DSN(embeddedDBName)
	log.Info("using the private PostgreSQL", "data_dir", dir)
	return db, func() { _ = db.Close(); stop() }, nil
}

// openCommandDatabase opens the database of a command other than serve
// (createuser, migrate, seed), beside a running server's private cluster
// if there is one; with migrate it first applies pending migrations, so that
// a fresh machine may run the command before it ever served.
func openCommandDatabase(ctx context.Context, cfg *Config, stderr io.Writer, migrate bool) (db *bun.DB, closeFn func(), err error) {
	db, closeFn, err = openDatabase(ctx, cfg, NewLogger(stderr, cfg.LogLevel), true)
	if err != nil || !migrate {
		return db, closeFn, err
	}
	if err := persistence.Migrate(ctx, db); err != nil {
		closeFn()
		return nil, nil, err
	}
	return db, closeFn, nil
}

// ensureDatabase creates the named database when the server lacks it.
func ensureDatabase(ctx context.Context, adminDSN, name string) error {
	admin, err := persistence.Open(ctx, adminDSN)
	if err != nil {
		return err
	}
	defer admin.Close()
	var exists bool
	if err := admin.NewRaw("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = ?)", name).Scan(ctx, &exists); err != nil {
		return fmt.Errorf("look up database %s: %w", name, err)
	}
	if exists {
		return nil
	}
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil && !errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}
