// Package domain is the shared core of the sales platform's business
// rules: the one error type, the caller and its permissions (Authorize and
// the one table AdminRules), partners, pagination, localized texts,
// validation helpers and the readers of DRF documents. Each area of the
// business (account, cart, catalogue, gifts, media, prototypes, vouchers,
// widgets) is a package below it that imports this core and declares the
// stores it needs.
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
