package persistence

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"salesplatform/domain/idempotency"
)

// IdempotencyStore is the idempotency.Store on PostgreSQL (table
// idempotency_keys). Its statements are prepared (prepared.go): every
// guarded write runs a reservation and a completion.
type IdempotencyStore struct{ db bun.IDB }

var _ idempotency.Store = (*IdempotencyStore)(nil)

// NewIdempotencyStore returns the store on db: the pool for the guard, a
// transaction in an area's Stores for the completion.
func NewIdempotencyStore(db bun.IDB) *IdempotencyStore { return &IdempotencyStore{db: db} }

// purgePerReserve is how many expired keys each reservation deletes: more
// than the one it may add, so the table holds about a TTL's keys without a
// job of its own.
const purgePerReserve = 2

// Reserve implements idempotency.Store: one statement inserts the key, or
// takes it over when expired or its lease ran out for the same request
// (the condition is evaluated on the row locked, so two repeats cannot
// both take one key), and deletes a few expired keys of anyone (SKIP
// LOCKED: never waiting for another reservation). When it did not take
// the key, a second statement reads it.
func (s *IdempotencyStore) Reserve(ctx context.Context, r idempotency.Reservation) (int64, *idempotency.Record, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var taken []struct {
		Attempt int64 `bun:"attempt"`
	}
	err := scanPrepared(ctx, s.db, &taken, `WITH purged AS (
			DELETE FROM idempotency_keys WHERE (scope, key) IN (
				SELECT scope, key FROM idempotency_keys
				WHERE created_at < now() - $5 * interval '1 microsecond' AND (scope, key) <> ($1::text, $2::text)
				ORDER BY created_at LIMIT `+fmt.Sprint(purgePerReserve)+` FOR UPDATE SKIP LOCKED))
		INSERT INTO idempotency_keys AS k (scope, key, fingerprint, state, lease_until)
		VALUES ($1, $2, $3, 'running', now() + $4 * interval '1 microsecond')
		ON CONFLICT (scope, key) DO UPDATE
		SET fingerprint = excluded.fingerprint, state = 'running', outcome = NULL, attempt = excluded.attempt,
			lease_until = excluded.lease_until, created_at = now()
		WHERE k.created_at < now() - $5 * interval '1 microsecond'
			OR (k.state = 'running' AND k.lease_until < now() AND k.fingerprint = excluded.fingerprint)
		RETURNING k.attempt`,
		r.Scope, r.Key, r.Fingerprint, r.Lease.Microseconds(), r.TTL.Microseconds())
	if err != nil {
		return 0, nil, fmt.Errorf("reserve idempotency key: %w", err)
	}
	if len(taken) == 1 {
		return taken[0].Attempt, nil, nil
	}
	var found []struct {
		Fingerprint []byte `bun:"fingerprint"`
		Done        bool   `bun:"done"`
		Outcome     []byte `bun:"outcome"`
	}
	err = scanPrepared(ctx, s.db, &found, `SELECT fingerprint, state = 'done' AS done, outcome FROM idempotency_keys
		WHERE scope = $1 AND key = $2 AND created_at >= now() - $3 * interval '1 microsecond'`,
		r.Scope, r.Key, r.TTL.Microseconds())
	if err != nil {
		return 0, nil, fmt.Errorf("select idempotency key: %w", err)
	}
	if len(found) == 0 {
		return 0, nil, nil
	}
	f := found[0]
	return 0, &idempotency.Record{Fingerprint: f.Fingerprint, Done: f.Done, Outcome: f.Outcome}, nil
}

// Complete implements idempotency.Store.
func (s *IdempotencyStore) Complete(ctx context.Context, scope, key string, attempt int64, outcome []byte) (bool, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	var rows []struct {
		Attempt int64 `bun:"attempt"`
	}
	err := scanPrepared(ctx, s.db, &rows, `UPDATE idempotency_keys SET state = 'done', outcome = $4
		WHERE scope = $1 AND key = $2 AND attempt = $3 AND state = 'running' RETURNING attempt`,
		scope, key, attempt, outcome)
	if err != nil {
		return false, fmt.Errorf("complete idempotency key: %w", err)
	}
	return len(rows) == 1, nil
}

// Release implements idempotency.Store.
func (s *IdempotencyStore) Release(ctx context.Context, scope, key string, attempt int64) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.db.NewRaw(`DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND attempt = ? AND state = 'running'`,
		scope, key, attempt).Exec(ctx)
	if err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}
