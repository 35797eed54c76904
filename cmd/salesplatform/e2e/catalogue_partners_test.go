package e2e

import (
	"context"
	"encoding/json"
	"fmt"
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

// pcFixture is a running server with the partners the partner catalogue
// tests share:
//   - market: a marketplace at market.example.com, reached by its domain;
//   - shop: a partner at shop.example.com in market's network, with a full
//     profile, two labels, legal information and a token;
//   - cafe: an active partner in the network, partly described;
//   - netp: a network partner (status n) in the network, never described;
//   - closed (inactive) and tester (test) partners in the network, not listed;
//   - outsider: an active partner outside the network.
type pcFixture struct {
	*Server
	db                                                     *bun.DB
	store                                                  *persistence.PartnerCatalogStore
	market, shop, cafe, netp, closed, tester, outsider     *domain.Partner
	shopTok                                                string
	shopJSON, cafeJSON, netpJSON, marketJSON, outsiderJSON map[string]any
}

func newPCFixture(t *testing.T) *pcFixture {
	t.Helper()
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	f := &pcFixture{}
	CreateUser(t, dsn, "--username", "market", "--password", "market-password",
		"--partner-name", "Market", "--partner-domain", "market.example.com", "--marketplace")
	f.shopTok = CreateUser(t, dsn, "--username", "shop", "--password", "shop-password",
		"--partner-name", "Shop", "--partner-domain", "shop.example.com")
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db, f.store = db, persistence.NewPartnerCatalogStore(db)
	partners := persistence.NewDatabase(db).Stores().Partners
	find := func(domainName string) *domain.Partner {
		p, err := partners.FindPartnerBySiteDomain(ctx, domainName)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	create := func(name, status string) *domain.Partner {
		p := &domain.Partner{Name: name, Status: status}
		if err := partners.CreatePartner(ctx, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f.market, f.shop = find("market.example.com"), find("shop.example.com")
	f.cafe = create("Cafe", domain.PartnerStatusActive)
	f.netp = create("Net Partner", domain.PartnerStatusNetwork)
	f.closed = create("Closed", domain.PartnerStatusInactive)
	f.tester = create("Tester", domain.PartnerStatusTest)
	f.outsider = create("Outsider", domain.PartnerStatusActive)
	for _, p := range []*domain.Partner{f.shop, f.cafe, f.netp, f.closed, f.tester} {
		f.must(t, f.store.AddNetworkPartner(ctx, f.market.ID, p.ID))
	}

	lat, lng := decimal.RequireFromString("48.856600"), decimal.RequireFromString("2.352200")
	f.must(t, f.store.SavePartnerProfile(ctx, f.shop.ID, &catalogue.PartnerProfile{
		Description:           domain.Localized{"fr": "Une boutique", "en": "A shop"},
		Managers:              domain.Localized{"fr": "Anne et Paul"},
		Nearby:                domain.Localized{"en": "The river"},
		PracticalInformation:  domain.Localized{"de": "Geöffnet"},
		Access:                domain.Localized{"fr": "Métro 1"},
		CommercialDescription: domain.Localized{"it": "Negozio"},
		Region:                "Île-de-France", Department: "Paris", City: "Paris",
		Latitude: &lat, Longitude: &lng,
		Facilities:  catalogue.PartnerFacilities{DisabledAccess: true, Wifi: true, FamilyFriendly: true},
		SocialLinks: map[string]string{"facebook": "https://facebook.example/shop"},
	}))
	f.must(t, f.store.AddPartnerLabel(ctx, &catalogue.PartnerLabel{PartnerID: f.shop.ID, Name: "Label B", LogoURL: "https://cdn.example.com/b.png"}))
	f.must(t, f.store.AddPartnerLabel(ctx, &catalogue.PartnerLabel{PartnerID: f.shop.ID, Name: "Label A", LogoURL: "https://cdn.example.com/a.png"}))
	f.must(t, f.store.AddPartnerLabel(ctx, &catalogue.PartnerLabel{PartnerID: f.outsider.ID, Name: "Elsewhere", LogoURL: "https://cdn.example.com/e.png"}))
	f.must(t, f.store.SavePartnerProfile(ctx, f.cafe.ID, &catalogue.PartnerProfile{
		Region: "Bretagne", Department: "Finistère", City: "Brest",
		Facilities: catalogue.PartnerFacilities{AirConditioning: true, PrivateParking: true, SmokingArea: true, PetsAllowed: true},
	}))
	// Same place as cafe: one destination.
	f.must(t, f.store.SavePartnerProfile(ctx, f.closed.ID, &catalogue.PartnerProfile{Region: "Corse", Department: "Corse-du-Sud", City: "Ajaccio"}))
	f.must(t, f.store.SavePartnerProfile(ctx, f.outsider.ID, &catalogue.PartnerProfile{Region: "Bretagne", Department: "Morbihan", City: "Vannes"}))

	f.shopJSON = map[string]any{
		"id": f.shop.ID, "name": "Shop",
		"description":            pcLocalized("fr", "Une boutique", "en", "A shop"),
		"managers":               pcLocalized("fr", "Anne et Paul"),
		"nearby":                 pcLocalized("en", "The river"),
		"practical_information":  pcLocalized("de", "Geöffnet"),
		"access":                 pcLocalized("fr", "Métro 1"),
		"commercial_description": pcLocalized("it", "Negozio"),
		"logo":                   nil, "region": "Île-de-France", "department": "Paris",
		"latitude": 48.8566, "longitude": 2.3522,
		"facilities": map[string]any{"disabled_access": true, "air_conditioning": false, "private_parking": false,
			"wifi": true, "smoking_area": false, "pets_allowed": false, "family_friendly": true},
		"social_links": map[string]any{"facebook": "https://facebook.example/shop"},
		"label_and_network": []any{
			map[string]any{"name": "Label B", "logo": "https://cdn.example.com/b.png"},
			map[string]any{"name": "Label A", "logo": "https://cdn.example.com/a.png"},
		},
	}
	f.cafeJSON = pcBarePartner(f.cafe, "Bretagne", "Finistère")
	f.cafeJSON["facilities"] = map[string]any{"disabled_access": false, "air_conditioning": true, "private_parking": true,
		"wifi": false, "smoking_area": true, "pets_allowed": true, "family_friendly": false}
	f.netpJSON = pcBarePartner(f.netp, "", "")
	f.marketJSON = pcBarePartner(f.market, "", "")
	f.outsiderJSON = pcBarePartner(f.outsider, "Bretagne", "Morbihan")
	f.outsiderJSON["label_and_network"] = []any{map[string]any{"name": "Elsewhere", "logo": "https://cdn.example.com/e.png"}}

	f.Server = Serve(t, dsn)
	return f
}

func (f *pcFixture) must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// pcLocalized is a Localized as the API shows it: every language, null
// where there is no text; args are language, text pairs.
func pcLocalized(args ...string) map[string]any {
	out := map[string]any{}
	for _, lang := range domain.Languages {
		out[lang] = nil
	}
	for i := 0; i+1 < len(args); i += 2 {
		out[args[i]] = args[i+1]
	}
	return out
}

// pcAll is a Localized with the same text in every language.
func pcAll(text string) map[string]any {
	out := map[string]any{}
	for _, lang := range domain.Languages {
		out[lang] = text
	}
	return out
}

// pcFormatted is a formatted amount as the API shows it.
func pcFormatted(amount, currency string) map[string]any {
	out := map[string]any{}
	for lang, s := range l10n.Money(decimal.RequireFromString(amount), currency) {
		out[lang] = s
	}
	return out
}

// pcBarePartner is a partner without a profile (but region and
// department) as the API shows it.
func pcBarePartner(p *domain.Partner, region, department string) map[string]any {
	return map[string]any{
		"id": p.ID, "name": p.Name,
		"description": pcLocalized(), "managers": pcLocalized(), "nearby": pcLocalized(),
		"practical_information": pcLocalized(), "access": pcLocalized(), "commercial_description": pcLocalized(),
		"logo": nil, "region": region, "department": department, "latitude": nil, "longitude": nil,
		"facilities": map[string]any{"disabled_access": false, "air_conditioning": false, "private_parking": false,
			"wifi": false, "smoking_area": false, "pets_allowed": false, "family_friendly": false},
		"social_links": map[string]any{}, "label_and_network": []any{},
	}
}

// pcJSON writes an expected body.
func pcJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func pcPage(count int, next, previous any, results ...any) map[string]any {
	if results == nil {
		results = []any{}
	}
	return map[string]any{"count": count, "next": next, "previous": previous, "results": results}
}

// pcScopeErrors checks the answers of a catalogue read at url that names
// an unknown partner, or none, and of another method than GET.
func pcScopeErrors(t *testing.T, url, method string) {
	t.Run("ErrUnknownDomain", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", "X-Partner-Domain", "nowhere.example.com"), 404, `{"detail": "Not found."}`)
	})
	t.Run("ErrNoPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, ""), 400, pcJSON(t, map[string]string{"detail": domain.MsgPartnerRequired}))
	})
	t.Run("ErrBadTokenWithDomain", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", append(auth("0123456789012345678901234567890123456789"), pcMarket...)...),
			401, `{"detail": "Invalid token."}`)
	})
	t.Run("ErrMethod", func(t *testing.T) {
		WantResponse(t, Do(t, method, url, `{}`, pcMarket...), 405, fmt.Sprintf(`{"detail": "Method \"%s\" not allowed."}`, method))
	})
}

