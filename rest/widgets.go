package rest

import (
	"net/http"

	"github.com/gorilla/mux"

	"salesplatform/domain/widgets"
)

const widgetsAllow = "GET, HEAD, OPTIONS"

// registerWidgetRoutes adds the marketing widget routes.
func registerWidgetRoutes(r *mux.Router, a *api) {
	const path = "/api/setup_marketing_widgets/{widget_key}/"
	handle(r, path, a.handleWidgetsGet, http.MethodGet, http.MethodHead)
	handle(r, path, a.handleWidgetsOptions, http.MethodOptions)
}

type jsonWidgetNavbar struct {
	ShowNavbar               bool   `json:"show_navbar"`
	ShowNavbarOnPurchaseSite bool   `json:"show_navbar_on_purchase_site"`
	NavbarOrientation        string `json:"navbar_orientation"`
	NavbarSide               string `json:"navbar_side"`
	NavbarPosition           int    `json:"navbar_position"`
	ActivateOffer            bool   `json:"activate_offer"`
	ActivateBook             bool   `json:"activate_book"`
	ActivateContact          bool   `json:"activate_contact"`
	OfferBackgroundColor     string `json:"offer_background_color"`
	OfferTextColor           string `json:"offer_text_color"`
	OfferHoverColor          string `json:"offer_hover_color"`
	BookBackgroundColor      string `json:"book_background_color"`
	BookTextColor            string `json:"book_text_color"`
	BookHoverColor           string `json:"book_hover_color"`
	ContactBackgroundColor   string `json:"contact_background_color"`
	ContactTextColor         string `json:"contact_text_color"`
	ContactHoverColor        string `json:"contact_hover_color"`
	NavbarOfferBoxURL        string `json:"navbar_offer_box_url"`
	NavbarBookBoxURL         string `json:"navbar_book_box_url"`
	NavbarContactBoxURL      string `json:"navbar_contact_box_url"`
	OfferText                string `json:"offer_text"`
	BookText                 string `json:"book_text"`
	ContactText              string `json:"contact_text"`
}

func toJSONWidgetNavbar(n *widgets.WidgetNavbar) *jsonWidgetNavbar {
	if n == nil {
		return nil
	}
	return &jsonWidgetNavbar{
		ShowNavbar: n.ShowNavbar, ShowNavbarOnPurchaseSite: n.ShowNavbarOnPurchaseSite,
		NavbarOrientation: n.Orientation, NavbarSide: n.Side, NavbarPosition: n.Position,
		ActivateOffer: n.ActivateOffer, ActivateBook: n.ActivateBook, ActivateContact: n.ActivateContact,
		OfferBackgroundColor: n.OfferBackgroundColor, OfferTextColor: n.OfferTextColor, OfferHoverColor: n.OfferHoverColor,
		BookBackgroundColor: n.BookBackgroundColor, BookTextColor: n.BookTextColor, BookHoverColor: n.BookHoverColor,
		ContactBackgroundColor: n.ContactBackgroundColor, ContactTextColor: n.ContactTextColor, ContactHoverColor: n.ContactHoverColor,
		NavbarOfferBoxURL: n.OfferBoxURL, NavbarBookBoxURL: n.BookBoxURL, NavbarContactBoxURL: n.ContactBoxURL,
		OfferText: n.OfferText, BookText: n.BookText, ContactText: n.ContactText,
	}
}

// jsonWidgetFloatingBar keeps the legacy spelling "floatting".
type jsonWidgetFloatingBar struct {
	ShowFloattingBar                    bool   `json:"show_floatting_bar"`
	ShowFloattingBarOnPurchaseSite      bool   `json:"show_floatting_bar_on_purchase_site"`
	FloattingBarOrientation             string `json:"floatting_bar_orientation"`
	FloattingBarBackgroundColor         string `json:"floatting_bar_background_color"`
	FloattingBarBorderColor             string `json:"floatting_bar_border_color"`
	FloattingBarText                    string `json:"floatting_bar_text"`
	FloattingBarTextColor               string `json:"floatting_bar_text_color"`
	FloattingBarCTAButtonText           string `json:"floatting_bar_cta_button_text"`
	FloattingBarCTAButtonLink           string `json:"floatting_bar_cta_button_link"`
	FloattingBarCTAButtonColor          string `json:"floatting_bar_cta_button_color"`
	FloattingBarCTAButtonHoverColor     string `json:"floatting_bar_cta_button_hover_color"`
	FloattingBarCTAButtonTextColor      string `json:"floatting_bar_cta_button_text_color"`
	FloattingBarCTAButtonTextHoverColor string `json:"floatting_bar_cta_button_text_hover_color"`
}

