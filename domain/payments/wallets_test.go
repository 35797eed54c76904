package payments_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// walletFixture is a database with the platform's EUR accounts, two
// partners' EUR wallets and a marketplace to issue network giftcards.
type walletFixture struct {
	db                          *bun.DB
	uow                         *persistence.UnitOfWork[payments.Stores]
	market, partnerA, partnerB  int64
	payin, clearing, commission uuid.UUID
	payouts, walletA, walletB   uuid.UUID
	cardSeq                     int
}

// payment writes a payment of partner A, for movements to name, and
// returns its uuid.
func (f *walletFixture) payment(t testing.TB) uuid.UUID {
	t.Helper()
	f.exec(t, `INSERT INTO payment_partners (partner_id, legal_representative_email) VALUES (?, 'a@example.com')
		ON CONFLICT DO NOTHING`, f.partnerA)
	id := uuid.New()
	f.exec(t, `INSERT INTO payments (uuid, partner_id, status, currency, customer_first_name, customer_last_name,
		customer_email, product, type, amount, discount, commission, net_amount, payin_amount)
		VALUES (?, ?, 'ok', 'EUR', 'A', 'B', 'a@example.com', 'voucher', 'credit_card', 100, 0, 5.25, 94.75, 100)`, id, f.partnerA)
	return id
}

func newWalletFixture(t testing.TB, conns int) *walletFixture {
	t.Helper()
	db := dbtest.New(t)
	persistence.SetMaxConns(db.DB, conns)
	f := &walletFixture{db: db, uow: persistence.NewUnitOfWork(db, persistence.PaymentsStores)}
	// The user of the movements' actor.
	f.id(t, `INSERT INTO users (id, username, password_hash) VALUES (1, 'actor', 'x') RETURNING id`)
	f.market = f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Market', true) RETURNING id`)
	f.partnerA = f.id(t, `INSERT INTO partners (name) VALUES ('Partner A') RETURNING id`)
	f.partnerB = f.id(t, `INSERT INTO partners (name) VALUES ('Partner B') RETURNING id`)
	platform := func(kind string) uuid.UUID {
		w := must(t, f, func(ctx context.Context, tx payments.Stores) (*payments.Wallet, error) {
			return payments.PlatformWallet(ctx, tx, kind, "EUR")
		})
		return w.UUID
	}
	f.payin, f.clearing = platform(payments.WalletPayin), platform(payments.WalletPayinClearing)
	f.commission, f.payouts = platform(payments.WalletCommission), platform(payments.WalletPayouts)
	partner := func(id int64) uuid.UUID {
		w := must(t, f, func(ctx context.Context, tx payments.Stores) (*payments.Wallet, error) {
			return payments.PartnerWallet(ctx, tx, id, "EUR")
		})
		return w.UUID
	}
	f.walletA, f.walletB = partner(f.partnerA), partner(f.partnerB)
	return f
}

