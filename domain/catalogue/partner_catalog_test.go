package catalogue_test

import (
	"context"
	"fmt"
	"reflect"
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

// partnerCatalogFixture is a marketplace with a network of partners of every
// status, and a partner outside it.
type partnerCatalogFixture struct {
	raw                                              *bun.DB
	store                                            *persistence.PartnerCatalogStore
	svc                                              *catalogue.PartnerCatalogService
	market, active, network, inactive, test, outside *domain.Partner
}

func newPartnerCatalogFixture(t *testing.T) *partnerCatalogFixture {
	t.Helper()
	db, raw := dbtest.NewDatabase(t)
	ctx := context.Background()
	partners := db.Stores().Partners
	f := &partnerCatalogFixture{raw: raw, store: persistence.NewPartnerCatalogStore(raw)}
	f.svc = catalogue.NewPartnerCatalogService(f.store, partners)
	create := func(name, status string, marketplace bool) *domain.Partner {
		p := &domain.Partner{Name: name, Status: status, IsMarketplace: marketplace,
			SiteDomain: strings.ToLower(name) + ".example.com"}
		if err := partners.CreatePartner(ctx, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f.market = create("Market", domain.PartnerStatusActive, true)
	f.active = create("Active", domain.PartnerStatusActive, false)
	f.network = create("Network", domain.PartnerStatusNetwork, false)
	f.inactive = create("Inactive", domain.PartnerStatusInactive, false)
	f.test = create("Test", domain.PartnerStatusTest, false)
	f.outside = create("Outside", domain.PartnerStatusActive, false)
	for _, p := range []*domain.Partner{f.active, f.network, f.inactive, f.test} {
		if err := f.store.AddNetworkPartner(ctx, f.market.ID, p.ID); err != nil {
			t.Fatal(err)
		}
	}
	// Adding twice is harmless.
	if err := f.store.AddNetworkPartner(ctx, f.market.ID, f.active.ID); err != nil {
		t.Fatal(err)
	}
	return f
}

// as is a catalogue request of the partner, by its site domain.
func (f *partnerCatalogFixture) as(p *domain.Partner) context.Context {
	return domain.WithPartnerDomain(context.Background(), p.SiteDomain)
}

func listedIDs(t *testing.T, page *domain.Page[*catalogue.PartnerListing], err error) []int64 {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{}
	for _, p := range page.Items {
		ids = append(ids, p.ID)
	}
	return ids
}

func wantIDs(t *testing.T, got []int64, want ...*domain.Partner) {
	t.Helper()
	ids := []int64{}
	for _, p := range want {
		ids = append(ids, p.ID)
	}
	if !reflect.DeepEqual(got, ids) {
		t.Errorf("ids = %v, want %v", got, ids)
	}
}

func TestPartnerCatalogScope(t *testing.T) {
	t.Parallel()
	f := newPartnerCatalogFixture(t)
	first := domain.PageRequest{Number: 1, Size: domain.DefaultPageSize}

	t.Run("OKMarketplaceListsActiveAndNetworkPartners", func(t *testing.T) {
		page, err := f.svc.Partners(f.as(f.market), catalogue.PartnerQuery{}, first)
		wantIDs(t, listedIDs(t, page, err), f.active, f.network)
		if page.Count != 2 {
			t.Errorf("count = %d", page.Count)
		}
	})

	t.Run("OKPartnerListsItselfWhateverItsStatus", func(t *testing.T) {
		for _, p := range []*domain.Partner{f.active, f.inactive, f.test, f.outside} {
			page, err := f.svc.Partners(f.as(p), catalogue.PartnerQuery{}, first)
			wantIDs(t, listedIDs(t, page, err), p)
		}
	})

	t.Run("OKCallerPartner", func(t *testing.T) {
		ctx := domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{}, Partner: f.market})
		page, err := f.svc.Partners(ctx, catalogue.PartnerQuery{}, first)
		wantIDs(t, listedIDs(t, page, err), f.active, f.network)
	})

	t.Run("OKRetrieveListed", func(t *testing.T) {
		p, err := f.svc.Partner(f.as(f.market), fmt.Sprint(f.network.ID))
		if err != nil || p.ID != f.network.ID || p.Name != "Network" {
			t.Fatalf("partner = %+v, %v", p, err)
		}
	})

	t.Run("ErrRetrieveUnlisted", func(t *testing.T) {
		for _, p := range []*domain.Partner{f.inactive, f.test, f.outside, f.market} {
			_, err := f.svc.Partner(f.as(f.market), fmt.Sprint(p.ID))
			dbtest.WantCode(t, err, domain.CodeNotFound)
		}
		_, err := f.svc.Partner(f.as(f.active), fmt.Sprint(f.network.ID))
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, err = f.svc.Partner(f.as(f.market), "1e3")
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})

	t.Run("OKCurrentPartnerIsTheScope", func(t *testing.T) {
		for _, p := range []*domain.Partner{f.market, f.inactive} {
			got, err := f.svc.CurrentPartner(f.as(p))
			if err != nil || got.ID != p.ID {
				t.Errorf("current partner of %s = %+v, %v", p.Name, got, err)
			}
		}
	})

	t.Run("ErrNoScope", func(t *testing.T) {
		_, err := f.svc.Partners(context.Background(), catalogue.PartnerQuery{}, first)
		if e := dbtest.WantCode(t, err, domain.CodeInvalid); e.Message != domain.MsgPartnerRequired {
			t.Errorf("message = %q", e.Message)
		}
		_, err = f.svc.Destinations(domain.WithPartnerDomain(context.Background(), "nowhere.example.com"))
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})

	t.Run("ErrStoreFailsClosedWithoutScope", func(t *testing.T) {
		ctx := context.Background()
		for _, flt := range []catalogue.PartnerFilter{{}, {Self: f.active.ID, NetworkOf: f.market.ID, Statuses: catalogue.ListedPartnerStatuses},
			{NetworkOf: f.market.ID}} {
			if _, _, err := f.store.FindListedPartners(ctx, flt, first); err == nil {
				t.Errorf("FindListedPartners(%+v) did not fail", flt)
			}
			if _, err := f.store.FindDestinations(ctx, flt); err == nil {
				t.Errorf("FindDestinations(%+v) did not fail", flt)
			}
			if _, err := f.store.FindPartnerAgencies(ctx, flt); err == nil {
				t.Errorf("FindPartnerAgencies(%+v) did not fail", flt)
			}
		}
	})
}

func TestPartnerCatalogIDFilter(t *testing.T) {
	t.Parallel()
	f := newPartnerCatalogFixture(t)
	first := domain.PageRequest{Number: 1, Size: domain.DefaultPageSize}

	t.Run("OKOnlyTheCatalogues", func(t *testing.T) {
		q := catalogue.PartnerQuery{IDs: []int64{f.network.ID, f.outside.ID, f.active.ID}}
		page, err := f.svc.Partners(f.as(f.market), q, first)
		wantIDs(t, listedIDs(t, page, err), f.active, f.network)
	})

	t.Run("OKNilIsNoFilter", func(t *testing.T) {
		page, err := f.svc.Partners(f.as(f.market), catalogue.PartnerQuery{}, first)
		wantIDs(t, listedIDs(t, page, err), f.active, f.network)
	})

	t.Run("OKEmptySelectsNothing", func(t *testing.T) {
		page, err := f.svc.Partners(f.as(f.market), catalogue.PartnerQuery{IDs: []int64{}}, first)
		wantIDs(t, listedIDs(t, page, err))
	})

	t.Run("ErrNotAnInteger", func(t *testing.T) {
		var q catalogue.PartnerQuery
		q.Refuse(domain.VInvalid, catalogue.MsgPartnerIDInvalid, "id")
		_, err := f.svc.Partners(f.as(f.market), q, first)
		e := dbtest.WantCode(t, err, domain.CodeInvalid)
		if len(e.Fields) != 1 || e.Fields[0].Path[0] != "id" || e.Fields[0].Message != "Enter a whole number." {
			t.Errorf("fields = %+v", e.Fields)
		}
	})

	t.Run("ErrTooMany", func(t *testing.T) {
		ids := make([]int64, catalogue.MaxPartnerIDs+1)
		for i := range ids {
			ids[i] = int64(i + 1)
		}
		_, err := f.svc.Partners(f.as(f.market), catalogue.PartnerQuery{IDs: ids}, first)
		dbtest.WantCode(t, err, domain.CodeInvalid)
		_, err = f.svc.Partners(f.as(f.market), catalogue.PartnerQuery{IDs: ids[1:]}, first)
		if err != nil {
			t.Errorf("%d ids: %v", catalogue.MaxPartnerIDs, err)
		}
	})
}

func TestPartnerCatalogProfiles(t *testing.T) {
	t.Parallel()
	f := newPartnerCatalogFixture(t)
	ctx := context.Background()

	t.Run("OKSaveReplaces", func(t *testing.T) {
		lat := decimal.RequireFromString("-33.868820")
		if err := f.store.SavePartnerProfile(ctx, f.active.ID, &catalogue.PartnerProfile{Region: "Old", Latitude: &lat,
			Description: domain.Localized{"fr": "Ancien"}, SocialLinks: map[string]string{"x": "https://x.example"}}); err != nil {
			t.Fatal(err)
		}
		if err := f.store.SavePartnerProfile(ctx, f.active.ID, &catalogue.PartnerProfile{Region: "New",
			Description: domain.Localized{"en": "New"}}); err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.Partner(f.as(f.market), fmt.Sprint(f.active.ID))
		if err != nil {
			t.Fatal(err)
		}
		want := catalogue.PartnerProfile{Region: "New", Description: domain.Localized{"en": "New"},
			Managers: domain.Localized{}, Nearby: domain.Localized{}, PracticalInformation: domain.Localized{},
			Access: domain.Localized{}, CommercialDescription: domain.Localized{}, SocialLinks: map[string]string{}}
		if !reflect.DeepEqual(got.Profile, want) {
			t.Errorf("profile = %+v\nwant      %+v", got.Profile, want)
		}
	})

	t.Run("OKCoordinatesKeepTheirDigits", func(t *testing.T) {
		lat, lng := decimal.RequireFromString("-33.86882"), decimal.RequireFromString("151.209295")
		if err := f.store.SavePartnerProfile(ctx, f.network.ID, &catalogue.PartnerProfile{Latitude: &lat, Longitude: &lng}); err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.Partner(f.as(f.market), fmt.Sprint(f.network.ID))
		if err != nil {
			t.Fatal(err)
		}
		if got.Profile.Latitude.String() != "-33.86882" || got.Profile.Longitude.String() != "151.209295" {
			t.Errorf("coordinates = %s, %s", got.Profile.Latitude, got.Profile.Longitude)
		}
	})

	t.Run("ErrCoordinatesOutOfRange", func(t *testing.T) {
		lat := decimal.RequireFromString("91")
		if err := f.store.SavePartnerProfile(ctx, f.network.ID, &catalogue.PartnerProfile{Latitude: &lat}); err == nil {
			t.Error("latitude 91 was saved")
		}
	})

	t.Run("OKLabelsOfEachPartnerInOrder", func(t *testing.T) {
		for _, l := range []*catalogue.PartnerLabel{
			{PartnerID: f.network.ID, Name: "N1"}, {PartnerID: f.active.ID, Name: "A1"}, {PartnerID: f.network.ID, Name: "N2"},
		} {
			if err := f.store.AddPartnerLabel(ctx, l); err != nil || l.ID == 0 {
				t.Fatalf("add label: %v (id %d)", err, l.ID)
			}
		}
		page, err := f.svc.Partners(f.as(f.market), catalogue.PartnerQuery{}, domain.PageRequest{Number: 1, Size: 10})
		if err != nil {
			t.Fatal(err)
		}
		names := map[int64][]string{}
		for _, p := range page.Items {
			names[p.ID] = []string{}
			for _, l := range p.Labels {
				names[p.ID] = append(names[p.ID], l.Name)
			}
		}
		want := map[int64][]string{f.active.ID: {"A1"}, f.network.ID: {"N1", "N2"}}
		if !reflect.DeepEqual(names, want) {
			t.Errorf("labels = %v, want %v", names, want)
		}
	})

	t.Run("OKDestinationsSkipUnplacedPartners", func(t *testing.T) {
		if err := f.store.SavePartnerProfile(ctx, f.active.ID, &catalogue.PartnerProfile{City: "Lyon"}); err != nil {
			t.Fatal(err)
		}
		// network's profile has coordinates but no place.
		got, err := f.svc.Destinations(f.as(f.market))
		if err != nil {
			t.Fatal(err)
		}
		if want := []catalogue.Destination{{City: "Lyon"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("destinations = %+v, want %+v", got, want)
		}
		got, err = f.svc.Destinations(f.as(f.outside))
		if err != nil || got == nil || len(got) != 0 {
			t.Errorf("destinations of a partner without profile = %#v, %v", got, err)
		}
	})
}

func TestPartnerCatalogRefundWithdrawalTerms(t *testing.T) {
	t.Parallel()
	f := newPartnerCatalogFixture(t)
	if err := f.store.SaveRefundWithdrawalTerms(context.Background(), f.active.ID,
		domain.Localized{"fr": "Quatorze jours", "en": "  ", "xx": "ignored"}); err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.RefundWithdrawalTerms(f.as(f.active))
	if err != nil {
		t.Fatal(err)
	}
	want := domain.Localized{"fr": "Quatorze jours", "en": "-", "es": "-", "it": "-", "de": "-", "nl": "-", "ca": "-", "pt": "-"}
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("terms = %v, want [%v]", got, want)
	}
}

func TestPartnerCatalogLegalInformation(t *testing.T) {
	t.Parallel()
	f := newPartnerCatalogFixture(t)
	ctx := context.Background()
	if _, err := f.raw.ExecContext(ctx, "UPDATE partners SET currency = 'JPY', time_zone = 'Asia/Tokyo' WHERE id = ?", f.active.ID); err != nil {
		t.Fatal(err)
	}
	li := &catalogue.LegalInformation{AgencyName: "Agency", CapitalStock: decimal.RequireFromString("1500.25")}
	if err := f.store.SaveLegalInformation(ctx, f.active.ID, li); err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.LegalInformation(f.as(f.active))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d items", len(got))
	}
	v := got[0]
	if v.AgencyName != "Agency" || !v.CapitalStock.Equal(decimal.RequireFromString("1500.25")) || v.Name != "Active" ||
		v.CurrencySymbol != "¥" || v.CreationDate.Location().String() != "Asia/Tokyo" || !v.CreationDate.Equal(f.active.CreatedAt) {
		t.Errorf("legal information = %+v", v)
	}

	t.Run("OKUnknownCurrencyShowsItsCode", func(t *testing.T) {
		if _, err := f.raw.ExecContext(ctx, "UPDATE partners SET currency = 'XBT' WHERE id = ?", f.active.ID); err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.LegalInformation(f.as(f.active))
		if err != nil || got[0].CurrencySymbol != "XBT" {
			t.Errorf("got %+v, %v", got, err)
		}
	})

	t.Run("OKAgencyNameFallsBackToName", func(t *testing.T) {
		if err := f.store.SaveLegalInformation(ctx, f.network.ID, &catalogue.LegalInformation{AgencyName: "Network Agency"}); err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.GiftcardsProductInformation(f.as(f.market))
		if err != nil {
			t.Fatal(err)
		}
		want := []catalogue.PartnerAgency{{ID: f.active.ID, AgencyName: "Agency"}, {ID: f.network.ID, AgencyName: "Network Agency"}}
		if len(got) != 1 || !reflect.DeepEqual(got[0].Partners, want) {
			t.Errorf("partners = %+v, want %+v", got[0].Partners, want)
		}
	})
}

