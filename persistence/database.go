// Package persistence implements the domain's stores on PostgreSQL through
// Bun: connection (db.go), schema migrations (migrate.go and migrations/),
// and one file of stores per domain area.
package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
)

// QueryTimeout bounds every statement, so a stuck query cannot hold a
// request (or a pooled connection) forever.
const QueryTimeout = 5 * time.Second

// UnitOfWork is the domain.UnitOfWork of an area on PostgreSQL: bind
// makes the area's stores on a pool or a transaction.
type UnitOfWork[S any] struct {
	db   bun.IDB
	bind func(bun.IDB) S
}

// NewUnitOfWork returns the unit of work of the area whose stores bind
// makes, on an open pool, or on a transaction: then RunInTx nests a
// savepoint in it and everything commits with it.
func NewUnitOfWork[S any](db bun.IDB, bind func(bun.IDB) S) *UnitOfWork[S] {
	return &UnitOfWork[S]{db: db, bind: bind}
}

// Stores returns stores that run each statement on its own.
func (u *UnitOfWork[S]) Stores() S { return u.bind(u.db) }

// RunInTx runs fn with the stores bound to one transaction; it returns
// fn's error or the commit's.
func (u *UnitOfWork[S]) RunInTx(ctx context.Context, fn func(ctx context.Context, tx S) error) error {
	return u.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return fn(ctx, u.bind(tx))
	})
}

// Database is the account area's unit of work.
type Database = UnitOfWork[account.Stores]

var _ domain.UnitOfWork[account.Stores] = (*Database)(nil)

// NewDatabase returns the account area's unit of work on db.
func NewDatabase(db bun.IDB) *Database { return NewUnitOfWork(db, storesOn) }

func storesOn(db bun.IDB) account.Stores {
	return account.Stores{
		Users:    &UserStore{db: db},
		Partners: &PartnerStore{db: db},
		Tokens:   &TokenStore{db: db},
	}
}

// withTimeout gives one statement its deadline.
func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, QueryTimeout)
}

// lockRow locks the row query selects (FOR UPDATE or FOR NO KEY UPDATE)
// until the transaction ends, in a statement of its own: a read after it
// starts once the lock is granted and sees what the transaction that held
// it wrote (a locking read's joins would keep their snapshot).
// Errors: domain.ErrNotFound when query selects no row.
func lockRow(ctx context.Context, db bun.IDB, what, query string, args ...any) error {
	var locked []int64
	if err := db.NewRaw(query, args...).Scan(ctx, &locked); err != nil {
		return fmt.Errorf("lock %s: %w", what, err)
	}
	if len(locked) == 0 {
		return domain.ErrNotFound
	}
	return nil
}

// uniqueViolation returns the constraint name when err is a unique-key
// violation (SQLSTATE 23505).
func uniqueViolation(err error) (constraint string, ok bool) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return pgErr.ConstraintName, true
	}
	return "", false
}

// invalidField is the domain error for a value the database refused.
func invalidField(field, code, msg string) error {
	return &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.",
		Fields: []domain.FieldError{{Path: []any{field}, Code: code, Message: msg}}}
}

// rowByID reads the row of the model R, whose table alias is alias, with
// that id: the one statement of the stores' reads by id.
// Errors: domain.ErrNotFound when there is none.
func rowByID[R any](ctx context.Context, db bun.IDB, alias string, id int64) (*R, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(R)
	if err := db.NewSelect().Model(row).Where(alias+".id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	return row, nil
}

// updateRow writes row's columns, but the excluded ones, to the row with its
// primary key: the stores' updates of one row; what names the row in
// errors.
// Errors: domain.ErrNotFound when the row is gone.
func updateRow(ctx context.Context, db bun.IDB, row any, what string, excluded ...string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	q := db.NewUpdate().Model(row)
	if len(excluded) > 0 {
		// Without columns, ExcludeColumn would set the primary key too.
		q = q.ExcludeColumn(excluded...)
	}
	res, err := q.WherePK().Exec(ctx)
	if err != nil {
		return fmt.Errorf("update %s: %w", what, err)
	}
	return oneRow(res)
}

// oneRow is ErrNotFound when a write by key touched no row: the row went
// away since it was read.
func oneRow(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return domain.ErrNotFound
	}
	return nil
}
