package webhookclient_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"salesplatform/persistence/webhookclient"
	"salesplatform/persistence/webhooktest"
)

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}

// resolver answers fixed addresses per host and counts its look-ups.
type resolver struct {
	hosts   map[string][]netip.Addr
	lookups atomic.Int32
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.lookups.Add(1)
	a, ok := r.hosts[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	return append([]netip.Addr(nil), a...), nil
}

func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

func delivery(url string, secrets ...string) webhookclient.Delivery {
	return webhookclient.Delivery{
		URL:       url,
		ID:        "msg_2b1f0c9e",
		Timestamp: time.Now(),
		Body:      []byte(`{"type":"order.paid","timestamp":"2026-11-28T12:00:00Z","data":{"id":7}}`),
		Secrets:   secrets,
	}
}

func TestSendVerifiedByReferenceLibrary(t *testing.T) {
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback})

	d := delivery(rc.URL+"/hooks/", secret)
	res := c.Send(context.Background(), d)
	if res.Err != nil || res.StatusCode != 200 || res.Outcome != webhookclient.Succeeded || res.Excerpt != "ok" {
		t.Fatalf("result = %+v", res)
	}
	if res.Duration <= 0 {
		t.Errorf("duration = %v", res.Duration)
	}
	got := rc.Requests()
	if len(got) != 1 {
		t.Fatalf("%d requests, want 1", len(got))
	}
	g := got[0]
	if g.Errs[0] != nil {
		t.Errorf("reference Verify: %v", g.Errs[0])
	}
	if string(g.Body) != string(d.Body) {
		t.Errorf("body = %s", g.Body)
	}
	for h, want := range map[string]string{
		"webhook-id":   d.ID,
		"Content-Type": "application/json",
		"User-Agent":   webhookclient.UserAgent,
	} {
		if g.Header.Get(h) != want {
			t.Errorf("%s = %q, want %q", h, g.Header.Get(h), want)
		}
	}

	// Another attempt of the same event keeps its webhook-id and verifies
	// under its new timestamp.
	d.Timestamp = d.Timestamp.Add(5 * time.Second)
	if res := c.Send(context.Background(), d); res.Outcome != webhookclient.Succeeded {
		t.Fatalf("second attempt: %+v", res)
	}
	got = rc.Requests()
	if len(got) != 2 || got[1].Header.Get("webhook-id") != d.ID || got[1].Errs[0] != nil {
		t.Fatalf("second attempt received %+v", got[1:])
	}
}

func TestSendDuringRotationVerifiesUnderEitherSecret(t *testing.T) {
	oldSecret, newSecret, stranger := webhooktest.NewSecret(t), webhooktest.NewSecret(t), webhooktest.NewSecret(t)
	rc := webhooktest.New(t, oldSecret, newSecret, stranger)
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback})

	res := c.Send(context.Background(), delivery(rc.URL, newSecret, oldSecret))
	if res.Outcome != webhookclient.Succeeded {
		t.Fatalf("result = %+v", res)
	}
	g := rc.Requests()[0]
	if sigs := strings.Fields(g.Header.Get("webhook-signature")); len(sigs) != 2 {
		t.Errorf("webhook-signature = %q, want two signatures", g.Header.Get("webhook-signature"))
	}
	if g.Errs[0] != nil || g.Errs[1] != nil {
		t.Errorf("old secret: %v, new secret: %v", g.Errs[0], g.Errs[1])
	}
	if !errors.Is(g.Errs[2], standardwebhooks.ErrNoMatchingSignature) {
		t.Errorf("an unrelated secret verified: %v", g.Errs[2])
	}

	// Once the old secret expires, only the new one verifies.
	c.Send(context.Background(), delivery(rc.URL, newSecret))
	g = rc.Requests()[1]
	if g.Errs[1] != nil || !errors.Is(g.Errs[0], standardwebhooks.ErrNoMatchingSignature) {
		t.Errorf("after rotation: old %v, new %v", g.Errs[0], g.Errs[1])
	}
}