var (
	pcMarket = []string{"X-Partner-Domain", "market.example.com"}
	pcShop   = []string{"X-Partner-Domain", "shop.example.com"}
)

func TestPartnerCatalogList(t *testing.T) {
	t.Parallel()
	f := newPCFixture(t)
	url := f.URL + "/api/v2/partners/"

	t.Run("OKMarketplaceListsItsActiveNetwork", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", pcMarket...), 200,
			pcJSON(t, pcPage(3, nil, nil, f.shopJSON, f.cafeJSON, f.netpJSON)))
	})

	t.Run("OKPartnerListsItselfByToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", auth(f.shopTok)...), 200, pcJSON(t, pcPage(1, nil, nil, f.shopJSON)))
	})

	t.Run("OKDomainWinsOverToken", func(t *testing.T) {
		res := Do(t, "GET", url, "", append(auth(f.shopTok), pcMarket...)...)
		WantResponse(t, res, 200, pcJSON(t, pcPage(3, nil, nil, f.shopJSON, f.cafeJSON, f.netpJSON)))
	})

	t.Run("OKWithoutTrailingSlash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/partners", "", pcShop...), 200, pcJSON(t, pcPage(1, nil, nil, f.shopJSON)))
	})

	t.Run("OKDepartmentCaseInsensitive", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?department=FINIST%C3%88RE", "", pcMarket...), 200, pcJSON(t, pcPage(1, nil, nil, f.cafeJSON)))
		WantResponse(t, Do(t, "GET", url+"?department=Finist", "", pcMarket...), 200, pcJSON(t, pcPage(0, nil, nil)))
	})

	t.Run("OKRegionCaseInsensitive", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?region=%C3%AEle-de-france", "", pcMarket...), 200, pcJSON(t, pcPage(1, nil, nil, f.shopJSON)))
		// The outsider is in Bretagne too, but not in the network.
		WantResponse(t, Do(t, "GET", url+"?region=bretagne&department=", "", pcMarket...), 200, pcJSON(t, pcPage(1, nil, nil, f.cafeJSON)))
	})

	t.Run("OKIDs", func(t *testing.T) {
		q := fmt.Sprintf("?id=%d,%d,,%d,%d", f.netp.ID, f.outsider.ID, f.shop.ID, f.closed.ID)
		WantResponse(t, Do(t, "GET", url+q, "", pcMarket...), 200, pcJSON(t, pcPage(2, nil, nil, f.shopJSON, f.netpJSON)))
		WantResponse(t, Do(t, "GET", url+"?id=", "", pcMarket...), 200, pcJSON(t, pcPage(3, nil, nil, f.shopJSON, f.cafeJSON, f.netpJSON)))
	})

	t.Run("ErrIDNotInteger", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?id=1,two", "", pcMarket...), 400, `{"id": ["Enter a whole number."]}`)
		WantResponse(t, Do(t, "GET", url+"?id=1.5", "", pcMarket...), 400, `{"id": ["Enter a whole number."]}`)
	})

	t.Run("OKPages", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?page_size=2", "", pcMarket...), 200,
			pcJSON(t, pcPage(3, url+"?page=2&page_size=2", nil, f.shopJSON, f.cafeJSON)))
		WantResponse(t, Do(t, "GET", url+"?page=2&page_size=2", "", pcMarket...), 200,
			pcJSON(t, pcPage(3, nil, url+"?page_size=2", f.netpJSON)))
	})

	t.Run("ErrPagePastTheEnd", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url+"?page=3&page_size=2", "", pcMarket...), 404, `{"detail": "Invalid page."}`)
		WantResponse(t, Do(t, "GET", url+"?page=0", "", pcMarket...), 404, `{"detail": "Invalid page."}`)
	})

	t.Run("ErrBadToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", auth("0123456789012345678901234567890123456789")...), 401, `{"detail": "Invalid token."}`)
	})

	pcScopeErrors(t, url, "POST")
}

