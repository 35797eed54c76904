package app_test

import (
	"bytes"
	"context"
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
}
