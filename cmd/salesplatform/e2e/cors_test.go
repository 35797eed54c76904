package e2e

import (
	"net/http"
	"strings"
	"testing"

	"salesplatform/persistence/dbtest"
)

// TestCORS sends real preflights and requests through the whole server: a
// partner's site (https on its site domain) and a configured origin may call
// the graph and the public API from a browser; any other origin gets no
// CORS header.
func TestCORS(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop",
		"--partner-domain", "shop.example.com")
	CreateUser(t, dsn, "--username", "dev", "--password", "dev-password", "--partner-name", "Dev",
		"--partner-domain", "front.localhost")
	s := Serve(t, dsn, "--cors-origins", "https://admin.example.net, http://front.test:3000")

	preflight := func(path, origin string) Response {
		return Do(t, http.MethodOptions, s.URL+path, "", "Origin", origin, "Access-Control-Request-Method", "POST",
			"Access-Control-Request-Headers", "authorization,content-type,x-partner-domain")
	}
	for name, tc := range map[string]struct{ path, origin string }{
		"OKPartnerSiteGraph":       {"/graphql", "https://shop.example.com"},
		"OKPartnerSiteCatalogue":   {"/api/v2/partners/", "https://shop.example.com"},
		"OKPartnerSiteContact":     {"/api/v2/contact_requests/", "https://shop.example.com"},
		"OKPartnerSiteGift":        {"/api/v2/gift/ABC123/", "https://shop.example.com"},
		"OKPartnerSiteWidgets":     {"/api/setup_marketing_widgets/0123456789abcdef0123456789abcdef/", "https://shop.example.com"},
		"OKConfiguredOrigin":       {"/graphql", "http://front.test:3000"},
		"OKConfiguredOriginInCase": {"/api/v2/destinations/", "https://ADMIN.example.net"},
		"OKDevHostOverHTTP":        {"/graphql", "http://front.localhost:5173"},
	} {
		t.Run(name, func(t *testing.T) {
			res := preflight(tc.path, tc.origin)
			h := res.Header
			if res.Status != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != tc.origin ||
				!strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") ||
				h.Get("Access-Control-Max-Age") == "" || !strings.Contains(strings.Join(h.Values("Vary"), ","), "Origin") {
				t.Fatalf("%d %v", res.Status, h)
			}
			for _, want := range []string{"Authorization", "Content-Type", "X-Partner-Domain", "If-Match", "If-None-Match"} {
				if !strings.Contains(h.Get("Access-Control-Allow-Headers"), want) {
					t.Errorf("Access-Control-Allow-Headers %q lacks %s", h.Get("Access-Control-Allow-Headers"), want)
				}
			}
			if h.Get("Access-Control-Allow-Credentials") != "" {
				t.Errorf("Access-Control-Allow-Credentials %q: no cookie is used", h.Get("Access-Control-Allow-Credentials"))
			}
		})
	}
	for name, tc := range map[string]struct{ path, origin string }{
		"ErrUnknownSite":          {"/graphql", "https://evil.example.com"},
		"ErrPartnerSiteOverHTTP":  {"/graphql", "http://shop.example.com"},
		"ErrPartnerSiteOtherPort": {"/api/v2/partners/", "https://shop.example.com:8443"},
		"ErrSubdomain":            {"/graphql", "https://www.shop.example.com"},
		"ErrConfiguredOtherPort":  {"/graphql", "http://front.test:3001"},
		"ErrNullOrigin":           {"/graphql", "null"},
		"ErrAdminAPINotOpen":      {"/api/vouchers/", "https://shop.example.com"},
		"ErrLoginNotOpen":         {"/api-token-auth/", "https://shop.example.com"},
	} {
		t.Run(name, func(t *testing.T) {
			res := preflight(tc.path, tc.origin)
			for k := range res.Header {
				if strings.HasPrefix(k, "Access-Control-") {
					t.Errorf("%s: %q", k, res.Header.Get(k))
				}
			}
			if res.Status == http.StatusNoContent {
				t.Errorf("status 204 for a refused preflight")
			}
		})
	}

	t.Run("OKActualRequestsEchoTheOrigin", func(t *testing.T) {
		res := Do(t, "GET", s.URL+"/api/v2/destinations/", "", "Origin", "https://shop.example.com", "X-Partner-Domain", "shop.example.com")
		if res.Status != 200 || res.Header.Get("Access-Control-Allow-Origin") != "https://shop.example.com" ||
			!strings.Contains(res.Header.Get("Access-Control-Expose-Headers"), "ETag") ||
			!strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Origin") {
			t.Errorf("%d %v %s", res.Status, res.Header, res.Body)
		}
		res = Do(t, "POST", s.URL+"/graphql", `{"query":"{ __typename }"}`, "Origin", "http://front.test:3000")
		if res.Status != 200 || res.Header.Get("Access-Control-Allow-Origin") != "http://front.test:3000" {
			t.Errorf("%d %v %s", res.Status, res.Header, res.Body)
		}
	})
	t.Run("ErrActualRequestFromOtherOriginHasNoCORS", func(t *testing.T) {
		res := Do(t, "GET", s.URL+"/api/v2/destinations/", "", "Origin", "https://evil.example.com", "X-Partner-Domain", "shop.example.com")
		if res.Status != 200 || res.Header.Get("Access-Control-Allow-Origin") != "" ||
			!strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Origin") {
			t.Errorf("%d %v", res.Status, res.Header)
		}
	})
	t.Run("OKWidgetsKeepTheirLegacyStar", func(t *testing.T) {
		res := Do(t, "GET", s.URL+"/api/setup_marketing_widgets/0123456789abcdef0123456789abcdef/", "", "Origin", "https://evil.example.com")
		if res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%d %v", res.Status, res.Header)
		}
	})
}
