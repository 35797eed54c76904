package widgets

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"time"

	"salesplatform/domain"
)

// Marketing widgets are the navigation bar and floating bar a partner's
// pages (and its purchase site) show, configured per partner and fetched by
// a public key. The key alone names the partner.

// WidgetKeyLength is the length of a widget key: 32 hexadecimal characters
// (16 random bytes), written in lower case.
const WidgetKeyLength = 32

var widgetKeyPattern = regexp.MustCompile(`^[0-9a-fA-F]{32}$`)

// Allowed values the contract does not show (docs/DECISIONS.md): a vertical
// navbar sits on the left or right edge, a horizontal one on the top or
// bottom edge; the floating bar runs along the top or the bottom.
const (
	WidgetOrientationVertical   = "vertical"
	WidgetOrientationHorizontal = "horizontal"
	WidgetSideLeft              = "left"
	WidgetSideRight             = "right"
	WidgetSideTop               = "top"
	WidgetSideBottom            = "bottom"
)

// Widget limits.
const (
	// MaxWidgetPosition: navbar_position is where along its edge the navbar
	// is centred, in percent of the edge's length (0 to 100).
	MaxWidgetPosition     = 100
	MaxWidgetButtonText   = 100
	MaxWidgetBarText      = 255
	MaxWidgetURLLength    = domain.MaxURLLength
	msgWidgetColor        = "Enter a colour in the form #RRGGBB."
	msgWidgetChoice       = "\"%s\" is not a valid choice."
	msgWidgetSideMismatch = "A %s navbar sits on the %s or %s edge."
)

var widgetColorPattern = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// WidgetNavbar is the navbar widget: up to three buttons (offer, book,
// contact) on one edge of the page.
type WidgetNavbar struct {
	ShowNavbar               bool
	ShowNavbarOnPurchaseSite bool
	Orientation              string // WidgetOrientation*
	Side                     string // WidgetSide*, matching Orientation
	Position                 int    // 0 to 100
	ActivateOffer            bool
	ActivateBook             bool
	ActivateContact          bool
	OfferBackgroundColor     string // #RRGGBB, like every colour
	OfferTextColor           string
	OfferHoverColor          string
	BookBackgroundColor      string
	BookTextColor            string
	BookHoverColor           string
	ContactBackgroundColor   string
	ContactTextColor         string
	ContactHoverColor        string
	OfferBoxURL              string // "" or an http(s) URL, like every URL
	BookBoxURL               string
	ContactBoxURL            string
	OfferText                string
	BookText                 string
	ContactText              string
}

// WidgetFloatingBar is the floating bar widget: a text and a call-to-action
// button along the top or bottom of the page.
type WidgetFloatingBar struct {
	ShowFloatingBar               bool
	ShowFloatingBarOnPurchaseSite bool
	Orientation                   string // WidgetSideTop or WidgetSideBottom
	BackgroundColor               string
	BorderColor                   string
	Text                          string
	TextColor                     string
	CTAButtonText                 string
	CTAButtonLink                 string
	CTAButtonColor                string
	CTAButtonHoverColor           string
	CTAButtonTextColor            string
	CTAButtonTextHoverColor       string
}

// MarketingWidgets is a partner's widget configuration. A nil widget is not
// configured (shown as null).
type MarketingWidgets struct {
	ID          int64
	PartnerID   int64
	Key         string // WidgetKeyLength lower-case hexadecimal characters
	Navbar      *WidgetNavbar
	FloatingBar *WidgetFloatingBar
	CreatedAt   time.Time
}

// WidgetStore reads and writes what WidgetService serves.
type WidgetStore interface {
	WidgetAdminStore
	// CreateWidgets inserts w (already validated) with its bars (run it in
	// a transaction) and sets its ID and CreatedAt. A key in use is a
	// CodeInvalid error on "widget_key", a partner that already has
	// widgets one on "partner".
	CreateWidgets(ctx context.Context, w *MarketingWidgets) error
	// FindWidgetsByKey returns the widgets with that (lower-case) key;
	// ErrNotFound when there are none.
	FindWidgetsByKey(ctx context.Context, key string) (*MarketingWidgets, error)
}

