package network_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/persistence/dbtest"
)

func hold(code string, partner int64, reservation, amount string) network.HoldInput {
	return network.HoldInput{Code: code, PartnerRef: network.PartnerRef{PartnerID: domain.Some(partner)},
		ReservationID: domain.Some(reservation), Amount: domain.Some(decimal.RequireFromString(amount))}
}

// adjust is the adjustment of the card with code.
func adjust(code string, amount decimal.Decimal, reason string) network.AdjustInput {
	return network.AdjustInput{Code: code, Amount: domain.Some(amount), Reason: domain.Some(reason)}
}

// dec is a decimal of a literal.
func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// held returns the sum of the card's live holds.
func (f *ngcFixture) held(t *testing.T, cardID int64) decimal.Decimal {
	t.Helper()
	var sum decimal.Decimal
	if err := f.db.NewRaw(`SELECT coalesce(sum(amount), 0) FROM network_giftcard_holds
		WHERE network_giftcard_id = ? AND status = 'held'`, cardID).Scan(context.Background(), &sum); err != nil {
		t.Fatal(err)
	}
	return sum
}

// A hold takes its amount off the card; a capture makes a usage of at
// most the held amount and gives the rest back; a release gives it all
// back once; an expired hold lapses; each with its ledger movement.
func TestHoldCaptureRelease(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 4)
	clock := time.Now()
	f.svc.WithClock(func() time.Time { return clock })
	ctx := f.asMarket
	g := f.card(t, "NGC-HOLD-0001", "paid", "100.00")

	h, err := f.svc.Hold(ctx, hold(g.Code, f.member, "BOOK-1", "40"))
	if err != nil || h.Status != network.HoldHeld || !h.ExpiresAt.Equal(clock.Add(network.DefaultHoldTTL)) {
		t.Fatalf("hold = %+v, %v", h, err)
	}
	if r, l, _ := f.balances(t, g.ID); !r.Equal(dec("60")) || !l.Equal(r) {
		t.Errorf("after the hold: remaining %s, ledger %s; want 60", r, l)
	}
	for name, tc := range map[string]struct {
		in    network.HoldInput
		code  domain.Code
		field string
	}{
		"same reservation":     {hold(g.Code, f.member, "BOOK-1", "1"), domain.CodeInvalid, "reservation_id"},
		"over the remaining":   {hold(g.Code, f.member, "BOOK-2", "60.01"), domain.CodeInvalid, "amount"},
		"zero":                 {hold(g.Code, f.member, "BOOK-2", "0"), domain.CodeInvalid, "amount"},
		"no reservation":       {hold(g.Code, f.member, " ", "1"), domain.CodeInvalid, "reservation_id"},
		"partner not accepted": {hold(g.Code, f.refusing, "BOOK-2", "1"), domain.CodeInvalid, "partner_id"},
		"unknown card":         {hold("NGC-NONE", f.member, "BOOK-2", "1"), domain.CodeNotFound, ""},
	} {
		_, err := f.svc.Hold(ctx, tc.in)
		e := dbtest.WantCode(t, err, tc.code)
		if tc.field != "" && (len(e.Fields) != 1 || e.Fields[0].Path[0] != tc.field) {
			t.Errorf("%s: fields %+v", name, e.Fields)
		}
	}

	// Capture 25 of the 40 held: a usage of 25, 15 back.
	u, err := f.svc.Capture(ctx, network.CaptureInput{Code: g.Code, ReservationID: "BOOK-1", Value: domain.Some(dec("25"))})
	if err != nil || !u.Value.Equal(dec("25")) || u.ReservationID != "BOOK-1" || u.PartnerID != f.member {
		t.Fatalf("capture = %+v, %v", u, err)
	}
	if r, l, a := f.balances(t, g.ID); !r.Equal(dec("75")) || !l.Equal(r) || !a.Equal(dec("25")) {
		t.Errorf("after the capture: remaining %s, ledger %s, usages %s; want 75, 75, 25", r, l, a)
	}
	_, err = f.svc.Capture(ctx, network.CaptureInput{Code: g.Code, ReservationID: "BOOK-1"})
	if e := dbtest.WantCode(t, err, domain.CodeConflict); e.Message != network.MsgHoldEnded {
		t.Errorf("second capture: %q", e.Message)
	}
	_, err = f.svc.Capture(ctx, network.CaptureInput{Code: g.Code, ReservationID: "NONE"})
	dbtest.WantCode(t, err, domain.CodeNotFound)

	// A capture above the held amount is refused and changes nothing.
	if _, err := f.svc.Hold(ctx, hold(g.Code, f.member, "BOOK-2", "10")); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Capture(ctx, network.CaptureInput{Code: g.Code, ReservationID: "BOOK-2", Value: domain.Some(dec("10.01"))})
	dbtest.WantCode(t, err, domain.CodeInvalid)
	if got := f.held(t, g.ID); !got.Equal(dec("10")) {
		t.Errorf("held %s after a refused capture, want 10", got)
	}
	// Release: all back, once.
	for range 2 {
		r, err := f.svc.Release(ctx, g.Code, "BOOK-2")
		if err != nil || r.Status != network.HoldReleased {
			t.Fatalf("release = %+v, %v", r, err)
		}
	}
	if r, l, _ := f.balances(t, g.ID); !r.Equal(dec("75")) || !l.Equal(r) {
		t.Errorf("after two releases: remaining %s, ledger %s; want 75", r, l)
	}

	// A hold past its expiry lapses: in the sweep, or before a spend it
	// stands in the way of.
	if _, err := f.svc.Hold(ctx, network.HoldInput{Code: g.Code, PartnerRef: network.PartnerRef{PartnerID: domain.Some(f.member)},
		ReservationID: domain.Some("BOOK-3"), Amount: domain.Some(dec("75")), ExpiresIn: domain.Some(int64(60))}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Use(ctx, use(g.Code, f.member, "1"))
	dbtest.WantCode(t, err, domain.CodeInvalid)
	clock = clock.Add(2 * time.Minute)
	if _, err := f.svc.Use(ctx, use(g.Code, f.member, "1")); err != nil {
		t.Fatalf("use after the hold expired: %v", err)
	}
	var status string
	if err := f.db.NewRaw(`SELECT status FROM network_giftcard_holds WHERE reservation_id = 'BOOK-3'`).Scan(context.Background(), &status); err != nil || status != "lapsed" {
		t.Errorf("hold status %q, %v; want lapsed", status, err)
	}
	if _, err := f.svc.Hold(ctx, network.HoldInput{Code: g.Code, PartnerRef: network.PartnerRef{PartnerID: domain.Some(f.member)},
		ReservationID: domain.Some("BOOK-4"), Amount: domain.Some(dec("5")), ExpiresIn: domain.Some(int64(60))}); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(2 * time.Minute)
	// Past its expiry, a hold the sweep has not reached cannot be captured.
	_, err = f.svc.Capture(ctx, network.CaptureInput{Code: g.Code, ReservationID: "BOOK-4"})
	if e := dbtest.WantCode(t, err, domain.CodeConflict); e.Message != network.MsgHoldEnded {
		t.Errorf("capture of an expired hold: %q", e.Message)
	}
	if n, err := f.svc.LapseHolds(context.Background(), 10); err != nil || n != 1 {
		t.Errorf("sweep lapsed %d, %v; want 1", n, err)
	}
	if r, l, a := f.balances(t, g.ID); !r.Equal(dec("74")) || !l.Equal(r) || !a.Equal(dec("26")) || !f.held(t, g.ID).IsZero() {
		t.Errorf("after the lapses: remaining %s, ledger %s, usages %s; want 74, 74, 26", r, l, a)
	}
}

