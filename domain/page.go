package domain

import (
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

// PageRequest is one page of a list: Number from 1, Size items.
type PageRequest struct {
	Number int
	Size   int
}

// Offset is the number of items before the page.
func (p PageRequest) Offset() int { return (p.Number - 1) * p.Size }

// ParsePage reads the page and page_size query parameters as DRF's
// PageNumberPagination does: a missing or invalid page_size is the default,
// a larger one is capped at MaxPageSize; a page that is not a positive
// integer is CodeNotFound "Invalid page.".
func ParsePage(page, pageSize string) (PageRequest, error) {
	p := PageRequest{Number: 1, Size: DefaultPageSize}
	if n, err := strconv.Atoi(strings.TrimSpace(pageSize)); err == nil && n > 0 {
		p.Size = PageSize(&n)
	}
	if page = strings.TrimSpace(page); page != "" {
		n, err := strconv.Atoi(page)
		if err != nil || n < 1 {
			return p, ErrInvalidPage
		}
		p.Number = n
	}
	return p, nil
}

// Page is one page of a list with the total count of the list.
type Page[T any] struct {
	Items   []T
	Count   int
	Request PageRequest
}

// NewPage checks that the requested page exists for count items (the first
// page always does, even empty) and returns it.
// Errors: CodeNotFound "Invalid page." past the last page.
func NewPage[T any](items []T, count int, req PageRequest) (*Page[T], error) {
	if req.Number > 1 && req.Offset() >= count {
		return nil, ErrInvalidPage
	}
	if items == nil {
		items = []T{}
	}
	return &Page[T]{Items: items, Count: count, Request: req}, nil
}

// HasNext reports whether a page follows this one.
func (p *Page[T]) HasNext() bool { return p.Request.Offset()+len(p.Items) < p.Count }
