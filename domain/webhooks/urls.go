package webhooks

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// Resolver finds the addresses of a host name; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Messages of the URL rule.
const (
	msgURLScheme     = "Enter an https URL (http only for an allowed network)."
	msgURLHost       = "Enter a URL with a host name."
	msgURLUnresolved = "The host name of this URL could not be resolved."
	msgURLForbidden  = "This URL points to a loopback, private, link-local or otherwise reserved address."
	msgURLCredential = "A URL may not hold a user name or password."
)

// Ranges outside the public internet besides those netip.Addr names
// (loopback, private, link-local, unspecified, multicast): they lead
// inside a network, embed an address that may, or lead nowhere public.
var reservedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),     // this network
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT (often the cloud's internal network)
	netip.MustParsePrefix("192.0.0.0/24"),  // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"), // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),   // reserved, and broadcast
	netip.MustParsePrefix("64:ff9b::/96"),  // NAT64: embeds any IPv4 address
	netip.MustParsePrefix("2002::/16"),     // 6to4: embeds any IPv4 address
}

// URLRule decides which URLs an endpoint may have: https to a public
// address, or http and https to an address in Allowed (the deployment's
// WEBHOOK_ALLOWED_NETWORKS). Every address a host name resolves to is
// checked, so a name cannot hide a private address among public ones.
type URLRule struct {
	Resolver Resolver
	Allowed  []netip.Prefix
}

// ParseAllowedNetworks reads a comma-separated list of CIDRs ("" is
// none).
func ParseAllowedNetworks(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("allowed networks: %w", err)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// Check returns "" when raw (already an absolute URL of bounded length)
// may be an endpoint's URL, else the message refusing it.
func (r URLRule) Check(ctx context.Context, raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return msgURLScheme
	}
	if u.User != nil {
		return msgURLCredential
	}
	host := u.Hostname()
	if host == "" {
		return msgURLHost
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else if addrs, err = r.Resolver.LookupNetIP(ctx, "ip", host); err != nil || len(addrs) == 0 {
		return msgURLUnresolved
	}
	for _, a := range addrs {
		a = a.Unmap()
		switch {
		case r.allowed(a):
		case reserved(a):
			return msgURLForbidden
		case u.Scheme != "https":
			return msgURLScheme
		}
	}
	return ""
}

func (r URLRule) allowed(a netip.Addr) bool { return InNetworks(a, r.Allowed) }

// InNetworks reports whether a is in one of networks.
func InNetworks(a netip.Addr, networks []netip.Prefix) bool {
	for _, p := range networks {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Reachable reports whether a delivery may connect to a: a public address,
// or one in allowed (the rule of URLRule, for the address a delivery
// dials).
func Reachable(a netip.Addr, allowed []netip.Prefix) bool {
	return a.IsValid() && (InNetworks(a, allowed) || !reserved(a))
}

// reserved reports an address outside the public internet.
func reserved(a netip.Addr) bool {
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return true
	}
	for _, p := range reservedPrefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
