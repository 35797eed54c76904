package catalogue_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// bookingPartners creates two partners with site domains, shop.example.com
// and other.example.com, and returns a catalogue context for each.
func bookingPartners(t *testing.T, db *persistence.Database) (shop, other *domain.Partner, asShop, asOther context.Context) {
	t.Helper()
	mk := func(name, site string) *domain.Partner {
		p := &domain.Partner{Name: name, SiteDomain: site, Status: domain.PartnerStatusActive}
		if err := db.Stores().Partners.CreatePartner(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	shop, other = mk("Shop", "shop.example.com"), mk("Other", "other.example.com")
	return shop, other, domain.WithPartnerDomain(context.Background(), shop.SiteDomain),
		domain.WithPartnerDomain(context.Background(), other.SiteDomain)
}

var (
	bookingSoon = time.Now().Add(24 * time.Hour).Truncate(time.Second)
	bookingPast = time.Now().Add(-time.Hour).Truncate(time.Second)
)

type eventFixture struct {
	svc             *catalogue.EventService
	store           *persistence.EventStore
	shop, other     *domain.Partner
	asShop, asOther context.Context
}

func newEventFixture(t *testing.T) *eventFixture {
	t.Helper()
	db, raw := dbtest.NewDatabase(t)
	f := &eventFixture{store: persistence.NewEventStore(raw)}
	f.shop, f.other, f.asShop, f.asOther = bookingPartners(t, db)
	f.svc = catalogue.NewEventService(f.store, db.Stores().Partners)
	return f
}

func (f *eventFixture) event(t *testing.T, p *domain.Partner, prices ...string) *catalogue.Event {
	t.Helper()
	e := &catalogue.Event{PartnerID: p.ID, Name: domain.Localized{"fr": "Évènement"}}
	if err := f.store.CreateEvent(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	for _, price := range prices {
		fo := &catalogue.EventFormula{EventID: e.ID, Price: decimal.RequireFromString(price)}
		if err := f.store.AddEventFormula(context.Background(), fo); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (f *eventFixture) slot(t *testing.T, e *catalogue.Event, start time.Time, places int) int64 {
	t.Helper()
	s := &catalogue.EventSlot{EventID: e.ID, StartingAt: start, EndingAt: start.Add(time.Hour), AvailablePlaces: places}
	if err := f.store.AddEventSlot(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// listed returns the slot ids of the whole list, in order.
func (f *eventFixture) listed(t *testing.T, ctx context.Context) ([]int64, []*catalogue.EventSlotItem) {
	t.Helper()
	page, err := f.svc.EventSlots(ctx, domain.PageRequest{Number: 1, Size: domain.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(page.Items))
	for i, it := range page.Items {
		ids[i] = it.Slot.ID
	}
	return ids, page.Items
}

func TestEventSlots(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t)
	a := f.event(t, f.shop, "30", "12.5", "20")
	f.slot(t, a, bookingPast, 50)                       // started: not available
	f.slot(t, a, bookingSoon, 0)                        // full: not available
	a1 := f.slot(t, a, bookingSoon.Add(3*time.Hour), 5) // first available
	a2 := f.slot(t, a, bookingSoon.Add(2*time.Hour+3*time.Hour), 1)
	b := f.event(t, f.shop)
	b1 := f.slot(t, b, bookingSoon.Add(time.Hour), 2)
	// Same start as a1: the lower slot id comes first.
	c := f.event(t, f.shop, "7")
	c1 := f.slot(t, c, bookingSoon.Add(3*time.Hour), 9)
	empty := f.event(t, f.shop, "5")
	f.slot(t, empty, bookingPast, 3)
	foreign := f.event(t, f.other, "1")
	x1 := f.slot(t, foreign, bookingSoon, 1)

	t.Run("OKEachEventOnceByItsFirstAvailableSlot", func(t *testing.T) {
		ids, items := f.listed(t, f.asShop)
		if want := []int64{b1, a1, c1}; !slices.Equal(ids, want) {
			t.Fatalf("slots = %v, want %v", ids, want)
		}
		got := items[1]
		if got.SlotsCount != 2 || got.FormulasCount != 3 || got.LowestPrice == nil ||
			got.LowestPrice.String() != "12.5" || got.Slot.AvailablePlaces != 5 || got.CurrencyCode != "EUR" {
			t.Errorf("item = %+v", got)
		}
		if items[0].LowestPrice != nil || items[0].PriceFormatted != nil || items[0].FormulasCount != 0 {
			t.Errorf("event without formulas = %+v", items[0])
		}
	})

	t.Run("OKOtherPartner", func(t *testing.T) {
		if ids, _ := f.listed(t, f.asOther); !slices.Equal(ids, []int64{x1}) {
			t.Errorf("slots = %v", ids)
		}
	})

	t.Run("OKEverySlotWhenDisplayEventsPerSlots", func(t *testing.T) {
		if err := f.store.SaveEventSettings(context.Background(), f.shop.ID, catalogue.EventSettings{DisplayEventsPerSlots: true}); err != nil {
			t.Fatal(err)
		}
		defer f.store.SaveEventSettings(context.Background(), f.shop.ID, catalogue.EventSettings{})
		ids, items := f.listed(t, f.asShop)
		if want := []int64{b1, a1, c1, a2}; !slices.Equal(ids, want) {
			t.Fatalf("slots = %v, want %v", ids, want)
		}
		if items[3].SlotsCount != 2 {
			t.Errorf("slots_count = %d", items[3].SlotsCount)
		}
		// Other partners keep their own setting.
		if ids, _ := f.listed(t, f.asOther); !slices.Equal(ids, []int64{x1}) {
			t.Errorf("other partner's slots = %v", ids)
		}
	})

	t.Run("OKSettingsDefaultOff", func(t *testing.T) {
		s, err := f.store.FindEventSettings(context.Background(), f.other.ID)
		if err != nil || s.DisplayEventsPerSlots {
			t.Errorf("settings = %+v, %v", s, err)
		}
	})

	t.Run("ErrPagePastTheEnd", func(t *testing.T) {
		_, err := f.svc.EventSlots(f.asShop, domain.PageRequest{Number: 2, Size: 3})
		if e := dbtest.WantCode(t, err, domain.CodeNotFound); e.Message != domain.MsgInvalidPage {
			t.Errorf("message = %q", e.Message)
		}
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		_, err := f.svc.EventSlots(context.Background(), domain.PageRequest{Number: 1, Size: 20})
		dbtest.WantCode(t, err, domain.CodeInvalid)
	})
}

func TestEvent(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t)
	e := f.event(t, f.shop, "30", "12.5")
	f.slot(t, e, bookingPast, 4)
	full := f.slot(t, e, bookingSoon.Add(time.Hour), 0)
	first := f.slot(t, e, bookingSoon, 3)
	foreign := f.event(t, f.other)

	t.Run("OKUpcomingSlotsByStartFullOnesIncluded", func(t *testing.T) {
		v, err := f.svc.Event(f.asShop, bookingID(e.ID))
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, s := range v.Slots {
			ids = append(ids, s.ID)
		}
		if !slices.Equal(ids, []int64{first, full}) {
			t.Errorf("slots = %v", ids)
		}
		if v.LowestPrice == nil || v.LowestPrice.String() != "12.5" || v.LowestPriceFormatted["fr"] == "" || len(v.Formulas) != 2 {
			t.Errorf("view = %+v", v)
		}
		if v.Slots[0].FunnelLink != "https://shop.example.com/events/"+bookingID(e.ID)+"/booking/?slot="+bookingID(first) {
			t.Errorf("funnel_link = %q", v.Slots[0].FunnelLink)
		}
		if _, off := v.Slots[0].Start.Zone(); v.Slots[0].Start.Location().String() != "Europe/Paris" || off == 0 {
			t.Errorf("start %v is not in the partner's zone", v.Slots[0].Start)
		}
	})

	t.Run("ErrOtherPartnersEvent", func(t *testing.T) {
		_, err := f.svc.Event(f.asShop, bookingID(foreign.ID))
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})

	t.Run("ErrNotAnID", func(t *testing.T) {
		for _, id := range []string{"", "x", "-3", "1.0"} {
			_, err := f.svc.Event(f.asShop, id)
			dbtest.WantCode(t, err, domain.CodeNotFound)
		}
	})
}

// bookingID is an id as a URL path carries it.
func bookingID(id int64) string { return strconv.FormatInt(id, 10) }