func TestPartnerCatalogRetrieve(t *testing.T) {
	t.Parallel()
	f := newPCFixture(t)
	url := func(id any) string { return fmt.Sprintf("%s/api/v2/partners/%v/", f.URL, id) }

	t.Run("OKNetworkPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url(f.shop.ID), "", pcMarket...), 200, pcJSON(t, f.shopJSON))
		WantResponse(t, Do(t, "GET", url(f.netp.ID), "", pcMarket...), 200, pcJSON(t, f.netpJSON))
	})

	t.Run("OKWithoutTrailingSlash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", fmt.Sprintf("%s/api/v2/partners/%d", f.URL, f.cafe.ID), "", pcMarket...), 200, pcJSON(t, f.cafeJSON))
	})

	t.Run("OKItselfByToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url(f.shop.ID), "", auth(f.shopTok)...), 200, pcJSON(t, f.shopJSON))
	})

	t.Run("ErrOutsideTheNetwork", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url(f.outsider.ID), "", pcMarket...), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrNotListedStatus", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url(f.closed.ID), "", pcMarket...), 404, `{"detail": "Not found."}`)
		WantResponse(t, Do(t, "GET", url(f.tester.ID), "", pcMarket...), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrTheMarketplaceItself", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url(f.market.ID), "", pcMarket...), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrOtherPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url(f.cafe.ID), "", auth(f.shopTok)...), 404, `{"detail": "Not found."}`)
		WantResponse(t, Do(t, "GET", url(f.cafe.ID), "", pcShop...), 404, `{"detail": "Not found."}`)
	})

	t.Run("ErrNotAnID", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("abc"), "", pcMarket...), 404, `{"detail": "Not found."}`)
		WantResponse(t, Do(t, "GET", url("99999999999999999999"), "", pcMarket...), 404, `{"detail": "Not found."}`)
	})

	pcScopeErrors(t, url(f.shop.ID), "DELETE")
}

