package payments_test

import (
	"context"
	"sync/atomic"
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
)

// Payments drawing from a card and uses of it at a network partner, all
// at once on one card: both go through the network area's port, so that
// together they take no more than the card holds, and the card's ledger
// and the wallets' books agree.
func TestPaymentsAndUsesRacingOnOneCard(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 16)
	uses, asMarket, member := f.network(t)
	card := f.card(t, "100.00")
	code := f.code(t, card)
	var drawn, used atomic.Int64
	codes := dbtest.Concurrently(60, func(i int) error {
		if i%2 == 0 {
			_, err := f.transfer(mv(card, f.clearing, "5.00", payments.MoveExtraSource))
			if err == nil {
				drawn.Add(1)
			}
			return err
		}
		_, err := uses.Use(asMarket, network.UseInput{Code: code, PartnerRef: network.PartnerRef{PartnerID: domain.Some(member)},
			Value: domain.Some(dec("5.00")), CreationDate: domain.Some(network.At(time.Now()))})
		if err == nil {
			used.Add(1)
		}
		return err
	})
	if codes[""] != 20 || codes[domain.CodeInvalid] != 40 {
		t.Fatalf("outcomes %v (%d draws, %d uses); want 20 successes and 40 refusals", codes, drawn.Load(), used.Load())
	}
	f.wantBalances(t, map[uuid.UUID]string{card: "0.00"})
	if got, want := f.balance(t, f.clearing), dec("5").Mul(decimal.NewFromInt(drawn.Load())); !got.Equal(want) {
		t.Errorf("clearing %s, want %s (%d draws)", got, want, drawn.Load())
	}
	var ledger decimal.Decimal
	var draws, usages int
	if err := f.db.NewRaw(`SELECT COALESCE(sum(amount), 0), count(*) FILTER (WHERE kind = 'payment'),
		count(*) FILTER (WHERE kind = 'use')
		FROM network_giftcard_movements m JOIN network_giftcards g ON g.id = m.network_giftcard_id WHERE g.uuid = ?`,
		card).Scan(context.Background(), &ledger, &draws, &usages); err != nil {
		t.Fatal(err)
	}
	if !ledger.IsZero() || int64(draws) != drawn.Load() || int64(usages) != used.Load() {
		t.Errorf("ledger sums to %s with %d payments and %d uses; want 0, %d and %d", ledger, draws, usages,
			drawn.Load(), used.Load())
	}
	f.checkBooks(t)
}

// A hold past its expiry that the sweep has not reached counts no more
// for a payment's draw than for a use: the draw lapses it.
func TestDrawLapsesExpiredHolds(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 4)
	uses, asMarket, member := f.network(t)
	card := f.card(t, "10.00")
	hourAgo := time.Now().Add(-time.Hour)
	_, err := uses.WithClock(func() time.Time { return hourAgo }).Hold(asMarket, network.HoldInput{Code: f.code(t, card),
		PartnerRef: network.PartnerRef{PartnerID: domain.Some(member)}, ReservationID: domain.Some("R-1"),
		Amount: domain.Some(dec("10.00")), ExpiresIn: domain.Some[int64](60)})
	if err != nil {
		t.Fatal(err)
	}
	f.wantBalances(t, map[uuid.UUID]string{card: "0.00"})
	if _, err := f.transfer(mv(card, f.clearing, "10.00", payments.MoveExtraSource)); err != nil {
		t.Fatalf("draw after the hold's expiry: %v", err)
	}
	f.wantBalances(t, map[uuid.UUID]string{card: "0.00", f.clearing: "10.00"})
	if n := f.count(t, `SELECT count(*) FROM network_giftcard_holds WHERE status = 'lapsed'`); n != 1 {
		t.Errorf("%d lapsed holds, want 1", n)
	}
	f.checkBooks(t)
}

// network makes partner Member accept the marketplace's cards and returns
// the network's service, its marketplace's caller, and Member.
func (f *walletFixture) network(t testing.TB) (*network.GiftcardService, context.Context, int64) {
	t.Helper()
	member := f.id(t, `INSERT INTO partners (name, status) VALUES ('Member', 'n') RETURNING id`)
	f.exec(t, `INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?)`, f.market, member)
	f.exec(t, `INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?)`, f.market, member)
	svc := network.NewGiftcardService(persistence.NewUnitOfWork(f.db, persistence.NetworkStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(f.db)))
	asMarket := domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: 1},
		Partner: &domain.Partner{ID: f.market}, Permissions: []string{domain.PermUseNetworkGiftcardAPI}})
	return svc, asMarket, member
}

// code returns the code of the card with that uuid.
func (f *walletFixture) code(t testing.TB, card uuid.UUID) string {
	t.Helper()
	var code string
	if err := f.db.NewRaw(`SELECT code FROM network_giftcards WHERE uuid = ?`, card).Scan(context.Background(), &code); err != nil {
		t.Fatal(err)
	}
	return code
}
