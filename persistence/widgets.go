package persistence

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain/widgets"
)

// WidgetStore is the domain.WidgetStore on PostgreSQL: one
// marketing_widgets row per partner, with its navbar and floating bar in
// their own tables (absent when not configured).
type WidgetStore struct{ db bun.IDB }

var _ widgets.WidgetStore = (*WidgetStore)(nil)

// NewWidgetStore returns the store on db.
func NewWidgetStore(db bun.IDB) *WidgetStore { return &WidgetStore{db: db} }

type widgetsRow struct {
	bun.BaseModel `bun:"table:marketing_widgets,alias:w"`

	ID        int64     `bun:"id,pk,autoincrement"`
	PartnerID int64     `bun:"partner_id,notnull"`
	Key       string    `bun:"widget_key,notnull"`
	CreatedAt time.Time `bun:"created_at,nullzero,notnull,default:current_timestamp"`

	Navbar      *widgetNavbarRow      `bun:"rel:has-one,join:id=widget_id"`
	FloatingBar *widgetFloatingBarRow `bun:"rel:has-one,join:id=widget_id"`
}

type widgetNavbarRow struct {
	bun.BaseModel `bun:"table:marketing_widget_navbars,alias:n"`

	WidgetID                 int64  `bun:"widget_id,pk"`
	ShowNavbar               bool   `bun:"show_navbar,notnull"`
	ShowNavbarOnPurchaseSite bool   `bun:"show_navbar_on_purchase_site,notnull"`
	Orientation              string `bun:"navbar_orientation,notnull"`
	Side                     string `bun:"navbar_side,notnull"`
	Position                 int    `bun:"navbar_position,notnull"`
	ActivateOffer            bool   `bun:"activate_offer,notnull"`
	ActivateBook             bool   `bun:"activate_book,notnull"`
	ActivateContact          bool   `bun:"activate_contact,notnull"`
	OfferBackgroundColor     string `bun:"offer_background_color,notnull"`
	OfferTextColor           string `bun:"offer_text_color,notnull"`
	OfferHoverColor          string `bun:"offer_hover_color,notnull"`
	BookBackgroundColor      string `bun:"book_background_color,notnull"`
	BookTextColor            string `bun:"book_text_color,notnull"`
	BookHoverColor           string `bun:"book_hover_color,notnull"`
	ContactBackgroundColor   string `bun:"contact_background_color,notnull"`
	ContactTextColor         string `bun:"contact_text_color,notnull"`
	ContactHoverColor        string `bun:"contact_hover_color,notnull"`
	OfferBoxURL              string `bun:"navbar_offer_box_url,notnull"`
	BookBoxURL               string `bun:"navbar_book_box_url,notnull"`
	ContactBoxURL            string `bun:"navbar_contact_box_url,notnull"`
	OfferText                string `bun:"offer_text,notnull"`
	BookText                 string `bun:"book_text,notnull"`
	ContactText              string `bun:"contact_text,notnull"`
}

type widgetFloatingBarRow struct {
	bun.BaseModel `bun:"table:marketing_widget_floating_bars,alias:f"`

	WidgetID                      int64  `bun:"widget_id,pk"`
	ShowFloatingBar               bool   `bun:"show_floatting_bar,notnull"`
	ShowFloatingBarOnPurchaseSite bool   `bun:"show_floatting_bar_on_purchase_site,notnull"`
	Orientation                   string `bun:"floatting_bar_orientation,notnull"`
	BackgroundColor               string `bun:"floatting_bar_background_color,notnull"`
	BorderColor                   string `bun:"floatting_bar_border_color,notnull"`
	Text                          string `bun:"floatting_bar_text,notnull"`
	TextColor                     string `bun:"floatting_bar_text_color,notnull"`
	CTAButtonText                 string `bun:"floatting_bar_cta_button_text,notnull"`
	CTAButtonLink                 string `bun:"floatting_bar_cta_button_link,notnull"`
	CTAButtonColor                string `bun:"floatting_bar_cta_button_color,notnull"`
	CTAButtonHoverColor           string `bun:"floatting_bar_cta_button_hover_color,notnull"`
	CTAButtonTextColor            string `bun:"floatting_bar_cta_button_text_color,notnull"`
	CTAButtonTextHoverColor       string `bun:"floatting_bar_cta_button_text_hover_color,notnull"`
}

