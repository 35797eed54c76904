package network_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/network"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// nvFixture is a marketplace (Europe/Paris) with a box in which:
//   - member, a network partner with source id 42, has a validated offer;
//   - drafty, a network partner with source id 43, has a draft offer only;
//   - outsider, not in the network, has a validated offer;
//
// and the accounts that call the service.
type nvFixture struct {
	db                               *bun.DB
	svc                              *network.VoucherService
	market, member, drafty, outsider int64
	box                              int64
	// asMarket is the marketplace's user holding use_voucher; asReader
	// one of its users without it.
	asMarket, asReader context.Context
}

func newNVFixture(t testing.TB, conns int) *nvFixture {
	t.Helper()
	db := dbtest.New(t)
	persistence.SetMaxConns(db.DB, conns)
	f := &nvFixture{db: db, svc: network.NewVoucherService(persistence.NewUnitOfWork(db, persistence.NetworkStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(db)))}
	f.market = f.id(t, `INSERT INTO partners (name, is_marketplace, time_zone) VALUES ('Market', true, 'Europe/Paris') RETURNING id`)
	f.member = f.id(t, `INSERT INTO partners (name, status) VALUES ('Member', 'n') RETURNING id`)
	f.id(t, `INSERT INTO partner_legal_information (partner_id, agency_name) VALUES (?, 'Member Agency') RETURNING partner_id`, f.member)
	f.drafty = f.id(t, `INSERT INTO partners (name, status) VALUES ('Drafty', 'n') RETURNING id`)
	f.outsider = f.id(t, `INSERT INTO partners (name) VALUES ('Outsider') RETURNING id`)
	f.id(t, `INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, '42'), (?, ?, '43')
		RETURNING partner_id`, f.market, f.member, f.market, f.drafty)
	f.box = f.newBox(t, f.market, 0)
	f.asMarket = f.as(t, "market-user", f.market, false, domain.PermUseVoucher)
	f.asReader = f.as(t, "market-reader", f.market, false)
	return f
}

// newBox is a box of marketplace with offers of member (validated),
// drafty (draft) and outsider (validated), whose vouchers are used within
// days of their first usage (0: no limit).
func (f *nvFixture) newBox(t testing.TB, marketplace int64, days int) int64 {
	t.Helper()
	box := f.id(t, `INSERT INTO network_voucher_boxes (marketplace_id, name, price, max_number_usages,
		max_days_after_first_usage, management_fees, commission_rate)
		VALUES (?, '{"fr": "Coffret", "en": "Box"}', 89.90, 3, ?, 2.50, 12.50) RETURNING id`, marketplace, days)
	f.id(t, `INSERT INTO box_offers (box_id, partner_id, status) VALUES (?, ?, 'VALIDATED'), (?, ?, 'DRAFT'), (?, ?, 'VALIDATED')
		RETURNING id`, box, f.member, box, f.drafty, box, f.outsider)
	return box
}

