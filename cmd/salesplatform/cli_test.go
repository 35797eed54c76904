package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut, hooks{})
	return code, out.String(), errOut.String()
}

func TestCreateUserCommand(t *testing.T) {
	dsn := dbtest.NewDSN(t)

	t.Run("OKPrintsTokenLast", func(t *testing.T) {
		code, out, errOut := runCmd(t, "createuser", "--database-url", dsn, "--username", "shop", "--password", "shop-password",
			"--email", "s@example.com", "--partner-name", "Shop", "--partner-domain", "shop.example.com", "--marketplace",
			"--permission", "permissions.use_voucher")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(lines[len(lines)-1]) {
			t.Errorf("last line %q is not a token; stdout:\n%s", lines[len(lines)-1], out)
		}
		if !strings.Contains(out, `created partner "Shop"`) {
			t.Errorf("stdout:\n%s", out)
		}
	})

	for name, tc := range map[string]struct {
		args []string
		code int
		msg  string
	}{
		"ErrMissingPassword": {[]string{"--username", "x"}, 2, "--username and --password are required"},
		"ErrUnknownFlag":     {[]string{"--nope"}, 2, "flag provided but not defined"},
		"ErrTakenUsername":   {[]string{"--username", "shop", "--password", "long enough"}, 1, "username: A user with that username already exists."},
		"ErrShortPassword":   {[]string{"--username", "y", "--password", "short"}, 1, "password: This password is too short"},
		"ErrUnknownPermission": {[]string{"--username", "z", "--password", "long enough", "--permission", "permissions.nope"}, 1,
			`permissions: Unknown permission "permissions.nope".`},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCmd(t, append([]string{"createuser", "--database-url", dsn}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.msg) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errOut, tc.code, tc.msg)
			}
		})
	}
}

func TestMigrateCommand(t *testing.T) {
	dsn := dbtest.NewDSN(t) // migrated
	code, out, errOut := runCmd(t, "migrate", "status", "--database-url", dsn)
	if code != 0 || !strings.Contains(out, "applied  20261122000001 accounts") {
		t.Fatalf("status: exit %d\n%s%s", code, out, errOut)
	}
	// down: the last migration only.
	code, out, errOut = runCmd(t, "migrate", "down", "--database-url", dsn)
	if code != 0 || strings.Count(out, "reverted ") != 1 {
		t.Fatalf("down: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ := runCmd(t, "migrate", "status", "--database-url", dsn); !strings.Contains(out, "applied  20261122000001 accounts") ||
		strings.Count(out, "pending ") != 1 {
		t.Fatalf("status after one down:\n%s", out)
	}
	// down --all asks first: anything but "yes" reverts nothing.
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"migrate", "down", "--all", "--database-url", dsn}, &stdout, &stderr,
		hooks{stdin: strings.NewReader("no\n")}); code != 1 || !strings.Contains(stdout.String(), "Type yes") {
		t.Fatalf("down --all answered no: exit %d\n%s%s", code, &stdout, &stderr)
	}
	if _, out, _ := runCmd(t, "migrate", "status", "--database-url", dsn); !strings.Contains(out, "applied  20261122000001 accounts") {
		t.Fatalf("a refused down --all reverted:\n%s", out)
	}
	if code, _, errOut := runCmd(t, "migrate", "down", "--all", "--yes", "--database-url", dsn); code != 0 {
		t.Fatalf("down --all --yes: exit %d: %s", code, errOut)
	}
	if _, out, _ := runCmd(t, "migrate", "status", "--database-url", dsn); strings.Contains(out, "applied ") {
		t.Fatalf("status after down --all:\n%s", out)
	}
	if code, _, errOut := runCmd(t, "migrate", "up", "--database-url", dsn); code != 0 {
		t.Fatalf("up: exit %d: %s", code, errOut)
	}
	if code, _, _ := runCmd(t, "migrate", "sideways"); code != 2 {
		t.Errorf("unknown action: exit %d, want 2", code)
	}
}

func TestUsage(t *testing.T) {
	if code, _, errOut := runCmd(t, "frobnicate"); code != 2 || !strings.Contains(errOut, "usage:") {
		t.Errorf("unknown command: exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := runCmd(t, "help"); code != 0 || !strings.Contains(out, "createuser") {
		t.Errorf("help: exit %d, stdout %q", code, out)
	}
	if code, _, errOut := runCmd(t, "serve", "--cart-ttl", "soon"); code != 1 || !strings.Contains(errOut, "CART_TTL") {
		t.Errorf("bad CART_TTL: exit %d, stderr %q", code, errOut)
	}
}

func TestServeHealthAndShutdown(t *testing.T) {
	dsn := dbtest.NewDSN(t)
	s := mustServe(t, dsn)
	wantResponse(t, do(t, "GET", s.URL+"/healthz", ""), 200, `{"status": "ok"}`)
	wantResponse(t, do(t, "GET", s.URL+"/readyz", ""), 200, `{"status": "ok"}`)
	res := do(t, "GET", s.URL+"/healthz", "", "X-Request-Id", "abc-123")
	if res.Header.Get("X-Request-Id") != "abc-123" {
		t.Errorf("X-Request-Id = %q", res.Header.Get("X-Request-Id"))
	}
	if !strings.Contains(s.Log.String(), `"request_id":"abc-123"`) {
		t.Errorf("the access log lacks the request id:\n%s", s.Log)
	}
	if code := s.stop(); code != 0 {
		t.Errorf("serve exited with %d after cancel:\n%s", code, s.Log)
	}
	if !strings.Contains(s.Log.String(), `"msg":"shutting down"`) {
		t.Errorf("no shutdown in the log:\n%s", s.Log)
	}
}

func TestReadyzWithoutDatabase(t *testing.T) {
	dsn := dbtest.NewDSN(t)
	s := mustServe(t, dsn)
	wantResponse(t, do(t, "GET", s.URL+"/readyz", ""), 200, `{"status": "ok"}`)

	// Take the database away under the running server.
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	u.Path = "/postgres"
	admin, err := persistence.Open(t.Context(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.ExecContext(t.Context(), "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
		t.Fatal(err)
	}
	wantResponse(t, do(t, "GET", s.URL+"/readyz", ""), 503, `{"status": "database unreachable"}`)
	wantResponse(t, do(t, "GET", s.URL+"/healthz", ""), 200, `{"status": "ok"}`)
}

// TestServeSignal runs the real binary and stops it with SIGTERM.
func TestServeSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dsn := dbtest.NewDSN(t)
	cmd, url := startBinary(t, bin, "--database-url", dsn)
	wantResponse(t, do(t, "GET", url+"/healthz", ""), 200, "")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the server did not stop within 20s of SIGTERM")
	}
	_ = os.Remove(bin)
}
