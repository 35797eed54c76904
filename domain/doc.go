// Package domain is the shared core of the sales platform's business
// rules: the one error type, the caller and its permissions (Authorize and
// the one table AdminRules), partners, pagination, localized texts, the
// typed inputs of the writes (Optional, Fields: input.go) and the
// validation helpers. Each area of the business is a package below it that
// imports this core and declares the stores it needs: account, cart
// (a buyer's cart and its funnel), catalogue, checkout (a shop's orders:
// pricing, payment, completion), ecommerce (a shop's products and
// delivery settings), gifts, media, mpcart (a marketplace's multi-product
// cart), network (network giftcards and vouchers), notify (mails),
// payments (the payment hub: partners, wallets, payments, payouts),
// prototypes, vouchers, webhooks (partners' endpoints and the events sent
// to them) and widgets; idempotency, services and l10n are shared helpers
// of several areas.
//
// Nothing here or below imports graph, rest, persistence or cmd: they
// depend on the domain, never the reverse (docs/ARCHITECTURE.md draws the
// allowed imports between areas; TestImports enforces them).
//
// Every rule lives here once. A REST handler and its GraphQL twin decode
// their input into a domain input, call one service method and encode the
// result, so validation, tenancy (the caller travels in the context, see
// Caller) and state changes cannot differ between the two surfaces.
package domain
