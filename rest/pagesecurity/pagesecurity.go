// Package pagesecurity gives every HTML page the service serves the same
// security headers: a Content-Security-Policy that allows nothing but what
// the page states (its Policy), no framing, no <base>, forms only where the
// page posts; Referrer-Policy: no-referrer (page URLs carry credentials:
// a payment request's code, a provider reference, a cart id);
// X-Content-Type-Options: nosniff.
//
// Pages call Policy.Set; SafetyNet, in front of the whole handler, gives
// the strict defaults to any HTML answer that set none (a page added
// later, net/http's redirect bodies).
//
// A leaf package (no project imports), so that rest, graph/playground and
// persistence/psp share it.
package pagesecurity

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"strings"
)

// Source words of a policy.
const (
	Self         = "'self'"
	UnsafeInline = "'unsafe-inline'" // inline styles a library injects at run time (Redoc)
	Data         = "data:"
	Blob         = "blob:"
)

// Policy is what a page needs beyond nothing: the sources of each kind it
// loads (none when empty) and where its forms post, redirects included
// (nowhere when empty).
type Policy struct {
	Script, Style, Img, Font, Connect, Worker []string
	FormAction                                []string
}

// Strict is the policy of a page of text alone.
var Strict = Policy{}

var strictCSP = Strict.CSP()

// CSP is the Content-Security-Policy of p.
func (p Policy) CSP() string {
	var b strings.Builder
	b.WriteString("default-src 'none'")
	for _, d := range []struct {
		name    string
		sources []string
	}{
		{"script-src", p.Script}, {"style-src", p.Style}, {"img-src", p.Img},
		{"font-src", p.Font}, {"connect-src", p.Connect}, {"worker-src", p.Worker},
	} {
		if len(d.sources) > 0 {
			b.WriteString("; " + d.name + " " + strings.Join(d.sources, " "))
		}
	}
	// form-action, base-uri and frame-ancestors do not fall back to
	// default-src: each is stated.
	forms := "'none'"
	if len(p.FormAction) > 0 {
		forms = strings.Join(p.FormAction, " ")
	}
	b.WriteString("; form-action " + forms + "; base-uri 'none'; frame-ancestors 'none'")
	return b.String()
}

// Set makes h the headers of an HTML page under p: its Content-Type and
// the security headers.
func (p Policy) Set(h http.Header) {
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", p.CSP())
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
}

var styleElement = regexp.MustCompile(`(?is)<style>(.*?)</style>`)

// StyleHashes returns the 'sha256-…' sources of the <style> elements of a
// page's text (a template whose <style> holds no action, so that the page
// serves it as written): the page's own styles, and no injected one.
func StyleHashes(page string) []string {
	var out []string
	for _, m := range styleElement.FindAllStringSubmatch(page, -1) {
		sum := sha256.Sum256([]byte(m[1]))
		out = append(out, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	return out
}

// SafetyNet gives an HTML answer of next the headers it lacks: the Strict
// policy's CSP when it has none, Referrer-Policy, nosniff. Other answers
// pass untouched.
func SafetyNet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nw := &netWriter{ResponseWriter: w}
		next.ServeHTTP(nw, r)
		if !nw.decided {
			nw.decide(nw.pending) // a status without body, or no write at all (HEAD)
		}
	})
}

// netWriter adds the headers when the answer's type is known: at
// WriteHeader when the handler named it, else at the first Write, as
// net/http would name it from the first bytes.
type netWriter struct {
	http.ResponseWriter
	pending int // a status held until the first Write names the type
	decided bool
}

func (w *netWriter) WriteHeader(code int) {
	if w.decided || code < http.StatusOK { // informational answers pass
		w.ResponseWriter.WriteHeader(code)
		return
	}
	if _, typed := w.Header()["Content-Type"]; !typed {
		if w.pending == 0 {
			w.pending = code
		}
		return
	}
	w.decide(code)
}

func (w *netWriter) Write(b []byte) (int, error) {
	if !w.decided {
		if _, typed := w.Header()["Content-Type"]; !typed && len(b) > 0 && w.Header().Get("Transfer-Encoding") == "" {
			w.Header().Set("Content-Type", http.DetectContentType(b))
		}
		w.decide(w.pending)
	}
	return w.ResponseWriter.Write(b)
}

// Flush sends the headers, decided, before flushing.
func (w *netWriter) Flush() {
	if !w.decided {
		w.decide(w.pending)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *netWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// decide adds the missing headers to an HTML answer, then writes status
// (none when 0).
func (w *netWriter) decide(status int) {
	w.decided = true
	h := w.Header()
	if isHTML(h.Get("Content-Type")) {
		for name, value := range map[string]string{
			"Content-Security-Policy": strictCSP,
			"Referrer-Policy":         "no-referrer",
			"X-Content-Type-Options":  "nosniff",
		} {
			if h.Get(name) == "" {
				h.Set(name, value)
			}
		}
	}
	if status != 0 {
		w.ResponseWriter.WriteHeader(status)
	}
}

// isHTML reports whether a Content-Type is one browsers render as a page.
func isHTML(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "text/html" || mt == "application/xhtml+xml"
}
