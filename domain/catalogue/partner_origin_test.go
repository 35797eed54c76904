package catalogue_test

import (
	"context"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestIsPartnerSiteOrigin(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	ctx := context.Background()
	partners := db.Stores().Partners
	for _, d := range []string{"shop.example.com", "front.localhost"} {
		if err := partners.CreatePartner(ctx, &domain.Partner{Name: d, Status: domain.PartnerStatusActive, SiteDomain: d}); err != nil {
			t.Fatal(err)
		}
	}
	svc := catalogue.NewPartnerCatalogService(persistence.NewPartnerCatalogStore(raw), partners)
	for origin, want := range map[string]bool{
		"https://shop.example.com":       true,
		"https://SHOP.example.com":       true,
		"https://shop.example.com:443":   true,
		"http://front.localhost:5173":    true,
		"https://front.localhost:8443":   true,
		"http://shop.example.com":        false, // not https
		"https://shop.example.com:8443":  false, // not the site's port
		"https://other.example.com":      false, // no partner
		"https://www.shop.example.com":   false, // not the domain itself
		"https://shop.example.com/":      false, // not an origin
		"https://shop.example.com/path":  false,
		"https://u@shop.example.com":     false,
		"ftp://shop.example.com":         false,
		"http://localhost:3000":          false, // dev host, but no partner's
		"null":                           false,
		"":                               false,
		"shop.example.com":               false,
		"https://shop.example.com?x=1":   false,
		"https://shop.example.com#frag":  false,
		"https://shop.example.com.evil.": false,
	} {
		got, err := svc.IsPartnerSiteOrigin(ctx, origin)
		if err != nil || got != want {
			t.Errorf("IsPartnerSiteOrigin(%q) = %v, %v; want %v", origin, got, err, want)
		}
	}
}
