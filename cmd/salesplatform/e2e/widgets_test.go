package e2e

import (
	"context"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/widgets"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestMarketingWidgets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	shopTok := CreateUser(t, dsn, "--username", "shop", "--password", "shop-password",
		"--partner-name", "Shop", "--partner-domain", "shop.example.com")
	CreateUser(t, dsn, "--username", "other", "--password", "other-password",
		"--partner-name", "Other", "--partner-domain", "other.example.com")
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	partners := persistence.NewDatabase(db).Stores().Partners
	widgetService := widgets.NewWidgetService(persistence.NewUnitOfWork(db, persistence.WidgetStores))
	shop, err := partners.FindPartnerBySiteDomain(ctx, "shop.example.com")
	if err != nil {
		t.Fatal(err)
	}
	bare := &domain.Partner{Name: "No site", Status: domain.PartnerStatusActive}
	if err := partners.CreatePartner(ctx, bare); err != nil {
		t.Fatal(err)
	}
	full := &widgets.MarketingWidgets{PartnerID: shop.ID, Key: "0123456789abcdef0123456789ABCDEF",
		Navbar: &widgets.WidgetNavbar{ShowNavbar: true, ShowNavbarOnPurchaseSite: false, Orientation: "vertical",
			Side: "right", Position: 40, ActivateOffer: true, ActivateBook: false, ActivateContact: true,
			OfferBackgroundColor: "#112233", OfferTextColor: "#FFFFFF", OfferHoverColor: "#223344",
			BookBackgroundColor: "#000001", BookTextColor: "#000002", BookHoverColor: "#000003",
			ContactBackgroundColor: "#aa0000", ContactTextColor: "#bb0000", ContactHoverColor: "#cc0000",
			OfferBoxURL: "https://shop.example.com/offer", BookBoxURL: "", ContactBoxURL: "https://shop.example.com/contact",
			OfferText: "Offer a gift", BookText: "", ContactText: "Contact us"},
		FloatingBar: &widgets.WidgetFloatingBar{ShowFloatingBar: true, ShowFloatingBarOnPurchaseSite: true,
			Orientation: "bottom", BackgroundColor: "#FAFAFA", BorderColor: "#E0E0E0", Text: "Christmas gifts!",
			TextColor: "#111111", CTAButtonText: "Shop now", CTAButtonLink: "https://shop.example.com/",
			CTAButtonColor: "#FF0000", CTAButtonHoverColor: "#CC0000", CTAButtonTextColor: "#FFFFFF",
			CTAButtonTextHoverColor: "#EEEEEE"},
	}
	if err := widgetService.CreateWidgets(ctx, full); err != nil {
		t.Fatal(err)
	}
	empty := &widgets.MarketingWidgets{PartnerID: bare.ID}
	if err := widgetService.CreateWidgets(ctx, empty); err != nil {
		t.Fatal(err)
	}
	srv := Serve(t, dsn)
	url := func(key string) string { return srv.URL + "/api/setup_marketing_widgets/" + key + "/" }
	fullBody := `{
		"navbar": {"show_navbar": true, "show_navbar_on_purchase_site": false, "navbar_orientation": "vertical",
			"navbar_side": "right", "navbar_position": 40, "activate_offer": true, "activate_book": false,
			"activate_contact": true, "offer_background_color": "#112233", "offer_text_color": "#FFFFFF",
			"offer_hover_color": "#223344", "book_background_color": "#000001", "book_text_color": "#000002",
			"book_hover_color": "#000003", "contact_background_color": "#aa0000", "contact_text_color": "#bb0000",
			"contact_hover_color": "#cc0000", "navbar_offer_box_url": "https://shop.example.com/offer",
			"navbar_book_box_url": "", "navbar_contact_box_url": "https://shop.example.com/contact",
			"offer_text": "Offer a gift", "book_text": "", "contact_text": "Contact us"},
		"popup": null,
		"slide_in": null,
		"floatting_bar": {"show_floatting_bar": true, "show_floatting_bar_on_purchase_site": true,
			"floatting_bar_orientation": "bottom", "floatting_bar_background_color": "#FAFAFA",
			"floatting_bar_border_color": "#E0E0E0", "floatting_bar_text": "Christmas gifts!",
			"floatting_bar_text_color": "#111111", "floatting_bar_cta_button_text": "Shop now",
			"floatting_bar_cta_button_link": "https://shop.example.com/", "floatting_bar_cta_button_color": "#FF0000",
			"floatting_bar_cta_button_hover_color": "#CC0000", "floatting_bar_cta_button_text_color": "#FFFFFF",
			"floatting_bar_cta_button_text_hover_color": "#EEEEEE"},
		"purchase_url": "https://shop.example.com/"}`

	t.Run("OK", func(t *testing.T) {
		res := Do(t, "GET", url(full.Key), "")
		WantResponse(t, res, 200, fullBody)
		if res.Header.Get("Access-Control-Allow-Origin") != "*" || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("headers = %v", res.Header)
		}
	})

	t.Run("OKKeyInUpperCaseWithoutSlash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", strings.TrimSuffix(url(strings.ToUpper(full.Key)), "/"), ""), 200, fullBody)
	})

	t.Run("OKKeyAloneNamesThePartner", func(t *testing.T) {
		// Another partner's domain, a token: neither matters.
		WantResponse(t, Do(t, "GET", url(full.Key), "", "X-Partner-Domain", "other.example.com"), 200, fullBody)
		WantResponse(t, Do(t, "GET", url(full.Key), "", auth(shopTok)...), 200, fullBody)
	})

	t.Run("ErrBadToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url(full.Key), "", auth("0123456789abcdef0123456789abcdef01234567")...), 401,
			`{"detail": "Invalid token."}`)
	})

	t.Run("OKNothingConfiguredNoSite", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url(empty.Key), ""), 200,
			`{"navbar": null, "popup": null, "slide_in": null, "floatting_bar": null, "purchase_url": ""}`)
	})

	t.Run("OKHead", func(t *testing.T) {
		res := Do(t, "HEAD", url(full.Key), "")
		if res.Status != 200 || res.Body != "" || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("HEAD = %d %v %q", res.Status, res.Header, res.Body)
		}
		if res := Do(t, "HEAD", url("ffffffffffffffffffffffffffffffff"), ""); res.Status != 404 || res.Body != "" {
			t.Errorf("HEAD unknown = %d %q", res.Status, res.Body)
		}
	})

	t.Run("OKOptions", func(t *testing.T) {
		// Known or not, a well-formed key is described.
		for _, key := range []string{full.Key, "ffffffffffffffffffffffffffffffff"} {
			res := Do(t, "OPTIONS", url(key), "")
			WantResponse(t, res, 200, `{"name": "Setup Marketing Widgets",
				"description": "The marketing widgets (navbar, popup, slide-in, floating bar) of the partner that owns the key, and its purchase site URL.",
				"renders": ["application/json"],
				"parses": ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]}`)
			if res.Header.Get("Allow") != "GET, HEAD, OPTIONS" {
				t.Errorf("Allow = %q", res.Header.Get("Allow"))
			}
		}
	})

	notFound := `{"detail": "Not found."}`
	for name, key := range map[string]string{
		"ErrUnknownKey":     "ffffffffffffffffffffffffffffffff",
		"ErrShortKey":       "0123456789abcdef",
		"ErrLongKey":        full.Key + "0",
		"ErrNotHexadecimal": "0123456789abcdef0123456789abcdeg",
	} {
		t.Run(name, func(t *testing.T) {
			WantResponse(t, Do(t, "GET", url(key), ""), 404, notFound)
			if name != "ErrUnknownKey" {
				WantResponse(t, Do(t, "OPTIONS", url(key), ""), 404, notFound)
			}
		})
	}

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		for _, m := range []string{"POST", "PUT", "PATCH", "DELETE"} {
			res := Do(t, m, url(full.Key), `{}`)
			WantResponse(t, res, 405, `{"detail": "Method \"`+m+`\" not allowed."}`)
			if res.Header.Get("Allow") != "GET, HEAD, OPTIONS" {
				t.Errorf("%s: Allow = %q", m, res.Header.Get("Allow"))
			}
		}
	})
}
