package network_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// ngcFixture is a marketplace with a network partner, a partner outside
// its network, and a way to issue cards.
type ngcFixture struct {
	db                      *bun.DB
	svc                     *network.GiftcardService
	market, member, outside int64
	refusing                int64
	// asMarket is a context whose caller is the marketplace's user with the
	// permission to use its cards.
	asMarket context.Context
}

// as is a context whose caller is a user of partner (staff without one)
// holding perms.
func as(partner int64, staff bool, perms ...string) context.Context {
	c := &domain.Caller{User: &domain.User{ID: 1, IsStaff: staff}, Permissions: perms}
	if partner != 0 {
		c.Partner = &domain.Partner{ID: partner}
	}
	return domain.WithCaller(context.Background(), c)
}

func newNGCFixture(t testing.TB, conns int) *ngcFixture {
	t.Helper()
	return newNGCFixtureOn(t, dbtest.New(t), conns)
}

// newNGCFixtureOn is newNGCFixture on db, a fresh database.
func newNGCFixtureOn(t testing.TB, db *bun.DB, conns int) *ngcFixture {
	t.Helper()
	persistence.SetMaxConns(db.DB, conns)
	f := &ngcFixture{db: db, svc: network.NewGiftcardService(persistence.NewUnitOfWork(db, persistence.NetworkStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(db)))}
	// The user of every caller of as(), the actor of the ledger's movements.
	f.id(t, `INSERT INTO users (id, username, password_hash) VALUES (1, 'actor', 'x') RETURNING id`)
	f.market = f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Market', true) RETURNING id`)
	f.member = f.id(t, `INSERT INTO partners (name, status) VALUES ('Member', 'n') RETURNING id`)
	f.outside = f.id(t, `INSERT INTO partners (name) VALUES ('Outside') RETURNING id`)
	f.id(t, `INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?) RETURNING partner_id`, f.market, f.member)
	f.id(t, `INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?) RETURNING partner_id`, f.market, f.member)
	// In the network, but not in its network giftcard settings.
	f.refusing = f.id(t, `INSERT INTO partners (name, status) VALUES ('Refusing', 'n') RETURNING id`)
	f.id(t, `INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?) RETURNING partner_id`, f.market, f.refusing)
	f.asMarket = as(f.market, false, domain.PermUseNetworkGiftcardAPI)
	return f
}

