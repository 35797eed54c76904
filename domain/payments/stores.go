package payments

import (
	"salesplatform/domain/idempotency"
	"salesplatform/domain/webhooks"
)

// Stores are the stores of the payments area's services that move money:
// payments, refunds, payouts and the wallets they move.
type Stores struct {
	Wallets  WalletStore
	Payments PaymentStore
	Partners PartnerStore
	Payouts  PayoutStore
	Requests PaymentRequestStore
	Keys     idempotency.Store
	// Events keeps the webhook events of a change in its transaction.
	Events webhooks.Publisher
}
