package middleware_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"salesplatform/rest/middleware"
)

// partnerSites allows one origin and counts its lookups.
type partnerSites struct {
	origin  string
	lookups atomic.Int32
	fail    bool
}

func (p *partnerSites) IsPartnerSiteOrigin(_ context.Context, origin string) (bool, error) {
	p.lookups.Add(1)
	if p.fail {
		return false, errors.New("database down")
	}
	return origin == p.origin, nil
}

func TestCORS(t *testing.T) {
	sites := &partnerSites{origin: "https://shop.example.com"}
	var reached atomic.Int32
	h := middleware.CORS(middleware.CORSConfig{Partners: sites, Origins: []string{"http://Front.test:3000"},
		Paths: []string{"/graphql", "/api/v2/"}})(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		w.WriteHeader(http.StatusTeapot)
	}))
	do := func(method, path, origin string, preflight bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, "http://api.test"+path, nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if preflight {
			req.Header.Set("Access-Control-Request-Method", "POST")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}

	t.Run("OKPreflightIsAnsweredHere", func(t *testing.T) {
		reached.Store(0)
		rec := do("OPTIONS", "/api/v2/partners/", "https://shop.example.com", true)
		if rec.Code != 204 || rec.Header().Get("Access-Control-Allow-Origin") != "https://shop.example.com" ||
			rec.Header().Get("Access-Control-Max-Age") != "7200" || reached.Load() != 0 {
			t.Errorf("%d %v, reached %d", rec.Code, rec.Header(), reached.Load())
		}
	})
	t.Run("OKConfiguredOriginAnyCase", func(t *testing.T) {
		if rec := do("OPTIONS", "/graphql", "http://front.test:3000", true); rec.Code != 204 {
			t.Errorf("%d %v", rec.Code, rec.Header())
		}
	})
	t.Run("OKRequestEchoesOrigin", func(t *testing.T) {
		rec := do("GET", "/graphql", "https://shop.example.com", false)
		if rec.Code != 418 || rec.Header().Get("Access-Control-Allow-Origin") != "https://shop.example.com" || rec.Header().Get("Vary") != "Origin" {
			t.Errorf("%d %v", rec.Code, rec.Header())
		}
	})
	t.Run("OKLookupsAreCached", func(t *testing.T) {
		before := sites.lookups.Load()
		for range 3 {
			do("GET", "/graphql", "https://shop.example.com", false)
			do("GET", "/graphql", "https://other.example.com", false)
		}
		if n := sites.lookups.Load() - before; n > 1 { // other.example.com once; shop already cached
			t.Errorf("%d lookups", n)
		}
	})
	t.Run("OKSameOriginIsNotLookedUp", func(t *testing.T) {
		before := sites.lookups.Load()
		rec := do("POST", "/graphql", "http://api.test", false)
		if rec.Header().Get("Access-Control-Allow-Origin") != "" || sites.lookups.Load() != before {
			t.Errorf("%v, %d lookups", rec.Header(), sites.lookups.Load()-before)
		}
	})
	t.Run("ErrOtherOriginPreflightGoesToTheRoute", func(t *testing.T) {
		reached.Store(0)
		rec := do("OPTIONS", "/graphql", "https://evil.example.com", true)
		if rec.Code != 418 || reached.Load() != 1 || hasCORS(rec.Header()) {
			t.Errorf("%d %v", rec.Code, rec.Header())
		}
	})
	t.Run("ErrUncoveredPath", func(t *testing.T) {
		rec := do("OPTIONS", "/api/vouchers/", "https://shop.example.com", true)
		if rec.Code != 418 || hasCORS(rec.Header()) || rec.Header().Get("Vary") != "" {
			t.Errorf("%d %v", rec.Code, rec.Header())
		}
	})
	t.Run("ErrFailedLookupAllowsNothing", func(t *testing.T) {
		failing := middleware.CORS(middleware.CORSConfig{Partners: &partnerSites{fail: true}, Paths: []string{"/graphql"}})(
			http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		req := httptest.NewRequest("GET", "/graphql", nil)
		req.Header.Set("Origin", "https://shop.example.com")
		rec := httptest.NewRecorder()
		failing.ServeHTTP(rec, req)
		if hasCORS(rec.Header()) {
			t.Errorf("%v", rec.Header())
		}
	})
}

func hasCORS(h http.Header) bool {
	for k := range h {
		if strings.HasPrefix(k, "Access-Control-") {
			return true
		}
	}
	return false
}
