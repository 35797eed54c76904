package graph

// Relay connections over the services' pages (docs/GRAPHQL.md,
// "Pagination"). Every connection takes first and after (forward) and
// last and before (backward): after and before bound the list, first keeps
// the first items between them, last the last ones; first and last
// together are refused, on last. Cursors are opaque to clients; two kinds
// of list make them:
//
//   - Keyset lists, the long ones (the administration's vouchers,
//     giftcards and media, the catalogue's boxes: readKeyset). A cursor is
//     the unpadded base64url of "k:ID", ID the item's database id, and the
//     store reads the items strictly after (before) that item in the
//     list's current order (domain.Keyset): a page stays put when items
//     are added or removed ahead of it. A cursor whose item is no longer
//     in the list is an input error on its argument.
//   - Offset lists, the others (readWindow, loadPage for the nested ones).
//     A cursor is the base64 of "offset:N", N the item's position in the
//     whole list. The services read numbered pages (domain.PageRequest),
//     so a window that starts anywhere is read as the smallest numbered
//     page that covers it, and cut: a client that pages with the same
//     first (or last) reads exactly the pages it asks for. A window that
//     ends at the end of the list (last without before) is placed once the
//     list's length is known: one more read.

import (
	"context"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"salesplatform/domain"
	"salesplatform/graph/model"
)

// pageArgs are a connection's arguments, as its resolver receives them.
type pageArgs struct {
	first  *int
	after  *string
	last   *int
	before *string
}

// Messages of the page arguments.
const (
	msgMinZero       = "Ensure this value is greater than or equal to 0."
	msgFirstAndLast  = "Give first or last, not both."
	msgInvalidCursor = "Invalid cursor." // not a cursor of this list
)

// check refuses what no list reads.
// Errors: CodeInvalid on "first" or "last" when negative, on "last" when
// both are given.
func (a pageArgs) check() error {
	switch {
	case a.first != nil && *a.first < 0:
		return argumentError("first", "min_value", msgMinZero)
	case a.last != nil && *a.last < 0:
		return argumentError("last", "min_value", msgMinZero)
	case a.first != nil && a.last != nil:
		return argumentError("last", "invalid", msgFirstAndLast)
	}
	return nil
}

// backward reports that the page is read from its end: last is given, or
// before without first.
func (a pageArgs) backward() bool { return a.last != nil || (a.before != nil && a.first == nil) }

// size is how many items the page holds at most: first or last,
// domain.DefaultPageSize when absent, at most domain.MaxPageSize.
func (a pageArgs) size() int {
	if a.backward() {
		return domain.PageSize(a.last)
	}
	return domain.PageSize(a.first)
}

// argumentError is the domain's input error for one argument.
func argumentError(arg, code, msg string) error {
	return &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.",
		Fields: []domain.FieldError{{Path: []any{arg}, Code: code, Message: msg}}}
}

// window is the part of a list a connection shows.
type window struct {
	// An offset list's: the items [start, start+n), read through the
	// numbered page req. toEnd: the window ends at the end of the list,
	// start is the lowest start and n the size until atEnd places it.
	start, n int
	req      domain.PageRequest
	toEnd    bool

	// A keyset list's: the page's cursors, and its page info.
	keyset           bool
	cursors          []string
	hasPrev, hasNext bool
}

const cursorPrefix = "offset:"

// maxCursorOffset bounds the offsets a cursor may carry.
const maxCursorOffset = 1<<31 - 1

func encodeCursor(offset int) string {
	return base64.StdEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(offset)))
}

// decodeCursor returns the offset a cursor names.
// Errors: CodeInvalid on arg for anything but an offset cursor.
func decodeCursor(arg, cursor string) (int, error) {
	raw, err := base64.StdEncoding.DecodeString(cursor)
	digits, ok := strings.CutPrefix(string(raw), cursorPrefix)
	offset, convErr := strconv.Atoi(digits)
	if err != nil || !ok || convErr != nil || offset < 0 || offset > maxCursorOffset || strconv.Itoa(offset) != digits {
		return 0, argumentError(arg, "invalid", msgInvalidCursor)
	}
	return offset, nil
}

