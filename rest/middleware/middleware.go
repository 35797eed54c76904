// Package middleware is what every request goes through before it reaches
// REST or the graph: a request id and a logger carrying it, one access log
// line at INFO, a panic turned into a logged 500, and the token
// authentication and client address both surfaces read from the context.
package middleware

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"

	"salesplatform/domain"
)

type loggerKey struct{}

// requestLog is the request's logger: its request id, added to the base
// logger only when a handler asks for it (LoggerFrom), which few do.
type requestLog struct {
	base *slog.Logger
	id   string
}

// LoggerFrom returns the request's logger (with its request id), or the
// default logger outside a request.
func LoggerFrom(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*requestLog); ok {
		return l.base.With("request_id", l.id)
	}
	return slog.Default()
}

// statusRecorder remembers the status a handler wrote, for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Observe gives each request an id (the client's X-Request-Id when it sent a
// sane one), a logger carrying it, an access log line, and turns a panic into
// a logged 500 instead of a dropped connection.
func Observe(base *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id := r.Header.Get("X-Request-Id")
			if id == "" || len(id) > 128 || strings.ContainsFunc(id, func(c rune) bool { return c < 0x21 || c > 0x7e }) {
				id = uuid.NewString()
			}
			w.Header().Set("X-Request-Id", id)
			rec := &statusRecorder{ResponseWriter: w}
			start := time.Now()
			defer func() {
				if p := recover(); p != nil {
					if p == http.ErrAbortHandler {
						panic(p)
					}
					base.Error("panic", "request_id", id, "panic", p)
					if rec.status == 0 {
						rec.Header().Set("Content-Type", "application/json")
						rec.WriteHeader(http.StatusInternalServerError)
						_, _ = io.WriteString(rec, `{"detail": "A server error occurred."}`+"\n")
					}
				}
				base.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("request_id", id), slog.String("method", r.Method),
					slog.String("path", r.URL.Path), slog.Int("status", rec.status), slog.Int("bytes", rec.bytes),
					slog.Int64("duration_ms", time.Since(start).Milliseconds()), slog.String("remote", r.RemoteAddr))
			}()
			next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), loggerKey{}, &requestLog{base: base, id: id})))
		})
	}
}

// Authenticator resolves an API key to its caller.
type Authenticator interface {
	Authenticate(ctx context.Context, key string) (*domain.Caller, error)
}

// Authenticate reads `Authorization: Token <key>` and puts the caller, or
// the reason the credentials were refused, in the context, with the client's
// address for login throttling (as clients tells it) and the catalogue's
// X-Partner-Domain, whose partners domains keeps (nil: none). It refuses
// no request itself: the domain services decide what needs a caller, so
// REST and GraphQL, both behind it, answer alike. Other schemes are
// ignored, as DRF does.
func Authenticate(auth Authenticator, domains *domain.PartnerDomainCache, clients ClientIPs) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := domain.WithClientAddr(r.Context(), clients.Of(r))
			if d := r.Header.Get("X-Partner-Domain"); d != "" {
				ctx = domains.WithPartnerDomain(ctx, d)
			}
			scheme, key := authorization(r.Header.Get("Authorization"))
			if strings.EqualFold(scheme, "token") {
				var err error
				var caller *domain.Caller
				switch {
				case key == "":
					err = &domain.Error{Code: domain.CodeUnauthenticated, Message: "Invalid token header. No credentials provided."}
				case strings.ContainsFunc(key, unicode.IsSpace):
					err = &domain.Error{Code: domain.CodeUnauthenticated, Message: "Invalid token header. Token string should not contain spaces."}
				default:
					caller, err = auth.Authenticate(ctx, key)
				}
				if err != nil {
					ctx = domain.WithAuthError(ctx, err)
				} else {
					ctx = domain.WithCaller(ctx, caller)
				}
			}
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// authorization splits an Authorization header into its scheme and the
// rest, both trimmed (strings.Fields' split of it, without its
// allocation: the rest holds a space when the header had more than two
// words).
func authorization(h string) (scheme, rest string) {
	scheme, rest, _ = strings.Cut(strings.TrimSpace(h), " ")
	if i := strings.IndexFunc(scheme, unicode.IsSpace); i >= 0 {
		scheme, rest = scheme[:i], scheme[i:]+" "+rest
	}
	return scheme, strings.TrimSpace(rest)
}