func TestPartnerCatalogMe(t *testing.T) {
	t.Parallel()
	f := newPCFixture(t)
	url := f.URL + "/api/v2/partners/me/"

	t.Run("OKMarketplace", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", pcMarket...), 200, pcJSON(t, f.marketJSON))
	})

	t.Run("OKPartnerByToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url, "", auth(f.shopTok)...), 200, pcJSON(t, f.shopJSON))
	})

	t.Run("OKWithoutTrailingSlash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/partners/me", "", pcShop...), 200, pcJSON(t, f.shopJSON))
	})

	pcScopeErrors(t, url, "POST")
}

func TestPartnerCatalogDestinations(t *testing.T) {
	t.Parallel()
	f := newPCFixture(t)
	url := f.URL + "/api/v2/destinations/"

	t.Run("OKMarketplace", func(t *testing.T) {
		// Inactive, test and outside partners are not destinations; netp has
		// no place.
		WantResponse(t, Do(t, "GET", url, "", pcMarket...), 200, `[
			{"city": "Brest", "department": "Finistère", "region": "Bretagne"},
			{"city": "Paris", "department": "Paris", "region": "Île-de-France"}]`)
	})

	t.Run("OKEachPlaceOnce", func(t *testing.T) {
		f.must(t, f.store.SavePartnerProfile(context.Background(), f.netp.ID,
			&catalogue.PartnerProfile{Region: "Bretagne", Department: "Finistère", City: "Brest"}))
		WantResponse(t, Do(t, "GET", url, "", pcMarket...), 200, `[
			{"city": "Brest", "department": "Finistère", "region": "Bretagne"},
			{"city": "Paris", "department": "Paris", "region": "Île-de-France"}]`)
	})

	t.Run("OKPartnerByToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/destinations", "", auth(f.shopTok)...), 200,
			`[{"city": "Paris", "department": "Paris", "region": "Île-de-France"}]`)
	})

	t.Run("OKNone", func(t *testing.T) {
		// A profile that names no place is no destination.
		f.must(t, f.store.SavePartnerProfile(context.Background(), f.shop.ID, &catalogue.PartnerProfile{}))
		WantResponse(t, Do(t, "GET", url, "", pcShop...), 200, `[]`)
	})

	pcScopeErrors(t, url, "PUT")
}

