package persistence

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"salesplatform/domain"
)

// Pages of the lists that read keyset pages (domain.Keyset) as well as
// numbered ones: the administration's vouchers, giftcards and media, and
// the catalogue's boxes.
//
// A keyset page starts past an item of the list, its anchor, rather than
// at an offset, so that rows added or removed ahead of it do not shift it.
// "Past the anchor" is the list's order written as a condition on its sort
// keys: for keys k1 ASC, k2 DESC, id ASC, the rows after the anchor a are
//
//	k1 > a.k1 OR (k1 = a.k1 AND k2 < a.k2) OR (k1 = a.k1 AND k2 = a.k2 AND id > a.id)
//
// (every comparison flipped for the rows before it), with k1 >= a.k1 in
// front so that an index on k1 can start there. A CTE reads the anchor's
// keys from the list itself, with the list's own FROM and WHERE: a cursor
// of a row the list does not hold (deleted, filtered out, another
// tenant's) reads no keys, hence no rows and nothing about that row; count
// reports it as domain.ErrCursorGone.

// sortKey is one key of a list's order: an SQL expression over the list's
// FROM that is never NULL (timeNullsLast makes a nullable column so), and
// its direction. A list's keys include its id, so that the order is total.
type sortKey struct {
	expr string
	desc bool
}

// timeNullsLast is a nullable timestamp column as a sort key: NULL reads as
// 'infinity', which sorts where PostgreSQL puts NULLs by default (last
// ascending, first descending) and, unlike NULL, compares.
func timeNullsLast(col string) string { return "COALESCE(" + col + ", 'infinity')" }

// list is the rows of a list: its FROM (with its joins), its WHERE (never
// empty: "TRUE" for all) with the arguments, and the column of its items'
// ids, which keyset cursors name.
type list struct {
	from, where string
	args        []any
	id          string
	// vals writes the values page adds (nil: into the text); args were
	// written by it too.
	vals *sqlArgs
}

// count returns how many rows the list holds and, for a keyset page,
// checks that its anchors are among them, with the list's filter. An
// Uncounted keyset page without anchors reads nothing and counts 0.
// Errors: domain.ErrCursorGone.
func (l list) count(ctx context.Context, db bun.IDB, req domain.PageRequest) (int, error) {
	var k domain.Keyset
	if req.Keyset != nil {
		k = *req.Keyset
	}
	if k.Uncounted && k.After == 0 && k.Before == 0 {
		return 0, nil
	}
	var n, after, before int
	if err := db.NewRaw(`SELECT count(*), count(*) FILTER (WHERE `+l.id+` = ?), count(*) FILTER (WHERE `+l.id+` = ?)
		FROM `+l.from+` WHERE (`+l.where+`)`, append([]any{k.After, k.Before}, l.args...)...).Scan(ctx, &n, &after, &before); err != nil {
		return 0, fmt.Errorf("count the list: %w", err)
	}
	switch {
	case k.After != 0 && after == 0:
		return 0, domain.ErrCursorGone("after")
	case k.Before != 0 && before == 0:
		return 0, domain.ErrCursorGone("before")
	}
	return n, nil
}

// pageSQL is the SQL of one page of a list: the anchors' CTEs, the WHERE
// (the list's, and past the anchors), the ORDER BY and LIMIT/OFFSET.
type pageSQL struct {
	ctes          []cte
	where         string
	args          []any
	order         string
	backward      bool // the order reversed (orderList): a keyset page read backward
	limit, offset int
}

// cte is one WITH query of a statement.
type cte struct {
	name, query string
	args        []any
}