func TestSendHTTPSVerifiesHostName(t *testing.T) {
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.NewTLS(t, secret).Answering(webhooktest.Status(http.StatusNoContent, ""))
	port := rc.URL[strings.LastIndex(rc.URL, ":"):]

	// The test certificate names example.com; dialled at the address
	// resolved, the handshake still checks the URL's host.
	res := webhookclient.New(webhookclient.Config{
		AllowedNetworks: loopback,
		Resolver:        &resolver{hosts: map[string][]netip.Addr{"example.com": addrs("127.0.0.1"), "other.test": addrs("127.0.0.1")}},
	}).WithTLSConfig(rc.TLS)
	if r := res.Send(context.Background(), delivery("https://example.com"+port+"/h", secret)); r.StatusCode != 204 || r.Outcome != webhookclient.Succeeded {
		t.Fatalf("result = %+v", r)
	}
	if g := rc.Requests(); len(g) != 1 || g[0].Errs[0] != nil {
		t.Fatalf("received %+v", g)
	}
	if r := res.Send(context.Background(), delivery("https://other.test"+port+"/h", secret)); r.Err == nil {
		t.Fatalf("a certificate for another name was accepted: %+v", r)
	}
}

func TestSendRefusesNonPublicAddresses(t *testing.T) {
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	port := rc.URL[strings.LastIndex(rc.URL, ":"):]
	res := &resolver{hosts: map[string][]netip.Addr{
		"internal.test":  addrs("127.0.0.1"),
		"mixed.test":     addrs("203.0.113.7", "10.0.0.5"),
		"metadata.test":  addrs("169.254.169.254"),
		"mapped.test":    addrs("::ffff:127.0.0.1"),
		"nat64.test":     addrs("64:ff9b::a00:1"),
		"plainhttp.test": addrs("203.0.113.7"),
	}}
	c := webhookclient.New(webhookclient.Config{Resolver: res})

	for _, tc := range []struct {
		url  string
		want error
	}{
		{rc.URL, webhookclient.ErrForbiddenAddress}, // loopback, the receiver's own
		{"http://internal.test" + port, webhookclient.ErrForbiddenAddress},
		{"https://[::1]/", webhookclient.ErrForbiddenAddress},
		{"https://10.1.2.3/", webhookclient.ErrForbiddenAddress},
		{"https://172.16.5.4/", webhookclient.ErrForbiddenAddress},
		{"https://192.168.1.1/", webhookclient.ErrForbiddenAddress},
		{"https://[fd00::1]/", webhookclient.ErrForbiddenAddress},
		{"https://169.254.169.254/latest/meta-data/", webhookclient.ErrForbiddenAddress},
		{"https://metadata.test/", webhookclient.ErrForbiddenAddress},
		{"https://[fe80::1]/", webhookclient.ErrForbiddenAddress},
		{"https://0.0.0.0/", webhookclient.ErrForbiddenAddress},
		{"https://100.64.0.1/", webhookclient.ErrForbiddenAddress},
		{"https://224.0.0.1/", webhookclient.ErrForbiddenAddress},
		{"https://mapped.test/", webhookclient.ErrForbiddenAddress},
		{"https://nat64.test/", webhookclient.ErrForbiddenAddress},
		{"https://mixed.test/", webhookclient.ErrForbiddenAddress},
		{"http://plainhttp.test/", webhookclient.ErrInsecureScheme},
		{"ftp://plainhttp.test/", webhookclient.ErrInsecureScheme},
		{"https:///nohost", webhookclient.ErrBadURL},
		{"https://user:pw@plainhttp.test/", webhookclient.ErrBadURL},
	} {
		r := c.Send(context.Background(), delivery(tc.url, secret))
		if !errors.Is(r.Err, tc.want) || r.StatusCode != 0 || r.Outcome != webhookclient.Retry {
			t.Errorf("%s: %+v, want %v", tc.url, r, tc.want)
		}
	}
	if n := len(rc.Requests()); n != 0 {
		t.Errorf("the receiver got %d requests, want none", n)
	}
}