func TestPartnerCatalogLegalInformation(t *testing.T) {
	t.Parallel()
	f := newPCFixture(t)
	url := f.URL + "/api/v2/partner_legal_information/"
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("OK", func(t *testing.T) {
		f.must(t, f.store.SaveLegalInformation(context.Background(), f.shop.ID, &catalogue.LegalInformation{
			AgencyName: "Shop Agency", AddressLine1: "1 rue de Rivoli", AddressLine2: "Bât. B", AddressLine3: "3e étage",
			PostalCode: "75001", City: "Paris", Country: "FR", CompanyType: "bus", HQPhoneNumber: "+33100000000",
			AgencyPhone: "+33100000001", AgencyWebsite: "https://shop.example.com", LegalNoticeEmail: "legal@shop.example.com",
			LegalForm: "SAS", CapitalStock: decimal.RequireFromString("10000.5"), LegalFirstName: "Anne",
			LegalLastName: "Martin", SIRETNumber: "12345678900011", VATID: "FR00123456789", RCS: "Paris B 123 456 789",
		}))
		want := []any{map[string]any{
			"agency_name": "Shop Agency", "name": "Shop", "address_line_1": "1 rue de Rivoli", "address_line_2": "Bât. B",
			"address_line_3": "3e étage", "postal_code": "75001", "city": "Paris", "country": "FR", "company_type": "bus",
			"creation_date": f.shop.CreatedAt.In(paris).Format(time.RFC3339Nano), "hq_phone_number": "+33100000000",
			"agency_phone": "+33100000001", "agency_website": "https://shop.example.com",
			"legal_notice_email": "legal@shop.example.com", "legal_form": "SAS", "capital_stock": "10000.50",
			"currency_symbol": "€", "legal_first_name": "Anne", "legal_last_name": "Martin",
			"siret_number": "12345678900011", "vat_id": "FR00123456789", "rcs": "Paris B 123 456 789",
		}}
		WantResponse(t, Do(t, "GET", url, "", auth(f.shopTok)...), 200, pcJSON(t, want))
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/partner_legal_information", "", pcShop...), 200, pcJSON(t, want))
	})

	t.Run("OKDefaults", func(t *testing.T) {
		want := []any{map[string]any{
			"agency_name": "", "name": "Market", "address_line_1": "", "address_line_2": "", "address_line_3": "",
			"postal_code": "", "city": "", "country": "", "company_type": "",
			"creation_date": f.market.CreatedAt.In(paris).Format(time.RFC3339Nano), "hq_phone_number": "",
			"agency_phone": "", "agency_website": "", "legal_notice_email": "", "legal_form": "", "capital_stock": "0.00",
			"currency_symbol": "€", "legal_first_name": "", "legal_last_name": "", "siret_number": "", "vat_id": "", "rcs": "",
		}}
		WantResponse(t, Do(t, "GET", url, "", pcMarket...), 200, pcJSON(t, want))
	})

	t.Run("OKPartnerZoneAndCurrency", func(t *testing.T) {
		// A new domain: the service keeps a domain's partner for a while
		// (domain.PartnerDomainCacheTTL), and market.example.com was read.
		_, err := f.db.ExecContext(context.Background(), `UPDATE partners SET currency = 'USD',
			time_zone = 'America/New_York', site_domain = 'market-ny.example.com' WHERE id = ?`, f.market.ID)
		f.must(t, err)
		ny, err := time.LoadLocation("America/New_York")
		f.must(t, err)
		res := Do(t, "GET", url, "", "X-Partner-Domain", "market-ny.example.com")
		var got []map[string]any
		f.must(t, json.Unmarshal([]byte(res.Body), &got))
		if len(got) != 1 || got[0]["currency_symbol"] != "$" || got[0]["creation_date"] != f.market.CreatedAt.In(ny).Format(time.RFC3339Nano) {
			t.Errorf("got %s", res.Body)
		}
	})

	pcScopeErrors(t, url, "POST")
}

func TestPartnerCatalogRefundWithdrawalTerms(t *testing.T) {
	t.Parallel()
	f := newPCFixture(t)
	url := f.URL + "/api/v2/refund_withdrawal_terms/"

	t.Run("OK", func(t *testing.T) {
		f.must(t, f.store.SaveRefundWithdrawalTerms(context.Background(), f.shop.ID,
			domain.Localized{"fr": "Remboursement sous 14 jours", "en": "Refund within 14 days", "de": " "}))
		want := pcAll("-")
		want["fr"], want["en"] = "Remboursement sous 14 jours", "Refund within 14 days"
		WantResponse(t, Do(t, "GET", url, "", auth(f.shopTok)...), 200,
			pcJSON(t, []any{map[string]any{"refund_withdrawal_terms": want}}))
	})

	t.Run("OKNoTermsIsADash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", f.URL+"/api/v2/refund_withdrawal_terms", "", pcMarket...), 200,
			pcJSON(t, []any{map[string]any{"refund_withdrawal_terms": pcAll("-")}}))
	})

	pcScopeErrors(t, url, "PATCH")
}

