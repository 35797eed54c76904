package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// isoFixture is a running server with one partner's administration records
// (owner's media, voucher prototype, option category, option, voucher and
// giftcard) and the accounts that must not reach them:
//   - rival: a member of another partner holding every permission;
//   - reader: a member of a third partner without permissions;
//   - nobody: no token.
type isoFixture struct {
	*Server
	db                             *bun.DB
	ownerTok, rivalTok, readerTok  string
	ownerUUID                      string
	universe, giftcardPrototype    int64
	media, prototype, category     int64
	option, giftcard               int64
	mediaUUID, voucher, giftcardNo string
	png                            []byte
	// The owner's network voucher box, an offer in it, a voucher of it and
	// a usage at networkPartner.
	nvBox, nvOffer, nvUsage, networkPartner int64
	// The owner's network giftcard, used and held at networkPartner.
	owner, ngc, ngcUsage, ngcHold, ngcMovement int64
	ngcCode                                    string
	// The owner's multi-product cart.
	mpCart string
	// The owner's payment-hub partner (it refers it), its KYC document,
	// its wallet, with a movement, and its payment; the wallet of the
	// owner's network giftcard (the card's uuid).
	hubPartner, hubWallet, ngcUUID, payment string
	kycDocument                             int64
	// The payout request of the hub partner's payment.
	payout int64
	// A payment request of the owner's payment-hub partner.
	paymentRequest int64
}

// isoHold is the reservation id of the owner's hold.
const isoHold = "ISO-HOLD"

// isoNetworkVoucher is the code of the owner's network voucher.
const isoNetworkVoucher = "ISO-NV-0001"

// isoSecret marks the owner's texts: no answer to another account holds it.
const isoSecret = "OWNER-ONLY"

func newIsoFixture(t *testing.T) *isoFixture {
	t.Helper()
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	// Owner and rival are marketplaces, so that their networks can be
	// probed too.
	every := []string{"--permission", domain.PermManageMasterAdmin, "--permission", domain.PermUseVoucher,
		"--permission", domain.PermAccessConfigurationMarketplaces, "--permission", domain.PermUseNetworkGiftcardAPI,
		"--permission", domain.PermCreateNetworkGiftcardAPI, "--permission", domain.PermAccessFinancialOrderLines,
		"--marketplace"}
	f := &isoFixture{
		ownerTok: CreateUser(t, dsn, append([]string{"--username", "owner", "--password", "owner-password",
			"--partner-name", "Owner"}, every...)...),
		rivalTok: CreateUser(t, dsn, append([]string{"--username", "rival", "--password", "rival-password",
			"--partner-name", "Rival"}, every...)...),
		readerTok: CreateUser(t, dsn, "--username", "reader", "--password", "reader-password", "--partner-name", "Reader"),
	}
	staffTok := CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff")
	f.Server = Serve(t, dsn, "--data-dir", t.TempDir())
	db, err := persistence.Open(ctx, dsn)
	gcMust(t, err)
	t.Cleanup(func() { db.Close() })
	f.db = db
	gcMust(t, db.NewRaw(`SELECT id, uuid::text FROM partners WHERE name = 'Owner'`).Scan(ctx, &f.owner, &f.ownerUUID))
	ownerID := f.owner
	gcMust(t, db.NewRaw(`INSERT INTO universes (name) VALUES ('{"fr": "Séjours"}') RETURNING id`).Scan(ctx, &f.universe))
	gcMust(t, db.NewRaw(`INSERT INTO giftcard_prototypes (partner_id) VALUES (?) RETURNING id`, ownerID).Scan(ctx, &f.giftcardPrototype))

	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	var b bytes.Buffer
	gcMust(t, png.Encode(&b, img))
	f.png = b.Bytes()

	// The owner's records, written through the API as a client would.
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
	f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/network_partners/", f.ownerTok, f.networkPartnerBody(t, ""), "application/json"))

	issued := f.graphOK(t, staffTok, `mutation($in: IssueVoucherInput!) { issueVoucher(input: $in) { voucher { code } userErrors { field } errors { field } } }`,
		map[string]any{"in": map[string]any{"voucherPrototypeId": fmt.Sprint(f.prototype), "totalPrice": "120.00",
			"summary": isoSecret + " voucher", "gifterFirstName": isoSecret}})
	f.voucher = issued["issueVoucher"].(map[string]any)["voucher"].(map[string]any)["code"].(string)
	issued = f.graphOK(t, staffTok, `mutation($in: IssueGiftcardInput!) { issueGiftcard(input: $in) { giftcard { id: legacyId code } userErrors { field } errors { field } } }`,
		map[string]any{"in": map[string]any{"giftcardPrototypeId": fmt.Sprint(f.giftcardPrototype), "value": "50.00",
			"gifterLastName": isoSecret}})
	g := issued["issueGiftcard"].(map[string]any)["giftcard"].(map[string]any)
	f.giftcardNo = g["code"].(string)
	_, err = fmt.Sscan(g["id"].(string), &f.giftcard)
	gcMust(t, err)

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
	m = f.mustOK(t, http.StatusOK, f.rest(t, http.MethodPost, "/api/networkvouchers_by_code/"+isoNetworkVoucher+"/use/", f.ownerTok,
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

	// A multi-product cart of the owner, of its network giftcards.
	gcMust(t, db.NewRaw(`INSERT INTO product_information_network_giftcards (partner_id, giftcard_predefined_amounts)
		VALUES (?, '{25}') RETURNING partner_id`, ownerID).Scan(ctx, new(int64)))
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/multi_product_carts/", f.ownerTok, f.mpCartBody(f.ownerUUID), "application/json"))
	f.mpCart = m["id"].(string)
	// A payment-hub partner the owner refers, its payments activation
	// started and a KYC document pushed.
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/payment_hub/partner/", f.ownerTok, f.hubPartnerBody(t, 0), "application/json"))
	f.hubPartner = m["uuid"].(string)
	m = f.mustOK(t, http.StatusOK, f.rest(t, http.MethodPost, "/api/payment_hub/partner/"+f.hubPartner+"/activate-payments/", f.ownerTok, "", "application/json"))
	body, ct = f.kycBody(t)
	// Its legal representative verified, and a payment taken.
	if res := f.rest(t, http.MethodPost, pagePath(t, m["user_action_url"].(string)), "", "decision=verify",
		"application/x-www-form-urlencoded"); res.Status != http.StatusOK {
		t.Fatalf("verify: %d %s", res.Status, res.Body)
	}
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/payment_hub/payments/", f.ownerTok, f.paymentBody(), "application/json"))
	f.payment = m["id"].(string)
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/payment_hub/payment_requests/", f.ownerTok, f.paymentRequestBody(), "application/json"))
	f.paymentRequest = int64(m["id"].(float64))
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/payment_hub/kyc_documents/", f.ownerTok, body, ct))
	f.kycDocument = int64(m["id"].(float64))
	gcMust(t, db.NewRaw(`SELECT uuid::text FROM network_giftcards WHERE id = ?`, f.ngc).Scan(ctx, &f.ngcUUID))
	gcMust(t, persistence.NewUnitOfWork(db, persistence.PaymentsStores).RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
		var hubID int64
		if err := db.NewRaw(`SELECT id FROM partners WHERE uuid = ?`, f.hubPartner).Scan(ctx, &hubID); err != nil {
			return err
		}
		w, err := payments.PartnerWallet(ctx, tx, hubID, "EUR")
		if err != nil {
			return err
		}
		payin, err := payments.PlatformWallet(ctx, tx, payments.WalletPayin, "EUR")
		if err != nil {
			return err
		}
		f.hubWallet = w.UUID.String()
		_, err = payments.Transfer(ctx, tx, payments.MoveInput{From: payin.UUID, To: w.UUID, Amount: decimal.NewFromInt(12),
			Type: payments.MoveAdjustment, Reason: isoSecret})
		return err
	}))
	// Its payout request, once its period has closed.
	built, err := payments.NewPayoutService(persistence.NewUnitOfWork(db, persistence.PaymentsStores), nil).
		BuildPayouts(ctx, time.Now().AddDate(0, 2, 0))
	if err != nil || len(built.Built) != 1 {
		t.Fatalf("build payouts: %v %+v", err, built)
	}
	f.payout = built.Built[0].ID
	return f
}

