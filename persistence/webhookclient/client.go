package webhookclient

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"salesplatform/domain/webhooks"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// DefaultTimeout bounds one attempt, from dialling to the answer's excerpt.
const DefaultTimeout = 10 * time.Second

// ExcerptSize is how much of an answer's body an attempt keeps.
const ExcerptSize = 4 << 10

// UserAgent names the sender to receivers.
const UserAgent = "salesplatform-webhooks/1.0"

var (
	// ErrForbiddenAddress is a URL whose host resolves to an address the
	// service must not call (loopback, private, link-local, ...) outside
	// the allowed networks.
	ErrForbiddenAddress = errors.New("webhookclient: address not allowed")
	// ErrInsecureScheme is an http URL outside the allowed networks, or a
	// scheme other than http and https.
	ErrInsecureScheme = errors.New("webhookclient: https is required")
	// ErrBadURL is a URL without a host.
	ErrBadURL = errors.New("webhookclient: invalid URL")
)

// Resolver looks a host's addresses up; net.DefaultResolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Config is a Client's settings; the zero Config is usable.
type Config struct {
	// AllowedNetworks may be called although otherwise refused, and over
	// plain http (WEBHOOK_ALLOWED_NETWORKS).
	AllowedNetworks []netip.Prefix
	// Timeout bounds one attempt; 0 is DefaultTimeout.
	Timeout time.Duration
	// Resolver; nil is net.DefaultResolver.
	Resolver Resolver
}

// Client sends deliveries. It is safe for concurrent use.
type Client struct {
	allowed   []netip.Prefix
	timeout   time.Duration
	resolver  Resolver
	tlsConfig *tls.Config
}

// New is a Client with cfg.
func New(cfg Config) *Client {
	c := &Client{allowed: cfg.AllowedNetworks, timeout: cfg.Timeout, resolver: cfg.Resolver}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.resolver == nil {
		c.resolver = net.DefaultResolver
	}
	return c
}

// Delivery is one attempt's message.
type Delivery struct {
	URL string
	// ID is the event's id: the same on every attempt.
	ID        string
	Timestamp time.Time
	Body      []byte
	// Secrets are the endpoint's live secrets (two during a rotation).
	Secrets []string
}

// Outcome is what an attempt means for the delivery and its endpoint.
type Outcome int

const (
	// Retry: no 2xx answer (another status, a redirect, a timeout, a
	// refused or failed connection); tried again per RetrySchedule.
	Retry Outcome = iota
	// Succeeded: a 2xx answer.
	Succeeded
	// Disable: 410 Gone, the receiver asks for no more deliveries.
	Disable
)

// Classify is the outcome of an attempt that got status (0 for none).
func Classify(status int) Outcome {
	switch {
	case status >= 200 && status < 300:
		return Succeeded
	case status == http.StatusGone:
		return Disable
	default:
		return Retry
	}
}

// Result is what one attempt did, as kept for the partner to see.
type Result struct {
	// StatusCode is 0 when no answer came.
	StatusCode int
	Duration   time.Duration
	// Excerpt is the first ExcerptSize bytes of the answer's body, as valid
	// UTF-8 without NUL so that it can be stored as text.
	Excerpt string
	// Err is why no answer came (nil when one did, whatever its status).
	Err     error
	Outcome Outcome
}

// Send makes one attempt of d: it checks where d.URL leads, connects only to
// the address checked, POSTs the signed body without following redirects,
// and reads at most ExcerptSize bytes of the answer.
func (c *Client) Send(ctx context.Context, d Delivery) Result {
	start := time.Now()
	res := c.send(ctx, d)
	res.Duration = time.Since(start)
	res.Outcome = Classify(res.StatusCode)
	return res
}

func (c *Client) send(ctx context.Context, d Delivery) Result {
	sig, err := Signatures(d.Secrets, d.ID, d.Timestamp, d.Body)
	if err != nil {
		return Result{Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	u, addr, err := c.Check(ctx, d.URL)
	if err != nil {
		return Result{Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(d.Body))
	if err != nil {
		return Result{Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("webhook-id", d.ID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(d.Timestamp.Unix(), 10))
	req.Header.Set("webhook-signature", sig)

	resp, err := c.httpClient(addr).Do(req)
	if err != nil {
		return Result{Err: err}
	}
	defer resp.Body.Close()
	// The status came: a body cut short by the deadline does not undo it,
	// so a read error only shortens the excerpt.
	b, _ := io.ReadAll(io.LimitReader(resp.Body, ExcerptSize))
	excerpt := strings.ReplaceAll(strings.ToValidUTF8(string(b), "\uFFFD"), "\x00", "")
	// A replacement character is 3 bytes: invalid bytes can make the
	// excerpt longer than what was read.
	for len(excerpt) > ExcerptSize {
		_, size := utf8.DecodeLastRuneInString(excerpt)
		excerpt = excerpt[:len(excerpt)-size]
	}
	return Result{StatusCode: resp.StatusCode, Excerpt: excerpt}
}

// Check resolves rawURL's host and is the URL and the one address a delivery
// may connect to, or why it may not: an address outside the allowed
// networks that is not public, or http outside them. Endpoints' URLs are
// checked with it at creation too.
func (c *Client) Check(ctx context.Context, rawURL string) (*url.URL, netip.AddrPort, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" || u.User != nil {
		return nil, netip.AddrPort{}, ErrBadURL
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, netip.AddrPort{}, ErrInsecureScheme
	}
	port := uint16(443)
	if u.Scheme == "http" {
		port = 80
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return nil, netip.AddrPort{}, ErrBadURL
		}
		port = uint16(n)
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(u.Hostname()); err == nil {
		addrs = []netip.Addr{a}
	} else if addrs, err = c.resolver.LookupNetIP(ctx, "ip", u.Hostname()); err != nil {
		return nil, netip.AddrPort{}, err
	}
	if len(addrs) == 0 {
		return nil, netip.AddrPort{}, ErrForbiddenAddress
	}
	// Every address must pass: a name with one public and one private
	// address would otherwise reach the private one on another attempt.
	for i, a := range addrs {
		addrs[i] = a.Unmap()
		if !c.permitted(addrs[i]) {
			return nil, netip.AddrPort{}, ErrForbiddenAddress
		}
		if u.Scheme == "http" && !c.inAllowed(addrs[i]) {
			return nil, netip.AddrPort{}, ErrInsecureScheme
		}
	}
	return u, netip.AddrPortFrom(addrs[0], port), nil
}

// httpClient dials only addr whatever the request's host, so a name
// resolved again between the check and the connection cannot lead
// elsewhere; TLS still verifies the URL's host name.
func (c *Client) httpClient(addr netip.AddrPort) *http.Client {
	dialer := &net.Dialer{Control: c.control}
	tr := &http.Transport{
		// Never an environment proxy: it would connect on our behalf to
		// an address not checked here.
		Proxy: nil,
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, network, addr.String())
		},
		TLSClientConfig:        c.tlsConfig,
		ForceAttemptHTTP2:      true,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// control refuses a connection to an address not permitted, checked on the
// socket about to connect.
func (c *Client) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !c.permitted(ap.Addr().Unmap()) {
		return ErrForbiddenAddress
	}
	return nil
}

func (c *Client) inAllowed(a netip.Addr) bool { return webhooks.InNetworks(a, c.allowed) }

// permitted: public unicast addresses, and anything in the allowed
// networks, by the endpoints' own rule.
func (c *Client) permitted(a netip.Addr) bool { return webhooks.Reachable(a, c.allowed) }
