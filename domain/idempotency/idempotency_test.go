package idempotency_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// spendStores are the test service's stores: its key store and the
// scratch table, bound to one pool or transaction.
type spendStores struct {
	Keys idempotency.Store
	db   bun.IDB
}

// spendService writes a row of the scratch table spends per spend, through
// the guard, as a service that moves value does.
type spendService struct {
	uow   domain.UnitOfWork[spendStores]
	guard *idempotency.Guard
	// before, when set, runs in the work's transaction before its write.
	before func(ctx context.Context) error
	runs   atomic.Int32 // works started
}

type SpendInput struct {
	Amount int
}

type Spend struct {
	ID     int64
	Amount int
	At     time.Time
}

// Spend writes a spend of in.Amount. A negative amount is refused on a
// field, zero as a conflict, after the row is written (so the rollback
// is seen).
func (s *spendService) Spend(ctx context.Context, in SpendInput) (*Spend, error) {
	return idempotency.Run(ctx, s.guard, "test.spend", in, func(ctx context.Context, complete idempotency.Complete[*Spend]) (idempotency.Done[*Spend], error) {
		s.runs.Add(1)
		var done idempotency.Done[*Spend]
		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx spendStores) error {
			if s.before != nil {
				if err := s.before(ctx); err != nil {
					return err
				}
			}
			sp := &Spend{Amount: in.Amount}
			if err := tx.db.NewRaw(`INSERT INTO spends (amount) VALUES (?) RETURNING id, at`, in.Amount).Scan(ctx, &sp.ID, &sp.At); err != nil {
				return err
			}
			switch {
			case in.Amount < 0:
				return &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.", ListLengths: map[string]int{"items": 2},
					Fields: []domain.FieldError{{Path: []any{"items", 1, "amount"}, Code: domain.VMinValue, Message: "Ensure this value is greater than 0."}}}
			case in.Amount == 0:
				return &domain.Error{Code: domain.CodeConflict, Message: "Nothing to spend."}
			}
			var err error
			done, err = complete(ctx, tx.Keys, sp)
			return err
		})
		return done, err
	})
}