// WidgetService serves the marketing widget configuration.
type WidgetService struct {
	uow domain.UnitOfWork[Stores]
}

// Stores are the stores the widget service reads and writes with.
type Stores struct {
	Widgets  WidgetStore
	Partners domain.PartnerStore
}

// NewWidgetService returns the service.
func NewWidgetService(uow domain.UnitOfWork[Stores]) *WidgetService {
	return &WidgetService{uow: uow}
}

// WidgetsView is a partner's widget configuration as the API shows it.
type WidgetsView struct {
	*MarketingWidgets
	Partner *domain.Partner
	// PurchaseURL is the partner's purchase site, https://{site domain}/, or
	// "" for a partner without one.
	PurchaseURL string
}

// ParseWidgetKey checks a widget key as given in a path and returns it in
// lower case.
// Errors: CodeNotFound when it is not 32 hexadecimal characters.
func ParseWidgetKey(key string) (string, error) {
	if !widgetKeyPattern.MatchString(key) {
		return "", domain.ErrNotFound
	}
	return strings.ToLower(key), nil
}

// Widgets returns the widget configuration with that key. The key alone
// names the partner: no token or X-Partner-Domain is needed, and neither
// changes the answer (a refused token is refused, as everywhere).
// Errors: the authentication error of a refused token; CodeNotFound when
// the key is malformed or unknown.
func (s *WidgetService) Widgets(ctx context.Context, key string) (*WidgetsView, error) {
	if err := domain.RefusedToken(ctx); err != nil {
		return nil, err
	}
	key, err := ParseWidgetKey(key)
	if err != nil {
		return nil, err
	}
	st := s.uow.Stores()
	w, err := st.Widgets.FindWidgetsByKey(ctx, key)
	if err != nil {
		return nil, err
	}
	p, err := st.Partners.FindPartnerByID(ctx, w.PartnerID)
	if err != nil {
		return nil, err
	}
	v := &WidgetsView{MarketingWidgets: w, Partner: p}
	if p.SiteDomain != "" {
		v.PurchaseURL = "https://" + p.SiteDomain + "/"
	}
	return v, nil
}

// CreateWidgets validates w and stores it as the configuration of partner
// w.PartnerID, with a new random key when w.Key is empty. Callers decide
// who may configure which partner (this runs for seeding and back-office
// tools, not for catalogue clients).
// Errors: CodeInvalid, with field paths in the API's names
// (["navbar", "offer_text_color"]).
func (s *WidgetService) CreateWidgets(ctx context.Context, w *MarketingWidgets) error {
	if err := prepareWidgets(w); err != nil {
		return err
	}
	return s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		return tx.Widgets.CreateWidgets(ctx, w)
	})
}

// prepareWidgets checks w and gives it a new random key when it has none.
func prepareWidgets(w *MarketingWidgets) error {
	var v domain.Validator
	if w.Key == "" {
		w.Key = newWidgetKey()
	} else if k, err := ParseWidgetKey(w.Key); err != nil {
		v.Add(domain.VInvalid, fmt.Sprintf("Enter %d hexadecimal characters.", WidgetKeyLength), "widget_key")
	} else {
		w.Key = k
	}
	if w.Navbar != nil {
		validateWidgetNavbar(&v, w.Navbar)
	}
	if w.FloatingBar != nil {
		validateWidgetFloatingBar(&v, w.FloatingBar)
	}
	return v.Err()
}

func newWidgetKey() string {
	b := make([]byte, WidgetKeyLength/2)
	if _, err := rand.Read(b); err != nil {
		panic(err) // only fails when the system's random source does
	}
	return hex.EncodeToString(b)
}

