package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io/fs"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"salesplatform/cmd/salesplatform/app"

	"salesplatform/cmd/salesplatform/e2e"
	"salesplatform/domain/catalogue"

	"salesplatform/domain/gifts"

	"salesplatform/domain/vouchers"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// seedCountedTables are the tables whose row counts show whether a run
// loaded anything.
var seedCountedTables = []string{
	"partners", "users", "api_tokens", "network_partners", "partner_labels", "universes", "themes",
	"voucher_prototypes", "giftcard_prototypes", "events", "event_slots", "event_formulas", "workshop_levels",
	"workshops", "workshop_sessions", "network_voucher_boxes", "box_offers", "gift_codes", "marketing_widgets",
	"user_permissions", "environments", "media", "voucher_prototype_images", "option_categories", "options",
	"option_services", "voucher_prototype_options", "coupons", "customers", "vouchers", "voucher_options",
	"voucher_state_changes", "giftcards",
}

func seedCounts(t *testing.T, db *bun.DB) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, table := range seedCountedTables {
		var n int
		if err := db.NewRaw("SELECT count(*) FROM ?", bun.Ident(table)).Scan(context.Background(), &n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		counts[table] = n
	}
	return counts
}

// seedTokenLine is a last line of a first run: a demo user and its token.
var seedTokenLine = regexp.MustCompile(`^(demo-[a-z]+) ([0-9a-f]{40})$`)

