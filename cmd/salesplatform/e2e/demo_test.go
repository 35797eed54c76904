package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/cmd/salesplatform/demo"
	"salesplatform/domain"
	"salesplatform/domain/gifts"
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
		// Its demo partners, with their profiles, and its active network
		// partners, which have none.
		accounts := map[string]bool{}
		for _, p := range data.Partners {
			if p.NetworkOf == "market" {
				accounts[p.Name] = true
			}
		}
		want := len(accounts)
		for _, p := range data.NetworkPartners {
			if p.Marketplace == "market" && !p.Inactive {
				want++
			}
		}
		for _, p := range data.PaymentPartners { // in their referrer's network
			if p.Referrer == "market" {
				want++
			}
		}
		page := get(t, "/api/v2/partners/?page_size=100", "market.localhost")
		results, _ := page["results"].([]any)
		if page["count"] != float64(want) || len(results) != want {
			t.Fatalf("partners of market.localhost: %v; want %d", page, want)
		}
		for _, r := range results {
			p := r.(map[string]any)
			if !accounts[p["name"].(string)] {
				continue
			}
			delete(accounts, p["name"].(string))
			for _, field := range []string{"description", "managers", "nearby", "practical_information", "access", "commercial_description"} {
				wantEightLanguages(t, fmt.Sprintf("partner %v %s", p["name"], field), p[field])
			}
			if labels, _ := p["label_and_network"].([]any); len(labels) == 0 {
				t.Errorf("partner %v has no labels", p["name"])
			}
		}
		if len(accounts) != 0 {
			t.Errorf("demo partners missing from the list: %v", accounts)
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
		// The network part's sold vouchers are gift codes too.
		for _, v := range data.NetworkVouchers {
			if v.FinalStatus() != "paid" && v.FinalStatus() != "using" {
				continue
			}
			gift := get(t, "/api/v2/gift/"+v.Code+"/", "market.localhost")
			if gift["code"] != v.Code || gift["type"] != string(gifts.GiftKindNetworkVoucher) {
				t.Errorf("gift %s: %v", v.Code, gift)
			}
		}
		// The demo partners of the network and the active network partners
		// in its giftcard settings.
		want := 0
		for _, p := range data.Partners {
			if p.NetworkOf == "market" {
				want++
			}
		}
		for _, p := range data.NetworkPartners {
			if p.Marketplace == "market" && p.NetworkGiftcards && !p.Inactive {
				want++
			}
		}
		for _, p := range data.PaymentPartners { // in their referrer's giftcard settings
			if p.Referrer == "market" {
				want++
			}
		}
		linked := get(t, "/api/v2/gift/DEMO-NETWORK-GIFTCARD-1/linked_partners/", "market.localhost")
		if partners, _ := linked["partners"].([]any); len(partners) != want {
			t.Errorf("partners taking DEMO-NETWORK-GIFTCARD-1: %v; want %d", linked, want)
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
		perms := map[string][]string{data.Staff.Username: domain.PermissionVocabulary}
		for _, p := range data.Partners {
			users = append(users, p.Username)
			perms[p.Username] = data.PartnerPermissions
			if p.Marketplace {
				// market refers the payment-hub partner: its refunds' permissions too.
				perms[p.Username] = slices.Sorted(slices.Values(slices.Concat(data.PartnerPermissions, data.MarketplacePermissions,
					data.ReferrerPermissions)))
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

	market := []string{"Authorization", "Token " + tokens["demo-market"]}
	call := func(t *testing.T, method, path, body string, status int) Response {
		t.Helper()
		res := Do(t, method, srv.URL+path, body, market...)
		if res.Status != status {
			t.Fatalf("%s %s: status %d, body %s; want %d", method, path, res.Status, res.Body, status)
		}
		return res
	}
	today := time.Now().Format(time.DateOnly)

	t.Run("NetworkPartners", func(t *testing.T) {
		ids := map[string]any{}
		for _, p := range data.NetworkPartners {
			q := url.Values{"siret_number": {p.Company.Siret}, "commercial_name": {p.Company.CommercialName}}
			ids[p.Key] = call(t, "GET", "/api/partners/check/?"+q.Encode(), "", 200).JSON(t)["id"]
		}
		// An update names the partner by its source id, as a marketplace does.
		for _, p := range data.NetworkPartners {
			res := call(t, "PATCH", "/api/network_partners/", `{"source_id": "`+p.SourceID+`", "hide_from_stats": true}`, 200)
			got := res.JSON(t)
			status := "n"
			if p.Inactive {
				status = "i"
			}
			if got["id"] != ids[p.Key] || got["name"] != p.Name || got["status"] != status ||
				got["linked_to_ngc_settings"] != p.NetworkGiftcards || got["linked_to_nv_settings"] != p.NetworkVouchers {
				t.Errorf("network partner %s (source id %s): %s", p.Key, p.SourceID, res.Body)
			}
		}
	})

	t.Run("NetworkGiftcards", func(t *testing.T) {
		// Each card as the demo lists it, its remaining value the sum of
		// its ledger.
		balance := func(t *testing.T, code string) (status string, remaining decimal.Decimal) {
			t.Helper()
			var card struct {
				Status         string
				RemainingValue decimal.Decimal `json:"remaining_value"`
			}
			decodeJSON(t, call(t, "GET", "/api/networkgiftcards_by_code/"+code+"/", "", 200).Body, &card)
			var ledger []struct{ Amount decimal.Decimal }
			decodeJSON(t, call(t, "GET", "/api/networkgiftcards_by_code/"+code+"/movements/", "", 200).Body, &ledger)
			sum := decimal.Zero
			for _, m := range ledger {
				sum = sum.Add(m.Amount)
			}
			if !sum.Equal(card.RemainingValue) {
				t.Errorf("%s: remaining value %s, its ledger sums to %s", code, card.RemainingValue, sum)
			}
			return card.Status, card.RemainingValue
		}
		paysHub := map[string]bool{} // the demo package's test checks what payments left them
		for _, p := range data.HubPayments {
			if p.ExtraSource != nil {
				paysHub[p.ExtraSource.Giftcard] = true
			}
		}
		for _, g := range data.NetworkGiftcards {
			if status, remaining := balance(t, g.Code); !paysHub[g.Code] && (status != g.FinalStatus() || !remaining.Equal(g.Remaining())) {
				t.Errorf("%s: %s %s, want %s %s", g.Code, status, remaining, g.FinalStatus(), g.Remaining())
			}
		}

		// A use by source id at an active partner that takes the cards;
		// one at the inactive partner is refused.
		var taker, inactive demo.NetworkPartner
		for _, p := range data.NetworkPartners {
			switch {
			case p.NetworkGiftcards && p.Inactive:
				inactive = p
			case p.NetworkGiftcards && taker.Key == "":
				taker = p
			}
		}
		use := func(sourceID string) string {
			return `{"partner_source_id": ` + sourceID + `, "value": "12.50", "creation_date": "` + today + `",
				"send_usage_notification_email": false}`
		}
		res := call(t, "POST", "/api/networkgiftcards_by_code/DEMO-NGC-PAID/use/", use(taker.SourceID), 200)
		if got := res.JSON(t); fmt.Sprint(got["partner_source_id"]) != taker.SourceID || got["value"] != 12.5 {
			t.Errorf("use at %s: %s", taker.SourceID, res.Body)
		}
		if status, remaining := balance(t, "DEMO-NGC-PAID"); status != "using" || !remaining.Equal(decimal.RequireFromString("87.50")) {
			t.Errorf("DEMO-NGC-PAID after a use of 12.50: %s %s", status, remaining)
		}
		res = call(t, "POST", "/api/networkgiftcards_by_code/DEMO-NGC-PAID/use/", use(inactive.SourceID), 400)
		WantResponse(t, res, 400, `{"partner_source_id": ["This network partner is inactive."]}`)

		// The usage in a payout cannot be cancelled; the cancelled one is
		// inactive; the live hold is held.
		var usages []struct {
			ID       int64
			Comment  string
			IsActive bool `json:"is_active"`
		}
		decodeJSON(t, call(t, "GET", "/api/networkgiftcards_by_code/DEMO-NGC-USING/usages/", "", 200).Body, &usages)
		var card demo.NetworkGiftcard
		for _, g := range data.NetworkGiftcards {
			if g.Code == "DEMO-NGC-USING" {
				card = g
			}
		}
		if len(usages) != len(card.Usages) {
			t.Fatalf("usages of DEMO-NGC-USING: %v", usages)
		}
		for i, u := range card.Usages {
			got := usages[i]
			if got.Comment != u.Comment || got.IsActive == u.Cancelled {
				t.Errorf("usage %d of DEMO-NGC-USING: %+v", i+1, got)
			}
		}
		var holds []struct {
			ReservationID   string `json:"reservation_id"`
			Amount          decimal.Decimal
			Status          string
			PartnerSourceID int64 `json:"partner_source_id"`
		}
		decodeJSON(t, call(t, "GET", "/api/networkgiftcards_by_code/DEMO-NGC-USING/holds/", "", 200).Body, &holds)
		h := card.Holds[0]
		if len(holds) != 1 || holds[0].ReservationID != h.ReservationID || !holds[0].Amount.Equal(h.Amount) ||
			holds[0].Status != "held" || fmt.Sprint(holds[0].PartnerSourceID) != data.NetworkPartner(h.Partner).SourceID {
			t.Errorf("holds of DEMO-NGC-USING: %+v", holds)
		}
	})

	t.Run("NetworkVouchers", func(t *testing.T) {
		for _, v := range data.NetworkVouchers {
			var got struct {
				Status     string
				UsageCount int `json:"usage_count"`
			}
			decodeJSON(t, call(t, "GET", "/api/networkvouchers_by_code/"+v.Code+"/", "", 200).Body, &got)
			var usages []struct {
				ID       int64
				IsActive bool `json:"is_active"`
			}
			decodeJSON(t, call(t, "GET", "/api/networkvouchers_by_code/"+v.Code+"/usages/", "", 200).Body, &usages)
			if got.Status != v.FinalStatus() || got.UsageCount != v.UsageCount() || len(usages) != len(v.Usages) {
				t.Fatalf("%s: %+v with %d usages", v.Code, got, len(usages))
			}
			for i, u := range v.Usages {
				if usages[i].IsActive == u.Cancelled {
					t.Errorf("usage %d of %s: active %v", i+1, v.Code, usages[i].IsActive)
				}
				if u.Payout != 0 {
					res := call(t, "POST", fmt.Sprintf("/api/networkvoucher_usages/%d/cancel/", usages[i].ID), "", 409)
					WantResponse(t, res, 409, `{"detail": "This usage is already in a payout: it cannot be cancelled."}`)
				}
			}
		}
		// The network vouchers of the catalogue's sold gifts have no
		// usages: a usage count comes with its usage rows.
		for _, g := range data.Gifts {
			if g.Kind != gifts.GiftKindNetworkVoucher {
				continue
			}
			var got struct {
				UsageCount int `json:"usage_count"`
			}
			decodeJSON(t, call(t, "GET", "/api/networkvouchers_by_code/"+g.Code+"/", "", 200).Body, &got)
			var usages []any
			decodeJSON(t, call(t, "GET", "/api/networkvouchers_by_code/"+g.Code+"/usages/", "", 200).Body, &usages)
			if got.UsageCount != len(usages) {
				t.Errorf("%s: usage_count %d with %d usages", g.Code, got.UsageCount, len(usages))
			}
		}

		// A usage by source id at the network partner with a validated
		// offer in the box.
		cellar := data.NetworkPartner("cellar")
		res := call(t, "POST", "/api/networkvouchers_by_code/DEMO-NV-PAID/use/",
			`{"partner_source_id": `+cellar.SourceID+`, "creation_date": "`+today+`", "comment": "Tasting"}`, 200)
		if got := res.JSON(t); got["partner_agency_name"] != cellar.Company.CommercialName || got["is_active"] != true {
			t.Errorf("usage of DEMO-NV-PAID: %s", res.Body)
		}

		// Each box's offers, in both statuses where the demo has both.
		want := map[string][]string{}
		for _, b := range data.Boxes {
			for _, o := range b.Offers {
				want[b.Name["en"]] = append(want[b.Name["en"]], o.Status)
			}
		}
		for _, o := range data.BoxOffers {
			for _, b := range data.Boxes {
				if b.Key == o.Box {
					want[b.Name["en"]] = append(want[b.Name["en"]], o.Status)
				}
			}
		}
		var boxes []struct {
			ID     int64
			NameEN string `json:"name_en"`
		}
		decodeJSON(t, call(t, "GET", "/api/networkvouchers/boxes/", "", 200).Body, &boxes)
		both := 0
		for _, b := range boxes {
			var offers []struct{ Status string }
			decodeJSON(t, call(t, "GET", fmt.Sprintf("/api/networkvouchers/boxes/%d/offers/", b.ID), "", 200).Body, &offers)
			var got []string
			for _, o := range offers {
				got = append(got, o.Status)
			}
			slices.Sort(got)
			if w := slices.Sorted(slices.Values(want[b.NameEN])); !slices.Equal(got, w) {
				t.Errorf("offers of the box %s: %v, want %v", b.NameEN, got, w)
			}
			if slices.Contains(got, "DRAFT") && slices.Contains(got, "VALIDATED") {
				both++
			}
		}
		if len(boxes) != len(data.Boxes) || both == 0 {
			t.Errorf("%d boxes, %d with draft and validated offers", len(boxes), both)
		}
	})

	t.Run("PaymentRefunds", func(t *testing.T) {
		// The marketplace's user refunds each paid payment of the spa with
		// something left to give back: its permission is kept, and the
		// payment dated ahead keeps the spa's wallet in funds.
		type payment struct {
			ID                        string
			Amount                    decimal.Decimal
			RefundedAmount            decimal.Decimal `json:"refunded_amount"`
			PaymentReceiptDescription string          `json:"payment_receipt_description"`
		}
		list := func(t *testing.T) map[string]payment {
			var page struct{ Results []payment }
			decodeJSON(t, call(t, "GET", "/api/payment_hub/payments/?page_size=100", "", 200).Body, &page)
			byReceipt := map[string]payment{}
			for _, p := range page.Results {
				byReceipt[p.PaymentReceiptDescription] = p
			}
			return byReceipt
		}
		before, refunded := list(t), 0
		for _, d := range data.HubPayments {
			p, ok := before[d.Receipt]
			if !ok {
				t.Fatalf("payment %s is not listed", d.Key)
			}
			if d.Card != demo.HubCardPaid || p.RefundedAmount.Equal(p.Amount) {
				continue
			}
			call(t, "POST", "/api/payment_hub/payments/"+p.ID+"/refund/", `{"amount": 5, "reason": "Goodwill"}`, 200)
			refunded++
		}
		for receipt, p := range list(t) {
			if want := before[receipt].RefundedAmount; !p.RefundedAmount.Equal(want) && !p.RefundedAmount.Equal(want.Add(decimal.NewFromInt(5))) {
				t.Errorf("%s: refunded %s, was %s", receipt, p.RefundedAmount, want)
			}
		}
		if refunded < 2 {
			t.Errorf("%d payments refunded: the demo leaves too few to try", refunded)
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

// decodeJSON decodes body into v (a decimal.Decimal field keeps its
// number exact).
func decodeJSON(t *testing.T, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("body %s: %v", body, err)
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