// Staff adjust a card with a reason, within 0 and its value; members may
// not; the ledger lists every movement with its actor.
func TestAdjustAndLedger(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 4)
	g := f.card(t, "NGC-ADJ-0001", "paid", "50.00")
	u, err := f.svc.Use(f.asMarket, use(g.Code, f.member, "20"))
	if err != nil {
		t.Fatal(err)
	}
	staff := as(0, true)
	_, err = f.svc.Adjust(f.asMarket, adjust(g.Code, dec("5"), "goodwill"))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	m, err := f.svc.Adjust(staff, adjust(g.Code, dec("-5"), "fee"))
	if err != nil || !m.BalanceAfter.Equal(dec("25")) || m.Kind != network.MovementAdjust || *m.ActorID != 1 {
		t.Fatalf("adjust = %+v, %v", m, err)
	}
	// A credit up to what was taken: the usage of 20, once cancelled,
	// brings the card back to its value exactly.
	if m, err = f.svc.Adjust(staff, adjust(g.Code, dec("5"), "goodwill")); err != nil || !m.BalanceAfter.Equal(dec("30")) {
		t.Fatalf("credit = %+v, %v", m, err)
	}
	// A live hold counts as what it may give back.
	if _, err := f.svc.Hold(f.asMarket, hold(g.Code, f.member, "B", "10")); err != nil {
		t.Fatal(err)
	}
	for name, amount := range map[string]string{"above the value once given back": "0.01", "below zero": "-20.01", "zero": "0"} {
		_, err := f.svc.Adjust(staff, adjust(g.Code, dec(amount), "x"))
		if e := dbtest.WantCode(t, err, domain.CodeInvalid); e.Fields[0].Path[0] != "amount" {
			t.Errorf("%s: %+v", name, e.Fields)
		}
	}
	_, err = f.svc.Adjust(staff, adjust(g.Code, dec("1"), " "))
	dbtest.WantCode(t, err, domain.CodeInvalid)

	page, err := f.svc.Movements(f.asMarket, g.Code, domain.PageRequest{Number: 1, Size: 10})
	if err != nil || page.Count != 5 {
		t.Fatalf("movements = %+v, %v", page, err)
	}
	kinds := ""
	for _, m := range page.Items {
		kinds += fmt.Sprintf("%s %s %s; ", m.Kind, m.Amount.StringFixed(2), m.BalanceAfter.StringFixed(2))
	}
	if kinds != "issue 50.00 50.00; use -20.00 30.00; adjust -5.00 25.00; adjust 5.00 30.00; hold -10.00 20.00; " {
		t.Errorf("ledger: %s", kinds)
	}
	rival := f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Rival', true) RETURNING id`)
	_, err = f.svc.Movements(as(rival, false), g.Code, domain.PageRequest{Number: 1, Size: 10})
	dbtest.WantCode(t, err, domain.CodeNotFound)

	// What the credit left room for comes back without passing the value.
	if _, err := f.svc.CancelUsage(f.asMarket, cancel(u.ID, "")); err != nil {
		t.Fatalf("cancel after the credit: %v", err)
	}
	if _, err := f.svc.Release(f.asMarket, g.Code, "B"); err != nil {
		t.Fatalf("release after the credit: %v", err)
	}
	if r, l, _ := f.balances(t, g.ID); !r.Equal(dec("50")) || !l.Equal(r) {
		t.Errorf("remaining %s, ledger %s; want the value, 50", r, l)
	}
}

