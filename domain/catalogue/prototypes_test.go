package catalogue_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestGiftcardPrototypeScope(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	ctx := context.Background()
	partners := db.Stores().Partners
	store := persistence.NewPrototypeStore(raw)
	svc := catalogue.NewPrototypeService(persistence.NewUnitOfWork(raw, persistence.PrototypeStores))

	market := &domain.Partner{Name: "Market", SiteDomain: "market.example.com", IsMarketplace: true, Status: domain.PartnerStatusActive}
	member := &domain.Partner{Name: "Member", SiteDomain: "member.example.com", Status: domain.PartnerStatusActive, Currency: "GBP"}
	outsider := &domain.Partner{Name: "Outsider", Status: domain.PartnerStatusActive}
	for _, p := range []*domain.Partner{market, member, outsider} {
		if err := partners.CreatePartner(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := persistence.NewPartnerCatalogStore(raw).AddNetworkPartner(ctx, market.ID, member.ID); err != nil {
		t.Fatal(err)
	}
	protos := map[string]*catalogue.GiftcardPrototype{}
	// In a fixed order: the list is ordered by id.
	for _, owner := range []struct {
		name string
		p    *domain.Partner
	}{{"market", market}, {"member", member}, {"outsider", outsider}} {
		name, p := owner.name, owner.p
		g := &catalogue.GiftcardPrototype{PartnerID: p.ID, MinimumAmount: decimal.RequireFromString("5"),
			PredefinedAmounts: []decimal.Decimal{decimal.RequireFromString("20")}, ValidityPeriod: 1, ValidityUnit: catalogue.ValidityYear}
		if err := store.CreateGiftcardPrototype(ctx, g); err != nil {
			t.Fatal(err)
		}
		if g.PartnerName != p.Name {
			t.Errorf("created with partner name %q, want %q", g.PartnerName, p.Name)
		}
		protos[name] = g
	}
	first := domain.PageRequest{Number: 1, Size: 20}
	ids := func(page *domain.Page[*catalogue.GiftcardPrototypeView]) []int64 {
		out := []int64{}
		for _, v := range page.Items {
			out = append(out, v.ID)
		}
		return out
	}
	inMarket := domain.WithPartnerDomain(ctx, "market.example.com")
	inMember := domain.WithPartnerDomain(ctx, "member.example.com")

	t.Run("OKMarketplaceSeesItsNetwork", func(t *testing.T) {
		page, err := svc.GiftcardPrototypes(inMarket, "", first)
		if err != nil || page.Count != 2 || len(page.Items) != 2 ||
			page.Items[0].ID != protos["market"].ID || page.Items[1].ID != protos["member"].ID {
			t.Fatalf("ids %v, %v", ids(page), err)
		}
		// Each amount is formatted in its owner's currency.
		if got := page.Items[1].MinimumAmountFormatted["en"]; got != "£5.00" {
			t.Errorf("member minimum_amount_formatted.en = %q", got)
		}
		if got := page.Items[1].PredefinedAmountsFormatted; len(got) != 1 || got[0]["en"] != "£20.00" {
			t.Errorf("member predefined_amounts_formatted = %v", got)
		}
	})

	t.Run("OKPartnerNarrows", func(t *testing.T) {
		page, err := svc.GiftcardPrototypes(inMarket, strconv.FormatInt(member.ID, 10), first)
		if err != nil || page.Count != 1 || page.Items[0].ID != protos["member"].ID {
			t.Errorf("ids %v, %v", ids(page), err)
		}
		page, err = svc.GiftcardPrototypes(inMarket, strconv.FormatInt(outsider.ID, 10), first)
		if err != nil || page.Count != 0 {
			t.Errorf("outsider: ids %v, %v", ids(page), err)
		}
	})

	t.Run("OKMemberSeesOnlyItsOwn", func(t *testing.T) {
		// The network relation goes one way: a member does not see its
		// marketplace's prototypes.
		page, err := svc.GiftcardPrototypes(inMember, "", first)
		if err != nil || page.Count != 1 || page.Items[0].ID != protos["member"].ID {
			t.Errorf("ids %v, %v", ids(page), err)
		}
		_, err = svc.GiftcardPrototype(inMember, strconv.FormatInt(protos["market"].ID, 10))
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})

	t.Run("ErrOutsideNetwork", func(t *testing.T) {
		_, err := svc.GiftcardPrototype(inMarket, strconv.FormatInt(protos["outsider"].ID, 10))
		dbtest.WantCode(t, err, domain.CodeNotFound)
		got, err := svc.GiftcardPrototype(inMarket, strconv.FormatInt(protos["member"].ID, 10))
		if err != nil || got.PartnerName != "Member" || got.PartnerCurrency != "GBP" {
			t.Errorf("member's prototype = %+v, %v", got, err)
		}
	})

	t.Run("ErrPartnerNotAnInteger", func(t *testing.T) {
		e := dbtest.WantCode(t, func() error { _, err := svc.GiftcardPrototypes(inMarket, "x", first); return err }(), domain.CodeInvalid)
		if len(e.Fields) != 1 || e.Fields[0].Path[0] != "partner" || e.Fields[0].Message != "A valid integer is required." {
			t.Errorf("fields = %+v", e.Fields)
		}
	})

	t.Run("ErrInvalidValidityUnit", func(t *testing.T) {
		err := store.CreateGiftcardPrototype(ctx, &catalogue.GiftcardPrototype{PartnerID: market.ID, ValidityPeriod: 1, ValidityUnit: "fortnight"})
		if err == nil {
			t.Error("a validity unit outside day, week, month, year was stored")
		}
	})
}

func TestPrototypeThemesAndUniverses(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	ctx := context.Background()
	partners := db.Stores().Partners
	store := persistence.NewPrototypeStore(raw)
	svc := catalogue.NewPrototypeService(persistence.NewUnitOfWork(raw, persistence.PrototypeStores))
	shop := &domain.Partner{Name: "Shop", SiteDomain: "shop.example.com", Status: domain.PartnerStatusActive}
	if err := partners.CreatePartner(ctx, shop); err != nil {
		t.Fatal(err)
	}
	inShop := domain.WithPartnerDomain(ctx, "shop.example.com")

	t.Run("OKEmpty", func(t *testing.T) {
		themes, err := svc.Themes(inShop)
		if err != nil || themes == nil || len(themes) != 0 {
			t.Errorf("themes = %#v, %v", themes, err)
		}
		tree, err := svc.Universes(inShop)
		if err != nil || tree == nil || len(tree) != 0 {
			t.Errorf("universes = %#v, %v", tree, err)
		}
	})

	t.Run("OKThreeLevelsFromOneLeaf", func(t *testing.T) {
		var chain []*catalogue.Universe
		var parent *int64
		for i := 0; i < 3; i++ {
			u := &catalogue.Universe{ParentID: parent}
			if err := store.CreateUniverse(ctx, u); err != nil {
				t.Fatal(err)
			}
			chain, parent = append(chain, u), &u.ID
		}
		th := &catalogue.Theme{Name: domain.Localized{"en": "Sea"}}
		if err := store.CreateTheme(ctx, th); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ { // two prototypes, same leaf and theme: each shown once
			p := &catalogue.VoucherPrototype{PartnerID: shop.ID, UniverseID: &chain[2].ID, ThemeIDs: []int64{th.ID, th.ID}}
			if err := store.CreateVoucherPrototype(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		tree, err := svc.Universes(inShop)
		if err != nil || len(tree) != 1 || tree[0].ID != chain[0].ID ||
			len(tree[0].SubUniverses) != 1 || tree[0].SubUniverses[0].ID != chain[1].ID ||
			len(tree[0].SubUniverses[0].SubUniverses) != 1 || tree[0].SubUniverses[0].SubUniverses[0].ID != chain[2].ID ||
			len(tree[0].SubUniverses[0].SubUniverses[0].SubUniverses) != 0 {
			t.Errorf("tree = %+v, %v", tree, err)
		}
		themes, err := svc.Themes(inShop)
		if err != nil || len(themes) != 1 || themes[0].ID != th.ID || themes[0].Name["en"] != "Sea" {
			t.Errorf("themes = %+v, %v", themes, err)
		}
	})
}
