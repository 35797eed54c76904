package persistence_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Services own transactions: no store opens one of its own. The unit of
// work (database.go) is the one place of this package that begins a
// transaction (db.go only wraps the driver's); a store method runs on the
// bun.IDB it was made on.
func TestStoresOpenNoTransaction(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f == "database.go" || f == "db.go" || strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, begin := range []string{".RunInTx(", ".BeginTx(", ".Begin("} {
			if strings.Contains(string(b), begin) {
				t.Errorf("%s calls %s: a store runs in the transaction its service opens (domain.UnitOfWork)", f, begin)
			}
		}
	}
}
