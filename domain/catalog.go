package domain

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"
)

type partnerDomainKey struct{}

// partnerDomain is a request's X-Partner-Domain and, once looked up, its
// partner: a GraphQL request reads the scope once per loader batch, and the
// answer cannot change within the request.
type partnerDomain struct {
	domain  string
	once    sync.Once
	partner *Partner
	err     error
}

// WithPartnerDomain records the X-Partner-Domain of a catalogue request: the
// site domain of the partner whose catalogue is read.
func WithPartnerDomain(ctx context.Context, domain string) context.Context {
	return context.WithValue(ctx, partnerDomainKey{}, &partnerDomain{domain: strings.ToLower(strings.TrimSpace(domain))})
}

// MsgPartnerRequired answers a catalogue operation that needs a partner when
// the request names none.
const MsgPartnerRequired = "This operation needs a partner: send the X-Partner-Domain header or authenticate as a partner."

// CatalogPartner is the tenant of a catalogue read: the partner named by
// X-Partner-Domain, else the authenticated caller's partner. Catalogue reads
// need no token.
// Errors: CodeNotFound for an unknown domain; the caller's authentication
// error for a rejected token; CodeInvalid (MsgPartnerRequired) when the
// request names no partner.
func CatalogPartner(ctx context.Context, partners PartnerStore) (*Partner, error) {
	if p, ok := ctx.Value(catalogPartnerKey{}).(*Partner); ok {
		return p, nil
	}
	if err := RefusedToken(ctx); err != nil {
		return nil, err
	}
	if d, _ := ctx.Value(partnerDomainKey{}).(*partnerDomain); d != nil && d.domain != "" {
		d.once.Do(func() {
			d.partner, d.err = partners.FindPartnerBySiteDomain(ctx, d.domain)
			if IsCode(d.err, CodeNotFound) {
				d.err = &Error{Code: CodeNotFound, Message: MsgNotFound}
			}
		})
		return d.partner, d.err
	}
	c, _ := CallerFrom(ctx)
	if c == nil || c.Partner == nil {
		return nil, &Error{Code: CodeInvalid, Message: MsgPartnerRequired}
	}
	return c.Partner, nil
}

// RefusedToken is the authentication error of a request that sent a token
// and had it refused; nil when it sent none or a good one. Public
// operations need no token, but a wrong one is 401 there too, whatever
// else the request names, as the legacy service authenticated every view.
func RefusedToken(ctx context.Context) error {
	_, err := CallerFrom(ctx)
	var e *Error
	if errors.As(err, &e) && e.Code == CodeUnauthenticated && e.Message == MsgNotAuthenticated {
		return nil
	}
	return err
}

// CatalogPartnerZone is CatalogPartner with the time zone the partner's
// catalogue shows dates in.
func CatalogPartnerZone(ctx context.Context, partners PartnerStore) (*Partner, *time.Location, error) {
	p, err := CatalogPartner(ctx, partners)
	if err != nil {
		return nil, nil, err
	}
	loc, err := p.Location()
	if err != nil {
		return nil, nil, err
	}
	return p, loc, nil
}

type catalogPartnerKey struct{}

// AsCatalogOf returns a context whose catalogue partner is p: an admin
// operation reads back what it wrote as the catalogue shows it. Only this
// package sets it.
func AsCatalogOf(ctx context.Context, p *Partner) context.Context {
	return context.WithValue(ctx, catalogPartnerKey{}, p)
}

// PartnerPathRoot prefixes the pages this service serves for a partner
// without a site domain: /p/{partner uuid}/….
const PartnerPathRoot = "/p/"

// PurchaseSite is where the partner's booking funnel lives: its own site
// when it has a domain, else the relative path of its pages on this service
// (the service's public address is not known here).
func PurchaseSite(p *Partner) string {
	if p.SiteDomain != "" {
		return "https://" + p.SiteDomain
	}
	return PartnerPathRoot + p.UUID.String()
}
