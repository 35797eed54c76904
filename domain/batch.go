package domain

import "context"

// Batch reads. The graph asks for the records of many parents at once (the
// offers of twenty boxes, the partners of twenty offers) through per-request
// loaders; the services' batch methods answer each such batch with a fixed
// number of statements, whatever its size, and give results in the order of
// the keys asked for. Tenancy stays here: every batch method scopes by
// CatalogPartner like its one-record twin, and a key outside the scope gets
// nothing (nil, or an empty page), never another partner's record.

// InKeyOrder returns, for each id of ids, the record whose id it is, or nil.
func InKeyOrder[T any](ids []int64, records []*T, idOf func(*T) int64) []*T {
	byID := make(map[int64]*T, len(records))
	for _, r := range records {
		byID[idOf(r)] = r
	}
	out := make([]*T, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out
}

// VisibleBatch is an administration batch read: it authorizes op, reads
// the records of ids with find (in ids order, nil for unknown ids) and
// blanks those of partners the caller does not see, so that they read as
// unknown too.
func VisibleBatch[T any](ctx context.Context, op AdminOp, ids []int64,
	find func(context.Context, []int64) ([]*T, error), ownerOf func(*T) int64) ([]*T, error) {
	c, err := Authorize(ctx, op)
	if err != nil {
		return nil, err
	}
	records, err := find(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i, r := range records {
		if r != nil && !c.Sees(ownerOf(r)) {
			records[i] = nil
		}
	}
	return records, nil
}

// PagesByParent arranges the rows of several parents' lists into one page
// per parent, in parentIDs order. rows are the items of each parent's window
// req, in list order; counts gives the length of each parent's whole list
// (absent: empty). A window past the end of a list is an empty page, not an
// error: a batch serves many parents at once.
func PagesByParent[T any](parentIDs []int64, req PageRequest, rows []T, parentOf func(T) int64, counts map[int64]int) []*Page[T] {
	byParent := make(map[int64][]T, len(parentIDs))
	for _, r := range rows {
		id := parentOf(r)
		byParent[id] = append(byParent[id], r)
	}
	out := make([]*Page[T], len(parentIDs))
	for i, id := range parentIDs {
		items := byParent[id]
		if items == nil {
			items = []T{}
		}
		out[i] = &Page[T]{Items: items, Count: counts[id], Request: req}
	}
	return out
}

// VisiblePages makes the pages of a batch of parents' lists: parent i's
// items and count when the caller sees it (parents[i] != nil, as
// visibleBatch leaves them), an empty page otherwise.
func VisiblePages[P, T any](parents []*P, items [][]T, counts []int, req PageRequest) []*Page[T] {
	out := make([]*Page[T], len(parents))
	for i, p := range parents {
		out[i] = &Page[T]{Items: []T{}, Request: req}
		if p != nil && items[i] != nil {
			out[i].Items, out[i].Count = items[i], counts[i]
		}
	}
	return out
}
