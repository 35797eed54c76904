package payments

// Stores are the stores of the payments area's services.
type Stores struct {
	Wallets WalletStore
}
