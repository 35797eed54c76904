package app

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"salesplatform/persistence"
)

const migrateUsage = `usage: salesplatform migrate up|status|down [--all [--yes]] [flags]

up applies the pending migrations (embedded SQL), status lists them, down
reverts the last applied one (--all: every one, after asking unless --yes).`

// migrateCmd is `salesplatform migrate up|down|status`. down reverts the
// last applied migration; --all reverts every one, after a confirmation
// read from stdin unless --yes.
func migrateCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	help := len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help")
	if !help && (len(args) == 0 || (args[0] != "up" && args[0] != "down" && args[0] != "status")) {
		fmt.Fprintln(stderr, "usage: salesplatform migrate up|status|down [--all [--yes]] [flags]")
		return errUsage
	}
	action := "down" // migrate --help shows every flag, down's included
	if !help {
		action, args = args[0], args[1:]
	}
	var cfg Config
	var all, yes bool
	name := "migrate " + action
	if help {
		name = "migrate"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	bindConfig(fs, &cfg, groupDatabase)
	if action == "down" {
		fs.BoolVar(&all, "all", false, "(down) revert every applied migration (the whole schema and its data), not only the last")
		fs.BoolVar(&yes, "yes", false, "(down) with --all, do not ask for confirmation")
	}
	if err := parseFlags(fs, &cfg, args, stdout, stderr, migrateUsage); err != nil {
		return err
	}
	db, closeDB, err := openCommandDatabase(ctx, &cfg, stderr, false)
	if err != nil {
		return err
	}
	defer closeDB()

	switch action {
	case "up":
		return persistence.Migrate(ctx, db)
	case "down":
		if all && !yes && !confirm(stdin, stdout, "Revert every migration? This drops all the service's tables and their data. Type yes to go on: ") {
			return errors.New("not confirmed: nothing reverted")
		}
		reverted, err := persistence.Rollback(ctx, db, all)
		for _, name := range reverted {
			fmt.Fprintf(stdout, "reverted %s\n", name)
		}
		if err == nil && len(reverted) == 0 {
			fmt.Fprintln(stdout, "no migration is applied")
		}
		return err
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

// confirm asks question on out and reports whether the answer read from in
// is "yes".
func confirm(in io.Reader, out io.Writer, question string) bool {
	fmt.Fprint(out, question)
	line, _ := bufio.NewReader(in).ReadString('\n')
	return strings.TrimSpace(line) == "yes"
}