func (f *nvFixture) id(t testing.TB, q string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

// as is a context whose caller is a new user (staff when partner is 0)
// holding perms: a real account, which the ledger's movements name.
func (f *nvFixture) as(t testing.TB, username string, partner int64, staff bool, perms ...string) context.Context {
	t.Helper()
	var partnerID *int64
	if partner != 0 {
		partnerID = &partner
	}
	user := f.id(t, `INSERT INTO users (username, password_hash, is_staff, partner_id) VALUES (?, 'x', ?, ?) RETURNING id`,
		username, staff, partnerID)
	c := &domain.Caller{User: &domain.User{ID: user, IsStaff: staff}, Permissions: perms}
	if partner != 0 {
		c.Partner = &domain.Partner{ID: partner}
	}
	return domain.WithCaller(context.Background(), c)
}

// voucher issues a voucher of box with max usages, expiring at expires
// ("" for never).
func (f *nvFixture) voucher(t testing.TB, code string, box int64, status string, max int, expires string) *gifts.NetworkVoucher {
	t.Helper()
	v := &gifts.NetworkVoucher{Code: code, BoxID: box, Status: status, MaxUsages: max}
	if expires != "" {
		e, err := time.Parse(time.RFC3339, expires)
		if err != nil {
			t.Fatal(err)
		}
		v.ExpirationDate = &e
	}
	if err := persistence.NewGiftStore(f.db).CreateNetworkVoucher(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	return v
}

// counts returns the voucher's usage count, the sum of its ledger and its
// active usages.
func (f *nvFixture) counts(t testing.TB, voucherID int64) (count, ledger, active int) {
	t.Helper()
	err := f.db.NewRaw(`SELECT usage_count,
		(SELECT coalesce(sum(count), 0) FROM network_voucher_movements WHERE network_voucher_id = v.id),
		(SELECT count(*) FROM network_voucher_usages WHERE network_voucher_id = v.id AND is_active)
		FROM network_vouchers v WHERE id = ?`, voucherID).Scan(context.Background(), &count, &ledger, &active)
	if err != nil {
		t.Fatal(err)
	}
	return count, ledger, active
}

// bySource is a usage of code at the partner with source id at date.
func bySource(code string, source any, date string) network.UsageInput {
	return network.UsageInput{Code: code, PartnerRef: network.PartnerRef{PartnerSourceID: domain.Some(fmt.Sprint(source))},
		CreationDate: localTime(date)}
}

func byID(code string, partner int64, date string) network.UsageInput {
	return network.UsageInput{Code: code, PartnerRef: network.PartnerRef{PartnerID: domain.Some(partner), ByPartnerID: true},
		CreationDate: localTime(date)}
}

// localTime is a date-time or a day the test writes.
func localTime(s string) domain.Optional[network.LocalTime] {
	l, ok := network.ParseLocalTime(s)
	if !ok {
		panic("not a date: " + s)
	}
	return domain.Some(l)
}

// cancelWith is the cancel of usage id with its comment.
func cancelWith(id int64, comment string) network.CancelUsageInput {
	return network.CancelUsageInput{ID: id, Comment: domain.Some(comment)}
}

// wantField fails unless err is CodeInvalid with one error, on field,
// whose message contains msg.
func wantField(t *testing.T, err error, field, msg string) {
	t.Helper()
	e := dbtest.WantCode(t, err, domain.CodeInvalid)
	if len(e.Fields) != 1 || e.Fields[0].Path[0] != field || !strings.Contains(e.Fields[0].Message, msg) {
		t.Errorf("fields %+v, want one on %s saying %q", e.Fields, field, msg)
	}
}

// A usage counts one use of the voucher, moves it to using, carries the
// box's fees and the partner's source id, and is dated at 12:00 in the
// marketplace's zone when given a date; every refusal says why and
// changes nothing; a cancel gives the count back once.
func TestRecordUsageAndCancel(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 4)
	v := f.voucher(t, "NV-USE-0001", f.box, "paid", 2, "2026-12-01T22:59:59Z")

	u, err := f.svc.RecordUsage(f.asMarket, bySource("nv-use-0001", int64(42), "2026-11-24"))
	if err != nil {
		t.Fatal(err)
	}
	noonParis := time.Date(2026, 11, 24, 11, 0, 0, 0, time.UTC)
	if u.ID == 0 || !u.IsActive || u.VoucherID != v.ID || u.PartnerID != f.member || u.PartnerSourceID == nil ||
		*u.PartnerSourceID != 42 || u.PartnerAgencyName != "Member Agency" || !u.CreationDate.Equal(noonParis) ||
		u.ManagementFees.String() != "2.5" || u.CommissionRate.String() != "12.5" {
		t.Errorf("usage = %+v", u)
	}
	var status string
	if err := f.db.NewRaw("SELECT status FROM network_vouchers WHERE id = ?", v.ID).Scan(context.Background(), &status); err != nil || status != "using" {
		t.Errorf("status %q, %v; want using", status, err)
	}

	draft := f.voucher(t, "NV-DRAFT-001", f.box, "draft", 2, "")
	for name, tc := range map[string]struct {
		in    network.UsageInput
		code  domain.Code
		field string
		msg   string
	}{
		"unknown source id":    {bySource(v.Code, 44, "2026-11-24"), domain.CodeInvalid, "partner_source_id", network.MsgNoSourceID},
		"unknown partner":      {byID(v.Code, 999999, "2026-11-24"), domain.CodeInvalid, "partner_id", `Invalid pk "999999"`},
		"outside the network":  {byID(v.Code, f.outsider, "2026-11-24"), domain.CodeInvalid, "partner_id", `Invalid pk "`},
		"draft offer only":     {bySource(v.Code, "43", "2026-11-24"), domain.CodeInvalid, "partner_source_id", network.MsgNoValidatedOffer},
		"after the expiration": {bySource(v.Code, 42, "2026-12-02"), domain.CodeInvalid, "creation_date", "expired on 2026-12-01T22:59:59Z"},
		"a second past it":     {bySource(v.Code, 42, "2026-12-02T00:00:00+01:00"), domain.CodeInvalid, "creation_date", "expired"},
		"no date":              {network.UsageInput{Code: v.Code, PartnerRef: network.PartnerRef{PartnerSourceID: domain.Some("42")}}, domain.CodeInvalid, "creation_date", domain.MsgRequired},
		"a source id as text":  {bySource(v.Code, "forty-two", "2026-11-24"), domain.CodeInvalid, "partner_source_id", domain.MsgInteger},
		"a boolean partner":    {bySource(v.Code, true, "2026-11-24"), domain.CodeInvalid, "partner_source_id", domain.MsgInteger},
		"a long comment": {network.UsageInput{Code: v.Code, PartnerRef: network.PartnerRef{PartnerSourceID: domain.Some("42")},
			CreationDate: localTime("2026-11-24"), Comment: domain.Some(strings.Repeat("x", 1001))}, domain.CodeInvalid, "comment", "1000 characters"},
		"a draft voucher": {bySource(draft.Code, 42, "2026-11-24"), domain.CodeConflict, "", "its status is draft"},
		"unknown code":    {bySource("NV-NONE", 42, "2026-11-24"), domain.CodeNotFound, "", ""},
		"a too long code": {bySource(strings.Repeat("N", 65), 42, "2026-11-24"), domain.CodeNotFound, "", ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := f.svc.RecordUsage(f.asMarket, tc.in)
			if tc.field != "" {
				wantField(t, err, tc.field, tc.msg)
				return
			}
			if e := dbtest.WantCode(t, err, tc.code); !strings.Contains(e.Message, tc.msg) {
				t.Errorf("message %q, want %q", e.Message, tc.msg)
			}
		})
	}

	second, err := f.svc.RecordUsage(f.asMarket, byID(v.Code, f.member, "2026-11-25T18:30:00"))
	if err != nil || second.PartnerSourceID == nil || *second.PartnerSourceID != 42 ||
		!second.CreationDate.Equal(time.Date(2026, 11, 25, 17, 30, 0, 0, time.UTC)) {
		t.Fatalf("second usage = %+v, %v (a date-time without offset is in the marketplace's zone)", second, err)
	}
	_, err = f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-26"))
	if e := dbtest.WantCode(t, err, domain.CodeConflict); e.Message != fmt.Sprintf(network.MsgVoucherUsedUp, 2) ||
		!strings.Contains(e.Message, "max_usages") {
		t.Errorf("used up: %q", e.Message)
	}
	if c, l, a := f.counts(t, v.ID); c != 2 || l != 2 || a != 2 {
		t.Errorf("after the refusals: count %d, ledger %d, active usages %d; want 2", c, l, a)
	}

	c, err := f.svc.CancelUsage(f.asMarket, cancelWith(u.ID, "wrong partner"))
	if err != nil || c.IsActive || c.ID != u.ID {
		t.Fatalf("cancel = %+v, %v", c, err)
	}
	if again, err := f.svc.CancelUsage(f.asMarket, network.CancelUsageInput{ID: u.ID}); err != nil || again.IsActive {
		t.Fatalf("second cancel = %+v, %v", again, err)
	}
	if c, l, a := f.counts(t, v.ID); c != 1 || l != 1 || a != 1 {
		t.Errorf("after two cancels of one usage: count %d, ledger %d, active %d; want 1 (restored once)", c, l, a)
	}
	var kinds, comments string
	err = f.db.NewRaw(`SELECT string_agg(kind || count || '>' || count_after, ','  ORDER BY id), string_agg(comment, ',' ORDER BY id)
		FROM network_voucher_movements WHERE network_voucher_id = ? AND actor_user_id IS NOT NULL`, v.ID).
		Scan(context.Background(), &kinds, &comments)
	if err != nil || kinds != "use1>1,use1>2,cancel-1>1" || comments != ",,wrong partner" {
		t.Errorf("ledger %q %q, %v", kinds, comments, err)
	}

	// The cancelled usage's place is free again.
	third, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-27"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.NewRaw("UPDATE network_voucher_usages SET payout_id = 1 WHERE id = ? RETURNING id", third.ID).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.CancelUsage(f.asMarket, network.CancelUsageInput{ID: third.ID})
	if e := dbtest.WantCode(t, err, domain.CodeConflict); e.Message != network.MsgUsageInPayout {
		t.Errorf("in a payout: %q", e.Message)
	}
	_, err = f.svc.CancelUsage(f.asMarket, network.CancelUsageInput{ID: 999999})
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if c, l, a := f.counts(t, v.ID); c != 2 || l != 2 || a != 2 {
		t.Errorf("at the end: count %d, ledger %d, active %d; want 2", c, l, a)
	}
}

