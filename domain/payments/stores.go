// Package payments is the payment hub: payment-hub partners, payments,
// refunds, wallets and their movements, payouts and payment requests.
package payments

// Stores are the stores of the payments area's services.
type Stores struct {
	Wallets WalletStore
}
