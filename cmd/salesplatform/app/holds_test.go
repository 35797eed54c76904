package app

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/domain/network"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// The sweep lapses a hold past its expiry, puts its amount back on the
// card, and stops with its context.
func TestSweepHolds(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := context.Background()
	var market, member, user int64
	for q, into := range map[string]*int64{
		`INSERT INTO partners (name, is_marketplace) VALUES ('Market', true) RETURNING id`: &market,
		`INSERT INTO partners (name, status) VALUES ('Member', 'n') RETURNING id`:          &member,
		`INSERT INTO users (username, password_hash) VALUES ('u', 'x') RETURNING id`:       &user,
	} {
		if err := db.NewRaw(q).Scan(ctx, into); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{`INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?)`,
		`INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?)`} {
		if _, err := db.ExecContext(ctx, q, market, member); err != nil {
			t.Fatal(err)
		}
	}
	card := &gifts.NetworkGiftcard{Code: "NGC-SWEEP-1", MarketplaceID: market, Status: "paid",
		Value: decimal.NewFromInt(20), RemainingValue: decimal.NewFromInt(20)}
	if err := persistence.NewGiftStore(db).CreateNetworkGiftcard(ctx, card); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	cards := network.NewGiftcardService(persistence.NewUnitOfWork(db, persistence.NetworkStores), nil).
		WithClock(func() time.Time { return now })
	caller := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{ID: user}, Partner: &domain.Partner{ID: market},
		Permissions: []string{domain.PermUseNetworkGiftcardAPI}})
	if _, err := cards.Hold(caller, network.HoldInput{Code: card.Code, PartnerRef: network.PartnerRef{PartnerID: domain.Some(member)},
		ReservationID: domain.Some("R"), Amount: domain.Some(decimal.NewFromInt(15)), ExpiresIn: domain.Some(int64(60))}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute)

	sweepCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	var logs bytes.Buffer
	go func() {
		defer close(done)
		sweepHolds(sweepCtx, cards, 10*time.Millisecond, slog.New(slog.NewJSONHandler(&logs, nil)))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var remaining decimal.Decimal
		if err := db.NewRaw(`SELECT remaining_value FROM network_giftcards WHERE id = ?`, card.ID).Scan(ctx, &remaining); err != nil {
			t.Fatal(err)
		}
		if remaining.Equal(decimal.NewFromInt(20)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("remaining %s: the hold did not lapse", remaining)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the sweep did not stop with its context")
	}
}
