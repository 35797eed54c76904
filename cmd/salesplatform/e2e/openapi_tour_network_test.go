package e2e

import (
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"salesplatform/domain/gifts"
)

// networkTour is the network's part of TestOpenAPITour: network
// partners, network giftcards and network vouchers of a demo marketplace.
var networkTour = []tourStep{tourNetworkPartners, tourNetworkGiftcards, tourNetworkVouchers}

// tourNetworkPartners creates a network partner in a demo marketplace's
// network, updates it and checks it.
func tourNetworkPartners(tr *tour) {
	t, call, admin, marketplaceUUID := tr.t, tr.call, tr.admin, tr.marketplaceUUID
	npBody, _ := json.Marshal(map[string]any{"name": "Tour spa", "commercial_name": "Tour Spa", "short_name": "TS",
		"siret_number": "10000000000099", "legal_representative_first_name": "Ada", "legal_representative_last_name": "Tour",
		"hq_address_line_1": "1 rue du Tour", "hq_postal_code": "75001", "hq_city": "Paris", "hq_country": "FR",
		"rcs": "RCS Paris 1", "ape": "9604Z", "vat_id": "FR00000000099", "agency_email": "tour@example.com",
		"website": "https://tour.example.com", "partner_tags": []any{map[string]any{"tag": "tour"}},
		"marketplace_uuid": marketplaceUUID})
	np := call("POST", "/api/network_partners/", string(npBody), admin...)
	if np.Status == 201 {
		call("PATCH", "/api/network_partners/", fmt.Sprintf(`{"source_id": %q, "status": "i", "link_to_ngc_settings": true,
			"marketplace_uuid": %q}`, np.JSON(t)["source_id"], marketplaceUUID), admin...)
		call("GET", "/api/partners/check/?siret_number=10000000000099&commercial_name=tour%20spa", "", admin...)
		call("GET", "/api/network_partners/?page_size=1&marketplace_uuid="+marketplaceUUID, "", admin...)
	}
}

// tourNetworkGiftcards creates a network giftcard of the marketplace, used
// at a partner of its network that accepts them.
func tourNetworkGiftcards(tr *tour) {
	t, call, id, admin, marketplaceUUID := tr.t, tr.call, tourID, tr.admin, tr.marketplaceUUID
	npBody, _ := json.Marshal(map[string]any{"name": "Tour inn", "commercial_name": "Tour Inn", "short_name": "TI",
		"siret_number": "10000000000098", "legal_representative_first_name": "Ada", "legal_representative_last_name": "Tour",
		"hq_address_line_1": "2 rue du Tour", "hq_postal_code": "75001", "hq_city": "Paris", "hq_country": "FR",
		"rcs": "RCS Paris 2", "ape": "5510Z", "vat_id": "FR00000000098", "agency_email": "inn@example.com",
		"website": "https://inn.example.com", "link_to_ngc_settings": true, "source_id": "987654",
		"marketplace_uuid": marketplaceUUID})
	call("POST", "/api/network_partners/", string(npBody), admin...)
	ngc := call("POST", "/api/networkgiftcards/", fmt.Sprintf(`{"marketplace_uuid": %q, "status": "paid", "value": 80,
		"gifter": {"first_name": "Ada", "last_name": "Tour", "email": "ada.tour@example.com"}, "from_gifter": "Enjoy",
		"activation_date": "2026-01-01", "expiration_date": "2036-01-01"}`, marketplaceUUID), admin...)
	if ngc.Status == 201 {
		code := ngc.JSON(t)["code"].(string)
		byCode := "/api/networkgiftcards_by_code/" + code
		call("GET", "/api/networkgiftcards/"+code+"/", "", admin...)
		call("GET", byCode+"/", "", admin...)
		call("GET", "/api/networkgiftcards_by_email/ada.tour@example.com/", "", admin...)
		used := call("POST", byCode+"/use/", `{"creation_date": "2026-06-01", "value": 10, "partner_source_id": 987654}`, admin...)
		call("POST", byCode+"/use/", `{"creation_date": "2026-06-01", "value": 1000, "partner_source_id": 987654}`, admin...)
		if used.Status == 200 {
			call("POST", "/api/networkgiftcard_usages/"+id(used.JSON(t)["id"])+"/cancel/", `{"comment": "tour"}`, admin...)
			partner := id(used.JSON(t)["partner"])
			call("POST", byCode+"/use_with_service_id/", `{"creation_date": "2026-06-01", "value": 5, "partner_id": `+partner+`}`, admin...)
		}
		call("GET", byCode+"/usages/", "", admin...)
		call("POST", byCode+"/holds/", `{"amount": 5, "reservation_id": "TOUR-1", "partner_source_id": 987654}`, admin...)
		call("POST", byCode+"/holds/", `{"amount": 5, "reservation_id": "TOUR-2", "partner_source_id": 987654}`, admin...)
		call("GET", byCode+"/holds/", "", admin...)
		call("POST", byCode+"/holds/TOUR-1/capture/", `{"value": 4}`, admin...)
		call("POST", byCode+"/holds/TOUR-2/release/", "", admin...)
		call("POST", byCode+"/adjust/", `{"amount": -1, "reason": "tour"}`, admin...)
		call("GET", byCode+"/movements/", "", admin...)
	}
}

// tourNetworkVouchers reads the demo's boxes and offers, its vouchers and
// their usages, records a usage by partner id and one by source id (the
// demo's network partners have none: one is given here), and a cancel.
func tourNetworkVouchers(tr *tour) {
	t, call, list, id, data, admin := tr.t, tr.call, tr.list, tourID, tr.data, tr.admin
	for _, b := range list(call("GET", "/api/networkvouchers/boxes/", "", admin...)) {
		call("GET", "/api/networkvouchers/boxes/"+id(b["id"])+"/", "", admin...)
		call("GET", "/api/networkvouchers/boxes/"+id(b["id"])+"/offers/", "", admin...)
	}
	call("GET", "/api/networkvouchers_by_email/nobody@example.com/", "", admin...)
	today, db := time.Now().Format(time.DateOnly), tr.db
	for _, g := range data.Gifts {
		if g.Kind != gifts.GiftKindNetworkVoucher || (g.State != "paid" && g.State != "using") {
			continue
		}
		code := "/api/networkvouchers_by_code/" + url.PathEscape(g.Code) + "/"
		v := call("GET", code, "", admin...)
		call("GET", code+"usages/", "", admin...)
		if v.Status != 200 {
			continue
		}
		box := call("GET", "/api/networkvouchers/boxes/"+id(v.JSON(t)["box"])+"/", "", admin...)
		partners, _ := box.JSON(t)["allowed_partners"].([]any)
		if len(partners) == 0 {
			continue
		}
		partner := id(partners[0].(map[string]any)["id"])
		used := call("POST", code+"use_with_service_id/", `{"creation_date": "`+today+`", "partner_id": `+partner+`}`, admin...)
		if used.Status == 200 {
			call("POST", "/api/networkvoucher_usages/"+id(used.JSON(t)["id"])+"/cancel/", `{"comment": "Tour"}`, admin...)
		}
		if _, err := db.NewRaw("UPDATE network_partners SET source_id = ? WHERE partner_id = ? AND source_id IS NULL",
			partner, partner).Exec(t.Context()); err != nil {
			t.Fatal(err)
		}
		call("POST", code+"use/", `{"creation_date": "`+today+`", "partner_source_id": `+partner+`}`, admin...)
	}
}
