package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/l10n"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// bookingFixture is a running server and a pool on its database, with two
// partner accounts: shop (site domain shop.example.com, EUR, Europe/Paris)
// and other (no site domain).
type bookingFixture struct {
	*Server
	db                    *bun.DB
	shop, other           *domain.Partner
	shopToken, otherToken string
}

func newBookingFixture(t *testing.T) *bookingFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	f := &bookingFixture{
		shopToken:  CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop", "--partner-domain", "shop.example.com"),
		otherToken: CreateUser(t, dsn, "--username", "other", "--password", "other-password", "--partner-name", "Other"),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	f.shop = f.mustPartnerNamed(t, "Shop")
	f.other = f.mustPartnerNamed(t, "Other")
	f.Server = Serve(t, dsn)
	return f
}

func (f *bookingFixture) mustPartnerNamed(t *testing.T, name string) *domain.Partner {
	t.Helper()
	var id int64
	if err := f.db.NewRaw("SELECT id FROM partners WHERE name = ?", name).Scan(context.Background(), &id); err != nil {
		t.Fatalf("partner %q: %v", name, err)
	}
	p, err := persistence.NewDatabase(f.db).Stores().Partners.FindPartnerByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mustPartner creates a partner without an account.
func (f *bookingFixture) mustPartner(t *testing.T, p *domain.Partner) *domain.Partner {
	t.Helper()
	if p.Status == "" {
		p.Status = domain.PartnerStatusActive
	}
	if err := persistence.NewDatabase(f.db).Stores().Partners.CreatePartner(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p
}

// bookingLocalized is a Localized as the catalogue shows it: all eight
// languages, null where there is no text.
func bookingLocalized(l map[string]string) string {
	out := map[string]*string{}
	for _, lang := range domain.Languages {
		if s, ok := l[lang]; ok {
			out[lang] = &s
		} else {
			out[lang] = nil
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// bookingDec is a decimal from a literal.
func bookingDec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

type eventsFixture struct {
	*bookingFixture
	store *persistence.EventStore
}

func newEventsFixture(t *testing.T) *eventsFixture {
	t.Helper()
	f := newBookingFixture(t)
	return &eventsFixture{bookingFixture: f, store: persistence.NewEventStore(f.db)}
}

func (f *eventsFixture) mustEvent(t *testing.T, e *catalogue.Event) *catalogue.Event {
	t.Helper()
	if err := f.store.CreateEvent(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	return e
}

func (f *eventsFixture) mustSlot(t *testing.T, e *catalogue.Event, start time.Time, length time.Duration, places int) *catalogue.EventSlot {
	t.Helper()
	s := &catalogue.EventSlot{EventID: e.ID, StartingAt: start, EndingAt: start.Add(length), AvailablePlaces: places}
	if err := f.store.AddEventSlot(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return s
}

func (f *eventsFixture) mustFormula(t *testing.T, e *catalogue.Event, name string, price string) *catalogue.EventFormula {
	t.Helper()
	fo := &catalogue.EventFormula{EventID: e.ID, Name: domain.Localized{"fr": name}, Price: bookingDec(price)}
	if err := f.store.AddEventFormula(context.Background(), fo); err != nil {
		t.Fatal(err)
	}
	return fo
}

// wantEventBody compares an event detail, decoding its formulas text as
// JSON (the contract types formulas as a string).
func wantEventBody(t *testing.T, got Response, body, formulas string) {
	t.Helper()
	if got.Status != 200 {
		t.Fatalf("status = %d, want 200 (body %s)", got.Status, got.Body)
	}
	m := got.JSON(t)
	text, ok := m["formulas"].(string)
	if !ok {
		t.Fatalf("formulas = %#v, want a string", m["formulas"])
	}
	WantJSON(t, []byte(text), formulas)
	m["formulas"] = "checked"
	b, _ := json.Marshal(m)
	WantJSON(t, b, body)
}

var (
	// far enough ahead to stay bookingUpcoming; far enough back to stay past
	bookingUpcoming = time.Date(2030, 3, 14, 17, 30, 0, 0, time.UTC)
	bookingPast     = time.Date(2020, 1, 10, 9, 0, 0, 0, time.UTC)
)

func TestEventPrototypeRetrieve(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t)
	paris, _ := time.LoadLocation("Europe/Paris")
	ev := f.mustEvent(t, &catalogue.Event{PartnerID: f.shop.ID,
		Name:             domain.Localized{"fr": "Concert du soir", "en": "Evening concert"},
		ShortDescription: domain.Localized{"fr": "Un concert"},
		LongDescription:  domain.Localized{"fr": "Un long concert", "de": "Ein langes Konzert"},
		Booking:          domain.Localized{"fr": "Réservation obligatoire"},
		CoverImage:       "https://cdn.example.com/cover.jpg",
		Images:           []string{"https://cdn.example.com/1.jpg", "https://cdn.example.com/2.jpg"},
		DeliveryOptions: catalogue.DeliveryOptions{EmailToBuyer: true, PostalMailToBeneficiary: true,
			PostalMailShippingCost: bookingDec("3.9"), PostalMailDuration: 5, PickupOnSite: true, PickupOnSiteDuration: 2,
			PickupOnSiteCost: bookingDec("1.50"), Activated3MAToBeneficiary: true, MessengerDeliveryCost: bookingDec("0.99")},
	})
	f.mustSlot(t, ev, bookingPast, 2*time.Hour, 10)                                 // over: not shown
	full := f.mustSlot(t, ev, bookingUpcoming.Add(48*time.Hour), 90*time.Minute, 0) // shown, 0 places
	first := f.mustSlot(t, ev, bookingUpcoming, 150*time.Minute, 40)                // shown first
	adult := f.mustFormula(t, ev, "Adulte", "15")
	child := f.mustFormula(t, ev, "Enfant", "12.50")
	bare := f.mustEvent(t, &catalogue.Event{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Sans date"}})
	foreign := f.mustEvent(t, &catalogue.Event{PartnerID: f.other.ID, Name: domain.Localized{"fr": "Ailleurs"}})
	f.mustSlot(t, foreign, bookingUpcoming, time.Hour, 5)
	f.mustFormula(t, foreign, "Unique", "20")

	url := fmt.Sprintf("%s/api/v2/event_prototypes/%d/", f.URL, ev.ID)
	slot := func(s *catalogue.EventSlot) string {
		return fmt.Sprintf(`{"starting_datetime": %q, "starting_datetime_formatted": %s,
			"ending_datetime": %q, "ending_datetime_formatted": %s, "duration_formatted": %s,
			"funnel_link": "https://shop.example.com/events/%d/booking/?slot=%d", "available_places": %d}`,
			s.StartingAt.In(paris).Format(time.RFC3339), bookingLocalized(l10n.DateTime(s.StartingAt, paris)),
			s.EndingAt.In(paris).Format(time.RFC3339), bookingLocalized(l10n.DateTime(s.EndingAt, paris)),
			bookingLocalized(l10n.Duration(s.EndingAt.Sub(s.StartingAt))), ev.ID, s.ID, s.AvailablePlaces)
	}
	body := fmt.Sprintf(`{"id": %d,
		"name": %s, "short_description": %s, "long_description": %s, "booking": %s,
		"cover_image": "https://cdn.example.com/cover.jpg",
		"images": ["https://cdn.example.com/1.jpg", "https://cdn.example.com/2.jpg"],
		"slots": [%s, %s],
		"formulas": "checked",
		"lowest_price": "12.50", "lowest_price_formatted": %s, "currency_code": "EUR",
		"delivery_options": {"activated_email_to_buyer": true, "activated_email_to_beneficiary_delivery": false,
			"activated_postal_mail_to_buyer": false, "activated_postal_mail_to_beneficiary_delivery": true,
			"postal_mail_shipping_cost": "3.90", "postal_mail_duration": 5,
			"activated_pickup_on_site_delivery": true, "pickup_on_site_duration": 2, "pickup_on_site_cost": "1.50",
			"activated_3MA_to_buyer": false, "activated_3MA_to_beneficiary": true, "messenger_delivery_cost": "0.99"}}`,
		ev.ID, bookingLocalized(ev.Name), bookingLocalized(ev.ShortDescription), bookingLocalized(ev.LongDescription),
		bookingLocalized(ev.Booking), slot(first), slot(full), bookingLocalized(l10n.Money(bookingDec("12.50"), "EUR")))
	formulas := fmt.Sprintf(`[
		{"id": %d, "name": %s, "price": "15.00", "price_formatted": %s},
		{"id": %d, "name": %s, "price": "12.50", "price_formatted": %s}]`,
		adult.ID, bookingLocalized(adult.Name), bookingLocalized(l10n.Money(bookingDec("15"), "EUR")),
		child.ID, bookingLocalized(child.Name), bookingLocalized(l10n.Money(bookingDec("12.50"), "EUR")))

	t.Run("OKByPartnerDomain", func(t *testing.T) {
		res := Do(t, "GET", url, "", "X-Partner-Domain", "Shop.Example.com")
		wantEventBody(t, res, body, formulas)
		// The offset and the words are the partner's zone's (CET in March).
		m := res.JSON(t)
		s0 := m["slots"].([]any)[0].(map[string]any)
		if s0["starting_datetime"] != "2030-03-14T18:30:00+01:00" ||
			s0["starting_datetime_formatted"].(map[string]any)["fr"] != "jeudi 14 mars 2030 à 18:30" {
			t.Errorf("first slot = %v", s0)
		}
	})

	t.Run("OKAuthenticatedPartner", func(t *testing.T) {
		wantEventBody(t, Do(t, "GET", url, "", auth(f.shopToken)...), body, formulas)
	})

	t.Run("OKWithoutTrailingSlash", func(t *testing.T) {
		wantEventBody(t, Do(t, "GET", strings.TrimSuffix(url, "/"), "", "X-Partner-Domain", "shop.example.com"), body, formulas)
	})

	t.Run("OKWithoutSlotsOrFormulas", func(t *testing.T) {
		res := Do(t, "GET", fmt.Sprintf("%s/api/v2/event_prototypes/%d/", f.URL, bare.ID), "", "X-Partner-Domain", "shop.example.com")
		wantEventBody(t, res, fmt.Sprintf(`{"id": %d, "name": %s, "short_description": %s, "long_description": %s,
			"booking": %s, "cover_image": "", "images": [], "slots": [], "formulas": "checked",
			"lowest_price": null, "lowest_price_formatted": null, "currency_code": "EUR",
			"delivery_options": {"activated_email_to_buyer": false, "activated_email_to_beneficiary_delivery": false,
				"activated_postal_mail_to_buyer": false, "activated_postal_mail_to_beneficiary_delivery": false,
				"postal_mail_shipping_cost": "0.00", "postal_mail_duration": 0,
				"activated_pickup_on_site_delivery": false, "pickup_on_site_duration": 0, "pickup_on_site_cost": "0.00",
				"activated_3MA_to_buyer": false, "activated_3MA_to_beneficiary": false, "messenger_delivery_cost": "0.00"}}`,
			bare.ID, bookingLocalized(bare.Name), bookingLocalized(nil), bookingLocalized(nil), bookingLocalized(nil)), `[]`)
	})

	t.Run("OKPartnerWithoutDomainLinksRelative", func(t *testing.T) {
		res := Do(t, "GET", fmt.Sprintf("%s/api/v2/event_prototypes/%d/", f.URL, foreign.ID), "", auth(f.otherToken)...)
		WantResponse(t, res, 200, "")
		s := res.JSON(t)["slots"].([]any)[0].(map[string]any)
		want := fmt.Sprintf("/p/%s/events/%d/booking/?slot=", f.other.UUID, foreign.ID)
		if link, _ := s["funnel_link"].(string); !strings.HasPrefix(link, want) {
			t.Errorf("funnel_link = %q, want prefix %q", link, want)
		}
	})

	t.Run("OKPartnerCurrencyAndZone", func(t *testing.T) {
		ny := f.mustPartner(t, &domain.Partner{Name: "NY", SiteDomain: "ny.example.com", Currency: "USD", TimeZone: "America/New_York"})
		e := f.mustEvent(t, &catalogue.Event{PartnerID: ny.ID})
		f.mustSlot(t, e, bookingUpcoming, time.Hour, 3)
		f.mustFormula(t, e, "Standard", "20")
		res := Do(t, "GET", fmt.Sprintf("%s/api/v2/event_prototypes/%d/", f.URL, e.ID), "", "X-Partner-Domain", "ny.example.com")
		WantResponse(t, res, 200, "")
		m := res.JSON(t)
		s := m["slots"].([]any)[0].(map[string]any)
		if m["currency_code"] != "USD" || m["lowest_price"] != "20.00" ||
			m["lowest_price_formatted"].(map[string]any)["en"] != "$20.00" ||
			s["starting_datetime"] != "2030-03-14T13:30:00-04:00" {
			t.Errorf("body = %s", res.Body)
		}
	})

	t.Run("ErrOtherPartnersEvent", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", fmt.Sprintf("%s/api/v2/event_prototypes/%d/", f.URL, foreign.ID), "", "X-Partner-Domain", "shop.example.com"),
			404, `{"detail": "Not found."}`)
	})

	t.Run("ErrUnknownEvent", func(t *testing.T) {
		for _, id := range []string{"999999", "abc", "0", "-1", "99999999999999999999"} {
			WantResponse(t, Do(t, "GET", f.URL+"/api/v2/event_prototypes/"+id+"/", "", "X-Partner-Domain", "shop.example.com"),
				404, `{"detail": "Not found."}`)
		}
	})

	t.Run("ErrUnknownPartnerDomain", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "nobody.example.com"), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
	})

	t.Run("ErrInvalidToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", auth("0000000000000000000000000000000000000000")...), 401, `{"detail": "Invalid token."}`)
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		res := Do(t, "POST", url, `{}`, "X-Partner-Domain", "shop.example.com")
		WantResponse(t, res, 405, `{"detail": "Method \"POST\" not allowed."}`)
		if got := res.Header.Get("Allow"); got != "GET, HEAD" {
			t.Errorf("Allow = %q", got)
		}
	})
}

func TestEventSlotList(t *testing.T) {
	t.Parallel()
	f := newEventsFixture(t)
	paris, _ := time.LoadLocation("Europe/Paris")
	// Concert: a past slot, a full one, then two available ones.
	concert := f.mustEvent(t, &catalogue.Event{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Concert"},
		ShortDescription: domain.Localized{"fr": "Un concert", "en": "A concert"}})
	f.mustSlot(t, concert, bookingPast, time.Hour, 10)
	f.mustSlot(t, concert, bookingUpcoming, time.Hour, 0)
	c1 := f.mustSlot(t, concert, bookingUpcoming.Add(24*time.Hour), 150*time.Minute, 12)
	c2 := f.mustSlot(t, concert, bookingUpcoming.Add(72*time.Hour), time.Hour, 3)
	f.mustFormula(t, concert, "Adulte", "25")
	f.mustFormula(t, concert, "Réduit", "18.5")
	f.mustFormula(t, concert, "Enfant", "19")
	// Visit: one available slot, earlier than the concert's; no formula.
	visit := f.mustEvent(t, &catalogue.Event{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Visite"}})
	v1 := f.mustSlot(t, visit, bookingUpcoming.Add(time.Hour), 30*time.Minute, 1)
	// Sold out: no available slot, not listed.
	soldOut := f.mustEvent(t, &catalogue.Event{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Complet"}})
	f.mustSlot(t, soldOut, bookingUpcoming, time.Hour, 0)
	f.mustFormula(t, soldOut, "Unique", "10")
	// Another partner's event is never listed.
	foreign := f.mustEvent(t, &catalogue.Event{PartnerID: f.other.ID, Name: domain.Localized{"fr": "Ailleurs"}})
	f1 := f.mustSlot(t, foreign, bookingUpcoming, time.Hour, 9)

	url := f.URL + "/api/v2/event_slots/"
	concertItem := func(s *catalogue.EventSlot) string {
		return fmt.Sprintf(`{"id": %d, "event_id": %d, "name": %s, "description": %s,
			"starting_datetime": %q, "starting_datetime_formatted": %s,
			"ending_datetime": %q, "ending_datetime_formatted": %s, "duration_formatted": %s,
			"price": "18.50", "price_formatted": %s, "formulas_count": 3, "currency_code": "EUR",
			"available_places": %d, "slots_count": 2}`,
			s.ID, concert.ID, bookingLocalized(concert.Name), bookingLocalized(concert.ShortDescription),
			s.StartingAt.In(paris).Format(time.RFC3339), bookingLocalized(l10n.DateTime(s.StartingAt, paris)),
			s.EndingAt.In(paris).Format(time.RFC3339), bookingLocalized(l10n.DateTime(s.EndingAt, paris)),
			bookingLocalized(l10n.Duration(s.EndingAt.Sub(s.StartingAt))), bookingLocalized(l10n.Money(bookingDec("18.50"), "EUR")),
			s.AvailablePlaces)
	}
	visitItem := fmt.Sprintf(`{"id": %d, "event_id": %d, "name": %s, "description": %s,
		"starting_datetime": "2030-03-14T19:30:00+01:00", "starting_datetime_formatted": %s,
		"ending_datetime": "2030-03-14T20:00:00+01:00", "ending_datetime_formatted": %s, "duration_formatted": %s,
		"price": null, "price_formatted": null, "formulas_count": 0, "currency_code": "EUR",
		"available_places": 1, "slots_count": 1}`,
		v1.ID, visit.ID, bookingLocalized(visit.Name), bookingLocalized(nil),
		bookingLocalized(l10n.DateTime(v1.StartingAt, paris)), bookingLocalized(l10n.DateTime(v1.EndingAt, paris)),
		bookingLocalized(l10n.Duration(30*time.Minute)))

	t.Run("OKEachEventByItsFirstAvailableSlot", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "shop.example.com"), 200,
			`{"count": 2, "next": null, "previous": null, "results": [`+visitItem+`, `+concertItem(c1)+`]}`)
	})

	t.Run("OKAuthenticatedPartner", func(t *testing.T) {
		res := Do(t, "GET", strings.TrimSuffix(url, "/"), "", auth(f.otherToken)...)
		WantResponse(t, res, 200, "")
		results := res.JSON(t)["results"].([]any)
		if len(results) != 1 || results[0].(map[string]any)["id"] != float64(f1.ID) {
			t.Errorf("body = %s", res.Body)
		}
	})

	t.Run("OKPages", func(t *testing.T) {
		res := Do(t, "GET", url+"?page_size=1", "", "X-Partner-Domain", "shop.example.com")
		WantResponse(t, res, 200, `{"count": 2, "next": "`+f.URL+`/api/v2/event_slots/?page=2&page_size=1", "previous": null, "results": [`+visitItem+`]}`)
		res = Do(t, "GET", url+"?page=2&page_size=1", "", "X-Partner-Domain", "shop.example.com")
		WantResponse(t, res, 200, `{"count": 2, "next": null, "previous": "`+f.URL+`/api/v2/event_slots/?page_size=1", "results": [`+concertItem(c1)+`]}`)
	})

	t.Run("ErrPagePastTheEnd", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?page=3&page_size=1", "", "X-Partner-Domain", "shop.example.com"), 404, `{"detail": "Invalid page."}`)
		WantResponse(t, Do(t, "GET", url+"?page=x", "", "X-Partner-Domain", "shop.example.com"), 404, `{"detail": "Invalid page."}`)
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
	})

	t.Run("ErrUnknownPartnerDomain", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "nobody.example.com"), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		WantResponse(t, Do(t, "DELETE", url, "", "X-Partner-Domain", "shop.example.com"), 405, `{"detail": "Method \"DELETE\" not allowed."}`)
	})

	// Last: it changes the partner's setting.
	t.Run("OKEverySlotWhenDisplayEventsPerSlots", func(t *testing.T) {
		if err := f.store.SaveEventSettings(context.Background(), f.shop.ID, catalogue.EventSettings{DisplayEventsPerSlots: true}); err != nil {
			t.Fatal(err)
		}
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "shop.example.com"), 200,
			`{"count": 3, "next": null, "previous": null, "results": [`+visitItem+`, `+concertItem(c1)+`, `+concertItem(c2)+`]}`)
	})
}
