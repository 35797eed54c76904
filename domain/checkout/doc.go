// Package checkout is the e-commerce funnel behind a cart's funnel_url:
// the customization, information and payment steps a customer goes
// through on the partner's site, the price calculator (decimal: lines,
// delivery, coupon, network giftcard), and the order it ends in (an
// e-commerce order, its related order, its lines and its payment
// records), which the partner then reads and refunds from its backend.
//
// The cart stays the cart area's record (a CartStore); the funnel keeps
// its steps' answers beside the items, in the cart's Funnel state, so
// that they lapse with it.
package checkout
