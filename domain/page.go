package domain

import (
	"slices"
	"strconv"
	"strings"
)

// Page sizes of listed operations: the contract shows page and page_size but
// no default or maximum (docs/DECISIONS.md).
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// MsgInvalidPage is DRF's answer to a page that does not exist.
const MsgInvalidPage = "Invalid page."

// ErrInvalidPage is the error of a page that does not exist (errors.Is
// finds it).
var ErrInvalidPage = &Error{Code: CodeNotFound, Message: MsgInvalidPage}

// PageSize is the size of a page asked for by a count: DefaultPageSize
// when absent, at most MaxPageSize.
func PageSize(n *int) int {
	if n == nil {
		return DefaultPageSize
	}
	return min(*n, MaxPageSize)
}

// PageRequest is one page of a list: Number from 1, Size items; or, when
// Keyset is set, Size items from one of its items on (Number unused).
type PageRequest struct {
	Number int
	Size   int
	// Keyset reads the page from an item rather than at a position, so
	// that items added or removed ahead of it do not shift it. Only the
	// graph asks for it, of the lists whose stores read it (the
	// administration's vouchers, giftcards and media, the catalogue's
	// boxes); REST pages are always numbered.
	Keyset *Keyset
}

// Keyset is where a keyset page lies: the items strictly after the item
// After (0: from the first) and strictly before the item Before (0: to the
// last), in the list's order; the page is their first Size items, or their
// last Size when Backward. After and Before are item (database) ids.
//
// A store reads Size+1 items in the reading direction (the list's order,
// or its reverse when Backward), so that NewPage can tell whether more
// follow; it answers ErrCursorGone when After or Before is not an item of
// the list it reads (deleted, filtered out, or another tenant's).
type Keyset struct {
	After, Before int64
	Backward      bool
	// Uncounted tells the store that the reader does not need the page's
	// Count: with no anchor to check, it need not count the list (Count
	// is then 0).
	Uncounted bool
}

// Offset is the number of items before the page.
func (p PageRequest) Offset() int { return (p.Number - 1) * p.Size }

// MsgCursorGone answers a keyset cursor whose item is not in the list.
const MsgCursorGone = "This cursor's item is no longer in the list."

// ErrCursorGone is the error of a keyset page whose item After ("after")
// or Before ("before") is not in the list: an input error on that
// argument, as the graph names it.
func ErrCursorGone(arg string) error {
	return &Error{Code: CodeInvalid, Message: "Invalid input.",
		Fields: []FieldError{{Path: []any{arg}, Code: VInvalid, Message: MsgCursorGone}}}
}

// ParsePage reads the page and page_size query parameters as DRF's
// PageNumberPagination does: a missing or invalid page_size is the default,
// a larger one is capped at MaxPageSize; a page that is not a positive
// integer is CodeNotFound "Invalid page.", and so is one whose offset
// would pass MaxPageOffset (no list is that long).
func ParsePage(page, pageSize string) (PageRequest, error) {
	p := PageRequest{Number: 1, Size: DefaultPageSize}
	if n, err := strconv.Atoi(strings.TrimSpace(pageSize)); err == nil && n > 0 {
		p.Size = PageSize(&n)
	}
	if page = strings.TrimSpace(page); page != "" {
		n, err := strconv.Atoi(page)
		if err != nil || n < 1 || n > MaxPageOffset/p.Size+1 {
			return p, ErrInvalidPage
		}
		p.Number = n
	}
	return p, nil
}

// MaxPageOffset bounds the offset of a numbered page: a page past it is
// past the end of any list, and its offset cannot overflow.
const MaxPageOffset = 1<<31 - 1

// Page is one page of a list with the total count of the list.
type Page[T any] struct {
	Items   []T
	Count   int
	Request PageRequest
	// More reports, on a keyset page, that more items follow it in its
	// reading direction (after it; before it when Backward).
	More bool
}

// NewPage checks that the requested page exists for count items (the first
// page always does, even empty) and returns it.
//
// A keyset page's items are those its store read: at most Size+1, in the
// reading direction. NewPage keeps Size of them, in the list's order, and
// sets More when there was one more. An empty list holds no item a cursor
// could name.
// Errors: CodeNotFound "Invalid page." past the last numbered page;
// ErrCursorGone for a keyset page of an empty list from an item.
func NewPage[T any](items []T, count int, req PageRequest) (*Page[T], error) {
	if items == nil {
		items = []T{}
	}
	if k := req.Keyset; k != nil {
		switch {
		case count == 0 && k.After != 0:
			return nil, ErrCursorGone("after")
		case count == 0 && k.Before != 0:
			return nil, ErrCursorGone("before")
		}
		more := len(items) > req.Size
		items = items[:min(len(items), req.Size)]
		if k.Backward {
			slices.Reverse(items)
		}
		return &Page[T]{Items: items, Count: count, Request: req, More: more}, nil
	}
	if req.Number > 1 && req.Offset() >= count {
		return nil, ErrInvalidPage
	}
	return &Page[T]{Items: items, Count: count, Request: req}, nil
}

// HasNext reports whether a numbered page follows this one.
func (p *Page[T]) HasNext() bool { return p.Request.Offset()+len(p.Items) < p.Count }
