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
	ctx := context.Background()
	member := f.id(t, `INSERT INTO partners (name, status) VALUES ('Member', 'n') RETURNING id`)
	f.exec(t, `INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?)`, f.market, member)
	f.exec(t, `INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?)`, f.market, member)
	uses := network.NewGiftcardService(persistence.NewUnitOfWork(f.db, persistence.NetworkStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(f.db)))
	asMarket := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{ID: 1}, Partner: &domain.Partner{ID: f.market},
		Permissions: []string{domain.PermUseNetworkGiftcardAPI}})
	card := f.card(t, "100.00")
	var code string
	if err := f.db.NewRaw(`SELECT code FROM network_giftcards WHERE uuid = ?`, card).Scan(ctx, &code); err != nil {
		t.Fatal(err)
	}
	var drawn, used atomic.Int64
	codes := dbtest.Concurrently(60, func(i int) error {
		if i%2 == 0 {
			_, err := f.transfer(mv(card, f.clearing, "5.00", payments.MoveExtraSource))
			if err == nil {
				drawn.Add(1)
			}
			return err
		}
		_, err := uses.Use(asMarket, network.UseInput{Code: code, PartnerID: member, Value: dec("5.00"),
			CreationDate: network.At(time.Now())})
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
		card).Scan(ctx, &ledger, &draws, &usages); err != nil {
		t.Fatal(err)
	}
	if !ledger.IsZero() || int64(draws) != drawn.Load() || int64(usages) != used.Load() {
		t.Errorf("ledger sums to %s with %d payments and %d uses; want 0, %d and %d", ledger, draws, usages,
			drawn.Load(), used.Load())
	}
	f.checkBooks(t)
}