// mpCartBody is a multi-product cart of partnerUUID with one of the
// owner's network giftcards.
func (f *isoFixture) mpCartBody(partnerUUID string) string {
	return `{"partner_uuid": "` + partnerUUID + `", "data": {"network_giftcards": [{"amount": 25, "quantity": 1, "themed_pdf_id": 1}]}}`
}

// paymentBody is a payment of 20.00 to the owner's payment-hub partner,
// paid at once.
func (f *isoFixture) paymentBody() string {
	return `{"customer": {"first_name": "` + isoSecret + `", "last_name": "C", "email": "owner@example.com"},
		"partner_uuid": "` + f.hubPartner + `", "amount": 20, "discount": 0, "product": "voucher", "type": "credit_card",
		"card": "4242424242424242"}`
}

// paymentRequestBody is a payment request of 30.00 to the owner's
// payment-hub partner.
func (f *isoFixture) paymentRequestBody() string {
	return `{"customer": {"first_name": "` + isoSecret + `", "last_name": "C", "email": "owner@example.com"},
		"partner_uuid": "` + f.hubPartner + `", "amount": 30, "language": "en", "reference": "` + isoSecret + `"}`
}

// hubPartnerBody creates a payment-hub partner referred by referrer (0:
// the caller's marketplace).
func (f *isoFixture) hubPartnerBody(t *testing.T, referrer int64) string {
	t.Helper()
	m := map[string]any{"status": "a", "commercial_name": isoSecret + " hub", "short_name": "HUB",
		"legal_representative_email": "legal@example.com", "agency_email": "hub@example.com", "iban": "FR1420041010050500013M02606"}
	if referrer != 0 {
		m["referrer"] = referrer
	}
	return jsonOf(t, m)
}

// kycBody is a KYC document of the owner's payment-hub partner.
func (f *isoFixture) kycBody(t *testing.T) (string, string) {
	return multipartBody(t, field("partner_uuid", f.hubPartner), field("comment", isoSecret), field("document_type", "IDENTITY_PROOF"),
		file("file", f.png))
}

