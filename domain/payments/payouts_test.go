package payments_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// payoutFixture is a marketplace (market, EUR, Paris) and a partner it
// refers (spa), both payment-hub partners with their payments activated,
// with the payment and payout services on the simulated provider.
type payoutFixture struct {
	db          *bun.DB
	uow         *persistence.UnitOfWork[payments.Stores]
	pays        *payments.PaymentService
	payouts     *payments.PayoutService
	market, spa *domain.Partner
	staff       context.Context
	cards       int
}

func newPayoutFixture(t testing.TB) *payoutFixture {
	t.Helper()
	db := dbtest.New(t)
	partners := persistence.NewDatabase(db).Stores().Partners
	uow := persistence.NewUnitOfWork(db, persistence.PaymentsStores)
	keys := idempotency.NewGuard(persistence.NewIdempotencyStore(db))
	f := &payoutFixture{db: db, uow: uow, pays: payments.NewPaymentService(uow, keys, psp.NewSim(db, simBase)),
		payouts: payments.NewPayoutService(uow, keys)}
	f.market = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Market", IsMarketplace: true, Currency: "EUR", TimeZone: "Europe/Paris"})
	f.spa = dbtest.MustPartner(t, partners, &domain.Partner{Name: "Spa", Currency: "EUR", TimeZone: "Europe/Paris"})
	f.exec(t, `INSERT INTO partner_legal_information (partner_id, referrer_id) VALUES (?, ?)
		ON CONFLICT (partner_id) DO UPDATE SET referrer_id = EXCLUDED.referrer_id`, f.spa.ID, f.market.ID)
	for _, p := range []*domain.Partner{f.market, f.spa} {
		f.exec(t, `INSERT INTO payment_partners (partner_id, legal_representative_email, payout_frequency)
			VALUES (?, 'rep@example.com', 'week')`, p.ID)
		f.exec(t, `INSERT INTO payment_partner_activations (id, partner_id, provider, provider_ref, status, user_action_url, completed_on)
			VALUES (?, ?, 'simulated', ?, 'COMPLETED', '', now())`, uuid.New(), p.ID, uuid.NewString())
	}
	f.exec(t, `INSERT INTO users (id, username, password_hash, is_staff) VALUES (90, 'staff', 'x', true),
		(91, 'cashier', 'x', false)`)
	f.staff = domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: 90, Username: "staff", IsStaff: true}})
	return f
}

func (f *payoutFixture) exec(t testing.TB, q string, args ...any) {
	t.Helper()
	if _, err := f.db.NewRaw(q, args...).Exec(context.Background()); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (f *payoutFixture) scan(t testing.TB, dst any, q string, args ...any) {
	t.Helper()
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), dst); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// member is a member of p (user 91) with the refunds' permission.
func (f *payoutFixture) member(p *domain.Partner) context.Context {
	return domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: 91, Username: "cashier"},
		Partner: p, Permissions: []string{domain.PermAccessFinancialOrderLines}})
}

// pay makes a payment of partner p of amount (a voucher: 5% + 0.25),
// paid at once by card, with body fields kv, and dates it paid at paidOn.
func (f *payoutFixture) pay(t testing.TB, p *domain.Partner, amount string, paidOn time.Time, kv ...any) *payments.Payment {
	t.Helper()
	pm, err := f.pays.CreatePayment(f.member(p), payInput(p, dec(amount), kv...))
	if err != nil || pm.Status != payments.StatusPaid {
		t.Fatalf("pay: %v %+v", err, pm)
	}
	f.exec(t, `UPDATE payments SET paid_on = ? WHERE id = ?`, paidOn, pm.ID)
	return pm
}

