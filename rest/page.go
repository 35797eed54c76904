package rest

import (
	"net/http"
	"net/url"
	"strconv"

	"salesplatform/domain"
)

// jsonPage is the catalogue list wrapper: {"count", "next", "previous",
// "results"}, with absolute links as DRF gives them.
type jsonPage[T any] struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []T     `json:"results"`
}

// pageRequest reads page and page_size from the query.
func pageRequest(r *http.Request) (domain.PageRequest, error) {
	q := r.URL.Query()
	return domain.ParsePage(q.Get("page"), q.Get("page_size"))
}

// toJSONPage converts a page, linking its neighbours on the request's URL.
func toJSONPage[In, Out any](r *http.Request, p *domain.Page[In], convert func(In) Out) jsonPage[Out] {
	out := jsonPage[Out]{Count: p.Count, Results: make([]Out, len(p.Items))}
	for i, it := range p.Items {
		out.Results[i] = convert(it)
	}
	if p.HasNext() {
		out.Next = pageLink(r, p.Request.Number+1)
	}
	if p.Request.Number > 1 {
		out.Previous = pageLink(r, p.Request.Number-1)
	}
	return out
}

// pageLink is the request's absolute URL on another page; page 1 drops the
// parameter, as DRF does.
func pageLink(r *http.Request, n int) *string {
	u := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path}
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		u.Scheme = "https"
	}
	q := r.URL.Query()
	if n == 1 {
		q.Del("page")
	} else {
		q.Set("page", strconv.Itoa(n))
	}
	u.RawQuery = q.Encode()
	s := u.String()
	return &s
}

// jsonLocalized shows every language, null where there is no text.
type jsonLocalized map[string]*string

func toJSONLocalized(l domain.Localized) jsonLocalized {
	out := make(jsonLocalized, len(domain.Languages))
	for _, lang := range domain.Languages {
		if s, ok := l[lang]; ok {
			out[lang] = &s
		} else {
			out[lang] = nil
		}
	}
	return out
}
