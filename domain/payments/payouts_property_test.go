package payments_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/persistence/psp"
)

// A random sequence of payments (some partly from a network giftcard's
// wallet), draws from cards, refunds (of payments paid out or not),
// payout builds, validations and payments of payouts keeps the books after
// every step: the wallets sum to zero with the network's book, no guarded
// wallet goes below zero, and the payouts wallet holds what the payout
// requests paid out. PAYOUTS_SEED replays a sequence; the seed is logged.
func TestPayoutsKeepTheBooks(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PAYOUTS_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("PAYOUTS_SEED=%q: %v", s, err)
		}
	}
	t.Logf("PAYOUTS_SEED=%d", seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	f := newPayoutFixture(t)
	books := &walletFixture{db: f.db}
	ctx := context.Background()
	var cards []uuid.UUID
	for range 3 {
		id, _ := f.card(t, "150.00")
		cards = append(cards, id)
	}
	var paid []*payments.Payment
	var payouts []int64
	week := 0
	money := func(max int) decimal.Decimal { return decimal.New(int64(1+rng.IntN(max*100)), -2) }
	steps := 60
	if testing.Short() {
		steps = 20
	}
	// Each kind of step must have succeeded at least once: a run goes on
	// past steps until they all have (a test that refused everything would
	// keep the books trivially), and fails if they have not by maxSteps.
	const maxSteps = 400
	done := map[string]int{}
	kinds := []string{"payment", "refund", "payout", "validation"}
	allDone := func() bool {
		for _, k := range kinds {
			if done[k] == 0 {
				return false
			}
		}
		return true
	}
	for step := 0; step < steps || !allDone(); step++ {
		if step == maxSteps {
			t.Fatalf("after %d steps, successes %v: some kind of step never succeeds (PAYOUTS_SEED=%d)", step, done, seed)
		}
		var what string
		switch op := rng.IntN(10); {
		case op < 4: // a payment, of market (which takes its cards) or spa
			partner, amount := f.spa, money(200)
			doc := []any{}
			if rng.IntN(2) == 0 {
				partner = f.market
				card := cards[rng.IntN(len(cards))]
				extra := decimal.Min(money(60), amount)
				doc = append(doc, "extra_source_wallet_uuid", card.String(), "extra_source_amount", extra.StringFixed(2))
			}
			what = "pay " + amount.StringFixed(2)
			p, err := f.pays.CreatePayment(f.member(partner), payInput(partner, amount, doc...))
			switch {
			case err == nil && p.Status == payments.StatusPaid:
				paid = append(paid, p)
				done["payment"]++
			case err != nil && !domain.IsCode(err, domain.CodeInvalid) && !domain.IsCode(err, domain.CodeConflict):
				t.Fatalf("step %d %s: %v", step, what, err)
			}
		case op < 5: // a draw from a card into the clearing account
			what = "draw"
			err := f.uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
				clearing, err := payments.PlatformWallet(ctx, tx, payments.WalletPayinClearing, "EUR")
				if err != nil {
					return err
				}
				_, err = payments.DrawFromGiftcard(ctx, tx, payments.MoveInput{From: cards[rng.IntN(len(cards))], To: clearing.UUID,
					Amount: money(20), Type: payments.MoveExtraSource})
				return err
			})
			if err != nil && !domain.IsCode(err, domain.CodeInvalid) && !domain.IsCode(err, domain.CodeConflict) {
				t.Fatalf("step %d %s: %v", step, what, err)
			}
		case op < 7: // a refund of part or all of a paid payment, paid out or not
			if len(paid) == 0 {
				continue
			}
			p := paid[rng.IntN(len(paid))]
			amount := money(60)
			what = "refund " + amount.StringFixed(2) + " of " + p.UUID.String()
			r, err := f.pays.RefundPayment(f.member(partnerOf(f, p)), p.UUID, payments.RefundInput{Amount: domain.Some(amount.Round(2))})
			switch {
			case err == nil && r.Status == payments.RefundStatusSucceeded:
				done["refund"]++
			case err != nil && !domain.IsCode(err, domain.CodeInvalid) && !domain.IsCode(err, domain.CodeConflict):
				t.Fatalf("step %d %s: %v", step, what, err)
			}
		case op < 9: // the job, a week later
			week++
			what = "build, week " + strconv.Itoa(week)
			res, err := f.payouts.BuildPayouts(ctx, time.Now().AddDate(0, 0, 7*week))
			if err != nil {
				t.Fatalf("step %d %s: %v", step, what, err)
			}
			for id, err := range res.Skipped {
				t.Fatalf("step %d %s: partner %s skipped: %v", step, what, id, err)
			}
			for _, p := range res.Built {
				payouts = append(payouts, p.ID)
				done["payout"]++
			}
		default: // staff validate a payout, or mark it paid
			if len(payouts) == 0 {
				continue
			}
			id := payouts[rng.IntN(len(payouts))]
			what = "validate " + strconv.FormatInt(id, 10)
			_, err := f.payouts.ValidatePayout(f.staff, id, payments.PayoutChangeInput{Reason: domain.Some("property")})
			if domain.IsCode(err, domain.CodeConflict) {
				_, err = f.payouts.MarkPayoutPaid(f.staff, id, payments.PayoutChangeInput{})
			}
			switch {
			case err == nil:
				done["validation"]++
			case !domain.IsCode(err, domain.CodeConflict):
				t.Fatalf("step %d %s: %v", step, what, err)
			}
		}
		books.checkBooks(t)
		var out, requested decimal.Decimal
		f.scan(t, &out, `SELECT coalesce((SELECT balance FROM wallets WHERE kind = 'payouts'), 0)`)
		f.scan(t, &requested, `SELECT coalesce(sum(amount), 0) FROM payout_requests`)
		if !out.Equal(requested) {
			t.Fatalf("step %d %s: the payouts wallet holds %s, the payout requests %s (PAYOUTS_SEED=%d)", step, what, out, requested, seed)
		}
		if t.Failed() {
			t.Fatalf("step %d %s broke the books (PAYOUTS_SEED=%d)", step, what, seed)
		}
	}
}

