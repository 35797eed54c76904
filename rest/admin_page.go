package rest

import (
	"net/http"

	"salesplatform/domain"
)

// adminPage is the administration lists' wrapper, the spec's Page
// (Document 3): Django's paginator fields around the results. page_range
// lists every page number, as the legacy service did.
type adminPage[T any] struct {
	Count       int     `json:"count"`
	Previous    *string `json:"previous"`
	HasPrevious bool    `json:"has_previous"`
	HasNext     bool    `json:"has_next"`
	CurrentPage int     `json:"current_page"`
	PageRange   []int   `json:"page_range"`
	Results     []T     `json:"results"`
}

// toAdminPage converts a page, linking the previous one on the request's
// URL.
func toAdminPage[In, Out any](r *http.Request, p *domain.Page[In], convert func(In) Out) adminPage[Out] {
	pages := max(1, (p.Count+p.Request.Size-1)/p.Request.Size)
	out := adminPage[Out]{
		Count:       p.Count,
		HasPrevious: p.Request.Number > 1,
		HasNext:     p.HasNext(),
		CurrentPage: p.Request.Number,
		PageRange:   make([]int, pages),
		Results:     make([]Out, len(p.Items)),
	}
	for i := range out.PageRange {
		out.PageRange[i] = i + 1
	}
	for i, it := range p.Items {
		out.Results[i] = convert(it)
	}
	if out.HasPrevious {
		out.Previous = pageLink(r, p.Request.Number-1)
	}
	return out
}
