package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/persistence"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
)

// benchMarketplace fills a fresh database with a marketplace whose network
// has n described partners with two labels each, and returns the service's
// handler on it.
func benchMarketplace(b *testing.B, n int) (http.Handler, *bun.DB) {
	b.Helper()
	ctx := context.Background()
	dsn := dbtest.NewDSN(b)
	mustCreateUser(b, dsn, "--username", "market", "--password", "market-password",
		"--partner-name", "Market", "--partner-domain", "market.example.com", "--marketplace")
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	partners := persistence.NewDatabase(db).Stores().Partners
	store := persistence.NewPartnerCatalogStore(db)
	market, err := partners.FindPartnerBySiteDomain(ctx, "market.example.com")
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		p := &domain.Partner{Name: fmt.Sprintf("Partner %d", i), Status: domain.PartnerStatusActive}
		must(b, partners.CreatePartner(ctx, p))
		must(b, store.AddNetworkPartner(ctx, market.ID, p.ID))
		must(b, store.SavePartnerProfile(ctx, p.ID, &domain.PartnerProfile{
			Description: domain.Localized{"fr": "Une adresse", "en": "A place"},
			Region:      "Bretagne", Department: "Finistère", City: "Brest",
			Facilities:  domain.PartnerFacilities{Wifi: true},
			SocialLinks: map[string]string{"instagram": "https://instagram.example/p"},
		}))
		for _, label := range []string{"Label A", "Label B"} {
			must(b, store.AddPartnerLabel(ctx, &domain.PartnerLabel{PartnerID: p.ID, Name: label, LogoURL: "https://cdn.example.com/l.png"}))
		}
	}
	carts := cartstore.NewMemory(100)
	b.Cleanup(carts.Close)
	cfg := &config{CartTTL: time.Hour, PublicBaseURL: "http://api.test"}
	return newHandler(db, carts, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil))), db
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkPartnersList measures GET /api/v2/partners/ through the whole
// handler (middleware, routing, service, PostgreSQL, JSON) for a marketplace
// of 200 partners, at the default and the maximum page size.
func BenchmarkPartnersList(b *testing.B) {
	h, _ := benchMarketplace(b, 200)
	for _, size := range []int{20, 100} {
		b.Run(fmt.Sprintf("page_size=%d", size), func(b *testing.B) {
			url := fmt.Sprintf("/api/v2/partners/?page=2&page_size=%d", size)
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, url, nil)
				req.Header.Set("X-Partner-Domain", "market.example.com")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