func TestSeedDemo(t *testing.T) {
	dsn := dbtest.NewDSN(t)
	db := e2e.OpenDB(t, dsn)
	dataDir := t.TempDir()

	code, out, errOut := e2e.RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", dataDir)
	if code != 0 {
		t.Fatalf("first run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	tokens := map[string]string{}
	for _, line := range lines[len(lines)-len(app.DemoPartners)-1:] {
		m := seedTokenLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q is not \"username token\"; stdout:\n%s", line, out)
		}
		tokens[m[1]] = m[2]
	}
	if len(tokens) != len(app.DemoPartners)+1 || tokens[app.DemoStaff.Username] == "" ||
		!strings.Contains(out, "Loaded the demo catalogue:") || !strings.Contains(out, "Loaded the demo administration data:") {
		t.Fatalf("first run's stdout:\n%s", out)
	}
	first := seedCounts(t, db)
	for _, table := range seedCountedTables {
		if first[table] == 0 {
			t.Errorf("the first run loaded no %s", table)
		}
	}

	t.Run("SecondRunLoadsNothing", func(t *testing.T) {
		code, out, errOut := e2e.RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", dataDir)
		if code != 0 {
			t.Fatalf("second run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
		if !strings.Contains(out, "The demo catalogue is already loaded: nothing changed.") ||
			!strings.Contains(out, "The demo administration data is already loaded: nothing changed.") ||
			!strings.Contains(out, `"username": "demo-chateau", "password": "chateau-demo-password"`) {
			t.Errorf("second run's stdout:\n%s", out)
		}
		for _, line := range strings.Split(out, "\n") {
			if seedTokenLine.MatchString(line) {
				t.Errorf("second run printed a token: %q", line)
			}
		}
		if second := seedCounts(t, db); !reflect.DeepEqual(second, first) {
			t.Errorf("row counts changed:\nafter the first run  %v\nafter the second run %v", first, second)
		}
	})

	srv := e2e.Serve(t, dsn, "--data-dir", dataDir)
	get := func(t *testing.T, path, partnerDomain string) map[string]any {
		t.Helper()
		res := e2e.Do(t, "GET", srv.URL+path, "", "X-Partner-Domain", partnerDomain)
		if res.Status != 200 {
			t.Fatalf("GET %s (%s): status %d, body %s", path, partnerDomain, res.Status, res.Body)
		}
		return res.JSON(t)
	}

	t.Run("PartnersOfTheMarketplace", func(t *testing.T) {
		page := get(t, "/api/v2/partners/", "market.localhost")
		results, _ := page["results"].([]any)
		if page["count"] != float64(2) || len(results) != 2 {
			t.Fatalf("partners of market.localhost: %v", page)
		}
		for _, r := range results {
			p := r.(map[string]any)
			for _, field := range []string{"description", "managers", "nearby", "practical_information", "access", "commercial_description"} {
				wantEightLanguages(t, fmt.Sprintf("partner %v %s", p["name"], field), p[field])
			}
			if labels, _ := p["label_and_network"].([]any); len(labels) == 0 {
				t.Errorf("partner %v has no labels", p["name"])
			}
		}
	})

	t.Run("EventSlots", func(t *testing.T) {
		page := get(t, "/api/v2/event_slots/", "chateau.localhost")
		results, _ := page["results"].([]any)
		if len(results) == 0 {
			t.Fatalf("no event slots: %v", page)
		}
		slot := results[0].(map[string]any)
		wantEightLanguages(t, "slot name", slot["name"])
		wantEightLanguages(t, "slot description", slot["description"])
		wantEightLanguages(t, "slot price", slot["price_formatted"])
	})

	t.Run("WorkshopSessions", func(t *testing.T) {
		page := get(t, "/api/v2/workshop_sessions/", "atelier.localhost")
		if results, _ := page["results"].([]any); len(results) == 0 {
			t.Fatalf("no workshop sessions: %v", page)
		}
	})

	t.Run("Boxes", func(t *testing.T) {
		page := get(t, "/api/v2/network_vouchers/boxes/", "market.localhost")
		results, _ := page["results"].([]any)
		if page["count"] != float64(len(app.DemoBoxes)) {
			t.Fatalf("boxes: %v", page)
		}
		wantEightLanguages(t, "box name", results[0].(map[string]any)["name"])
	})

	t.Run("GiftCodes", func(t *testing.T) {
		for _, g := range app.DemoGifts {
			gift := get(t, "/api/v2/gift/"+g.Code+"/", app.DemoSeller(g).Domain)
			if gift["code"] != g.Code || gift["type"] != string(g.Kind) || gift["usable"] != true {
				t.Errorf("gift %s: %v", g.Code, gift)
			}
		}
		linked := get(t, "/api/v2/gift/DEMO-NETWORK-GIFTCARD-1/linked_partners/", "market.localhost")
		if partners, _ := linked["partners"].([]any); len(partners) != 2 {
			t.Errorf("partners taking DEMO-NETWORK-GIFTCARD-1: %v", linked)
		}
	})

	t.Run("Widgets", func(t *testing.T) {
		for _, p := range app.DemoPartners {
			res := e2e.Do(t, "GET", srv.URL+"/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
			if res.Status != 200 || res.JSON(t)["purchase_url"] != "https://"+p.Domain+"/" {
				t.Errorf("widgets of %s: status %d, body %s", p.Domain, res.Status, res.Body)
			}
		}
	})

	t.Run("TokensAndPasswords", func(t *testing.T) {
		for _, p := range app.DemoPartners {
			res := e2e.Do(t, "GET", srv.URL+"/api/v2/partners/me/", "", "Authorization", "Token "+tokens[p.Username])
			if res.Status != 200 || res.JSON(t)["name"] != p.Name {
				t.Errorf("partners/me with the token of %s: status %d, body %s", p.Username, res.Status, res.Body)
			}
			body := fmt.Sprintf(`{"username": %q, "password": %q}`, p.Username, p.Password)
			if res := e2e.Do(t, "POST", srv.URL+"/api-token-auth/", body); res.Status != 200 {
				t.Errorf("login of %s: status %d, body %s", p.Username, res.Status, res.Body)
			}
		}
	})

	t.Run("AdministrationTokens", func(t *testing.T) {
		var total int
		if err := db.NewRaw("SELECT count(*) FROM vouchers").Scan(context.Background(), &total); err != nil {
			t.Fatal(err)
		}
		users := []string{app.DemoStaff.Username}
		for _, p := range app.DemoPartners {
			users = append(users, p.Username)
		}
		for _, user := range users {
			auth := []string{"Authorization", "Token " + tokens[user]}
			res := e2e.Do(t, "GET", srv.URL+"/api/permissions/", "", auth...)
			want := app.DemoPartnerPermissions
			if user == app.DemoStaff.Username {
				want = domain.PermissionVocabulary
			}
			if got := res.JSON(t)["permissions"]; res.Status != 200 || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("permissions of %s: status %d, body %s; want %v", user, res.Status, res.Body, want)
			}
			res = e2e.Do(t, "GET", srv.URL+"/api/vouchers/", "", auth...)
			if res.Status != 200 {
				t.Errorf("vouchers of %s: status %d, body %s", user, res.Status, res.Body)
				continue
			}
			count := res.JSON(t)["count"].(float64)
			switch {
			case user == app.DemoStaff.Username && count != float64(total):
				t.Errorf("staff sees %v vouchers, want all %d", count, total)
			case user == "demo-chateau" && (count == 0 || count == float64(total)):
				t.Errorf("demo-chateau sees %v vouchers of %d: want its own only", count, total)
			}
		}
	})

	t.Run("VouchersInEveryState", func(t *testing.T) {
		res := e2e.Do(t, "GET", srv.URL+"/api/vouchers/?page_size=100", "", "Authorization", "Token "+tokens[app.DemoStaff.Username])
		results, _ := res.JSON(t)["results"].([]any)
		states := map[string]int{}
		for _, r := range results {
			v := r.(map[string]any)
			states[v["state"].(string)]++
			if v["gifter_first_name"] == "" || v["giftee_first_name"] == "" {
				t.Errorf("voucher %v has no gifter or giftee: %v", v["code"], v)
			}
		}
		for _, state := range vouchers.VoucherStates {
			if states[state] == 0 {
				t.Errorf("no voucher in state %s: %v", state, states)
			}
		}
		// Every voucher moved out of its issued state has the history of it.
		var missing, withOptions, withCoupon, liveExpired int
		err := db.NewRaw(`SELECT
				count(*) FILTER (WHERE v.state NOT IN ('draft', 'paid') AND NOT EXISTS (SELECT 1 FROM voucher_state_changes c
					WHERE c.voucher_id = v.id AND c.to_state = v.state AND c.user_id IS NOT NULL)),
				count(*) FILTER (WHERE EXISTS (SELECT 1 FROM voucher_options o WHERE o.voucher_id = v.id)),
				count(*) FILTER (WHERE v.coupon_id IS NOT NULL),
				count(*) FILTER (WHERE v.state = 'exprd' AND v.expiration_date > now())
			FROM vouchers v`).Scan(context.Background(), &missing, &withOptions, &withCoupon, &liveExpired)
		if err != nil {
			t.Fatal(err)
		}
		if missing != 0 || withOptions == 0 || withCoupon == 0 || liveExpired != 0 {
			t.Errorf("vouchers: %d without the history of their state, %d with options, %d with a coupon, %d expired in the future",
				missing, withOptions, withCoupon, liveExpired)
		}
	})

	t.Run("GraphVouchersWithTheirPrototype", func(t *testing.T) {
		body := `{"query": "{ adminVouchers(filter: {gifter: \"Lucía\"}) { totalCount edges { node { state prototype { type imageIds coverImageId environmentId options { edges { node { included option { name { en } } } } } } } } } }"}`
		res := e2e.Do(t, "POST", srv.URL+"/graphql", body, "Authorization", "Token "+tokens["demo-chateau"])
		var got struct {
			Data struct {
				AdminVouchers struct {
					TotalCount int
					Edges      []struct {
						Node struct {
							State     string
							Prototype struct {
								Type          string
								ImageIDs      []string `json:"imageIds"`
								CoverImageID  string   `json:"coverImageId"`
								EnvironmentID string   `json:"environmentId"`
								Options       struct {
									Edges []struct{ Node struct{ Included bool } }
								}
							}
						}
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(res.Body), &got); err != nil || got.Data.AdminVouchers.TotalCount != 1 {
			t.Fatalf("status %d, body %s", res.Status, res.Body)
		}
		n := got.Data.AdminVouchers.Edges[0].Node
		p := n.Prototype
		if n.State != "USING" || p.Type != "STAY" || len(p.ImageIDs) != 3 || p.CoverImageID != p.ImageIDs[2] ||
			p.EnvironmentID == "" || len(p.Options.Edges) != 3 || !p.Options.Edges[0].Node.Included {
			t.Errorf("Lucía's voucher: %s", res.Body)
		}
	})

	t.Run("PrototypesEveryField", func(t *testing.T) {
		res := e2e.Do(t, "GET", srv.URL+"/api/voucher_prototypes/?page_size=100", "", "Authorization", "Token "+tokens[app.DemoStaff.Username])
		results, _ := res.JSON(t)["results"].([]any)
		if len(results) != len(app.DemoAdminPrototypes) {
			t.Fatalf("prototypes: status %d, body %s", res.Status, res.Body)
		}
		for _, r := range results {
			p := r.(map[string]any)
			images, _ := p["images"].([]any)
			if len(images) < 2 || p["cover_image"] == nil || p["environment"] == nil || p["universe"] == nil ||
				p["adults_price"] == nil || p["last_active_day"] == nil || p["is_active"] != true {
				t.Errorf("prototype %v lacks a field: %v", p["id"], p)
			}
			for _, prefix := range []string{"name", "description", "long_description", "rent_conditions", "how_to_book_html", "pdf_description"} {
				for _, lang := range domain.Languages {
					if s, _ := p[prefix+"_"+lang].(string); s == "" {
						t.Errorf("prototype %v has no %s_%s", p["id"], prefix, lang)
					}
				}
			}
		}
	})

	t.Run("MediaReadable", func(t *testing.T) {
		var uuids []string
		if err := db.NewRaw("SELECT uuid::text FROM media ORDER BY id").Scan(context.Background(), &uuids); err != nil {
			t.Fatal(err)
		}
		for _, u := range uuids {
			res := e2e.Do(t, "GET", srv.URL+"/media/"+u, "")
			cfg, err := png.DecodeConfig(strings.NewReader(res.Body))
			if res.Status != 200 || err != nil || cfg.Width != 480 {
				t.Errorf("GET /media/%s: status %d, %v, %dx%d", u, res.Status, err, cfg.Width, cfg.Height)
			}
		}
		if n := countFiles(t, filepath.Join(dataDir, "media")); n != len(uuids) {
			t.Errorf("%d files under DATA_DIR/media for %d media", n, len(uuids))
		}
	})
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

// A database seeded before the administration part existed (accounts and
// catalogue only) gets it on the next run, the catalogue untouched.
func TestSeedDemoAddsAdministrationToAnEarlierSeed(t *testing.T) {
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	db := e2e.OpenDB(t, dsn)
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return app.LoadDemoCatalogueOnly(ctx, tx)
	})
	if err != nil {
		t.Fatal(err)
	}
	before := seedCounts(t, db)

	code, out, errOut := e2e.RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", t.TempDir())
	if code != 0 || !strings.Contains(out, "The demo catalogue is already loaded: nothing changed.") ||
		!strings.Contains(out, "Loaded the demo administration data:") || !strings.Contains(out, "Created staff user demo-staff") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	after := seedCounts(t, db)
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
// here the last step, issuing giftcards with a gifter (the catalogue's
// have none), is refused by a trigger.
func TestSeedDemoFailureDeletesTheBlobs(t *testing.T) {
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	db := e2e.OpenDB(t, dsn)
	if code, _, errOut := e2e.RunCommand(t, "migrate", "up", "--database-url", dsn); code != 0 {
		t.Fatalf("migrate: %s", errOut)
	}
	if _, err := db.ExecContext(ctx, `CREATE FUNCTION refuse_giftcards() RETURNS trigger LANGUAGE plpgsql AS
			$$ BEGIN RAISE EXCEPTION 'giftcards are closed'; END $$;
		CREATE TRIGGER refuse_giftcards BEFORE INSERT ON giftcards FOR EACH ROW
			WHEN (NEW.gifter_first_name <> '') EXECUTE FUNCTION refuse_giftcards();`); err != nil {
		t.Fatal(err)
	}
	before := seedCounts(t, db)
	dataDir := t.TempDir()
	code, out, errOut := e2e.RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", dataDir)
	if code != 1 || !strings.Contains(errOut, "giftcard of Claire Fontaine") || !strings.Contains(errOut, "giftcards are closed") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if n := countFiles(t, filepath.Join(dataDir, "media")); n != 0 {
		t.Errorf("%d media files left by a failed load", n)
	}
	if after := seedCounts(t, db); !reflect.DeepEqual(after, before) {
		t.Errorf("a failed load wrote rows:\nbefore %v\nafter  %v", before, after)
	}
}

// wantEightLanguages fails unless v is a Localized as the API shows it with
// a text in every language.
func wantEightLanguages(t *testing.T, what string, v any) {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s = %v, want an object of the eight languages", what, v)
		return
	}
	for _, lang := range domain.Languages {
		if s, _ := m[lang].(string); s == "" {
			t.Errorf("%s has no %s text: %v", what, lang, m)
		}
	}
}

// A failure while loading leaves nothing, not even the demo accounts: here
// a gift code of the dataset is already taken by another partner's gift.
// Once the conflict is gone a run loads everything.
func TestSeedDemoErrConflictLoadsNothing(t *testing.T) {
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	db := e2e.OpenDB(t, dsn)
	e2e.CreateUser(t, dsn, "--username", "other", "--password", "other-password", "--partner-name", "Other")
	var otherID int64
	if err := db.NewRaw("SELECT partner_id FROM users WHERE username = 'other'").Scan(ctx, &otherID); err != nil {
		t.Fatal(err)
	}
	proto := &catalogue.VoucherPrototype{PartnerID: otherID, Name: domain.Localized{"fr": "Autre"}}
	if err := persistence.NewPrototypeStore(db).CreateVoucherPrototype(ctx, proto); err != nil {
		t.Fatal(err)
	}
	taken := app.DemoGifts[len(app.DemoGifts)-1].Code // the last record loaded
	if err := persistence.NewGiftStore(db).CreateVoucher(ctx, &gifts.Voucher{Code: taken, VoucherPrototypeID: proto.ID}); err != nil {
		t.Fatal(err)
	}
	before := seedCounts(t, db)

	dataDir := t.TempDir()
	code, out, errOut := e2e.RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", dataDir)
	if code != 1 || !strings.Contains(errOut, "gift "+taken+": code: A gift with this code already exists.") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if strings.Contains(out, "Created user") {
		t.Errorf("a failed run reports accounts it did not keep:\n%s", out)
	}
	for table, n := range seedCounts(t, db) {
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
	code, out, errOut = e2e.RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", dataDir)
	if code != 0 || !strings.Contains(out, "Created user demo-market") || !strings.Contains(out, "Loaded the demo catalogue:") {
		t.Fatalf("run after the conflict: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
}

func TestSeedUsage(t *testing.T) {
	for _, args := range [][]string{{"seed"}, {"seed", "production"}, {"seed", "demo", "--nope"}} {
		if code, _, errOut := e2e.RunCommand(t, args...); code != 2 {
			t.Errorf("%v: exit %d, stderr %q; want 2", args, code, errOut)
		}
	}
}

// Every text of the dataset is given in the eight languages.
func TestSeedDemoDataEveryLanguage(t *testing.T) {
	tables := map[string]any{
		"app.DemoPartners": app.DemoPartners, "app.DemoUniverses": app.DemoUniverses, "app.DemoThemes": app.DemoThemes,
		"app.DemoVoucherPrototypes": app.DemoVoucherPrototypes, "app.DemoGiftcardPrototypes": app.DemoGiftcardPrototypes,
		"app.DemoEvents": app.DemoEvents, "app.DemoWorkshopTags": app.DemoWorkshopTags, "app.DemoWorkshopCategories": app.DemoWorkshopCategories,
		"app.DemoWorkshops": app.DemoWorkshops, "app.DemoBoxes": app.DemoBoxes,
		"app.DemoEnvironments": app.DemoEnvironments, "app.DemoAdminPrototypes": app.DemoAdminPrototypes,
		"app.DemoOptionCategories": app.DemoOptionCategories, "app.DemoOptions": app.DemoOptions,
	}
	localized := reflect.TypeFor[domain.Localized]()
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch {
		case v.Type() == localized && v.IsNil(): // not given: a catalogue prototype's name
		case v.Type() == localized:
			for _, lang := range domain.Languages {
				if v.MapIndex(reflect.ValueOf(lang)).IsValid() && v.MapIndex(reflect.ValueOf(lang)).String() != "" {
					continue
				}
				t.Errorf("%s has no %s text", path, lang)
			}
		case v.Kind() == reflect.Pointer:
			if !v.IsNil() {
				walk(path, v.Elem())
			}
		case v.Kind() == reflect.Slice:
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		case v.Kind() == reflect.Struct:
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if !f.IsExported() {
					continue
				}
				walk(path+"."+f.Name, v.Field(i))
			}
		}
	}
	for name, table := range tables {
		walk(name, reflect.ValueOf(table))
	}
}