// page is the SQL of the page req of the list in the order of keys: a
// numbered page, or Size+1 rows of a keyset page in its reading direction.
func (l list) page(keys []sortKey, req domain.PageRequest) pageSQL {
	k := req.Keyset
	if k == nil {
		return pageSQL{where: "(" + l.where + ")", args: l.args, order: orderList(keys, false), limit: req.Size, offset: req.Offset()}
	}
	// The list's condition in parentheses: an OR in it must not bind the
	// anchor's condition appended below.
	p := pageSQL{where: "(" + l.where + ")", args: l.args, order: orderList(keys, k.Backward), backward: k.Backward, limit: req.Size + 1}
	for _, a := range []struct {
		name   string
		id     int64
		before bool
	}{{"after_anchor", k.After, false}, {"before_anchor", k.Before, true}} {
		if a.id == 0 {
			continue
		}
		cols := make([]string, len(keys))
		for i, key := range keys {
			cols[i] = fmt.Sprintf("%s AS k%d", key.expr, i)
		}
		p.ctes = append(p.ctes, cte{name: a.name, args: append(append([]any{}, l.args...), l.vals.val(a.id)),
			query: "SELECT " + strings.Join(cols, ", ") + " FROM " + l.from + " WHERE (" + l.where + ") AND " + l.id + " = ?"})
		p.where += " AND " + pastAnchor(keys, a.name, a.before)
	}
	return p
}

// orderList is the ORDER BY list of keys, reversed when backward.
func orderList(keys []sortKey, backward bool) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.expr
		if k.desc != backward {
			parts[i] += " DESC"
		}
	}
	return strings.Join(parts, ", ")
}

// pastAnchor is the condition that keeps the rows after the anchor the CTE
// anchor reads (before it when before), in the order of keys.
func pastAnchor(keys []sortKey, anchor string, before bool) string {
	ref := func(i int) string { return fmt.Sprintf("(SELECT k%d FROM %s)", i, anchor) }
	op := func(i int) string {
		if keys[i].desc != before {
			return "<"
		}
		return ">"
	}
	var or []string
	for i := range keys {
		and := make([]string, 0, i+1)
		for j := range i {
			and = append(and, keys[j].expr+" = "+ref(j))
		}
		or = append(or, strings.Join(append(and, keys[i].expr+" "+op(i)+" "+ref(i)), " AND "))
	}
	cond := "(" + strings.Join(or, ") OR (") + ")"
	if len(keys) > 1 {
		cond = keys[0].expr + " " + op(0) + "= " + ref(0) + " AND (" + cond + ")"
	}
	return "(" + cond + ")"
}

// raw is the statement of the page whose SELECT and FROM (with its joins)
// are selectFrom, with its arguments.
func (p pageSQL) raw(selectFrom string) (string, []any) {
	var b strings.Builder
	var args []any
	for i, c := range p.ctes {
		if i == 0 {
			b.WriteString("WITH ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(c.name + " AS (" + c.query + ") ")
		args = append(args, c.args...)
	}
	b.WriteString(selectFrom + " WHERE " + p.where + " ORDER BY " + p.order + " LIMIT ? OFFSET ?")
	return b.String(), append(append(args, p.args...), p.limit, p.offset)
}

// apply reads the page with q, a SELECT of the list's FROM without WHERE.
func (p pageSQL) apply(db bun.IDB, q *bun.SelectQuery) *bun.SelectQuery {
	return p.filter(db, q).Limit(p.limit).Offset(p.offset)
}

// prepared is apply's statement for a list whose values vals writes as
// parameters, its LIMIT and OFFSET too: one text whatever the page.
func (p pageSQL) prepared(db bun.IDB, q *bun.SelectQuery, vals *sqlArgs) string {
	return p.filter(db, q).String() + fmt.Sprintf(" LIMIT %s OFFSET %s", vals.val(p.limit), vals.val(p.offset))
}

// filter is q with the page's CTEs, WHERE and ORDER BY.
func (p pageSQL) filter(db bun.IDB, q *bun.SelectQuery) *bun.SelectQuery {
	for _, c := range p.ctes {
		q = q.With(c.name, db.NewRaw(c.query, c.args...))
	}
	return q.Where(p.where, p.args...).OrderExpr(p.order)
}