func toRowWidgetNavbar(widgetID int64, n *widgets.WidgetNavbar) *widgetNavbarRow {
	return &widgetNavbarRow{WidgetID: widgetID,
		ShowNavbar: n.ShowNavbar, ShowNavbarOnPurchaseSite: n.ShowNavbarOnPurchaseSite,
		Orientation: n.Orientation, Side: n.Side, Position: n.Position,
		ActivateOffer: n.ActivateOffer, ActivateBook: n.ActivateBook, ActivateContact: n.ActivateContact,
		OfferBackgroundColor: n.OfferBackgroundColor, OfferTextColor: n.OfferTextColor, OfferHoverColor: n.OfferHoverColor,
		BookBackgroundColor: n.BookBackgroundColor, BookTextColor: n.BookTextColor, BookHoverColor: n.BookHoverColor,
		ContactBackgroundColor: n.ContactBackgroundColor, ContactTextColor: n.ContactTextColor, ContactHoverColor: n.ContactHoverColor,
		OfferBoxURL: n.OfferBoxURL, BookBoxURL: n.BookBoxURL, ContactBoxURL: n.ContactBoxURL,
		OfferText: n.OfferText, BookText: n.BookText, ContactText: n.ContactText}
}

func (r *widgetNavbarRow) toDomain() *widgets.WidgetNavbar {
	return &widgets.WidgetNavbar{
		ShowNavbar: r.ShowNavbar, ShowNavbarOnPurchaseSite: r.ShowNavbarOnPurchaseSite,
		Orientation: r.Orientation, Side: r.Side, Position: r.Position,
		ActivateOffer: r.ActivateOffer, ActivateBook: r.ActivateBook, ActivateContact: r.ActivateContact,
		OfferBackgroundColor: r.OfferBackgroundColor, OfferTextColor: r.OfferTextColor, OfferHoverColor: r.OfferHoverColor,
		BookBackgroundColor: r.BookBackgroundColor, BookTextColor: r.BookTextColor, BookHoverColor: r.BookHoverColor,
		ContactBackgroundColor: r.ContactBackgroundColor, ContactTextColor: r.ContactTextColor, ContactHoverColor: r.ContactHoverColor,
		OfferBoxURL: r.OfferBoxURL, BookBoxURL: r.BookBoxURL, ContactBoxURL: r.ContactBoxURL,
		OfferText: r.OfferText, BookText: r.BookText, ContactText: r.ContactText}
}

func toRowWidgetFloatingBar(widgetID int64, b *widgets.WidgetFloatingBar) *widgetFloatingBarRow {
	return &widgetFloatingBarRow{WidgetID: widgetID,
		ShowFloatingBar: b.ShowFloatingBar, ShowFloatingBarOnPurchaseSite: b.ShowFloatingBarOnPurchaseSite,
		Orientation: b.Orientation, BackgroundColor: b.BackgroundColor, BorderColor: b.BorderColor,
		Text: b.Text, TextColor: b.TextColor, CTAButtonText: b.CTAButtonText, CTAButtonLink: b.CTAButtonLink,
		CTAButtonColor: b.CTAButtonColor, CTAButtonHoverColor: b.CTAButtonHoverColor,
		CTAButtonTextColor: b.CTAButtonTextColor, CTAButtonTextHoverColor: b.CTAButtonTextHoverColor}
}

func (r *widgetFloatingBarRow) toDomain() *widgets.WidgetFloatingBar {
	return &widgets.WidgetFloatingBar{
		ShowFloatingBar: r.ShowFloatingBar, ShowFloatingBarOnPurchaseSite: r.ShowFloatingBarOnPurchaseSite,
		Orientation: r.Orientation, BackgroundColor: r.BackgroundColor, BorderColor: r.BorderColor,
		Text: r.Text, TextColor: r.TextColor, CTAButtonText: r.CTAButtonText, CTAButtonLink: r.CTAButtonLink,
		CTAButtonColor: r.CTAButtonColor, CTAButtonHoverColor: r.CTAButtonHoverColor,
		CTAButtonTextColor: r.CTAButtonTextColor, CTAButtonTextHoverColor: r.CTAButtonTextHoverColor}
}