// card issues a paid splittable network giftcard of market and returns
// its uuid and id.
func (f *payoutFixture) card(t testing.TB, value string) (uuid.UUID, int64) {
	t.Helper()
	f.cards++
	g := &gifts.NetworkGiftcard{Code: "NGC-PAYOUT-" + uuid.NewString()[:8], MarketplaceID: f.market.ID,
		Status: "paid", Value: dec(value), RemainingValue: dec(value)}
	if err := persistence.NewGiftStore(f.db).CreateNetworkGiftcard(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	f.exec(t, `UPDATE network_giftcards SET is_splittable = true WHERE id = ?`, g.ID)
	var id uuid.UUID
	f.scan(t, &id, `SELECT uuid FROM network_giftcards WHERE id = ?`, g.ID)
	return id, g.ID
}

// usage writes a use of card at partner p of value, created at at.
func (f *payoutFixture) usage(t testing.TB, cardID int64, p *domain.Partner, value string, at time.Time) int64 {
	t.Helper()
	var id int64
	f.scan(t, &id, `INSERT INTO network_giftcard_usages (network_giftcard_id, partner_id, value, creation_date)
		VALUES (?, ?, ?, ?) RETURNING id`, cardID, p.ID, value, at)
	return id
}

func (f *payoutFixture) balanceOf(t testing.TB, kind string, partnerID int64) decimal.Decimal {
	t.Helper()
	var b decimal.Decimal
	f.scan(t, &b, `SELECT coalesce((SELECT balance FROM wallets WHERE kind = ? AND coalesce(partner_id, 0) = ? AND currency = 'EUR'), 0)`,
		kind, partnerID)
	return b
}

func (f *payoutFixture) build(t testing.TB, now time.Time) []*payments.Payout {
	t.Helper()
	res, err := f.payouts.BuildPayouts(context.Background(), now)
	if err != nil || len(res.Skipped) > 0 {
		t.Fatalf("build: %v %v", err, res.Skipped)
	}
	return res.Built
}

func paris(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestPayoutPeriods(t *testing.T) {
	t.Parallel()
	loc := paris(t)
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct{ freq, at, start, end string }{
		{"week", "2026-11-25 10:00", "2026-11-23 00:00", "2026-11-30 00:00"}, // a Wednesday
		{"week", "2026-11-23 00:00", "2026-11-23 00:00", "2026-11-30 00:00"}, // Monday midnight opens a week
		{"week", "2026-11-29 23:59", "2026-11-23 00:00", "2026-11-30 00:00"}, // Sunday closes it
		{"bimth", "2026-11-15 23:59", "2026-11-01 00:00", "2026-11-16 00:00"},
		{"bimth", "2026-11-16 00:00", "2026-11-16 00:00", "2026-12-01 00:00"},
		{"bimth", "2026-12-31 12:00", "2026-12-16 00:00", "2027-01-01 00:00"},
		{"month", "2026-03-29 12:00", "2026-03-01 00:00", "2026-04-01 00:00"}, // over the change to summer time
		{"month", "2026-12-31 23:59", "2026-12-01 00:00", "2027-01-01 00:00"},
	} {
		start, end := payments.PayoutPeriod(at(c.at), c.freq, loc)
		if !start.Equal(at(c.start)) || !end.Equal(at(c.end)) {
			t.Errorf("%s at %s: [%s, %s), want [%s, %s)", c.freq, c.at, start, end, c.start, c.end)
		}
	}
	// In the partner's zone: 23:30 UTC on Sunday is Monday in Paris.
	start, _ := payments.PayoutPeriod(time.Date(2026, 11, 29, 23, 30, 0, 0, time.UTC), "week", loc)
	if !start.Equal(at("2026-11-30 00:00")) {
		t.Errorf("zone: %s", start)
	}
}

// A weekly build gathers the paid payments and usages of the closed week
// (by freeze date, else paid or creation date) and those left from before,
// moves the payments' money to the payouts wallet, and builds once.
func TestBuildPayouts(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	loc := paris(t)
	week := time.Date(2026, 11, 16, 0, 0, 0, 0, loc) // Monday; the closed week is [16, 23)
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, loc)

	in1 := f.pay(t, f.spa, "100.00", week.Add(30*time.Hour))    // net 94.75
	in2 := f.pay(t, f.spa, "20.00", week.Add(-48*time.Hour))    // left from the week before: net 18.75
	later := f.pay(t, f.spa, "50.00", week.Add(8*24*time.Hour)) // this week: waits
	f.exec(t, `UPDATE payment_partners SET freeze_payout = true WHERE partner_id = ?`, f.spa.ID)
	frozen := f.pay(t, f.spa, "40.00", week.Add(24*time.Hour), "freeze_payout_date", "2026-12-02") // dated next week: waits
	// A payment refunded in part before the build counts less its refund.
	refunded := f.pay(t, f.spa, "10.00", week.Add(50*time.Hour)) // net 9.25
	if _, err := f.pays.RefundPayment(f.member(f.spa), refunded.UUID, refundOf("4.00")); err != nil {
		t.Fatal(err)
	}
	// Commission given back: 0.75 × 4/10 = 0.30, so 3.70 leaves spa's wallet: 5.55 remain.
	_, cardID := f.card(t, "80.00")
	use1 := f.usage(t, cardID, f.spa, "30.00", week.Add(3*24*time.Hour))
	useLater := f.usage(t, cardID, f.spa, "5.00", week.Add(9*24*time.Hour))
	mine := f.pay(t, f.market, "30.00", week.Add(time.Hour)) // the marketplace's own payout

	built := f.build(t, now)
	if len(built) != 2 {
		t.Fatalf("built %d payouts", len(built))
	}
	byPartner := map[int64]*payments.Payout{built[0].PartnerID: built[0], built[1].PartnerID: built[1]}
	got := byPartner[f.spa.ID]
	want := dec("94.75").Add(dec("18.75")).Add(dec("5.55"))
	if got == nil || !got.Amount.Equal(want) || !got.UsagesAmount.Equal(dec("30")) || got.Status != payments.PayoutToValidate ||
		got.PaymentsCount != 3 || got.UsagesCount != 1 || got.Currency != "EUR" || got.ValidationDate != nil ||
		!got.PeriodStart.Equal(week) || !got.PeriodEnd.Equal(week.AddDate(0, 0, 7)) {
		t.Fatalf("spa's payout %+v, want amount %s", got, want)
	}
	read, err := f.payouts.Payout(f.member(f.spa), got.ID)
	if err != nil || read.PaymentsCount != 3 || read.UsagesCount != 1 || !read.Amount.Equal(want) || read.PartnerUUID != f.spa.UUID {
		t.Errorf("read back: %v %+v", err, read)
	}
	for _, p := range []*payments.Payment{in1, in2, refunded} {
		if pm, _ := f.pays.Payment(f.staff, p.UUID); pm.Payout == nil || pm.Payout.ID != got.ID || pm.Payout.Status != payments.PayoutToValidate {
			t.Errorf("payment %s not in the payout: %+v", p.UUID, pm.Payout)
		}
	}
	for _, p := range []*payments.Payment{later, frozen} {
		if pm, _ := f.pays.Payment(f.staff, p.UUID); pm.Payout != nil {
			t.Errorf("payment %s of a later period is in a payout", p.UUID)
		}
	}
	var usagePayouts []int64 // 0: none
	f.scan(t, &usagePayouts, `SELECT coalesce(payout_id, 0) FROM network_giftcard_usages WHERE id IN (?, ?) ORDER BY id`, use1, useLater)
	if len(usagePayouts) != 2 || usagePayouts[0] != got.ID || usagePayouts[1] != 0 {
		t.Errorf("usages' payouts %v", usagePayouts)
	}
	// The money left spa's wallet for the payouts wallet: what remains is
	// the later payments' net amounts.
	if b := f.balanceOf(t, payments.WalletPartner, f.spa.ID); !b.Equal(dec("47.25").Add(dec("37.75"))) {
		t.Errorf("spa's wallet %s", b)
	}
	if b := f.balanceOf(t, payments.WalletPayouts, 0); !b.Equal(want.Add(dec("28.25"))) {
		t.Errorf("payouts wallet %s", b)
	}
	if pm, _ := f.pays.Payment(f.staff, mine.UUID); pm.Payout == nil || pm.Payout.ID != byPartner[f.market.ID].ID {
		t.Errorf("market's payment: %+v", pm.Payout)
	}
	// Payments page of the payout.
	page, err := f.payouts.PayoutPayments(f.member(f.market), got.ID, domain.PageRequest{Number: 1, Size: 2})
	if err != nil || page.Count != 3 || len(page.Items) != 2 {
		t.Errorf("payments page: %v %+v", err, page)
	}
	usages, err := f.payouts.PayoutUsages(f.staff, got.ID, domain.PageRequest{Number: 1, Size: 10})
	if err != nil || usages.Count != 1 || usages.Items[0].ID != use1 || usages.Items[0].PayoutID == nil {
		t.Errorf("usages page: %v %+v", err, usages)
	}

	// A second run of the same period builds nothing, even with a payment
	// paid late into it.
	f.pay(t, f.spa, "10.00", week.Add(time.Hour))
	if again := f.build(t, now.Add(time.Hour)); len(again) != 0 {
		t.Errorf("second run built %+v", again)
	}
	// The freeze date of a payment in a payout can no longer change.
	if _, err := f.pays.UpdateFreezeDate(f.member(f.spa), in1.UUID, freezeOn("2026-12-10")); !domain.IsCode(err, domain.CodeConflict) {
		t.Errorf("freeze date of a paid-out payment: %v", err)
	}
	// The next week gathers what waited, and the late payment.
	next := f.build(t, now.AddDate(0, 0, 7))
	if len(next) != 1 || next[0].PartnerID != f.spa.ID || next[0].PaymentsCount != 2 || next[0].UsagesCount != 1 ||
		!next[0].Amount.Equal(dec("47.25").Add(dec("9.25"))) {
		t.Errorf("next week: %+v", next)
	}
}

// A refund of a payment already paid out takes its part from the payee's
// wallet, and the next payout deducts it.
func TestPayoutDeductsLaterRefunds(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	loc := paris(t)
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, loc)
	first := f.pay(t, f.spa, "100.00", now.AddDate(0, 0, -7))
	f.build(t, now)
	f.pay(t, f.spa, "50.00", now) // net 47.25
	// Refund 20.00 of the paid-out payment: 20 − its commission 1.05 (5.25 × 0.2) = 18.95 from the wallet.
	r, err := f.pays.RefundPayment(f.member(f.spa), first.UUID, refundOf("20.00"))
	if err != nil || r.Status != payments.RefundStatusSucceeded {
		t.Fatalf("refund: %v %+v", err, r)
	}
	next := f.build(t, now.AddDate(0, 0, 7))
	if len(next) != 1 || !next[0].Amount.Equal(dec("47.25").Sub(dec("18.95"))) {
		t.Fatalf("next: %+v", next)
	}
	if b := f.balanceOf(t, payments.WalletPartner, f.spa.ID); !b.IsZero() {
		t.Errorf("spa's wallet %s", b)
	}
	// Accounted once: a third week deducts it no more.
	f.pay(t, f.spa, "10.00", now.AddDate(0, 0, 7))
	if third := f.build(t, now.AddDate(0, 0, 14)); len(third) != 1 || !third[0].Amount.Equal(dec("9.25")) {
		t.Errorf("third: %+v", third)
	}
}

