package app_test

import (
	"context"
	"strings"
	"testing"

	"salesplatform/cmd/salesplatform/e2e"
	"salesplatform/persistence/dbtest"
)

func TestSeedUsage(t *testing.T) {
	for _, args := range [][]string{{"seed"}, {"seed", "production"}, {"seed", "demo", "--nope"}} {
		if code, _, errOut := e2e.RunCommand(t, args...); code != 2 {
			t.Errorf("%v: exit %d, stderr %q; want 2", args, code, errOut)
		}
	}
}

// A load that fails exits 1 and says why on stderr; package demo tests
// what such a failure leaves (nothing).
func TestSeedDemoFailureExitsOne(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	db := e2e.OpenDB(t, dsn)
	if _, err := db.ExecContext(context.Background(), `CREATE FUNCTION refuse_giftcards() RETURNS trigger LANGUAGE plpgsql AS
			$$ BEGIN RAISE EXCEPTION 'giftcards are closed'; END $$;
		CREATE TRIGGER refuse_giftcards BEFORE INSERT ON giftcards FOR EACH ROW
			WHEN (NEW.gifter_first_name <> '') EXECUTE FUNCTION refuse_giftcards();`); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e2e.RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", t.TempDir())
	if code != 1 || out != "" || !strings.Contains(errOut, "none of it was saved") ||
		!strings.Contains(errOut, "giftcard of Claire Fontaine") || !strings.Contains(errOut, "giftcards are closed") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}
