// Package app is the salesplatform binary behind its main function: the
// commands (serve, migrate, createuser, seed, version) and the wiring of stores,
// domain services and the two HTTP surfaces that serve runs. It is a
// package of its own so that the end-to-end tests (package e2e) can run
// the same server the binary runs.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	_ "time/tzdata" // partners' time zones must load on machines without zoneinfo
)

// Hooks let tests observe a running server.
type Hooks struct {
	// Listening is called with the server's address once it accepts
	// connections.
	Listening func(addr string)
	// Stdin answers the questions of commands; nil is os.Stdin.
	Stdin io.Reader
	// Draining is called once serve, asked to stop, answers /readyz with
	// 503 and before it closes its listener and waits for requests in
	// flight.
	Draining func()
	// Handler, when set, wraps the handler serve runs (tests slow a
	// request down with it).
	Handler func(http.Handler) http.Handler
}

// Main runs the command named by args and returns the process exit code:
// 0 on success, 2 on bad usage, 1 on failure.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return Run(ctx, args, stdout, stderr, Hooks{})
}

// Run is Main with hooks.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, h Hooks) int {
	cmd := "serve"
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help":
			fmt.Fprintln(stdout, usage)
			return 0
		}
	}
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	if cmd == "help" && len(args) > 0 && args[0] != "help" { // help COMMAND is COMMAND --help
		cmd, args = args[0], []string{"--help"}
	}
	var err error
	switch cmd {
	case "serve":
		err = serve(ctx, args, stdout, stderr, h)
	case "migrate":
		in := h.Stdin
		if in == nil {
			in = os.Stdin
		}
		err = migrateCmd(ctx, args, in, stdout, stderr)
	case "createuser":
		err = createUser(ctx, args, stdout, stderr)
	case "seed":
		err = seedCmd(ctx, args, stdout, stderr)
	case "version":
		err = versionCmd(args, stdout, stderr)
	case "help":
		fmt.Fprintln(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "unknown command %q\n\n%s\n", cmd, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "salesplatform %s: %v\n", cmd, err)
		return 1
	}
}

const usage = `usage:
  salesplatform [serve] [flags]                 serve REST and GraphQL (default command)
  salesplatform migrate up|status|down [flags]  apply or list migrations; down reverts the last one (--all: every one)
  salesplatform createuser --username U --password P [--email E] [--partner-name N]
                [--partner-domain D] [--marketplace] [--staff] [--permission NAME ...]
                                                create a user; prints its API token last
  salesplatform seed demo [flags]               load the demo dataset (idempotent); prints the
                                                demo users' API tokens last
  salesplatform version                         the module version and VCS commit of this binary

Run "salesplatform COMMAND --help" (or "salesplatform help COMMAND") for the flags of a command.`
