package network_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain/gifts"
	"salesplatform/persistence"
)

// BenchmarkUse measures uses of 0.01 per second through GiftcardService
// against PostgreSQL from 32 goroutines (40 connections): all at one card,
// whose row every use updates in turn, and spread over 1,000 cards; with
// mails off (no transaction: useAlone) and on (the transaction, which
// queues them). Afterwards every use must have made one usage of 0.01 and taken it off
// its card.
func BenchmarkUse(b *testing.B) {
	for _, bench := range []struct {
		cards int
		mails bool
	}{{1, false}, {1000, false}, {1, true}, {1000, true}} {
		cards := bench.cards
		b.Run(fmt.Sprintf("cards=%d/mails=%t", cards, bench.mails), func(b *testing.B) {
			f := newNGCFixture(b, 40)
			codes := make([]string, cards)
			for i := range codes {
				codes[i] = fmt.Sprintf("NGC-BENCH-%04d", i)
				g := &gifts.NetworkGiftcard{Code: codes[i], MarketplaceID: f.market, Status: "paid",
					Value: decimal.RequireFromString("1000000"), RemainingValue: decimal.RequireFromString("1000000")}
				must(b, persistence.NewGiftStore(f.db).CreateNetworkGiftcard(context.Background(), g))
			}
			var next atomic.Int64
			b.SetParallelism(16) // 32 goroutines on 2 cores
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					code := codes[int(next.Add(1))%len(codes)]
					in := use(code, f.member, "0.01")
					if !bench.mails {
						in = quiet(in)
					}
					if _, err := f.svc.Use(f.asMarket, in); err != nil {
						b.Error(err)
						return
					}
				}
			})
			elapsed := time.Since(start)
			b.StopTimer()
			checkUses(b, f, b.N)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "uses/s")
		})
	}
}

// checkUses checks that the fixture's cards were used n times for 0.01
// each: n usages, whose amounts make 0.01 n, and every card's balance
// down by the sum of its own usages.
func checkUses(b *testing.B, f *ngcFixture, n int) {
	b.Helper()
	var uses, off int
	var used, spent decimal.Decimal
	must(b, f.db.NewRaw(`SELECT coalesce(sum(u.n), 0), coalesce(sum(u.used), 0), sum(c.value - c.remaining_value),
			count(*) FILTER (WHERE c.value - c.remaining_value <> coalesce(u.used, 0))
		FROM network_giftcards c LEFT JOIN (SELECT network_giftcard_id, count(*) n, sum(value) used
			FROM network_giftcard_usages WHERE is_active GROUP BY 1) u ON u.network_giftcard_id = c.id`).
		Scan(context.Background(), &uses, &used, &spent, &off))
	want := decimal.New(int64(n), -2)
	if uses != n || !used.Equal(want) || !spent.Equal(want) || off != 0 {
		b.Fatalf("%d uses of 0.01: %d usages of %s in all, %s off the cards, %d cards whose balance is not their usages'",
			n, uses, used, spent, off)
	}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