// networkGiftcardBody is a network giftcard creation of marketplace.
func (f *isoFixture) networkGiftcardBody(marketplace string) string {
	return `{"marketplace_uuid": "` + marketplace + `", "status": "paid", "value": 50, "from_gifter": "` + isoSecret + `",
		"gifter": {"first_name": "Owner", "last_name": "` + isoSecret + `", "email": "owner@example.com"},
		"activation_date": "2026-01-01", "expiration_date": "2030-01-01", "send_usage_notification_email": false}`
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

// The owner's network partner's siret and source id.
const isoSiret, isoSourceID = "99988877700011", "4242"

func (f *isoFixture) optionBody(t *testing.T) string {
	t.Helper()
	m := map[string]any{"category": f.category, "voucher_prototypes": []int64{f.prototype}, "selling_price": 12}
	for _, l := range langs {
		m["name_"+l], m["description_"+l] = isoSecret+" option", ""
	}
	return jsonOf(t, m)
}

// rest sends a body of contentType with token ("" for none).
func (f *isoFixture) rest(t *testing.T, method, path, token, body, contentType string) Response {
	t.Helper()
	h := []string{"Content-Type", contentType}
	if token != "" {
		h = append(h, auth(token)...)
	}
	return Do(t, method, f.URL+path, body, h...)
}

func (f *isoFixture) mustOK(t *testing.T, status int, res Response) map[string]any {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d: %s", res.Status, status, res.Body)
	}
	return res.JSON(t)
}

// graph sends a GraphQL operation with token ("" for none).
func (f *isoFixture) graph(t *testing.T, token, query string, vars map[string]any) Response {
	t.Helper()
	h := []string{}
	if token != "" {
		h = auth(token)
	}
	return Do(t, http.MethodPost, f.URL+"/graphql", jsonOf(t, map[string]any{"query": query, "variables": vars}), h...)
}

func (f *isoFixture) graphOK(t *testing.T, token, query string, vars map[string]any) map[string]any {
	t.Helper()
	res := f.graph(t, token, query, vars).JSON(t)
	if res["errors"] != nil {
		t.Fatalf("%s: %v", query, res["errors"])
	}
	return res["data"].(map[string]any)
}

// isoTables are the tables the administration operations of this issue
// write.
var isoTables = []string{"media", "voucher_prototypes", "voucher_prototype_images", "option_categories", "options",
	"option_services", "voucher_prototype_options", "vouchers", "voucher_options", "voucher_state_changes",
	"giftcards", "gift_codes", "customers", "partners", "partner_legal_information", "partner_tags", "network_partners",
	"network_giftcard_allowed_partners", "network_voucher_allowed_partners", "network_vouchers", "network_voucher_usages",
	"network_voucher_movements", "network_giftcards", "network_giftcard_usages", "network_giftcard_movements",
	"network_giftcard_holds", "multi_product_carts", "payment_partners", "payment_partner_activations",
	"payment_partner_audit", "kyc_documents", "psp_sim_activations", "payments", "payment_transactions",
	"payment_refunds", "payment_hub_audit", "wallets", "wallet_movements", "psp_sim_payins", "psp_sim_refunds",
	"payment_requests"}

