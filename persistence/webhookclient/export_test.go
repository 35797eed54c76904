package webhookclient

import (
	"crypto/tls"
	"net/netip"
)

// WithTLSConfig is c trusting a test server's certificate.
func (c *Client) WithTLSConfig(t *tls.Config) *Client {
	c.tlsConfig = t
	return c
}

// Dialable is whether c's dialer lets a socket connect to addr.
func (c *Client) Dialable(addr netip.AddrPort) bool {
	return c.control("tcp", addr.String(), nil) == nil
}