func TestSendAllowedNetworks(t *testing.T) {
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	port := rc.URL[strings.LastIndex(rc.URL, ":"):]
	res := &resolver{hosts: map[string][]netip.Addr{"hooks.test": addrs("127.0.0.1")}}
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback, Resolver: res})

	r := c.Send(context.Background(), delivery("http://hooks.test"+port+"/in", secret))
	if r.Outcome != webhookclient.Succeeded {
		t.Fatalf("result = %+v", r)
	}
	// Resolved once: the connection goes to the address checked, not to
	// what a second look-up might answer.
	if n := res.lookups.Load(); n != 1 {
		t.Errorf("%d look-ups, want 1", n)
	}
	if g := rc.Requests(); len(g) != 1 || g[0].Errs[0] != nil {
		t.Fatalf("received %+v", g)
	}
}

func TestDialerRefusesNonPublicSockets(t *testing.T) {
	open := webhookclient.New(webhookclient.Config{})
	allowing := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback})
	for _, tc := range []struct {
		addr          string
		open, allowed bool
	}{
		{"127.0.0.1:80", false, true},
		{"10.0.0.1:443", false, false},
		{"169.254.169.254:80", false, false},
		{"[::1]:443", false, false},
		{"203.0.113.7:443", true, true},
	} {
		ap := netip.MustParseAddrPort(tc.addr)
		if got := open.Dialable(ap); got != tc.open {
			t.Errorf("%s without allowed networks: %v, want %v", tc.addr, got, tc.open)
		}
		if got := allowing.Dialable(ap); got != tc.allowed {
			t.Errorf("%s with 127.0.0.0/8 allowed: %v, want %v", tc.addr, got, tc.allowed)
		}
	}
}

func TestSendDoesNotFollowRedirects(t *testing.T) {
	secret := webhooktest.NewSecret(t)
	target := webhooktest.New(t, secret)
	redirector := webhooktest.New(t, secret)
	redirector.Answering(func(_ int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/internal", http.StatusTemporaryRedirect)
	})
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback})

	r := c.Send(context.Background(), delivery(redirector.URL, secret))
	if r.StatusCode != http.StatusTemporaryRedirect || r.Outcome != webhookclient.Retry || r.Err != nil {
		t.Fatalf("result = %+v", r)
	}
	if n := len(target.Requests()); n != 0 {
		t.Errorf("the redirect's target got %d requests", n)
	}
}

func TestSendTimesOut(t *testing.T) {
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	rc.Answering(func(_ int, w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback, Timeout: 200 * time.Millisecond})

	r := c.Send(context.Background(), delivery(rc.URL, secret))
	if !errors.Is(r.Err, context.DeadlineExceeded) || r.StatusCode != 0 || r.Outcome != webhookclient.Retry {
		t.Fatalf("result = %+v", r)
	}
	if r.Duration < 200*time.Millisecond || r.Duration > 2*time.Second {
		t.Errorf("duration = %v, want about 200ms", r.Duration)
	}
}

func TestSendKeepsAnExcerptOfTheAnswer(t *testing.T) {
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	rc.Answering(func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, "\x00"+strings.Repeat("e", 10000))
	})
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback})

	r := c.Send(context.Background(), delivery(rc.URL, secret))
	if r.StatusCode != 500 || r.Outcome != webhookclient.Retry || r.Err != nil {
		t.Fatalf("result = %+v", r)
	}
	if want := strings.Repeat("e", webhookclient.ExcerptSize-1); r.Excerpt != want {
		t.Errorf("excerpt of %d bytes, want the first 4 KB less its NUL", len(r.Excerpt))
	}

	// Invalid UTF-8 becomes replacement characters, 3 bytes each: the
	// excerpt still keeps within 4 KB, whole characters.
	rc.Answering(func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, strings.Repeat("a\xff", 5000))
	})
	r = c.Send(context.Background(), delivery(rc.URL, secret))
	if len(r.Excerpt) > webhookclient.ExcerptSize || !utf8.ValidString(r.Excerpt) || !strings.HasSuffix(r.Excerpt, "a\uFFFD") {
		t.Errorf("excerpt of invalid UTF-8: %d bytes, ends %q", len(r.Excerpt), r.Excerpt[len(r.Excerpt)-8:])
	}
}

