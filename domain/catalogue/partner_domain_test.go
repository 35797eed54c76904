package catalogue_test

import (
	"context"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/persistence/dbtest"
)

// With a partner domain cache, X-Partner-Domain's partner is read once per
// cache lifetime: a change to the partner reaches the catalogue when the
// entry lapses. Each request gets its own copy, and unknown domains are
// never kept.
func TestPartnerDomainCache(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	ctx := context.Background()
	partners := db.Stores().Partners
	const ttl = 200 * time.Millisecond
	cache := domain.NewPartnerDomainCache(ttl)
	scope := func(host string) (*domain.Partner, error) {
		return domain.CatalogPartner(cache.WithPartnerDomain(ctx, host), partners)
	}

	_, err := scope("late.example.com")
	dbtest.WantCode(t, err, domain.CodeNotFound)
	late := &domain.Partner{Name: "Late", Status: domain.PartnerStatusActive, SiteDomain: "late.example.com", Currency: "EUR"}
	if err := partners.CreatePartner(ctx, late); err != nil {
		t.Fatal(err)
	}
	p, err := scope("LATE.example.com ")
	if err != nil || p.ID != late.ID {
		t.Fatalf("a domain unknown at first, then created: %+v, %v", p, err)
	}
	p.Name = "changed by a request"

	if _, err := raw.ExecContext(ctx, "UPDATE partners SET currency = 'USD' WHERE id = ?", late.ID); err != nil {
		t.Fatal(err)
	}
	again, err := scope("late.example.com")
	if err != nil || again.Currency != "EUR" || again.Name != "Late" || again == p {
		t.Errorf("within the cache's lifetime: %+v, %v; want a fresh copy of the partner as first read", again, err)
	}
	// Without the cache, the change is seen at once.
	if p, err := domain.CatalogPartner(domain.WithPartnerDomain(ctx, "late.example.com"), partners); err != nil || p.Currency != "USD" {
		t.Errorf("uncached: %+v, %v", p, err)
	}
	time.Sleep(ttl + 100*time.Millisecond)
	if p, err := scope("late.example.com"); err != nil || p.Currency != "USD" {
		t.Errorf("after the cache's lifetime: %+v, %v; want the change", p, err)
	}
}