// must runs fn in a transaction and fails the test on its error.
func must[T any](t testing.TB, f *walletFixture, fn func(ctx context.Context, tx payments.Stores) (T, error)) T {
	t.Helper()
	var out T
	err := f.uow.RunInTx(context.Background(), func(ctx context.Context, tx payments.Stores) error {
		var err error
		out, err = fn(ctx, tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (f *walletFixture) id(t testing.TB, q string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

func (f *walletFixture) exec(t testing.TB, q string, args ...any) {
	t.Helper()
	if _, err := f.db.NewRaw(q, args...).Exec(context.Background()); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// card issues a paid network giftcard of value and returns its uuid.
func (f *walletFixture) card(t testing.TB, value string) uuid.UUID {
	t.Helper()
	f.cardSeq++
	g := &gifts.NetworkGiftcard{Code: fmt.Sprintf("NGC-WALLET-%04d", f.cardSeq), MarketplaceID: f.market,
		Status: "paid", Value: dec(value), RemainingValue: dec(value)}
	if err := persistence.NewGiftStore(f.db).CreateNetworkGiftcard(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	var id uuid.UUID
	if err := f.db.NewRaw(`SELECT uuid FROM network_giftcards WHERE id = ?`, g.ID).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

// transfer runs one Transfer in a transaction of its own.
func (f *walletFixture) transfer(in payments.MoveInput) (*payments.Movement, error) {
	var m *payments.Movement
	err := f.uow.RunInTx(context.Background(), func(ctx context.Context, tx payments.Stores) error {
		var err error
		m, err = payments.Transfer(ctx, tx, in)
		return err
	})
	return m, err
}

func mv(from, to uuid.UUID, amount, typ string) payments.MoveInput {
	return payments.MoveInput{From: from, To: to, Amount: dec(amount), Type: typ}
}

func (f *walletFixture) balance(t testing.TB, id uuid.UUID) decimal.Decimal {
	t.Helper()
	b, err := payments.Balance(context.Background(), f.uow.Stores(), id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (f *walletFixture) wantBalances(t testing.TB, want map[uuid.UUID]string) {
	t.Helper()
	for id, w := range want {
		if got := f.balance(t, id); !got.Equal(dec(w)) {
			t.Errorf("balance of %s = %s, want %s", f.name(id), got, w)
		}
	}
}

func (f *walletFixture) name(id uuid.UUID) string {
	switch id {
	case f.payin:
		return "payin"
	case f.clearing:
		return "clearing"
	case f.commission:
		return "commission"
	case f.payouts:
		return "payouts"
	case f.walletA:
		return "partner A"
	case f.walletB:
		return "partner B"
	}
	return id.String()
}

// checkBooks fails unless the books hold, in every currency:
//   - the wallets sum to zero: the wallets with balances, the cards'
//     wallets by their remaining values, and the network's book, minus the
//     card ledgers' movements that are not a payment's or a refund's;
//   - every balance kept on a wallet is its credits less its debits;
//   - every card's remaining value is the sum of its ledger, within 0 and
//     its value, and its payment and refund movements are its wallet's
//     movements, one for one, of the same amounts;
//   - no guarded wallet is below zero.
func (f *walletFixture) checkBooks(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	var sums []struct {
		Currency    string          `bun:"currency"`
		Wallets     decimal.Decimal `bun:"wallets"`
		NetworkBook decimal.Decimal `bun:"network_book"`
	}
	err := f.db.NewRaw(`SELECT w.currency, sum(COALESCE(w.balance, g.remaining_value)) AS wallets,
			-COALESCE(sum((SELECT sum(m.amount) FROM network_giftcard_movements m
				WHERE m.network_giftcard_id = g.id AND m.kind NOT IN ('payment', 'refund'))), 0) AS network_book
		FROM wallets w LEFT JOIN network_giftcards g ON g.id = w.network_giftcard_id GROUP BY w.currency`).Scan(ctx, &sums)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sums {
		if !s.Wallets.Add(s.NetworkBook).IsZero() {
			t.Errorf("%s: the wallets sum to %s and the network's book holds %s", s.Currency, s.Wallets, s.NetworkBook)
		}
	}
	for what, q := range map[string]string{
		"wallets whose balance is not their credits less their debits": `SELECT count(*) FROM wallets w
			WHERE w.balance IS NOT NULL AND w.balance <>
				COALESCE((SELECT sum(amount) FROM wallet_movements WHERE credited_wallet_uuid = w.uuid), 0)
				- COALESCE((SELECT sum(amount) FROM wallet_movements WHERE debited_wallet_uuid = w.uuid), 0)`,
		"cards whose remaining value is not their ledger's sum, or out of range": `SELECT count(*) FROM network_giftcards g
			WHERE remaining_value < 0 OR remaining_value > value OR remaining_value <>
				(SELECT COALESCE(sum(amount), 0) FROM network_giftcard_movements WHERE network_giftcard_id = g.id)`,
		"card ledger movements unlike their wallet movements": `SELECT count(*) FROM network_giftcard_movements m
			JOIN network_giftcards g ON g.id = m.network_giftcard_id
			LEFT JOIN wallet_movements wm ON wm.id = m.wallet_movement_id
			WHERE m.kind IN ('payment', 'refund') AND NOT COALESCE(
				(m.kind = 'payment' AND wm.debited_wallet_uuid = g.uuid AND m.amount = -wm.amount)
				OR (m.kind = 'refund' AND wm.credited_wallet_uuid = g.uuid AND m.amount = wm.amount), false)`,
		"card wallet movements without their card's ledger movement": `SELECT count(*) FROM wallet_movements wm
			JOIN wallets w ON w.uuid IN (wm.debited_wallet_uuid, wm.credited_wallet_uuid) AND w.kind = 'network_giftcard'
			WHERE NOT EXISTS (SELECT 1 FROM network_giftcard_movements m WHERE m.wallet_movement_id = wm.id)`,
		"guarded wallets below zero": `SELECT count(*) FROM wallets WHERE kind <> 'payin' AND balance < 0`,
	} {
		var n int
		if err := f.db.NewRaw(q).Scan(ctx, &n); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n != 0 {
			t.Errorf("%d %s", n, what)
		}
	}
}

func (f *walletFixture) count(t testing.TB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A payment's path through the wallets: each movement debits one wallet
// and credits another, the books hold after each, and the movements are
// listed per wallet, oldest first.
func TestTransferDoubleEntry(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 4)
	payment := f.payment(t)
	steps := []payments.MoveInput{
		{From: f.payin, To: f.clearing, Amount: dec("100.00"), Type: payments.MovePayin, PaymentUUID: &payment},
		{From: f.clearing, To: f.walletA, Amount: dec("94.75"), Type: payments.MoveTransfer, PaymentUUID: &payment},
		{From: f.clearing, To: f.commission, Amount: dec("5.25"), Type: payments.MoveCommission, PaymentUUID: &payment},
		{From: f.walletA, To: f.payouts, Amount: dec("50.00"), Type: payments.MovePayout, Reason: "weekly payout", ActorID: 1},
	}
	for _, in := range steps {
		m, err := f.transfer(in)
		if err != nil {
			t.Fatalf("%s → %s: %v", f.name(in.From), f.name(in.To), err)
		}
		if m.ID == 0 || m.UUID == uuid.Nil || m.CreatedOn.IsZero() || m.Status != payments.MovementSucceeded ||
			m.Currency != "EUR" || m.Debited != in.From || m.Credited != in.To || !m.Amount.Equal(in.Amount) {
			t.Errorf("movement %+v", m)
		}
		f.checkBooks(t)
	}
	f.wantBalances(t, map[uuid.UUID]string{f.payin: "-100.00", f.clearing: "0.00", f.walletA: "44.75",
		f.commission: "5.25", f.payouts: "50.00", f.walletB: "0.00"})

	ctx := context.Background()
	page, err := payments.Movements(ctx, f.uow.Stores(), f.walletA, domain.PageRequest{Number: 1, Size: 1})
	if err != nil || page.Count != 2 || len(page.Items) != 1 {
		t.Fatalf("page 1 = %+v, %v", page, err)
	}
	first := page.Items[0]
	if first.Type != payments.MoveTransfer || first.PaymentUUID == nil || *first.PaymentUUID != payment ||
		first.Credited != f.walletA || first.ActorID != nil {
		t.Errorf("first movement of partner A %+v", first)
	}
	page, err = payments.Movements(ctx, f.uow.Stores(), f.walletA, domain.PageRequest{Number: 2, Size: 1})
	if err != nil || page.Count != 2 || len(page.Items) != 1 {
		t.Fatalf("page 2 = %+v, %v", page, err)
	}
	payout := page.Items[0]
	if payout.Type != payments.MovePayout || payout.Reason != "weekly payout" || payout.ActorID == nil ||
		*payout.ActorID != 1 || payout.PaymentUUID != nil || payout.Debited != f.walletA {
		t.Errorf("payout movement %+v", payout)
	}
	_, err = payments.Movements(ctx, f.uow.Stores(), f.walletA, domain.PageRequest{Number: 3, Size: 1})
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = payments.Movements(ctx, f.uow.Stores(), uuid.New(), domain.PageRequest{Number: 1, Size: 10})
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if page, err := payments.Movements(ctx, f.uow.Stores(), f.walletB, domain.PageRequest{Number: 1, Size: 10}); err != nil ||
		page.Count != 0 || len(page.Items) != 0 {
		t.Errorf("movements of partner B = %+v, %v", page, err)
	}
}

// What the ledger refuses writes nothing, and says why.
func TestTransferRefused(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 4)
	if _, err := f.transfer(mv(f.payin, f.walletA, "30.00", payments.MoveAdjustment)); err != nil {
		t.Fatal(err)
	}
	usd := must(t, f, func(ctx context.Context, tx payments.Stores) (*payments.Wallet, error) {
		return payments.PlatformWallet(ctx, tx, payments.WalletPayinClearing, "USD")
	})
	card := f.card(t, "20.00")
	tooLong := payments.MoveInput{From: f.walletA, To: f.walletB, Amount: dec("1"), Type: payments.MoveTransfer,
		Reason: strings.Repeat("x", payments.MaxReasonLength+1)}
	field := mv(f.walletA, f.walletB, "30.01", payments.MoveTransfer)
	field.Field = "extra_source_amount"
	for name, tc := range map[string]struct {
		in     payments.MoveInput
		code   domain.Code
		fields map[string]string
	}{
		"more than the balance": {mv(f.walletA, f.walletB, "30.01", payments.MoveTransfer), domain.CodeInvalid,
			map[string]string{"amount": "The balance of this wallet is 30.00."}},
		"named by the caller's field": {field, domain.CodeInvalid,
			map[string]string{"extra_source_amount": "The balance of this wallet is 30.00."}},
		"a guarded platform account": {mv(f.clearing, f.walletB, "0.01", payments.MoveTransfer), domain.CodeInvalid,
			map[string]string{"amount": "The balance of this wallet is 0.00."}},
		"zero": {mv(f.walletA, f.walletB, "0", payments.MoveTransfer), domain.CodeInvalid,
			map[string]string{"amount": "Ensure this value is greater than 0."}},
		"negative": {mv(f.walletA, f.walletB, "-5", payments.MoveTransfer), domain.CodeInvalid,
			map[string]string{"amount": "Ensure this value is greater than 0."}},
		"three decimals": {mv(f.walletA, f.walletB, "1.001", payments.MoveTransfer), domain.CodeInvalid,
			map[string]string{"amount": "Ensure that there are no more than 2 decimal places."}},
		"too large": {mv(f.payin, f.walletB, "1"+strings.Repeat("0", 36), payments.MovePayin), domain.CodeInvalid,
			map[string]string{"amount": "Ensure that there are no more than 36 digits before the decimal point."}},
		"unknown type": {mv(f.walletA, f.walletB, "1", "gift"), domain.CodeInvalid,
			map[string]string{"type": `"gift" is not a valid choice.`}},
		"reason too long": {tooLong, domain.CodeInvalid,
			map[string]string{"reason": "Ensure this field has no more than 1000 characters."}},
		"one wallet": {mv(f.walletA, f.walletA, "1", payments.MoveTransfer), domain.CodeInvalid,
			map[string]string{"non_field_errors": payments.MsgSameWallet}},
		"unknown wallet": {mv(f.walletA, uuid.New(), "1", payments.MoveTransfer), domain.CodeNotFound, nil},
		"two currencies": {mv(f.walletA, usd.UUID, "1", payments.MoveTransfer), domain.CodeConflict, nil},
		"two cards": {mv(card, f.card(t, "5.00"), "1", payments.MoveExtraSource), domain.CodeInvalid,
			map[string]string{"non_field_errors": payments.MsgCardToCard}},
	} {
		_, err := f.transfer(tc.in)
		if tc.fields != nil {
			dbtest.WantFieldErrors(t, err, tc.fields)
		} else {
			dbtest.WantCode(t, err, tc.code)
		}
		if t.Failed() {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if n := f.count(t, `SELECT count(*) FROM wallet_movements`); n != 1 {
		t.Errorf("%d movements, want the first alone", n)
	}
	f.wantBalances(t, map[uuid.UUID]string{f.walletA: "30.00", f.walletB: "0.00", f.payin: "-30.00", card: "20.00"})
	f.checkBooks(t)

	// payin alone goes below zero.
	if _, err := f.transfer(mv(f.payin, f.clearing, "1000000.00", payments.MovePayin)); err != nil {
		t.Fatal(err)
	}
	f.wantBalances(t, map[uuid.UUID]string{f.payin: "-1000030.00", f.clearing: "1000000.00"})
	f.checkBooks(t)
}

// Wallets are opened once per owner and currency, even concurrently.
func TestOpenWallets(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 8)
	ctx := context.Background()
	again, err := payments.PlatformWallet(ctx, f.uow.Stores(), payments.WalletPayinClearing, "EUR")
	if err != nil || again.UUID != f.clearing || again.Kind != payments.WalletPayinClearing || again.ID == 0 ||
		again.PartnerID != nil || again.CreatedAt.IsZero() || !again.Balance.IsZero() {
		t.Errorf("clearing again = %+v, %v", again, err)
	}
	a, err := payments.PartnerWallet(ctx, f.uow.Stores(), f.partnerA, "EUR")
	if err != nil || a.UUID != f.walletA || a.Kind != payments.WalletPartner || a.PartnerID == nil || *a.PartnerID != f.partnerA {
		t.Errorf("partner A's wallet = %+v, %v", a, err)
	}
	_, err = payments.PartnerWallet(ctx, f.uow.Stores(), 999999, "EUR")
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = payments.PartnerWallet(ctx, f.uow.Stores(), f.partnerA, "eur")
	dbtest.WantFieldErrors(t, err, map[string]string{"currency": `"eur" is not a valid choice.`})
	_, err = payments.PlatformWallet(ctx, f.uow.Stores(), payments.WalletPartner, "EUR")
	dbtest.WantFieldErrors(t, err, map[string]string{"kind": `"partner" is not a valid choice.`})
	_, err = f.uow.Stores().Wallets.Wallet(ctx, uuid.New())
	dbtest.WantCode(t, err, domain.CodeNotFound)

	ids := make([]uuid.UUID, 10)
	codes := dbtest.Concurrently(10, func(i int) error {
		w, err := payments.PartnerWallet(ctx, f.uow.Stores(), f.partnerB, "CHF")
		if err == nil {
			ids[i] = w.UUID
		}
		return err
	})
	if codes[""] != 10 {
		t.Fatalf("concurrent openings: %v", codes)
	}
	for _, id := range ids {
		if id != ids[0] {
			t.Errorf("two wallets opened: %s and %s", ids[0], id)
		}
	}
	if n := f.count(t, `SELECT count(*) FROM wallets WHERE partner_id = ?`, f.partnerB); n != 2 {
		t.Errorf("partner B has %d wallets, want EUR and CHF", n)
	}
}

// A network giftcard is a wallet: its uuid, its remaining value as its
// balance; a draw and a refund are each one movement of its ledger with
// the wallet movement, and a refund never takes it above its value.
func TestGiftcardWallet(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 4)
	ctx := context.Background()
	card := f.card(t, "100.00")
	w, err := f.uow.Stores().Wallets.Wallet(ctx, card)
	if err != nil || w.UUID != card || w.Kind != payments.WalletNetworkGiftcard || w.ID != 0 || w.Currency != "EUR" ||
		!w.Balance.Equal(dec("100")) || w.Card == nil || w.Card.MarketplaceID != f.market || !w.Card.Value.Equal(dec("100")) {
		t.Fatalf("card's wallet before its first movement = %+v, %v", w, err)
	}
	payment := f.payment(t)
	draw := payments.MoveInput{From: card, To: f.clearing, Amount: dec("30.00"), Type: payments.MoveExtraSource,
		PaymentUUID: &payment, Reason: "payment", ActorID: 1}
	m := must(t, f, func(ctx context.Context, tx payments.Stores) (*payments.Movement, error) {
		return payments.DrawFromGiftcard(ctx, tx, draw)
	})
	if m.Debited != card || m.Credited != f.clearing || m.Type != payments.MoveExtraSource {
		t.Errorf("draw = %+v", m)
	}
	w, err = f.uow.Stores().Wallets.Wallet(ctx, card)
	if err != nil || w.ID == 0 || !w.Balance.Equal(dec("70")) || w.Card.Status != network.StatusUsing {
		t.Errorf("card's wallet after a draw = %+v (card %+v), %v", w, w.Card, err)
	}
	var ledger struct {
		Kind         string          `bun:"kind"`
		Amount       decimal.Decimal `bun:"amount"`
		BalanceAfter decimal.Decimal `bun:"balance_after"`
		Movement     int64           `bun:"wallet_movement_id"`
		Actor        *int64          `bun:"actor_user_id"`
		Comment      string          `bun:"comment"`
	}
	if err := f.db.NewRaw(`SELECT kind, amount, balance_after, wallet_movement_id, actor_user_id, comment
		FROM network_giftcard_movements m JOIN network_giftcards g ON g.id = m.network_giftcard_id
		WHERE g.uuid = ? ORDER BY m.id DESC LIMIT 1`, card).Scan(ctx, &ledger); err != nil {
		t.Fatal(err)
	}
	if ledger.Kind != network.MovementPayment || !ledger.Amount.Equal(dec("-30")) || !ledger.BalanceAfter.Equal(dec("70")) ||
		ledger.Movement != m.ID || ledger.Actor == nil || *ledger.Actor != 1 || ledger.Comment != "payment" {
		t.Errorf("card's ledger movement %+v", ledger)
	}
	f.wantBalances(t, map[uuid.UUID]string{card: "70.00", f.clearing: "30.00"})
	f.checkBooks(t)

	// A network use of the card is outside the wallets: the books still
	// hold (the network's book is its other side).
	f.exec(t, `WITH c AS (UPDATE network_giftcards SET remaining_value = remaining_value - 20 WHERE uuid = ? RETURNING id, remaining_value)
		INSERT INTO network_giftcard_movements (network_giftcard_id, kind, amount, balance_after) SELECT id, 'use', -20, remaining_value FROM c`, card)
	f.checkBooks(t)

	refund := func(amount string) (*payments.Movement, error) {
		var m *payments.Movement
		err := f.uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
			var err error
			m, err = payments.RefundToGiftcard(ctx, tx, payments.MoveInput{From: f.clearing, To: card, Amount: dec(amount),
				Type: payments.MoveRefund, PaymentUUID: &payment})
			return err
		})
		return m, err
	}
	if _, err := refund("10.00"); err != nil {
		t.Fatal(err)
	}
	f.wantBalances(t, map[uuid.UUID]string{card: "60.00", f.clearing: "20.00"})
	f.checkBooks(t)
	// The card's value caps what it takes back, whatever the source holds.
	if _, err := f.transfer(mv(f.payin, f.clearing, "100.00", payments.MovePayin)); err != nil {
		t.Fatal(err)
	}
	_, err = refund("40.01")
	dbtest.WantFieldErrors(t, err, map[string]string{"amount": "This giftcard can take back at most 40.00."})
	if _, err := refund("40.00"); err != nil {
		t.Fatal(err)
	}
	_, err = refund("0.01")
	dbtest.WantFieldErrors(t, err, map[string]string{"amount": "This giftcard can take back at most 0.00."})
	f.wantBalances(t, map[uuid.UUID]string{card: "100.00", f.clearing: "80.00"})
	f.checkBooks(t)

	// A guarded source must hold what it gives back.
	_, err = f.transfer(payments.MoveInput{From: f.walletA, To: card, Amount: dec("1"), Type: payments.MoveRefund})
	dbtest.WantCode(t, err, domain.CodeInvalid)

	// Transfer dispatches on the kinds; the card functions insist on a card.
	if _, err := f.transfer(mv(card, f.walletA, "12.50", payments.MoveExtraSource)); err != nil {
		t.Fatal(err)
	}
	f.wantBalances(t, map[uuid.UUID]string{card: "87.50", f.walletA: "12.50"})
	err = f.uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
		_, err := payments.DrawFromGiftcard(ctx, tx, mv(f.walletA, f.clearing, "1", payments.MoveExtraSource))
		return err
	})
	dbtest.WantCode(t, err, domain.CodeConflict)
	err = f.uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
		_, err := payments.RefundToGiftcard(ctx, tx, mv(f.clearing, f.walletA, "1", payments.MoveRefund))
		return err
	})
	dbtest.WantCode(t, err, domain.CodeConflict)
	_, err = f.transfer(mv(card, f.clearing, "87.51", payments.MoveExtraSource))
	dbtest.WantFieldErrors(t, err, map[string]string{"amount": "The remaining value of this giftcard is 87.50."})
	f.checkBooks(t)
	if n := f.count(t, `SELECT count(*) FROM wallets WHERE kind = 'network_giftcard'`); n != 1 {
		t.Errorf("%d card wallets, want 1", n)
	}
}

// A draw is refused as a use of the card would be.
func TestGiftcardWalletGuards(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 4)
	draw := func(card uuid.UUID, amount string, at time.Time) error {
		in := mv(card, f.clearing, amount, payments.MoveExtraSource)
		in.At = at
		in.Field = "extra_source_amount"
		_, err := f.transfer(in)
		return err
	}
	now := time.Now()

	inactive := f.card(t, "10.00")
	f.exec(t, `UPDATE network_giftcards SET is_active = false WHERE uuid = ?`, inactive)
	e := dbtest.WantCode(t, draw(inactive, "1", now), domain.CodeConflict)
	if e.Message != network.MsgCardNotUsable {
		t.Errorf("inactive card: %q", e.Message)
	}
	draft := f.card(t, "10.00")
	f.exec(t, `UPDATE network_giftcards SET status = 'draft' WHERE uuid = ?`, draft)
	dbtest.WantCode(t, draw(draft, "1", now), domain.CodeConflict)

	dated := f.card(t, "10.00")
	f.exec(t, `UPDATE network_giftcards SET activation_date = ?, expiration_date = ? WHERE uuid = ?`,
		now.Add(-time.Hour), now.Add(time.Hour), dated)
	e = dbtest.WantCode(t, draw(dated, "1", now.Add(2*time.Hour)), domain.CodeConflict)
	if e.Message != network.MsgCardDates {
		t.Errorf("expired card: %q", e.Message)
	}
	dbtest.WantCode(t, draw(dated, "1", now.Add(-2*time.Hour)), domain.CodeConflict)
	if err := draw(dated, "1", now); err != nil {
		t.Errorf("a draw within the card's dates: %v", err)
	}

	whole := f.card(t, "10.00")
	f.exec(t, `UPDATE network_giftcards SET is_splittable = false WHERE uuid = ?`, whole)
	dbtest.WantFieldErrors(t, draw(whole, "4", now), map[string]string{
		"extra_source_amount": "This giftcard is not splittable: a payment spends its whole remaining value, 10.00."})
	if err := draw(whole, "10", now); err != nil {
		t.Errorf("a whole draw of a card that is not splittable: %v", err)
	}

	usd := f.card(t, "10.00")
	f.exec(t, `UPDATE network_giftcards SET currency = 'USD' WHERE uuid = ?`, usd)
	dbtest.WantCode(t, draw(usd, "1", now), domain.CodeConflict)

	f.wantBalances(t, map[uuid.UUID]string{inactive: "10.00", draft: "10.00", dated: "9.00", whole: "0.00",
		usd: "10.00", f.clearing: "11.00"})
	f.checkBooks(t)
}

// 50 concurrent draws of 10.00 from a card of 100.00: ten take it all,
// and the rest are refused.
func TestConcurrentGiftcardDraws(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 16)
	card := f.card(t, "100.00")
	codes := dbtest.Concurrently(50, func(int) error {
		_, err := f.transfer(mv(card, f.clearing, "10.00", payments.MoveExtraSource))
		return err
	})
	if codes[""] != 10 || codes[domain.CodeInvalid] != 40 {
		t.Fatalf("draws: %v, want 10 successes and 40 refusals", codes)
	}
	f.wantBalances(t, map[uuid.UUID]string{card: "0.00", f.clearing: "100.00"})
	var ledger, drawn decimal.Decimal
	var n int
	if err := f.db.NewRaw(`SELECT COALESCE(sum(amount), 0), COALESCE(sum(amount) FILTER (WHERE kind = 'payment'), 0),
		count(*) FILTER (WHERE kind = 'payment')
		FROM network_giftcard_movements m JOIN network_giftcards g ON g.id = m.network_giftcard_id WHERE g.uuid = ?`,
		card).Scan(context.Background(), &ledger, &drawn, &n); err != nil {
		t.Fatal(err)
	}
	if !ledger.IsZero() || !drawn.Equal(dec("-100")) || n != 10 {
		t.Errorf("ledger sums to %s, its payments to %s in %d movements; want 0, -100 in 10", ledger, drawn, n)
	}
	if n := f.count(t, `SELECT count(*) FROM wallet_movements WHERE debited_wallet_uuid = ?`, card); n != 10 {
		t.Errorf("%d wallet movements from the card, want 10", n)
	}
	f.checkBooks(t)
}

// Payments and refunds that move several times (after LockWallets) and
// single transfers both ways between two partners, all at once: none
// deadlocks, the refused ones write nothing, and the balances are what
// the successes make them.
func TestConcurrentMovements(t *testing.T) {
	t.Parallel()
	f := newWalletFixture(t, 8)
	card := f.card(t, "1000.00")
	for _, w := range []uuid.UUID{f.walletA, f.walletB} {
		if _, err := f.transfer(mv(f.payin, w, "20.00", payments.MoveAdjustment)); err != nil {
			t.Fatal(err)
		}
	}
	all := []uuid.UUID{card, f.walletA, f.payin, f.commission, f.clearing}
	legs := func(ctx context.Context, tx payments.Stores, ms ...payments.MoveInput) error {
		if err := payments.LockWallets(ctx, tx, all...); err != nil {
			return err
		}
		for _, in := range ms {
			if _, err := payments.Transfer(ctx, tx, in); err != nil {
				return err
			}
		}
		return nil
	}
	var paid, refunded, ab, ba atomic.Int64
	codes := dbtest.Concurrently(60, func(i int) error {
		ctx := context.Background()
		switch i % 4 {
		case 0:
			err := f.uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
				return legs(ctx, tx, mv(card, f.clearing, "5.00", payments.MoveExtraSource),
					mv(f.payin, f.clearing, "15.00", payments.MovePayin),
					mv(f.clearing, f.walletA, "18.00", payments.MoveTransfer),
					mv(f.clearing, f.commission, "2.00", payments.MoveCommission))
			})
			if err == nil {
				paid.Add(1)
			}
			return err
		case 1:
			err := f.uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
				return legs(ctx, tx, mv(f.walletA, f.clearing, "9.00", payments.MoveRefund),
					mv(f.commission, f.clearing, "1.00", payments.MoveRefund),
					mv(f.clearing, card, "2.50", payments.MoveRefund),
					mv(f.clearing, f.payin, "7.50", payments.MoveRefund))
			})
			if err == nil {
				refunded.Add(1)
			}
			return err
		case 2:
			_, err := f.transfer(mv(f.walletA, f.walletB, "1.00", payments.MoveAdjustment))
			if err == nil {
				ab.Add(1)
			}
			return err
		default:
			_, err := f.transfer(mv(f.walletB, f.walletA, "1.00", payments.MoveAdjustment))
			if err == nil {
				ba.Add(1)
			}
			return err
		}
	})
	if codes[""]+codes[domain.CodeInvalid] != 60 || paid.Load() != 15 {
		t.Fatalf("outcomes %v, %d payments; want every payment and no error but refusals", codes, paid.Load())
	}
	p, r, x, y := paid.Load(), refunded.Load(), ab.Load(), ba.Load()
	cents := func(n int64, each string) decimal.Decimal { return dec(each).Mul(decimal.NewFromInt(n)) }
	want := map[uuid.UUID]decimal.Decimal{
		card:         dec("1000").Sub(cents(p, "5")).Add(cents(r, "2.5")),
		f.walletA:    dec("20").Add(cents(p, "18")).Sub(cents(r, "9")).Sub(cents(x, "1")).Add(cents(y, "1")),
		f.walletB:    dec("20").Add(cents(x, "1")).Sub(cents(y, "1")),
		f.commission: cents(p, "2").Sub(cents(r, "1")),
		f.clearing:   decimal.Zero,
		f.payin:      dec("-40").Sub(cents(p, "15")).Add(cents(r, "7.5")),
	}
	for id, w := range want {
		if got := f.balance(t, id); !got.Equal(w) {
			t.Errorf("%s: %s, want %s (%d payments, %d refunds, %d A→B, %d B→A)", f.name(id), got, w, p, r, x, y)
		}
	}
	f.checkBooks(t)
}

