package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/l10n"
	"salesplatform/persistence"
)

type workshopsFixture struct {
	*bookingFixture
	store *persistence.WorkshopStore
}

func newWorkshopsFixture(t *testing.T) *workshopsFixture {
	t.Helper()
	f := newBookingFixture(t)
	return &workshopsFixture{bookingFixture: f, store: persistence.NewWorkshopStore(f.db)}
}

func (f *workshopsFixture) mustCategory(t *testing.T, partner *domain.Partner, name, price string, validity *int) *catalogue.WorkshopCategory {
	t.Helper()
	c := &catalogue.WorkshopCategory{PartnerID: partner.ID, Name: domain.Localized{"fr": name}, Price: bookingDec(price),
		SpecificValidityPeriod: validity}
	if err := f.store.CreateWorkshopCategory(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *workshopsFixture) mustTag(t *testing.T, kind catalogue.WorkshopTagKind, name domain.Localized) *catalogue.WorkshopTag {
	t.Helper()
	tag := &catalogue.WorkshopTag{Name: name}
	if err := f.store.CreateWorkshopTag(context.Background(), kind, tag); err != nil {
		t.Fatal(err)
	}
	return tag
}

func (f *workshopsFixture) mustWorkshop(t *testing.T, w *catalogue.Workshop) *catalogue.Workshop {
	t.Helper()
	if err := f.store.CreateWorkshop(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	return w
}

func (f *workshopsFixture) mustSession(t *testing.T, w *catalogue.Workshop, start time.Time, length time.Duration, minCap, maxCap, places int) *catalogue.WorkshopSession {
	t.Helper()
	s := &catalogue.WorkshopSession{WorkshopID: w.ID, StartingAt: start, EndingAt: start.Add(length),
		MinCapacity: minCap, MaxCapacity: maxCap, AvailablePlaces: places}
	if err := f.store.AddWorkshopSession(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return s
}

// sessionJSON is a WorkshopSession of the shop partner (Europe/Paris, site
// shop.example.com).
func (f *workshopsFixture) sessionJSON(s *catalogue.WorkshopSession) string {
	paris, _ := time.LoadLocation("Europe/Paris")
	d := s.EndingAt.Sub(s.StartingAt)
	return fmt.Sprintf(`{"id": %d, "workshop_id": %d,
		"starting_datetime": %q, "starting_datetime_formatted": %s,
		"ending_datetime": %q, "ending_datetime_formatted": %s,
		"min_capacity": %d, "max_capacity": %d,
		"duration_formatted": %s, "duration_value_formatted": %s,
		"available_places": %d,
		"funnel_link": "https://shop.example.com/workshops/%d/booking/?session=%d"}`,
		s.ID, s.WorkshopID,
		s.StartingAt.In(paris).Format(time.RFC3339), bookingLocalized(l10n.DateTime(s.StartingAt, paris)),
		s.EndingAt.In(paris).Format(time.RFC3339), bookingLocalized(l10n.DateTime(s.EndingAt, paris)),
		s.MinCapacity, s.MaxCapacity, bookingLocalized(l10n.Duration(d)), bookingLocalized(l10n.DurationShort(d)),
		s.AvailablePlaces, s.WorkshopID, s.ID)
}

func workshopTagJSON(t *catalogue.WorkshopTag) string {
	return fmt.Sprintf(`{"id": %d, "name": %s}`, t.ID, bookingLocalized(t.Name))
}

func TestWorkshopRetrieve(t *testing.T) {
	t.Parallel()
	f := newWorkshopsFixture(t)
	validity := 6
	cooking := f.mustCategory(t, f.shop, "Cuisine", "45.5", &validity)
	level := f.mustTag(t, catalogue.WorkshopLevel, domain.Localized{"fr": "Débutant", "en": "Beginner"})
	pastry := f.mustTag(t, catalogue.WorkshopTheme, domain.Localized{"fr": "Pâtisserie"})
	bread := f.mustTag(t, catalogue.WorkshopTheme, domain.Localized{"fr": "Pain"})
	adults := f.mustTag(t, catalogue.WorkshopTarget, domain.Localized{"fr": "Adultes"})
	kneading := f.mustTag(t, catalogue.WorkshopSkill, domain.Localized{"fr": "Pétrir"})
	croissant := f.mustTag(t, catalogue.WorkshopRecipe, domain.Localized{"fr": "Croissant"})
	brioche := f.mustTag(t, catalogue.WorkshopRecipe, domain.Localized{"fr": "Brioche"})
	ws := f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: cooking.ID, LevelID: &level.ID,
		Name:              domain.Localized{"fr": "Viennoiseries", "en": "Pastries"},
		ShortDescription:  domain.Localized{"fr": "Court"},
		LongDescription:   domain.Localized{"fr": "Long"},
		BookingConditions: domain.Localized{"fr": "Annulation 48 h avant"},
		Images:            []string{"https://cdn.example.com/w.jpg"},
		CanBePrivatized:   true, DisplayCalendar: true, Address: "1 rue du Four, 75006 Paris",
		ActivateWorkshopsGroupPayment: true,
		ThemeIDs:                      []int64{bread.ID, pastry.ID}, TargetIDs: []int64{adults.ID},
		SkillIDs: []int64{kneading.ID}, RecipeIDs: []int64{brioche.ID, croissant.ID},
	})
	f.mustSession(t, ws, bookingPast, 3*time.Hour, 2, 8, 8)                                  // over: not shown
	later := f.mustSession(t, ws, bookingUpcoming.Add(7*24*time.Hour), 3*time.Hour, 2, 8, 0) // full: shown
	first := f.mustSession(t, ws, bookingUpcoming, 150*time.Minute, 4, 10, 6)
	plainCategory := f.mustCategory(t, f.shop, "Divers", "10", nil)
	plain := f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: plainCategory.ID, Name: domain.Localized{"fr": "Simple"}})
	otherCategory := f.mustCategory(t, f.other, "Ailleurs", "30", nil)
	foreign := f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.other.ID, CategoryID: otherCategory.ID})
	f.mustSession(t, foreign, bookingUpcoming, time.Hour, 1, 5, 5)

	url := fmt.Sprintf("%s/api/v2/workshops/%d/", f.URL, ws.ID)
	body := fmt.Sprintf(`{"id": %d, "name": %s, "short_description": %s, "long_description": %s, "booking_conditions": %s,
		"images": ["https://cdn.example.com/w.jpg"], "can_be_privatized": true, "display_calendar": true,
		"address": "1 rue du Four, 75006 Paris",
		"category": {"id": %d, "name": %s, "price": "45.50", "price_formatted": %s, "currency_code": "EUR", "specific_validity_period": 6},
		"level": %s,
		"themes": [%s, %s], "targets": [%s], "skills": [%s], "recipes": [%s, %s],
		"sessions": [%s, %s],
		"activate_workshops_group_payment": true}`,
		ws.ID, bookingLocalized(ws.Name), bookingLocalized(ws.ShortDescription), bookingLocalized(ws.LongDescription),
		bookingLocalized(ws.BookingConditions),
		cooking.ID, bookingLocalized(cooking.Name), bookingLocalized(l10n.Money(bookingDec("45.50"), "EUR")),
		workshopTagJSON(level), workshopTagJSON(pastry), workshopTagJSON(bread), workshopTagJSON(adults), workshopTagJSON(kneading), workshopTagJSON(croissant), workshopTagJSON(brioche),
		f.sessionJSON(first), f.sessionJSON(later))

	t.Run("OKByPartnerDomain", func(t *testing.T) {
		res := Do(t, "GET", url, "", "X-Partner-Domain", "shop.example.com")
		WantResponse(t, res, 200, body)
		s := res.JSON(t)["sessions"].([]any)[0].(map[string]any)
		if s["starting_datetime"] != "2030-03-14T18:30:00+01:00" ||
			s["duration_formatted"].(map[string]any)["fr"] != "2\u00a0heures et 30 minutes" {
			t.Errorf("first session = %v", s)
		}
	})

	t.Run("OKAuthenticatedPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", auth(f.shopToken)...), 200, body)
	})

	t.Run("OKWithoutTrailingSlash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", strings.TrimSuffix(url, "/"), "", "X-Partner-Domain", "shop.example.com"), 200, body)
	})

	t.Run("OKOptions", func(t *testing.T) {
		res := Do(t, "OPTIONS", url, "", "X-Partner-Domain", "shop.example.com")
		WantResponse(t, res, 200, body)
		if got := res.Header.Get("Allow"); got != "GET, HEAD, OPTIONS" {
			t.Errorf("Allow = %q", got)
		}
	})

	t.Run("OKHead", func(t *testing.T) {
		res := Do(t, "HEAD", url, "", "X-Partner-Domain", "shop.example.com")
		if res.Status != 200 || res.Body != "" {
			t.Errorf("got %d %q", res.Status, res.Body)
		}
	})

	t.Run("OKWithoutLevelOrSessions", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", fmt.Sprintf("%s/api/v2/workshops/%d/", f.URL, plain.ID), "", "X-Partner-Domain", "shop.example.com"), 200,
			fmt.Sprintf(`{"id": %d, "name": %s, "short_description": %s, "long_description": %s, "booking_conditions": %s,
				"images": [], "can_be_privatized": false, "display_calendar": false, "address": "",
				"category": {"id": %d, "name": %s, "price": "10.00", "price_formatted": %s, "currency_code": "EUR", "specific_validity_period": null},
				"level": null, "themes": [], "targets": [], "skills": [], "recipes": [], "sessions": [],
				"activate_workshops_group_payment": false}`,
				plain.ID, bookingLocalized(plain.Name), bookingLocalized(nil), bookingLocalized(nil), bookingLocalized(nil),
				plainCategory.ID, bookingLocalized(plainCategory.Name), bookingLocalized(l10n.Money(bookingDec("10"), "EUR"))))
	})

	t.Run("OKPartnerWithoutDomainLinksRelative", func(t *testing.T) {
		res := Do(t, "GET", fmt.Sprintf("%s/api/v2/workshops/%d/", f.URL, foreign.ID), "", auth(f.otherToken)...)
		WantResponse(t, res, 200, "")
		s := res.JSON(t)["sessions"].([]any)[0].(map[string]any)
		want := fmt.Sprintf("/p/%s/workshops/%d/booking/?session=", f.other.UUID, foreign.ID)
		if link, _ := s["funnel_link"].(string); !strings.HasPrefix(link, want) {
			t.Errorf("funnel_link = %q, want prefix %q", link, want)
		}
	})

	t.Run("ErrOtherPartnersWorkshop", func(t *testing.T) {
		for _, method := range []string{"GET", "OPTIONS"} {
			WantResponse(t, Do(t, method, fmt.Sprintf("%s/api/v2/workshops/%d/", f.URL, foreign.ID), "", "X-Partner-Domain", "shop.example.com"),
				404, `{"detail": "Not found."}`)
		}
	})

	t.Run("ErrUnknownWorkshop", func(t *testing.T) {
		for _, id := range []string{"999999", "abc", "0"} {
			WantResponse(t, Do(t, "GET", f.URL+"/api/v2/workshops/"+id+"/", "", "X-Partner-Domain", "shop.example.com"),
				404, `{"detail": "Not found."}`)
		}
	})

	t.Run("ErrUnknownPartnerDomain", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "nobody.example.com"), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
		WantResponse(t, Do(t, "OPTIONS", url, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		res := Do(t, "PUT", url, `{}`, "X-Partner-Domain", "shop.example.com")
		WantResponse(t, res, 405, `{"detail": "Method \"PUT\" not allowed."}`)
		if got := res.Header.Get("Allow"); got != "GET, HEAD, OPTIONS" {
			t.Errorf("Allow = %q", got)
		}
	})
}

