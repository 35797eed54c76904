// Package vouchers is the administration of vouchers and giftcards sold:
// lists with search, date filters and orderings, state changes along the
// transition table with their history, and issuing by staff.
package vouchers
