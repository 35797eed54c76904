package mailer

import "crypto/tls"

// WithTLSConfig is s with the TLS configuration of a test's server.
func (s *SMTP) WithTLSConfig(c *tls.Config) *SMTP {
	s.tlsConfig = c
	return s
}
