package demo

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/dbtest"
)

// The network part is loaded as network.json says: partners with their
// source ids, company records, settings and status; offers; cards whose
// remaining value is what their usages and holds left and the sum of
// their ledger; vouchers whose usage count is their active usages and
// the sum of theirs; the usages in a payout.
func TestLoadNetwork(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := mustData(t)
	db := dbtest.New(t)
	if out, err := load(t, db, t.TempDir()); err != nil {
		t.Fatalf("%v\noutput:\n%s", err, out)
	}
	stores := persistence.NetworkStores(db)
	partnerID := func(t *testing.T, domainName string) int64 {
		t.Helper()
		var id int64
		if err := db.NewRaw("SELECT id FROM partners WHERE site_domain = ?", domainName).Scan(ctx, &id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	market := func(key string) int64 { return partnerID(t, data.Partner(key).Domain) }
	networkID := func(t *testing.T, p *NetworkPartner) int64 {
		t.Helper()
		id, err := stores.Partners.NetworkPartnerBySourceID(ctx, market(p.Marketplace), p.SourceID)
		if err != nil {
			t.Fatalf("network partner %s: %v", p.Key, err)
		}
		return id
	}

	t.Run("Partners", func(t *testing.T) {
		for _, d := range data.NetworkPartners {
			p, err := stores.Partners.FindNetworkPartner(ctx, market(d.Marketplace), networkID(t, &d))
			if err != nil {
				t.Fatal(err)
			}
			status := domain.PartnerStatusNetwork
			if d.Inactive {
				status = domain.PartnerStatusInactive
			}
			var referrer *int64
			if d.Referrer != "" {
				id := networkID(t, data.NetworkPartner(d.Referrer))
				referrer = &id
			}
			if p.Name != d.Name || p.Status != status || p.SiretNumber != d.Company.Siret || p.HQCity != d.Company.City ||
				p.AgencyEmail != d.Company.Email || !slices.Equal(p.Tags, d.Tags) || p.LinkedToNGCSettings != d.NetworkGiftcards ||
				p.LinkedToNVSettings != d.NetworkVouchers || !reflect.DeepEqual(p.ReferrerID, referrer) {
				t.Errorf("network partner %s: %+v", d.Key, p)
			}
		}
	})

	t.Run("BoxOffers", func(t *testing.T) {
		for _, o := range data.BoxOffers {
			var status string
			err := db.NewRaw(`SELECT o.status FROM box_offers o JOIN network_voucher_boxes b ON b.id = o.box_id
				WHERE b.name->>'en' = ? AND o.partner_id = ?`, data.box(o.Box).Name["en"],
				networkID(t, data.NetworkPartner(o.Partner))).Scan(ctx, &status)
			if err != nil || status != o.Status {
				t.Errorf("offer of %s in %s: %q, %v; want %s", o.Partner, o.Box, status, err, o.Status)
			}
		}
	})

	t.Run("Giftcards", func(t *testing.T) {
		statuses := map[string]bool{}
		for _, d := range data.NetworkGiftcards {
			if data.paysHub(d.Code) { // TestLoadPayments checks it
				continue
			}
			card, err := stores.Giftcards.GiftcardByCode(ctx, d.Code, nil)
			if err != nil {
				t.Fatalf("%s: %v", d.Code, err)
			}
			statuses[card.Status] = true
			var ledger decimal.Decimal
			var usages, active, inPayout, held, captured, released int
			err = db.NewRaw(`SELECT (SELECT sum(amount) FROM network_giftcard_movements WHERE network_giftcard_id = g.id),
					(SELECT count(*) FROM network_giftcard_usages u WHERE u.network_giftcard_id = g.id),
					(SELECT count(*) FROM network_giftcard_usages u WHERE u.network_giftcard_id = g.id AND u.is_active),
					(SELECT count(*) FROM network_giftcard_usages u WHERE u.network_giftcard_id = g.id AND u.payout_id IS NOT NULL
						AND EXISTS (SELECT 1 FROM network_giftcard_movements m WHERE m.usage_id = u.id AND m.payout_id = u.payout_id)),
					(SELECT count(*) FROM network_giftcard_holds h WHERE h.network_giftcard_id = g.id AND h.status = 'held'),
					(SELECT count(*) FROM network_giftcard_holds h WHERE h.network_giftcard_id = g.id AND h.status = 'captured'),
					(SELECT count(*) FROM network_giftcard_holds h WHERE h.network_giftcard_id = g.id AND h.status = 'released')
				FROM network_giftcards g WHERE g.id = ?`, card.ID).
				Scan(ctx, &ledger, &usages, &active, &inPayout, &held, &captured, &released)
			if err != nil {
				t.Fatal(err)
			}
			var wantActive, wantPayout, wantHeld, wantCaptured, wantReleased int
			for _, u := range d.Usages {
				if !u.Cancelled {
					wantActive++
				}
			}
			for _, h := range d.Holds {
				switch h.End {
				case "":
					wantHeld++
				case HoldCapture:
					wantCaptured++
				case HoldRelease:
					wantReleased++
				}
			}
			if card.Status != d.FinalStatus() || !card.RemainingValue.Equal(d.Remaining()) || !ledger.Equal(card.RemainingValue) ||
				card.Gifter.Email != d.Gifter.Email || (card.Giftee != nil) != (d.Giftee != nil) || card.Language != d.Language ||
				usages != len(d.Usages)+wantCaptured || active != wantActive+wantCaptured || inPayout != wantPayout ||
				held != wantHeld || captured != wantCaptured || released != wantReleased {
				t.Errorf("%s: status %s, remaining %s, ledger %s, %d usages (%d active, %d in a payout), holds %d/%d/%d; want %s, %s",
					d.Code, card.Status, card.RemainingValue, ledger, usages, active, inPayout, held, captured, released,
					d.FinalStatus(), d.Remaining())
			}
		}
		for _, s := range []string{"draft", "paid", "cncld", "using", "test"} {
			if !statuses[s] {
				t.Errorf("no network giftcard in status %s: %v", s, statuses)
			}
		}
	})

	t.Run("Vouchers", func(t *testing.T) {
		for _, d := range data.NetworkVouchers {
			var status string
			var count, ledger, usages, inPayout int
			err := db.NewRaw(`SELECT v.status, v.usage_count,
					(SELECT coalesce(sum(count), 0) FROM network_voucher_movements m WHERE m.network_voucher_id = v.id),
					(SELECT count(*) FROM network_voucher_usages u WHERE u.network_voucher_id = v.id),
					(SELECT count(*) FROM network_voucher_usages u WHERE u.network_voucher_id = v.id AND u.payout_id IS NOT NULL)
				FROM network_vouchers v WHERE v.code = ?`, d.Code).Scan(ctx, &status, &count, &ledger, &usages, &inPayout)
			if err != nil {
				t.Fatalf("%s: %v", d.Code, err)
			}
			wantPayout := 0
			for _, u := range d.Usages {
				if u.Payout != 0 {
					wantPayout++
				}
			}
			if status != d.FinalStatus() || count != d.UsageCount() || ledger != count || usages != len(d.Usages) || inPayout != wantPayout {
				t.Errorf("%s: status %s, count %d, ledger %d, %d usages (%d in a payout)", d.Code, status, count, ledger, usages, inPayout)
			}
		}
	})

	t.Run("MarketplacePermissions", func(t *testing.T) {
		var perms []string
		err := db.NewRaw(`SELECT p.name FROM permissions p JOIN user_permissions up ON up.permission_id = p.id
			JOIN users u ON u.id = up.user_id WHERE u.username = ? ORDER BY p.name`, "demo-market").Scan(ctx, &perms)
		// It refers the payment-hub partner: its refunds' permissions too.
		want := slices.Concat(data.PartnerPermissions, data.MarketplacePermissions, data.ReferrerPermissions)
		slices.Sort(want)
		if err != nil || !slices.Equal(perms, want) {
			t.Errorf("permissions of demo-market: %v, %v; want %v", perms, err, want)
		}
	})
}

// loadWithoutNetwork loads the demo accounts, catalogue and administration
// part in tx, as a seed written before the network part existed did.
func loadWithoutNetwork(ctx context.Context, tx bun.Tx, blobs domain.BlobStore) error {
	data, err := Data()
	if err != nil {
		return err
	}
	accounts, err := loadAccounts(ctx, tx, data, dbtest.CheapHashing, &strings.Builder{})
	if err != nil {
		return err
	}
	partners := map[string]*domain.Partner{}
	for _, a := range accounts {
		partners[a.Key] = a.Partner
	}
	if _, err := loadStaff(ctx, tx, data.Staff, dbtest.CheapHashing, &strings.Builder{}); err != nil {
		return err
	}
	staff, err := persistence.NewDatabase(tx).Stores().Users.FindUserByUsername(ctx, data.Staff.Username)
	if err != nil {
		return err
	}
	if err := newCatalogueLoader(ctx, tx, data, partners, staff, time.Now()).load(ctx); err != nil {
		return err
	}
	a, err := newAdminLoader(ctx, tx, data, blobs, partners, time.Now(), "http://demo.test")
	if err != nil {
		return err
	}
	return a.load(ctx)
}

// A database seeded before the network part existed gets it on the next
// run, the rest untouched.
func TestLoadAddsNetworkToAnEarlierSeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := dbtest.New(t)
	dir := t.TempDir()
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return loadWithoutNetwork(ctx, tx, blobstore.NewLocal(dir))
	})
	if err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	if before["network_giftcard_usages"] != 0 || before["partner_tags"] != 0 {
		t.Fatalf("the earlier seed has network records: %v", before)
	}

	out, err := load(t, db, dir)
	if err != nil || !strings.Contains(out, "The demo catalogue is already loaded: nothing changed.") ||
		!strings.Contains(out, "The demo administration data is already loaded: nothing changed.") ||
		!strings.Contains(out, "Loaded the demo network data:") {
		t.Fatalf("%v\noutput:\n%s", err, out)
	}
	after := counts(t, db)
	for _, table := range []string{"events", "workshops", "vouchers", "giftcards", "media", "network_voucher_boxes"} {
		if after[table] != before[table] {
			t.Errorf("%s: %d rows, had %d", table, after[table], before[table])
		}
	}
	// The shops, loaded after the network, bring their coupons.
	shopCoupons := 0
	for _, s := range mustData(t).Shops {
		shopCoupons += len(s.Coupons)
	}
	if after["coupons"] != before["coupons"]+shopCoupons {
		t.Errorf("coupons: %d rows, had %d", after["coupons"], before["coupons"])
	}
	// The payment-hub partners join their referrer's network.
	if after["network_partners"] != before["network_partners"]+len(mustData(t).NetworkPartners)+len(mustData(t).PaymentPartners) {
		t.Errorf("network partners %d → %d", before["network_partners"], after["network_partners"])
	}
}

// A network partner of the dataset's source id that is not the demo's is
// refused, and nothing is loaded.
func TestLoadErrSourceIDOfAnotherPartner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := mustData(t)
	db := dbtest.New(t)
	dir := t.TempDir()
	if out, err := load(t, db, dir); err != nil {
		t.Fatalf("%v\noutput:\n%s", err, out)
	}
	first := data.NetworkPartners[0]
	if _, err := db.NewRaw("UPDATE partners SET name = 'Someone else' WHERE id = (SELECT partner_id FROM network_partners WHERE source_id = ?)",
		first.SourceID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	out, err := load(t, db, dir)
	if err == nil || !strings.Contains(err.Error(), "the source id "+first.SourceID+" of market.localhost's network names \"Someone else\"") {
		t.Fatalf("%v\noutput:\n%s", err, out)
	}
	if after := counts(t, db); !reflect.DeepEqual(after, before) {
		t.Errorf("a refused load wrote rows:\nbefore %v\nafter  %v", before, after)
	}
}
