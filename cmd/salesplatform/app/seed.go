package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"salesplatform/cmd/salesplatform/demo"
)

// seedCmd is `salesplatform seed demo`: it loads the demo dataset
// (package demo) and prints the demo users' API tokens last.
func seedCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "demo" {
		fmt.Fprintln(stderr, "usage: salesplatform seed demo [flags]")
		return errUsage
	}
	var cfg Config
	fs := flag.NewFlagSet("seed demo", flag.ContinueOnError)
	bindConfig(fs, &cfg)
	if err := parseFlags(fs, &cfg, args[1:], stderr); err != nil {
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
		baseURL = "http://" + cfg.Addr
	}
	return demo.Load(ctx, db, blobs, cfg.PasswordHashing, time.Now(), baseURL, stdout)
}
