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
// whose row every use updates in turn, and spread over 1,000 cards.
func BenchmarkUse(b *testing.B) {
	for _, cards := range []int{1, 1000} {
		b.Run(fmt.Sprintf("cards=%d", cards), func(b *testing.B) {
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
					if _, err := f.svc.Use(f.asMarket, use(code, f.member, "0.01")); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "uses/s")
		})
	}
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}