// A box's max_days_after_first_usage keeps a voucher's active usages
// within that many days of the earliest one, whichever order they are
// recorded in; cancelling the earliest moves the window.
func TestUsageDaysAfterFirstUsage(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 4)
	box := f.newBox(t, f.market, 3)
	v := f.voucher(t, "NV-WINDOW-01", box, "paid", 5, "")

	first, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-24"))
	if err != nil {
		t.Fatal(err)
	}
	// 3 days of 24 hours after 12:00 on the 24th: 12:00 on the 27th.
	_, err = f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-27T12:00:01+01:00"))
	wantField(t, err, "creation_date", "within 3 days of its first usage, on 2026-11-24T11:00:00Z")
	if _, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-27")); err != nil {
		t.Fatalf("the last day: %v", err)
	}
	// A usage dated before the first must keep the latest within 3 days.
	_, err = f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-23"))
	wantField(t, err, "creation_date", "within 3 days")
	// Without the first usage, the window starts at the second.
	if _, err := f.svc.CancelUsage(f.asMarket, network.CancelUsageInput{ID: first.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-30")); err != nil {
		t.Errorf("after cancelling the first usage: %v", err)
	}
	var firstDate, lastDate time.Time
	err = f.db.NewRaw("SELECT first_usage_date, last_usage_date FROM network_vouchers WHERE id = ?", v.ID).
		Scan(context.Background(), &firstDate, &lastDate)
	if err != nil || !firstDate.Equal(time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)) ||
		!lastDate.Equal(time.Date(2026, 11, 30, 11, 0, 0, 0, time.UTC)) {
		t.Errorf("usage dates %s .. %s, %v", firstDate, lastDate, err)
	}
}

