package e2e

import (
	"fmt"
	"net/url"
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"salesplatform/cmd/salesplatform/demo"
	"salesplatform/domain/gifts"
)

// networkDemoChecks read and use the demo's network: its partners,
// giftcards, vouchers and boxes.
var networkDemoChecks = []demoCheck{
	{"NetworkPartners", demoNetworkPartners},
	{"NetworkGiftcards", demoNetworkGiftcards},
	{"NetworkVouchers", demoNetworkVouchers},
}

// demoNetworkPartners checks and updates each network partner.
func demoNetworkPartners(t *testing.T, s *seededDemo) {
	data, call := s.data, s.call
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
}

// demoNetworkGiftcards reads, uses and holds network giftcards.
func demoNetworkGiftcards(t *testing.T, s *seededDemo) {
	data, call, today := s.data, s.call, s.today
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
}

// demoNetworkVouchers reads network vouchers, their usages and the
// boxes' offers.
func demoNetworkVouchers(t *testing.T, s *seededDemo) {
	data, call, today := s.data, s.call, s.today
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
}
