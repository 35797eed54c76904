package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/l10n"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// bpFixture is a running server with the partners the box and prototype
// catalogue tests share:
//   - market: a marketplace at market.example.com whose prices are in CHF;
//   - rival: a marketplace without a site domain (reached by its token);
//   - shop: a partner (not a marketplace) at shop.example.com.
type bpFixture struct {
	*Server
	db                *bun.DB
	boxes             catalogue.BoxStore
	protos            *persistence.PrototypeStore
	partners          domain.PartnerStore
	market, rival     *domain.Partner
	shop              *domain.Partner
	rivalTok, shopTok string
}

func newBPFixture(t *testing.T) *bpFixture {
	t.Helper()
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	f := &bpFixture{}
	CreateUser(t, dsn, "--username", "market", "--password", "market-password",
		"--partner-name", "Market", "--partner-domain", "market.example.com", "--marketplace")
	f.rivalTok = CreateUser(t, dsn, "--username", "rival", "--password", "rival-password",
		"--partner-name", "Rival", "--marketplace")
	f.shopTok = CreateUser(t, dsn, "--username", "shop", "--password", "shop-password",
		"--partner-name", "Shop", "--partner-domain", "shop.example.com")
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	f.boxes, f.protos = persistence.BoxStores(db).Boxes, persistence.NewPrototypeStore(db)
	f.partners = persistence.NewDatabase(db).Stores().Partners
	if _, err := db.ExecContext(ctx, "UPDATE partners SET currency = 'CHF' WHERE name = 'Market'"); err != nil {
		t.Fatal(err)
	}
	f.market = f.mustPartnerOf(t, "market")
	f.rival = f.mustPartnerOf(t, "rival")
	f.shop = f.mustPartnerOf(t, "shop")
	f.Server = Serve(t, dsn)
	return f
}