// 200 usages of a voucher that has 5, from 40 connections at once:
// exactly 5 succeed, the others are refused as used up, and the count,
// the usages and the ledger agree.
func TestUsageStormCannotOverUse(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 40)
	v := f.voucher(t, "NV-STORM-0001", f.box, "paid", 5, "")
	var mu sync.Mutex
	succeeded, other := 0, []error{}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			for i := range jobs {
				in := bySource(v.Code, 42, "2026-11-24")
				if i%2 == 1 {
					in = byID(v.Code, f.member, "2026-11-24T15:00:00Z")
				}
				_, err := f.svc.RecordUsage(f.asMarket, in)
				mu.Lock()
				switch {
				case err == nil:
					succeeded++
				case !domain.IsCode(err, domain.CodeConflict) || !strings.Contains(err.Error(), "max_usages"):
					other = append(other, err)
				}
				mu.Unlock()
			}
		})
	}
	for i := range 200 {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if succeeded != 5 || len(other) > 0 {
		t.Fatalf("%d usages succeeded, want 5; other errors: %v", succeeded, other)
	}
	if c, l, a := f.counts(t, v.ID); c != 5 || l != 5 || a != 5 {
		t.Errorf("count %d, ledger %d, active usages %d; want 5", c, l, a)
	}
}

