package graph

// Relay connections (first/after) over the services' numbered pages.
//
// A cursor is the base64 of "offset:N", N being the item's position in the
// whole list; the page after it starts at N+1. The services read numbered
// pages (domain.PageRequest), so a window that starts anywhere is read as
// the smallest numbered page that covers it, and cut: a client that pages
// with the same first reads exactly the pages it asks for.

import (
	"context"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/vikstrous/dataloadgen"

	"salesplatform/domain"
	"salesplatform/graph/model"
)

const cursorPrefix = "offset:"

// maxCursorOffset bounds the offsets a cursor may carry.
const maxCursorOffset = 1<<31 - 1

// msgInvalidCursor answers an after that is not a cursor of this service.
const msgInvalidCursor = "Invalid cursor."

func encodeCursor(offset int) string {
	return base64.StdEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(offset)))
}

// decodeCursor returns the offset a cursor names.
// Errors: CodeInvalid on "after" for anything but a cursor of this service.
func decodeCursor(cursor string) (int, error) {
	raw, err := base64.StdEncoding.DecodeString(cursor)
	digits, ok := strings.CutPrefix(string(raw), cursorPrefix)
	offset, convErr := strconv.Atoi(digits)
	if err != nil || !ok || convErr != nil || offset < 0 || offset > maxCursorOffset || strconv.Itoa(offset) != digits {
		return 0, argumentError("after", "invalid", msgInvalidCursor)
	}
	return offset, nil
}

// argumentError is the domain's input error for one argument.
func argumentError(arg, code, msg string) error {
	return &domain.Error{Code: domain.CodeInvalid, Message: "Invalid input.",
		Fields: []domain.FieldError{{Path: []any{arg}, Code: code, Message: msg}}}
}

// window is the part of a list a connection asks for: the items
// [start, start+first), read through the numbered page req.
type window struct {
	start, first int
	req          domain.PageRequest
}

// newWindow reads first and after: first defaults to
// domain.DefaultPageSize and is capped at domain.MaxPageSize.
// Errors: CodeInvalid on "first" when negative, on "after" for a bad cursor.
func newWindow(first *int, after *string) (window, error) {
	if first != nil && *first < 0 {
		return window{}, argumentError("first", "min_value", "Ensure this value is greater than or equal to 0.")
	}
	w := window{first: domain.PageSize(first)}
	if after != nil {
		offset, err := decodeCursor(*after)
		if err != nil {
			return w, err
		}
		w.start = offset + 1
	}
	// first: 0 still reads one item, for the count: a page of size 0 would
	// have no limit.
	w.req = coveringPage(w.start, max(w.first, 1))
	return w, nil
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

// connect cuts the window out of page, a page that covers it, and returns
// its edges (made by edge, with their cursors) and page info.
func connect[T, E any](w window, page *domain.Page[T], edge func(cursor string, item T) E) ([]E, *model.PageInfo) {
	items := page.Items
	if skip := w.start - page.Request.Offset(); skip < len(items) {
		items = items[skip:]
	} else {
		items = nil
	}
	items = items[:min(len(items), w.first)]
	edges := make([]E, len(items))
	for i, it := range items {
		edges[i] = edge(encodeCursor(w.start+i), it)
	}
	info := &model.PageInfo{HasPreviousPage: w.start > 0, HasNextPage: w.start+len(items) < page.Count}
	if len(items) > 0 {
		first, last := encodeCursor(w.start), encodeCursor(w.start+len(items)-1)
		info.StartCursor, info.EndCursor = &first, &last
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

// readWindow reads the window first and after ask for out of a paged
// list: newWindow, then listPage.
func readWindow[T any](first *int, after *string, list func(domain.PageRequest) (*domain.Page[T], error)) (window, *domain.Page[T], error) {
	w, err := newWindow(first, after)
	if err != nil {
		return w, nil, err
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
// loader, batched with the same list of the parent's siblings.
func loadPage[T any](ctx context.Context, l *dataloadgen.Loader[pageKey, *domain.Page[T]], id int64, first *int, after *string) (window, *domain.Page[T], error) {
	w, err := newWindow(first, after)
	if err != nil {
		return w, nil, err
	}
	page, err := l.Load(ctx, pageKey{id: id, page: w.req})
	return w, page, err
}
