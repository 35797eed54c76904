package middleware

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
)

// OriginChecker says whether a browser origin is a partner's site (the
// domain service holds the rule: catalogue.PartnerCatalogService).
type OriginChecker interface {
	IsPartnerSiteOrigin(ctx context.Context, origin string) (bool, error)
}

// CORSConfig is what CORS lets browsers do.
type CORSConfig struct {
	// Partners decides the origins of partners' sites.
	Partners OriginChecker
	// Origins are further allowed origins (CORS_ORIGINS), compared exactly,
	// scheme and port included, in lower case.
	Origins []string
	// Paths are the path prefixes open to other origins: a prefix ending in
	// "/" covers the paths under it, any other the path itself.
	Paths []string
}

// Answers of CORS. Browsers cache a preflight for MaxAge (Chromium caps it
// at two hours).
const (
	corsAllowMethods  = "GET, HEAD, POST, PUT, PATCH, DELETE"
	corsAllowHeaders  = "Authorization, Content-Type, X-Partner-Domain, If-Match, If-None-Match, X-Request-Id"
	corsExposeHeaders = "ETag, X-Request-Id"
	corsMaxAge        = 2 * time.Hour
	// originCacheTTL bounds how long a partner's new or removed site
	// domain takes to be seen as an origin.
	originCacheTTL  = time.Minute
	originCacheSize = 4096
)

// CORS lets browsers on allowed origins call the configured paths: a
// preflight (OPTIONS with Origin and Access-Control-Request-Method) from an
// allowed origin is answered 204 here with the allowed methods and headers;
// any other request from it gets Access-Control-Allow-Origin echoing its
// origin (never "*": requests carry Authorization) and the exposed headers.
// A request from another origin gets no CORS header, and its preflight goes
// on to the route, as any OPTIONS does. Responses of the covered paths vary
// by Origin. A same-origin request (Origin naming the Host it was sent to)
// is not looked up. The partner answers are cached for a minute; a lookup
// that fails allows nothing and is logged.
func CORS(cfg CORSConfig) func(http.Handler) http.Handler {
	extra := make(map[string]bool, len(cfg.Origins))
	for _, o := range cfg.Origins {
		extra[strings.ToLower(strings.TrimSpace(o))] = true
	}
	cache := expirable.NewLRU[string, bool](originCacheSize, nil, originCacheTTL)
	allowed := func(r *http.Request, origin string) bool {
		if extra[strings.ToLower(origin)] {
			return true
		}
		if cfg.Partners == nil {
			return false
		}
		if ok, hit := cache.Get(origin); hit {
			return ok
		}
		ok, err := cfg.Partners.IsPartnerSiteOrigin(r.Context(), origin)
		if err != nil {
			LoggerFrom(r.Context()).Warn("CORS origin lookup failed", "origin", origin, "error", err.Error())
			return false
		}
		cache.Add(origin, ok)
		return ok
	}
	covered := func(path string) bool {
		for _, p := range cfg.Paths {
			if path == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)) {
				return true
			}
		}
		return false
	}
	maxAge := strconv.Itoa(int(corsMaxAge.Seconds()))
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			origin := r.Header.Get("Origin")
			if !covered(r.URL.Path) {
				next.ServeHTTP(w, r)
				return
			}
			h := w.Header()
			h.Add("Vary", "Origin")
			if origin == "" || sameOrigin(r, origin) || !allowed(r, origin) {
				next.ServeHTTP(w, r)
				return
			}
			h.Set("Access-Control-Allow-Origin", origin)
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Add("Vary", "Access-Control-Request-Method")
				h.Add("Vary", "Access-Control-Request-Headers")
				h.Set("Access-Control-Allow-Methods", corsAllowMethods)
				h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
				h.Set("Access-Control-Max-Age", maxAge)
				if holder, ok := r.Context().Value(routeKey{}).(*routeHolder); ok {
					holder.template = RoutePreflight // no route runs
				}
				w.WriteHeader(http.StatusNoContent)
				return
			}
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
			next.ServeHTTP(w, r)
		})
	}
}

// sameOrigin reports whether origin names the host the request was sent
// to, which needs no CORS.
func sameOrigin(r *http.Request, origin string) bool {
	_, host, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(host, r.Host)
}