// Usages and cancels at once, from many connections: at every end the
// usage count is the number of active usages and the sum of the ledger,
// within max_usages, every movement's count_after is the running sum, and
// the voucher's usage dates are those of its active usages.
func TestUsageAndCancelStormKeepsTheLedger(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 40)
	v := f.voucher(t, "NV-MIXED-0001", f.box, "paid", 12, "")
	var mu sync.Mutex
	var usages []int64
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			for range 30 {
				if rng.IntN(3) == 0 {
					mu.Lock()
					var id int64
					if len(usages) > 0 {
						id = usages[rng.IntN(len(usages))]
					}
					mu.Unlock()
					if id != 0 {
						if _, err := f.svc.CancelUsage(f.asMarket, network.CancelUsageInput{ID: id}); err != nil {
							t.Errorf("cancel: %v", err)
						}
					}
					continue
				}
				day := fmt.Sprintf("2026-11-%02d", 1+rng.IntN(28))
				u, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, day))
				if err == nil {
					mu.Lock()
					usages = append(usages, u.ID)
					mu.Unlock()
				} else if !domain.IsCode(err, domain.CodeConflict) {
					t.Errorf("use: %v", err)
				}
			}
		})
	}
	wg.Wait()
	c, l, a := f.counts(t, v.ID)
	if c != l || c != a || c > 12 {
		t.Errorf("count %d, ledger %d, active usages %d; want them equal, at most 12", c, l, a)
	}
	var wrong int
	err := f.db.NewRaw(`SELECT count(*) FROM (SELECT count_after, sum(count) OVER (ORDER BY id) AS running
		FROM network_voucher_movements WHERE network_voucher_id = ?) m WHERE count_after <> running`, v.ID).
		Scan(context.Background(), &wrong)
	if err != nil || wrong > 0 {
		t.Errorf("%d movements whose count_after is not the running sum, %v", wrong, err)
	}
	var datesRight bool
	err = f.db.NewRaw(`SELECT v.first_usage_date IS NOT DISTINCT FROM min(u.creation_date)
		AND v.last_usage_date IS NOT DISTINCT FROM max(u.creation_date)
		FROM network_vouchers v LEFT JOIN network_voucher_usages u ON u.network_voucher_id = v.id AND u.is_active
		WHERE v.id = ? GROUP BY v.id`, v.ID).Scan(context.Background(), &datesRight)
	if err != nil || !datesRight {
		t.Errorf("the voucher's usage dates are not those of its active usages (%v)", err)
	}
}

