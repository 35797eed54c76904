package catalogue_test

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestParseBoxOrdering(t *testing.T) {
	t.Parallel()
	asc := func(f string) catalogue.BoxOrder { return catalogue.BoxOrder{Field: f} }
	desc := func(f string) catalogue.BoxOrder { return catalogue.BoxOrder{Field: f, Desc: true} }
	for in, want := range map[string][]catalogue.BoxOrder{
		"":                  {asc("ranking"), asc("id")},
		"price":             {asc("price"), asc("id")},
		"-price ranking":    {desc("price"), asc("ranking"), asc("id")},
		"-id":               {desc("id")},
		"id price":          {asc("id"), asc("price")},
		"price -price rank": nil,                       // an unknown field fails the whole ordering
		"price -price":      {asc("price"), asc("id")}, // the first of a field wins
	} {
		got, err := catalogue.ParseBoxOrdering(strings.Fields(in))
		if want == nil {
			e := dbtest.WantCode(t, err, domain.CodeInvalid)
			if len(e.Fields) != 1 || e.Fields[0].Path[0] != "ordering" ||
				e.Fields[0].Message != "Select a valid choice. rank is not one of the available choices." {
				t.Errorf("%q: fields = %+v", in, e.Fields)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseBoxOrdering(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

func TestUniverseTree(t *testing.T) {
	t.Parallel()
	id := func(n int64) *int64 { return &n }
	order := func(n int) *int { return &n }
	universes := []*catalogue.Universe{
		{ID: 5, ParentID: id(1)},
		{ID: 1, Order: order(2)},
		{ID: 2, Order: order(1)},
		{ID: 3},
		{ID: 4, ParentID: id(1), Order: order(9)},
		{ID: 6, ParentID: id(5)},
		{ID: 7, ParentID: id(99)}, // parent not among them: a root
	}
	type node struct {
		ID   int64
		Subs []node
	}
	var shape func([]*catalogue.UniverseNode) []node
	shape = func(ns []*catalogue.UniverseNode) []node {
		out := []node{}
		for _, n := range ns {
			out = append(out, node{n.ID, shape(n.SubUniverses)})
		}
		return out
	}
	got := shape(catalogue.UniverseTree(universes))
	want := []node{{2, []node{}}, {1, []node{{4, []node{}}, {5, []node{{6, []node{}}}}}}, {3, []node{}}, {7, []node{}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tree = %+v\nwant   %+v", got, want)
	}
	if got := catalogue.UniverseTree(nil); got == nil || len(got) != 0 {
		t.Errorf("empty tree = %#v, want an empty slice", got)
	}
}

func TestBoxService(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	ctx := context.Background()
	partners := db.Stores().Partners
	store := persistence.BoxStores(raw).Boxes
	protos := persistence.NewPrototypeStore(raw)
	svc := catalogue.NewBoxService(persistence.NewUnitOfWork(raw, persistence.BoxStores))

	market := &domain.Partner{Name: "Market", SiteDomain: "market.example.com", IsMarketplace: true, Status: domain.PartnerStatusActive}
	shop := &domain.Partner{Name: "Shop", SiteDomain: "shop.example.com", Status: domain.PartnerStatusActive}
	for _, p := range []*domain.Partner{market, shop} {
		if err := partners.CreatePartner(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	root := &catalogue.Universe{Name: domain.Localized{"fr": "Racine"}}
	if err := protos.CreateUniverse(ctx, root); err != nil {
		t.Fatal(err)
	}
	leaf := &catalogue.Universe{ParentID: &root.ID}
	if err := protos.CreateUniverse(ctx, leaf); err != nil {
		t.Fatal(err)
	}
	active := &catalogue.Box{MarketplaceID: market.ID, IsActive: true, Price: decimal.RequireFromString("12.5"), UniverseIDs: []int64{leaf.ID},
		Name: domain.Localized{"fr": "Coffret"}, ShortDescription: domain.Localized{"fr": "Court"}, LongDescription: domain.Localized{"fr": "Long"}}
	inactive := &catalogue.Box{MarketplaceID: market.ID, Price: decimal.RequireFromString("1")}
	// A box filed under a non-marketplace partner is never shown.
	stray := &catalogue.Box{MarketplaceID: shop.ID, IsActive: true, UniverseIDs: []int64{root.ID}}
	for _, b := range []*catalogue.Box{active, inactive, stray} {
		if err := store.CreateBox(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []*catalogue.BoxOffer{
		{BoxID: active.ID, PartnerID: shop.ID, Status: catalogue.BoxOfferStatusValidated},
		{BoxID: active.ID, PartnerID: market.ID, Status: catalogue.BoxOfferStatusValidated},
		{BoxID: active.ID, PartnerID: shop.ID, Status: catalogue.BoxOfferStatusDraft},
		{BoxID: active.ID, PartnerID: shop.ID, Status: "REJECTED"},
		{BoxID: inactive.ID, PartnerID: shop.ID, Status: catalogue.BoxOfferStatusValidated},
	} {
		if err := store.CreateBoxOffer(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	inMarket := domain.WithPartnerDomain(ctx, "Market.Example.com")
	inShop := domain.WithPartnerDomain(ctx, "shop.example.com")
	first := domain.PageRequest{Number: 1, Size: 20}
	const allTexts = catalogue.BoxShortDescription | catalogue.BoxLongDescription

	t.Run("OKOnlyValidatedOffersCount", func(t *testing.T) {
		page, err := svc.Boxes(inMarket, catalogue.BoxList{Page: first, Texts: allTexts})
		if err != nil {
			t.Fatal(err)
		}
		if page.Count != 1 || len(page.Items) != 1 || page.Items[0].ID != active.ID || page.Items[0].NbOffers != 2 {
			t.Fatalf("page = %+v", page)
		}
		v := page.Items[0]
		if v.CurrencyCode != "EUR" || v.PriceFormatted()["fr"] == "" || !v.Price.Equal(decimal.RequireFromString("12.50")) {
			t.Errorf("view = %+v", v)
		}
		if !reflect.DeepEqual(v.UniverseIDs, []int64{leaf.ID}) || v.Images == nil {
			t.Errorf("universes %v, images %#v", v.UniverseIDs, v.Images)
		}
	})

	// Offers read along with the boxes are the pages BoxOffers answers.
	t.Run("OKOffersAlong", func(t *testing.T) {
		for _, w := range []domain.PageRequest{{Number: 1, Size: 1}, {Number: 2, Size: 1}, {Number: 1, Size: 5}, {Number: 3, Size: 5}} {
			page, err := svc.Boxes(inMarket, catalogue.BoxList{Page: first, Offers: &w})
			if err != nil || len(page.Items) != 1 {
				t.Fatalf("%+v: %+v, %v", w, page, err)
			}
			want, err := svc.BoxOffers(inMarket, []int64{active.ID}, w)
			if err != nil {
				t.Fatal(err)
			}
			if got := page.Items[0].Offers; !reflect.DeepEqual(got, want[0]) {
				t.Errorf("window %+v: read along %+v, BoxOffers %+v", w, got, want[0])
			}
		}
		page, err := svc.Boxes(inMarket, catalogue.BoxList{Page: first})
		if err != nil || page.Items[0].Offers != nil {
			t.Errorf("offers not asked: %+v, %v", page.Items[0].Offers, err)
		}
	})

	// A list reads the descriptions its reader names, and only those.
	t.Run("OKDescriptionsAsked", func(t *testing.T) {
		for _, tc := range []struct {
			texts       catalogue.BoxTexts
			short, long bool
		}{{0, false, false}, {catalogue.BoxShortDescription, true, false}, {catalogue.BoxLongDescription, false, true}, {allTexts, true, true}} {
			page, err := svc.Boxes(inMarket, catalogue.BoxList{Page: first, Texts: tc.texts})
			if err != nil || len(page.Items) != 1 {
				t.Fatalf("%d: %+v, %v", tc.texts, page, err)
			}
			b := page.Items[0]
			if b.Name["fr"] != "Coffret" || (b.ShortDescription["fr"] == "Court") != tc.short || (b.LongDescription["fr"] == "Long") != tc.long {
				t.Errorf("texts %d: name %v, short %v, long %v", tc.texts, b.Name, b.ShortDescription, b.LongDescription)
			}
		}
	})

	t.Run("ErrInactiveBox", func(t *testing.T) {
		_, err := svc.Box(inMarket, "999999")
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, err = svc.Box(inMarket, strconv.FormatInt(inactive.ID, 10))
		dbtest.WantCode(t, err, domain.CodeNotFound)
		b, err := svc.Box(inMarket, strconv.FormatInt(active.ID, 10))
		if err != nil || b.NbOffers != 2 {
			t.Errorf("active box = %+v, %v", b, err)
		}
	})

	t.Run("OKNotAMarketplace", func(t *testing.T) {
		page, err := svc.Boxes(inShop, catalogue.BoxList{Page: first, Texts: allTexts})
		if err != nil || page.Count != 0 || len(page.Items) != 0 {
			t.Errorf("page = %+v, %v", page, err)
		}
		_, err = svc.Box(inShop, strconv.FormatInt(stray.ID, 10))
		dbtest.WantCode(t, err, domain.CodeNotFound)
		tree, err := svc.BoxUniverses(inShop)
		if err != nil || len(tree) != 0 {
			t.Errorf("universes = %v, %v", tree, err)
		}
	})

	t.Run("OKUniversesWithAncestors", func(t *testing.T) {
		tree, err := svc.BoxUniverses(inMarket)
		if err != nil {
			t.Fatal(err)
		}
		if len(tree) != 1 || tree[0].ID != root.ID || len(tree[0].SubUniverses) != 1 || tree[0].SubUniverses[0].ID != leaf.ID {
			t.Errorf("tree = %+v", tree)
		}
	})

	t.Run("ErrOrdering", func(t *testing.T) {
		_, err := svc.Boxes(inMarket, catalogue.BoxList{Ordering: []string{"price;"}, Page: first, Texts: allTexts})
		dbtest.WantCode(t, err, domain.CodeInvalid)
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		_, err := svc.Boxes(ctx, catalogue.BoxList{Page: first, Texts: allTexts})
		e := dbtest.WantCode(t, err, domain.CodeInvalid)
		if e.Message != domain.MsgPartnerRequired {
			t.Errorf("message = %q", e.Message)
		}
		_, err = svc.BoxUniverses(domain.WithPartnerDomain(ctx, "nowhere.example.com"))
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})
}
