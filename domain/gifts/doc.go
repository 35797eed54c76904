// Package gifts resolves gift codes of every kind (vouchers, giftcards,
// network giftcards, network vouchers) for the public catalogue, and takes
// contact requests about them. Both need no token, so both are throttled
// per client address.
package gifts