// The administration's reads: the caller's marketplace's boxes with what
// the box record shows, their offers, vouchers by code and by e-mail, and usages.
func TestVoucherReads(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 4)
	rangeID := f.id(t, `INSERT INTO network_voucher_price_ranges (partner_id, name) VALUES (?, '{"fr": "Moins de 100 €"}') RETURNING id`, f.market)
	product := f.id(t, `INSERT INTO network_voucher_box_products (box_id, name, price_range_id) VALUES (?, '{"en": "Dinner"}', ?) RETURNING id`, f.box, rangeID)
	media := f.id(t, `INSERT INTO media (partner_id, name, blob_key, content_type, size, width, height)
		VALUES (?, 'cover.png', 'k1', 'image/png', 1234, 2, 2) RETURNING id`, f.market)
	image := f.id(t, `INSERT INTO network_voucher_box_images (box_id, position, url, media_id, cover) VALUES (?, 1, 'https://x/1.png', ?, true) RETURNING id`, f.box, media)
	f.id(t, `INSERT INTO network_voucher_box_images (box_id, position, url) VALUES (?, 2, 'https://x/2.png') RETURNING id`, f.box)
	f.id(t, "UPDATE network_voucher_boxes SET price_range_id = ?, weight = 450, nb_mpo_orders = 3 WHERE id = ? RETURNING id", rangeID, f.box)
	second := f.newBox(t, f.market, 0)
	rival := f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Rival', true) RETURNING id`)
	rivalBox := f.newBox(t, rival, 0)

	page := domain.PageRequest{Number: 1, Size: 1}
	boxes, err := f.svc.Boxes(f.asReader, page)
	if err != nil || boxes.Count != 2 || len(boxes.Items) != 1 || boxes.Items[0].ID != f.box {
		t.Fatalf("boxes = %+v, %v", boxes, err)
	}
	b := boxes.Items[0]
	if b.PriceRange == nil || b.PriceRange.ID != rangeID || b.PriceRange.Name["fr"] != "Moins de 100 €" || b.Weight != 450 ||
		b.NbMPOOrders != 3 || b.MaxUsages != 3 || b.Price.String() != "89.9" || b.Name["en"] != "Box" {
		t.Errorf("box = %+v", b)
	}
	if len(b.Images) != 1 || b.Images[0].ID != image || !b.Images[0].Cover || b.Images[0].Media.ID != media || b.Images[0].Media.Size != 1234 {
		t.Errorf("images = %+v (only the media)", b.Images)
	}
	if len(b.AllowedPartners) != 1 || b.AllowedPartners[0].ID != f.member || *b.AllowedPartners[0].SourceID != "42" ||
		b.AllowedPartners[0].AgencyName != "Member Agency" {
		t.Errorf("allowed partners = %+v (the network partner with a validated offer)", b.AllowedPartners)
	}
	if len(b.Products) != 1 || b.Products[0].ID != product || *b.Products[0].PriceRangeID != rangeID {
		t.Errorf("products = %+v", b.Products)
	}
	if next, err := f.svc.Boxes(f.asReader, domain.PageRequest{Number: 2, Size: 1}); err != nil || next.Items[0].ID != second {
		t.Errorf("page 2 = %+v, %v", next, err)
	}
	_, err = f.svc.Boxes(f.asReader, domain.PageRequest{Number: 3, Size: 1})
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if all, err := f.svc.Boxes(dbtest.AsStaff(), domain.PageRequest{Number: 1, Size: 10}); err != nil || all.Count != 3 {
		t.Errorf("staff boxes = %+v, %v", all, err)
	}
	if got, err := f.svc.Box(f.asReader, second); err != nil || got.ID != second || len(got.AllowedPartners) != 1 {
		t.Errorf("box = %+v, %v", got, err)
	}
	_, err = f.svc.Box(f.asReader, rivalBox)
	dbtest.WantCode(t, err, domain.CodeNotFound)

	f.id(t, "UPDATE box_offers SET ranking = 0, name = '{\"fr\": \"Dîner\"}', product_id = ? WHERE box_id = ? AND partner_id = ? RETURNING id",
		product, f.box, f.outsider)
	offers, err := f.svc.BoxOffers(f.asReader, f.box, domain.PageRequest{Number: 1, Size: 10})
	if err != nil || offers.Count != 3 || offers.Items[0].PartnerID != f.outsider || offers.Items[0].Name["fr"] != "Dîner" ||
		*offers.Items[0].ProductID != product || offers.Items[2].Status != "DRAFT" {
		t.Errorf("offers = %+v, %v (by ranking, every status)", offers, err)
	}
	_, err = f.svc.BoxOffers(f.asReader, rivalBox, domain.PageRequest{Number: 1, Size: 10})
	dbtest.WantCode(t, err, domain.CodeNotFound)

	universe := f.id(t, `INSERT INTO universes (name) VALUES ('{"fr": "Loisirs", "en": "Leisure"}') RETURNING id`)
	child := f.id(t, `INSERT INTO universes (parent_id, name) VALUES (?, '{"fr": "Châteaux"}') RETURNING id`, universe)
	f.id(t, "INSERT INTO network_voucher_box_universes (box_id, universe_id) VALUES (?, ?), (?, ?) RETURNING box_id", f.box, child, f.box, universe)
	v := f.voucher(t, "NV-READ-0001", f.box, "paid", 3, "2027-01-01T00:00:00Z")
	f.id(t, `UPDATE network_vouchers SET gifter_email = 'Anne@Example.com', giftee_email = 'bob@example.com', language = 'en'
		WHERE id = ? RETURNING id`, v.ID)
	w := f.voucher(t, "NV-READ-0002", second, "paid", 1, "")
	f.id(t, `UPDATE network_vouchers SET giftee_email = 'anne@example.com' WHERE id = ? RETURNING id`, w.ID)
	rv := f.voucher(t, "NV-RIVAL-001", rivalBox, "paid", 1, "")
	f.id(t, `UPDATE network_vouchers SET gifter_email = 'anne@example.com' WHERE id = ? RETURNING id`, rv.ID)

	got, err := f.svc.NetworkVoucherByCode(f.asReader, "nv-read-0001")
	if err != nil || got.ID != v.ID || got.Box.Price.String() != "89.9" || got.Text(got.Box.Name) != "Box" ||
		len(got.Box.Universes) != 2 || got.Text(got.Box.Universes[0][0]) != "Leisure" ||
		len(got.Box.Universes[1]) != 2 || got.Text(got.Box.Universes[1][1]) != "Châteaux" {
		t.Errorf("voucher = %+v, %v", got, err)
	}
	_, err = f.svc.NetworkVoucherByCode(f.asReader, rv.Code)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	byMail, err := f.svc.NetworkVouchersByEmail(f.asReader, "ANNE@example.COM", domain.PageRequest{Number: 1, Size: 10})
	if err != nil || byMail.Count != 2 || byMail.Items[0].ID != v.ID || byMail.Items[1].ID != w.ID {
		t.Errorf("by e-mail = %+v, %v (gifter or giftee, not the rival's)", byMail, err)
	}
	_, err = f.svc.NetworkVouchersByEmail(f.asReader, strings.Repeat("a", 250)+"@x.io", domain.PageRequest{Number: 1, Size: 10})
	wantField(t, err, "email", "254 characters")

	for _, day := range []string{"2026-11-24", "2026-11-25"} {
		if _, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, day)); err != nil {
			t.Fatal(err)
		}
	}
	usages, err := f.svc.UsagesByCode(f.asReader, v.Code, domain.PageRequest{Number: 2, Size: 1})
	if err != nil || usages.Count != 2 || len(usages.Items) != 1 || !usages.Items[0].CreationDate.Equal(time.Date(2026, 11, 25, 11, 0, 0, 0, time.UTC)) ||
		usages.Items[0].PartnerAgencyName != "Member Agency" {
		t.Errorf("usages page 2 = %+v, %v", usages, err)
	}
	_, err = f.svc.UsagesByCode(f.asReader, rv.Code, domain.PageRequest{Number: 1, Size: 1})
	dbtest.WantCode(t, err, domain.CodeNotFound)
}

