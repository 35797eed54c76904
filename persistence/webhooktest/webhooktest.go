// Package webhooktest is a partner's webhook endpoint for the tests of
// the deliveries: an HTTP server that verifies every request it gets with
// the Standard Webhooks reference library, under each of its secrets, and
// keeps them.
package webhooktest

import (
	"crypto/rand"
	"crypto/tls"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"salesplatform/persistence/webhookclient"
)

// NewSecret is a fresh endpoint secret (whsec_ and 32 random bytes).
func NewSecret(tb testing.TB) string {
	tb.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	return webhookclient.SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// Received is one request a receiver got, with the reference library's
// verdict under each of its secrets, in their order.
type Received struct {
	At     time.Time
	Header http.Header
	Body   []byte
	Errs   []error
}

// Answer answers the request number n (from 0) of a receiver.
type Answer func(n int, w http.ResponseWriter, r *http.Request)

// Receiver is the endpoint: its URL receives the deliveries.
type Receiver struct {
	URL string
	// TLS trusts the certificate of a receiver started by NewTLS (its
	// name is example.com); nil for one started by New.
	TLS       *tls.Config
	verifiers []*standardwebhooks.Webhook

	mu     sync.Mutex
	answer Answer
	got    []Received
}

// New starts a receiver over HTTP knowing secrets, answering 200 "ok"
// until told otherwise (Answering); it stops at the test's end.
func New(tb testing.TB, secrets ...string) *Receiver {
	tb.Helper()
	rc := newReceiver(tb, secrets)
	srv := httptest.NewServer(http.HandlerFunc(rc.serve))
	tb.Cleanup(srv.Close)
	rc.URL = srv.URL
	return rc
}

// NewTLS is New over HTTPS.
func NewTLS(tb testing.TB, secrets ...string) *Receiver {
	tb.Helper()
	rc := newReceiver(tb, secrets)
	srv := httptest.NewTLSServer(http.HandlerFunc(rc.serve))
	tb.Cleanup(srv.Close)
	rc.URL, rc.TLS = srv.URL, srv.Client().Transport.(*http.Transport).TLSClientConfig
	return rc
}

func newReceiver(tb testing.TB, secrets []string) *Receiver {
	tb.Helper()
	rc := &Receiver{}
	for _, s := range secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			tb.Fatal(err)
		}
		rc.verifiers = append(rc.verifiers, wh)
	}
	return rc
}

// Answering makes answer (nil: 200 "ok") answer the requests to come.
func (rc *Receiver) Answering(answer Answer) *Receiver {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.answer = answer
	return rc
}

// Status answers code with body.
func Status(code int, body string) Answer {
	return func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

func (rc *Receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	g := Received{At: time.Now(), Header: r.Header.Clone(), Body: body}
	for _, v := range rc.verifiers {
		g.Errs = append(g.Errs, v.Verify(body, r.Header))
	}
	rc.mu.Lock()
	n, answer := len(rc.got), rc.answer
	rc.got = append(rc.got, g)
	rc.mu.Unlock()
	if answer == nil {
		_, _ = io.WriteString(w, "ok")
		return
	}
	answer(n, w, r)
}

// Requests returns the requests received so far, in order.
func (rc *Receiver) Requests() []Received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Received(nil), rc.got...)
}
