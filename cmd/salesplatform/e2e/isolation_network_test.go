package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"
)

// networkIsolation is the network's part of TestAdminIsolation: network
// partners, voucher boxes, network vouchers and giftcards.
var networkIsolation = isoArea{
	tables: []string{"partners", "partner_legal_information", "partner_tags", "network_partners",
		"network_giftcard_allowed_partners", "network_voucher_allowed_partners", "network_vouchers", "network_voucher_usages",
		"network_voucher_movements", "network_giftcards", "network_giftcard_usages", "network_giftcard_movements",
		"network_giftcard_holds"},
	rest:      (*isoFixture).networkREST,
	graph:     (*isoFixture).networkGraph,
	malformed: (*isoFixture).networkMalformed,
}

// seedNetwork writes the owner's network partner, a voucher box with a
// voucher used once, and a network giftcard used and held.
func (f *isoFixture) seedNetwork(t *testing.T) {
	t.Helper()
	ctx, db, ownerID := context.Background(), f.db, f.owner
	f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/network_partners/", f.ownerTok, f.networkPartnerBody(t, ""), "application/json"))

	// A network voucher box of the owner, with a partner of its network,
	// and a voucher of it used once.
	gcMust(t, db.NewRaw(`INSERT INTO partners (name) VALUES ('Network partner') RETURNING id`).Scan(ctx, &f.networkPartner))
	gcMust(t, db.NewRaw(`INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, '7') RETURNING partner_id`,
		ownerID, f.networkPartner).Scan(ctx, new(int64)))
	gcMust(t, db.NewRaw(`INSERT INTO network_voucher_boxes (marketplace_id, name) VALUES (?, ?) RETURNING id`,
		ownerID, `{"fr": "`+isoSecret+` coffret"}`).Scan(ctx, &f.nvBox))
	gcMust(t, db.NewRaw(`INSERT INTO box_offers (box_id, partner_id, status) VALUES (?, ?, 'VALIDATED') RETURNING id`,
		f.nvBox, f.networkPartner).Scan(ctx, &f.nvOffer))
	gcMust(t, db.NewRaw(`WITH c AS (INSERT INTO gift_codes (code, kind) VALUES (?, 'network_voucher') RETURNING code)
		INSERT INTO network_vouchers (code, box_id, status, max_usages, gifter_email) SELECT code, ?, 'paid', 5, 'owner@example.com' FROM c
		RETURNING id`, isoNetworkVoucher, f.nvBox).Scan(ctx, new(int64)))
	m := f.mustOK(t, http.StatusOK, f.rest(t, http.MethodPost, "/api/networkvouchers_by_code/"+isoNetworkVoucher+"/use/", f.ownerTok,
		`{"creation_date": "2026-11-24", "partner_source_id": 7, "comment": "`+isoSecret+`"}`, "application/json"))
	f.nvUsage = int64(m["id"].(float64))

	// A network giftcard of the owner, used and held at networkPartner,
	// which accepts the owner's cards.
	gcMust(t, db.NewRaw(`INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?) RETURNING partner_id`,
		ownerID, f.networkPartner).Scan(ctx, new(int64)))
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/networkgiftcards/", f.ownerTok, jsonOf(t, map[string]any{
		"marketplace_uuid": f.ownerUUID, "status": "paid", "value": 100, "from_gifter": isoSecret,
		"gifter":          map[string]any{"first_name": isoSecret, "last_name": "G", "email": "owner@example.com"},
		"activation_date": "2026-01-01", "expiration_date": "2030-12-31"}), "application/json"))
	f.ngcCode, f.ngc = m["code"].(string), int64(m["id"].(float64))
	m = f.mustOK(t, http.StatusOK, f.rest(t, http.MethodPost, "/api/networkgiftcards_by_code/"+f.ngcCode+"/use/", f.ownerTok,
		`{"creation_date": "2026-11-24", "value": 10, "partner_source_id": 7, "comment": "`+isoSecret+`", "send_usage_notification_email": false}`,
		"application/json"))
	f.ngcUsage = int64(m["id"].(float64))
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/networkgiftcards_by_code/"+f.ngcCode+"/holds/", f.ownerTok,
		`{"amount": 5, "reservation_id": "`+isoHold+`", "partner_source_id": 7}`, "application/json"))
	f.ngcHold = int64(m["id"].(float64))
	gcMust(t, db.NewRaw(`SELECT max(id) FROM network_giftcard_movements WHERE network_giftcard_id = ?`, f.ngc).Scan(ctx, &f.ngcMovement))
}