// newWindow places the window a asks for in an offset list: first defaults
// to domain.DefaultPageSize and is capped at domain.MaxPageSize, and so is
// last.
// Errors: those of check; CodeInvalid on "after" and "before" for a bad
// cursor.
func newWindow(a pageArgs) (window, error) {
	if err := a.check(); err != nil {
		return window{}, err
	}
	lo, hi := 0, -1 // the items [lo, hi) lie between after and before; -1: to the end
	if a.after != nil {
		offset, err := decodeCursor("after", *a.after)
		if err != nil {
			return window{}, err
		}
		lo = offset + 1
	}
	if a.before != nil {
		offset, err := decodeCursor("before", *a.before)
		if err != nil {
			return window{}, err
		}
		hi = max(offset, lo)
	}
	n := a.size()
	switch {
	case hi < 0 && a.backward():
		return window{start: lo, n: n, toEnd: true}, nil
	case hi < 0:
	case a.backward():
		lo = max(lo, hi-n)
		n = hi - lo
	default:
		n = min(n, hi-lo)
	}
	return placed(lo, n), nil
}

// placed is the window [start, start+n) with the page that covers it.
// n = 0 still reads one item, for the count: a page of size 0 would have
// no limit.
func placed(start, n int) window {
	return window{start: start, n: n, req: coveringPage(start, max(n, 1))}
}

// atEnd places a window that ends at the end of a list of count items.
func (w window) atEnd(count int) window {
	end := max(count, w.start)
	start := max(w.start, end-w.n)
	return placed(start, end-start)
}

// coveringPage returns the numbered page of the smallest size (at least n)
// that holds the items [start, start+n). A page of size start+n always
// does; in practice one of less than 2n does.
func coveringPage(start, n int) domain.PageRequest {
	for size := n; ; size++ {
		if start%size <= size-n {
			return domain.PageRequest{Number: start/size + 1, Size: size}
		}
	}
}

// connect cuts the window out of page (for an offset list, a page that
// covers it) and returns its edges (made by edge, with their cursors) and
// page info.
func connect[T, E any](w window, page *domain.Page[T], edge func(cursor string, item T) E) ([]E, *model.PageInfo) {
	items := page.Items
	if !w.keyset {
		items = items[min(w.start-page.Request.Offset(), len(items)):]
		items = items[:min(len(items), w.n)]
		w.cursors = make([]string, len(items))
		for i := range items {
			w.cursors[i] = encodeCursor(w.start + i)
		}
		w.hasPrev, w.hasNext = w.start > 0, w.start+len(items) < page.Count
	}
	edges := make([]E, len(items))
	for i, it := range items {
		edges[i] = edge(w.cursors[i], it)
	}
	info := &model.PageInfo{HasPreviousPage: w.hasPrev, HasNextPage: w.hasNext}
	if len(items) > 0 {
		info.StartCursor, info.EndCursor = &w.cursors[0], &w.cursors[len(items)-1]
	}
	return edges, info
}

// listPage reads the page covering a root list's window with list, a
// service call. A window past the end of the list is an empty page: the
// services answer "Invalid page." (as REST must), and the list's length is
// then read from its first page.
func listPage[T any](w window, list func(domain.PageRequest) (*domain.Page[T], error)) (*domain.Page[T], error) {
	page, err := list(w.req)
	if w.req.Number > 1 && errors.Is(err, domain.ErrInvalidPage) {
		first, err := list(domain.PageRequest{Number: 1, Size: 1})
		if err != nil {
			return nil, err
		}
		return &domain.Page[T]{Items: []T{}, Count: first.Count, Request: w.req}, nil
	}
	return page, err
}

