// Package graph is the GraphQL surface: gqlgen resolvers that decode their
// arguments, call one domain service method and encode the result. No rule
// lives here; see package domain.
package graph

import (
	"salesplatform/domain/account"
	"salesplatform/domain/cart"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/gifts"
	"salesplatform/domain/media"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
	"salesplatform/domain/widgets"
)

// Resolver holds the domain services the resolvers call; the same ones the
// REST handlers call. The catalogue services are named for what they serve
// so that they do not shadow the Query fields of the same names.
type Resolver struct {
	Accounts *account.AccountService
	Carts    *cart.CartService

	PartnerCatalog   *catalogue.PartnerCatalogService
	EventCatalog     *catalogue.EventService
	WorkshopCatalog  *catalogue.WorkshopService
	BoxCatalog       *catalogue.BoxService
	PrototypeCatalog *catalogue.PrototypeService
	Widgets          *widgets.WidgetService
	Gifts            *gifts.GiftService
	// VoucherAdmin serves the administration's vouchers and giftcards.
	VoucherAdmin    *vouchers.VoucherAdminService
	MediaLibrary    *media.MediaService
	AdminPrototypes *prototypes.AdminPrototypeService
}
