package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// adminIsolation is the administration's part of TestAdminIsolation:
// media, vouchers, giftcards, voucher prototypes and their options.
var adminIsolation = isoArea{
	tables: []string{"media", "voucher_prototypes", "voucher_prototype_images", "option_categories", "options",
		"option_services", "voucher_prototype_options", "vouchers", "voucher_options", "voucher_state_changes",
		"giftcards", "gift_codes", "customers"},
	rest:           (*isoFixture).adminREST,
	graph:          (*isoFixture).adminGraph,
	uploads:        []isoCheck{{"GraphQL uploadMedia for the owner", (*isoFixture).uploadMediaAsOthers}},
	malformed:      (*isoFixture).adminMalformed,
	malformedGraph: []isoCheck{{"malformed GraphQL variables", (*isoFixture).malformedPrototypeVariables}},
}

// seedAdmin writes the owner's media, voucher prototype, option category
// and option, and has staff issue it a voucher and a giftcard.
func (f *isoFixture) seedAdmin(t *testing.T, staffTok string) {
	t.Helper()
	body, ct := multipartBody(t, field("name", isoSecret+" photo"), file("file", f.png))
	m := f.mustOK(t, http.StatusCreated, Do(t, http.MethodPost, f.URL+"/api/media/", body, "Content-Type", ct, "Authorization", "Token "+f.ownerTok))
	f.media, f.mediaUUID = int64(m["id"].(float64)), m["uuid"].(string)
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/voucher_prototypes/", f.ownerTok, f.prototypeBody(t, ""), "application/json"))
	f.prototype = int64(m["id"].(float64))
	m = f.mustOK(t, http.StatusOK, f.rest(t, http.MethodPost, "/api/option_categories/", f.ownerTok, jsonOf(t, map[string]any{
		"partner_uuid": f.ownerUUID, "name_fr": isoSecret + " catégorie", "description_fr": "", "min_number_options": 1}), "application/json"))
	f.category = int64(m["id"].(float64))
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/options/", f.ownerTok, f.optionBody(t), "application/json"))
	f.option = int64(m["id"].(float64))

	issued := f.graphOK(t, staffTok, `mutation($in: IssueVoucherInput!) { issueVoucher(input: $in) { voucher { code } userErrors { field } errors { field } } }`,
		map[string]any{"in": map[string]any{"voucherPrototypeId": fmt.Sprint(f.prototype), "totalPrice": "120.00",
			"summary": isoSecret + " voucher", "gifterFirstName": isoSecret}})
	f.voucher = issued["issueVoucher"].(map[string]any)["voucher"].(map[string]any)["code"].(string)
	issued = f.graphOK(t, staffTok, `mutation($in: IssueGiftcardInput!) { issueGiftcard(input: $in) { giftcard { id: legacyId code } userErrors { field } errors { field } } }`,
		map[string]any{"in": map[string]any{"giftcardPrototypeId": fmt.Sprint(f.giftcardPrototype), "value": "50.00",
			"gifterLastName": isoSecret}})
	g := issued["issueGiftcard"].(map[string]any)["giftcard"].(map[string]any)
	f.giftcardNo = g["code"].(string)
	_, err := fmt.Sscan(g["id"].(string), &f.giftcard)
	gcMust(t, err)
}

// prototypeBody is a complete 4.6 body; partnerUUID "" leaves it out.
func (f *isoFixture) prototypeBody(t *testing.T, partnerUUID string) string {
	t.Helper()
	m := map[string]any{"type": "stay", "stay_price": 99.5, "universe": f.universe, "images": []int64{f.media},
		"cover_image": f.media}
	for _, l := range langs {
		m["name_"+l], m["description_"+l], m["long_description_"+l] = isoSecret+" séjour "+l, "", ""
	}
	if partnerUUID != "" {
		m["partner_uuid"] = partnerUUID
	}
	return jsonOf(t, m)
}

func (f *isoFixture) optionBody(t *testing.T) string {
	t.Helper()
	m := map[string]any{"category": f.category, "voucher_prototypes": []int64{f.prototype}, "selling_price": 12}
	for _, l := range langs {
		m["name_"+l], m["description_"+l] = isoSecret+" option", ""
	}
	return jsonOf(t, m)
}

