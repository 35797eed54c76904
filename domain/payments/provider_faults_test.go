package payments_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/psp"
)

// unreachable is the simulated provider behind a network that fails
// while down is set: the provider is never reached, so it does nothing.
type unreachable struct {
	payments.Provider
	down atomic.Bool
}

var errUnreachable = errors.New("provider unreachable")

func (u *unreachable) Charge(ctx context.Context, in payments.ChargeRequest) (*payments.Payin, error) {
	if u.down.Load() {
		return nil, errUnreachable
	}
	return u.Provider.Charge(ctx, in)
}

func (u *unreachable) Refund(ctx context.Context, in payments.RefundRequest) (*payments.ProviderRefund, error) {
	if u.down.Load() {
		return nil, errUnreachable
	}
	return u.Provider.Refund(ctx, in)
}

// faultFixture is a payout fixture whose payment service reaches the
// simulated provider through a network that can fail.
func faultFixture(t *testing.T) (*payoutFixture, *payments.PaymentService, *unreachable) {
	f := newPayoutFixture(t)
	net := &unreachable{Provider: psp.NewSim(f.db, simBase)}
	svc := payments.NewPaymentService(f.uow, idempotency.NewGuard(persistence.NewIdempotencyStore(f.db)), net)
	return f, svc, net
}

// An unreachable provider fails the payment: its extra source is given
// back to the network giftcard in full and no wallet keeps anything.
func TestProviderDownFailsPayment(t *testing.T) {
	t.Parallel()
	f, svc, net := faultFixture(t)
	card, cardID := f.card(t, "100")
	net.down.Store(true)
	// The marketplace takes its own cards.
	p, err := svc.CreatePayment(f.member(f.market), payInput(f.market, dec("60"),
		"extra_source_wallet_uuid", card.String(), "extra_source_amount", "20"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != payments.StatusFailed || p.PayinResultCode != payments.ResultProviderError {
		t.Errorf("payment %s %s", p.Status, p.PayinResultCode)
	}
	var remaining string
	f.scan(t, &remaining, `SELECT remaining_value::text FROM network_giftcards WHERE id = ?`, cardID)
	if remaining != "100.00" {
		t.Errorf("the card holds %s after the failed payment", remaining)
	}
	for _, kind := range []string{payments.WalletPayinClearing, payments.WalletCommission} {
		if b := f.balanceOf(t, kind, 0); !b.IsZero() {
			t.Errorf("%s holds %s", kind, b)
		}
	}
	if b := f.balanceOf(t, payments.WalletPartner, f.market.ID); !b.IsZero() {
		t.Errorf("the partner's wallet holds %s", b)
	}
}

// A refund the provider did not answer stays pending with its amount
// reserved; a repeat with its idempotency key finishes it, and the job's
// retry finishes one asked without a key, once the provider answers.
func TestPendingRefundsFinished(t *testing.T) {
	t.Parallel()
	f, svc, net := faultFixture(t)
	p := f.pay(t, f.spa, "50", time.Now())
	refund := func(ctx context.Context, amount string) *payments.Refund {
		t.Helper()
		r, err := svc.RefundPayment(ctx, p.UUID, refundOf(amount))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	net.down.Store(true)
	keyed, err := idempotency.WithKey(f.member(f.spa), "refund-1")
	if err != nil {
		t.Fatal(err)
	}
	first, second := refund(keyed, "10"), refund(f.member(f.spa), "5")
	if first.Status != payments.RefundPending || second.Status != payments.RefundPending {
		t.Fatalf("refunds while down: %s, %s", first.Status, second.Status)
	}
	// Reserved: only the rest may still be refunded.
	if _, err := svc.RefundPayment(f.member(f.spa), p.UUID, refundOf("35.01")); !domain.IsCode(err, domain.CodeInvalid) {
		t.Errorf("a refund over the reservations: %v", err)
	}
	// Still down: the retry finishes nothing.
	if n, err := svc.RetryPendingRefunds(context.Background(), time.Now().Add(time.Minute), 10); err != nil || n != 0 {
		t.Errorf("retry while down: %d, %v", n, err)
	}

	net.down.Store(false)
	if r := refund(keyed, "10"); r.UUID != first.UUID || r.Status != payments.RefundStatusSucceeded {
		t.Errorf("the repeat with its key: %s %s, want %s succeeded", r.UUID, r.Status, first.UUID)
	}
	// A retry leaves out what is younger than its cutoff.
	if n, err := svc.RetryPendingRefunds(context.Background(), time.Now().Add(-time.Hour), 10); err != nil || n != 0 {
		t.Errorf("retry before the cutoff: %d, %v", n, err)
	}
	if n, err := svc.RetryPendingRefunds(context.Background(), time.Now().Add(time.Minute), 10); err != nil || n != 1 {
		t.Errorf("retry: %d finished, %v", n, err)
	}
	got, err := svc.Payment(f.member(f.spa), p.UUID)
	if err != nil {
		t.Fatal(err)
	}
	if got.RefundedAmount.String() != "15" || !got.ReservedPayin.IsZero() {
		t.Errorf("refunded %s, reserved %s", got.RefundedAmount, got.ReservedPayin)
	}
	var succeeded, transactions int
	f.scan(t, &succeeded, `SELECT count(*) FROM payment_refunds WHERE payment_id = ? AND status = 'succeeded'`, p.ID)
	f.scan(t, &transactions, `SELECT count(*) FROM payment_transactions WHERE payment_id = ? AND type = 'refund'`, p.ID)
	if succeeded != 2 || transactions != 2 {
		t.Errorf("%d refunds succeeded, %d refund transactions", succeeded, transactions)
	}
	// Done: a further retry finds nothing.
	if n, err := svc.RetryPendingRefunds(context.Background(), time.Now().Add(time.Minute), 10); err != nil || n != 0 {
		t.Errorf("retry after all finished: %d, %v", n, err)
	}
}