func TestPartnerCatalogProductInformationDefaults(t *testing.T) {
	t.Parallel()
	f := newPartnerCatalogFixture(t)
	ctx := f.as(f.outside)

	t.Run("OKZeroValues", func(t *testing.T) {
		vouchers, err := f.svc.VouchersProductInformation(ctx)
		if err != nil || !reflect.DeepEqual(*vouchers, catalogue.VouchersProductInformation{}) {
			t.Errorf("vouchers = %+v, %v", vouchers, err)
		}
		nv, err := f.svc.NetworkVouchersProductInformation(ctx)
		if err != nil || !reflect.DeepEqual(*nv, catalogue.NetworkVouchersProductInformation{}) {
			t.Errorf("network vouchers = %+v, %v", nv, err)
		}
		ws, err := f.svc.WorkshopsProductInformation(ctx)
		if err != nil || !reflect.DeepEqual(*ws, catalogue.WorkshopsProductInformation{}) {
			t.Errorf("workshops = %+v, %v", ws, err)
		}
		ev, err := f.svc.EventsProductInformation(ctx)
		if err != nil || ev.DisplayEventsPerSlots || ev.DisplayFullyBookedEvents || len(ev.Title) != 0 || len(ev.TOSURL) != 0 {
			t.Errorf("events = %+v, %v", ev, err)
		}
	})

	t.Run("OKNetworkGiftcardsFormattedInThePartnersCurrency", func(t *testing.T) {
		if _, err := f.raw.ExecContext(context.Background(), "UPDATE partners SET currency = 'GBP' WHERE id = ?", f.outside.ID); err != nil {
			t.Fatal(err)
		}
		ctx := f.as(f.outside) // a new request: the scope is read once per request
		ng, err := f.svc.NetworkGiftcardsProductInformation(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ng.Giftcard.PredefinedAmounts == nil || len(ng.PredefinedAmountsFormatted) != 0 ||
			!reflect.DeepEqual(ng.MinimumAmountFormatted, domain.Localized(l10n.Money(decimal.Zero, "GBP"))) {
			t.Errorf("network giftcards = %+v", ng)
		}
		amounts := []decimal.Decimal{decimal.RequireFromString("10"), decimal.RequireFromString("20.5")}
		if err := f.store.SaveNetworkGiftcardsProductInformation(context.Background(), f.outside.ID,
			&catalogue.NetworkGiftcardsProductInformation{Giftcard: catalogue.NetworkGiftcardSettings{PredefinedAmounts: amounts}}); err != nil {
			t.Fatal(err)
		}
		ng, err = f.svc.NetworkGiftcardsProductInformation(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(ng.PredefinedAmountsFormatted) != 2 || ng.PredefinedAmountsFormatted[1]["en"] != "£20.50" {
			t.Errorf("formatted = %v", ng.PredefinedAmountsFormatted)
		}
	})
}

// The events area reads display events per slots from event_settings:
// product information shows and saves that same flag.
func TestPartnerCatalogEventsFlagIsTheEventsSetting(t *testing.T) {
	t.Parallel()
	f := newPartnerCatalogFixture(t)
	ctx := context.Background()

	t.Run("OKReadsEventSettings", func(t *testing.T) {
		if _, err := f.raw.ExecContext(ctx, "INSERT INTO event_settings (partner_id, display_events_per_slots) VALUES (?, true)", f.active.ID); err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.EventsProductInformation(f.as(f.active))
		if err != nil || !got.DisplayEventsPerSlots {
			t.Errorf("events = %+v, %v", got, err)
		}
	})

	t.Run("OKSavesEventSettings", func(t *testing.T) {
		for _, on := range []bool{true, false} {
			if err := f.store.SaveEventsProductInformation(ctx, f.network.ID, &catalogue.EventsProductInformation{
				Title: domain.Localized{"fr": "Billets"}, DisplayEventsPerSlots: on}); err != nil {
				t.Fatal(err)
			}
			var flag bool
			if err := f.raw.NewRaw("SELECT display_events_per_slots FROM event_settings WHERE partner_id = ?", f.network.ID).Scan(ctx, &flag); err != nil {
				t.Fatal(err)
			}
			got, err := f.svc.EventsProductInformation(f.as(f.network))
			if err != nil || flag != on || got.DisplayEventsPerSlots != on || got.Title["fr"] != "Billets" {
				t.Errorf("saved %v: event_settings %v, events %+v, %v", on, flag, got, err)
			}
		}
	})
}
