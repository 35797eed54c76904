// Package idempotency makes the operations that create or move value (a
// network giftcard's use, the payment hub's payments) safe to retry. The
// client names an attempt with a key (REST: the X-Idempotency-Key header;
// GraphQL: the mutation's idempotencyKey argument); the transport puts it
// on the context (WithKey) and the service runs its work through Run, which
// answers a repeat of the request with the first answer instead of running
// it again:
//
//   - the same key and the same input replays the first outcome, success
//     or refusal (Replayed reports it; REST says Idempotent-Replayed: true);
//   - a repeat while the first still runs is CodeConflict (MsgInProgress);
//   - the same key with another input is CodeUnprocessable (MsgKeyReused).
//
// Keys are scoped to the caller's API token (to its user for a caller
// without one) and kept Guard.TTL (24 hours).
//
// A crash cannot spend twice: the key is reserved in its own committed
// statement before the work, and the work stores its result in the very
// transaction of its business write (Complete), so the key is done exactly
// when the write is committed. A reservation that never completed (its
// process died, or its transaction rolled back) holds the key for its
// lease (Guard.Lease); a repeat after the lease takes the key over, and the
// first attempt, if it is still alive, can then no longer complete it, so
// its transaction cannot commit.
//
// A service method uses it as:
//
//	return idempotency.Run(ctx, s.keys, "network.use", in, func(ctx context.Context, complete idempotency.Complete[*Usage]) (idempotency.Done[*Usage], error) {
//		var done idempotency.Done[*Usage]
//		err := s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
//			... the checks and the write, through tx ...
//			done, err = complete(ctx, tx.Keys, usage)
//			return err
//		})
//		return done, err
//	})
//
// The service authorises the caller (and may check the input alone)
// before Run, so a refused caller does not use up a key.
package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"salesplatform/domain"
)

// Key limits and how long keys live.
const (
	MaxKeyLength = 255
	// DefaultTTL is how long a key is kept: a repeat within it replays,
	// after it the key is new again.
	DefaultTTL = 24 * time.Hour
	// DefaultLease is how long a reservation holds its key before a
	// repeat may take it over: longer than any guarded work takes (the
	// work runs under this deadline).
	DefaultLease = 60 * time.Second
)

// Messages of the refusals.
const (
	MsgBadKey     = "An idempotency key is 1 to 255 printable ASCII characters, without spaces."
	MsgInProgress = "A request with this idempotency key is still being processed."
	MsgKeyReused  = "This idempotency key was already used for another request."
)

type ctxKey struct{}

// holder is the key of one request and whether its answer was replayed:
// the transport keeps the context it made and reads the flag after the
// service returned.
type holder struct {
	key      string
	replayed atomic.Bool
}

// WithKey returns ctx carrying the request's idempotency key.
// Errors: CodeInvalid (MsgBadKey) unless key is 1 to MaxKeyLength
// characters between '!' and '~' (printable ASCII without spaces, which a
// header would trim and an argument would not).
func WithKey(ctx context.Context, key string) (context.Context, error) {
	if !validKey(key) {
		return ctx, &domain.Error{Code: domain.CodeInvalid, Message: MsgBadKey}
	}
	return context.WithValue(ctx, ctxKey{}, &holder{key: key}), nil
}

func validKey(key string) bool {
	if len(key) == 0 || len(key) > MaxKeyLength {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '!' || key[i] > '~' {
			return false
		}
	}
	return true
}

// Keyed reports whether ctx carries an idempotency key (WithKey) that
// Run has not yet taken: a write without one has no outcome to record.
func Keyed(ctx context.Context) bool {
	h, _ := ctx.Value(ctxKey{}).(*holder)
	return h != nil
}

// Replayed reports whether the guarded operation called with ctx (a
// context from WithKey, or one derived from it) answered a stored outcome
// rather than running.
func Replayed(ctx context.Context) bool {
	h, _ := ctx.Value(ctxKey{}).(*holder)
	return h != nil && h.replayed.Load()
}

