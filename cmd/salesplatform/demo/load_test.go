package demo

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/gifts"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/dbtest"
)

// countedTables are the tables whose row counts show whether a run loaded
// anything.
var countedTables = []string{
	"partners", "users", "api_tokens", "network_partners", "partner_labels", "universes", "themes",
	"voucher_prototypes", "giftcard_prototypes", "events", "event_slots", "event_formulas", "workshop_levels",
	"workshops", "workshop_sessions", "network_voucher_boxes", "box_offers", "gift_codes", "marketing_widgets",
	"user_permissions", "environments", "media", "voucher_prototype_images", "option_categories", "options",
	"option_services", "voucher_prototype_options", "coupons", "customers", "vouchers", "voucher_options",
	"voucher_state_changes", "giftcards", "partner_legal_information", "partner_tags", "network_giftcard_allowed_partners",
	"network_voucher_allowed_partners", "network_giftcards", "network_giftcard_usages", "network_giftcard_movements",
	"network_giftcard_holds", "network_vouchers", "network_voucher_usages", "network_voucher_movements",
	"payment_partners", "payment_partner_activations", "payments", "payment_transactions", "payment_refunds",
	"wallets", "wallet_movements", "payout_requests", "payment_requests",
}

func counts(t *testing.T, db *bun.DB) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, table := range countedTables {
		var n int
		if err := db.NewRaw("SELECT count(*) FROM ?", bun.Ident(table)).Scan(context.Background(), &n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		counts[table] = n
	}
	return counts
}

// tokenLine is a last line of a first run: a demo user and its token.
var tokenLine = regexp.MustCompile(`^(demo-[a-z]+) ([0-9a-f]{40})$`)

// load runs Load on db with media files under dir and returns its output.
func load(t *testing.T, db *bun.DB, dir string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := Load(context.Background(), db, blobstore.NewLocal(dir), dbtest.CheapHashing, time.Now(), "http://demo.test", &out)
	return out.String(), err
}

func mustData(t *testing.T) *Dataset {
	t.Helper()
	d, err := Data()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A first run loads every table and prints the new users' tokens last; a
// second changes nothing and says so.
func TestLoadTwice(t *testing.T) {
	t.Parallel()
	data := mustData(t)
	db := dbtest.New(t)
	dir := t.TempDir()
	out, err := load(t, db, dir)
	if err != nil {
		t.Fatalf("first run: %v\noutput:\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	tokens := map[string]string{}
	for _, line := range lines[len(lines)-len(data.Partners)-1:] {
		m := tokenLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q is not \"username token\"; output:\n%s", line, out)
		}
		tokens[m[1]] = m[2]
	}
	if len(tokens) != len(data.Partners)+1 || tokens[data.Staff.Username] == "" ||
		!strings.Contains(out, "Loaded the demo catalogue:") || !strings.Contains(out, "Loaded the demo administration data:") ||
		!strings.Contains(out, "Loaded the demo network data:") {
		t.Fatalf("first run's output:\n%s", out)
	}
	first := counts(t, db)
	for _, table := range countedTables {
		if first[table] == 0 {
			t.Errorf("the first run loaded no %s", table)
		}
	}
	if n := countFiles(t, dir); n != first["media"] {
		t.Errorf("%d media files for %d media", n, first["media"])
	}

	out, err = load(t, db, dir)
	if err != nil {
		t.Fatalf("second run: %v\noutput:\n%s", err, out)
	}
	if !strings.Contains(out, "The demo catalogue is already loaded: nothing changed.") ||
		!strings.Contains(out, "The demo administration data is already loaded: nothing changed.") ||
		!strings.Contains(out, "The demo network data is already loaded: nothing changed.") ||
		!strings.Contains(out, "  DEMO-NGC-USING       using  44.50 of 200.00") ||
		!strings.Contains(out, `"username": "demo-chateau", "password": "chateau-demo-password"`) {
		t.Errorf("second run's output:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if tokenLine.MatchString(line) {
			t.Errorf("second run printed a token: %q", line)
		}
	}
	if second := counts(t, db); !reflect.DeepEqual(second, first) {
		t.Errorf("row counts changed:\nafter the first run  %v\nafter the second run %v", first, second)
	}
}

// loadCatalogueOnly loads the demo accounts and catalogue in tx without the
// administration part, as a seed written before that part existed did.
func loadCatalogueOnly(ctx context.Context, tx bun.Tx) error {
	data, err := Data()
	if err != nil {
		return err
	}
	accounts, err := loadAccounts(ctx, tx, data, dbtest.CheapHashing, io.Discard)
	if err != nil {
		return err
	}
	partners := map[string]*domain.Partner{}
	for _, a := range accounts {
		partners[a.Key] = a.Partner
	}
	// The demo staff user came with the administration part: the calls
	// are those of a staff user that is not stored.
	staff := &domain.User{Username: "staff", IsStaff: true, IsActive: true}
	return newCatalogueLoader(ctx, tx, data, partners, staff, time.Now()).load(ctx)
}

// A database seeded before the administration part existed (accounts and
// catalogue only) gets it on the next run, the catalogue untouched.
func TestLoadAddsAdministrationToAnEarlierSeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := dbtest.New(t)
	if err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error { return loadCatalogueOnly(ctx, tx) }); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)

	out, err := load(t, db, t.TempDir())
	if err != nil || !strings.Contains(out, "The demo catalogue is already loaded: nothing changed.") ||
		!strings.Contains(out, "Loaded the demo administration data:") || !strings.Contains(out, "Created staff user demo-staff") {
		t.Fatalf("%v\noutput:\n%s", err, out)
	}
	after := counts(t, db)
	for _, table := range []string{"events", "workshops", "giftcard_prototypes", "network_voucher_boxes", "marketing_widgets"} {
		if after[table] != before[table] {
			t.Errorf("%s: %d rows, had %d", table, after[table], before[table])
		}
	}
	// The catalogue's prototypes are upgraded in place; only the new stay is added.
	if after["voucher_prototypes"] != before["voucher_prototypes"]+1 || after["vouchers"] <= before["vouchers"] {
		t.Errorf("voucher prototypes %d → %d, vouchers %d → %d", before["voucher_prototypes"], after["voucher_prototypes"],
			before["vouchers"], after["vouchers"])
	}
}