func TestWorkshopSessionList(t *testing.T) {
	t.Parallel()
	f := newWorkshopsFixture(t)
	cat := f.mustCategory(t, f.shop, "Cuisine", "40", nil)
	a := f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: cat.ID})
	b := f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: cat.ID})
	f.mustSession(t, a, bookingPast, time.Hour, 1, 4, 4) // over: never listed
	a2 := f.mustSession(t, a, bookingUpcoming.Add(48*time.Hour), 2*time.Hour, 1, 4, 0)
	b1 := f.mustSession(t, b, bookingUpcoming.Add(24*time.Hour), 90*time.Minute, 2, 6, 5)
	a1 := f.mustSession(t, a, bookingUpcoming, time.Hour, 1, 4, 3)
	otherCat := f.mustCategory(t, f.other, "Ailleurs", "10", nil)
	foreign := f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.other.ID, CategoryID: otherCat.ID})
	f1 := f.mustSession(t, foreign, bookingUpcoming, time.Hour, 1, 2, 2)
	url := f.URL + "/api/v2/workshop_sessions/"
	page := func(count int, next, previous string, items ...*catalogue.WorkshopSession) string {
		js := make([]string, len(items))
		for i, s := range items {
			js[i] = f.sessionJSON(s)
		}
		link := func(s string) string {
			if s == "" {
				return "null"
			}
			return `"` + f.URL + s + `"`
		}
		return fmt.Sprintf(`{"count": %d, "next": %s, "previous": %s, "results": [%s]}`, count, link(next), link(previous), strings.Join(js, ", "))
	}

	t.Run("OKUpcomingByStart", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "shop.example.com"), 200, page(3, "", "", a1, b1, a2))
	})

	t.Run("OKOneWorkshop", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", fmt.Sprintf("%s?workshop=%d", strings.TrimSuffix(url, "/"), a.ID), "", "X-Partner-Domain", "shop.example.com"),
			200, page(2, "", "", a1, a2))
	})

	t.Run("OKOtherPartnersWorkshopHasNoSessions", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", fmt.Sprintf("%s?workshop=%d", url, foreign.ID), "", "X-Partner-Domain", "shop.example.com"),
			200, page(0, "", ""))
	})

	t.Run("OKAuthenticatedPartner", func(t *testing.T) {
		res := Do(t, "GET", url, "", auth(f.otherToken)...)
		WantResponse(t, res, 200, "")
		results := res.JSON(t)["results"].([]any)
		if len(results) != 1 || results[0].(map[string]any)["id"] != float64(f1.ID) {
			t.Errorf("body = %s", res.Body)
		}
	})

	t.Run("OKPages", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?page_size=2", "", "X-Partner-Domain", "shop.example.com"), 200,
			page(3, "/api/v2/workshop_sessions/?page=2&page_size=2", "", a1, b1))
		WantResponse(t, Do(t, "GET", url+"?page_size=2&page=2", "", "X-Partner-Domain", "shop.example.com"), 200,
			page(3, "", "/api/v2/workshop_sessions/?page_size=2", a2))
	})

	t.Run("ErrPagePastTheEnd", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?page=2", "", "X-Partner-Domain", "shop.example.com"), 404, `{"detail": "Invalid page."}`)
	})

	t.Run("ErrWorkshopNotANumber", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?workshop=abc", "", "X-Partner-Domain", "shop.example.com"), 400, `{"workshop": ["Enter a number."]}`)
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
	})

	t.Run("ErrUnknownPartnerDomain", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "nobody.example.com"), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		WantResponse(t, Do(t, "POST", url, `{}`, "X-Partner-Domain", "shop.example.com"), 405, `{"detail": "Method \"POST\" not allowed."}`)
	})
}

