package network_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/persistence/dbtest"
)

// The cards' changes keep their webhook events in their transactions: a
// creation for the marketplace, a use (direct or by a hold's capture) and
// a cancel for the marketplace and the partner where it was used; a
// refused use keeps none; an endpoint subscribed to other types, or of
// another partner, receives none.
func TestGiftcardWebhookEvents(t *testing.T) {
	t.Parallel()
	dbtest.UseJSONWebhooks()
	f := newNGCFixture(t, 4)
	market := dbtest.WebhookEndpoint(t, f.db, f.market)
	member := dbtest.WebhookEndpoint(t, f.db, f.member, "network_giftcard.used", "network_giftcard.usage_cancelled")
	outside := dbtest.WebhookEndpoint(t, f.db, f.outside)
	memberCreated := dbtest.WebhookEndpoint(t, f.db, f.member, "network_giftcard.created")
	platform := dbtest.WebhookEndpoint(t, f.db, 0, "network_giftcard.created")

	var marketUUID uuid.UUID
	if err := f.db.NewRaw(`SELECT uuid FROM partners WHERE id = ?`, f.market).Scan(context.Background(), &marketUUID); err != nil {
		t.Fatal(err)
	}
	day := network.At(time.Now())
	g, err := f.svc.CreateGiftcard(as(0, true), network.GiftcardInput{
		MarketplaceUUID: domain.Some(marketUUID), Status: domain.Some("paid"), Value: domain.Some(decimal.RequireFromString("60")),
		Gifter: domain.Some(network.CustomerInput{FirstName: domain.Some("Ada"), LastName: domain.Some("L"),
			Email: domain.Some("ada@example.com")}),
		FromGifter: domain.Some("Ada"), ActivationDate: domain.Some(day), ExpirationDate: domain.Some(network.At(time.Now().AddDate(1, 0, 0)))})
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.svc.Use(f.asMarket, use(g.Code, f.member, "20"))
	if err != nil {
		t.Fatal(err)
	}
	// Refused (more than the card holds): rolled back, no event.
	_, err = f.svc.Use(f.asMarket, use(g.Code, f.member, "41"))
	dbtest.WantCode(t, err, domain.CodeInvalid)
	if _, err := f.svc.CancelUsage(f.asMarket, cancel(u.ID, "")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Hold(f.asMarket, hold(g.Code, f.member, "BOOK-W", "15")); err != nil {
		t.Fatal(err)
	}
	captured, err := f.svc.Capture(f.asMarket, network.CaptureInput{Code: g.Code, ReservationID: "BOOK-W"})
	if err != nil {
		t.Fatal(err)
	}

	want := []string{"network_giftcard.created", "network_giftcard.used", "network_giftcard.usage_cancelled", "network_giftcard.used"}
	if got := dbtest.WebhookTypes(t, f.db, market); !slices.Equal(got, want) {
		t.Errorf("the marketplace's endpoint got %v, want %v", got, want)
	}
	if got := dbtest.WebhookTypes(t, f.db, member); !slices.Equal(got, want[1:]) {
		t.Errorf("the partner's endpoint got %v, want %v", got, want[1:])
	}
	for name, ep := range map[string]int64{"another partner's": outside, "the partner's, of creations": memberCreated} {
		if got := dbtest.WebhookTypes(t, f.db, ep); len(got) != 0 {
			t.Errorf("%s endpoint got %v", name, got)
		}
	}
	if got := dbtest.WebhookTypes(t, f.db, platform); !slices.Equal(got, want[:1]) {
		t.Errorf("the platform's endpoint got %v, want %v", got, want[:1])
	}
	events := dbtest.WebhookEvents(t, f.db, market)
	for i, wantID := range []int64{g.ID, u.ID, u.ID, captured.ID} {
		var data struct{ ID int64 }
		if err := json.Unmarshal(events[i].Data, &data); err != nil || data.ID != wantID {
			t.Errorf("event %d (%s): data %s, want the record %d", i, events[i].Type, events[i].Data, wantID)
		}
	}
}

// A voucher's usage keeps network_voucher.used for its marketplace and
// the partner where it was used; a refused one keeps none.
func TestVoucherWebhookEvents(t *testing.T) {
	t.Parallel()
	dbtest.UseJSONWebhooks()
	f := newNVFixture(t, 4)
	market := dbtest.WebhookEndpoint(t, f.db, f.market, "network_voucher.used")
	member := dbtest.WebhookEndpoint(t, f.db, f.member)
	outsider := dbtest.WebhookEndpoint(t, f.db, f.outsider)
	v := f.voucher(t, "NV-WH-0001", f.box, "paid", 3, "")
	u, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-24"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.RecordUsage(f.asMarket, bySource(v.Code, 43, "2026-11-24")) // a draft offer: refused
	dbtest.WantCode(t, err, domain.CodeInvalid)
	for name, ep := range map[string]int64{"marketplace": market, "partner": member} {
		events := dbtest.WebhookEvents(t, f.db, ep)
		var data struct{ ID int64 }
		if len(events) != 1 || events[0].Type != "network_voucher.used" || json.Unmarshal(events[0].Data, &data) != nil || data.ID != u.ID {
			t.Errorf("the %s's endpoint got %+v, want network_voucher.used of usage %d", name, events, u.ID)
		}
	}
	if got := dbtest.WebhookTypes(t, f.db, outsider); len(got) != 0 {
		t.Errorf("another partner's endpoint got %v", got)
	}
}
