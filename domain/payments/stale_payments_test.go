package payments_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// crashing is the simulated provider behind a process that dies as it
// sends a charge while crash is set: the payment is committed, the
// provider never hears of it.
type crashing struct {
	payments.Provider
	crash bool
}

func (c *crashing) Charge(ctx context.Context, in payments.ChargeRequest) (*payments.Payin, error) {
	if c.crash {
		panic("the process died before the provider was asked")
	}
	return c.Provider.Charge(ctx, in)
}

// movementsOf counts the wallet movements of the payment with that uuid.
func (f *payoutFixture) movementsOf(t *testing.T, id uuid.UUID) int {
	t.Helper()
	var n int
	f.scan(t, &n, `SELECT count(*) FROM wallet_movements WHERE payment_uuid = ?`, id)
	return n
}

func (f *payoutFixture) remainingOf(t *testing.T, cardID int64) string {
	t.Helper()
	var s string
	f.scan(t, &s, `SELECT remaining_value::text FROM network_giftcards WHERE id = ?`, cardID)
	return s
}

// The incident: the card is charged, then the settlement's transaction
// fails (here a numeric overflow raised on the pay-in's movement), so the
// payment stays in progress with no pay-in reference while the provider
// holds a succeeded pay-in. The job asks the provider by the payment's
// uuid and settles it once: a second run moves nothing. A payment the
// provider never heard of fails and gives its extra source back; one
// awaiting its card holder stays in progress.
func TestSettleStalePayments(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	ctx := context.Background()
	net := &crashing{Provider: psp.NewSim(f.db, simBase)}
	svc := payments.NewPaymentService(f.uow, idempotency.NewGuard(persistence.NewIdempotencyStore(f.db)), net)
	card, cardID := f.card(t, "100")

	f.failPayins(t)
	// 80.00: 20.00 from the card, 60.00 charged, then the settlement fails.
	if _, err := svc.CreatePayment(f.member(f.market), payInput(f.market, dec("80"),
		"extra_source_wallet_uuid", card.String(), "extra_source_amount", "20")); err == nil || !strings.Contains(err.Error(), "22003") {
		t.Fatalf("the settlement did not fail: %v", err)
	}
	var charged uuid.UUID
	var ref string
	f.scan(t, &charged, `SELECT uuid FROM payments WHERE status = 'ip'`)
	f.scan(t, &ref, `SELECT payin_ref FROM payments WHERE uuid = ?`, charged)
	if payin, err := net.PayinOf(ctx, charged); err != nil || payin.Status != payments.PayinSucceeded || ref != "" {
		t.Fatalf("the provider's pay-in %+v, %v; the payment's reference %q", payin, err, ref)
	}
	f.exec(t, `DROP TRIGGER fail_payin ON wallet_movements; DROP FUNCTION fail_payin()`)

	// 30.00: 10.00 from the card, and the process dies before the charge.
	net.crash = true
	func() {
		defer func() { _ = recover() }()
		_, _ = svc.CreatePayment(f.member(f.market), payInput(f.market, dec("30"),
			"extra_source_wallet_uuid", card.String(), "extra_source_amount", "10"))
	}()
	net.crash = false
	var uncharged uuid.UUID
	f.scan(t, &uncharged, `SELECT uuid FROM payments WHERE status = 'ip' AND uuid <> ?`, charged)
	// 12.00 awaiting its card holder on the provider's card page.
	byPage := payInput(f.spa, dec("12"))
	byPage.Card = domain.Optional[string]{}
	waiting, err := svc.CreatePayment(f.member(f.spa), byPage)
	if err != nil || waiting.Status != payments.StatusInProgress {
		t.Fatalf("payment by the card page: %v %+v", err, waiting)
	}
	if got := f.remainingOf(t, cardID); got != "70.00" {
		t.Fatalf("the card holds %s", got)
	}

	// The job leaves alone what is younger than its cutoff.
	if n, err := svc.SettleStalePayments(ctx, time.Now().Add(-time.Hour), 10); err != nil || n != 0 {
		t.Errorf("before the cutoff: %d, %v", n, err)
	}
	for run := 1; run <= 2; run++ {
		n, err := svc.SettleStalePayments(ctx, time.Now().Add(time.Minute), 10)
		if want := map[int]int{1: 2, 2: 0}[run]; err != nil || n != want {
			t.Errorf("run %d: %d finished, want %d: %v", run, n, want, err)
		}
		p, err := svc.Payment(f.staff, charged)
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != payments.StatusPaid || p.PaidOn == nil || p.PayinRef == "" || p.PayinStatus != payments.PayinSucceeded {
			t.Errorf("run %d: the charged payment %s, paid on %v, pay-in %q %s", run, p.Status, p.PaidOn, p.PayinRef, p.PayinStatus)
		}
		// extra_source, payin, transfer, commission: once each.
		if n := f.movementsOf(t, charged); n != 4 {
			t.Errorf("run %d: the charged payment has %d movements", run, n)
		}
		var txs string
		f.scan(t, &txs, `SELECT string_agg(payment_method || ':' || status, ',' ORDER BY id) FROM payment_transactions WHERE payment_id = ?`, p.ID)
		if txs != "wallet:succeeded,credit_card:succeeded" {
			t.Errorf("run %d: transactions %s", run, txs)
		}
		u, err := svc.Payment(f.staff, uncharged)
		if err != nil {
			t.Fatal(err)
		}
		if u.Status != payments.StatusFailed || u.PayinResultCode != payments.ResultPayinUnknown {
			t.Errorf("run %d: the uncharged payment %s %s", run, u.Status, u.PayinResultCode)
		}
		// Drawn, given back.
		if n := f.movementsOf(t, uncharged); n != 2 {
			t.Errorf("run %d: the uncharged payment has %d movements", run, n)
		}
		if got := f.remainingOf(t, cardID); got != "80.00" {
			t.Errorf("run %d: the card holds %s, want 80.00 (20.00 spent)", run, got)
		}
		if w, err := svc.Payment(f.staff, waiting.UUID); err != nil || w.Status != payments.StatusInProgress || w.PayinURL == "" {
			t.Errorf("run %d: the waiting payment %+v, %v", run, w, err)
		}
		for kind, want := range map[string]string{payments.WalletPayin: "-60", payments.WalletPayinClearing: "0",
			payments.WalletCommission: p.Commission.String()} {
			if b := f.balanceOf(t, kind, 0); b.String() != want {
				t.Errorf("run %d: %s holds %s, want %s", run, kind, b, want)
			}
		}
		if b := f.balanceOf(t, payments.WalletPartner, f.market.ID); !b.Equal(p.NetAmount) {
			t.Errorf("run %d: the partner's wallet holds %s, want %s", run, b, p.NetAmount)
		}
	}
}

