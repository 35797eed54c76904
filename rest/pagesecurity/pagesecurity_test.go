package pagesecurity

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

func TestCSP(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want string
	}{
		{Strict, "default-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"},
		{Policy{Script: []string{Self}, Style: []string{Self, UnsafeInline}, Connect: []string{Self, "https://api.example.test"},
			FormAction: []string{Self, "https://psp.example.test"}},
			"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self' https://api.example.test; " +
				"form-action 'self' https://psp.example.test; base-uri 'none'; frame-ancestors 'none'"},
	} {
		if got := c.p.CSP(); got != c.want {
			t.Errorf("CSP\n got %s\nwant %s", got, c.want)
		}
	}
	h := http.Header{}
	Strict.Set(h)
	if h.Get("Content-Type") != "text/html; charset=utf-8" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("Set: %v", h)
	}
}

func TestStyleHashes(t *testing.T) {
	// printf 'body { margin: 0; }' | openssl dgst -sha256 -binary | base64
	got := StyleHashes("<head><style>body { margin: 0; }</style></head><body><STYLE>p{}</STYLE>")
	if len(got) != 2 || got[0] != "'sha256-Pme0qVBbJGACcvHOa2d2xK4uveiPdlWdSipR9gLYAMQ='" {
		t.Errorf("StyleHashes = %v", got)
	}
}

// The safety net, over net/http's own server (which names an untyped
// answer from its first bytes).
func TestSafetyNet(t *testing.T) {
	strict := Strict.CSP()
	const page = "<!doctype html><html><body><p>Hello</p></body></html>"
	for _, c := range []struct {
		name    string
		method  string
		handler http.HandlerFunc
		status  int
		csp     string // "" when the answer must have none
	}{
		{"typed html", http.MethodGet, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, page)
		}, 200, strict},
		{"untyped html", http.MethodGet, func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, page)
		}, 200, strict},
		{"untyped html after its status", http.MethodGet, func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, page)
		}, 404, strict},
		{"html of HEAD, no body", http.MethodHead, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "TEXT/HTML")
		}, 200, strict},
		{"redirect body", http.MethodGet, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusSeeOther)
		}, 303, strict},
		{"page's own policy kept", http.MethodGet, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Security-Policy", "default-src 'self'")
			_, _ = io.WriteString(w, page)
		}, 200, "default-src 'self'"},
		{"json", http.MethodGet, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"detail": "<html>"}`)
		}, 200, ""},
		{"untyped text", http.MethodGet, func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			_, _ = io.WriteString(w, "plain words")
		}, 202, ""},
		{"no body", http.MethodGet, func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusNoContent)
		}, 204, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(SafetyNet(c.handler))
			defer srv.Close()
			req, _ := http.NewRequest(c.method, srv.URL, nil)
			res, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != c.status || res.Header.Get("Content-Security-Policy") != c.csp {
				t.Errorf("%d, CSP %q; want %d, %q", res.StatusCode, res.Header.Get("Content-Security-Policy"), c.status, c.csp)
			}
			html := c.csp != ""
			if (res.Header.Get("Referrer-Policy") == "no-referrer") != html || (res.Header.Get("X-Content-Type-Options") == "nosniff") != html {
				t.Errorf("headers %v", res.Header)
			}
		})
	}
}

// A flushed answer sends its headers decided.
func TestSafetyNetFlush(t *testing.T) {
	srv := httptest.NewServer(SafetyNet(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Error(err)
		}
		_, _ = io.WriteString(w, "<p>later</p>")
	})))
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if !slices.Equal(res.Header.Values("Content-Security-Policy"), []string{Strict.CSP()}) {
		t.Errorf("headers %v", res.Header)
	}
}

// What the safety net adds to every answer: here a JSON one, which must
// come out untouched (the handler's status, body and one header).
func BenchmarkSafetyNet(b *testing.B) {
	json := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"detail": "Not found."}`)
	})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	for name, h := range map[string]http.Handler{"bare": json, "net": SafetyNet(json)} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || rec.Body.String() != `{"detail": "Not found."}` || len(rec.Header()) != 1 {
					b.Fatalf("%d %v %s", rec.Code, rec.Header(), rec.Body)
				}
			}
		})
	}
}
