package middleware_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/rest/middleware"
)

func TestObserve(t *testing.T) {
	var logs bytes.Buffer
	h := middleware.Observe(slog.New(slog.NewJSONHandler(&logs, nil)))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panic" {
			panic("boom")
		}
		middleware.LoggerFrom(r.Context()).Info("inside")
		w.WriteHeader(http.StatusTeapot)
	}))

	t.Run("OKKeepsASaneRequestID", func(t *testing.T) {
		logs.Reset()
		req := httptest.NewRequest("GET", "/x", nil)
		req.Header.Set("X-Request-Id", "abc-123")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Header().Get("X-Request-Id") != "abc-123" || rec.Code != http.StatusTeapot {
			t.Errorf("%d, id %q", rec.Code, rec.Header().Get("X-Request-Id"))
		}
		// The handler's logger and the access line both carry the id.
		if strings.Count(logs.String(), `"request_id":"abc-123"`) != 2 || !strings.Contains(logs.String(), `"status":418`) {
			t.Errorf("log:\n%s", &logs)
		}
	})

	t.Run("OKReplacesAnUnsafeRequestID", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/x", nil)
		req.Header.Set("X-Request-Id", "bad id\n")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if id := rec.Header().Get("X-Request-Id"); len(id) != 36 {
			t.Errorf("id %q, want a new UUID", id)
		}
	})

	t.Run("ErrPanicIsALogged500", func(t *testing.T) {
		logs.Reset()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/panic", nil))
		if rec.Code != 500 || strings.TrimSpace(rec.Body.String()) != `{"detail": "A server error occurred."}` {
			t.Errorf("%d %s", rec.Code, rec.Body)
		}
		if !strings.Contains(logs.String(), `"level":"ERROR","msg":"panic"`) {
			t.Errorf("log:\n%s", &logs)
		}
	})
}

// authenticator accepts one key.
type authenticator struct{ key string }

func (a authenticator) Authenticate(_ context.Context, key string) (*domain.Caller, error) {
	if key != a.key {
		return nil, &domain.Error{Code: domain.CodeUnauthenticated, Message: domain.MsgInvalidToken}
	}
	return &domain.Caller{User: &domain.User{Username: "shop"}}, nil
}

func TestAuthenticate(t *testing.T) {
	var got struct {
		caller *domain.Caller
		err    error
		addr   string
	}
	h := middleware.Authenticate(authenticator{key: "good"}, nil, middleware.ClientIPs{})(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		got.caller, got.err = domain.CallerFrom(r.Context())
		got.addr = domain.ClientAddr(r.Context())
	}))
	for name, tc := range map[string]struct{ header, caller, msg string }{
		"OKToken":              {"Token good", "shop", ""},
		"OKSchemeInAnyCase":    {"tOkEn good", "shop", ""},
		"OKOtherSchemeIgnored": {"Bearer good", "", domain.MsgNotAuthenticated},
		"ErrNoHeader":          {"", "", domain.MsgNotAuthenticated},
		"ErrWrongKey":          {"Token bad", "", domain.MsgInvalidToken},
		"ErrNoKey":             {"Token", "", "Invalid token header. No credentials provided."},
		"ErrSpacesInKey":       {"Token a b", "", "Invalid token header. Token string should not contain spaces."},
	} {
		t.Run(name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/", nil)
			req.RemoteAddr = "192.0.2.7:5555"
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			h.ServeHTTP(httptest.NewRecorder(), req)
			switch {
			case tc.caller != "" && (got.err != nil || got.caller.User.Username != tc.caller):
				t.Errorf("caller %+v, %v", got.caller, got.err)
			case tc.caller == "" && (got.err == nil || got.err.(*domain.Error).Message != tc.msg):
				t.Errorf("error %v, want %q", got.err, tc.msg)
			}
			if got.addr != "192.0.2.7" {
				t.Errorf("client address %q", got.addr)
			}
		})
	}
}
