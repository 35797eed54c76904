package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"strings"
	"testing"

	"salesplatform/cmd/salesplatform/demo"
	"salesplatform/domain"
	"salesplatform/domain/vouchers"
	"salesplatform/persistence/dbtest"
)

// The demo dataset as `seed demo` loads it, read back over REST and the
// graph. (package demo tests the loader itself: idempotency, failures.)
func TestSeedDemo(t *testing.T) {
	t.Parallel()
	data, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	dsn := dbtest.NewDSN(t)
	db := OpenDB(t, dsn)
	dataDir := t.TempDir()

	code, out, errOut := RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", dataDir)
	if code != 0 {
		t.Fatalf("seed demo: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	tokens := map[string]string{}
	for _, line := range lines[len(lines)-len(data.Partners)-1:] {
		m := seedTokenLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q is not \"username token\"; stdout:\n%s", line, out)
		}
		tokens[m[1]] = m[2]
	}
	if len(tokens) != len(data.Partners)+1 || tokens[data.Staff.Username] == "" ||
		!strings.Contains(out, "Loaded the demo catalogue:") || !strings.Contains(out, "Loaded the demo administration data:") {
		t.Fatalf("seed demo's stdout:\n%s", out)
	}

	srv := Serve(t, dsn, "--data-dir", dataDir)
	get := func(t *testing.T, path, partnerDomain string) map[string]any {
		t.Helper()
		res := Do(t, "GET", srv.URL+path, "", "X-Partner-Domain", partnerDomain)
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
		if page["count"] != float64(len(data.Boxes)) {
			t.Fatalf("boxes: %v", page)
		}
		wantEightLanguages(t, "box name", results[0].(map[string]any)["name"])
	})

	t.Run("GiftCodes", func(t *testing.T) {
		for _, g := range data.Gifts {
			gift := get(t, "/api/v2/gift/"+g.Code+"/", data.Seller(g).Domain)
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
		for _, p := range data.Partners {
			res := Do(t, "GET", srv.URL+"/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
			if res.Status != 200 || res.JSON(t)["purchase_url"] != "https://"+p.Domain+"/" {
				t.Errorf("widgets of %s: status %d, body %s", p.Domain, res.Status, res.Body)
			}
		}
	})

	t.Run("TokensAndPasswords", func(t *testing.T) {
		for _, p := range data.Partners {
			res := Do(t, "GET", srv.URL+"/api/v2/partners/me/", "", "Authorization", "Token "+tokens[p.Username])
			if res.Status != 200 || res.JSON(t)["name"] != p.Name {
				t.Errorf("partners/me with the token of %s: status %d, body %s", p.Username, res.Status, res.Body)
			}
			body := fmt.Sprintf(`{"username": %q, "password": %q}`, p.Username, p.Password)
			if res := Do(t, "POST", srv.URL+"/api-token-auth/", body); res.Status != 200 {
				t.Errorf("login of %s: status %d, body %s", p.Username, res.Status, res.Body)
			}
		}
	})

	t.Run("AdministrationTokens", func(t *testing.T) {
		var total int
		if err := db.NewRaw("SELECT count(*) FROM vouchers").Scan(context.Background(), &total); err != nil {
			t.Fatal(err)
		}
		users := []string{data.Staff.Username}
		for _, p := range data.Partners {
			users = append(users, p.Username)
		}
		for _, user := range users {
			auth := []string{"Authorization", "Token " + tokens[user]}
			res := Do(t, "GET", srv.URL+"/api/permissions/", "", auth...)
			want := data.PartnerPermissions
			if user == data.Staff.Username {
				want = domain.PermissionVocabulary
			}
			if got := res.JSON(t)["permissions"]; res.Status != 200 || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("permissions of %s: status %d, body %s; want %v", user, res.Status, res.Body, want)
			}
			res = Do(t, "GET", srv.URL+"/api/vouchers/", "", auth...)
			if res.Status != 200 {
				t.Errorf("vouchers of %s: status %d, body %s", user, res.Status, res.Body)
				continue
			}
			count := res.JSON(t)["count"].(float64)
			switch {
			case user == data.Staff.Username && count != float64(total):
				t.Errorf("staff sees %v vouchers, want all %d", count, total)
			case user == "demo-chateau" && (count == 0 || count == float64(total)):
				t.Errorf("demo-chateau sees %v vouchers of %d: want its own only", count, total)
			}
		}
	})

	t.Run("VouchersInEveryState", func(t *testing.T) {
		res := Do(t, "GET", srv.URL+"/api/vouchers/?page_size=100", "", "Authorization", "Token "+tokens[data.Staff.Username])
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
		res := Do(t, "POST", srv.URL+"/graphql", body, "Authorization", "Token "+tokens["demo-chateau"])
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
		res := Do(t, "GET", srv.URL+"/api/voucher_prototypes/?page_size=100", "", "Authorization", "Token "+tokens[data.Staff.Username])
		results, _ := res.JSON(t)["results"].([]any)
		if len(results) != len(data.AdminPrototypes) {
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
			res := Do(t, "GET", srv.URL+"/media/"+u, "")
			cfg, err := png.DecodeConfig(strings.NewReader(res.Body))
			if res.Status != 200 || err != nil || cfg.Width != 480 {
				t.Errorf("GET /media/%s: status %d, %v, %dx%d", u, res.Status, err, cfg.Width, cfg.Height)
			}
		}
	})
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
