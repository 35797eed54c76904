package widgets

import (
	"context"
	"strings"

	"salesplatform/domain"
)

// Marketing widget administration: a partner (or staff for it) configures
// its widgets, with the rules CreateWidgets checks. A configuration is a
// settings object: an update replaces both widgets (nil removes one).

// WidgetsInput is a partner's widget configuration.
type WidgetsInput struct {
	PartnerID   *int64
	Navbar      *WidgetNavbar
	FloatingBar *WidgetFloatingBar
}

// WidgetAdminStore is what the widget administration writes with.
type WidgetAdminStore interface {
	// FindWidgetsByPartner returns the partner's widgets; ErrNotFound when
	// it has none.
	FindWidgetsByPartner(ctx context.Context, partnerID int64) (*MarketingWidgets, error)
	// LockWidgetsByPartner is FindWidgetsByPartner holding the widgets'
	// row until the transaction ends.
	LockWidgetsByPartner(ctx context.Context, partnerID int64) (*MarketingWidgets, error)
	// UpdateWidgets replaces w's navbar and floating bar (nil removes one);
	// run it in a transaction.
	UpdateWidgets(ctx context.Context, w *MarketingWidgets) error
}

// CreatePartnerWidgets configures the widgets of the caller's partner
// (staff: of in.PartnerID), under a new key.
// Errors: those of adminPartner; CodeInvalid with every field error, paths
// in the graph's names (["navbar", "offerTextColor"]), or a non-field
// error when the partner already has widgets.
func (s *WidgetService) CreatePartnerWidgets(ctx context.Context, in WidgetsInput) (*WidgetsView, error) {
	p, _, err := domain.AdminPartner(ctx, s.uow.Stores().Partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	w := &MarketingWidgets{PartnerID: p.ID, Navbar: in.Navbar, FloatingBar: in.FloatingBar}
	if err := prepareWidgets(w); err != nil {
		return nil, camelFieldPaths(err)
	}
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		// A concurrent create is caught by the unique partner_id.
		switch _, err := tx.Widgets.FindWidgetsByPartner(ctx, p.ID); {
		case err == nil:
			var v domain.Validator
			v.Add(domain.VUnique, "This partner already has marketing widgets: update them.", "non_field_errors")
			return v.Err()
		case !domain.IsCode(err, domain.CodeNotFound):
			return err
		}
		return tx.Widgets.CreateWidgets(ctx, w)
	})
	if err != nil {
		return nil, camelFieldPaths(err)
	}
	return s.Widgets(ctx, w.Key)
}

// UpdatePartnerWidgets replaces the widgets of the caller's partner (staff:
// of in.PartnerID); the key stays.
// Errors: those of adminPartner; CodeNotFound when the partner has no
// widgets; CodeInvalid as CreatePartnerWidgets.
func (s *WidgetService) UpdatePartnerWidgets(ctx context.Context, in WidgetsInput) (*WidgetsView, error) {
	p, _, err := domain.AdminPartner(ctx, s.uow.Stores().Partners, in.PartnerID)
	if err != nil {
		return nil, err
	}
	var v domain.Validator
	if in.Navbar != nil {
		validateWidgetNavbar(&v, in.Navbar)
	}
	if in.FloatingBar != nil {
		validateWidgetFloatingBar(&v, in.FloatingBar)
	}
	if err := v.Err(); err != nil {
		return nil, camelFieldPaths(err)
	}
	var key string
	err = s.uow.RunInTx(ctx, func(ctx context.Context, tx Stores) error {
		w, err := tx.Widgets.LockWidgetsByPartner(ctx, p.ID)
		if err != nil {
			return err
		}
		w.Navbar, w.FloatingBar, key = in.Navbar, in.FloatingBar, w.Key
		return tx.Widgets.UpdateWidgets(ctx, w)
	})
	if err != nil {
		return nil, err
	}
	return s.Widgets(ctx, key)
}

// camelFieldPaths renames the field names of an input error from the API's
// snake_case (the widget rules' names) to the graph's camelCase.
func camelFieldPaths(err error) error {
	e, ok := err.(*domain.Error)
	if !ok || e.Code != domain.CodeInvalid {
		return err
	}
	for i, f := range e.Fields {
		path := make([]any, len(f.Path))
		for j, p := range f.Path {
			if s, ok := p.(string); ok && s != "non_field_errors" {
				p = snakeToCamel(s)
			}
			path[j] = p
		}
		e.Fields[i].Path = path
	}
	return e
}

func snakeToCamel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
