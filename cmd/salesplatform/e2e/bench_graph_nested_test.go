package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkGraphQLNestedBoxesPage measures the nested catalogue query that
// bench/compare.sh sends (bench/ours.json: boxes → offers(first: 5) →
// partner → labels) through the whole handler, at 2, 10 and 100 boxes of 5
// validated offers each, one partner with two labels per offer.
func BenchmarkGraphQLNestedBoxesPage(b *testing.B) {
	h := benchBoxes(b, 100).h
	for _, n := range []int{2, 10, 100} {
		b.Run(fmt.Sprintf("boxes=%d", n), func(b *testing.B) {
			body := fmt.Sprintf(`{"query": "{ boxes(first: %d) { edges { node { id name { fr } offers(first: 5) { edges { node { partner { id name labels { name logo } } } } } } } } }"}`, n)
			run := func() string {
				req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Partner-Domain", "market.example.com")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"errors"`) {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				return rec.Body.String()
			}
			if out := run(); strings.Count(out, `"labels"`) != 5*n || strings.Count(out, `"Label B"`) != 5*n {
				b.Fatalf("want %d offers with their partners' two labels: %.2000s", 5*n, out)
			}
			b.ReportAllocs()
			for b.Loop() {
				run()
			}
		})
	}
}
