package rest

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

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

// jsonLocalized shows every language, null where there is no text (a nil
// one is null altogether). It is a struct, whose fields encoding/json
// writes in their order, rather than a map, whose keys it sorts on every
// write: that sorting was a good part of encoding a page. The fields are
// domain.Languages in alphabetical order, the order of the map's keys
// that clients saw (TestJSONLocalizedIsEveryLanguage).
type jsonLocalized = *jsonTexts

type jsonTexts struct {
	Ca *string `json:"ca"`
	De *string `json:"de"`
	En *string `json:"en"`
	Es *string `json:"es"`
	Fr *string `json:"fr"`
	It *string `json:"it"`
	Nl *string `json:"nl"`
	Pt *string `json:"pt"`

	texts [len(jsonTextLanguages)]string // what the fields point to
}

// jsonTextLanguages are jsonTexts' fields' languages, in their order.
var jsonTextLanguages = [...]string{"ca", "de", "en", "es", "fr", "it", "nl", "pt"}

func toJSONLocalized(l domain.Localized) jsonLocalized {
	t := &jsonTexts{}
	fields := [len(jsonTextLanguages)]**string{&t.Ca, &t.De, &t.En, &t.Es, &t.Fr, &t.It, &t.Nl, &t.Pt}
	for i, lang := range jsonTextLanguages {
		if s, ok := l[lang]; ok {
			t.texts[i] = s
			*fields[i] = &t.texts[i]
		}
	}
	return t
}

// adminPage is the administration lists' wrapper, the spec's Page
// (the administration API): Django's paginator fields around the results. page_range
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

// arrayPage reads page and page_size of a list the contract shows as an
// array: the page size defaults to its maximum.
func arrayPage(r *http.Request) (domain.PageRequest, error) {
	req, err := pageRequest(r)
	if strings.TrimSpace(r.URL.Query().Get("page_size")) == "" {
		req.Size = domain.MaxPageSize
	}
	return req, err
}

// writeArrayPage answers a page of a list the contract shows as an array:
// the items, the list's total in X-Total-Count and the neighbour pages in
// Link (RFC 8288).
func writeArrayPage[In, Out any](w http.ResponseWriter, r *http.Request, p *domain.Page[In], convert func(In) Out) {
	out := make([]Out, len(p.Items))
	for i, it := range p.Items {
		out[i] = convert(it)
	}
	var links []string
	if p.HasNext() {
		links = append(links, `<`+*pageLink(r, p.Request.Number+1)+`>; rel="next"`)
	}
	if p.Request.Number > 1 {
		links = append(links, `<`+*pageLink(r, p.Request.Number-1)+`>; rel="prev"`)
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(p.Count))
	writeJSON(w, http.StatusOK, out)
}
