package persistence

import (
	"strconv"

	"salesplatform/domain"
)

// Batch reads of the graph's loaders: one statement for the lists of many
// parents (the offers of twenty boxes), a page window of each.

// windowSQL wraps inner, a SELECT whose rows carry their parent's id as
// parent_id, their position in the parent's list as rn (from 1) and the
// length of that list as total. It keeps the rows of the page window, and
// each parent's first row, whose total counts the list even when the window
// lies past its end. Arguments: inner's, then those windowArgs returns.
func windowSQL(inner string) string { return windowSQLAt(inner, "?", "?") }

// preparedWindowSQL is windowSQL for a prepared statement whose inner
// query takes n parameters: the window's bounds are $n+1 and $n+2.
func preparedWindowSQL(inner string, n int) string {
	return windowSQLAt(inner, "$"+strconv.Itoa(n+1), "$"+strconv.Itoa(n+2))
}

func windowSQLAt(inner, from, to string) string {
	return `SELECT * FROM (` + inner + `) AS x WHERE (x.rn > ` + from + ` AND x.rn <= ` + to + `) OR x.rn = 1 ORDER BY x.parent_id, x.rn`
}

func windowArgs(page domain.PageRequest) []any {
	return []any{page.Offset(), page.Offset() + page.Size}
}

// windowRow is what windowSQL adds to each row.
type windowRow struct {
	ParentID int64 `bun:"parent_id"`
	Rn       int   `bun:"rn"`
	Total    int   `bun:"total"`
}

// inWindow reports whether the row is in the page window (not only there
// for its parent's count), and records its parent's count.
func (r windowRow) inWindow(page domain.PageRequest, counts map[int64]int) bool {
	counts[r.ParentID] = r.Total
	return r.Rn > page.Offset() && r.Rn <= page.Offset()+page.Size
}

// inIDOrder arranges records in ids order, nil where none has the id: the
// order the domain's batch reads answer in.
func inIDOrder[T any](ids []int64, byID map[int64]*T) []*T {
	out := make([]*T, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out
}
