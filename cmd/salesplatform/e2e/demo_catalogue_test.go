package e2e

import (
	"fmt"
	"testing"

	"salesplatform/domain/gifts"
)

// catalogueDemoChecks read the demo's public catalogue and its partners'
// accounts.
var catalogueDemoChecks = []demoCheck{
	{"PartnersOfTheMarketplace", demoPartnersOfTheMarketplace},
	{"EventSlots", demoEventSlots},
	{"WorkshopSessions", demoWorkshopSessions},
	{"Boxes", demoBoxes},
	{"GiftCodes", demoGiftCodes},
	{"Widgets", demoWidgets},
	{"TokensAndPasswords", demoTokensAndPasswords},
}

// demoPartnersOfTheMarketplace lists the marketplace's partners.
func demoPartnersOfTheMarketplace(t *testing.T, s *seededDemo) {
	data, get := s.data, s.get
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
}

// demoEventSlots reads the château's event slots.
func demoEventSlots(t *testing.T, s *seededDemo) {
	get := s.get
	page := get(t, "/api/v2/event_slots/", "chateau.localhost")
	results, _ := page["results"].([]any)
	if len(results) == 0 {
		t.Fatalf("no event slots: %v", page)
	}
	slot := results[0].(map[string]any)
	wantEightLanguages(t, "slot name", slot["name"])
	wantEightLanguages(t, "slot description", slot["description"])
	wantEightLanguages(t, "slot price", slot["price_formatted"])
}

// demoWorkshopSessions reads the atelier's workshop sessions.
func demoWorkshopSessions(t *testing.T, s *seededDemo) {
	get := s.get
	page := get(t, "/api/v2/workshop_sessions/", "atelier.localhost")
	if results, _ := page["results"].([]any); len(results) == 0 {
		t.Fatalf("no workshop sessions: %v", page)
	}
}

// demoBoxes reads the marketplace's boxes.
func demoBoxes(t *testing.T, s *seededDemo) {
	data, get := s.data, s.get
	page := get(t, "/api/v2/network_vouchers/boxes/", "market.localhost")
	results, _ := page["results"].([]any)
	if page["count"] != float64(len(data.Boxes)) {
		t.Fatalf("boxes: %v", page)
	}
	wantEightLanguages(t, "box name", results[0].(map[string]any)["name"])
}

// demoGiftCodes reads every gift code on its seller's site.
func demoGiftCodes(t *testing.T, s *seededDemo) {
	data, get := s.data, s.get
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
}

// demoWidgets reads each partner's widgets.
func demoWidgets(t *testing.T, s *seededDemo) {
	data, srv := s.data, s.srv
	for _, p := range data.Partners {
		res := Do(t, "GET", srv.URL+"/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
		if res.Status != 200 || res.JSON(t)["purchase_url"] != "https://"+p.Domain+"/" {
			t.Errorf("widgets of %s: status %d, body %s", p.Domain, res.Status, res.Body)
		}
	}
}

// demoTokensAndPasswords uses each partner's token and password.
func demoTokensAndPasswords(t *testing.T, s *seededDemo) {
	data, srv, tokens := s.data, s.srv, s.tokens
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
}
