// Package payments is the payment hub. Built so far: wallets as double
// entry, where a network giftcard is a wallet (wallets.go), the fee table
// (fees.go), and the partners whose payments it takes (their company
// record, payout and bank settings, the audit trail of their state), the
// activation of their payments at a payment-service provider (Provider;
// the simulated one is persistence/psp) and their KYC documents.
// Decisions: docs/DECISIONS.md, "Wallets", "Payment fees", "Payment-hub
// partners".
package payments
