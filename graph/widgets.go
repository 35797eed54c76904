package graph

import (
	"salesplatform/domain/widgets"
	"salesplatform/graph/model"
)

func toDomainWidgets(partnerID *int64, input model.MarketingWidgetsInput) widgets.WidgetsInput {
	in := widgets.WidgetsInput{PartnerID: partnerID}
	if n := opt(input.Navbar); n != nil {
		in.Navbar = &widgets.WidgetNavbar{ShowNavbar: n.ShowNavbar, ShowNavbarOnPurchaseSite: n.ShowNavbarOnPurchaseSite,
			Orientation: n.NavbarOrientation, Side: n.NavbarSide, Position: n.NavbarPosition,
			ActivateOffer: n.ActivateOffer, ActivateBook: n.ActivateBook, ActivateContact: n.ActivateContact,
			OfferBackgroundColor: n.OfferBackgroundColor, OfferTextColor: n.OfferTextColor, OfferHoverColor: n.OfferHoverColor,
			BookBackgroundColor: n.BookBackgroundColor, BookTextColor: n.BookTextColor, BookHoverColor: n.BookHoverColor,
			ContactBackgroundColor: n.ContactBackgroundColor, ContactTextColor: n.ContactTextColor,
			ContactHoverColor: n.ContactHoverColor, OfferBoxURL: n.NavbarOfferBoxURL, BookBoxURL: n.NavbarBookBoxURL,
			ContactBoxURL: n.NavbarContactBoxURL, OfferText: n.OfferText, BookText: n.BookText, ContactText: n.ContactText}
	}
	if b := opt(input.FloattingBar); b != nil {
		in.FloatingBar = &widgets.WidgetFloatingBar{ShowFloatingBar: b.ShowFloattingBar,
			ShowFloatingBarOnPurchaseSite: b.ShowFloattingBarOnPurchaseSite, Orientation: b.FloattingBarOrientation,
			BackgroundColor: b.FloattingBarBackgroundColor, BorderColor: b.FloattingBarBorderColor,
			Text: b.FloattingBarText, TextColor: b.FloattingBarTextColor, CTAButtonText: b.FloattingBarCtaButtonText,
			CTAButtonLink: b.FloattingBarCtaButtonLink, CTAButtonColor: b.FloattingBarCtaButtonColor,
			CTAButtonHoverColor: b.FloattingBarCtaButtonHoverColor, CTAButtonTextColor: b.FloattingBarCtaButtonTextColor,
			CTAButtonTextHoverColor: b.FloattingBarCtaButtonTextHoverColor}
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
		out.Navbar = &model.WidgetNavbar{ShowNavbar: n.ShowNavbar, ShowNavbarOnPurchaseSite: n.ShowNavbarOnPurchaseSite,
			NavbarOrientation: n.Orientation, NavbarSide: n.Side, NavbarPosition: n.Position,
			ActivateOffer: n.ActivateOffer, ActivateBook: n.ActivateBook, ActivateContact: n.ActivateContact,
			OfferBackgroundColor: n.OfferBackgroundColor, OfferTextColor: n.OfferTextColor, OfferHoverColor: n.OfferHoverColor,
			BookBackgroundColor: n.BookBackgroundColor, BookTextColor: n.BookTextColor, BookHoverColor: n.BookHoverColor,
			ContactBackgroundColor: n.ContactBackgroundColor, ContactTextColor: n.ContactTextColor,
			ContactHoverColor: n.ContactHoverColor, NavbarOfferBoxURL: n.OfferBoxURL, NavbarBookBoxURL: n.BookBoxURL,
			NavbarContactBoxURL: n.ContactBoxURL, OfferText: n.OfferText, BookText: n.BookText, ContactText: n.ContactText}
	}
	if b := v.FloatingBar; b != nil {
		out.FloattingBar = &model.WidgetFloatingBar{ShowFloattingBar: b.ShowFloatingBar,
			ShowFloattingBarOnPurchaseSite: b.ShowFloatingBarOnPurchaseSite, FloattingBarOrientation: b.Orientation,
			FloattingBarBackgroundColor: b.BackgroundColor, FloattingBarBorderColor: b.BorderColor,
			FloattingBarText: b.Text, FloattingBarTextColor: b.TextColor, FloattingBarCtaButtonText: b.CTAButtonText,
			FloattingBarCtaButtonLink: b.CTAButtonLink, FloattingBarCtaButtonColor: b.CTAButtonColor,
			FloattingBarCtaButtonHoverColor: b.CTAButtonHoverColor, FloattingBarCtaButtonTextColor: b.CTAButtonTextColor,
			FloattingBarCtaButtonTextHoverColor: b.CTAButtonTextHoverColor}
	}
	return out
}
