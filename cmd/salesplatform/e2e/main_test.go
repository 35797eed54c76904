package e2e

import (
	"os"
	"testing"

	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) {
	// Every command and server these tests run hashes passwords at 1 MiB
	// instead of 64: the tests check logins, not argon2id's cost, which
	// was three quarters of their CPU time.
	os.Setenv("PASSWORD_HASH_MEMORY", "1")
	dbtest.Main(m)
}