// snapshot is a digest of every row of isoTables: equal snapshots mean
// nothing was written.
func (f *isoFixture) snapshot(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, table := range isoTables {
		var digest string
		gcMust(t, f.db.NewRaw(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM ? t`,
			bun.Ident(table)).Scan(context.Background(), &digest))
		out[table] = digest
	}
	return out
}

// isoREST is one administration REST operation aimed at the owner's
// records. rival is what the other partner's member gets (a list answers
// 200 without the owner's records); reader is what a member without
// permissions gets; owner is what the owner gets for reads (0: a write,
// not sent as the owner).
type isoREST struct {
	method, path, body, contentType string
	owner, rival, reader            int
}

func (f *isoFixture) restOperations(t *testing.T) []isoREST {
	mediaBody, mediaType := multipartBody(t, field("name", "x"), field("partner_uuid", f.ownerUUID), file("file", f.png))
	const js = "application/json"
	v, p, g := f.voucher, f.prototype, f.giftcard
	nvUse := `{"creation_date": "2026-11-24", "partner_source_id": 7}`
	ngc := "/api/networkgiftcards_by_code/" + f.ngcCode
	ngcUse := `{"creation_date": "2026-11-24", "value": 1, "partner_source_id": 7}`
	kycBody, kycType := f.kycBody(t)
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
		{"POST", "/api/multi_product_carts/", f.mpCartBody(f.ownerUUID), js, 0, 400, 400},
		{"GET", "/api/multi_product_carts/" + f.mpCart + "/", "", js, 200, 404, 404},
		{"POST", "/api/payment_hub/partner/", f.hubPartnerBody(t, f.owner), js, 0, 400, 403},
		{"GET", "/api/payment_hub/partner/" + f.hubPartner + "/", "", js, 200, 404, 404},
		{"PATCH", "/api/payment_hub/partner/" + f.hubPartner + "/", `{"hide_from_stats": true}`, js, 0, 404, 404},
		{"POST", "/api/payment_hub/partner/" + f.hubPartner + "/activate-payments/", "", js, 0, 404, 404},
		{"POST", "/api/payment_hub/kyc_documents/", kycBody, kycType, 0, 400, 400},
		{"POST", "/api/payment_hub/payments/", f.paymentBody(), js, 0, 400, 400},
		{"GET", "/api/payment_hub/payments/", "", js, 200, 200, 200},
		{"GET", "/api/payment_hub/payments/" + f.payment + "/", "", js, 200, 404, 404},
		{"PATCH", "/api/payment_hub/payments/" + f.payment + "/", `{"freeze_payout_date": "2026-12-01"}`, js, 0, 404, 404},
		{"POST", "/api/payment_hub/payments/" + f.payment + "/refund/", `{"amount": 1}`, js, 0, 404, 403},
		{"GET", "/api/payment_hub/payments/" + f.payment + "/transactions/", "", js, 200, 404, 404},
		{"GET", "/api/payment_hub/wallets/" + f.hubWallet + "/", "", js, 200, 404, 404},
		{"GET", "/api/payment_hub/wallets/" + f.hubWallet + "/movements/", "", js, 200, 404, 404},
		{"GET", "/api/payment_hub/wallets/" + f.ngcUUID + "/", "", js, 200, 404, 404},
		{"GET", "/api/payment_hub/wallets/" + f.ngcUUID + "/movements/", "", js, 200, 404, 404},
		{"GET", "/api/payment_hub/payout_requests/", "", js, 200, 200, 200},
		{"GET", fmt.Sprintf("/api/payment_hub/payout_requests/%d/", f.payout), "", js, 200, 404, 404},
		{"GET", fmt.Sprintf("/api/payment_hub/payout_requests/%d/payments/", f.payout), "", js, 200, 404, 404},
		{"GET", fmt.Sprintf("/api/payment_hub/payout_requests/%d/usages/", f.payout), "", js, 200, 404, 404},
		// Staff's alone: refused before the record is read.
		{"POST", fmt.Sprintf("/api/payment_hub/payout_requests/%d/validate/", f.payout), `{"reason": "x"}`, js, 0, 403, 403},
		{"POST", fmt.Sprintf("/api/payment_hub/payout_requests/%d/paid/", f.payout), `{"reason": "x"}`, js, 0, 403, 403},
		{"POST", "/api/payment_hub/payment_requests/", f.paymentRequestBody(), js, 0, 400, 400},
		{"GET", "/api/payment_hub/payment_requests/?search=" + isoSecret, "", js, 200, 200, 200},
		{"GET", fmt.Sprintf("/api/payment_hub/payment_requests/%d/", f.paymentRequest), "", js, 200, 404, 404},
		{"GET", fmt.Sprintf("/api/payment_hub/payment_requests/%d/payments/", f.paymentRequest), "", js, 200, 404, 404},
	}
}

// isoGraph is one administration GraphQL operation aimed at the owner's
// records, and what the rival gets: "" for data without the owner's
// records, "userErrors" for a refused input, else the error code.
type isoGraph struct {
	name, query string
	vars        map[string]any
	rival       string
}

func (f *isoFixture) graphOperations() []isoGraph {
	id := func(n int64) string { return fmt.Sprint(n) }
	payload := `{ __typename userErrors { field code } errors { field code } }`
	return []isoGraph{
		{"viewer", `{ viewer { permissions } }`, nil, ""},
		{"media", `{ media(first: 100) { totalCount edges { node { uuid name } } } }`, nil, ""},
		{"mediaItem", `query($id: ID!) { mediaItem(id: $id) { uuid name } }`, map[string]any{"id": id(f.media)}, "NOT_FOUND"},
		{"renameMedia", `mutation($id: ID!) { renameMedia(input: {id: $id, name: "x"}) ` + payload + ` }`,
			map[string]any{"id": id(f.media)}, "NOT_FOUND"},
		{"adminVouchers", `{ adminVouchers(first: 100) { totalCount edges { node { code summary } } } }`, nil, ""},
		{"adminVoucher", `query($c: String!) { adminVoucher(code: $c) { code } }`, map[string]any{"c": f.voucher}, "NOT_FOUND"},
		{"updateVoucherState", `mutation($c: String!) { updateVoucherState(input: {code: $c, state: USED}) ` + payload + ` }`,
			map[string]any{"c": f.voucher}, "NOT_FOUND"},
		{"issueVoucher", `mutation($p: ID!) { issueVoucher(input: {voucherPrototypeId: $p, totalPrice: "1.00"}) ` + payload + ` }`,
			map[string]any{"p": id(f.prototype)}, "FORBIDDEN"},
		{"adminGiftcards", `{ adminGiftcards(first: 100) { totalCount edges { node { code } } } }`, nil, ""},
		{"adminGiftcard by id", `query($id: ID) { adminGiftcard(id: $id) { code } }`, map[string]any{"id": id(f.giftcard)}, "NOT_FOUND"},
		{"adminGiftcard by code", `query($c: String) { adminGiftcard(code: $c) { code } }`, map[string]any{"c": f.giftcardNo}, "NOT_FOUND"},
		{"issueGiftcard", `mutation($p: ID!) { issueGiftcard(input: {giftcardPrototypeId: $p, value: "1.00"}) ` + payload + ` }`,
			map[string]any{"p": id(f.giftcardPrototype)}, "FORBIDDEN"},
		{"adminVoucherPrototypes", `{ adminVoucherPrototypes(first: 100) { totalCount edges { node { id name { fr } } } } }`, nil, ""},
		{"adminVoucherPrototype", `query($id: ID!) { adminVoucherPrototype(id: $id) { id } }`, map[string]any{"id": id(f.prototype)}, "NOT_FOUND"},
		{"createVoucherPrototype", `mutation($u: UUID, $uni: ID!, $m: ID!) { createVoucherPrototype(input: {partnerUuid: $u,
			name: [{language: FR, text: "x"}], description: [], longDescription: [], type: STAY, stayPrice: "1",
			universeId: $uni, imageIds: [$m]}) ` + payload + ` }`,
			map[string]any{"u": f.ownerUUID, "uni": id(f.universe), "m": id(f.media)}, "userErrors"},
		{"updateVoucherPrototype", `mutation($id: ID!) { updateVoucherPrototype(input: {id: $id, ranking: 9}) ` + payload + ` }`,
			map[string]any{"id": id(f.prototype)}, "NOT_FOUND"},
		{"createOption", `mutation($p: ID!, $c: ID!) { createOption(input: {name: [{language: FR, text: "x"}], description: [],
			categoryId: $c, prototypeIds: [$p]}) ` + payload + ` }`,
			map[string]any{"p": id(f.prototype), "c": id(f.category)}, "userErrors"},
		{"createOptionCategory", `mutation($u: UUID!) { createOptionCategory(input: {partnerUuid: $u, name: [{language: FR, text: "x"}]}) ` +
			payload + ` }`, map[string]any{"u": f.ownerUUID}, "userErrors"},
		{"viewer's partner lists", `{ viewer { partner {
			voucherPrototypes(first: 100) { edges { node { name { fr } images { uuid } } } }
			vouchers(first: 100) { edges { node { code prototype { id } } } }
			giftcards(first: 100) { edges { node { code } } }
			media(first: 100) { edges { node { uuid } } } } } }`, nil, ""},
		{"adminPartner", `query($u: UUID!) { adminPartner(uuid: $u) { vouchers(first: 100) { totalCount } } }`,
			map[string]any{"u": f.ownerUUID}, "NOT_FOUND"},
		{"setPrototypeOption", `mutation($p: ID!, $o: ID!) { setPrototypeOption(input: {prototypeId: $p, optionId: $o, count: 3}) ` +
			payload + ` }`, map[string]any{"p": id(f.prototype), "o": id(f.option)}, "NOT_FOUND"},
		{"adminOptions", `{ adminOptions(first: 100) { totalCount edges { node { id name { fr } category { name { fr } } } } } }`, nil, ""},
		{"adminOptions of the owner's category", `query($c: ID!) { adminOptions(filter: {categoryId: $c}) { totalCount edges { node { id } } } }`,
			map[string]any{"c": id(f.category)}, ""},
		{"adminOption", `query($id: ID!) { adminOption(id: $id) { id name { fr } } }`, map[string]any{"id": id(f.option)}, "NOT_FOUND"},
		{"adminOptionCategories", `{ adminOptionCategories(first: 100) { totalCount edges { node { id name { fr }
			options { edges { node { name { fr } } } } } } } }`, nil, ""},
		{"adminOptionCategory", `query($id: ID!) { adminOptionCategory(id: $id) { id name { fr } } }`, map[string]any{"id": id(f.category)}, "NOT_FOUND"},
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
		// The network area.
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
			expirationDate: "2030-01-01"}) ` + payload + ` }`, map[string]any{"m": globalID("Partner", f.ownerUUID)}, "userErrors"},
		{"useNetworkGiftcard", `mutation($c: String!) { useNetworkGiftcard(input: {code: $c, partnerSourceId: "7", value: "1",
			creationDate: "2026-11-24"}) ` + payload + ` }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"cancelNetworkGiftcardUsage", `mutation($id: ID!) { cancelNetworkGiftcardUsage(input: {usageId: $id}) ` + payload + ` }`,
			map[string]any{"id": globalID("NetworkGiftcardUsage", f.ngcUsage)}, "NOT_FOUND"},
		{"holdNetworkGiftcard", `mutation($c: String!) { holdNetworkGiftcard(input: {code: $c, partnerSourceId: "7", amount: "1",
			reservationId: "R"}) ` + payload + ` }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"captureNetworkGiftcardHold", `mutation($c: String!) { captureNetworkGiftcardHold(input: {code: $c, reservationId: "ISO-HOLD"}) ` +
			payload + ` }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"releaseNetworkGiftcardHold", `mutation($c: String!) { releaseNetworkGiftcardHold(input: {code: $c, reservationId: "ISO-HOLD"}) ` +
			payload + ` }`, map[string]any{"c": f.ngcCode}, "NOT_FOUND"},
		{"adjustNetworkGiftcard", `mutation($c: String!) { adjustNetworkGiftcard(input: {code: $c, amount: "-1", reason: "x"}) ` +
			payload + ` }`, map[string]any{"c": f.ngcCode}, "FORBIDDEN"},
		{"createNetworkPartner", `mutation($m: ID) { createNetworkPartner(input: {marketplaceId: $m, name: "x", commercialName: "x",
			shortName: "x", siretNumber: "1", legalRepresentativeFirstName: "x", legalRepresentativeLastName: "x", hqAddressLine1: "x",
			hqPostalCode: "1", hqCity: "x", hqCountry: "x", rcs: "x", ape: "x", vatId: "x", agencyEmail: "x@example.com",
			website: "https://x.example.com"}) ` + payload + ` }`, map[string]any{"m": globalID("Partner", f.ownerUUID)}, "userErrors"},
		{"updateNetworkPartner", `mutation($s: String) { updateNetworkPartner(input: {sourceId: $s, status: INACTIVE}) ` + payload + ` }`,
			map[string]any{"s": isoSourceID}, "NOT_FOUND"},
		{"updateNetworkPartner of the owner", `mutation($m: ID, $s: String) { updateNetworkPartner(input: {marketplaceId: $m, sourceId: $s,
			status: INACTIVE}) ` + payload + ` }`, map[string]any{"m": globalID("Partner", f.ownerUUID), "s": isoSourceID}, "userErrors"},
		{"recordNetworkVoucherUsage", `mutation($c: String!) { recordNetworkVoucherUsage(input: {code: $c, partnerSourceId: "7",
			creationDate: "2026-11-24"}) ` + payload + ` }`, map[string]any{"c": isoNetworkVoucher}, "NOT_FOUND"},
		{"cancelNetworkVoucherUsage", `mutation($id: ID!) { cancelNetworkVoucherUsage(input: {usageId: $id}) ` + payload + ` }`,
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
		// The payment hub.
		{"paymentPartner", `query($u: UUID!) { paymentPartner(uuid: $u) { name commercialName iban } }`,
			map[string]any{"u": f.hubPartner}, "NOT_FOUND"},
		{"wallet", `query($u: UUID!) { wallet(uuid: $u) { balance partner { name } movements { edges { node { reason } } } } }`,
			map[string]any{"u": f.hubWallet}, "NOT_FOUND"},
		{"wallet of a network giftcard", `query($u: UUID!) { wallet(uuid: $u) { balance networkGiftcard { code fromGifter } } }`,
			map[string]any{"u": f.ngcUUID}, "NOT_FOUND"},
		{"multiProductCart", `query($id: ID!) { multiProductCart(id: $id) { legacyId partnerUuid } }`,
			map[string]any{"id": f.mpCart}, "NOT_FOUND"},
		{"createPaymentPartner", `mutation($r: ID) { createPaymentPartner(input: {status: ACTIVE, commercialName: "x", shortName: "x",
			legalRepresentativeEmail: "l@example.com", agencyEmail: "a@example.com", referrerId: $r}) ` + payload + ` }`,
			map[string]any{"r": id(f.owner)}, "userErrors"},
		{"updatePaymentPartner", `mutation($p: ID!) { updatePaymentPartner(input: {partnerId: $p, hideFromStats: true}) ` + payload + ` }`,
			map[string]any{"p": f.hubPartner}, "NOT_FOUND"},
		{"activatePartnerPayments", `mutation($p: ID!) { activatePartnerPayments(input: {partnerId: $p}) ` + payload + ` }`,
			map[string]any{"p": globalID("PaymentPartner", f.hubPartner)}, "NOT_FOUND"},
		{"createMultiProductCart", `mutation($p: ID!) { createMultiProductCart(input: {partnerId: $p,
			networkGiftcards: [{amount: "25", quantity: 1, themedPdfId: "1"}]}) ` + payload + ` }`,
			map[string]any{"p": globalID("Partner", f.ownerUUID)}, "userErrors"},
		{"payment", `query($u: UUID!) { payment(uuid: $u) { customer { firstName } transactions { amount } refunds { reason } } }`,
			map[string]any{"u": f.payment}, "NOT_FOUND"},
		{"payments", `{ payments(first: 100) { totalCount edges { node { uuid customer { firstName } } } } }`, nil, ""},
		{"createPayment", `mutation($p: ID!) { createPayment(input: {partnerId: $p, customer: {firstName: "x", lastName: "y",
			email: "x@example.com"}, amount: "20", discount: "0", product: "voucher", card: "4242424242424242"}) {
			payment { uuid } errors { field code } } }`, map[string]any{"p": f.hubPartner}, "errors"},
		{"updatePaymentFreezeDate", `mutation($p: ID!) { updatePaymentFreezeDate(input: {paymentId: $p, freezePayoutDate: "2026-12-01"}) {
			payment { uuid } errors { field code } } }`, map[string]any{"p": f.payment}, "NOT_FOUND"},
		{"refundPayment", `mutation($p: ID!) { refundPayment(input: {paymentId: $p, amount: "1"}) {
			refund { uuid } errors { field code } } }`, map[string]any{"p": globalID("Payment", f.payment)}, "NOT_FOUND"},
		{"node Payment", isoNode, map[string]any{"id": globalID("Payment", f.payment)}, "NOT_FOUND"},
		{"paymentRequest", `query($id: ID!) { paymentRequest(id: $id) { reference customer { firstName } payments { totalCount } } }`,
			map[string]any{"id": globalID("PaymentRequest", f.paymentRequest)}, "NOT_FOUND"},
		{"paymentRequests", `{ paymentRequests(first: 100) { totalCount edges { node { reference customer { firstName } } } } }`, nil, ""},
		{"createPaymentRequest", `mutation($p: ID!) { createPaymentRequest(input: {partnerId: $p, customer: {firstName: "x", lastName: "y",
			email: "x@example.com"}, amount: "20", language: "en"}) { paymentRequest { code } errors { field code } } }`,
			map[string]any{"p": f.hubPartner}, "errors"},
		{"node PaymentRequest", isoNode, map[string]any{"id": globalID("PaymentRequest", f.paymentRequest)}, "NOT_FOUND"},
		{"payoutRequest", `query($id: ID!) { payoutRequest(id: $id) { uuid amount partnerUuid partner { name iban }
			payments { totalCount edges { node { customer { firstName } } } } usages { totalCount edges { node { comment } } } } }`,
			map[string]any{"id": globalID("PayoutRequest", id(f.payout))}, "NOT_FOUND"},
		{"payoutRequests", `{ payoutRequests(first: 100) { totalCount edges { node { uuid amount partner { name iban } } } } }`, nil, ""},
		{"validatePayoutRequest", `mutation($p: ID!) { validatePayoutRequest(input: {payoutRequestId: $p, reason: "x"}) {
			payoutRequest { status } errors { field code } } }`, map[string]any{"p": globalID("PayoutRequest", id(f.payout))}, "FORBIDDEN"},
		{"markPayoutRequestPaid", `mutation($p: ID!) { markPayoutRequestPaid(input: {payoutRequestId: $p, reason: "x"}) {
			payoutRequest { status } errors { field code } } }`, map[string]any{"p": id(f.payout)}, "FORBIDDEN"},
		{"node PayoutRequest", isoNode, map[string]any{"id": globalID("PayoutRequest", id(f.payout))}, "NOT_FOUND"},
		{"node PaymentPartner", isoNode, map[string]any{"id": globalID("PaymentPartner", f.hubPartner)}, "NOT_FOUND"},
		{"node KycDocument", isoNode, map[string]any{"id": globalID("KycDocument", f.kycDocument)}, "NOT_FOUND"},
		{"node Wallet", isoNode, map[string]any{"id": globalID("Wallet", f.hubWallet)}, "NOT_FOUND"},
		{"node MultiProductCart", isoNode, map[string]any{"id": globalID("MultiProductCart", f.mpCart)}, "NOT_FOUND"},
	}
}

// isoNode reads a record by its global id, with every field that could
// show a secret.
const isoNode = `query($id: ID!) { node(id: $id) { id ... on Partner { uuid name } ... on Media { uuid name }
	... on AdminVoucher { code summary } ... on AdminGiftcard { code } ... on AdminVoucherPrototype { label: name { fr } }
	... on VoucherOption { label: name { fr } } ... on OptionCategory { label: name { fr } }
	... on NetworkGiftcard { code fromGifter } ... on NetworkGiftcardUsage { comment } ... on NetworkGiftcardHold { reservationId }
	... on NetworkGiftcardMovement { reservationId } ... on NetworkPartner { name } ... on NetworkVoucherBox { label: name { fr } }
	... on NetworkVoucherBoxOffer { partnerId } ... on NetworkVoucher { code } ... on NetworkVoucherUsage { comment }
	... on PaymentPartner { name iban } ... on KycDocument { comment } ... on Wallet { balance partner { name } }
	... on MultiProductCart { partnerUuid } ... on Payment { customer { firstName } }
	... on PayoutRequest { uuid amount partner { name iban } } } }`

// wantNoSecret fails when an answer to another account shows the owner's
// records.
func (f *isoFixture) wantNoSecret(t *testing.T, body string) {
	t.Helper()
	for _, s := range []string{isoSecret, f.voucher, f.giftcardNo, f.mediaUUID, isoNetworkVoucher, f.ngcCode, f.mpCart,
		"FR1420041010050500013M02606"} {
		if strings.Contains(body, s) {
			t.Errorf("the answer shows the owner's %q: %s", s, body)
		}
	}
}

// Every administration operation of the issue, REST and GraphQL, as the
// accounts that must not reach the owner's records, and with malformed
// bodies: each is refused (or lists nothing of the owner's) and nothing is
// written.
func TestAdminIsolation(t *testing.T) {
	t.Parallel()
	f := newIsoFixture(t)
	before := f.snapshot(t)
	notProvided := `{"detail": "Authentication credentials were not provided."}`

	for _, op := range f.restOperations(t) {
		t.Run("REST "+op.method+" "+op.path, func(t *testing.T) {
			WantResponse(t, f.rest(t, op.method, op.path, "", op.body, op.contentType), 401, notProvided)
			if op.owner != 0 {
				WantResponse(t, f.rest(t, op.method, op.path, f.ownerTok, op.body, op.contentType), op.owner, "")
			}
			res := f.rest(t, op.method, op.path, f.rivalTok, op.body, op.contentType)
			WantResponse(t, res, op.rival, "")
			f.wantNoSecret(t, res.Body)
			res = f.rest(t, op.method, op.path, f.readerTok, op.body, op.contentType)
			WantResponse(t, res, op.reader, "")
			f.wantNoSecret(t, res.Body)
			if op.reader == 403 {
				WantResponse(t, res, 403, `{"detail": "You do not have permission to perform this action."}`)
			}
		})
	}

	for _, op := range f.graphOperations() {
		t.Run("GraphQL "+op.name, func(t *testing.T) {
			_, errs := decodeGraph(t, f.graph(t, "", op.query, op.vars))
			if op.name != "viewer" {
				wantGraphCode(t, errs, "UNAUTHENTICATED")
			}
			res := f.graph(t, f.rivalTok, op.query, op.vars)
			f.wantNoSecret(t, res.Body)
			data, errs := decodeGraph(t, res)
			switch op.rival {
			case "":
				if len(errs) > 0 {
					t.Errorf("errors %+v", errs)
				}
			case "userErrors", "errors": // the payload's typed errors
				if len(errs) > 0 || !strings.Contains(string(data), `"`+op.rival+`":[{`) {
					t.Errorf("want %s, got %s %+v", op.rival, data, errs)
				}
			default:
				wantGraphCode(t, errs, op.rival)
			}
			// A member of a third partner without permissions: the network
			// area's writes are refused whole.
			res = f.graph(t, f.readerTok, op.query, op.vars)
			f.wantNoSecret(t, res.Body)
			if strings.HasPrefix(strings.TrimSpace(op.query), "mutation") && strings.Contains(op.name, "Network") {
				_, errs := decodeGraph(t, res)
				wantGraphCode(t, errs, "FORBIDDEN")
			}
		})
	}

	t.Run("GraphQL uploadMedia for the owner", func(t *testing.T) {
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
	})

	t.Run("GraphQL uploadKycDocument for the owner's partner", func(t *testing.T) {
		ops := jsonOf(t, map[string]any{
			"query": `mutation($in: UploadKycDocumentInput!) { uploadKycDocument(input: $in) { kycDocument { comment }
				userErrors { field code } errors { field code } } }`,
			"variables": map[string]any{"in": map[string]any{"partnerId": f.hubPartner, "comment": "x", "documentType": "IDENTITY_PROOF",
				"file": nil}},
		})
		body, ct := multipartBody(t, field("operations", ops), field("map", `{"f": ["variables.in.file"]}`), file("f", f.png))
		for _, tok := range []string{"", f.rivalTok, f.readerTok} {
			h := []string{"Content-Type", ct, "GraphQL-Require-Preflight", "1"}
			if tok != "" {
				h = append(h, auth(tok)...)
			}
			res := Do(t, http.MethodPost, f.URL+"/graphql", body, h...)
			f.wantNoSecret(t, res.Body)
			data, errs := decodeGraph(t, res)
			switch tok {
			case "":
				wantGraphCode(t, errs, "UNAUTHENTICATED")
			default: // a partner the caller does not see, as an unknown one
				if !strings.Contains(string(data), `"errors":[{"field":["input","partnerId"],"code":"DOES_NOT_EXIST"}]`) {
					t.Errorf("uploading for the owner: %s %+v", data, errs)
				}
			}
		}
	})

	// Malformed bodies, sent by the owner itself: 400 and nothing written.
	noKYCFile, noKYCFileType := multipartBody(t, field("partner_uuid", f.hubPartner), field("comment", "x"), field("document_type", "IDENTITY_PROOF"))
	malformed := []struct{ method, path, body, contentType string }{
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
		{"POST", "/api/network_partners/", `{"name": `, "application/json"},
		{"POST", "/api/network_partners/", `{"name": "x", "hq_postal_code": "75001-75002"}`, "application/json"},
		{"PATCH", "/api/network_partners/", `{"source_id": "` + isoSourceID + `", "status": "a"}`, "application/json"},
		{"PATCH", "/api/network_partners/", `{"status": "i"}`, "application/json"},
		{"POST", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/use/", `{"creation_date": `, "application/json"},
		{"POST", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/use/", `{"creation_date": "soon", "partner_source_id": 7}`, "application/json"},
		{"POST", "/api/networkvouchers_by_code/" + isoNetworkVoucher + "/use_with_service_id/", `{"creation_date": "2026-11-24", "partner_id": true}`, "application/json"},
		{"POST", fmt.Sprintf("/api/networkvoucher_usages/%d/cancel/", f.nvUsage), `{"comment": 5}`, "application/json"},
		{"POST", "/api/multi_product_carts/", `{"partner_uuid": `, "application/json"},
		{"POST", "/api/multi_product_carts/", `{"partner_uuid": "` + f.ownerUUID + `", "data": {"network_giftcards": [{"amount": 26,
			"quantity": 1, "themed_pdf_id": 1}]}}`, "application/json"},
		{"POST", "/api/multi_product_carts/", `{"partner_uuid": "` + f.ownerUUID + `", "data": {"network_vouchers": [{"id": ` +
			fmt.Sprint(f.nvBox) + `, "quantity": 1}]}}`, "application/json"},
		{"POST", "/api/payment_hub/partner/", `{"status": `, "application/json"},
		{"POST", "/api/payment_hub/partner/", `{"status": "a", "commercial_name": "x", "short_name": "x", "legal_representative_email": "l@example.com",
			"agency_email": "a@example.com", "iban": "FR1420041010050500013M02607"}`, "application/json"},
		{"PATCH", "/api/payment_hub/partner/" + f.hubPartner + "/", `{"status": "n"}`, "application/json"},
		{"PATCH", "/api/payment_hub/partner/" + f.hubPartner + "/", `{"referrer": null}`, "application/json"},
		{"POST", "/api/payment_hub/kyc_documents/", noKYCFile, noKYCFileType},
		{"POST", "/api/payment_hub/kyc_documents/", "--x\r\nnot multipart", "multipart/form-data; boundary=x"},
	}
	for _, m := range malformed {
		t.Run("malformed "+m.method+" "+m.path+" "+m.body[:min(len(m.body), 24)], func(t *testing.T) {
			res := Do(t, m.method, f.URL+m.path, m.body, "Content-Type", m.contentType, "Authorization", "Token "+f.ownerTok)
			if res.Status != 400 {
				t.Errorf("status %d, want 400: %s", res.Status, res.Body)
			}
		})
	}
	t.Run("malformed GraphQL variables", func(t *testing.T) {
		res := f.graph(t, f.ownerTok, `mutation($in: UpdateVoucherPrototypeInput!) { updateVoucherPrototype(input: $in) { __typename } }`,
			map[string]any{"in": map[string]any{"id": fmt.Sprint(f.prototype), "ranking": "high"}})
		if _, errs := decodeGraph(t, res); len(errs) != 1 || errs[0].Extensions["code"] != "GRAPHQL_VALIDATION_FAILED" {
			t.Errorf("%d %s", res.Status, res.Body)
		}
	})

	after := f.snapshot(t)
	for _, table := range isoTables {
		if before[table] != after[table] {
			t.Errorf("%s changed: %s -> %s", table, before[table], after[table])
		}
	}
}
