package demo

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/persistence/dbtest"
)

// The payment hub is loaded as payments.json says: its partners active at
// the provider and in their referrer's network; each payment of its
// amount and status, refunded as listed, with a transaction per pay-in
// source and per refund; the network giftcard a payment draws from holds
// what the payment and its refunds left it; the wallets stay in double
// entry; the payments dated back are in a payout request; the payment
// requests are pending. A second run changes nothing.
func TestLoadPayments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := mustData(t)
	db := dbtest.New(t)
	dir := t.TempDir()
	out, err := load(t, db, dir)
	if err != nil || !strings.Contains(out, "Loaded the demo payment hub:") {
		t.Fatalf("%v\noutput:\n%s", err, out)
	}
	for _, d := range data.PaymentPartners {
		var activation string
		var inNetwork bool
		err := db.NewRaw(`SELECT a.status, EXISTS (SELECT 1 FROM network_partners n JOIN partners m ON m.id = n.marketplace_id
				WHERE n.partner_id = p.id AND n.source_id = ? AND m.site_domain = ?)
			FROM partners p JOIN payment_partner_activations a ON a.partner_id = p.id WHERE p.name = ?`,
			d.SourceID, data.Partner(d.Referrer).Domain, d.Name).Scan(ctx, &activation, &inNetwork)
		if err != nil || activation != "COMPLETED" || !inNetwork {
			t.Errorf("payment partner %s: activation %q, in its referrer's network %v, %v", d.Key, activation, inNetwork, err)
		}
	}
	for _, d := range data.HubPayments {
		var status string
		var refunded, extra, refundedExtra decimal.Decimal
		var transactions, refunds int
		err := db.NewRaw(`SELECT status, refunded_amount, extra_source_amount, refunded_extra_source,
				(SELECT count(*) FROM payment_transactions t WHERE t.payment_id = p.id),
				(SELECT count(*) FROM payment_refunds r WHERE r.payment_id = p.id AND r.status = 'succeeded')
			FROM payments p WHERE payment_receipt_description = ? AND amount = ?`, d.Receipt, d.Amount).
			Scan(ctx, &status, &refunded, &extra, &refundedExtra, &transactions, &refunds)
		if err != nil {
			t.Fatalf("payment %s: %v", d.Key, err)
		}
		wantStatus, wantRefunded, wantTransactions := "ip", decimal.Zero, 1
		if d.Card == HubCardPaid {
			wantStatus = "ok"
		}
		for _, r := range d.Refunds {
			wantRefunded = wantRefunded.Add(r.Amount)
		}
		if d.ExtraSource != nil {
			wantTransactions++
		}
		if status != wantStatus || !refunded.Equal(wantRefunded) || refunds != len(d.Refunds) ||
			transactions != wantTransactions+len(d.Refunds) {
			t.Errorf("payment %s: status %s, refunded %s, %d refunds, %d transactions", d.Key, status, refunded, refunds, transactions)
		}
		if e := d.ExtraSource; e != nil {
			var remaining decimal.Decimal
			err := db.NewRaw(`SELECT remaining_value FROM network_giftcards WHERE code = ?`, e.Giftcard).Scan(ctx, &remaining)
			card := data.networkGiftcard(e.Giftcard)
			if want := card.Value.Sub(e.Amount).Add(refundedExtra); err != nil || !extra.Equal(e.Amount) ||
				!refundedExtra.IsPositive() || !remaining.Equal(want) {
				t.Errorf("%s after payment %s: remaining %s, want %s (%v)", e.Giftcard, d.Key, remaining, want, err)
			}
		}
	}
	// Double entry: the movements out of the network giftcards' wallets
	// are what the other wallets hold.
	var off decimal.Decimal
	err = db.NewRaw(`SELECT coalesce((SELECT sum(balance) FROM wallets WHERE kind <> 'network_giftcard'), 0)
		- coalesce((SELECT sum(CASE WHEN d.kind = 'network_giftcard' THEN m.amount ELSE -m.amount END)
			FROM wallet_movements m JOIN wallets d ON d.uuid = m.debited_wallet_uuid JOIN wallets c ON c.uuid = m.credited_wallet_uuid
			WHERE (d.kind = 'network_giftcard') <> (c.kind = 'network_giftcard')), 0)`).Scan(ctx, &off)
	if err != nil || !off.IsZero() {
		t.Errorf("the wallets are off double entry by %s (%v)", off, err)
	}

	// The payments dated back are in one payout request, to be validated:
	// their money moved from the spa's wallet to the payouts wallet. The
	// one dated ahead waits in the spa's wallet, where its refunds take
	// from.
	dated := 0
	for _, d := range data.HubPayments {
		if d.FreezeDaysAgo > 0 {
			dated++
		}
	}
	var payouts, inPayout int
	var status string
	var amount, spaWallet, waiting, payoutsWallet decimal.Decimal
	err = db.NewRaw(`SELECT (SELECT count(*) FROM payout_requests), (SELECT count(*) FROM payments WHERE payout_request_id IS NOT NULL),
			(SELECT status FROM payout_requests LIMIT 1), (SELECT amount FROM payout_requests LIMIT 1),
			(SELECT balance FROM wallets w JOIN partners p ON p.id = w.partner_id WHERE p.name = ?),
			(SELECT coalesce(sum(net_amount), 0) FROM payments
				WHERE status = 'ok' AND payout_request_id IS NULL AND refunded_amount = 0 AND freeze_payout_date > now()),
			(SELECT balance FROM wallets WHERE kind = 'payouts')`, data.PaymentPartners[0].Name).
		Scan(ctx, &payouts, &inPayout, &status, &amount, &spaWallet, &waiting, &payoutsWallet)
	if err != nil || payouts != 1 || inPayout != dated || status != "to be validated" || !amount.IsPositive() ||
		!waiting.IsPositive() || !spaWallet.Equal(waiting) || !payoutsWallet.Equal(amount) {
		t.Errorf("payouts: %d with %d payments, %s %s; spa's wallet %s, want %s; payouts wallet %s (%v)", payouts, inPayout, status,
			amount, spaWallet, waiting, payoutsWallet, err)
	}
	// The payment requests wait for their customer, at their link.
	var requests int
	err = db.NewRaw(`SELECT count(*) FROM payment_requests WHERE status = 'pending'`).Scan(ctx, &requests)
	if err != nil || requests != len(data.PaymentRequests) || strings.Count(out, "http://demo.test/pay/") != len(data.PaymentRequests) {
		t.Errorf("%d pending payment requests (%v)\n%s", requests, err, out)
	}

	before := counts(t, db)
	out, err = load(t, db, dir)
	if err != nil || !strings.Contains(out, "The demo payment hub is already loaded: nothing changed.") {
		t.Fatalf("second run: %v\noutput:\n%s", err, out)
	}
	if after := counts(t, db); after["payments"] != before["payments"] || after["wallet_movements"] != before["wallet_movements"] {
		t.Errorf("a second run wrote payments: %v → %v", before, after)
	}
}