// Reservation is a key of a scope taken for one request.
type Reservation struct {
	Scope       string
	Key         string
	Fingerprint []byte // of the operation and its input
	TTL         time.Duration
	Lease       time.Duration
}

// Record is a key as stored.
type Record struct {
	Fingerprint []byte
	Done        bool   // its outcome is stored
	Outcome     []byte // when Done
}

// Store keeps the keys. Reserve and Release run on their own, committed at
// once; Complete runs on the store bound to the work's transaction.
type Store interface {
	// Reserve takes the key for r's request, in one statement committed
	// at once, when it is absent, older than r.TTL, or reserved for the
	// same fingerprint with a lease that has run out; the key is then
	// running for r.Lease and attempt, never 0, names this reservation.
	// Otherwise attempt is 0 and found is the key as it is, nil when it
	// went away meanwhile.
	Reserve(ctx context.Context, r Reservation) (attempt int64, found *Record, err error)
	// Complete stores outcome as the key's and marks it done, if attempt
	// still holds it (running, not taken over); ok reports whether it did.
	Complete(ctx context.Context, scope, key string, attempt int64, outcome []byte) (ok bool, err error)
	// Release deletes the key if attempt still holds it, running.
	Release(ctx context.Context, scope, key string, attempt int64) error
}

// Guard runs guarded work on a Store: one per process, shared by the
// services that create or move value.
type Guard struct {
	store Store // on the pool: reservations and what runs beside the work
	TTL   time.Duration
	Lease time.Duration
}

// NewGuard returns a guard keeping keys in store (on the pool, not a
// transaction) for DefaultTTL, with leases of DefaultLease.
func NewGuard(store Store) *Guard {
	return &Guard{store: store, TTL: DefaultTTL, Lease: DefaultLease}
}

// Done is a guarded work's result once its key's outcome is recorded: only
// a Complete makes one, so a work cannot return a result it forgot to
// record.
type Done[T any] struct {
	value T
	ok    bool
}

// Complete records result as the outcome of the request's key through tx,
// the key store bound to the transaction of the work's write, so that it
// commits with the write or not at all; without a key it only wraps
// result. It is the last statement of that transaction.
// Errors: CodeConflict (MsgInProgress) when the reservation was taken over
// (the work outlived its lease): the work's transaction must roll back.
type Complete[T any] func(ctx context.Context, tx Store, result T) (Done[T], error)

// errTakenOver is the error of a Complete whose reservation was taken over.
var errTakenOver = &domain.Error{Code: domain.CodeConflict, Message: MsgInProgress}

