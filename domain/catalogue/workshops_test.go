package catalogue_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

type workshopFixture struct {
	svc             *catalogue.WorkshopService
	store           *persistence.WorkshopStore
	shop, other     *domain.Partner
	asShop, asOther context.Context
}

func newWorkshopFixture(t *testing.T) *workshopFixture {
	t.Helper()
	db, raw := dbtest.NewDatabase(t)
	f := &workshopFixture{store: persistence.NewWorkshopStore(raw)}
	f.shop, f.other, f.asShop, f.asOther = bookingPartners(t, db)
	f.svc = catalogue.NewWorkshopService(persistence.NewUnitOfWork(raw, persistence.WorkshopStores))
	return f
}

func (f *workshopFixture) category(t *testing.T, p *domain.Partner) *catalogue.WorkshopCategory {
	t.Helper()
	c := &catalogue.WorkshopCategory{PartnerID: p.ID, Price: decimal.RequireFromString("25")}
	if err := f.store.CreateWorkshopCategory(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *workshopFixture) theme(t *testing.T) int64 {
	t.Helper()
	tag := &catalogue.WorkshopTag{Name: domain.Localized{"fr": "Thème"}}
	if err := f.store.CreateWorkshopTag(context.Background(), catalogue.WorkshopTheme, tag); err != nil {
		t.Fatal(err)
	}
	return tag.ID
}

func (f *workshopFixture) workshop(t *testing.T, p *domain.Partner, themes ...int64) *catalogue.Workshop {
	t.Helper()
	w := &catalogue.Workshop{PartnerID: p.ID, CategoryID: f.category(t, p).ID, ThemeIDs: themes}
	if err := f.store.CreateWorkshop(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	return w
}

func (f *workshopFixture) session(t *testing.T, w *catalogue.Workshop, start time.Time, places int) int64 {
	t.Helper()
	s := &catalogue.WorkshopSession{WorkshopID: w.ID, StartingAt: start, EndingAt: start.Add(2 * time.Hour),
		MinCapacity: 1, MaxCapacity: 10, AvailablePlaces: places}
	if err := f.store.AddWorkshopSession(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

func sessionIDs(items []*catalogue.WorkshopSessionView) []int64 {
	ids := make([]int64, len(items))
	for i, s := range items {
		ids[i] = s.ID
	}
	return ids
}

func TestCreateWorkshop(t *testing.T) {
	t.Parallel()
	f := newWorkshopFixture(t)

	t.Run("ErrOtherPartnersCategory", func(t *testing.T) {
		w := &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: f.category(t, f.other).ID}
		e := dbtest.WantCode(t, f.store.CreateWorkshop(context.Background(), w), domain.CodeInvalid)
		if len(e.Fields) != 1 || e.Fields[0].Path[0] != "category" {
			t.Errorf("fields = %+v", e.Fields)
		}
	})

	t.Run("ErrUnknownTheme", func(t *testing.T) {
		w := &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: f.category(t, f.shop).ID, ThemeIDs: []int64{987654}}
		e := dbtest.WantCode(t, f.store.CreateWorkshop(context.Background(), w), domain.CodeInvalid)
		if len(e.Fields) != 1 || e.Fields[0].Path[0] != "themes" {
			t.Errorf("fields = %+v", e.Fields)
		}
		// Nothing of it was kept.
		page, err := f.svc.WorkshopThemes(f.asShop, domain.PageRequest{Number: 1, Size: 20})
		if err != nil || page.Count != 0 {
			t.Errorf("themes = %+v, %v", page, err)
		}
	})
}

func TestWorkshopSessions(t *testing.T) {
	t.Parallel()
	f := newWorkshopFixture(t)
	a, b := f.workshop(t, f.shop), f.workshop(t, f.shop)
	f.session(t, a, bookingPast, 4)
	a2 := f.session(t, a, bookingSoon.Add(2*time.Hour), 0) // full sessions are listed
	b1 := f.session(t, b, bookingSoon.Add(time.Hour), 3)
	a1 := f.session(t, a, bookingSoon, 3)
	foreign := f.workshop(t, f.other)
	f.session(t, foreign, bookingSoon, 1)
	first := domain.PageRequest{Number: 1, Size: 20}

	t.Run("OKUpcomingOfThePartnerByStart", func(t *testing.T) {
		page, err := f.svc.WorkshopSessions(f.asShop, catalogue.WorkshopSessionQuery{Page: first})
		if err != nil {
			t.Fatal(err)
		}
		if ids := sessionIDs(page.Items); !slices.Equal(ids, []int64{a1, b1, a2}) || page.Count != 3 {
			t.Errorf("sessions = %v (count %d)", ids, page.Count)
		}
	})

	t.Run("OKOneWorkshop", func(t *testing.T) {
		page, err := f.svc.WorkshopSessions(f.asShop, catalogue.WorkshopSessionQuery{Workshop: " " + bookingID(a.ID), Page: first})
		if err != nil {
			t.Fatal(err)
		}
		if ids := sessionIDs(page.Items); !slices.Equal(ids, []int64{a1, a2}) {
			t.Errorf("sessions = %v", ids)
		}
	})

	t.Run("OKOtherPartnersWorkshopIsEmpty", func(t *testing.T) {
		page, err := f.svc.WorkshopSessions(f.asShop, catalogue.WorkshopSessionQuery{Workshop: bookingID(foreign.ID), Page: first})
		if err != nil || page.Count != 0 || len(page.Items) != 0 {
			t.Errorf("page = %+v, %v", page, err)
		}
	})

	t.Run("ErrWorkshopNotANumber", func(t *testing.T) {
		_, err := f.svc.WorkshopSessions(f.asShop, catalogue.WorkshopSessionQuery{Workshop: "1.5", Page: first})
		e := dbtest.WantCode(t, err, domain.CodeInvalid)
		if len(e.Fields) != 1 || e.Fields[0].Path[0] != "workshop" || e.Fields[0].Message != "Enter a number." {
			t.Errorf("fields = %+v", e.Fields)
		}
	})
}

func TestWorkshop(t *testing.T) {
	t.Parallel()
	f := newWorkshopFixture(t)
	t1, t2 := f.theme(t), f.theme(t)
	w := f.workshop(t, f.shop, t2, t1)
	f.session(t, w, bookingPast, 4)
	later := f.session(t, w, bookingSoon.Add(time.Hour), 0)
	soon := f.session(t, w, bookingSoon, 5)
	foreign := f.workshop(t, f.other)

	t.Run("OKUpcomingSessionsAndThemesByID", func(t *testing.T) {
		v, err := f.svc.Workshop(f.asShop, bookingID(w.ID))
		if err != nil {
			t.Fatal(err)
		}
		if ids := sessionIDs(v.Sessions); !slices.Equal(ids, []int64{soon, later}) {
			t.Errorf("sessions = %v", ids)
		}
		if len(v.Workshop.Themes) != 2 || v.Workshop.Themes[0].ID != t1 || v.Workshop.Themes[1].ID != t2 {
			t.Errorf("themes = %+v", v.Workshop.Themes)
		}
		if v.Category.CurrencyCode != "EUR" || v.Category.PriceFormatted["fr"] == "" || v.Workshop.Level != nil {
			t.Errorf("view = %+v", v)
		}
		if want := "https://shop.example.com/workshops/" + bookingID(w.ID) + "/booking/?session=" + bookingID(soon); v.Sessions[0].FunnelLink != want {
			t.Errorf("funnel_link = %q, want %q", v.Sessions[0].FunnelLink, want)
		}
	})

	t.Run("ErrOtherPartnersWorkshop", func(t *testing.T) {
		_, err := f.svc.Workshop(f.asShop, bookingID(foreign.ID))
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})

	t.Run("OKThemesOfThePartnerOnly", func(t *testing.T) {
		f.workshop(t, f.other, f.theme(t))
		page, err := f.svc.WorkshopThemes(f.asShop, domain.PageRequest{Number: 1, Size: 20})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 2 || page.Items[0].ID != t1 || page.Items[1].ID != t2 {
			t.Errorf("themes = %+v", page.Items)
		}
	})
}
