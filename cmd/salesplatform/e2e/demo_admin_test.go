package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/vouchers"
)

// adminDemoChecks read the demo's administration data.
var adminDemoChecks = []demoCheck{
	{"AdministrationTokens", demoAdministrationTokens},
	{"VouchersInEveryState", demoVouchersInEveryState},
	{"GraphVouchersWithTheirPrototype", demoGraphVouchersWithTheirPrototype},
	{"PrototypesEveryField", demoPrototypesEveryField},
}

// mediaDemoChecks read the demo's media files.
var mediaDemoChecks = []demoCheck{
	{"MediaReadable", demoMediaReadable},
}

// demoAdministrationTokens reads permissions and vouchers with each
// account's token.
func demoAdministrationTokens(t *testing.T, s *seededDemo) {
	data, db, srv, tokens := s.data, s.db, s.srv, s.tokens
	var total int
	if err := db.NewRaw("SELECT count(*) FROM vouchers").Scan(context.Background(), &total); err != nil {
		t.Fatal(err)
	}
	users := []string{data.Staff.Username}
	perms := map[string][]string{data.Staff.Username: domain.PermissionVocabulary}
	for _, p := range data.Partners {
		users = append(users, p.Username)
		perms[p.Username] = data.PartnerPermissions
		if p.Marketplace {
			// market refers the payment-hub partner: its refunds' permissions too.
			perms[p.Username] = slices.Sorted(slices.Values(slices.Concat(data.PartnerPermissions, data.MarketplacePermissions,
				data.ReferrerPermissions)))
		}
		for _, shop := range data.Shops {
			if shop.Partner == p.Key {
				// a shop refunds its e-commerce orders.
				perms[p.Username] = slices.Sorted(slices.Values(slices.Concat(data.PartnerPermissions, data.ReferrerPermissions)))
			}
		}
	}
	for _, user := range users {
		auth := []string{"Authorization", "Token " + tokens[user]}
		res := Do(t, "GET", srv.URL+"/api/permissions/", "", auth...)
		want := perms[user]
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
}

// demoVouchersInEveryState reads the vouchers and their history.
func demoVouchersInEveryState(t *testing.T, s *seededDemo) {
	data, db, srv, tokens := s.data, s.db, s.srv, s.tokens
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
}

// demoGraphVouchersWithTheirPrototype reads a voucher and its prototype
// over the graph.
func demoGraphVouchersWithTheirPrototype(t *testing.T, s *seededDemo) {
	srv, tokens := s.srv, s.tokens
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
}

// demoPrototypesEveryField reads the administration's prototypes.
func demoPrototypesEveryField(t *testing.T, s *seededDemo) {
	data, srv, tokens := s.data, s.srv, s.tokens
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
}

// demoMediaReadable reads every media file.
func demoMediaReadable(t *testing.T, s *seededDemo) {
	db, srv := s.db, s.srv
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
}