// Run runs work, the write of the operation op (a name unique to the
// operation: "network.use") with input (its domain input), once per
// idempotency key of the context:
//
//   - without a key, work runs;
//   - the key is reserved first (Store.Reserve), and the work runs under a
//     deadline of the lease, with a context without the key (a guarded
//     call inside it runs as without one);
//   - a success is stored by the work's Complete, in its transaction;
//   - a refusal (a *domain.Error but CodeUnauthenticated, CodeThrottled,
//     CodeUnavailable, or one with a RetryAfter) is stored after the
//     work's transaction rolled back and answered alike to every repeat;
//   - any other error releases the key: a retry runs again;
//   - a panic leaves the key reserved until its lease runs out.
//
// A repeat's fingerprint is a hash of op and the JSON of input, so a REST
// route and its GraphQL twin that decode to the same input replay each
// other. A stored success is T's JSON (encoding/json) and is replayed
// decoded: T must round-trip through encoding/json (exported fields, or
// its own MarshalJSON and UnmarshalJSON).
// Errors: those of work; with a key, those of domain.CallerFrom,
// CodeConflict (MsgInProgress) while another request with the key runs,
// CodeUnprocessable (MsgKeyReused) when the key was used with another op
// or input, a stored refusal.
func Run[T any](ctx context.Context, g *Guard, op string, input any, work func(ctx context.Context, complete Complete[T]) (Done[T], error)) (T, error) {
	var zero T
	h, _ := ctx.Value(ctxKey{}).(*holder)
	if h == nil {
		d, err := work(ctx, wrap[T])
		return d.value, err
	}
	c, err := domain.CallerFrom(ctx)
	if err != nil {
		return zero, err
	}
	in, err := json.Marshal(input)
	if err != nil {
		return zero, fmt.Errorf("idempotency: input of %s: %w", op, err)
	}
	sum := sha256.Sum256(append([]byte(op+"\x00"), in...))
	r := Reservation{Scope: scopeOf(c), Key: h.key, Fingerprint: sum[:], TTL: g.TTL, Lease: g.Lease}
	attempt, found, err := g.reserve(ctx, r)
	if err != nil {
		return zero, err
	}
	if found != nil {
		h.replayed.Store(true)
		return replay[T](found.Outcome)
	}

	wctx, cancel := context.WithTimeout(context.WithValue(ctx, ctxKey{}, (*holder)(nil)), g.Lease)
	defer cancel()
	d, err := work(wctx, func(ctx context.Context, tx Store, result T) (Done[T], error) {
		b, err := json.Marshal(outcome{Result: result})
		if err != nil {
			return Done[T]{}, fmt.Errorf("idempotency: result of %s: %w", op, err)
		}
		ok, err := tx.Complete(ctx, r.Scope, r.Key, attempt, b)
		switch {
		case err != nil:
			return Done[T]{}, err
		case !ok:
			return Done[T]{}, errTakenOver
		}
		return Done[T]{value: result, ok: true}, nil
	})
	// What runs beside the work still runs when the client went away.
	bg := context.WithoutCancel(ctx)
	switch {
	case err == nil && d.ok:
		return d.value, nil
	case err == nil:
		// A zero Done: nothing says whether the work wrote; the key stays
		// reserved until its lease runs out.
		return zero, fmt.Errorf("idempotency: %s returned a result it did not complete", op)
	case errors.Is(err, errTakenOver):
		return zero, err
	}
	if stored := refusal(err); stored != nil {
		// The work's transaction rolled back: the refusal is stored in
		// its own statement. If that fails the key stays reserved until
		// its lease runs out, and a repeat then runs again: nothing was
		// written.
		if b, merr := json.Marshal(outcome{Error: stored}); merr == nil {
			_, _ = g.store.Complete(bg, r.Scope, r.Key, attempt, b)
		}
		return zero, err
	}
	if rerr := g.store.Release(bg, r.Scope, r.Key, attempt); rerr != nil {
		return zero, errors.Join(err, fmt.Errorf("idempotency: release: %w", rerr))
	}
	return zero, err
}

// wrap is the Complete of a work run without a key.
func wrap[T any](_ context.Context, _ Store, result T) (Done[T], error) {
	return Done[T]{value: result, ok: true}, nil
}

// reserveTries bounds the reservations of one request: a key found gone
// between Reserve's statements is reserved again.
const reserveTries = 3

// reserve takes the key for r: attempt names the reservation; or found is
// the key's stored outcome to replay.
func (g *Guard) reserve(ctx context.Context, r Reservation) (attempt int64, found *Record, err error) {
	for range reserveTries {
		attempt, found, err := g.store.Reserve(ctx, r)
		switch {
		case err != nil:
			return 0, nil, err
		case attempt != 0:
			return attempt, nil, nil
		case found == nil:
			continue
		case !bytes.Equal(found.Fingerprint, r.Fingerprint):
			return 0, nil, &domain.Error{Code: domain.CodeUnprocessable, Message: MsgKeyReused}
		case !found.Done:
			return 0, nil, &domain.Error{Code: domain.CodeConflict, Message: MsgInProgress}
		}
		return 0, found, nil
	}
	return 0, nil, &domain.Error{Code: domain.CodeConflict, Message: MsgInProgress}
}

// scopeOf is the scope of the caller's keys: its token, or its user when
// it came without one.
func scopeOf(c *domain.Caller) string {
	if c.TokenID != 0 {
		return "token:" + strconv.FormatInt(c.TokenID, 10)
	}
	return "user:" + strconv.FormatInt(c.User.ID, 10)
}