func toJSONWidgetFloatingBar(b *widgets.WidgetFloatingBar) *jsonWidgetFloatingBar {
	if b == nil {
		return nil
	}
	return &jsonWidgetFloatingBar{
		ShowFloattingBar: b.ShowFloatingBar, ShowFloattingBarOnPurchaseSite: b.ShowFloatingBarOnPurchaseSite,
		FloattingBarOrientation: b.Orientation, FloattingBarBackgroundColor: b.BackgroundColor,
		FloattingBarBorderColor: b.BorderColor, FloattingBarText: b.Text, FloattingBarTextColor: b.TextColor,
		FloattingBarCTAButtonText: b.CTAButtonText, FloattingBarCTAButtonLink: b.CTAButtonLink,
		FloattingBarCTAButtonColor: b.CTAButtonColor, FloattingBarCTAButtonHoverColor: b.CTAButtonHoverColor,
		FloattingBarCTAButtonTextColor: b.CTAButtonTextColor, FloattingBarCTAButtonTextHoverColor: b.CTAButtonTextHoverColor,
	}
}

// jsonWidgets is the marketing widgets object (spec 001, 2.16); popup and
// slide_in are always null (their shapes are not known).
type jsonWidgets struct {
	Navbar       *jsonWidgetNavbar      `json:"navbar"`
	Popup        *struct{}              `json:"popup"`
	SlideIn      *struct{}              `json:"slide_in"`
	FloattingBar *jsonWidgetFloatingBar `json:"floatting_bar"`
	PurchaseURL  string                 `json:"purchase_url"`
}

// widgetHeaders: the widgets are read by scripts on partners' own sites,
// so any origin may read them (they are public).
func widgetHeaders(w http.ResponseWriter) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
}

// handleWidgetsGet is GET and HEAD /api/setup_marketing_widgets/{widget_key}/.
func (a *api) handleWidgetsGet(w http.ResponseWriter, r *http.Request) {
	widgetHeaders(w)
	v, err := a.Widgets.Widgets(r.Context(), mux.Vars(r)["widget_key"])
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, jsonWidgets{
		Navbar:       toJSONWidgetNavbar(v.Navbar),
		FloattingBar: toJSONWidgetFloatingBar(v.FloatingBar),
		PurchaseURL:  v.PurchaseURL,
	})
}

// jsonWidgetsMetadata is DRF's SimpleMetadata answer to OPTIONS.
type jsonWidgetsMetadata struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Renders     []string `json:"renders"`
	Parses      []string `json:"parses"`
}

// handleWidgetsOptions is OPTIONS /api/setup_marketing_widgets/{widget_key}/:
// the endpoint's description, as DRF gives it, for any well-formed key
// (known or not, as DRF does not look the object up for OPTIONS).
func (a *api) handleWidgetsOptions(w http.ResponseWriter, r *http.Request) {
	widgetHeaders(w)
	if _, err := widgets.ParseWidgetKey(mux.Vars(r)["widget_key"]); err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Allow", widgetsAllow)
	w.Header().Set("Access-Control-Allow-Methods", widgetsAllow)
	writeJSON(w, http.StatusOK, jsonWidgetsMetadata{
		Name:        "Setup Marketing Widgets",
		Description: "The marketing widgets (navbar, popup, slide-in, floating bar) of the partner that owns the key, and its purchase site URL.",
		Renders:     []string{"application/json"},
		Parses:      []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data"},
	})
}
