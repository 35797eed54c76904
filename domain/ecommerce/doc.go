// Package ecommerce is a partner's e-commerce catalogue: products with
// their variants, attributes and stock, and the partner's delivery
// settings. Partners manage it (REST /api/v2/ecommerce/products/, the
// graph); shops read it publicly, scoped by X-Partner-Domain; the checkout
// funnel (package checkout) prices carts from it and takes its stock.
package ecommerce
