package widgets_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/widgets"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func widgetNavbar() *widgets.WidgetNavbar {
	return &widgets.WidgetNavbar{ShowNavbar: true, Orientation: "vertical", Side: "right", Position: 50,
		ActivateOffer: true, OfferBackgroundColor: "#112233", OfferTextColor: "#FFFFFF", OfferHoverColor: "#aabbcc",
		BookBackgroundColor: "#000000", BookTextColor: "#000000", BookHoverColor: "#000000",
		ContactBackgroundColor: "#000000", ContactTextColor: "#000000", ContactHoverColor: "#000000",
		OfferBoxURL: "https://shop.example.com/offers", OfferText: "Offer a gift"}
}

func widgetFloatingBar() *widgets.WidgetFloatingBar {
	return &widgets.WidgetFloatingBar{ShowFloatingBar: true, Orientation: "bottom", BackgroundColor: "#FFFFFF",
		BorderColor: "#000000", Text: "Gift ideas", TextColor: "#000000", CTAButtonText: "Go",
		CTAButtonLink: "https://shop.example.com/", CTAButtonColor: "#FF0000", CTAButtonHoverColor: "#EE0000",
		CTAButtonTextColor: "#FFFFFF", CTAButtonTextHoverColor: "#FFFFFF"}
}

func TestWidgetService(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	partners := db.Stores().Partners
	svc := widgets.NewWidgetService(persistence.NewUnitOfWork(raw, persistence.WidgetStores))
	ctx := context.Background()
	shop := dbtest.MustPartner(t, partners, &domain.Partner{Name: "Shop", SiteDomain: "shop.example.com"})
	bare := dbtest.MustPartner(t, partners, &domain.Partner{Name: "No site"})
	third := dbtest.MustPartner(t, partners, &domain.Partner{Name: "Third"})

	w := &widgets.MarketingWidgets{PartnerID: shop.ID, Navbar: widgetNavbar(), FloatingBar: widgetFloatingBar()}
	if err := svc.CreateWidgets(ctx, w); err != nil {
		t.Fatal(err)
	}

	t.Run("OKNewKey", func(t *testing.T) {
		if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(w.Key) || w.ID == 0 || w.CreatedAt.IsZero() {
			t.Errorf("widgets = %+v", w)
		}
	})

	t.Run("OKReadBackByKeyInAnyCase", func(t *testing.T) {
		for _, key := range []string{w.Key, strings.ToUpper(w.Key)} {
			v, err := svc.Widgets(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			if v.PurchaseURL != "https://shop.example.com/" || v.Partner.ID != shop.ID ||
				*v.Navbar != *widgetNavbar() || *v.FloatingBar != *widgetFloatingBar() {
				t.Errorf("view = %+v %+v %+v", v, v.Navbar, v.FloatingBar)
			}
		}
	})

	t.Run("OKPartnerWithoutSiteAndWidgets", func(t *testing.T) {
		b := &widgets.MarketingWidgets{PartnerID: bare.ID, Key: "0123456789ABCDEF0123456789abcdef"}
		if err := svc.CreateWidgets(ctx, b); err != nil {
			t.Fatal(err)
		}
		if b.Key != "0123456789abcdef0123456789abcdef" {
			t.Errorf("key = %q, want lower case", b.Key)
		}
		v, err := svc.Widgets(ctx, b.Key)
		if err != nil {
			t.Fatal(err)
		}
		if v.PurchaseURL != "" || v.Navbar != nil || v.FloatingBar != nil {
			t.Errorf("view = %+v", v)
		}
	})

	t.Run("ErrUnknownOrMalformedKey", func(t *testing.T) {
		for _, key := range []string{"ffffffffffffffffffffffffffffffff", "", "xyz", w.Key + "0", w.Key[:31] + "g"} {
			_, err := svc.Widgets(ctx, key)
			dbtest.WantCode(t, err, domain.CodeNotFound)
		}
	})

	t.Run("ErrPartnerHasWidgets", func(t *testing.T) {
		err := svc.CreateWidgets(ctx, &widgets.MarketingWidgets{PartnerID: shop.ID})
		dbtest.WantFieldErrors(t, err, map[string]string{"partner": "This partner already has marketing widgets."})
	})

	t.Run("ErrKeyTaken", func(t *testing.T) {
		err := svc.CreateWidgets(ctx, &widgets.MarketingWidgets{PartnerID: third.ID, Key: strings.ToUpper(w.Key)})
		dbtest.WantFieldErrors(t, err, map[string]string{"widget_key": "This widget key is already in use."})
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		n := widgetNavbar()
		n.Orientation, n.Side, n.Position = "diagonal", "middle", 101
		n.OfferBackgroundColor, n.BookTextColor, n.ContactHoverColor = "red", "#12345", "#GGGGGG"
		n.OfferBoxURL, n.ContactText = "ftp://shop.example.com/", strings.Repeat("x", 101)
		b := widgetFloatingBar()
		b.Orientation, b.BorderColor, b.CTAButtonLink, b.Text = "left", "", "not a url", "a\x00b"
		err := svc.CreateWidgets(ctx, &widgets.MarketingWidgets{PartnerID: third.ID, Key: "short", Navbar: n, FloatingBar: b})
		dbtest.WantFieldErrors(t, err, map[string]string{
			"widget_key":                                  "Enter 32 hexadecimal characters.",
			"navbar.navbar_orientation":                   `"diagonal" is not a valid choice.`,
			"navbar.navbar_side":                          `"middle" is not a valid choice.`,
			"navbar.navbar_position":                      "Ensure this value is between 0 and 100.",
			"navbar.offer_background_color":               "Enter a colour in the form #RRGGBB.",
			"navbar.book_text_color":                      "Enter a colour in the form #RRGGBB.",
			"navbar.contact_hover_color":                  "Enter a colour in the form #RRGGBB.",
			"navbar.navbar_offer_box_url":                 "Enter a valid URL.",
			"navbar.contact_text":                         "Ensure this field has no more than 100 characters.",
			"floatting_bar.floatting_bar_orientation":     `"left" is not a valid choice.`,
			"floatting_bar.floatting_bar_border_color":    "Enter a colour in the form #RRGGBB.",
			"floatting_bar.floatting_bar_cta_button_link": "Enter a valid URL.",
			"floatting_bar.floatting_bar_text":            "Null characters are not allowed.",
		})
	})

	t.Run("ErrSideOfOrientation", func(t *testing.T) {
		for orientation, side := range map[string]string{"vertical": "top", "horizontal": "left"} {
			n := widgetNavbar()
			n.Orientation, n.Side = orientation, side
			err := svc.CreateWidgets(ctx, &widgets.MarketingWidgets{PartnerID: third.ID, Navbar: n})
			want := map[string]string{"vertical": "A vertical navbar sits on the left or right edge.",
				"horizontal": "A horizontal navbar sits on the top or bottom edge."}[orientation]
			dbtest.WantFieldErrors(t, err, map[string]string{"navbar.navbar_side": want})
		}
	})

	t.Run("OKHorizontalNavbar", func(t *testing.T) {
		n := widgetNavbar()
		n.Orientation, n.Side, n.Position = "horizontal", "bottom", 0
		if err := svc.CreateWidgets(ctx, &widgets.MarketingWidgets{PartnerID: third.ID, Navbar: n}); err != nil {
			t.Fatal(err)
		}
	})
}

// Replaces of one partner's widgets sent at once all succeed, one after
// the other: each deletes and inserts the bars under the widgets' row
// lock, in the service's transaction.
func TestUpdatePartnerWidgetsConcurrent(t *testing.T) {
	t.Parallel()
	db, raw := dbtest.NewDatabase(t)
	accounts := account.NewAccountService(db, nil, dbtest.CheapHashing)
	svc := widgets.NewWidgetService(persistence.NewUnitOfWork(raw, persistence.WidgetStores))
	shop := dbtest.AsCaller(t, accounts, dbtest.MustAccount(t, accounts, account.NewAccountInput{Username: "shop",
		PartnerName: "Shop", Permissions: []string{domain.PermManageMasterAdmin}}))
	if _, err := svc.CreatePartnerWidgets(shop, widgets.WidgetsInput{Navbar: widgetNavbar()}); err != nil {
		t.Fatal(err)
	}
	got := dbtest.Concurrently(8, func(i int) error {
		in := widgets.WidgetsInput{Navbar: widgetNavbar(), FloatingBar: widgetFloatingBar()}
		in.Navbar.Position = i
		_, err := svc.UpdatePartnerWidgets(shop, in)
		return err
	})
	if got[""] != 8 {
		t.Errorf("results %v, want 8 successes", got)
	}
	var navbars, bars int
	if err := raw.NewRaw("SELECT (SELECT count(*) FROM marketing_widget_navbars), (SELECT count(*) FROM marketing_widget_floating_bars)").
		Scan(context.Background(), &navbars, &bars); err != nil {
		t.Fatal(err)
	}
	if navbars != 1 || bars != 1 {
		t.Errorf("%d navbars and %d floating bars, want one each", navbars, bars)
	}
}
