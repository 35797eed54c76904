package persistence

import (
	"github.com/uptrace/bun"

	"salesplatform/domain/payments"
)

// PaymentWalletReadStores binds the stores of the wallet reads
// (payments.WalletService) to db.
func PaymentWalletReadStores(db bun.IDB) payments.WalletReadStores {
	return payments.WalletReadStores{Wallets: paymentWallets(db),
		Partners: &PaymentPartnerStore{PartnerStore: &PartnerStore{db: db}, db: db}}
}