// mustPartnerOf returns the partner of a user created by createuser.
func (f *bpFixture) mustPartnerOf(t *testing.T, username string) *domain.Partner {
	t.Helper()
	var id int64
	if err := f.db.NewRaw("SELECT partner_id FROM users WHERE username = ?", username).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	p, err := f.partners.FindPartnerByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *bpFixture) mustPartner(t *testing.T, name, currency string) *domain.Partner {
	t.Helper()
	p := &domain.Partner{Name: name, Status: domain.PartnerStatusActive, Currency: currency}
	if err := f.partners.CreatePartner(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *bpFixture) mustUniverse(t *testing.T, parent *catalogue.Universe, name string, order *int) *catalogue.Universe {
	t.Helper()
	u := &catalogue.Universe{Name: domain.Localized{"fr": name, "en": name}, Order: order}
	if parent != nil {
		u.ParentID = &parent.ID
	}
	if err := f.protos.CreateUniverse(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func (f *bpFixture) mustBox(t *testing.T, b *catalogue.Box) *catalogue.Box {
	t.Helper()
	if err := f.boxes.CreateBox(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	return b
}

func (f *bpFixture) mustOffer(t *testing.T, box *catalogue.Box, partner *domain.Partner, status string) {
	t.Helper()
	if err := f.boxes.CreateBoxOffer(context.Background(), &catalogue.BoxOffer{BoxID: box.ID, PartnerID: partner.ID, Status: status}); err != nil {
		t.Fatal(err)
	}
}

func bpIntPtr(n int) *int { return &n }

// bpLoc is the JSON of a Localized as the API shows it: the eight languages,
// null where pairs (language, text, ...) give none.
func bpLoc(pairs ...string) string {
	m := map[string]any{}
	for _, lang := range domain.Languages {
		m[lang] = nil
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// bpMoney is the JSON of an amount's formatted companion.
func bpMoney(amount, currency string) string {
	b, _ := json.Marshal(l10n.Money(decimal.RequireFromString(amount), currency))
	return string(b)
}

func TestBoxCatalog(t *testing.T) {
	t.Parallel()
	f := newBPFixture(t)
	offerer := f.mustPartner(t, "Offerer", "EUR")
	// Universes: roots A (order 2), B (order 1), C; A has A1 (no order) and
	// A2 (order 1); A1 has A1a; B has B1.
	a := f.mustUniverse(t, nil, "A", bpIntPtr(2))
	b := f.mustUniverse(t, nil, "B", bpIntPtr(1))
	c := f.mustUniverse(t, nil, "C", nil)
	a1 := f.mustUniverse(t, a, "A1", nil)
	a2 := f.mustUniverse(t, a, "A2", bpIntPtr(1))
	a1a := f.mustUniverse(t, a1, "A1a", bpIntPtr(5))
	b1 := f.mustUniverse(t, b, "B1", nil)
	f.mustUniverse(t, b, "B2", nil) // linked to nothing

	box1 := f.mustBox(t, &catalogue.Box{MarketplaceID: f.market.ID, Name: domain.Localized{"fr": "Séjour", "en": "Stay"},
		ShortDescription: domain.Localized{"fr": "Court"}, LongDescription: domain.Localized{"fr": "Long", "de": "Lang"},
		IsActive: true, IsHighlight: true, DisplayNbOffers: true, Price: decimal.RequireFromString("49.9"), Ranking: 2,
		PeopleIncluded: 2, MaxNumberUsages: 3, MaxDaysAfterFirstUsage: 90,
		UniverseIDs: []int64{b1.ID, a1a.ID}, Images: []string{"https://cdn.example.com/b.jpg", "https://cdn.example.com/a.jpg"}})
	box2 := f.mustBox(t, &catalogue.Box{MarketplaceID: f.market.ID, Name: domain.Localized{"fr": "Deux"},
		IsActive: true, Price: decimal.RequireFromString("120"), Ranking: 1, UniverseIDs: []int64{a2.ID}})
	box3 := f.mustBox(t, &catalogue.Box{MarketplaceID: f.market.ID, Name: domain.Localized{"fr": "Trois"},
		IsActive: true, Price: decimal.RequireFromString("10"), Ranking: 2})
	inactive := f.mustBox(t, &catalogue.Box{MarketplaceID: f.market.ID, IsActive: false, Ranking: 0, UniverseIDs: []int64{c.ID}})
	rivalBox := f.mustBox(t, &catalogue.Box{MarketplaceID: f.rival.ID, IsActive: true, Price: decimal.RequireFromString("5"),
		UniverseIDs: []int64{b.ID}})
	f.mustOffer(t, box1, offerer, catalogue.BoxOfferStatusValidated)
	f.mustOffer(t, box1, f.shop, catalogue.BoxOfferStatusValidated)
	f.mustOffer(t, box1, f.rival, catalogue.BoxOfferStatusDraft)
	f.mustOffer(t, box2, offerer, catalogue.BoxOfferStatusDraft)

	market := []string{"X-Partner-Domain", "market.example.com"}
	list := f.URL + "/api/v2/network_vouchers/boxes/"
	item := func(box *catalogue.Box, nbOffers int, universes string) string {
		return fmt.Sprintf(`{"id": %d, "is_active": %t, "is_highlight": %t, "display_nb_offers": %t, "nb_offers": %d,
			"name": %s, "short_description": %s, "price": %q, "price_formatted": %s, "currency_code": "CHF",
			"ranking": %d, "universes": %s}`,
			box.ID, box.IsActive, box.IsHighlight, box.DisplayNbOffers, nbOffers, bpLoc(bpPairs(box.Name)...),
			bpLoc(bpPairs(box.ShortDescription)...), box.Price.StringFixed(2), bpMoney(box.Price.String(), "CHF"),
			box.Ranking, universes)
	}
	item1 := item(box1, 2, fmt.Sprintf("[%d, %d]", min(a1a.ID, b1.ID), max(a1a.ID, b1.ID)))
	item2 := item(box2, 0, fmt.Sprintf("[%d]", a2.ID))
	item3 := item(box3, 0, "[]")
	page := func(count int, next, previous string, items ...string) string {
		quote := func(s string) string {
			if s == "" {
				return "null"
			}
			return fmt.Sprintf("%q", s)
		}
		return fmt.Sprintf(`{"count": %d, "next": %s, "previous": %s, "results": [%s]}`,
			count, quote(next), quote(previous), strings.Join(items, ", "))
	}

	t.Run("OKList", func(t *testing.T) {
		// Default order: ranking, then id. Inactive boxes and other
		// marketplaces' boxes are not listed; only validated offers count.
		WantResponse(t, Do(t, "GET", list, "", market...), 200, page(3, "", "", item2, item1, item3))
	})

	t.Run("OKPriceFormattedInMarketplaceCurrency", func(t *testing.T) {
		res := Do(t, "GET", list+"?ordering=-price", "", market...)
		first := res.JSON(t)["results"].([]any)[1].(map[string]any)
		if en := first["price_formatted"].(map[string]any)["en"]; en != "CHF\u00a049.90" {
			t.Errorf("price_formatted.en = %q, want \"CHF\\u00a049.90\"", en)
		}
		if first["price"] != "49.90" {
			t.Errorf("price = %v, want \"49.90\"", first["price"])
		}
	})

	t.Run("OKOrdering", func(t *testing.T) {
		for ordering, want := range map[string][]string{
			"price":       {item3, item1, item2},
			"-price":      {item2, item1, item3},
			"-ranking":    {item1, item3, item2}, // ties by id
			"ranking,-id": {item2, item3, item1},
			"-id":         {item3, item2, item1},
			"id":          {item1, item2, item3},
			" ranking , ": {item2, item1, item3},
			"":            {item2, item1, item3},
		} {
			t.Run(ordering, func(t *testing.T) {
				WantResponse(t, Do(t, "GET", list+"?ordering="+strings.ReplaceAll(ordering, " ", "%20"), "", market...),
					200, page(3, "", "", want...))
			})
		}
	})

	t.Run("ErrOrdering", func(t *testing.T) {
		for ordering, term := range map[string]string{
			"name":                    "name",
			"price,nb_offers":         "nb_offers",
			"--price":                 "--price",
			"price%3B%20DROP%20TABLE": "price; DROP TABLE",
			"price;drop":              "price;drop", // a raw ";" is part of the value, as the legacy service read it
			"price&ordering=bogus":    "bogus",      // given twice: the last, as Django's QueryDict reads it
		} {
			WantResponse(t, Do(t, "GET", list+"?ordering="+ordering, "", market...), 400,
				fmt.Sprintf(`{"ordering": [%q]}`, "Select a valid choice. "+term+" is not one of the available choices."))
		}
	})

	t.Run("ErrMalformedQuery", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", list+"?ordering=price&page=%zz", "", market...), 400,
			`{"detail": "Malformed query string: invalid URL escape \"%zz\"."}`)
	})

	t.Run("OKPagination", func(t *testing.T) {
		host := strings.TrimPrefix(f.URL, "http://")
		WantResponse(t, Do(t, "GET", list+"?page_size=2", "", market...), 200,
			page(3, "http://"+host+"/api/v2/network_vouchers/boxes/?page=2&page_size=2", "", item2, item1))
		WantResponse(t, Do(t, "GET", list+"?page=2&page_size=2", "", market...), 200,
			page(3, "", "http://"+host+"/api/v2/network_vouchers/boxes/?page_size=2", item3))
		WantResponse(t, Do(t, "GET", list+"?page=1&page_size=2&page=2", "", market...), 200,
			page(3, "", "http://"+host+"/api/v2/network_vouchers/boxes/?page_size=2", item3))
	})

	t.Run("ErrPagePastTheEnd", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", list+"?page=3&page_size=2", "", market...), 404, `{"detail": "Invalid page."}`)
		WantResponse(t, Do(t, "GET", list+"?page=zero", "", market...), 404, `{"detail": "Invalid page."}`)
	})

	t.Run("OKAuthenticatedMarketplace", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", list, "", auth(f.rivalTok)...), 200, page(1, "", "",
			fmt.Sprintf(`{"id": %d, "is_active": true, "is_highlight": false, "display_nb_offers": false, "nb_offers": 0,
				"name": %s, "short_description": %s, "price": "5.00", "price_formatted": %s, "currency_code": "EUR",
				"ranking": 0, "universes": [%d]}`, rivalBox.ID, bpLoc(), bpLoc(), bpMoney("5", "EUR"), b.ID)))
	})

	t.Run("OKNotAMarketplace", func(t *testing.T) {
		shop := []string{"X-Partner-Domain", "shop.example.com"}
		WantResponse(t, Do(t, "GET", list, "", shop...), 200, page(0, "", ""))
		WantResponse(t, Do(t, "GET", list, "", auth(f.shopTok)...), 200, page(0, "", ""))
		WantResponse(t, Do(t, "GET", list+fmt.Sprint(box1.ID)+"/", "", shop...), 404, `{"detail": "Not found."}`)
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/network_vouchers/universes/", "", shop...), 200, `[]`)
	})

	t.Run("OKNoTrailingSlash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", strings.TrimSuffix(list, "/"), "", market...), 200, page(3, "", "", item2, item1, item3))
	})

	t.Run("OKDetail", func(t *testing.T) {
		detail := strings.TrimSuffix(item1, "}") + fmt.Sprintf(`, "long_description": %s, "people_included": 2,
			"max_number_usages": 3, "max_days_after_first_usage": 90,
			"images": ["https://cdn.example.com/b.jpg", "https://cdn.example.com/a.jpg"], "delivery_options": null}`,
			bpLoc("fr", "Long", "de", "Lang"))
		WantResponse(t, Do(t, "GET", list+fmt.Sprint(box1.ID)+"/", "", market...), 200, detail)
		WantResponse(t, Do(t, "GET", list+fmt.Sprint(box1.ID), "", market...), 200, detail)
		detail3 := strings.TrimSuffix(item3, "}") + fmt.Sprintf(`, "long_description": %s, "people_included": 0,
			"max_number_usages": 0, "max_days_after_first_usage": 0, "images": [], "delivery_options": null}`, bpLoc())
		WantResponse(t, Do(t, "GET", list+fmt.Sprint(box3.ID)+"/", "", market...), 200, detail3)
	})

	t.Run("ErrDetailNotFound", func(t *testing.T) {
		for name, id := range map[string]string{
			"Inactive":         fmt.Sprint(inactive.ID),
			"OtherMarketplace": fmt.Sprint(rivalBox.ID),
			"Unknown":          "999999",
			"NotAnInteger":     "abc",
		} {
			t.Run(name, func(t *testing.T) {
				WantResponse(t, Do(t, "GET", list+id+"/", "", market...), 404, `{"detail": "Not found."}`)
			})
		}
	})

	t.Run("OKUniverses", func(t *testing.T) {
		// The universes of the active boxes with their ancestors, siblings
		// by order (none last) then id: B before A, A2 before A1. C (only
		// of an inactive box) and B2 (of no box) are not shown.
		node := func(u *catalogue.Universe, subs ...string) string {
			order := "null"
			if u.Order != nil {
				order = fmt.Sprint(*u.Order)
			}
			return fmt.Sprintf(`{"id": %d, "name": %s, "order": %s, "sub_universes": [%s]}`,
				u.ID, bpLoc("fr", u.Name["fr"], "en", u.Name["en"]), order, strings.Join(subs, ", "))
		}
		want := "[" + node(b, node(b1)) + ", " + node(a, node(a2), node(a1, node(a1a))) + "]"
		url := f.URL + "/api/v2/network_vouchers/universes/"
		WantResponse(t, Do(t, "GET", url, "", market...), 200, want)
		WantResponse(t, Do(t, "GET", strings.TrimSuffix(url, "/"), "", market...), 200, want)
		// The rival's box is filed under B itself: B1 does not come along.
		WantResponse(t, Do(t, "GET", url, "", auth(f.rivalTok)...), 200, "["+node(b)+"]")
	})

	t.Run("ErrScope", func(t *testing.T) {
		for _, path := range []string{"/api/v2/network_vouchers/boxes/", fmt.Sprintf("/api/v2/network_vouchers/boxes/%d/", box1.ID),
			"/api/v2/network_vouchers/universes/"} {
			WantResponse(t, Do(t, "GET", f.URL+path, "", "X-Partner-Domain", "nowhere.example.com"), 404, `{"detail": "Not found."}`)
			WantResponse(t, Do(t, "GET", f.URL+path, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
			WantResponse(t, Do(t, "GET", f.URL+path, "", auth("0123456789abcdef0123456789abcdef01234567")...), 401, `{"detail": "Invalid token."}`)
		}
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		for _, path := range []string{"/api/v2/network_vouchers/boxes/", fmt.Sprintf("/api/v2/network_vouchers/boxes/%d/", box1.ID),
			"/api/v2/network_vouchers/universes/"} {
			res := Do(t, "POST", f.URL+path, "{}", market...)
			WantResponse(t, res, 405, `{"detail": "Method \"POST\" not allowed."}`)
			if res.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s: Allow = %q", path, res.Header.Get("Allow"))
			}
		}
	})
}

// bpPairs turns a Localized into language, text pairs for bpLoc.
func bpPairs(l domain.Localized) []string {
	var pairs []string
	for lang, s := range l {
		pairs = append(pairs, lang, s)
	}
	return pairs
}