// readWindow reads the window a asks for out of an offset list, with
// list: newWindow, the list's length first when the window ends at the
// end, then listPage.
func readWindow[T any](a pageArgs, list func(domain.PageRequest) (*domain.Page[T], error)) (window, *domain.Page[T], error) {
	w, err := newWindow(a)
	if err != nil {
		return w, nil, err
	}
	if w.toEnd {
		first, err := list(domain.PageRequest{Number: 1, Size: 1})
		if err != nil {
			return w, nil, err
		}
		w = w.atEnd(first.Count)
	}
	page, err := listPage(w, list)
	return w, page, err
}

// pageKey is the key of a nested list's loader: a parent and the page of
// its list.
type pageKey struct {
	id   int64
	page domain.PageRequest
}

// loadPage reads the page covering a nested list's window through its
// loader, batched with the same list of the parent's siblings: those that
// ask for the same page are read at once (a window that ends at the end
// of the list reads the lengths first, at once, then the pages).
func loadPage[T any](ctx context.Context, l *dataloadgen.Loader[pageKey, *domain.Page[T]], id int64, a pageArgs) (window, *domain.Page[T], error) {
	return readWindow(a, func(req domain.PageRequest) (*domain.Page[T], error) {
		return l.Load(ctx, pageKey{id: id, page: req})
	})
}

const keyCursorPrefix = "k:"

func encodeKeyCursor(id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(keyCursorPrefix + strconv.FormatInt(id, 10)))
}

// decodeKeyCursor returns the item id a keyset cursor names.
// Errors: CodeInvalid on arg for anything but a keyset cursor, in its
// canonical form.
func decodeKeyCursor(arg, cursor string) (int64, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	digits, ok := strings.CutPrefix(string(raw), keyCursorPrefix)
	id, convErr := strconv.ParseInt(digits, 10, 64)
	if err != nil || !ok || convErr != nil || id <= 0 || encodeKeyCursor(id) != cursor {
		return 0, argumentError(arg, "invalid", msgInvalidCursor)
	}
	return id, nil
}

// readKeyset reads the page a asks for of a keyset list with list, a
// service call; id is an item's database id, which its cursor carries.
// The list is counted only when the connection field asks for its
// totalCount (or a cursor must be checked).
// Page info as Relay defines it: reading forward, a next page when more
// items follow or before names one (it exists: the store checked), a
// previous one when after names one; reading backward, the reverse.
// Errors: those of check; CodeInvalid on "after" and "before" for a bad
// cursor; list's (domain.ErrCursorGone for a cursor whose item is gone).
func readKeyset[T any](ctx context.Context, a pageArgs, id func(T) int64, list func(domain.PageRequest) (*domain.Page[T], error)) (window, *domain.Page[T], error) {
	if err := a.check(); err != nil {
		return window{}, nil, err
	}
	k := &domain.Keyset{Backward: a.backward(), Uncounted: !asksTotalCount(ctx)}
	var err error
	if a.after != nil {
		if k.After, err = decodeKeyCursor("after", *a.after); err != nil {
			return window{}, nil, err
		}
	}
	if a.before != nil {
		if k.Before, err = decodeKeyCursor("before", *a.before); err != nil {
			return window{}, nil, err
		}
	}
	page, err := list(domain.PageRequest{Size: a.size(), Keyset: k})
	if err != nil {
		return window{}, nil, err
	}
	w := window{keyset: true, cursors: make([]string, len(page.Items)), hasPrev: a.after != nil, hasNext: a.before != nil}
	for i, it := range page.Items {
		w.cursors[i] = encodeKeyCursor(id(it))
	}
	if k.Backward {
		w.hasPrev = w.hasPrev || page.More
	} else {
		w.hasNext = w.hasNext || page.More
	}
	return w, page, nil
}

// asksTotalCount reports whether the connection field being resolved asks
// for its totalCount; true when ctx does not tell.
func asksTotalCount(ctx context.Context) bool {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil || fc.Field.Definition == nil {
		return true
	}
	return len(lookahead(ctx, nil, step{"totalCount", fc.Field.Definition.Type.Name()})) > 0
}
