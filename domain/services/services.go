// Package services gathers the service of every area of the domain, as the
// two surfaces receive them: rest.Register and graph.Resolver are handed the
// same Services, so a REST route and its GraphQL twin call the same
// instance. It holds no rule; no area imports it.
package services

import (
	"salesplatform/domain/account"
	"salesplatform/domain/cart"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/checkout"
	"salesplatform/domain/ecommerce"
	"salesplatform/domain/gifts"
	"salesplatform/domain/media"
	"salesplatform/domain/mpcart"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/domain/prototypes"
	"salesplatform/domain/vouchers"
	"salesplatform/domain/webhooks"
	"salesplatform/domain/widgets"
)

// Services are the domain services both surfaces call. The catalogue's are
// named for what they serve, so that in the graph they do not shadow the
// Query fields of the same names (boxes, events, …).
type Services struct {
	Accounts *account.AccountService
	Carts    *cart.Service

	PartnerCatalog   *catalogue.PartnerCatalogService
	EventCatalog     *catalogue.EventService
	WorkshopCatalog  *catalogue.WorkshopService
	BoxCatalog       *catalogue.BoxService
	PrototypeCatalog *catalogue.PrototypeService
	Gifts            *gifts.GiftService
	Widgets          *widgets.WidgetService

	// VoucherAdmin serves the administration's vouchers and giftcards.
	VoucherAdmin *vouchers.VoucherAdminService
	MediaLibrary *media.MediaService
	// AdminPrototypes serves the administration's voucher prototypes,
	// options and option categories.
	AdminPrototypes *prototypes.AdminPrototypeService

	// NetworkGiftcards serves the network giftcards, their usages and
	// their ledger.
	NetworkGiftcards *network.GiftcardService

	// NetworkPartners serves the partners of marketplaces' networks.
	NetworkPartners *network.PartnerService
	// NetworkVouchers serves the administration's network voucher boxes,
	// network vouchers and their usages.
	NetworkVouchers *network.VoucherService

	// MultiProductCarts serves the carts of a marketplace's network
	// products.
	MultiProductCarts *mpcart.Service
	// PaymentPartners serves the payment hub's partners: their records,
	// payments activation and KYC documents.
	PaymentPartners *payments.HubPartnerService
	// Payments serves the payment hub's payments, their refunds and
	// transactions.
	Payments *payments.PaymentService
	// Wallets reads the payment hub's wallets and their movements.
	Wallets *payments.WalletService
	// Payouts builds the payment hub's payout requests, validates them and
	// reads them.
	Payouts *payments.PayoutService

	// Ecommerce serves the e-commerce catalogue: the partners' products
	// and delivery settings.
	Ecommerce *ecommerce.Service
	// Checkout runs the e-commerce funnel's steps and the partners'
	// orders.
	Checkout *checkout.Service

	// Webhooks manages the webhook endpoints of partners and the platform.
	Webhooks *webhooks.Service
}
