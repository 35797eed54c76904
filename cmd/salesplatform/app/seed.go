package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"salesplatform/cmd/salesplatform/demo"
)

const seedUsage = `usage: salesplatform seed demo [flags]

Applies pending migrations and loads the demo dataset (idempotent); prints
the demo users' API tokens last. Its media go to S3 or --data-dir as serve's.`

// seedCmd is `salesplatform seed demo`: it loads the demo dataset
// (package demo) and prints the demo users' API tokens last.
func seedCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	help := len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help")
	if !help && (len(args) == 0 || args[0] != "demo") {
		fmt.Fprintln(stderr, "usage: salesplatform seed demo [flags]")
		return errUsage
	}
	if !help {
		args = args[1:]
	}
	var cfg Config
	fs := flag.NewFlagSet("seed demo", flag.ContinueOnError)
	bindConfig(fs, &cfg, groupDatabase|groupPasswords|groupPublicURL|groupMedia)
	if err := parseFlags(fs, &cfg, args, stdout, stderr, seedUsage); err != nil {
		return err
	}
	db, closeDB, err := openCommandDatabase(ctx, &cfg, stderr, true)
	if err != nil {
		return err
	}
	defer closeDB()
	blobs, err := openBlobStore(ctx, &cfg)
	if err != nil {
		return err
	}
	baseURL := cfg.PublicBaseURL
	if baseURL == "" {
		baseURL = "http://" + cfg.Addr // ADDR, as serve would derive it
	}
	return demo.Load(ctx, db, blobs, cfg.PasswordHashing, time.Now(), baseURL, stdout)
}