func TestValidatePayout(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, paris(t))
	f.exec(t, `UPDATE payment_partners SET auto_validate_payout = true WHERE partner_id = ?`, f.market.ID)
	f.exec(t, `UPDATE payment_partners SET block_payout_validation = true WHERE partner_id = ?`, f.spa.ID)
	f.pay(t, f.spa, "100.00", now.AddDate(0, 0, -7))
	f.pay(t, f.market, "100.00", now.AddDate(0, 0, -7))
	built := f.build(t, now)
	if len(built) != 2 {
		t.Fatalf("built %+v", built)
	}
	var spa, market *payments.Payout
	for _, p := range built {
		if p.PartnerID == f.spa.ID {
			spa = p
		} else {
			market = p
		}
	}
	// auto_validate_payout: validated at once, by the job, in the trail.
	if market.Status != payments.PayoutValidated || market.ValidationDate == nil {
		t.Errorf("auto-validated: %+v", market)
	}
	// Blocked: to be validated, and staff cannot validate it.
	if spa.Status != payments.PayoutToValidate {
		t.Errorf("blocked: %+v", spa)
	}
	_, err := f.payouts.ValidatePayout(f.staff, spa.ID, payments.PayoutChangeInput{Reason: domain.Some("checked")})
	if e := dbtest.WantCode(t, err, domain.CodeConflict); e.Message != payments.MsgPayoutValidationBlocked {
		t.Errorf("blocked validation: %v", err)
	}
	// Only staff validate.
	if _, err := f.payouts.ValidatePayout(f.member(f.market), spa.ID, payments.PayoutChangeInput{}); !domain.IsCode(err, domain.CodeForbidden) {
		t.Errorf("member validates: %v", err)
	}
	f.exec(t, `UPDATE payment_partners SET block_payout_validation = false WHERE partner_id = ?`, f.spa.ID)
	v, err := f.payouts.ValidatePayout(f.staff, spa.ID, payments.PayoutChangeInput{Reason: domain.Some("checked")})
	if err != nil || v.Status != payments.PayoutValidated || v.ValidationDate == nil {
		t.Fatalf("validate: %v %+v", err, v)
	}
	if _, err := f.payouts.ValidatePayout(f.staff, spa.ID, payments.PayoutChangeInput{}); !domain.IsCode(err, domain.CodeConflict) {
		t.Errorf("validated twice: %v", err)
	}
	if _, err := f.payouts.ValidatePayout(f.staff, 999999, payments.PayoutChangeInput{}); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("unknown: %v", err)
	}
	paid, err := f.payouts.MarkPayoutPaid(f.staff, spa.ID, payments.PayoutChangeInput{Reason: domain.Some("transfer 42")})
	if err != nil || paid.Status != payments.PayoutPaid || paid.PaidDate == nil {
		t.Fatalf("paid: %v %+v", err, paid)
	}
	var trail []struct {
		ActorUserID *int64 `bun:"actor_user_id"`
		Actor       string `bun:"actor"`
		Action      string `bun:"action"`
		Reason      string `bun:"reason"`
		Before      string `bun:"before"`
		After       string `bun:"after"`
	}
	f.scan(t, &trail, `SELECT actor_user_id, actor, action, reason, before::text, after::text FROM payment_hub_audit
		WHERE payout_request_id IN (?, ?) ORDER BY id`, market.ID, spa.ID)
	if len(trail) != 3 || trail[0].Actor != payments.PayoutsActor || trail[0].ActorUserID != nil ||
		trail[0].Action != payments.AuditPayoutAutoValidate ||
		trail[1].Action != payments.AuditPayoutValidate || trail[1].Actor != "staff" || trail[1].Reason != "checked" ||
		trail[1].Before != `{"amount": "94.75", "status": "to be validated", "paid_date": null, "validation_date": null}` ||
		trail[2].Action != payments.AuditPayoutPaid || trail[2].Reason != "transfer 42" {
		t.Errorf("trail %+v", trail)
	}
	// Reads: staff all; the referrer its partner's; the partner its own.
	for _, c := range []struct {
		ctx   context.Context
		count int
	}{{f.staff, 2}, {f.member(f.market), 2}, {f.member(f.spa), 1}} {
		page, err := f.payouts.Payouts(c.ctx, payments.PayoutListInput{}, domain.PageRequest{Number: 1, Size: 10})
		if err != nil || page.Count != c.count {
			t.Errorf("list: %v %+v, want %d", err, page, c.count)
		}
	}
	if _, err := f.payouts.Payout(f.member(f.spa), market.ID); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("another's payout: %v", err)
	}
	page, err := f.payouts.Payouts(f.staff, payments.PayoutListInput{StatusIn: "paid,validated", Status: "paid"},
		domain.PageRequest{Number: 1, Size: 10})
	if err != nil || page.Count != 1 || page.Items[0].ID != spa.ID {
		t.Errorf("filtered: %v %+v", err, page)
	}
	_, err = f.payouts.Payouts(f.staff, payments.PayoutListInput{CreationDateGte: "yesterday", StatusIn: "gone"},
		domain.PageRequest{Number: 1, Size: 10})
	dbtest.WantFieldErrors(t, err, map[string]string{"creation_date__gte": "Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm]).",
		"status__in": "Select a valid choice. gone is not one of the available choices."})
}
