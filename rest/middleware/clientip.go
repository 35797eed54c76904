package middleware

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ClientIPs tells the client's address of a request, for login
// throttling: the peer's, unless the peer is a trusted proxy (TRUSTED_PROXIES),
// in which case the proxy's X-Forwarded-For is read from its right end, past
// every trusted address, to the first one that is not: the address the
// outermost trusted proxy saw. A client can prepend anything to the header,
// but not change what a trusted proxy appended.
type ClientIPs struct {
	trusted []netip.Prefix
}

// ParseTrustedProxies reads a comma-separated list of addresses and CIDR
// ranges (10.0.0.0/8, 127.0.0.1); empty trusts no proxy.
func ParseTrustedProxies(s string) (ClientIPs, error) {
	var c ClientIPs
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		p, err := netip.ParsePrefix(item)
		if err != nil {
			a, aerr := netip.ParseAddr(item)
			if aerr != nil {
				return c, fmt.Errorf("%q is neither an IP address nor a CIDR range", item)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		c.trusted = append(c.trusted, p.Masked())
	}
	return c, nil
}

// Of is the client's address of r.
func (c ClientIPs) Of(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if !c.isTrusted(host) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop := strings.TrimSpace(hops[i])
		if hop == "" {
			continue
		}
		if !c.isTrusted(hop) {
			if _, err := netip.ParseAddr(hop); err != nil {
				return host // not an address: the header was not a proxy's
			}
			return hop
		}
		host = hop
	}
	return host
}

func (c ClientIPs) isTrusted(addr string) bool {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return false
	}
	return c.Trusts(a)
}

// Trusts tells whether a is a trusted proxy's address.
func (c ClientIPs) Trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range c.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
