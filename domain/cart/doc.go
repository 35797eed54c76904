// Package cart keeps the e-commerce carts a partner hands to its checkout
// funnel: the contract's cart document, its limits, If-Match and the
// funnel URL. Carts live in a CartStore (memory or Redis), not in
// PostgreSQL.
package cart
