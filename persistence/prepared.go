package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// Prepared statements. Bun writes every value into the SQL text, and the
// pool uses the simple protocol (Open), so PostgreSQL parses and plans
// each of Bun's statements every time it runs. The batch reads a nested
// GraphQL query makes on every request (a level's offers, its partners)
// instead keep one text with $n parameters, whatever the ids: pgx
// prepares it once per connection (its statement cache) and PostgreSQL
// plans it once, which for those reads was about a third of their time
// (docs/PERFORMANCE.md).

// sqlArgs writes a statement's values: into its text, as Bun does, or,
// when prepared, as the statement's $n parameters, kept in params. A nil
// *sqlArgs writes them into the text.
type sqlArgs struct {
	prepared bool
	params   []any
}

// val is v in the statement.
func (a *sqlArgs) val(v any) any {
	if a == nil || !a.prepared {
		return v
	}
	a.params = append(a.params, v)
	return bun.Safe("$" + strconv.Itoa(len(a.params)))
}

// array is the slice v as a PostgreSQL array (for = ANY(?)).
func (a *sqlArgs) array(v any) any {
	if a == nil || !a.prepared {
		return pgdialect.Array(v)
	}
	return a.val(v)
}

// scanPrepared runs query, a statement with $n parameters, as a prepared
// statement with args on idb (a pool, a connection or a transaction),
// and scans its rows into dest as Bun's Scan does.
func scanPrepared(ctx context.Context, idb bun.IDB, dest any, query string, args ...any) error {
	args = append([]any{pgx.QueryExecModeCacheStatement}, args...)
	var rows *sql.Rows
	var err error
	switch db := idb.(type) {
	case *bun.DB:
		rows, err = db.DB.QueryContext(ctx, query, args...)
	case bun.Tx:
		rows, err = db.Tx.QueryContext(ctx, query, args...)
	case bun.Conn:
		rows, err = db.Conn.QueryContext(ctx, query, args...)
	default:
		return fmt.Errorf("prepared statement on %T", idb)
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	return idb.NewSelect().DB().ScanRows(ctx, rows, dest)
}