// Random sequences of transfers, card draws and refunds, against a model
// of the balances: after each step the books hold, every balance is the
// model's, and a movement is refused exactly when the model says so.
func TestWalletsProperty(t *testing.T) {
	t.Parallel()
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			t.Parallel()
			walletsProperty(t, seed, 70)
		})
	}
}

func walletsProperty(t *testing.T, seed uint64, steps int) {
	f := newWalletFixture(t, 2)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	cards := []uuid.UUID{f.card(t, "100.00"), f.card(t, "35.50")}
	value := map[uuid.UUID]decimal.Decimal{cards[0]: dec("100"), cards[1]: dec("35.5")}
	plain := []uuid.UUID{f.payin, f.clearing, f.commission, f.payouts, f.walletA, f.walletB}
	model := map[uuid.UUID]decimal.Decimal{cards[0]: dec("100"), cards[1]: dec("35.5")}
	for _, w := range plain {
		model[w] = decimal.Zero
	}
	guarded := func(w uuid.UUID) bool { return w != f.payin }
	pick := func(ws []uuid.UUID) uuid.UUID { return ws[rng.IntN(len(ws))] }
	for step := range steps {
		amount := decimal.New(int64(1+rng.IntN(4000)), -2) // 0.01 to 40.00
		var in payments.MoveInput
		var ok bool
		switch op := rng.IntN(3); op {
		case 0: // between two wallets with balances
			from, to := pick(plain), pick(plain)
			for to == from {
				to = pick(plain)
			}
			in = mv(from, to, amount.String(), payments.MoveAdjustment)
			ok = !guarded(from) || model[from].GreaterThanOrEqual(amount)
		case 1: // a draw from a card
			in = mv(pick(cards), pick(plain), amount.String(), payments.MoveExtraSource)
			ok = model[in.From].GreaterThanOrEqual(amount)
		default: // a refund to a card
			in = mv(pick(plain), pick(cards), amount.String(), payments.MoveRefund)
			ok = model[in.To].Add(amount).LessThanOrEqual(value[in.To]) &&
				(!guarded(in.From) || model[in.From].GreaterThanOrEqual(amount))
		}
		_, err := f.transfer(in)
		switch {
		case ok && err != nil:
			t.Fatalf("step %d: %s %s → %s refused: %v", step, in.Amount, f.name(in.From), f.name(in.To), err)
		case !ok && !domain.IsCode(err, domain.CodeInvalid):
			t.Fatalf("step %d: %s %s → %s: %v, want a refusal", step, in.Amount, f.name(in.From), f.name(in.To), err)
		case ok:
			model[in.From] = model[in.From].Sub(amount)
			model[in.To] = model[in.To].Add(amount)
		}
		for w, want := range model {
			if got := f.balance(t, w); !got.Equal(want) {
				t.Fatalf("step %d: %s holds %s, the model %s", step, f.name(w), got, want)
			}
		}
		f.checkBooks(t)
		if t.Failed() {
			t.Fatalf("step %d: the books do not hold", step)
		}
	}
}