// Network vouchers are their box's marketplace's (and staff's): another
// marketplace finds none of its boxes, vouchers or usages, a member
// without use_voucher reads but neither uses nor cancels, and nothing
// moves.
func TestNetworkVoucherIsolation(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 4)
	v := f.voucher(t, "NV-ISO-0001", f.box, "paid", 3, "")
	u, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-24"))
	if err != nil {
		t.Fatal(err)
	}
	rival := f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Rival', true) RETURNING id`)
	// The rival's network has the member too, with the same source id.
	f.id(t, `INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, '42') RETURNING partner_id`, rival, f.member)
	asRival := f.as(t, "rival-user", rival, false, domain.PermUseVoucher)
	page := domain.PageRequest{Number: 1, Size: 10}

	boxes, err := f.svc.Boxes(asRival, page)
	if err != nil || boxes.Count != 0 {
		t.Errorf("rival boxes = %+v, %v", boxes, err)
	}
	_, err = f.svc.Box(asRival, f.box)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.BoxOffers(asRival, f.box, page)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.NetworkVoucherByCode(asRival, v.Code)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.UsagesByCode(asRival, v.Code, page)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.RecordUsage(asRival, bySource(v.Code, 42, "2026-11-24"))
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.CancelUsage(asRival, network.CancelUsageInput{ID: u.ID})
	dbtest.WantCode(t, err, domain.CodeNotFound)

	if _, err := f.svc.NetworkVoucherByCode(f.asReader, v.Code); err != nil {
		t.Errorf("a member without use_voucher reads: %v", err)
	}
	_, err = f.svc.RecordUsage(f.asReader, bySource(v.Code, 42, "2026-11-24"))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.CancelUsage(f.asReader, network.CancelUsageInput{ID: u.ID})
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.Boxes(context.Background(), page)
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	_, err = f.svc.RecordUsage(context.Background(), bySource(v.Code, 42, "2026-11-24"))
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	if c, l, a := f.counts(t, v.ID); c != 1 || l != 1 || a != 1 {
		t.Errorf("after the refusals: count %d, ledger %d, active %d; want 1", c, l, a)
	}

	// Staff reach any marketplace's vouchers.
	asStaff := f.as(t, "staff-user", 0, true)
	if c, err := f.svc.CancelUsage(asStaff, network.CancelUsageInput{ID: u.ID}); err != nil || c.IsActive || c.MarketplaceID != f.market {
		t.Errorf("staff cancel = %+v, %v", c, err)
	}
	if _, err := f.svc.RecordUsage(asStaff, byID(v.Code, f.member, "2026-11-24")); err != nil {
		t.Errorf("staff usage: %v", err)
	}
}