type fixture struct {
	db  *bun.DB
	svc *spendService
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := dbtest.New(t)
	if _, err := db.ExecContext(t.Context(), `CREATE TABLE spends (id bigserial PRIMARY KEY, amount int NOT NULL,
		at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	uow := persistence.NewUnitOfWork(db, func(idb bun.IDB) spendStores {
		return spendStores{Keys: persistence.NewIdempotencyStore(idb), db: idb}
	})
	return &fixture{db: db, svc: &spendService{uow: uow, guard: idempotency.NewGuard(persistence.NewIdempotencyStore(db))}}
}

func (f *fixture) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *fixture) spends(t *testing.T) int { return f.count(t, `SELECT count(*) FROM spends`) }

func (f *fixture) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := f.db.NewRaw(q, args...).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// caller is a context of a caller authenticated with token (0: none) of
// user.
func caller(user, token int64) context.Context {
	return domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: user}, TokenID: token})
}

// withKey is ctx with key.
func withKey(t *testing.T, ctx context.Context, key string) context.Context {
	t.Helper()
	ctx, err := idempotency.WithKey(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}

func wantMessage(t *testing.T, err error, code domain.Code, msg string) {
	t.Helper()
	if e := dbtest.WantCode(t, err, code); e.Message != msg {
		t.Errorf("message = %q, want %q", e.Message, msg)
	}
}

func TestWithKey(t *testing.T) {
	t.Parallel()
	for _, key := range []string{"a", "!~", strings.Repeat("k", idempotency.MaxKeyLength), "0b8f1c1e-5d52-4a4f-9e55-1f6c1d1c2b3a"} {
		ctx, err := idempotency.WithKey(context.Background(), key)
		if err != nil || idempotency.KeyFrom(ctx) != key {
			t.Errorf("WithKey(%q) = %q, %v", key, idempotency.KeyFrom(ctx), err)
		}
	}
	for _, key := range []string{"", strings.Repeat("k", idempotency.MaxKeyLength+1), "a b", "clé", "a\tb", "a\x7f"} {
		_, err := idempotency.WithKey(context.Background(), key)
		wantMessage(t, err, domain.CodeInvalid, idempotency.MsgBadKey)
	}
	if idempotency.KeyFrom(context.Background()) != "" || idempotency.Replayed(context.Background()) {
		t.Error("a context without a key has one")
	}
}

// Without a key every call runs.
func TestRunWithoutKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := caller(1, 1)
	for range 2 {
		if _, err := f.svc.Spend(ctx, SpendInput{Amount: 5}); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.spends(t); n != 2 || f.svc.runs.Load() != 2 {
		t.Errorf("%d spends in %d runs, want 2", n, f.svc.runs.Load())
	}
	if n := f.count(t, `SELECT count(*) FROM idempotency_keys`); n != 0 {
		t.Errorf("%d keys stored without a key", n)
	}
}

// A repeat with the same key and input answers the first result, decoded
// from what was stored, without running; the work runs without the key,
// under the lease's deadline.
func TestRunReplays(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.svc.before = func(ctx context.Context) error {
		if idempotency.KeyFrom(ctx) != "" {
			t.Error("the work sees the key: a guarded call inside it would be guarded again")
		}
		if d, ok := ctx.Deadline(); !ok || time.Until(d) > idempotency.DefaultLease {
			t.Errorf("the work's deadline is %v, want within the lease", d)
		}
		return nil
	}
	first := withKey(t, caller(1, 1), "key-1")
	got, err := f.svc.Spend(first, SpendInput{Amount: 5})
	if err != nil {
		t.Fatal(err)
	}
	if idempotency.Replayed(first) {
		t.Error("the first answer says it was replayed")
	}
	if n := f.count(t, `SELECT count(*) FROM idempotency_keys WHERE state = 'done' AND key = 'key-1' AND scope = 'token:1'`); n != 1 {
		t.Errorf("%d done keys, want 1", n)
	}
	for range 2 {
		repeat := withKey(t, caller(1, 1), "key-1")
		again, err := f.svc.Spend(repeat, SpendInput{Amount: 5})
		if err != nil {
			t.Fatal(err)
		}
		if again.ID != got.ID || again.Amount != 5 || !again.At.Equal(got.At) {
			t.Errorf("replayed %+v, want %+v", again, got)
		}
		if !idempotency.Replayed(repeat) {
			t.Error("a replayed answer does not say so")
		}
	}
	if n := f.spends(t); n != 1 || f.svc.runs.Load() != 1 {
		t.Errorf("%d spends in %d runs, want 1", n, f.svc.runs.Load())
	}
}

// The same key with another input, or for another operation, is refused.
func TestRunOtherInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if _, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5}); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 6})
	wantMessage(t, err, domain.CodeUnprocessable, idempotency.MsgKeyReused)
	_, err = idempotency.Run(withKey(t, caller(1, 1), "k"), f.svc.guard, "test.other", SpendInput{Amount: 5},
		func(context.Context, idempotency.Complete[*Spend]) (idempotency.Done[*Spend], error) {
			t.Error("another operation's work ran with a used key")
			return idempotency.Done[*Spend]{}, nil
		})
	wantMessage(t, err, domain.CodeUnprocessable, idempotency.MsgKeyReused)
	if n := f.spends(t); n != 1 {
		t.Errorf("%d spends, want 1", n)
	}
}

// firstOnly is fn for the first call, nothing for the others.
func firstOnly(fn func(ctx context.Context) error) func(ctx context.Context) error {
	var called atomic.Bool
	return func(ctx context.Context) error {
		if called.CompareAndSwap(false, true) {
			return fn(ctx)
		}
		return nil
	}
}

// hold makes the first work wait, inside its transaction, until release
// is closed; entered is closed when it waits.
func hold(svc *spendService) (entered, release chan struct{}) {
	entered, release = make(chan struct{}), make(chan struct{})
	svc.before = firstOnly(func(context.Context) error {
		close(entered)
		<-release
		return nil
	})
	return entered, release
}

// A repeat while the first runs is refused, not run; once the first is
// done it replays.
func TestRunInProgress(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	entered, release := hold(f.svc)
	type answer struct {
		s   *Spend
		err error
	}
	firstDone := make(chan answer)
	go func() {
		s, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
		firstDone <- answer{s, err}
	}()
	<-entered
	for range 2 {
		_, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
		wantMessage(t, err, domain.CodeConflict, idempotency.MsgInProgress)
	}
	close(release)
	first := <-firstDone
	if first.err != nil {
		t.Fatal(first.err)
	}
	again, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
	if err != nil || again.ID != first.s.ID {
		t.Errorf("after the first: %+v, %v; want its spend %d", again, err, first.s.ID)
	}
	if n := f.spends(t); n != 1 || f.svc.runs.Load() != 1 {
		t.Errorf("%d spends in %d runs, want 1", n, f.svc.runs.Load())
	}
}

// Of many repeats at once, one runs; the others are refused or replay it.
func TestRunConcurrentRepeats(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	got := dbtest.Concurrently(20, func(int) error {
		_, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
		return err
	})
	if got[""]+got[domain.CodeConflict] != 20 || got[""] == 0 {
		t.Errorf("answers %v, want successes (one run, replays) and conflicts only", got)
	}
	if n := f.spends(t); n != 1 || f.svc.runs.Load() != 1 {
		t.Errorf("%d spends in %d runs, want 1", n, f.svc.runs.Load())
	}
}

// A refusal is stored and replayed as the same error; its write was
// rolled back and is not run again.
func TestRunReplaysRefusal(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i, amount := range []int{-1, 0} {
		key := []string{"invalid", "conflict"}[i]
		ctx := withKey(t, caller(1, 1), key)
		_, first := f.svc.Spend(ctx, SpendInput{Amount: amount})
		if !domain.IsCode(first, domain.CodeInvalid) && !domain.IsCode(first, domain.CodeConflict) {
			t.Fatalf("first answer %v, want a refusal", first)
		}
		repeat := withKey(t, caller(1, 1), key)
		_, again := f.svc.Spend(repeat, SpendInput{Amount: amount})
		if !reflect.DeepEqual(again, first) {
			t.Errorf("replayed %#v, want %#v", again, first)
		}
		if !idempotency.Replayed(repeat) || idempotency.Replayed(ctx) {
			t.Error("Replayed does not tell the replay from the first")
		}
	}
	if n := f.spends(t); n != 0 || f.svc.runs.Load() != 2 {
		t.Errorf("%d spends in %d runs, want 0 in 2", n, f.svc.runs.Load())
	}
}

// An unexpected error releases the key: the retry runs.
func TestRunInternalErrorReleases(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	boom := errors.New("boom")
	f.svc.before = firstOnly(func(context.Context) error { return boom })
	_, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the work's", err)
	}
	if n := f.count(t, `SELECT count(*) FROM idempotency_keys`); n != 0 {
		t.Errorf("%d keys after an internal error, want it released", n)
	}
	ctx := withKey(t, caller(1, 1), "k")
	if _, err := f.svc.Spend(ctx, SpendInput{Amount: 5}); err != nil || idempotency.Replayed(ctx) {
		t.Fatalf("retry: %v, replayed %v; want it run", err, idempotency.Replayed(ctx))
	}
	if n := f.spends(t); n != 1 || f.svc.runs.Load() != 2 {
		t.Errorf("%d spends in %d runs, want 1 in 2", n, f.svc.runs.Load())
	}
}

// A work that dies (a panic here, a crash alike) leaves its key reserved,
// with nothing written: repeats are refused until the lease runs out, then
// one runs.
func TestRunCrashHoldsTheLease(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.svc.before = firstOnly(func(context.Context) error { panic("crash") })
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the work did not panic")
			}
		}()
		_, _ = f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
	}()
	if n := f.count(t, `SELECT count(*) FROM idempotency_keys WHERE state = 'running' AND lease_until > now()`); n != 1 {
		t.Fatalf("%d running keys after the crash, want 1", n)
	}
	_, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
	wantMessage(t, err, domain.CodeConflict, idempotency.MsgInProgress)

	f.exec(t, `UPDATE idempotency_keys SET lease_until = now() - interval '1 second'`)
	// Another input is still refused: the key is the first request's.
	_, err = f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 6})
	wantMessage(t, err, domain.CodeUnprocessable, idempotency.MsgKeyReused)
	if _, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5}); err != nil {
		t.Fatal(err)
	}
	if n := f.spends(t); n != 1 {
		t.Errorf("%d spends, want 1", n)
	}
}

// A work still running when its lease runs out is taken over, and can then
// no longer commit: one write, the take-over's.
func TestRunTakeOverFencesTheFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	entered, release := hold(f.svc)
	firstErr := make(chan error)
	go func() {
		_, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
		firstErr <- err
	}()
	<-entered
	f.exec(t, `UPDATE idempotency_keys SET lease_until = now() - interval '1 second'`)
	second, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
	if err != nil {
		t.Fatal(err)
	}
	close(release)
	wantMessage(t, <-firstErr, domain.CodeConflict, idempotency.MsgInProgress)
	if n := f.spends(t); n != 1 {
		t.Errorf("%d spends, want 1: the first committed after it was taken over", n)
	}
	again, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5})
	if err != nil || again.ID != second.ID {
		t.Errorf("replay %+v, %v; want the take-over's spend %d", again, err, second.ID)
	}
}

// Keys are the caller's token's: another token (of the same user), or a
// caller without a token (scoped by its user), has keys of its own.
func TestRunScopes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ids := map[int64]bool{}
	for _, ctx := range []context.Context{caller(1, 1), caller(1, 2), caller(1, 0), caller(2, 0)} {
		for i := range 2 {
			keyed := withKey(t, ctx, "same")
			s, err := f.svc.Spend(keyed, SpendInput{Amount: 5})
			if err != nil {
				t.Fatal(err)
			}
			if idempotency.Replayed(keyed) != (i == 1) {
				t.Errorf("call %d of a scope: replayed %v", i, idempotency.Replayed(keyed))
			}
			ids[s.ID] = true
		}
	}
	if n := f.spends(t); n != 4 || len(ids) != 4 {
		t.Errorf("%d spends, %d answered; want one per scope (4)", n, len(ids))
	}
	_, err := f.svc.Spend(withKey(t, context.Background(), "same"), SpendInput{Amount: 5})
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
}

// A key older than the TTL is new again, whatever its input; reservations
// delete expired keys.
func TestRunExpiredKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if _, err := f.svc.Spend(withKey(t, caller(1, 1), "k"), SpendInput{Amount: 5}); err != nil {
		t.Fatal(err)
	}
	f.exec(t, `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`)
	ctx := withKey(t, caller(1, 1), "k")
	if _, err := f.svc.Spend(ctx, SpendInput{Amount: 6}); err != nil || idempotency.Replayed(ctx) {
		t.Fatalf("after 25 hours: %v, replayed %v; want it run", err, idempotency.Replayed(ctx))
	}
	if n := f.spends(t); n != 2 {
		t.Errorf("%d spends, want 2", n)
	}

	for _, key := range []string{"old-1", "old-2", "old-3"} {
		f.exec(t, `INSERT INTO idempotency_keys (scope, key, fingerprint, state, outcome, lease_until, created_at)
			VALUES ('token:9', ?, '\x00', 'done', '{}', now(), now() - interval '25 hours')`, key)
	}
	if _, err := f.svc.Spend(withKey(t, caller(1, 1), "new"), SpendInput{Amount: 5}); err != nil {
		t.Fatal(err)
	}
	if n := f.count(t, `SELECT count(*) FROM idempotency_keys WHERE scope = 'token:9'`); n != 1 {
		t.Errorf("%d expired keys after a reservation, want 1 (it deletes 2)", n)
	}
	if n := f.count(t, `SELECT count(*) FROM idempotency_keys WHERE scope = 'token:1'`); n != 2 {
		t.Errorf("%d live keys, want 2", n)
	}
}
