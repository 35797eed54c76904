package domain

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
)

type partnerDomainKey struct{}

// partnerDomain is a request's X-Partner-Domain and, once looked up, its
// partner: a GraphQL request reads the scope once per loader batch, and the
// answer cannot change within the request.
type partnerDomain struct {
	domain  string
	cache   *PartnerDomainCache // nil: read the store
	once    sync.Once
	partner *Partner
	err     error
}

// WithPartnerDomain records the X-Partner-Domain of a catalogue request: the
// site domain of the partner whose catalogue is read.
func WithPartnerDomain(ctx context.Context, domain string) context.Context {
	return (*PartnerDomainCache)(nil).WithPartnerDomain(ctx, domain)
}

// PartnerDomainCache keeps the partners of recently named X-Partner-Domain
// domains for a short time: a catalogue request whose domain was seen
// within it reads its scope without a statement. A partner's change (of
// domain, status, currency or time zone) therefore reaches its catalogue
// within that time, not at once (docs/DECISIONS.md, "Partner domain
// cache"). Each process keeps its own; unknown domains are not kept.
type PartnerDomainCache struct {
	partners *expirable.LRU[string, Partner]
}

// Partner domain cache sizes.
const (
	// PartnerDomainCacheTTL is how long a domain's partner is kept.
	PartnerDomainCacheTTL = 30 * time.Second
	// maxCachedDomains bounds the cache; the least recently named
	// domains are forgotten first.
	maxCachedDomains = 10_000
)

// NewPartnerDomainCache returns an empty cache whose partners live ttl.
func NewPartnerDomainCache(ttl time.Duration) *PartnerDomainCache {
	return &PartnerDomainCache{partners: expirable.NewLRU[string, Partner](maxCachedDomains, nil, ttl)}
}

// WithPartnerDomain is the package's WithPartnerDomain, the partner looked
// up in c first (a nil c reads the store every time).
func (c *PartnerDomainCache) WithPartnerDomain(ctx context.Context, domain string) context.Context {
	return context.WithValue(ctx, partnerDomainKey{}, &partnerDomain{domain: strings.ToLower(strings.TrimSpace(domain)), cache: c})
}

// lookup reads d's partner from its cache, else from partners.
func (d *partnerDomain) lookup(ctx context.Context, partners PartnerStore) (*Partner, error) {
	if d.cache != nil {
		if p, ok := d.cache.partners.Get(d.domain); ok {
			return &p, nil // a copy: the request may not change the cache's
		}
	}
	p, err := partners.FindPartnerBySiteDomain(ctx, d.domain)
	if err != nil {
		if IsCode(err, CodeNotFound) {
			err = &Error{Code: CodeNotFound, Message: MsgNotFound}
		}
		return nil, err
	}
	if d.cache != nil {
		d.cache.partners.Add(d.domain, *p)
	}
	return p, nil
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
		d.once.Do(func() { d.partner, d.err = d.lookup(ctx, partners) })
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
