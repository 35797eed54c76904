// Package catalogue is the public catalogue (API v2) and its management:
// partners' profiles, legal and product information, universes and themes,
// giftcard prototypes, network voucher boxes and their offers, events and
// their slots, workshops and their sessions. Reads are scoped to the
// catalogue partner (X-Partner-Domain, else the token's); writes need
// manage_masteradmin on the partner written.
package catalogue
