package persistence_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/domain/network"
	"salesplatform/domain/notify"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

type jobRow struct {
	Kind        string          `bun:"kind"`
	Queue       string          `bun:"queue"`
	State       string          `bun:"state"`
	MaxAttempts int             `bun:"max_attempts"`
	Tags        []string        `bun:"tags,array"`
	Args        json.RawMessage `bun:"args"`
}

func mailJobs(t *testing.T, db *bun.DB) []jobRow {
	t.Helper()
	var rows []jobRow
	if err := db.NewRaw("SELECT kind, queue, state, max_attempts, tags, args FROM river_job ORDER BY id").Scan(t.Context(), &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestOutboxEnqueueCommitsWithTheTransaction(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	uow := persistence.NewUnitOfWork(db, persistence.NetworkStores)
	fr := notify.Mail{Kind: "network_giftcard_usage_marketplace", To: "ops@market.example.com", Subject: "Carte utilisée",
		Text: "Montant\u00a0: 12,50\u00a0€\n", Language: "fr"}
	de := notify.Mail{Kind: "network_giftcard_usage_beneficiary", To: "Jörg <jorg@example.com>", Subject: "Eingelöst",
		Text: "Betrag: 12,50\u00a0€\n", HTML: "<p>Betrag: 12,50&nbsp;€</p>", Language: "de"}
	errRollback := errors.New("the business change failed")

	err := uow.RunInTx(t.Context(), func(ctx context.Context, tx network.Stores) error {
		if err := tx.Outbox.Enqueue(ctx, fr, de); err != nil {
			t.Fatal(err)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatal(err)
	}
	if jobs := mailJobs(t, db); len(jobs) != 0 {
		t.Fatalf("a rolled back transaction left %d jobs: %+v", len(jobs), jobs)
	}

	// A savepoint rolled back takes its mails with it; the outer
	// transaction's commit.
	type stores struct {
		db     bun.IDB
		outbox *persistence.Outbox
	}
	bind := func(db bun.IDB) stores { return stores{db, persistence.NewOutbox(db)} }
	err = persistence.NewUnitOfWork(db, bind).RunInTx(t.Context(), func(ctx context.Context, tx stores) error {
		if err := tx.outbox.Enqueue(ctx, fr); err != nil {
			return err
		}
		err := persistence.NewUnitOfWork(tx.db, bind).RunInTx(ctx, func(ctx context.Context, sp stores) error {
			if err := sp.outbox.Enqueue(ctx, de); err != nil {
				t.Fatal(err)
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			t.Fatal(err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if jobs := mailJobs(t, db); len(jobs) != 1 || !strings.Contains(string(jobs[0].Args), fr.Subject) {
		t.Fatalf("after a savepoint rolled back: %+v, want the outer transaction's mail alone", jobs)
	}
	if _, err := db.ExecContext(t.Context(), "DELETE FROM river_job"); err != nil {
		t.Fatal(err)
	}

	err = uow.RunInTx(t.Context(), func(ctx context.Context, tx network.Stores) error {
		return tx.Outbox.Enqueue(ctx, fr, de)
	})
	if err != nil {
		t.Fatal(err)
	}
	jobs := mailJobs(t, db)
	if len(jobs) != 2 {
		t.Fatalf("%d jobs after the commit, want one per mail: %+v", len(jobs), jobs)
	}
	for i, m := range []notify.Mail{fr, de} {
		j := jobs[i]
		if j.Kind != "mail" || j.Queue != "mail" || j.State != "available" || j.MaxAttempts != persistence.MailMaxAttempts ||
			len(j.Tags) != 1 || j.Tags[0] != m.Kind {
			t.Errorf("job %d: %+v", i, j)
		}
		var args persistence.MailArgs
		if err := json.Unmarshal(j.Args, &args); err != nil || args.Mail() != m {
			t.Errorf("job %d args %s (%v), want %+v", i, j.Args, err, m)
		}
	}
}

func TestOutboxEnqueueRefusesWithoutTransactionOrInvalid(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	uow := persistence.NewUnitOfWork(db, persistence.NetworkStores)
	ok := notify.Mail{Kind: "test_mail", To: "a@example.com", Subject: "Hi", Text: "Body", Language: "en"}

	if err := uow.Stores().Outbox.Enqueue(t.Context(), ok); err == nil || !strings.Contains(err.Error(), "transaction") {
		t.Errorf("Enqueue beside a transaction: %v, want refused", err)
	}
	// All or none: the service went on and committed, yet nothing is queued.
	err := uow.RunInTx(t.Context(), func(ctx context.Context, tx network.Stores) error {
		bad := ok
		bad.To = "not an address"
		if err := tx.Outbox.Enqueue(ctx, ok, bad); err == nil || !strings.Contains(err.Error(), "mail 1") {
			t.Errorf("an invalid mail: %v, want refused", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if jobs := mailJobs(t, db); len(jobs) != 0 {
		t.Fatalf("%d jobs queued", len(jobs))
	}
}