// networkGiftcardBody is a network giftcard creation of marketplace.
func (f *isoFixture) networkGiftcardBody(marketplace string) string {
	return `{"marketplace_uuid": "` + marketplace + `", "status": "paid", "value": 50, "from_gifter": "` + isoSecret + `",
		"gifter": {"first_name": "Owner", "last_name": "` + isoSecret + `", "email": "owner@example.com"},
		"activation_date": "2026-01-01", "expiration_date": "2030-01-01", "send_usage_notification_email": false}`
}

// networkPartnerBody creates the owner's network partner, source id
// isoSourceID; marketplaceUUID "" leaves marketplace_uuid out.
func (f *isoFixture) networkPartnerBody(t *testing.T, marketplaceUUID string) string {
	t.Helper()
	m := map[string]any{"name": isoSecret + " spa", "commercial_name": isoSecret, "short_name": "ISO",
		"siret_number": isoSiret, "legal_representative_first_name": isoSecret, "legal_representative_last_name": "L",
		"hq_address_line_1": "1 rue", "hq_postal_code": "75001", "hq_city": "Paris", "hq_country": "FR", "rcs": "R",
		"ape": "A", "vat_id": "V", "agency_email": "iso@example.com", "website": "https://iso.example.com",
		"source_id": isoSourceID, "partner_tags": []any{map[string]any{"tag": isoSecret}}}
	if marketplaceUUID != "" {
		m["marketplace_uuid"] = marketplaceUUID
	}
	return jsonOf(t, m)
}