func TestSendGoneDisables(t *testing.T) {
	secret := webhooktest.NewSecret(t)
	rc := webhooktest.New(t, secret)
	rc.Answering(func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusGone) })
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback})
	if r := c.Send(context.Background(), delivery(rc.URL, secret)); r.StatusCode != 410 || r.Outcome != webhookclient.Disable {
		t.Fatalf("result = %+v", r)
	}
}

func TestClassify(t *testing.T) {
	for status, want := range map[int]webhookclient.Outcome{
		0: webhookclient.Retry, 200: webhookclient.Succeeded, 202: webhookclient.Succeeded,
		299: webhookclient.Succeeded, 301: webhookclient.Retry, 304: webhookclient.Retry,
		400: webhookclient.Retry, 404: webhookclient.Retry, 410: webhookclient.Disable,
		429: webhookclient.Retry, 500: webhookclient.Retry, 503: webhookclient.Retry,
	} {
		if got := webhookclient.Classify(status); got != want {
			t.Errorf("Classify(%d) = %v, want %v", status, got, want)
		}
	}
}

func TestSendRefusesABadSecret(t *testing.T) {
	rc := webhooktest.New(t)
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback})
	for _, s := range [][]string{nil, {"not-a-secret"}, {"whsec_!!!"}, {"whsec_"}} {
		if r := c.Send(context.Background(), delivery(rc.URL, s...)); !errors.Is(r.Err, webhookclient.ErrBadSecret) {
			t.Errorf("secrets %q: %+v", s, r)
		}
	}
	if n := len(rc.Requests()); n != 0 {
		t.Errorf("%d requests sent without a valid secret", n)
	}
}

func TestNextAttempt(t *testing.T) {
	want := []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour}
	var total time.Duration
	for i, w := range want {
		d, ok := webhookclient.NextAttempt(i + 1)
		if !ok || d != w {
			t.Errorf("NextAttempt(%d) = %v, %v; want %v", i+1, d, ok, w)
		}
		total += d
	}
	if d, ok := webhookclient.NextAttempt(0); !ok || d != 0 {
		t.Errorf("first attempt after %v, %v; want at once", d, ok)
	}
	if _, ok := webhookclient.NextAttempt(len(want) + 1); ok {
		t.Errorf("an attempt after the %dth", len(want)+1)
	}
	if wantTotal := 27*time.Hour + 35*time.Minute + 5*time.Second; total != wantTotal {
		t.Errorf("schedule spans %v, want %v", total, wantTotal)
	}
}

func TestCheckIsTheAddressDialled(t *testing.T) {
	res := &resolver{hosts: map[string][]netip.Addr{
		"public.test":   addrs("203.0.113.7", "2001:db8::7"),
		"internal.test": addrs("127.0.0.2"),
	}}
	c := webhookclient.New(webhookclient.Config{AllowedNetworks: loopback, Resolver: res})
	for url, want := range map[string]string{
		"https://public.test/h":      "203.0.113.7:443",
		"https://public.test:8443/h": "203.0.113.7:8443",
		"http://internal.test/h":     "127.0.0.2:80",
		"https://[::ffff:127.0.0.3]": "127.0.0.3:443",
	} {
		_, ap, err := c.Check(context.Background(), url)
		if err != nil || ap.String() != want {
			t.Errorf("Check(%s) = %v, %v; want %s", url, ap, err, want)
		}
	}
	for _, url := range []string{"https://public.test:0/", "https://public.test:70000/", "https://unknown.test/"} {
		if _, _, err := c.Check(context.Background(), url); err == nil {
			t.Errorf("Check(%s) passed", url)
		}
	}
}
