package app_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/cmd/salesplatform/e2e"
	"salesplatform/persistence/dbtest"
)

func TestCreateUserCommand(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)

	t.Run("OKPrintsTokenLast", func(t *testing.T) {
		code, out, errOut := e2e.RunCommand(t, "createuser", "--database-url", dsn, "--username", "shop", "--password", "shop-password",
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

	t.Run("HashMemoryIsStoredCost", func(t *testing.T) {
		code, _, errOut := e2e.RunCommand(t, "createuser", "--database-url", dsn, "--username", "cost",
			"--password", "cost-password", "--password-hash-memory", "3")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var hash string
		if err := e2e.OpenDB(t, dsn).NewSelect().Table("users").Column("password_hash").
			Where("username = ?", "cost").Scan(context.Background(), &hash); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(hash, "$argon2id$v=19$m=3072,t=1,") {
			t.Errorf("password hash %q, want argon2id with m=3072 (3 MiB)", hash)
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
		"ErrHashMemoryZero": {[]string{"--username", "w", "--password", "long enough", "--password-hash-memory", "0"}, 1,
			`PASSWORD_HASH_MEMORY: "0" is not a number of MiB from 1 to 4096`},
		"ErrUnknownPermission": {[]string{"--username", "z", "--password", "long enough", "--permission", "permissions.nope"}, 1,
			`permissions: Unknown permission "permissions.nope".`},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := e2e.RunCommand(t, append([]string{"createuser", "--database-url", dsn}, tc.args...)...)
			if code != tc.code || !strings.Contains(errOut, tc.msg) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errOut, tc.code, tc.msg)
			}
		})
	}
}

