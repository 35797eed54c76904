// Command salesplatform runs the sales platform API server and its
// administration commands:
//
//	salesplatform [serve] [flags]     serve REST and GraphQL (the default)
//	salesplatform migrate up|status|down [--all [--yes]] [flags]
//	salesplatform createuser --username U --password P [...]
//	salesplatform seed demo [flags]   load the demo dataset (idempotent)
//	salesplatform version             module version and VCS commit
//
// Without DATABASE_URL it starts a private PostgreSQL from the installed
// server binaries, so a fresh machine needs no set-up.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"salesplatform/cmd/salesplatform/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := app.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
