package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
)

func (f *bpFixture) mustTheme(t *testing.T, name string) *catalogue.Theme {
	t.Helper()
	th := &catalogue.Theme{Name: domain.Localized{"fr": name}}
	if err := f.protos.CreateTheme(context.Background(), th); err != nil {
		t.Fatal(err)
	}
	return th
}

func (f *bpFixture) mustVoucherPrototype(t *testing.T, partner *domain.Partner, universe *catalogue.Universe, themes ...*catalogue.Theme) {
	t.Helper()
	p := &catalogue.VoucherPrototype{PartnerID: partner.ID, Name: domain.Localized{"fr": "Bon"}}
	if universe != nil {
		p.UniverseID = &universe.ID
	}
	for _, th := range themes {
		p.ThemeIDs = append(p.ThemeIDs, th.ID)
	}
	if err := f.protos.CreateVoucherPrototype(context.Background(), p); err != nil {
		t.Fatal(err)
	}
}

func (f *bpFixture) mustGiftcardPrototype(t *testing.T, p *catalogue.GiftcardPrototype) *catalogue.GiftcardPrototype {
	t.Helper()
	if err := f.protos.CreateGiftcardPrototype(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPrototypeTaxonomy(t *testing.T) {
	t.Parallel()
	f := newBPFixture(t)
	shop := []string{"X-Partner-Domain", "shop.example.com"}
	t1, t2, t3 := f.mustTheme(t, "T1"), f.mustTheme(t, "T2"), f.mustTheme(t, "T3")
	a := f.mustUniverse(t, nil, "A", bpIntPtr(2))
	b := f.mustUniverse(t, nil, "B", bpIntPtr(1))
	c := f.mustUniverse(t, nil, "C", nil)
	a1 := f.mustUniverse(t, a, "A1", nil)
	a1a := f.mustUniverse(t, a1, "A1a", nil)
	f.mustUniverse(t, a, "A2", nil) // no prototype
	f.mustUniverse(t, b, "B1", nil) // no prototype
	f.mustVoucherPrototype(t, f.shop, a1a, t2, t1)
	f.mustVoucherPrototype(t, f.shop, b, t2)
	f.mustVoucherPrototype(t, f.shop, nil)
	f.mustVoucherPrototype(t, f.market, c, t3)

	theme := func(th *catalogue.Theme) string {
		return fmt.Sprintf(`{"id": %d, "name": %s}`, th.ID, bpLoc("fr", th.Name["fr"]))
	}
	node := func(u *catalogue.Universe, subs ...string) string {
		order := "null"
		if u.Order != nil {
			order = fmt.Sprint(*u.Order)
		}
		return fmt.Sprintf(`{"id": %d, "name": %s, "order": %s, "sub_universes": [%s]}`,
			u.ID, bpLoc("fr", u.Name["fr"], "en", u.Name["en"]), order, strings.Join(subs, ", "))
	}

	t.Run("OKThemes", func(t *testing.T) {
		// Distinct, by id; another partner's themes are not shown.
		want := "[" + theme(t1) + ", " + theme(t2) + "]"
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/themes/", "", shop...), 200, want)
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/themes", "", auth(f.shopTok)...), 200, want)
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/themes/", "", auth(f.rivalTok)...), 200, `[]`)
	})

	t.Run("OKUniverses", func(t *testing.T) {
		// Each prototype's universe with its ancestors; A2 and B1 have none.
		want := "[" + node(b) + ", " + node(a, node(a1, node(a1a))) + "]"
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/universes/", "", shop...), 200, want)
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/universes", "", auth(f.shopTok)...), 200, want)
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/universes/", "", "X-Partner-Domain", "market.example.com"), 200, "["+node(c)+"]")
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/universes/", "", auth(f.rivalTok)...), 200, `[]`)
	})

	t.Run("ErrScope", func(t *testing.T) {
		for _, path := range []string{"/api/v2/themes/", "/api/v2/universes/"} {
			WantResponse(t, Do(t, "GET", f.URL+path, "", "X-Partner-Domain", "nowhere.example.com"), 404, `{"detail": "Not found."}`)
			WantResponse(t, Do(t, "GET", f.URL+path, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
		}
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		for _, path := range []string{"/api/v2/themes/", "/api/v2/universes/"} {
			res := Do(t, "DELETE", f.URL+path, "", shop...)
			WantResponse(t, res, 405, `{"detail": "Method \"DELETE\" not allowed."}`)
			if res.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s: Allow = %q", path, res.Header.Get("Allow"))
			}
		}
	})
}

func TestGiftcardPrototypeCatalog(t *testing.T) {
	t.Parallel()
	f := newBPFixture(t)
	ctx := context.Background()
	member := f.mustPartner(t, "Member", "EUR")
	outsider := f.mustPartner(t, "Outsider", "EUR")
	// Member is in the market's network (the partners its catalogue lists).
	if err := persistence.NewPartnerCatalogStore(f.db).AddNetworkPartner(ctx, f.market.ID, member.ID); err != nil {
		t.Fatal(err)
	}
	own := f.mustGiftcardPrototype(t, &catalogue.GiftcardPrototype{PartnerID: f.market.ID,
		Title: domain.Localized{"fr": "Carte", "en": "Card"}, Description: domain.Localized{"fr": "Desc"},
		TermsOfUse: domain.Localized{"fr": "CGU"}, CustomizedAmount: true, MinimumAmount: decimal.RequireFromString("10"),
		PredefinedAmounts: []decimal.Decimal{decimal.RequireFromString("50"), decimal.RequireFromString("25.5")},
		MoneyPotActivated: true, MoneyPotLogo: "https://cdn.example.com/pot.png", ValidityPeriod: 12, ValidityUnit: catalogue.ValidityMonth})
	memberProto := f.mustGiftcardPrototype(t, &catalogue.GiftcardPrototype{PartnerID: member.ID,
		MinimumAmount: decimal.Zero, ValidityPeriod: 1, ValidityUnit: catalogue.ValidityYear})
	outsiderProto := f.mustGiftcardPrototype(t, &catalogue.GiftcardPrototype{PartnerID: outsider.ID, ValidityPeriod: 30, ValidityUnit: catalogue.ValidityDay})
	shopProto := f.mustGiftcardPrototype(t, &catalogue.GiftcardPrototype{PartnerID: f.shop.ID, ValidityPeriod: 2, ValidityUnit: catalogue.ValidityWeek})

	market := []string{"X-Partner-Domain", "market.example.com"}
	list := f.URL + "/api/v2/giftcard_prototypes/"
	ownJSON := fmt.Sprintf(`{"id": %d, "customized_amount": true, "description": %s, "minimum_amount": "10.00",
		"minimum_amount_formatted": %s, "money_pot": {"activated": true, "logo": "https://cdn.example.com/pot.png"},
		"partner_id": %d, "partner_name": "Market", "predefined_amounts": ["50.00", "25.50"],
		"predefined_amounts_formatted": [%s, %s], "terms_of_use": %s, "title": %s,
		"validity_period": 12, "validity_unit": "month"}`,
		own.ID, bpLoc("fr", "Desc"), bpMoney("10", "CHF"), f.market.ID, bpMoney("50", "CHF"), bpMoney("25.5", "CHF"),
		bpLoc("fr", "CGU"), bpLoc("fr", "Carte", "en", "Card"))
	plain := func(p *catalogue.GiftcardPrototype, partner *domain.Partner) string {
		return fmt.Sprintf(`{"id": %d, "customized_amount": false, "description": %s, "minimum_amount": "0.00",
			"minimum_amount_formatted": %s, "money_pot": {"activated": false, "logo": ""},
			"partner_id": %d, "partner_name": %q, "predefined_amounts": [], "predefined_amounts_formatted": [],
			"terms_of_use": %s, "title": %s, "validity_period": %d, "validity_unit": %q}`,
			p.ID, bpLoc(), bpMoney("0", partner.Currency), partner.ID, partner.Name, bpLoc(), bpLoc(), p.ValidityPeriod, p.ValidityUnit)
	}
	memberJSON := plain(memberProto, member)
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

	t.Run("OKListMarketplaceWithNetwork", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", list, "", market...), 200, page(2, "", "", ownJSON, memberJSON))
		WantResponse(t, Do(t, "GET", strings.TrimSuffix(list, "/"), "", market...), 200, page(2, "", "", ownJSON, memberJSON))
	})

	t.Run("OKAmountsFormattedInOwnersCurrency", func(t *testing.T) {
		res := Do(t, "GET", list+fmt.Sprint(own.ID)+"/", "", market...)
		if en := res.JSON(t)["minimum_amount_formatted"].(map[string]any)["en"]; en != "CHF\u00a010.00" {
			t.Errorf("minimum_amount_formatted.en = %q, want \"CHF\\u00a010.00\"", en)
		}
	})

	t.Run("OKPartnerFilter", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", list+fmt.Sprintf("?partner=%d", member.ID), "", market...), 200, page(1, "", "", memberJSON))
		WantResponse(t, Do(t, "GET", list+fmt.Sprintf("?partner=%d", f.market.ID), "", market...), 200, page(1, "", "", ownJSON))
		// A partner outside the scope filters everything out.
		WantResponse(t, Do(t, "GET", list+fmt.Sprintf("?partner=%d", outsider.ID), "", market...), 200, page(0, "", ""))
		WantResponse(t, Do(t, "GET", list+"?partner=", "", market...), 200, page(2, "", "", ownJSON, memberJSON))
		// So does an integer that is no id, as on the other lists.
		for _, v := range []string{"0", "-3"} {
			WantResponse(t, Do(t, "GET", list+"?partner="+v, "", market...), 200, page(0, "", ""))
		}
	})

	t.Run("ErrPartnerFilter", func(t *testing.T) {
		for _, v := range []string{"abc", "1.5"} {
			WantResponse(t, Do(t, "GET", list+"?partner="+v, "", market...), 400, `{"partner": ["A valid integer is required."]}`)
		}
	})

	t.Run("OKPagination", func(t *testing.T) {
		host := strings.TrimPrefix(f.URL, "http://")
		WantResponse(t, Do(t, "GET", list+"?page_size=1", "", market...), 200,
			page(2, "http://"+host+"/api/v2/giftcard_prototypes/?page=2&page_size=1", "", ownJSON))
		WantResponse(t, Do(t, "GET", list+"?page_size=1&page=2", "", market...), 200,
			page(2, "", "http://"+host+"/api/v2/giftcard_prototypes/?page_size=1", memberJSON))
		WantResponse(t, Do(t, "GET", list+"?page_size=1&page=3", "", market...), 404, `{"detail": "Invalid page."}`)
	})

	t.Run("OKListPartner", func(t *testing.T) {
		// A partner that is not a marketplace sees its own only.
		want := page(1, "", "", plain(shopProto, f.shop))
		WantResponse(t, Do(t, "GET", list, "", "X-Partner-Domain", "shop.example.com"), 200, want)
		WantResponse(t, Do(t, "GET", list, "", auth(f.shopTok)...), 200, want)
		WantResponse(t, Do(t, "GET", list+fmt.Sprintf("?partner=%d", f.market.ID), "", auth(f.shopTok)...), 200, page(0, "", ""))
		WantResponse(t, Do(t, "GET", list, "", auth(f.rivalTok)...), 200, page(0, "", ""))
	})

	t.Run("OKRetrieve", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", list+fmt.Sprint(own.ID)+"/", "", market...), 200, ownJSON)
		WantResponse(t, Do(t, "GET", list+fmt.Sprint(memberProto.ID), "", market...), 200, memberJSON)
		WantResponse(t, Do(t, "GET", list+fmt.Sprint(shopProto.ID)+"/", "", auth(f.shopTok)...), 200, plain(shopProto, f.shop))
	})

	t.Run("ErrRetrieveNotFound", func(t *testing.T) {
		for name, tc := range map[string]struct {
			id      string
			headers []string
		}{
			"OutsideNetwork":      {fmt.Sprint(outsiderProto.ID), market},
			"OtherPartner":        {fmt.Sprint(own.ID), auth(f.shopTok)},
			"MemberFromNonMember": {fmt.Sprint(memberProto.ID), auth(f.rivalTok)},
			"Unknown":             {"999999", market},
			"NotAnInteger":        {"abc", market},
		} {
			t.Run(name, func(t *testing.T) {
				WantResponse(t, Do(t, "GET", list+tc.id+"/", "", tc.headers...), 404, `{"detail": "Not found."}`)
			})
		}
	})

	t.Run("ErrScope", func(t *testing.T) {
		for _, path := range []string{"/api/v2/giftcard_prototypes/", fmt.Sprintf("/api/v2/giftcard_prototypes/%d/", own.ID)} {
			WantResponse(t, Do(t, "GET", f.URL+path, "", "X-Partner-Domain", "nowhere.example.com"), 404, `{"detail": "Not found."}`)
			WantResponse(t, Do(t, "GET", f.URL+path, ""), 400, `{"detail": "`+domain.MsgPartnerRequired+`"}`)
		}
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		for _, path := range []string{"/api/v2/giftcard_prototypes/", fmt.Sprintf("/api/v2/giftcard_prototypes/%d/", own.ID)} {
			res := Do(t, "PUT", f.URL+path, "{}", market...)
			WantResponse(t, res, 405, `{"detail": "Method \"PUT\" not allowed."}`)
			if res.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s: Allow = %q", path, res.Header.Get("Allow"))
			}
		}
	})
}
