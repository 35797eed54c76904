package catalogue

import (
	"context"
	"net/url"
	"strings"

	"salesplatform/domain"
)

// IsPartnerSiteOrigin reports whether origin, a browser's Origin header, is
// the site of a partner: the site domain X-Partner-Domain names a partner
// by, served over https on the default port. Hosts under localhost (RFC 6761
// keeps them on the machine, as the demo's market.localhost) also match over
// http and on any port, for front-ends in development. Anything else (a
// path, user information, "null", another scheme) is not a partner's site.
// Like X-Partner-Domain, any partner with that site domain matches,
// whatever its status.
func (s *PartnerCatalogService) IsPartnerSiteOrigin(ctx context.Context, origin string) (bool, error) {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" ||
		strings.HasSuffix(origin, "/") || u.Opaque != "" {
		return false, nil
	}
	host := strings.ToLower(u.Hostname())
	dev := host == "localhost" || strings.HasSuffix(host, ".localhost")
	switch {
	case u.Scheme == "https" && (u.Port() == "" || u.Port() == "443"):
	case dev && (u.Scheme == "http" || u.Scheme == "https"):
	default:
		return false, nil
	}
	if _, err := s.partners.FindPartnerBySiteDomain(ctx, host); err != nil {
		if domain.IsCode(err, domain.CodeNotFound) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
