package app

import (
	"context"
	"log/slog"
	"time"

	"salesplatform/domain/network"
)

// Lapsed network giftcard holds are swept every holdSweepInterval, a
// batch of holdSweepBatch cards at a time: their amounts go back to their
// cards. A spend that a lapsed hold stands in the way of lapses it first
// anyway (GiftcardService.spend), so the sweep only keeps balances right
// for the readers in between. Several instances sweep without stepping on
// each other (the lapse skips locked rows).
const (
	holdSweepInterval = 30 * time.Second
	holdSweepBatch    = 500
)

// sweepHolds lapses the holds past their expiry every interval until ctx
// ends.
func sweepHolds(ctx context.Context, cards *network.GiftcardService, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := cards.LapseHolds(ctx, holdSweepBatch)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("sweeping lapsed network giftcard holds", "error", err.Error())
		case n > 0:
			log.Info("network giftcard holds lapsed", "holds", n)
		}
	}
}