// payInput is a voucher payment of partner for amount, paid by card, with
// kv (fields by their REST names, as text).
func payInput(partner *domain.Partner, amount decimal.Decimal, kv ...any) payments.PaymentInput {
	in := payments.PaymentInput{Customer: domain.Some(network.CustomerInput{FirstName: domain.Some("Ada"),
		LastName: domain.Some("Lovelace"), Email: domain.Some("ada@example.com")}),
		PartnerUUID: domain.Some(partner.UUID), Amount: domain.Some(amount.Round(2)), Discount: domain.Some(decimal.Zero),
		Product: domain.Some("voucher"), Type: domain.Some("credit_card"), Card: domain.Some(psp.CardSuccess)}
	for i := 0; i+1 < len(kv); i += 2 {
		v := kv[i+1].(string)
		switch kv[i] {
		case "card":
			in.Card = domain.Some(v)
		case "extra_source_wallet_uuid":
			in.ExtraSourceWalletUUID = domain.Some(uuid.MustParse(v))
		case "extra_source_amount":
			in.ExtraSourceAmount = domain.Some(decimal.RequireFromString(v))
		case "freeze_payout_date":
			at, ok := network.ParseLocalTime(v)
			if !ok {
				panic("freeze_payout_date " + v)
			}
			in.FreezePayoutDate = domain.Some(at)
		default:
			panic("payInput: " + kv[i].(string))
		}
	}
	return in
}

func partnerOf(f *payoutFixture, p *payments.Payment) *domain.Partner {
	if p.PartnerID == f.market.ID {
		return f.market
	}
	return f.spa
}

// freezeOn is a freeze date change to the day.
func freezeOn(day string) payments.FreezeDateInput {
	at, ok := network.ParseLocalTime(day)
	if !ok {
		panic("freezeOn " + day)
	}
	return payments.FreezeDateInput{FreezePayoutDate: domain.Some(at)}
}
