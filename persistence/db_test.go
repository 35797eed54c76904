package persistence_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// TestMain serves every test file of the package.
func TestMain(m *testing.M) { dbtest.Main(m) }

func TestOpen(t *testing.T) {
	t.Parallel()
	db, err := persistence.Open(t.Context(), dbtest.NewDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	var one int
	if err := db.NewRaw("SELECT 1").Scan(t.Context(), &one); err != nil || one != 1 {
		t.Fatalf("SELECT 1 = %d, %v", one, err)
	}
	if n := db.Stats().MaxOpenConnections; n < 4 {
		t.Errorf("MaxOpenConnections = %d, want a limit of at least 4", n)
	}
	var app string
	if err := db.NewRaw("SHOW application_name").Scan(t.Context(), &app); err != nil || app != "salesplatform" {
		t.Errorf("application_name = %q, %v", app, err)
	}
}

func TestOpenErrorsHidePassword(t *testing.T) {
	t.Parallel()
	const password = "s3cretpw"
	for _, dsn := range []string{
		"postgres://u:" + password + "@127.0.0.1:1/db?sslmode=disable", // nothing listens
		"host=/nonexistent/dir user=u password=" + password,            // no socket
		"postgres://u:" + password + "@h:badport/db",                   // unparsable
		"host=h port=x password=" + password,
		"postgres://u:" + password + "@h/db?sslmode=bogus",
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
		db, err := persistence.Open(ctx, dsn)
		cancel()
		if err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", dsn)
			continue
		}
		if strings.Contains(err.Error(), password) {
			t.Errorf("error shows the password: %v", err)
		}
	}
}