// Uses, cancels, holds, captures and releases at once from 40
// connections: the remaining value never goes negative and always equals
// the value less the active usages and the live holds, and the ledger's
// sum.
func TestMixedStormKeepsTheInvariant(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 40)
	g := f.card(t, "NGC-MIX-0001", "paid", "80.00")
	var mu sync.Mutex
	var usages []int64
	var holds []string
	var seq atomic.Int64
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			pick := func(list *[]string) string {
				mu.Lock()
				defer mu.Unlock()
				if len(*list) == 0 {
					return ""
				}
				return (*list)[rng.IntN(len(*list))]
			}
			for range 40 {
				amount := []string{"0.50", "1.25", "3.00"}[rng.IntN(3)]
				var err error
				switch rng.IntN(5) {
				case 0:
					var u *network.Usage
					if u, err = f.svc.Use(f.asMarket, use(g.Code, f.member, amount)); err == nil {
						mu.Lock()
						usages = append(usages, u.ID)
						mu.Unlock()
					}
				case 1:
					mu.Lock()
					var id int64
					if len(usages) > 0 {
						id = usages[rng.IntN(len(usages))]
					}
					mu.Unlock()
					if id != 0 {
						_, err = f.svc.CancelUsage(f.asMarket, cancel(id, ""))
					}
				case 2:
					res := fmt.Sprintf("R-%d", seq.Add(1))
					if _, err = f.svc.Hold(f.asMarket, hold(g.Code, f.member, res, amount)); err == nil {
						mu.Lock()
						holds = append(holds, res)
						mu.Unlock()
					}
				case 3:
					if res := pick(&holds); res != "" {
						_, err = f.svc.Release(f.asMarket, g.Code, res)
					}
				default:
					if res := pick(&holds); res != "" {
						var u *network.Usage
						if u, err = f.svc.Capture(f.asMarket, network.CaptureInput{Code: g.Code, ReservationID: res}); err == nil {
							mu.Lock()
							usages = append(usages, u.ID)
							mu.Unlock()
						}
					}
				}
				// Refusals (no balance left, a hold ended by another) are
				// expected; anything else is a bug.
				if err != nil && !domain.IsCode(err, domain.CodeInvalid) && !domain.IsCode(err, domain.CodeConflict) {
					t.Errorf("%v", err)
				}
			}
		}()
	}
	wg.Wait()
	r, l, a := f.balances(t, g.ID)
	h := f.held(t, g.ID)
	if r.IsNegative() || !l.Equal(r) || !r.Equal(dec("80").Sub(a).Sub(h)) {
		t.Errorf("remaining %s, ledger %s, active usages %s, live holds %s; want remaining = ledger = 80 - usages - holds", r, l, a, h)
	}
	var negative int
	if err := f.db.NewRaw("SELECT count(*) FROM network_giftcard_movements WHERE balance_after < 0").Scan(context.Background(), &negative); err != nil || negative > 0 {
		t.Errorf("negative balances: %d, %v", negative, err)
	}
	var kinds int
	if err := f.db.NewRaw("SELECT count(DISTINCT kind) FROM network_giftcard_movements").Scan(context.Background(), &kinds); err != nil || kinds < 5 {
		t.Errorf("the storm wrote %d kinds of movement, want issue, use, cancel, hold and release", kinds)
	}
}