func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t) // migrated
	code, out, errOut := e2e.RunCommand(t, "migrate", "status", "--database-url", dsn)
	if code != 0 || !strings.Contains(out, "applied  20261122000001 accounts") {
		t.Fatalf("status: exit %d\n%s%s", code, out, errOut)
	}
	// down: the last migration only.
	code, out, errOut = e2e.RunCommand(t, "migrate", "down", "--database-url", dsn)
	if code != 0 || strings.Count(out, "reverted ") != 1 {
		t.Fatalf("down: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ := e2e.RunCommand(t, "migrate", "status", "--database-url", dsn); !strings.Contains(out, "applied  20261122000001 accounts") ||
		strings.Count(out, "pending ") != 1 {
		t.Fatalf("status after one down:\n%s", out)
	}
	// down --all asks first: anything but "yes" reverts nothing.
	var stdout, stderr bytes.Buffer
	if code := app.Run(context.Background(), []string{"migrate", "down", "--all", "--database-url", dsn}, &stdout, &stderr,
		app.Hooks{Stdin: strings.NewReader("no\n")}); code != 1 || !strings.Contains(stdout.String(), "Type yes") {
		t.Fatalf("down --all answered no: exit %d\n%s%s", code, &stdout, &stderr)
	}
	if _, out, _ := e2e.RunCommand(t, "migrate", "status", "--database-url", dsn); !strings.Contains(out, "applied  20261122000001 accounts") {
		t.Fatalf("a refused down --all reverted:\n%s", out)
	}
	if code, _, errOut := e2e.RunCommand(t, "migrate", "down", "--all", "--yes", "--database-url", dsn); code != 0 {
		t.Fatalf("down --all --yes: exit %d: %s", code, errOut)
	}
	if _, out, _ := e2e.RunCommand(t, "migrate", "status", "--database-url", dsn); strings.Contains(out, "applied ") {
		t.Fatalf("status after down --all:\n%s", out)
	}
	if code, _, errOut := e2e.RunCommand(t, "migrate", "up", "--database-url", dsn); code != 0 {
		t.Fatalf("up: exit %d: %s", code, errOut)
	}
	if code, _, _ := e2e.RunCommand(t, "migrate", "sideways"); code != 2 {
		t.Errorf("unknown action: exit %d, want 2", code)
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	if code, _, errOut := e2e.RunCommand(t, "frobnicate"); code != 2 || !strings.Contains(errOut, "usage:") {
		t.Errorf("unknown command: exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := e2e.RunCommand(t, "help"); code != 0 || !strings.Contains(out, "createuser") {
		t.Errorf("help: exit %d, stdout %q", code, out)
	}
	if code, _, errOut := e2e.RunCommand(t, "serve", "--cart-ttl", "soon"); code != 1 || !strings.Contains(errOut, "CART_TTL") {
		t.Errorf("bad CART_TTL: exit %d, stderr %q", code, errOut)
	}
	for _, ttl := range []string{"soon", "30s", "200h"} {
		if code, _, errOut := e2e.RunCommand(t, "serve", "--hold-ttl", ttl); code != 1 || !strings.Contains(errOut, "HOLD_TTL") {
			t.Errorf("HOLD_TTL %s: exit %d, stderr %q", ttl, code, errOut)
		}
	}
}

// flagsIn lists the flags a --help output describes.
func flagsIn(help string) map[string]bool {
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(help, -1) {
		flags[m[1]] = true
	}
	return flags
}

// Each command's --help exits 0 and lists its own flags and the shared ones
// it uses, and no other.
func TestHelp(t *testing.T) {
	t.Parallel()
	database := []string{"database-url", "data-dir", "db-max-conns", "log-level"}
	serverOnly := []string{"addr", "redis-url", "cart-ttl", "hold-ttl", "max-conns", "max-conns-per-ip", "shutdown-grace", "drain-delay", "cors-origins", "trusted-proxies", "no-migrate",
		"smtp-url", "mail-from", "dev-mode", "webhook-allowed-networks", "webhook-timeout", "webhook-retry-schedule"}
	s3 := []string{"s3-endpoint", "s3-bucket", "s3-access-key-id", "s3-secret-access-key", "s3-region", "s3-insecure"}
	for name, tc := range map[string]struct {
		args      []string
		want, not []string
	}{
		"Serve":          {[]string{"serve", "--help"}, concat(database, serverOnly, s3, []string{"public-base-url", "password-hash-memory"}), nil},
		"ServeByDefault": {[]string{"-h"}, nil, nil}, // the commands' list, below
		"HelpServe":      {[]string{"help", "serve"}, concat(database, serverOnly), nil},
		"Migrate":        {[]string{"migrate", "--help"}, concat(database, []string{"all", "yes"}), concat(serverOnly, s3, []string{"public-base-url", "password-hash-memory"})},
		"MigrateUp":      {[]string{"migrate", "up", "-h"}, database, concat(serverOnly, s3, []string{"all", "yes", "password-hash-memory"})},
		"Createuser": {[]string{"createuser", "--help"},
			concat(database, []string{"username", "password", "email", "partner-name", "partner-domain", "marketplace", "staff", "permission", "password-hash-memory"}),
			concat(serverOnly, s3, []string{"public-base-url"})},
		"Seed":     {[]string{"seed", "--help"}, concat(database, s3, []string{"public-base-url", "password-hash-memory"}), serverOnly},
		"SeedDemo": {[]string{"seed", "demo", "--help"}, concat(database, s3), serverOnly},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := e2e.RunCommand(t, tc.args...)
			if code != 0 || errOut != "" || !strings.Contains(out, "usage:") {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
			}
			flags := flagsIn(out)
			for _, f := range tc.want {
				if !flags[f] {
					t.Errorf("lacks --%s:\n%s", f, out)
				}
			}
			for _, f := range tc.not {
				if flags[f] {
					t.Errorf("lists --%s, which it does not use:\n%s", f, out)
				}
			}
		})
	}
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		code, out, _ := e2e.RunCommand(t, args...)
		if code != 0 || !strings.Contains(out, "salesplatform version") || !strings.Contains(out, "createuser") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
	// A flag of another command is refused, pointing at --help.
	if code, _, errOut := e2e.RunCommand(t, "createuser", "--addr", ":1"); code != 2 || !strings.Contains(errOut, `"salesplatform createuser --help"`) {
		t.Errorf("createuser --addr: exit %d, stderr %q", code, errOut)
	}
}

// A setting a command ignores does not stop it when malformed (not
// parallel: it sets the environment).
func TestIgnoredSettingsAreNotChecked(t *testing.T) {
	t.Setenv("CART_TTL", "soon")
	t.Setenv("S3_INSECURE", "maybe")
	if code, _, errOut := e2e.RunCommand(t, "migrate", "status", "--db-max-conns", "0"); code != 1 ||
		!strings.Contains(errOut, "DB_MAX_CONNS") || strings.Contains(errOut, "CART_TTL") || strings.Contains(errOut, "S3_INSECURE") {
		t.Errorf("migrate: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := e2e.RunCommand(t, "serve", "--database-url", "postgres://127.0.0.1:1/none"); code != 1 || !strings.Contains(errOut, "CART_TTL") {
		t.Errorf("serve: exit %d, stderr %q", code, errOut)
	}
}

func concat(lists ...[]string) []string {
	var all []string
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

func TestCORSOriginsSetting(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"front.example.com", "https://front.example.com/", "https://front.example.com/app", "ftp://x", "*"} {
		if code, _, errOut := e2e.RunCommand(t, "serve", "--cors-origins", "https://ok.example.com,"+bad); code != 1 || !strings.Contains(errOut, "CORS_ORIGINS") {
			t.Errorf("%q: exit %d, stderr %q", bad, code, errOut)
		}
	}
}

// A bad drain delay, trusted proxy or webhook setting stops serve before
// it starts, naming the setting.
func TestDrainAndProxySettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ flag, value, setting string }{
		{"--drain-delay", "-1s", "DRAIN_DELAY"},
		{"--drain-delay", "soon", "DRAIN_DELAY"},
		{"--trusted-proxies", "10.0.0.0/8,nope", "TRUSTED_PROXIES"},
		{"--webhook-allowed-networks", "127.0.0.0/8,10.0.0.0/33", "WEBHOOK_ALLOWED_NETWORKS"},
		{"--webhook-timeout", "500ms", "WEBHOOK_TIMEOUT"},
		{"--webhook-retry-schedule", "5s,soon", "WEBHOOK_RETRY_SCHEDULE"},
		{"--webhook-retry-schedule", "5s,-1m", "WEBHOOK_RETRY_SCHEDULE"},
		{"--webhook-retry-schedule", "", "WEBHOOK_RETRY_SCHEDULE"},
	} {
		if code, _, errOut := e2e.RunCommand(t, "serve", tc.flag, tc.value); code != 1 || !strings.Contains(errOut, tc.setting) {
			t.Errorf("%s %q: exit %d, stderr %q", tc.flag, tc.value, code, errOut)
		}
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	code, out, errOut := e2e.RunCommand(t, "version")
	if code != 0 || !regexp.MustCompile(`^\S+ \S+ commit .* go1\.\d+`).MatchString(out) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, _ := e2e.RunCommand(t, "version", "extra"); code != 2 {
		t.Errorf("version extra: exit %d, want 2", code)
	}
	if code, out, _ := e2e.RunCommand(t, "version", "--help"); code != 0 || !strings.Contains(out, "usage: salesplatform version") {
		t.Errorf("version --help: exit %d, stdout %q", code, out)
	}
}

// TestVersionOfBuiltBinary builds the binary with VCS stamping and checks
// that it reports the checkout's commit.
func TestVersionOfBuiltBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "salesplatform")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, "salesplatform/cmd/salesplatform")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "salesplatform ") || !strings.Contains(string(out), " commit "+strings.TrimSpace(string(head))) {
		t.Errorf("version: %q, want commit %s", out, head)
	}
}

func TestMailSettings(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ args []string }{
		"ErrSMTPScheme":   {[]string{"--smtp-url", "https://user:hunter2@relay.example.com"}},
		"ErrSMTPStartTLS": {[]string{"--smtp-url", "smtp://user:hunter2@relay.example.com?starttls=maybe"}},
		"ErrMailFrom":     {[]string{"--mail-from", "no reply"}},
	} {
		t.Run(name, func(t *testing.T) {
			setting := "SMTP_URL"
			if name == "ErrMailFrom" {
				setting = "MAIL_FROM"
			}
			code, _, errOut := e2e.RunCommand(t, append([]string{"serve"}, tc.args...)...)
			if code != 1 || !strings.Contains(errOut, setting) || strings.Contains(errOut, "hunter2") {
				t.Errorf("exit %d, stderr %q; want 1, naming %s, without the password", code, errOut, setting)
			}
		})
	}
}
