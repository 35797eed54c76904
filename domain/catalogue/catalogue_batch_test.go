package catalogue_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// Batch reads answer in key order, give nothing for keys outside the
// catalogue, and cut each parent's list to the same page window.

func TestPartnersByID(t *testing.T) {
	t.Parallel()
	f := newPartnerCatalogFixture(t)
	ids := []int64{f.outside.ID, f.network.ID, f.market.ID, f.inactive.ID, f.active.ID, 999999}
	names := func(t *testing.T, ctx context.Context) []string {
		t.Helper()
		got, err := f.svc.PartnersByID(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(ids) {
			t.Fatalf("%d results for %d keys", len(got), len(ids))
		}
		out := make([]string, len(got))
		for i, p := range got {
			if p != nil {
				out[i] = p.Name
			}
		}
		return out
	}

	t.Run("OKMarketplaceSelfAndListed", func(t *testing.T) {
		// In key order; the marketplace itself, and its listed partners
		// only: not the inactive one, not the outsider.
		want := []string{"", "Network", "Market", "", "Active", ""}
		if got := names(t, f.as(f.market)); !reflect.DeepEqual(got, want) {
			t.Errorf("names = %q, want %q", got, want)
		}
	})
	t.Run("OKPartnerSeesItself", func(t *testing.T) {
		want := []string{"", "", "", "", "Active", ""}
		if got := names(t, f.as(f.active)); !reflect.DeepEqual(got, want) {
			t.Errorf("names = %q, want %q", got, want)
		}
	})
	t.Run("OKLabelsLoaded", func(t *testing.T) {
		ctx := context.Background()
		for _, name := range []string{"B", "A"} {
			if err := f.store.AddPartnerLabel(ctx, &catalogue.PartnerLabel{PartnerID: f.network.ID, Name: name, LogoURL: "https://x/" + name}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := f.svc.PartnersByID(f.as(f.market), []int64{f.network.ID})
		if err != nil || len(got[0].Labels) != 2 || got[0].Labels[0].Name != "B" {
			t.Errorf("labels = %+v, %v; want B then A", got[0].Labels, err)
		}
	})
	t.Run("ErrScope", func(t *testing.T) {
		_, err := f.svc.PartnersByID(domain.WithPartnerDomain(context.Background(), "nowhere.example.com"), ids)
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, err = f.svc.PartnersByID(context.Background(), ids)
		dbtest.WantCode(t, err, domain.CodeInvalid)
	})
}

func TestBoxOffersAndImages(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	ctx := context.Background()
	partners := db.Stores().Partners
	store := persistence.BoxStores(raw).Boxes
	svc := catalogue.NewBoxService(persistence.NewUnitOfWork(raw, persistence.BoxStores))
	market := &domain.Partner{Name: "Market", SiteDomain: "market.example.com", IsMarketplace: true, Status: domain.PartnerStatusActive}
	rival := &domain.Partner{Name: "Rival", SiteDomain: "rival.example.com", IsMarketplace: true, Status: domain.PartnerStatusActive}
	shop := &domain.Partner{Name: "Shop", SiteDomain: "shop.example.com", Status: domain.PartnerStatusActive}
	for _, p := range []*domain.Partner{market, rival, shop} {
		if err := partners.CreatePartner(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	box := func(owner *domain.Partner, active bool, offers int, images ...string) *catalogue.Box {
		b := &catalogue.Box{MarketplaceID: owner.ID, IsActive: active, Price: decimal.RequireFromString("1"), Images: images}
		if err := store.CreateBox(ctx, b); err != nil {
			t.Fatal(err)
		}
		for range offers {
			for _, status := range []string{catalogue.BoxOfferStatusValidated, catalogue.BoxOfferStatusDraft} {
				if err := store.CreateBoxOffer(ctx, &catalogue.BoxOffer{BoxID: b.ID, PartnerID: shop.ID, Status: status}); err != nil {
					t.Fatal(err)
				}
			}
		}
		return b
	}
	five, one, none := box(market, true, 5, "b.jpg", "a.jpg"), box(market, true, 1), box(market, true, 0)
	inactive, rivals := box(market, false, 2, "i.jpg"), box(rival, true, 2, "r.jpg")
	inMarket := domain.WithPartnerDomain(ctx, market.SiteDomain)
	ids := []int64{rivals.ID, five.ID, none.ID, one.ID, inactive.ID}

	shape := func(t *testing.T, ctx context.Context, page domain.PageRequest) [][2]int {
		t.Helper()
		pages, err := svc.BoxOffers(ctx, ids, page)
		if err != nil {
			t.Fatal(err)
		}
		out := make([][2]int, len(pages))
		for i, p := range pages {
			for _, o := range p.Items {
				if o.BoxID != ids[i] || o.Status != catalogue.BoxOfferStatusValidated {
					t.Errorf("box %d got offer %+v", ids[i], o)
				}
			}
			if p.Request != page {
				t.Errorf("page request %+v, want %+v", p.Request, page)
			}
			out[i] = [2]int{len(p.Items), p.Count} // items in the window, whole list
		}
		return out
	}

	t.Run("OKWindows", func(t *testing.T) {
		for page, want := range map[domain.PageRequest][][2]int{
			{Number: 1, Size: 2}:  {{0, 0}, {2, 5}, {0, 0}, {1, 1}, {0, 0}},
			{Number: 3, Size: 2}:  {{0, 0}, {1, 5}, {0, 0}, {0, 1}, {0, 0}},
			{Number: 9, Size: 2}:  {{0, 0}, {0, 5}, {0, 0}, {0, 1}, {0, 0}}, // past the end: empty, counted
			{Number: 1, Size: 20}: {{0, 0}, {5, 5}, {0, 0}, {1, 1}, {0, 0}},
		} {
			if got := shape(t, inMarket, page); !reflect.DeepEqual(got, want) {
				t.Errorf("%+v: (items, count) = %v, want %v", page, got, want)
			}
		}
	})
	t.Run("OKOrderByID", func(t *testing.T) {
		pages, err := svc.BoxOffers(inMarket, []int64{five.ID}, domain.PageRequest{Number: 2, Size: 2})
		if err != nil {
			t.Fatal(err)
		}
		all, _ := svc.BoxOffers(inMarket, []int64{five.ID}, domain.PageRequest{Number: 1, Size: 20})
		if got := pages[0].Items; len(got) != 2 || got[0].ID != all[0].Items[2].ID || got[1].ID != all[0].Items[3].ID ||
			all[0].Items[0].ID >= all[0].Items[1].ID {
			t.Errorf("page 2 = %+v of %+v", got, all[0].Items)
		}
	})
	t.Run("OKNotAMarketplace", func(t *testing.T) {
		want := [][2]int{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}
		if got := shape(t, domain.WithPartnerDomain(ctx, shop.SiteDomain), domain.PageRequest{Number: 1, Size: 20}); !reflect.DeepEqual(got, want) {
			t.Errorf("(items, count) = %v, want %v", got, want)
		}
	})
	t.Run("OKImages", func(t *testing.T) {
		got, err := svc.BoxImages(inMarket, ids)
		want := [][]string{{}, {"b.jpg", "a.jpg"}, {}, {}, {}}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("images = %q, %v; want %q", got, err, want)
		}
	})
	t.Run("ErrScope", func(t *testing.T) {
		_, err := svc.BoxOffers(domain.WithPartnerDomain(ctx, "nowhere.example.com"), ids, domain.PageRequest{Number: 1, Size: 1})
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, err = svc.BoxImages(ctx, ids)
		dbtest.WantCode(t, err, domain.CodeInvalid)
	})
}

func TestWorkshopBatches(t *testing.T) {
	t.Parallel()
	f := newWorkshopFixture(t)
	theme := f.theme(t)
	a, b, others := f.workshop(t, f.shop, theme), f.workshop(t, f.shop), f.workshop(t, f.other)
	for i := range 3 {
		f.session(t, a, bookingSoon.Add(time.Duration(3-i)*time.Hour), i) // later ones first
	}
	f.session(t, a, bookingPast, 5) // started: not listed
	f.session(t, others, bookingSoon, 5)
	ids := []int64{others.ID, b.ID, a.ID}

	t.Run("OKWorkshopsByID", func(t *testing.T) {
		got, err := f.svc.WorkshopsByID(f.asShop, ids)
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != nil || got[1].Workshop.ID != b.ID || got[2].Workshop.ID != a.ID {
			t.Fatalf("workshops = %+v", got)
		}
		w := got[2]
		if w.Category.CurrencyCode != "EUR" || w.Category.PriceFormatted["fr"] == "" || len(w.Workshop.Themes) != 1 ||
			w.Workshop.Themes[0].ID != theme || len(w.Sessions) != 0 {
			t.Errorf("workshop = %+v, category %+v", w.Workshop, w.Category)
		}
	})
	t.Run("OKSessionPages", func(t *testing.T) {
		pages, err := f.svc.SessionsOfWorkshops(f.asShop, ids, domain.PageRequest{Number: 1, Size: 2})
		if err != nil {
			t.Fatal(err)
		}
		if pages[0].Count != 0 || len(pages[0].Items) != 0 || pages[1].Count != 0 || pages[2].Count != 3 || len(pages[2].Items) != 2 {
			t.Fatalf("pages = %+v %+v %+v", pages[0], pages[1], pages[2])
		}
		s := pages[2].Items
		if !s[0].StartingAt.Before(s[1].StartingAt) || s[0].WorkshopID != a.ID || s[0].FunnelLink == "" || s[0].StartFormatted["fr"] == "" {
			t.Errorf("sessions = %+v", s)
		}
	})
	t.Run("ErrScope", func(t *testing.T) {
		_, err := f.svc.WorkshopsByID(context.Background(), ids)
		dbtest.WantCode(t, err, domain.CodeInvalid)
		_, err = f.svc.SessionsOfWorkshops(domain.WithPartnerDomain(context.Background(), "nowhere.example.com"), ids, domain.PageRequest{Number: 1, Size: 1})
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})
}

func TestEventBatches(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t)
	a, b, others := f.event(t, f.shop, "30", "12.5"), f.event(t, f.shop), f.event(t, f.other, "1")
	f.slot(t, a, bookingSoon.Add(2*time.Hour), 0) // sold out: still an upcoming slot
	first := f.slot(t, a, bookingSoon, 3)
	f.slot(t, a, bookingPast, 3)
	f.slot(t, others, bookingSoon, 3)
	ids := []int64{a.ID, others.ID, b.ID}

	t.Run("OKEventsByID", func(t *testing.T) {
		got, err := f.svc.EventsByID(f.asShop, ids)
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Event.ID != a.ID || got[1] != nil || got[2].Event.ID != b.ID {
			t.Fatalf("events = %+v", got)
		}
		if !got[0].LowestPrice.Equal(decimal.RequireFromString("12.5")) || len(got[0].Formulas) != 2 || len(got[0].Slots) != 0 ||
			got[2].LowestPrice != nil {
			t.Errorf("views = %+v, %+v", got[0], got[2])
		}
	})
	t.Run("OKSlotPages", func(t *testing.T) {
		pages, err := f.svc.SlotsOfEvents(f.asShop, ids, domain.PageRequest{Number: 1, Size: 1})
		if err != nil {
			t.Fatal(err)
		}
		if pages[0].Count != 2 || len(pages[0].Items) != 1 || pages[0].Items[0].ID != first || pages[1].Count != 0 || pages[2].Count != 0 {
			t.Fatalf("pages = %+v %+v %+v", pages[0], pages[1], pages[2])
		}
		if s := pages[0].Items[0]; s.FunnelLink != "https://shop.example.com/events/"+bookingID(a.ID)+"/booking/?slot="+bookingID(first) {
			t.Errorf("funnel link = %q", s.FunnelLink)
		}
		pages, err = f.svc.SlotsOfEvents(f.asShop, ids, domain.PageRequest{Number: 2, Size: 1})
		if err != nil || pages[0].Items[0].AvailablePlaces != 0 {
			t.Errorf("page 2 = %+v, %v; want the sold-out slot", pages[0], err)
		}
	})
}
