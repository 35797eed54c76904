package graph

import (
	"mime"
	"net/http"
	"strings"
)

// ToPlayground sends a person who opens the endpoint in a browser (a GET
// with no query that accepts HTML) to the playground at playgroundPath,
// instead of answering GraphQL's "no query" error. Requests of GraphQL
// clients (a query, or no HTML in Accept) go on to next.
func ToPlayground(playgroundPath string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
			!r.URL.Query().Has("query") && acceptsHTML(r.Header.Values("Accept")) {
			http.Redirect(w, r, playgroundPath, http.StatusSeeOther)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// acceptsHTML reports whether an Accept header names text/html with a
// non-zero quality. A browser's navigation sends it; fetch and GraphQL
// clients send application/json or application/graphql-response+json.
func acceptsHTML(accept []string) bool {
	for _, v := range accept {
		for _, part := range strings.Split(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || mt != "text/html" {
				continue
			}
			if q, ok := params["q"]; ok && strings.Trim(q, "0.") == "" {
				continue // q=0: explicitly not acceptable
			}
			return true
		}
	}
	return false
}