// The wallets hold the sums of every tenant's payments: a platform
// account far beyond what NUMERIC(16,2) held still takes a payment of the
// maximum, and the payment is settled.
func TestWalletsHoldPlatformSums(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	ctx := context.Background()
	// The payin account as if 10^14 payments of the maximum had come in
	// and been paid out (double entry kept).
	huge := payments.MaxAmount.Mul(decimal.New(1, 14))
	err := f.uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
		for _, kind := range []string{payments.WalletPayin, payments.WalletPayouts} {
			if _, err := payments.PlatformWallet(ctx, tx, kind, "EUR"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f.exec(t, `UPDATE wallets SET balance = CASE kind WHEN 'payin' THEN -?0::numeric ELSE ?0::numeric END
		WHERE kind IN ('payin', 'payouts')`, huge)
	p := f.pay(t, f.spa, payments.MaxAmount.StringFixed(2), time.Now())
	if b := f.balanceOf(t, payments.WalletPayin, 0); !b.Equal(huge.Add(payments.MaxAmount).Neg()) {
		t.Errorf("payin holds %s", b)
	}
	if b := f.balanceOf(t, payments.WalletPartner, f.spa.ID); !b.Equal(p.NetAmount) {
		t.Errorf("the partner's wallet holds %s, want %s", b, p.NetAmount)
	}
}

// The maximum is one rule for payments, payment requests and refunds:
// above it, a field error on the amount and nothing written.
func TestAmountMaximum(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	p := f.pay(t, f.spa, "1000000.00", time.Now())
	if !p.Amount.Equal(payments.MaxAmount) {
		t.Fatalf("paid %s", p.Amount)
	}
	var before int
	count := `SELECT (SELECT count(*) FROM payments) + (SELECT count(*) FROM wallet_movements)
		+ (SELECT count(*) FROM payment_refunds) + (SELECT count(*) FROM payment_requests)`
	f.scan(t, &before, count)
	want := map[string]string{"amount": "Ensure this value is less than or equal to 1000000."}
	_, err := f.pays.CreatePayment(f.member(f.spa), payInput(f.spa, dec("1000000.01")))
	dbtest.WantFieldErrors(t, err, want)
	_, err = f.pays.RefundPayment(f.member(f.spa), p.UUID, refundOf("1000000.01"))
	dbtest.WantFieldErrors(t, err, want)
	_, err = f.pays.CreatePaymentRequest(f.member(f.spa), payments.PaymentRequestInput{PartnerUUID: domain.Some(f.spa.UUID),
		Amount: domain.Some(dec("1000000.01")), Language: domain.Some("en"),
		Customer: domain.Some(network.CustomerInput{FirstName: domain.Some("Ada"), LastName: domain.Some("Lovelace"),
			Email: domain.Some("ada@example.com")})})
	dbtest.WantFieldErrors(t, err, want)
	if _, err := payments.Fees(payments.ProductVoucher, "", dec("1000000.01")); !domain.IsCode(err, domain.CodeInvalid) {
		t.Errorf("fees above the maximum: %v", err)
	}
	var after int
	f.scan(t, &after, count)
	if after != before {
		t.Errorf("refusals wrote %d rows", after-before)
	}
}

// A refund whose card part the card cannot take back (a staff adjustment
// filled it) is refused before the provider is asked: once the provider
// has refunded the pay-in's part, the settlement cannot find the card
// full.
func TestRefundCardRoomCheckedBeforeProvider(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	card, cardID := f.card(t, "100")
	p := f.pay(t, f.market, "100", time.Now(), "extra_source_wallet_uuid", card.String(), "extra_source_amount", "50")
	f.exec(t, `UPDATE network_giftcards SET remaining_value = 95 WHERE id = ?`, cardID)
	var before int
	count := `SELECT (SELECT count(*) FROM payment_refunds) + (SELECT count(*) FROM psp_sim_refunds) + (SELECT count(*) FROM wallet_movements)`
	f.scan(t, &before, count)
	// 20.00: 10.00 to the card, 10.00 through the provider.
	_, err := f.pays.RefundPayment(f.member(f.market), p.UUID, refundOf("20"))
	dbtest.WantFieldErrors(t, err, map[string]string{"amount": "This giftcard can take back at most 5.00."})
	_, err = f.pays.RefundPayment(f.member(f.market), p.UUID, payments.RefundInput{Amount: domain.Some(dec("20")),
		Split: domain.Some(payments.RefundSplit{ExtraSourceAmount: domain.Some(dec("6")), AdditionalPayinAmount: domain.Some(dec("14"))})})
	dbtest.WantFieldErrors(t, err, map[string]string{"split.extra_source_amount": "This giftcard can take back at most 5.00."})
	var after int
	f.scan(t, &after, count)
	if after != before {
		t.Errorf("refused refunds wrote %d rows", after-before)
	}
	// Within the room, the refund goes through.
	r, err := f.pays.RefundPayment(f.member(f.market), p.UUID, refundOf("10"))
	if err != nil || r.Status != payments.RefundStatusSucceeded {
		t.Fatalf("refund within the room: %v %+v", err, r)
	}
	if got := f.remainingOf(t, cardID); got != "100.00" {
		t.Errorf("the card holds %s", got)
	}
}

// failPayins makes the settlement of the payments with those uuids fail
// (their pay-in's movement raises), every payment's when none is named.
func (f *payoutFixture) failPayins(t *testing.T, ids ...uuid.UUID) {
	t.Helper()
	when := `NEW.type = 'payin'`
	if len(ids) > 0 {
		when += ` AND NEW.payment_uuid IN (` + strings.Repeat("?,", len(ids)-1) + `?)`
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	f.exec(t, `DROP TRIGGER IF EXISTS fail_payin ON wallet_movements;
		CREATE OR REPLACE FUNCTION fail_payin() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'numeric field overflow' USING ERRCODE = '22003'; END $$;
		CREATE TRIGGER fail_payin BEFORE INSERT ON wallet_movements FOR EACH ROW
		WHEN (`+when+`) EXECUTE FUNCTION fail_payin()`, args...)
}

// A payment whose settlement keeps failing does not keep the job from
// settling the others; it is settled by a later run.
func TestSettleStalePaymentsPastAFailingOne(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	ctx := context.Background()
	f.failPayins(t)
	for _, amount := range []string{"10", "20"} {
		if _, err := f.pays.CreatePayment(f.member(f.spa), payInput(f.spa, dec(amount))); err == nil {
			t.Fatalf("payment of %s settled", amount)
		}
	}
	var first, second uuid.UUID
	f.scan(t, &first, `SELECT uuid FROM payments WHERE amount = 10`)
	f.scan(t, &second, `SELECT uuid FROM payments WHERE amount = 20`)
	f.failPayins(t, first)
	status := func(id uuid.UUID) string {
		p, err := f.pays.Payment(f.staff, id)
		if err != nil {
			t.Fatal(err)
		}
		return p.Status
	}
	n, err := f.pays.SettleStalePayments(ctx, time.Now().Add(time.Minute), 10)
	if n != 1 || err == nil || status(first) != payments.StatusInProgress || status(second) != payments.StatusPaid {
		t.Errorf("run past a failing payment: %d finished, %v; %s, %s", n, err, status(first), status(second))
	}
	f.exec(t, `DROP TRIGGER fail_payin ON wallet_movements`)
	n, err = f.pays.SettleStalePayments(ctx, time.Now().Add(time.Minute), 10)
	if n != 1 || err != nil || status(first) != payments.StatusPaid {
		t.Errorf("next run: %d finished, %v; %s", n, err, status(first))
	}
	if b := f.balanceOf(t, payments.WalletPayin, 0); b.String() != "-30" {
		t.Errorf("payin holds %s", b)
	}
}