func TestPartnerCatalogProductInformation(t *testing.T) {
	t.Parallel()
	f := newPCFixture(t)
	ctx := context.Background()
	url := func(line string) string { return f.URL + "/api/v2/product_information/" + line + "/" }
	tos := map[string]string{"fr": "https://shop.example.com/cgv", "en": "https://shop.example.com/tos"}
	tosJSON := map[string]any{"fr": "https://shop.example.com/cgv", "en": "https://shop.example.com/tos"}

	t.Run("OKEvents", func(t *testing.T) {
		f.must(t, f.store.SaveEventsProductInformation(ctx, f.shop.ID, &catalogue.EventsProductInformation{
			Title: domain.Localized{"fr": "Billets"}, Description: domain.Localized{"en": "Tickets"}, TOSURL: tos,
			DisplayFullyBookedEvents: true, DisplayEventsPerSlots: true}))
		WantResponse(t, Do(t, "GET", url("events"), "", auth(f.shopTok)...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized("fr", "Billets"), "description": pcLocalized("en", "Tickets"), "tos_url": tosJSON,
			"display_fully_booked_events": true, "display_events_per_slots": true}))
	})

	t.Run("OKEventsDefaults", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("events"), "", pcMarket...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized(), "description": pcLocalized(), "tos_url": map[string]any{},
			"display_fully_booked_events": false, "display_events_per_slots": false}))
	})

	t.Run("OKGiftcards", func(t *testing.T) {
		f.must(t, f.store.SaveGiftcardsProductInformation(ctx, f.market.ID, &catalogue.GiftcardsProductInformation{
			Title: domain.Localized{"fr": "Cartes cadeaux"}, Description: domain.Localized{"es": "Tarjetas"}}))
		f.must(t, f.store.SaveLegalInformation(ctx, f.cafe.ID, &catalogue.LegalInformation{AgencyName: "Cafe Agency"}))
		WantResponse(t, Do(t, "GET", url("giftcards"), "", pcMarket...), 200, pcJSON(t, []any{map[string]any{
			"title": pcLocalized("fr", "Cartes cadeaux"), "description": pcLocalized("es", "Tarjetas"),
			"partners": []any{
				map[string]any{"id": f.shop.ID, "agency_name": "Shop"},
				map[string]any{"id": f.cafe.ID, "agency_name": "Cafe Agency"},
				map[string]any{"id": f.netp.ID, "agency_name": "Net Partner"},
			}}}))
	})

	t.Run("OKGiftcardsDefaults", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("giftcards"), "", auth(f.shopTok)...), 200, pcJSON(t, []any{map[string]any{
			"title": pcLocalized(), "description": pcLocalized(),
			"partners": []any{map[string]any{"id": f.shop.ID, "agency_name": "Shop"}}}}))
	})

	t.Run("OKNetworkGiftcards", func(t *testing.T) {
		f.must(t, f.store.SaveNetworkGiftcardsProductInformation(ctx, f.market.ID, &catalogue.NetworkGiftcardsProductInformation{
			Title: domain.Localized{"fr": "Carte réseau"}, Description: domain.Localized{"en": "Network card"},
			Giftcard: catalogue.NetworkGiftcardSettings{CustomizedAmount: true, Description: domain.Localized{"nl": "Kaart"},
				MinimumAmount:     decimal.RequireFromString("25"),
				PredefinedAmounts: []decimal.Decimal{decimal.RequireFromString("50"), decimal.RequireFromString("99.9")},
				TermsOfUse:        domain.Localized{"ca": "Condicions"}, Title: domain.Localized{"pt": "Cartão"},
				ValidityPeriod: 12, ValidityUnit: "month"},
			MoneyPot: catalogue.NetworkGiftcardMoneyPot{Activated: true, Description: domain.Localized{"it": "Colletta"},
				Logo: "https://cdn.example.com/pot.png", Title: domain.Localized{"de": "Topf"}},
		}))
		res := Do(t, "GET", url("network_giftcards"), "", pcMarket...)
		WantResponse(t, res, 200, pcJSON(t, map[string]any{
			"title": pcLocalized("fr", "Carte réseau"), "description": pcLocalized("en", "Network card"),
			"giftcard": map[string]any{
				"customized_amount": true, "description": pcLocalized("nl", "Kaart"), "minimum_amount": "25.00",
				"predefined_amounts": []string{"50.00", "99.90"}, "terms_of_use": pcLocalized("ca", "Condicions"),
				"title": pcLocalized("pt", "Cartão"), "validity_period": 12, "validity_unit": "month",
				"minimum_amount_formatted":     pcFormatted("25", "EUR"),
				"predefined_amounts_formatted": []any{pcFormatted("50", "EUR"), pcFormatted("99.9", "EUR")},
			},
			"money_pot": map[string]any{"activated": true, "description": pcLocalized("it", "Colletta"),
				"logo": "https://cdn.example.com/pot.png", "title": pcLocalized("de", "Topf")},
		}))
		// The amounts are in the marketplace's currency.
		var body struct {
			Giftcard struct {
				MinimumAmountFormatted map[string]string `json:"minimum_amount_formatted"`
			} `json:"giftcard"`
		}
		f.must(t, json.Unmarshal([]byte(res.Body), &body))
		if got := body.Giftcard.MinimumAmountFormatted["en"]; got != "€25.00" {
			t.Errorf("minimum_amount_formatted.en = %q, want €25.00", got)
		}
	})

	t.Run("OKNetworkGiftcardsDefaults", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("network_giftcards"), "", auth(f.shopTok)...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized(), "description": pcLocalized(),
			"giftcard": map[string]any{
				"customized_amount": false, "description": pcLocalized(), "minimum_amount": "0.00",
				"predefined_amounts": []string{}, "terms_of_use": pcLocalized(), "title": pcLocalized(),
				"validity_period": 0, "validity_unit": "",
				"minimum_amount_formatted": pcFormatted("0", "EUR"), "predefined_amounts_formatted": []any{},
			},
			"money_pot": map[string]any{"activated": false, "description": pcLocalized(), "logo": "", "title": pcLocalized()},
		}))
	})

	t.Run("OKNetworkVouchers", func(t *testing.T) {
		f.must(t, f.store.SaveNetworkVouchersProductInformation(ctx, f.market.ID, &catalogue.NetworkVouchersProductInformation{
			Title: domain.Localized{"fr": "Coffrets"}, Description: domain.Localized{"en": "Boxes"},
			TermsOfUse: domain.Localized{"es": "Condiciones"}, DisplayByUniverse: true, ValidityPeriod: 18,
			ValidityPeriodUnit: 2, ActivatedProductFeature: true, ActivatedGroupPayment: false, DisplayOffersMap: true,
			ActivatedOfferCountryFilter: false, ActivatedOfferDepartmentFilter: true, ActivatedOfferRegionFilter: true}))
		WantResponse(t, Do(t, "GET", url("network_vouchers"), "", pcMarket...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized("fr", "Coffrets"), "description": pcLocalized("en", "Boxes"),
			"terms_of_use": pcLocalized("es", "Condiciones"), "display_by_universe": true, "validity_period": 18,
			"validity_period_unit": 2, "activated_product_feature": true, "activated_group_payment": false,
			"display_offers_map": true, "activated_offer_country_filter": false,
			"activated_offer_department_filter": true, "activated_offer_region_filter": true}))
	})

	t.Run("OKNetworkVouchersDefaults", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("network_vouchers"), "", pcShop...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized(), "description": pcLocalized(), "terms_of_use": pcLocalized(),
			"display_by_universe": false, "validity_period": 0, "validity_period_unit": 0,
			"activated_product_feature": false, "activated_group_payment": false, "display_offers_map": false,
			"activated_offer_country_filter": false, "activated_offer_department_filter": false,
			"activated_offer_region_filter": false}))
	})

	t.Run("OKVouchers", func(t *testing.T) {
		f.must(t, f.store.SaveVouchersProductInformation(ctx, f.shop.ID, &catalogue.VouchersProductInformation{
			Title: domain.Localized{"fr": "Bons"}, Subtitle: domain.Localized{"en": "Vouchers"},
			ShortDescription: domain.Localized{"it": "Buoni"}, ActivatedDestinationFilter: true,
			ActivatedUniverseFilter: false, ActivatedPriceFilter: true, ActivatedTargetFilter: false,
			ActivatedThemeFilter: true, ActivatedEnvironmentFilter: false, ActivatedOfferOrderingByRanking: true,
			ValidityPeriod: 6, ValidityPeriodUnit: 1, MethodOfDisplay: 3, ActivatedGroupPayment: true}))
		WantResponse(t, Do(t, "GET", url("vouchers"), "", auth(f.shopTok)...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized("fr", "Bons"), "subtitle": pcLocalized("en", "Vouchers"),
			"short_description": pcLocalized("it", "Buoni"), "hero_image": nil,
			"activated_destination_filter": true, "activated_universe_filter": false, "activated_price_filter": true,
			"activated_target_filter": false, "activated_theme_filter": true, "activated_environment_filter": false,
			"activated_offer_ordering_by_ranking": true, "validity_period": 6, "validity_period_unit": 1,
			"method_of_display": 3, "default_prototype_image": nil, "activated_group_payment": true}))
	})

	t.Run("OKVouchersDefaults", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("vouchers"), "", pcMarket...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized(), "subtitle": pcLocalized(), "short_description": pcLocalized(), "hero_image": nil,
			"activated_destination_filter": false, "activated_universe_filter": false, "activated_price_filter": false,
			"activated_target_filter": false, "activated_theme_filter": false, "activated_environment_filter": false,
			"activated_offer_ordering_by_ranking": false, "validity_period": 0, "validity_period_unit": 0,
			"method_of_display": 0, "default_prototype_image": nil, "activated_group_payment": false}))
	})

	t.Run("OKWorkshops", func(t *testing.T) {
		f.must(t, f.store.SaveWorkshopsProductInformation(ctx, f.shop.ID, &catalogue.WorkshopsProductInformation{
			Title: domain.Localized{"fr": "Ateliers"}, Description: domain.Localized{"en": "Workshops"}, TOSURL: tos,
			DisplayWorkshopsByMonth: true, DisplayWorkshopsPerSession: false, DisplayFullyBookedSessions: true,
			ActivatedMonthFilter: false, ActivatedDayFilter: true, ActivatedTimeFilter: false, ActivatedPriceFilter: true,
			ActivatedCategoryFilter: false, ActivatedDurationFilter: true, ActivatedTargetFilter: false,
			ActivatedLevelFilter: true, ActivatedThemeFilter: false, MinNbFreePlacesForLabelShown: 3,
			DisplayPhoneNumber: true, PhoneNumber: "+33100000000", DefaultWorkshopImage: "https://cdn.example.com/w.png",
			ValidityPeriod: 3, ValidityPeriodUnit: 1}))
		WantResponse(t, Do(t, "GET", url("workshops"), "", pcShop...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized("fr", "Ateliers"), "description": pcLocalized("en", "Workshops"), "tos_url": tosJSON,
			"display_workshops_by_month": true, "display_workshops_per_session": false,
			"display_fully_booked_sessions": true, "activated_month_filter": false, "activated_day_filter": true,
			"activated_time_filter": false, "activated_price_filter": true, "activated_category_filter": false,
			"activated_duration_filter": true, "activated_target_filter": false, "activated_level_filter": true,
			"activated_theme_filter": false, "min_nb_free_places_for_label_shown": 3, "display_phone_number": true,
			"phone_number": "+33100000000", "default_workshop_image": "https://cdn.example.com/w.png",
			"validity_period": 3, "validity_period_unit": 1}))
	})

	t.Run("OKWorkshopsDefaults", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("workshops"), "", pcMarket...), 200, pcJSON(t, map[string]any{
			"title": pcLocalized(), "description": pcLocalized(), "tos_url": map[string]any{},
			"display_workshops_by_month": false, "display_workshops_per_session": false,
			"display_fully_booked_sessions": false, "activated_month_filter": false, "activated_day_filter": false,
			"activated_time_filter": false, "activated_price_filter": false, "activated_category_filter": false,
			"activated_duration_filter": false, "activated_target_filter": false, "activated_level_filter": false,
			"activated_theme_filter": false, "min_nb_free_places_for_label_shown": 0, "display_phone_number": false,
			"phone_number": "", "default_workshop_image": "", "validity_period": 0, "validity_period_unit": 0}))
	})

	for _, line := range []string{"events", "giftcards", "network_giftcards", "network_vouchers", "vouchers", "workshops"} {
		t.Run("OKWithoutTrailingSlash/"+line, func(t *testing.T) {
			WantResponse(t, Do(t, "GET", f.URL+"/api/v2/product_information/"+line, "", pcMarket...), 200, "")
		})
		t.Run(line, func(t *testing.T) { pcScopeErrors(t, url(line), "POST") })
	}
}
