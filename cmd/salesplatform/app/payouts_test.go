package app

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// Two replicas' runs at once build each partner's payout once, whichever
// way they meet: the one that holds the advisory lock builds, the other
// skips, or after it finds them built (the partner's row lock and the
// period's unique key would also keep a second build out: the lock
// itself is TestPayoutsJobSkipsWhileLocked's).
func TestPayoutsJobRunsOnce(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := context.Background()
	uow := persistence.NewUnitOfWork(db, persistence.PaymentsStores)
	const partners = 3
	for i := range partners {
		var id int64
		if err := db.NewRaw(`INSERT INTO partners (name) VALUES (?) RETURNING id`, "P"+string(rune('A'+i))).Scan(ctx, &id); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO payment_partners (partner_id, legal_representative_email) VALUES (?0, 'rep@example.com')`,
			`INSERT INTO payments (uuid, partner_id, status, currency, customer_first_name, customer_last_name, customer_email,
				product, type, amount, discount, commission, net_amount, payin_amount, paid_on)
				VALUES (gen_random_uuid(), ?0, 'ok', 'EUR', 'A', 'B', 'a@example.com', 'voucher', 'credit_card', 10, 0, 0.75, 9.25, 10,
				now() - interval '40 days')`,
		} {
			if _, err := db.NewRaw(q, id).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		// The payment's net amount in the partner's wallet.
		err := uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
			w, err := payments.PartnerWallet(ctx, tx, id, "EUR")
			if err != nil {
				return err
			}
			payin, err := payments.PlatformWallet(ctx, tx, payments.WalletPayin, "EUR")
			if err != nil {
				return err
			}
			_, err = payments.Transfer(ctx, tx, payments.MoveInput{From: payin.UUID, To: w.UUID, Amount: decimal.RequireFromString("9.25"),
				Type: payments.MoveTransfer})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	svc := payments.NewPayoutService(uow, nil)
	now := time.Now()
	var wg sync.WaitGroup
	built := make([]int, 2)
	for i := range built {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ran, res, err := buildPayoutsOnce(ctx, db, svc, now)
			if err != nil {
				t.Error(err)
				return
			}
			if ran {
				if len(res.Skipped) > 0 {
					t.Errorf("skipped %v", res.Skipped)
				}
				built[i] = len(res.Built)
			}
		}()
	}
	wg.Wait()
	var payouts, inPayouts int
	var paidOut decimal.Decimal
	if err := db.NewRaw(`SELECT (SELECT count(*) FROM payout_requests), (SELECT count(*) FROM payments WHERE payout_request_id IS NOT NULL),
		(SELECT balance FROM wallets WHERE kind = 'payouts')`).Scan(ctx, &payouts, &inPayouts, &paidOut); err != nil {
		t.Fatal(err)
	}
	if built[0]+built[1] != partners || payouts != partners || inPayouts != partners || !paidOut.Equal(decimal.RequireFromString("27.75")) {
		t.Errorf("built %v, %d payout requests, %d payments in one, %s paid out", built, payouts, inPayouts, paidOut)
	}
	// The lock was given back: a later run takes it (and finds nothing due).
	ran, res, err := buildPayoutsOnce(ctx, db, svc, now)
	if err != nil || !ran || len(res.Built) != 0 {
		t.Errorf("later run: %v %v %+v", ran, err, res)
	}
}

// While another session holds the lock, a run skips.
func TestPayoutsJobSkipsWhileLocked(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(?)`, payoutsLockKey); err != nil {
		t.Fatal(err)
	}
	ran, _, err := buildPayoutsOnce(ctx, db, payments.NewPayoutService(persistence.NewUnitOfWork(db, persistence.PaymentsStores), nil), time.Now())
	if err != nil || ran {
		t.Errorf("ran %v under another's lock: %v", ran, err)
	}
}