func (f *ngcFixture) id(t testing.TB, q string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

// card issues a card of value in status.
func (f *ngcFixture) card(t *testing.T, code, status, value string) *gifts.NetworkGiftcard {
	t.Helper()
	g := &gifts.NetworkGiftcard{Code: code, MarketplaceID: f.market, Status: status,
		Value: decimal.RequireFromString(value), RemainingValue: decimal.RequireFromString(value)}
	if err := persistence.NewGiftStore(f.db).CreateNetworkGiftcard(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	return g
}

// balances returns the card's remaining value, the sum of its ledger and
// the sum of its active usages.
func (f *ngcFixture) balances(t *testing.T, cardID int64) (remaining, ledger, active decimal.Decimal) {
	t.Helper()
	err := f.db.NewRaw(`SELECT remaining_value,
		(SELECT coalesce(sum(amount), 0) FROM network_giftcard_movements WHERE network_giftcard_id = c.id),
		(SELECT coalesce(sum(value), 0) FROM network_giftcard_usages WHERE network_giftcard_id = c.id AND is_active)
		FROM network_giftcards c WHERE id = ?`, cardID).Scan(context.Background(), &remaining, &ledger, &active)
	if err != nil {
		t.Fatal(err)
	}
	return remaining, ledger, active
}

func use(code string, partner int64, value string) network.UseInput {
	return network.UseInput{Code: code, PartnerRef: network.PartnerRef{PartnerID: domain.Some(partner)},
		Value: domain.Some(decimal.RequireFromString(value)), CreationDate: domain.Some(network.At(time.Now()))}
}

// quiet is in without its mails (send_usage_notification_email false).
func quiet(in network.UseInput) network.UseInput {
	in.Notify = domain.Some(false)
	return in
}

func cancel(id int64, comment string) network.CancelUsageInput {
	return network.CancelUsageInput{ID: id, Comment: domain.Some(comment)}
}

// A use spends the card, moves it to using and writes the usage and its
// movement; what is refused changes nothing; a cancel restores the value
// once.
func TestUseAndCancel(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 4)
	ctx := f.asMarket
	g := f.card(t, "NGC-USE-0001", "paid", "50.00")

	u, err := f.svc.Use(ctx, use("ngc-use-0001", f.member, "20.50"))
	if err != nil || !u.IsActive || u.ID == 0 || !u.Value.Equal(decimal.RequireFromString("20.5")) {
		t.Fatalf("use = %+v, %v", u, err)
	}
	var status string
	if err := f.db.NewRaw("SELECT status FROM network_giftcards WHERE id = ?", g.ID).Scan(context.Background(), &status); err != nil || status != "using" {
		t.Errorf("status %q, %v; want using", status, err)
	}

	for name, tc := range map[string]struct {
		in    network.UseInput
		code  domain.Code
		field string
	}{
		"over the remaining value": {use(g.Code, f.member, "29.51"), domain.CodeInvalid, "value"},
		"zero":                     {use(g.Code, f.member, "0"), domain.CodeInvalid, "value"},
		"three decimals":           {use(g.Code, f.member, "1.005"), domain.CodeInvalid, "value"},
		"outside the network":      {use(g.Code, f.outside, "1"), domain.CodeInvalid, "partner_id"},
		"not accepting the cards":  {use(g.Code, f.refusing, "1"), domain.CodeInvalid, "partner_id"},
		"unknown code":             {use("NGC-NONE", f.member, "1"), domain.CodeNotFound, ""},
	} {
		_, err := f.svc.Use(ctx, tc.in)
		e := dbtest.WantCode(t, err, tc.code)
		if tc.field != "" && (len(e.Fields) != 1 || e.Fields[0].Path[0] != tc.field) {
			t.Errorf("%s: fields %+v", name, e.Fields)
		}
		if name == "over the remaining value" && e.Fields[0].Message != "The remaining value of this giftcard is 29.50." {
			t.Errorf("%s: %q", name, e.Fields[0].Message)
		}
	}
	draft := f.card(t, "NGC-DRAFT-001", "draft", "10")
	_, err = f.svc.Use(ctx, use(draft.Code, f.member, "1"))
	dbtest.WantCode(t, err, domain.CodeConflict)

	if r, l, a := f.balances(t, g.ID); !r.Equal(decimal.RequireFromString("29.5")) || !l.Equal(r) || !a.Equal(decimal.RequireFromString("20.5")) {
		t.Errorf("after the refusals: remaining %s, ledger %s, active usages %s", r, l, a)
	}

	c, err := f.svc.CancelUsage(ctx, cancel(u.ID, "wrong amount"))
	if err != nil || c.IsActive {
		t.Fatalf("cancel = %+v, %v", c, err)
	}
	if again, err := f.svc.CancelUsage(ctx, cancel(u.ID, "twice")); err != nil || again.IsActive {
		t.Fatalf("second cancel = %+v, %v", again, err)
	}
	if r, l, a := f.balances(t, g.ID); !r.Equal(decimal.RequireFromString("50")) || !l.Equal(r) || !a.IsZero() {
		t.Errorf("after two cancels: remaining %s, ledger %s, active usages %s; want 50 restored once", r, l, a)
	}

	u2, err := f.svc.Use(ctx, use(g.Code, f.member, "5"))
	if err != nil {
		t.Fatal(err)
	}
	// A payout request of the partner (a payment-hub partner too) takes it.
	for _, q := range []string{
		`INSERT INTO payment_partners (partner_id, legal_representative_email) VALUES (?0, 'rep@example.com')`,
		`INSERT INTO payout_requests (id, partner_id, currency, period_start, period_end) VALUES (1, ?0, 'EUR', now() - interval '7 days', now())`,
		`UPDATE network_giftcard_usages SET payout_id = 1 WHERE id = ?1`,
	} {
		if _, err := f.db.NewRaw(q, f.member, u2.ID).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	_, err = f.svc.CancelUsage(ctx, cancel(u2.ID, ""))
	if e := dbtest.WantCode(t, err, domain.CodeConflict); e.Message != network.MsgUsageInPayout {
		t.Errorf("in a payout: %q", e.Message)
	}
	_, err = f.svc.CancelUsage(ctx, cancel(999999, ""))
	dbtest.WantCode(t, err, domain.CodeNotFound)
}

// 1,000 uses of 1.00 at one card of 100.00, from 20 connections at once,
// half of them without mails (no transaction, useAlone): exactly 100
// succeed, the card ends at 0.00, and the ledger, the usages
// and the remaining value agree. Twenty queue on the card's row well
// within the statements' deadline (5 s) even when CI runs every package
// at once; forty did not always.
func TestUseStormCannotOverspend(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 40)
	g := f.card(t, "NGC-STORM-0001", "paid", "100.00")
	var mu sync.Mutex
	succeeded, other := 0, []error{}
	jobs := make(chan struct{})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				in := use(g.Code, f.member, "1.00")
				if rand.IntN(2) == 0 {
					in = quiet(in)
				}
				_, err := f.svc.Use(f.asMarket, in)
				mu.Lock()
				switch {
				case err == nil:
					succeeded++
				case !domain.IsCode(err, domain.CodeInvalid):
					other = append(other, err)
				}
				mu.Unlock()
			}
		}()
	}
	for range 1000 {
		jobs <- struct{}{}
	}
	close(jobs)
	wg.Wait()
	if succeeded != 100 || len(other) > 0 {
		t.Fatalf("%d uses succeeded, want 100; other errors: %v", succeeded, other)
	}
	r, l, a := f.balances(t, g.ID)
	if !r.IsZero() || !l.IsZero() || !a.Equal(decimal.RequireFromString("100")) {
		t.Errorf("remaining %s, ledger %s, active usages %s; want 0, 0 and 100", r, l, a)
	}
}