// A usage under an idempotency key is recorded once: a repeat replays it,
// another body under the key is refused.
func TestRecordUsageIdempotent(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 4)
	v := f.voucher(t, "NV-IDEM-0001", f.box, "paid", 3, "")
	ctx, err := idempotency.WithKey(f.asMarket, "usage-1")
	if err != nil {
		t.Fatal(err)
	}
	first, err := f.svc.RecordUsage(ctx, bySource(v.Code, 42, "2026-11-24"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, _ = idempotency.WithKey(f.asMarket, "usage-1")
	again, err := f.svc.RecordUsage(ctx, bySource(v.Code, 42, "2026-11-24"))
	if err != nil || again.ID != first.ID || !idempotency.Replayed(ctx) {
		t.Fatalf("repeat = %+v, %v (replayed %v); want usage %d again", again, err, idempotency.Replayed(ctx), first.ID)
	}
	if count, ledger, active := f.counts(t, v.ID); count != 1 || ledger != 1 || active != 1 {
		t.Errorf("count %d, ledger %d, active %d after a repeat; want 1", count, ledger, active)
	}
	ctx, _ = idempotency.WithKey(f.asMarket, "usage-1")
	_, err = f.svc.RecordUsage(ctx, bySource(v.Code, 42, "2026-11-25"))
	dbtest.WantCode(t, err, domain.CodeUnprocessable)
}

// A network partner whose status is i takes no voucher usage.
func TestRecordUsageAtInactivePartner(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 4)
	v := f.voucher(t, "NV-INACTIVE-01", f.box, "paid", 3, "")
	f.id(t, "UPDATE partners SET status = 'i' WHERE id = ? RETURNING id", f.member)
	_, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-24"))
	wantField(t, err, "partner_source_id", network.MsgPartnerInactive)
	if count, ledger, _ := f.counts(t, v.ID); count != 0 || ledger != 0 {
		t.Errorf("count %d, ledger %d after a refusal", count, ledger)
	}
}