func (f *isoFixture) networkREST(t *testing.T) []isoREST {
	const js = "application/json"
	nvUse := `{"creation_date": "2026-11-24", "partner_source_id": 7}`
	ngc := "/api/networkgiftcards_by_code/" + f.ngcCode
	ngcUse := `{"creation_date": "2026-11-24", "value": 1, "partner_source_id": 7}`
	return []isoREST{
		{"POST", "/api/network_partners/", f.networkPartnerBody(t, f.ownerUUID), js, 0, 400, 403},
		{"PATCH", "/api/network_partners/", `{"source_id": "` + isoSourceID + `", "status": "i"}`, js, 0, 404, 403},
		{"PATCH", "/api/network_partners/", `{"siret_number": "` + isoSiret + `", "status": "i"}`, js, 0, 404, 403},
		{"GET", "/api/partners/check/?siret_number=" + isoSiret + "&commercial_name=" + isoSecret, "", js, 200, 404, 403},
		{"GET", "/api/networkvouchers/boxes/", "", js, 200, 200, 200},
		{"GET", fmt.Sprintf("/api/networkvouchers/boxes/%d/", f.nvBox), "", js, 200, 404, 404},
		{"GET", fmt.Sprintf("/api/networkvouchers/boxes/%d/offers/", f.nvBox), "", js, 200, 404, 404},
		{"GET", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/", "", js, 200, 404, 404},
		{"GET", "/api/networkvouchers_by_email/owner@example.com/", "", js, 200, 200, 200},
		{"GET", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/usages/", "", js, 200, 404, 404},
		{"POST", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/use/", nvUse, js, 0, 404, 403},
		{"POST", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/use_with_service_id/",
			fmt.Sprintf(`{"creation_date": "2026-11-24", "partner_id": %d}`, f.networkPartner), js, 0, 404, 403},
		{"POST", fmt.Sprintf("/api/networkvoucher_usages/%d/cancel/", f.nvUsage), `{"comment": "x"}`, js, 0, 404, 403},
		{"POST", "/api/networkgiftcards/", f.networkGiftcardBody(f.ownerUUID), js, 0, 400, 403},
		{"GET", "/api/networkgiftcards/" + f.ngcCode + "/", "", js, 200, 404, 404},
		{"GET", ngc + "/", "", js, 200, 404, 404},
		{"GET", "/api/networkgiftcards_by_email/owner@example.com/", "", js, 200, 200, 200},
		{"GET", ngc + "/usages/", "", js, 200, 404, 404},
		{"POST", ngc + "/use/", ngcUse, js, 0, 404, 403},
		{"POST", ngc + "/use_with_service_id/", fmt.Sprintf(`{"creation_date": "2026-11-24", "value": 1, "partner_id": %d}`, f.networkPartner), js, 0, 404, 403},
		{"POST", fmt.Sprintf("/api/networkgiftcard_usages/%d/cancel/", f.ngcUsage), `{"comment": "x"}`, js, 0, 404, 403},
		{"POST", ngc + "/holds/", `{"amount": 1, "reservation_id": "R", "partner_source_id": 7}`, js, 0, 404, 403},
		{"GET", ngc + "/holds/", "", js, 200, 404, 404},
		{"POST", ngc + "/holds/" + isoHold + "/capture/", `{"value": 1}`, js, 0, 404, 403},
		{"POST", ngc + "/holds/" + isoHold + "/release/", "", js, 0, 404, 403},
		{"POST", ngc + "/adjust/", `{"amount": 1, "reason": "x"}`, js, 0, 403, 403},
		{"GET", ngc + "/movements/", "", js, 200, 404, 404},
	}
}

func (f *isoFixture) networkGraph() []isoGraph {
	return []isoGraph{
		{"networkGiftcard", `query($c: String!) { networkGiftcard(code: $c) { code fromGifter } }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"networkGiftcards", `{ networkGiftcards(first: 100) { totalCount edges { node { code fromGifter
			usages { edges { node { comment } } } } } } }`, nil, ""},
		{"networkGiftcardsByEmail", `query($e: String!) { networkGiftcardsByEmail(email: $e) { totalCount edges { node { code } } } }`,
			map[string]any{"e": "owner@example.com"}, ""},
		{"networkPartners", `{ networkPartners(first: 100) { totalCount edges { node { name commercialName } } } }`, nil, ""},
		{"checkNetworkPartner", `query($s: String!, $c: String!) { checkNetworkPartner(siretNumber: $s, commercialName: $c) }`,
			map[string]any{"s": isoSiret, "c": isoSecret}, "NOT_FOUND"},
		{"networkPartners of the owner", `query($m: ID) { networkPartners(marketplaceId: $m) { totalCount edges { node { name } } } }`,
			map[string]any{"m": globalID("Partner", f.ownerUUID)}, "BAD_USER_INPUT"},
		{"networkVoucherBoxes", `{ networkVoucherBoxes(first: 100) { totalCount edges { node { name { fr }
			offers { edges { node { partner { name } } } } } } } }`, nil, ""},
		{"networkVoucherBox", `query($id: ID!) { networkVoucherBox(id: $id) { name { fr } } }`,
			map[string]any{"id": globalID("NetworkVoucherBox", f.nvBox)}, "NOT_FOUND"},
		{"networkVoucher", `query($c: String!) { networkVoucher(code: $c) { code } }`, map[string]any{"c": isoNetworkVoucher}, "NOT_FOUND"},
		{"networkVouchersByEmail", `query($e: String!) { networkVouchersByEmail(email: $e) { totalCount edges { node { code
			usages { edges { node { comment } } } } } } }`, map[string]any{"e": "owner@example.com"}, ""},
		{"createNetworkGiftcard", `mutation($m: ID!) { createNetworkGiftcard(input: {marketplaceId: $m, status: PAID, value: "1",
			gifter: {firstName: "x", lastName: "y", email: "x@example.com"}, fromGifter: "", activationDate: "2026-01-01",
			expirationDate: "2030-01-01"}) ` + isoPayload + ` }`, map[string]any{"m": globalID("Partner", f.ownerUUID)}, "userErrors"},
		{"useNetworkGiftcard", `mutation($c: String!) { useNetworkGiftcard(input: {code: $c, partnerSourceId: "7", value: "1",
			creationDate: "2026-11-24"}) ` + isoPayload + ` }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"cancelNetworkGiftcardUsage", `mutation($id: ID!) { cancelNetworkGiftcardUsage(input: {usageId: $id}) ` + isoPayload + ` }`,
			map[string]any{"id": globalID("NetworkGiftcardUsage", f.ngcUsage)}, "NOT_FOUND"},
		{"holdNetworkGiftcard", `mutation($c: String!) { holdNetworkGiftcard(input: {code: $c, partnerSourceId: "7", amount: "1",
			reservationId: "R"}) ` + isoPayload + ` }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"captureNetworkGiftcardHold", `mutation($c: String!) { captureNetworkGiftcardHold(input: {code: $c, reservationId: "ISO-HOLD"}) ` +
			isoPayload + ` }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"releaseNetworkGiftcardHold", `mutation($c: String!) { releaseNetworkGiftcardHold(input: {code: $c, reservationId: "ISO-HOLD"}) ` +
			isoPayload + ` }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"adjustNetworkGiftcard", `mutation($c: String!) { adjustNetworkGiftcard(input: {code: $c, amount: "-1", reason: "x"}) ` +
			isoPayload + ` }`, map[string]any{"c": f.ngcCode}, "FORBIDDEN"},
		{"createNetworkPartner", `mutation($m: ID) { createNetworkPartner(input: {marketplaceId: $m, name: "x", commercialName: "x",
			shortName: "x", siretNumber: "1", legalRepresentativeFirstName: "x", legalRepresentativeLastName: "x", hqAddressLine1: "x",
			hqPostalCode: "1", hqCity: "x", hqCountry: "x", rcs: "x", ape: "x", vatId: "x", agencyEmail: "x@example.com",
			website: "https://x.example.com"}) ` + isoPayload + ` }`, map[string]any{"m": globalID("Partner", f.ownerUUID)}, "userErrors"},
		{"updateNetworkPartner", `mutation($s: String) { updateNetworkPartner(input: {sourceId: $s, status: INACTIVE}) ` + isoPayload + ` }`,
			map[string]any{"s": isoSourceID}, "NOT_FOUND"},
		{"updateNetworkPartner of the owner", `mutation($m: ID, $s: String) { updateNetworkPartner(input: {marketplaceId: $m, sourceId: $s,
			status: INACTIVE}) ` + isoPayload + ` }`, map[string]any{"m": globalID("Partner", f.ownerUUID), "s": isoSourceID}, "userErrors"},
		{"recordNetworkVoucherUsage", `mutation($c: String!) { recordNetworkVoucherUsage(input: {code: $c, partnerSourceId: "7",
			creationDate: "2026-11-24"}) ` + isoPayload + ` }`, map[string]any{"c": isoNetworkVoucher}, "NOT_FOUND"},
		{"cancelNetworkVoucherUsage", `mutation($id: ID!) { cancelNetworkVoucherUsage(input: {usageId: $id}) ` + isoPayload + ` }`,
			map[string]any{"id": globalID("NetworkVoucherUsage", f.nvUsage)}, "NOT_FOUND"},
		{"node NetworkGiftcard", isoNode, map[string]any{"id": globalID("NetworkGiftcard", f.ngc)}, "NOT_FOUND"},
		{"node NetworkGiftcardUsage", isoNode, map[string]any{"id": globalID("NetworkGiftcardUsage", f.ngcUsage)}, "NOT_FOUND"},
		{"node NetworkGiftcardHold", isoNode, map[string]any{"id": globalID("NetworkGiftcardHold", f.ngcHold)}, "NOT_FOUND"},
		{"node NetworkGiftcardMovement", isoNode, map[string]any{"id": globalID("NetworkGiftcardMovement", f.ngcMovement)}, "NOT_FOUND"},
		{"node NetworkPartner", isoNode, map[string]any{"id": globalID("NetworkPartner", fmt.Sprintf("%d:%d", f.owner, f.networkPartner))}, "NOT_FOUND"},
		{"node NetworkVoucherBox", isoNode, map[string]any{"id": globalID("NetworkVoucherBox", f.nvBox)}, "NOT_FOUND"},
		{"node NetworkVoucherBoxOffer", isoNode, map[string]any{"id": globalID("NetworkVoucherBoxOffer", f.nvOffer)}, "NOT_FOUND"},
		{"node NetworkVoucher", isoNode, map[string]any{"id": globalID("NetworkVoucher", isoNetworkVoucher)}, "NOT_FOUND"},
		{"node NetworkVoucherUsage", isoNode, map[string]any{"id": globalID("NetworkVoucherUsage", f.nvUsage)}, "NOT_FOUND"},
	}
}

func (f *isoFixture) networkMalformed(t *testing.T) []isoMalformed {
	return []isoMalformed{
		{"POST", "/api/network_partners/", `{"name": `, "application/json"},
		{"POST", "/api/network_partners/", `{"name": "x", "hq_postal_code": "75001-75002"}`, "application/json"},
		{"PATCH", "/api/network_partners/", `{"source_id": "` + isoSourceID + `", "status": "a"}`, "application/json"},
		{"PATCH", "/api/network_partners/", `{"status": "i"}`, "application/json"},
		{"POST", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/use/", `{"creation_date": `, "application/json"},
		{"POST", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/use/", `{"creation_date": "soon", "partner_source_id": 7}`, "application/json"},
		{"POST", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/use_with_service_id/", `{"creation_date": "2026-11-24", "partner_id": true}`, "application/json"},
		{"POST", fmt.Sprintf("/api/networkvoucher_usages/%d/cancel/", f.nvUsage), `{"comment": 5}`, "application/json"},
	}
}