// Uses (half of them without mails: no transaction) and cancels at once,
// from many connections: at every end the
// remaining value is the value less the active usages, the sum of the
// ledger, and never negative.
func TestUseAndCancelStormKeepsTheLedger(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 40)
	g := f.card(t, "NGC-MIXED-0001", "paid", "50.00")
	var mu sync.Mutex
	var usages []int64
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range 40 {
				if rng.IntN(3) == 0 {
					mu.Lock()
					var id int64
					if len(usages) > 0 {
						id = usages[rng.IntN(len(usages))]
					}
					mu.Unlock()
					if id != 0 {
						if _, err := f.svc.CancelUsage(f.asMarket, cancel(id, "")); err != nil {
							t.Errorf("cancel: %v", err)
						}
					}
					continue
				}
				in := use(g.Code, f.member, []string{"0.50", "1.25", "3.00"}[rng.IntN(3)])
				if rng.IntN(2) == 0 {
					in = quiet(in)
				}
				u, err := f.svc.Use(f.asMarket, in)
				if err == nil {
					mu.Lock()
					usages = append(usages, u.ID)
					mu.Unlock()
				} else if !domain.IsCode(err, domain.CodeInvalid) {
					t.Errorf("use: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	r, l, a := f.balances(t, g.ID)
	if r.IsNegative() || !l.Equal(r) || !r.Equal(decimal.RequireFromString("50").Sub(a)) {
		t.Errorf("remaining %s, ledger %s, active usages %s; want remaining = ledger = 50 - active", r, l, a)
	}
	var negative int
	if err := f.db.NewRaw("SELECT count(*) FROM network_giftcard_movements WHERE balance_after < 0").Scan(context.Background(), &negative); err != nil || negative > 0 {
		t.Errorf("negative balances: %d, %v", negative, err)
	}
}

// A use that writes nothing but its spend (no idempotency key, no mail,
// no webhook endpoint subscribed) sends two statements and no
// transaction: the card with its partner, then the guarded update, which
// checks the endpoints too. A refused one still explains the refusal;
// with a subscribed endpoint (a partner's, the platform's) or a key it
// runs in a transaction, which keeps the event or the outcome.
func TestQuietUseNeedsNoTransaction(t *testing.T) {
	t.Parallel()
	dbtest.UseJSONWebhooks()
	db, stmts := dbtest.NewCounted(t)
	f := newNGCFixtureOn(t, db, 4)
	g := f.card(t, "NGC-QUIET-0001", "paid", "10.00")
	transaction := func() bool {
		return slices.ContainsFunc(stmts.Queries(), func(q string) bool { return strings.EqualFold(q, "begin") })
	}
	// alone makes a use of value without mails and reports whether it sent
	// two statements and no transaction.
	alone := func(value string) bool {
		t.Helper()
		stmts.Reset()
		if _, err := f.svc.Use(f.asMarket, quiet(use(g.Code, f.member, value))); err != nil {
			t.Fatal(err)
		}
		return stmts.Count() == 2 && !transaction()
	}

	if !alone("1.00") {
		t.Errorf("want 2 statements and no transaction:\n%s", strings.Join(stmts.Queries(), "\n"))
	}
	if r, l, a := f.balances(t, g.ID); !r.Equal(decimal.RequireFromString("9")) || !l.Equal(r) || !a.Equal(decimal.RequireFromString("1")) {
		t.Errorf("remaining %s, ledger %s, active usages %s; want 9, 9 and 1", r, l, a)
	}

	_, err := f.svc.Use(f.asMarket, quiet(use(g.Code, f.member, "9.50")))
	dbtest.WantFieldErrors(t, err, map[string]string{"value": "The remaining value of this giftcard is 9.00."})
	_, err = f.svc.Use(f.asMarket, quiet(use("NGC-NONE-0001", f.member, "1.00")))
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.Use(f.asMarket, quiet(use(g.Code, f.refusing, "1.00")))
	dbtest.WantFieldErrors(t, err, map[string]string{"partner_id": network.MsgNotAccepting})

	// An endpoint subscribed to another type, an outside partner's and an
	// inactive one change nothing.
	dbtest.WebhookEndpoint(t, f.db, f.market, "network_giftcard.created")
	dbtest.WebhookEndpoint(t, f.db, f.outside)
	inactive := dbtest.WebhookEndpoint(t, f.db, f.market)
	if _, err := f.db.NewRaw(`UPDATE webhook_endpoints SET is_active = false WHERE id = ?`, inactive).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !alone("1.00") {
		t.Errorf("a use beside endpoints that do not subscribe to it: want 2 statements and no transaction:\n%s",
			strings.Join(stmts.Queries(), "\n"))
	}

	// A partner's endpoint subscribed to uses, then the platform's for every
	// type: each makes the use a transaction that keeps its event.
	for _, owner := range []struct {
		name    string
		partner int64
		events  []string
	}{{"the member's", f.member, []string{"network_giftcard.used"}}, {"the platform's", 0, nil}} {
		endpoint := dbtest.WebhookEndpoint(t, f.db, owner.partner, owner.events...)
		if alone("0.50") {
			t.Errorf("a use with %s endpoint ran without a transaction:\n%s", owner.name, strings.Join(stmts.Queries(), "\n"))
		}
		if types := dbtest.WebhookTypes(t, f.db, endpoint); !slices.Equal(types, []string{"network_giftcard.used"}) {
			t.Errorf("%s endpoint's events: %v, want the use's", owner.name, types)
		}
	}

	keyed, err := idempotency.WithKey(f.asMarket, "quiet-use-1")
	if err != nil {
		t.Fatal(err)
	}
	in := quiet(use(g.Code, f.member, "3.00"))
	first, err := f.svc.Use(keyed, in)
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.svc.Use(keyed, in)
	if err != nil || again.ID != first.ID {
		t.Errorf("the keyed use again: %+v, %v; want usage %d replayed", again, err, first.ID)
	}
	if r, _, _ := f.balances(t, g.ID); !r.Equal(decimal.RequireFromString("4")) {
		t.Errorf("remaining %s, want 4: 10 less 1, 1, 0.50, 0.50 and 3", r)
	}
}

// Using a card and cancelling a usage is for the card's marketplace
// (holding use_network_giftcard_api) and staff: another marketplace finds
// neither, a member without the permission is refused, and nothing moves.
func TestUseIsolation(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 4)
	g := f.card(t, "NGC-ISO-0001", "paid", "10.00")
	u, err := f.svc.Use(f.asMarket, use(g.Code, f.member, "1"))
	if err != nil {
		t.Fatal(err)
	}
	rival := f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Rival', true) RETURNING id`)
	asRival := as(rival, false, domain.PermUseNetworkGiftcardAPI)
	_, err = f.svc.Use(asRival, use(g.Code, f.member, "1"))
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.CancelUsage(asRival, cancel(u.ID, ""))
	dbtest.WantCode(t, err, domain.CodeNotFound)
	noPerm := as(f.market, false)
	_, err = f.svc.Use(noPerm, use(g.Code, f.member, "1"))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.CancelUsage(noPerm, cancel(u.ID, ""))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.Use(context.Background(), use(g.Code, f.member, "1"))
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	if r, _, _ := f.balances(t, g.ID); !r.Equal(decimal.RequireFromString("9")) {
		t.Errorf("remaining %s after the refusals, want 9", r)
	}
	// Staff reach any marketplace's cards.
	if c, err := f.svc.CancelUsage(as(0, true), cancel(u.ID, "")); err != nil || c.IsActive || c.MarketplaceID != f.market {
		t.Errorf("staff cancel = %+v, %v", c, err)
	}
}