func (f *isoFixture) adminREST(t *testing.T) []isoREST {
	mediaBody, mediaType := multipartBody(t, field("name", "x"), field("partner_uuid", f.ownerUUID), file("file", f.png))
	const js = "application/json"
	v, p, g := f.voucher, f.prototype, f.giftcard
	return []isoREST{
		{"GET", "/api/permissions/", "", js, 200, 200, 200},
		{"POST", "/api/media/", mediaBody, mediaType, 0, 400, 403},
		{"GET", "/api/media/", "", js, 200, 200, 200},
		{"GET", fmt.Sprintf("/api/media/%d/", f.media), "", js, 200, 404, 404},
		{"PATCH", fmt.Sprintf("/api/media/%d/", f.media), `{"name": "renamed"}`, js, 0, 404, 403},
		{"GET", "/api/giftcards/", "", js, 200, 200, 200},
		{"GET", fmt.Sprintf("/api/giftcards/%d/", g), "", js, 200, 404, 404},
		{"GET", "/api/giftcards_by_code/" + f.giftcardNo + "/", "", js, 200, 404, 404},
		{"GET", "/api/vouchers/", "", js, 200, 200, 200},
		{"GET", "/api/vouchers/" + v + "/", "", js, 200, 404, 404},
		{"PATCH", "/api/vouchers/" + v + "/", `{"state": "used"}`, js, 0, 404, 403},
		{"POST", "/api/voucher_prototypes/", f.prototypeBody(t, f.ownerUUID), js, 0, 400, 403},
		{"GET", "/api/voucher_prototypes/", "", js, 200, 200, 200},
		{"GET", fmt.Sprintf("/api/voucher_prototypes/%d/", p), "", js, 200, 404, 404},
		{"PUT", fmt.Sprintf("/api/voucher_prototypes/%d/", p), f.prototypeBody(t, ""), js, 0, 404, 403},
		{"PATCH", fmt.Sprintf("/api/voucher_prototypes/%d/", p), `{"ranking": 9}`, js, 0, 404, 403},
		{"GET", fmt.Sprintf("/api/voucher_prototypes/%d/options/", p), "", js, 200, 404, 404},
		{"POST", "/api/options/", f.optionBody(t), js, 0, 400, 403},
		{"POST", "/api/option_categories/", jsonOf(t, map[string]any{"partner_uuid": f.ownerUUID, "name_fr": "x"}), js, 0, 400, 403},
	}
}