// CreateWidgets inserts w with its navbar and floating bar (three
// statements: the service runs them in its transaction) and sets its ID
// and CreatedAt.
func (s *WidgetStore) CreateWidgets(ctx context.Context, w *widgets.MarketingWidgets) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := &widgetsRow{PartnerID: w.PartnerID, Key: w.Key, CreatedAt: w.CreatedAt}
	err := s.insertWidgets(ctx, row, w)
	if c, ok := uniqueViolation(err); ok {
		switch c {
		case "marketing_widgets_widget_key_key":
			return invalidField("widget_key", "unique", "This widget key is already in use.")
		case "marketing_widgets_partner_id_key":
			return invalidField("partner", "unique", "This partner already has marketing widgets.")
		}
	}
	if err != nil {
		return fmt.Errorf("insert marketing widgets: %w", err)
	}
	w.ID, w.CreatedAt = row.ID, row.CreatedAt
	return nil
}

func (s *WidgetStore) insertWidgets(ctx context.Context, row *widgetsRow, w *widgets.MarketingWidgets) error {
	if _, err := s.db.NewInsert().Model(row).Returning("id, created_at").Exec(ctx); err != nil {
		return err
	}
	return s.insertBars(ctx, row.ID, w)
}

// insertBars inserts w's navbar and floating bar, those it has.
func (s *WidgetStore) insertBars(ctx context.Context, id int64, w *widgets.MarketingWidgets) error {
	if n := w.Navbar; n != nil {
		if _, err := s.db.NewInsert().Model(toRowWidgetNavbar(id, n)).Exec(ctx); err != nil {
			return err
		}
	}
	if b := w.FloatingBar; b != nil {
		if _, err := s.db.NewInsert().Model(toRowWidgetFloatingBar(id, b)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// FindWidgetsByKey reads the widgets and both bars in one query.
func (s *WidgetStore) FindWidgetsByKey(ctx context.Context, key string) (*widgets.MarketingWidgets, error) {
	return s.findWidgets(ctx, "w.widget_key = ?", key, false)
}

// FindWidgetsByPartner reads the partner's widgets and both bars in one
// query.
func (s *WidgetStore) FindWidgetsByPartner(ctx context.Context, partnerID int64) (*widgets.MarketingWidgets, error) {
	return s.findWidgets(ctx, "w.partner_id = ?", partnerID, false)
}

// LockWidgetsByPartner is FindWidgetsByPartner locking the widgets' row
// FOR UPDATE: two replaces of one partner's bars apply one after the
// other instead of both deleting, then both inserting.
func (s *WidgetStore) LockWidgetsByPartner(ctx context.Context, partnerID int64) (*widgets.MarketingWidgets, error) {
	return s.findWidgets(ctx, "w.partner_id = ?", partnerID, true)
}

// findWidgets reads the widgets that where (on widgets aliased w, with arg)
// selects, with both bars, in one query; lock takes the widgets' row FOR
// UPDATE. The reads by key and by partner differ only in where.
func (s *WidgetStore) findWidgets(ctx context.Context, where string, arg any, lock bool) (*widgets.MarketingWidgets, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	row := new(widgetsRow)
	q := s.db.NewSelect().Model(row).Relation("Navbar").Relation("FloatingBar").Where(where, arg)
	if lock {
		q = q.For("UPDATE OF w")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, notFound(err)
	}
	w := &widgets.MarketingWidgets{ID: row.ID, PartnerID: row.PartnerID, Key: row.Key, CreatedAt: row.CreatedAt}
	if row.Navbar != nil {
		w.Navbar = row.Navbar.toDomain()
	}
	if row.FloatingBar != nil {
		w.FloatingBar = row.FloatingBar.toDomain()
	}
	return w, nil
}

// UpdateWidgets replaces the navbar and floating bar rows of w (several
// statements: the service runs them in its transaction).
func (s *WidgetStore) UpdateWidgets(ctx context.Context, w *widgets.MarketingWidgets) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if _, err := s.db.NewDelete().Model((*widgetNavbarRow)(nil)).Where("widget_id = ?", w.ID).Exec(ctx); err != nil {
		return fmt.Errorf("update marketing widgets: %w", err)
	}
	if _, err := s.db.NewDelete().Model((*widgetFloatingBarRow)(nil)).Where("widget_id = ?", w.ID).Exec(ctx); err != nil {
		return fmt.Errorf("update marketing widgets: %w", err)
	}
	if err := s.insertBars(ctx, w.ID, w); err != nil {
		return fmt.Errorf("update marketing widgets: %w", err)
	}
	return nil
}

// WidgetStores binds the widget area's stores to db, a pool or a
// transaction.
func WidgetStores(db bun.IDB) widgets.Stores {
	return widgets.Stores{Widgets: &WidgetStore{db: db}, Partners: &PartnerStore{db: db}}
}
