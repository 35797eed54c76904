package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"salesplatform/persistence"
)

// migrateCmd is `salesplatform migrate up|down|status`.
func migrateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "up" && args[0] != "down" && args[0] != "status") {
		fmt.Fprintln(stderr, "usage: salesplatform migrate up|down|status [flags]")
		return errUsage
	}
	action := args[0]
	var cfg config
	fs := flag.NewFlagSet("migrate "+action, flag.ContinueOnError)
	bindConfig(fs, &cfg)
	if err := parseFlags(fs, &cfg, args[1:], stderr); err != nil {
		return err
	}
	log := newLogger(stderr, cfg.LogLevel)
	db, closeDB, err := openDatabase(ctx, &cfg, log, true)
	if err != nil {
		return err
	}
	defer closeDB()

	switch action {
	case "up":
		return persistence.Migrate(ctx, db)
	case "down":
		return persistence.Rollback(ctx, db)
	}
	states, err := persistence.MigrationStatus(ctx, db)
	if err != nil {
		return err
	}
	for _, s := range states {
		status := "pending"
		if s.Applied {
			status = "applied"
		}
		fmt.Fprintf(stdout, "%-8s %s %s\n", status, s.Name, s.Comment)
	}
	return nil
}