func (f *isoFixture) adminGraph() []isoGraph {
	return []isoGraph{
		{"viewer", `{ viewer { permissions } }`, nil, ""},
		{"media", `{ media(first: 100) { totalCount edges { node { uuid name } } } }`, nil, ""},
		{"mediaItem", `query($id: ID!) { mediaItem(id: $id) { uuid name } }`, map[string]any{"id": isoID(f.media)}, "NOT_FOUND"},
		{"renameMedia", `mutation($id: ID!) { renameMedia(input: {id: $id, name: "x"}) ` + isoPayload + ` }`,
			map[string]any{"id": isoID(f.media)}, "NOT_FOUND"},
		{"adminVouchers", `{ adminVouchers(first: 100) { totalCount edges { node { code summary } } } }`, nil, ""},
		{"adminVoucher", `query($c: String!) { adminVoucher(code: $c) { code } }`, map[string]any{"c": f.voucher}, "NOT_FOUND"},
		{"updateVoucherState", `mutation($c: String!) { updateVoucherState(input: {code: $c, state: USED}) ` + isoPayload + ` }`,
			map[string]any{"c": f.voucher}, "NOT_FOUND"},
		{"issueVoucher", `mutation($p: ID!) { issueVoucher(input: {voucherPrototypeId: $p, totalPrice: "1.00"}) ` + isoPayload + ` }`,
			map[string]any{"p": isoID(f.prototype)}, "FORBIDDEN"},
		{"adminGiftcards", `{ adminGiftcards(first: 100) { totalCount edges { node { code } } } }`, nil, ""},
		{"adminGiftcard by id", `query($id: ID) { adminGiftcard(id: $id) { code } }`, map[string]any{"id": isoID(f.giftcard)}, "NOT_FOUND"},
		{"adminGiftcard by code", `query($c: String) { adminGiftcard(code: $c) { code } }`, map[string]any{"c": f.giftcardNo}, "NOT_FOUND"},
		{"issueGiftcard", `mutation($p: ID!) { issueGiftcard(input: {giftcardPrototypeId: $p, value: "1.00"}) ` + isoPayload + ` }`,
			map[string]any{"p": isoID(f.giftcardPrototype)}, "FORBIDDEN"},
		{"adminVoucherPrototypes", `{ adminVoucherPrototypes(first: 100) { totalCount edges { node { id name { fr } } } } }`, nil, ""},
		{"adminVoucherPrototype", `query($id: ID!) { adminVoucherPrototype(id: $id) { id } }`, map[string]any{"id": isoID(f.prototype)}, "NOT_FOUND"},
		{"createVoucherPrototype", `mutation($u: UUID, $uni: ID!, $m: ID!) { createVoucherPrototype(input: {partnerUuid: $u,
			name: [{language: FR, text: "x"}], description: [], longDescription: [], type: STAY, stayPrice: "1",
			universeId: $uni, imageIds: [$m]}) ` + isoPayload + ` }`,
			map[string]any{"u": f.ownerUUID, "uni": isoID(f.universe), "m": isoID(f.media)}, "userErrors"},
		{"updateVoucherPrototype", `mutation($id: ID!) { updateVoucherPrototype(input: {id: $id, ranking: 9}) ` + isoPayload + ` }`,
			map[string]any{"id": isoID(f.prototype)}, "NOT_FOUND"},
		{"createOption", `mutation($p: ID!, $c: ID!) { createOption(input: {name: [{language: FR, text: "x"}], description: [],
			categoryId: $c, prototypeIds: [$p]}) ` + isoPayload + ` }`,
			map[string]any{"p": isoID(f.prototype), "c": isoID(f.category)}, "userErrors"},
		{"createOptionCategory", `mutation($u: UUID!) { createOptionCategory(input: {partnerUuid: $u, name: [{language: FR, text: "x"}]}) ` +
			isoPayload + ` }`, map[string]any{"u": f.ownerUUID}, "userErrors"},
		{"viewer's partner lists", `{ viewer { partner {
			voucherPrototypes(first: 100) { edges { node { name { fr } images { uuid } } } }
			vouchers(first: 100) { edges { node { code prototype { id } } } }
			giftcards(first: 100) { edges { node { code } } }
			media(first: 100) { edges { node { uuid } } } } } }`, nil, ""},
		{"adminPartner", `query($u: UUID!) { adminPartner(uuid: $u) { vouchers(first: 100) { totalCount } } }`,
			map[string]any{"u": f.ownerUUID}, "NOT_FOUND"},
		{"setPrototypeOption", `mutation($p: ID!, $o: ID!) { setPrototypeOption(input: {prototypeId: $p, optionId: $o, count: 3}) ` +
			isoPayload + ` }`, map[string]any{"p": isoID(f.prototype), "o": isoID(f.option)}, "NOT_FOUND"},
		{"adminOptions", `{ adminOptions(first: 100) { totalCount edges { node { id name { fr } category { name { fr } } } } } }`, nil, ""},
		{"adminOptions of the owner's category", `query($c: ID!) { adminOptions(filter: {categoryId: $c}) { totalCount edges { node { id } } } }`,
			map[string]any{"c": isoID(f.category)}, ""},
		{"adminOption", `query($id: ID!) { adminOption(id: $id) { id name { fr } } }`, map[string]any{"id": isoID(f.option)}, "NOT_FOUND"},
		{"adminOptionCategories", `{ adminOptionCategories(first: 100) { totalCount edges { node { id name { fr }
			options { edges { node { name { fr } } } } } } } }`, nil, ""},
		{"adminOptionCategory", `query($id: ID!) { adminOptionCategory(id: $id) { id name { fr } } }`, map[string]any{"id": isoID(f.category)}, "NOT_FOUND"},
		{"media filtered", `{ media(filter: {search: "` + isoSecret + `"}, orderBy: {field: NAME}) { totalCount edges { node { uuid } } } }`, nil, ""},
		{"viewer's partner options", `{ viewer { partner { options { edges { node { name { fr } } } }
			optionCategories { edges { node { name { fr } } } } } } }`, nil, ""},
		{"adminPartner options", `query($u: UUID!) { adminPartner(uuid: $u) { options { totalCount } optionCategories { totalCount } } }`,
			map[string]any{"u": f.ownerUUID}, "NOT_FOUND"},
		// The owner's records by their global ids: node answers as each type's own lookup.
		{"adminPartner by id", `query($id: ID) { adminPartner(id: $id) { uuid } }`, map[string]any{"id": globalID("Partner", f.ownerUUID)}, "NOT_FOUND"},
		{"adminVoucher by id", `query($id: ID) { adminVoucher(id: $id) { code } }`, map[string]any{"id": globalID("AdminVoucher", f.voucher)}, "NOT_FOUND"},
		{"node Partner", isoNode, map[string]any{"id": globalID("Partner", f.ownerUUID)}, "NOT_FOUND"},
		{"node Media", isoNode, map[string]any{"id": globalID("Media", f.media)}, "NOT_FOUND"},
		{"node AdminVoucher", isoNode, map[string]any{"id": globalID("AdminVoucher", f.voucher)}, "NOT_FOUND"},
		{"node AdminGiftcard", isoNode, map[string]any{"id": globalID("AdminGiftcard", f.giftcard)}, "NOT_FOUND"},
		{"node AdminVoucherPrototype", isoNode, map[string]any{"id": globalID("AdminVoucherPrototype", f.prototype)}, "NOT_FOUND"},
		{"node VoucherOption", isoNode, map[string]any{"id": globalID("VoucherOption", f.option)}, "NOT_FOUND"},
		{"node OptionCategory", isoNode, map[string]any{"id": globalID("OptionCategory", f.category)}, "NOT_FOUND"},
	}
}

