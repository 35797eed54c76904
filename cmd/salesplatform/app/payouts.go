package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain/payments"
)

// The payouts job builds the payout requests of the periods that closed,
// every PAYOUT_INTERVAL (and once at start), after finishing the payments
// left in progress (a charge whose outcome a failure kept from being
// recorded) and the refunds that a failure to reach the provider left
// pending (a pending refund holds its payment out of payouts). Every replica runs it; a
// PostgreSQL session advisory lock, held on a connection of its own for
// the run, lets one replica build at a time, and the others skip that
// round (the unique key of a partner's period is the backstop).
const (
	defaultPayoutInterval = time.Hour
	// payoutsLockKey names the payouts job's advisory lock ("payouts").
	payoutsLockKey int64 = 0x7061796f757473
	// refundRetryDelay is how long a pending refund is left to the client
	// that asked for it (who may repeat it with its idempotency key)
	// before the job asks the provider again; maxRetriedRefunds bounds a
	// run's retries.
	refundRetryDelay  = 5 * time.Minute
	maxRetriedRefunds = 100
	// stalePaymentDelay is how long a payment may stay in progress, its
	// creation (or the provider's page) still to record the pay-in, before
	// the job asks the provider about it; well above any provider call's
	// timeout, so that a charge still under way is never taken as never
	// made. maxStalePayments bounds a run's questions.
	stalePaymentDelay = 15 * time.Minute
	maxStalePayments  = 100
)

// runPayouts builds payouts at once, then every interval, until ctx ends,
// holding the job's lock on a connection of lockDB, a pool other than the
// services' (buildPayoutsOnce). The payments' and refunds' retries need no
// lock: the provider knows a pay-in or a refund by the hub's uuid and the
// payment's row lock finishes it once.
func runPayouts(ctx context.Context, lockDB *bun.DB, svc *payments.PayoutService, refunds *payments.PaymentService,
	interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		now := time.Now()
		switch n, err := refunds.SettleStalePayments(ctx, now.Add(-stalePaymentDelay), maxStalePayments); {
		case err != nil && ctx.Err() == nil:
			log.Warn("finishing payments in progress", "error", err.Error())
		case n > 0:
			log.Info("payments in progress finished", "payments", n)
		}
		switch n, err := refunds.RetryPendingRefunds(ctx, now.Add(-refundRetryDelay), maxRetriedRefunds); {
		case err != nil && ctx.Err() == nil:
			log.Warn("finishing pending refunds", "error", err.Error())
		case n > 0:
			log.Info("pending refunds finished", "refunds", n)
		}
		ran, res, err := buildPayoutsOnce(ctx, lockDB, svc, now)
		switch {
		case err != nil:
			if ctx.Err() == nil { // not a shutdown
				log.Warn("building payout requests", "error", err.Error())
			}
		case ran:
			for id, err := range res.Skipped {
				log.Warn("payout requests of a partner left for the next run", "partner_uuid", id.String(), "error", err.Error())
			}
			if len(res.Built) > 0 {
				log.Info("payout requests built", "payout_requests", len(res.Built))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// buildPayoutsOnce builds the payouts due at now if no other run holds
// the job's lock, taken on a connection of lockDB (serve gives it a pool
// of its own: on the pool of svc's transactions, the run would hold one
// connection while it waits for others); ran reports whether it did.
func buildPayoutsOnce(ctx context.Context, lockDB *bun.DB, svc *payments.PayoutService, now time.Time) (ran bool, res *payments.BuildResult, err error) {
	conn, err := lockDB.Conn(ctx)
	if err != nil {
		return false, nil, fmt.Errorf("payouts: connection for the lock: %w", err)
	}
	defer conn.Close()
	var locked bool
	if err := conn.NewRaw(`SELECT pg_try_advisory_lock(?)`, payoutsLockKey).Scan(ctx, &locked); err != nil {
		return false, nil, fmt.Errorf("payouts: lock: %w", err)
	}
	if !locked {
		return false, nil, nil
	}
	defer func() {
		// A session lock outlives transactions: it is released here, on
		// its connection, even when ctx has ended.
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(?)`, payoutsLockKey)
	}()
	res, err = svc.BuildPayouts(ctx, now)
	return true, res, err
}