// A load that fails after the media were uploaded leaves no blob behind:
// here issuing giftcards with a gifter (the catalogue's have none) is
// refused by a trigger.
func TestLoadFailureDeletesTheBlobs(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	if _, err := db.ExecContext(context.Background(), `CREATE FUNCTION refuse_giftcards() RETURNS trigger LANGUAGE plpgsql AS
			$$ BEGIN RAISE EXCEPTION 'giftcards are closed'; END $$;
		CREATE TRIGGER refuse_giftcards BEFORE INSERT ON giftcards FOR EACH ROW
			WHEN (NEW.gifter_first_name <> '') EXECUTE FUNCTION refuse_giftcards();`); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	dir := t.TempDir()
	out, err := load(t, db, dir)
	if err == nil || !strings.Contains(err.Error(), "giftcard of Claire Fontaine") || !strings.Contains(err.Error(), "giftcards are closed") ||
		!strings.Contains(err.Error(), "none of it was saved") || out != "" {
		t.Fatalf("%v\noutput:\n%s", err, out)
	}
	if n := countFiles(t, dir); n != 0 {
		t.Errorf("%d media files left by a failed load", n)
	}
	if after := counts(t, db); !reflect.DeepEqual(after, before) {
		t.Errorf("a failed load wrote rows:\nbefore %v\nafter  %v", before, after)
	}
}

// A failure while loading leaves nothing, not even the demo accounts: here
// a gift code of the dataset is already taken by another partner's gift.
// Once the conflict is gone a run loads everything.
func TestLoadErrConflictLoadsNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := mustData(t)
	database, db := dbtest.NewDatabase(t)
	other := dbtest.MustAccount(t, account.NewAccountService(database, nil, nil),
		account.NewAccountInput{Username: "other", Password: "other-password", PartnerName: "Other"})
	proto := &catalogue.VoucherPrototype{PartnerID: other.Partner.ID, Name: domain.Localized{"fr": "Autre"}}
	if err := persistence.NewPrototypeStore(db).CreateVoucherPrototype(ctx, proto); err != nil {
		t.Fatal(err)
	}
	taken := data.Gifts[len(data.Gifts)-1].Code // the last record of the catalogue
	if err := persistence.NewGiftStore(db).CreateVoucher(ctx, &gifts.Voucher{Code: taken, VoucherPrototypeID: proto.ID}); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)

	dir := t.TempDir()
	out, err := load(t, db, dir)
	if err == nil || !strings.Contains(err.Error(), "gift "+taken+": code: A gift with this code already exists.") {
		t.Fatalf("%v\noutput:\n%s", err, out)
	}
	if strings.Contains(out, "Created user") {
		t.Errorf("a failed run reports accounts it did not keep:\n%s", out)
	}
	for table, n := range counts(t, db) {
		if n != before[table] {
			t.Errorf("%s: %d rows after a failed load, had %d", table, n, before[table])
		}
	}

	if _, err := db.ExecContext(ctx, "DELETE FROM vouchers WHERE code = ?", taken); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM gift_codes WHERE code = ?", taken); err != nil {
		t.Fatal(err)
	}
	out, err = load(t, db, dir)
	if err != nil || !strings.Contains(out, "Created user demo-market") || !strings.Contains(out, "Loaded the demo catalogue:") {
		t.Fatalf("run after the conflict: %v\noutput:\n%s", err, out)
	}
}

// countFiles counts the regular files under dir (0 when it does not exist).
func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.SkipDir
		}
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}
