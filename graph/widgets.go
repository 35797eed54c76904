package graph

import (
	"salesplatform/domain/widgets"
	"salesplatform/graph/model"
)

func toDomainWidgets(partnerID *int64, input model.MarketingWidgetsInput) widgets.WidgetsInput {
	in := widgets.WidgetsInput{PartnerID: partnerID}
	if n := opt(input.Navbar); n != nil {
		// The input has the fields of the output type, so Go converts it.
		g := model.WidgetNavbar(*n)
		in.Navbar = new(widgets.WidgetNavbar)
		for _, f := range navbarFields(&g, in.Navbar) {
			f.toDomain()
		}
	}
	if b := opt(input.FloattingBar); b != nil {
		g := model.WidgetFloatingBar(*b)
		in.FloatingBar = new(widgets.WidgetFloatingBar)
		for _, f := range floatingBarFields(&g, in.FloatingBar) {
			f.toDomain()
		}
	}
	return in
}

func marketingWidgetsPayload(v *widgets.WidgetsView, err error) (*model.MarketingWidgetsPayload, error) {
	if err != nil {
		ue, err := userErrors(err)
		return &model.MarketingWidgetsPayload{UserErrors: ue, Errors: ue}, err
	}
	return &model.MarketingWidgetsPayload{MarketingWidgets: toGraphMarketingWidgets(v), UserErrors: noUserErrors(), Errors: noUserErrors()}, nil
}

// toGraphMarketingWidgets is a partner's widgets, for the payloads of the
// widget mutations and for the marketingWidgets query.
func toGraphMarketingWidgets(v *widgets.WidgetsView) *model.MarketingWidgets {
	out := &model.MarketingWidgets{Key: v.Key, PurchaseURL: v.PurchaseURL}
	if n := v.Navbar; n != nil {
		out.Navbar = new(model.WidgetNavbar)
		for _, f := range navbarFields(out.Navbar, n) {
			f.toGraph()
		}
	}
	if b := v.FloatingBar; b != nil {
		out.FloattingBar = new(model.WidgetFloatingBar)
		for _, f := range floatingBarFields(out.FloattingBar, b) {
			f.toGraph()
		}
	}
	return out
}

// fieldLink ties a field of a graph type to the field of the domain type
// that holds the same value, so that one list of links serves the
// conversion both ways.
type fieldLink struct{ toDomain, toGraph func() }

func link[T any](g, d *T) fieldLink {
	return fieldLink{toDomain: func() { *d = *g }, toGraph: func() { *g = *d }}
}

// navbarFields is which field of the graph's navbar (the legacy names) is
// which of the domain's, written once for input and output.
func navbarFields(g *model.WidgetNavbar, d *widgets.WidgetNavbar) []fieldLink {
	return []fieldLink{
		link(&g.ShowNavbar, &d.ShowNavbar), link(&g.ShowNavbarOnPurchaseSite, &d.ShowNavbarOnPurchaseSite),
		link(&g.NavbarOrientation, &d.Orientation), link(&g.NavbarSide, &d.Side), link(&g.NavbarPosition, &d.Position),
		link(&g.ActivateOffer, &d.ActivateOffer), link(&g.ActivateBook, &d.ActivateBook),
		link(&g.ActivateContact, &d.ActivateContact),
		link(&g.OfferBackgroundColor, &d.OfferBackgroundColor), link(&g.OfferTextColor, &d.OfferTextColor),
		link(&g.OfferHoverColor, &d.OfferHoverColor),
		link(&g.BookBackgroundColor, &d.BookBackgroundColor), link(&g.BookTextColor, &d.BookTextColor),
		link(&g.BookHoverColor, &d.BookHoverColor),
		link(&g.ContactBackgroundColor, &d.ContactBackgroundColor), link(&g.ContactTextColor, &d.ContactTextColor),
		link(&g.ContactHoverColor, &d.ContactHoverColor),
		link(&g.NavbarOfferBoxURL, &d.OfferBoxURL), link(&g.NavbarBookBoxURL, &d.BookBoxURL),
		link(&g.NavbarContactBoxURL, &d.ContactBoxURL),
		link(&g.OfferText, &d.OfferText), link(&g.BookText, &d.BookText), link(&g.ContactText, &d.ContactText),
	}
}

// floatingBarFields is which field of the graph's floating bar (the legacy
// spelling "floatting") is which of the domain's, written once for input
// and output.
func floatingBarFields(g *model.WidgetFloatingBar, d *widgets.WidgetFloatingBar) []fieldLink {
	return []fieldLink{
		link(&g.ShowFloattingBar, &d.ShowFloatingBar),
		link(&g.ShowFloattingBarOnPurchaseSite, &d.ShowFloatingBarOnPurchaseSite),
		link(&g.FloattingBarOrientation, &d.Orientation),
		link(&g.FloattingBarBackgroundColor, &d.BackgroundColor), link(&g.FloattingBarBorderColor, &d.BorderColor),
		link(&g.FloattingBarText, &d.Text), link(&g.FloattingBarTextColor, &d.TextColor),
		link(&g.FloattingBarCtaButtonText, &d.CTAButtonText), link(&g.FloattingBarCtaButtonLink, &d.CTAButtonLink),
		link(&g.FloattingBarCtaButtonColor, &d.CTAButtonColor),
		link(&g.FloattingBarCtaButtonHoverColor, &d.CTAButtonHoverColor),
		link(&g.FloattingBarCtaButtonTextColor, &d.CTAButtonTextColor),
		link(&g.FloattingBarCtaButtonTextHoverColor, &d.CTAButtonTextHoverColor),
	}
}