// uploadMediaAsOthers uploads a media item for the owner with each account
// but the owner's.
func (f *isoFixture) uploadMediaAsOthers(t *testing.T) {
	ops := jsonOf(t, map[string]any{
		"query":     `mutation($in: UploadMediaInput!) { uploadMedia(input: $in) { media { uuid } userErrors { field code } errors { field code } } }`,
		"variables": map[string]any{"in": map[string]any{"name": "x", "partnerUuid": f.ownerUUID, "file": nil}},
	})
	body, ct := multipartBody(t, field("operations", ops), field("map", `{"f": ["variables.in.file"]}`), file("f", f.png))
	for _, tok := range []string{"", f.rivalTok, f.readerTok} {
		h := []string{"Content-Type", ct, "GraphQL-Require-Preflight", "1"}
		if tok != "" {
			h = append(h, auth(tok)...)
		}
		data, errs := decodeGraph(t, Do(t, http.MethodPost, f.URL+"/graphql", body, h...))
		switch tok {
		case "":
			wantGraphCode(t, errs, "UNAUTHENTICATED")
		case f.readerTok:
			wantGraphCode(t, errs, "FORBIDDEN")
		default:
			if !strings.Contains(string(data), `"field":["partnerUuid"]`) {
				t.Errorf("rival uploading for the owner: %s %+v", data, errs)
			}
		}
	}
}

func (f *isoFixture) adminMalformed(t *testing.T) []isoMalformed {
	return []isoMalformed{
		{"POST", "/api/media/", "--x\r\nnot multipart", "multipart/form-data; boundary=x"},
		{"POST", "/api/media/", "", "multipart/form-data; boundary=x"},
		{"PATCH", fmt.Sprintf("/api/media/%d/", f.media), `{"name": `, "application/json"},
		{"PATCH", fmt.Sprintf("/api/media/%d/", f.media), `{"name": ["x"]}`, "application/json"},
		{"PATCH", "/api/vouchers/" + f.voucher + "/", `{"state": `, "application/json"},
		{"PATCH", "/api/vouchers/" + f.voucher + "/", `["used"]`, "application/json"},
		{"POST", "/api/voucher_prototypes/", `{"type": "stay",`, "application/json"},
		{"POST", "/api/voucher_prototypes/", `{"type": "castle", "stay_price": "many"}`, "application/json"},
		{"PUT", fmt.Sprintf("/api/voucher_prototypes/%d/", f.prototype), `{}`, "application/json"},
		{"PATCH", fmt.Sprintf("/api/voucher_prototypes/%d/", f.prototype), `{"images": "all"}`, "application/json"},
		{"PATCH", fmt.Sprintf("/api/voucher_prototypes/%d/", f.prototype), `{"ranking": 1, "pdf_description_fr": "` + strings.Repeat("x", 301) + `"}`, "application/json"},
		{"POST", "/api/options/", `null`, "application/json"},
		{"POST", "/api/options/", `{"selling_price": -1}`, "application/json"},
		{"POST", "/api/option_categories/", `{"partner_uuid": "` + f.ownerUUID + `", "min_number_options": 3, "max_number_options": 1}`, "application/json"},
		{"POST", "/api/option_categories/", `{"partner_uuid": 7`, "application/json"},
	}
}

// malformedPrototypeVariables sends a prototype update whose variables do
// not match the schema.
func (f *isoFixture) malformedPrototypeVariables(t *testing.T) {
	res := f.graph(t, f.ownerTok, `mutation($in: UpdateVoucherPrototypeInput!) { updateVoucherPrototype(input: $in) { __typename } }`,
		map[string]any{"in": map[string]any{"id": fmt.Sprint(f.prototype), "ranking": "high"}})
	if _, errs := decodeGraph(t, res); len(errs) != 1 || errs[0].Extensions["code"] != "GRAPHQL_VALIDATION_FAILED" {
		t.Errorf("%d %s", res.Status, res.Body)
	}
}