func TestWorkshopThemeList(t *testing.T) {
	t.Parallel()
	f := newWorkshopsFixture(t)
	cat := f.mustCategory(t, f.shop, "Cuisine", "40", nil)
	otherCat := f.mustCategory(t, f.other, "Ailleurs", "10", nil)
	pastry := f.mustTag(t, catalogue.WorkshopTheme, domain.Localized{"fr": "Pâtisserie", "en": "Pastry"})
	f.mustTag(t, catalogue.WorkshopTheme, domain.Localized{"fr": "Inutilisé"}) // no workshop: not listed
	bread := f.mustTag(t, catalogue.WorkshopTheme, domain.Localized{"fr": "Pain"})
	wine := f.mustTag(t, catalogue.WorkshopTheme, domain.Localized{"fr": "Vin"})
	// Two workshops share pastry: it is listed once.
	f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: cat.ID, ThemeIDs: []int64{bread.ID, pastry.ID}})
	f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: cat.ID, ThemeIDs: []int64{pastry.ID}})
	f.mustWorkshop(t, &catalogue.Workshop{PartnerID: f.other.ID, CategoryID: otherCat.ID, ThemeIDs: []int64{wine.ID, pastry.ID}})
	url := f.URL + "/api/v2/workshop_themes/"

	t.Run("OKThemesOfThePartnersWorkshops", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "shop.example.com"), 200,
			`{"count": 2, "next": null, "previous": null, "results": [`+workshopTagJSON(pastry)+`, `+workshopTagJSON(bread)+`]}`)
	})

	t.Run("OKAuthenticatedPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", strings.TrimSuffix(url, "/"), "", auth(f.otherToken)...), 200,
			`{"count": 2, "next": null, "previous": null, "results": [`+workshopTagJSON(pastry)+`, `+workshopTagJSON(wine)+`]}`)
	})

	t.Run("OKPages", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?page_size=1", "", "X-Partner-Domain", "shop.example.com"), 200,
			`{"count": 2, "next": "`+f.URL+`/api/v2/workshop_themes/?page=2&page_size=1", "previous": null, "results": [`+workshopTagJSON(pastry)+`]}`)
		WantResponse(t, Do(t, "GET", url+"?page_size=1&page=2", "", "X-Partner-Domain", "shop.example.com"), 200,
			`{"count": 2, "next": null, "previous": "`+f.URL+`/api/v2/workshop_themes/?page_size=1", "results": [`+workshopTagJSON(bread)+`]}`)
	})

	t.Run("OKNoWorkshops", func(t *testing.T) {
		f.mustPartner(t, &domain.Partner{Name: "Empty", SiteDomain: "empty.example.com"})
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "empty.example.com"), 200,
			`{"count": 0, "next": null, "previous": null, "results": []}`)
	})

	t.Run("ErrPagePastTheEnd", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?page=3&page_size=1", "", "X-Partner-Domain", "shop.example.com"), 404, `{"detail": "Invalid page."}`)
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
	})

	t.Run("ErrUnknownPartnerDomain", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "nobody.example.com"), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		WantResponse(t, Do(t, "POST", url, `{}`, "X-Partner-Domain", "shop.example.com"), 405, `{"detail": "Method \"POST\" not allowed."}`)
	})
}