func validateWidgetNavbar(v *domain.Validator, n *WidgetNavbar) {
	at := func(field string) []any { return []any{"navbar", field} }
	switch n.Orientation {
	case WidgetOrientationVertical:
		if n.Side != WidgetSideLeft && n.Side != WidgetSideRight {
			widgetSide(v, n, WidgetSideLeft, WidgetSideRight, at("navbar_side"))
		}
	case WidgetOrientationHorizontal:
		if n.Side != WidgetSideTop && n.Side != WidgetSideBottom {
			widgetSide(v, n, WidgetSideTop, WidgetSideBottom, at("navbar_side"))
		}
	default:
		v.Add(domain.VInvalid, fmt.Sprintf(msgWidgetChoice, n.Orientation), at("navbar_orientation")...)
		switch n.Side {
		case WidgetSideLeft, WidgetSideRight, WidgetSideTop, WidgetSideBottom:
		default:
			v.Add(domain.VInvalid, fmt.Sprintf(msgWidgetChoice, n.Side), at("navbar_side")...)
		}
	}
	if n.Position < 0 || n.Position > MaxWidgetPosition {
		code := domain.VMaxValue
		if n.Position < 0 {
			code = domain.VMinValue
		}
		v.Add(code, fmt.Sprintf("Ensure this value is between 0 and %d.", MaxWidgetPosition), at("navbar_position")...)
	}
	for _, c := range []struct{ field, value string }{
		{"offer_background_color", n.OfferBackgroundColor}, {"offer_text_color", n.OfferTextColor},
		{"offer_hover_color", n.OfferHoverColor}, {"book_background_color", n.BookBackgroundColor},
		{"book_text_color", n.BookTextColor}, {"book_hover_color", n.BookHoverColor},
		{"contact_background_color", n.ContactBackgroundColor}, {"contact_text_color", n.ContactTextColor},
		{"contact_hover_color", n.ContactHoverColor},
	} {
		widgetColor(v, c.value, at(c.field))
	}
	v.HTTPURL(n.OfferBoxURL, at("navbar_offer_box_url"))
	v.HTTPURL(n.BookBoxURL, at("navbar_book_box_url"))
	v.HTTPURL(n.ContactBoxURL, at("navbar_contact_box_url"))
	v.PlainText(n.OfferText, MaxWidgetButtonText, at("offer_text"))
	v.PlainText(n.BookText, MaxWidgetButtonText, at("book_text"))
	v.PlainText(n.ContactText, MaxWidgetButtonText, at("contact_text"))
}

func validateWidgetFloatingBar(v *domain.Validator, b *WidgetFloatingBar) {
	at := func(field string) []any { return []any{"floatting_bar", field} }
	if b.Orientation != WidgetSideTop && b.Orientation != WidgetSideBottom {
		v.Add(domain.VInvalid, fmt.Sprintf(msgWidgetChoice, b.Orientation), at("floatting_bar_orientation")...)
	}
	for _, c := range []struct{ field, value string }{
		{"floatting_bar_background_color", b.BackgroundColor}, {"floatting_bar_border_color", b.BorderColor},
		{"floatting_bar_text_color", b.TextColor}, {"floatting_bar_cta_button_color", b.CTAButtonColor},
		{"floatting_bar_cta_button_hover_color", b.CTAButtonHoverColor},
		{"floatting_bar_cta_button_text_color", b.CTAButtonTextColor},
		{"floatting_bar_cta_button_text_hover_color", b.CTAButtonTextHoverColor},
	} {
		widgetColor(v, c.value, at(c.field))
	}
	v.PlainText(b.Text, MaxWidgetBarText, at("floatting_bar_text"))
	v.PlainText(b.CTAButtonText, MaxWidgetButtonText, at("floatting_bar_cta_button_text"))
	v.HTTPURL(b.CTAButtonLink, at("floatting_bar_cta_button_link"))
}

func widgetSide(v *domain.Validator, n *WidgetNavbar, a, b string, path []any) {
	v.Add(domain.VInvalid, fmt.Sprintf(msgWidgetSideMismatch, n.Orientation, a, b), path...)
}

func widgetColor(v *domain.Validator, c string, path []any) {
	if !widgetColorPattern.MatchString(c) {
		v.Add(domain.VInvalid, msgWidgetColor, path...)
	}
}
