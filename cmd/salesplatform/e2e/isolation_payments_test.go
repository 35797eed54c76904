package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"salesplatform/domain/payments"
	"salesplatform/persistence"
)

// paymentsIsolation is the payment hub's part of TestAdminIsolation:
// multi-product carts, payment partners, KYC documents, payments, wallets,
// payouts and payment requests.
var paymentsIsolation = isoArea{
	tables: []string{"multi_product_carts", "payment_partners", "payment_partner_activations",
		"payment_partner_audit", "kyc_documents", "psp_sim_activations", "payments", "payment_transactions",
		"payment_refunds", "payment_hub_audit", "wallets", "wallet_movements", "psp_sim_payins", "psp_sim_refunds",
		"payment_requests"},
	rest:      (*isoFixture).paymentsREST,
	graph:     (*isoFixture).paymentsGraph,
	uploads:   []isoCheck{{"GraphQL uploadKycDocument for the owner's partner", (*isoFixture).uploadKycDocumentAsOthers}},
	malformed: (*isoFixture).paymentsMalformed,
}

// seedPayments writes the owner's multi-product cart, a payment-hub
// partner it refers with a payment, a payment request, a KYC document, a
// wallet movement and a payout request.
func (f *isoFixture) seedPayments(t *testing.T) {
	t.Helper()
	ctx, db, ownerID := context.Background(), f.db, f.owner
	// A multi-product cart of the owner, of its network giftcards.
	gcMust(t, db.NewRaw(`INSERT INTO product_information_network_giftcards (partner_id, giftcard_predefined_amounts)
		VALUES (?, '{25}') RETURNING partner_id`, ownerID).Scan(ctx, new(int64)))
	m := f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/multi_product_carts/", f.ownerTok, f.mpCartBody(f.ownerUUID), "application/json"))
	f.mpCart = m["id"].(string)
	// A payment-hub partner the owner refers, its payments activation
	// started and a KYC document pushed.
	m = f.mustOK(t, http.StatusCreated, f.rest(t, http.MethodPost, "/api/payment_hub/partner/", f.ownerTok, f.hubPartnerBody(t, 0), "application/json"))
	f.hubPartner = m["uuid"].(string)
	m = f.mustOK(t, http.StatusOK, f.rest(t, http.MethodPost, "/api/payment_hub/partner/"+f.hubPartner+"/activate-payments/", f.ownerTok, "", "application/json"))
	body, ct := f.kycBody(t)
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

func (f *isoFixture) paymentsREST(t *testing.T) []isoREST {
	const js = "application/json"
	kycBody, kycType := f.kycBody(t)
	return []isoREST{
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

func (f *isoFixture) paymentsGraph() []isoGraph {
	return []isoGraph{
		{"paymentPartner", `query($u: UUID!) { paymentPartner(uuid: $u) { name commercialName iban } }`,
			map[string]any{"u": f.hubPartner}, "NOT_FOUND"},
		{"wallet", `query($u: UUID!) { wallet(uuid: $u) { balance partner { name } movements { edges { node { reason } } } } }`,
			map[string]any{"u": f.hubWallet}, "NOT_FOUND"},
		{"wallet of a network giftcard", `query($u: UUID!) { wallet(uuid: $u) { balance networkGiftcard { code fromGifter } } }`,
			map[string]any{"u": f.ngcUUID}, "NOT_FOUND"},
		{"multiProductCart", `query($id: ID!) { multiProductCart(id: $id) { legacyId partnerUuid } }`,
			map[string]any{"id": f.mpCart}, "NOT_FOUND"},
		{"createPaymentPartner", `mutation($r: ID) { createPaymentPartner(input: {status: ACTIVE, commercialName: "x", shortName: "x",
			legalRepresentativeEmail: "l@example.com", agencyEmail: "a@example.com", referrerId: $r}) ` + isoPayload + ` }`,
			map[string]any{"r": isoID(f.owner)}, "userErrors"},
		{"updatePaymentPartner", `mutation($p: ID!) { updatePaymentPartner(input: {partnerId: $p, hideFromStats: true}) ` + isoPayload + ` }`,
			map[string]any{"p": f.hubPartner}, "NOT_FOUND"},
		{"activatePartnerPayments", `mutation($p: ID!) { activatePartnerPayments(input: {partnerId: $p}) ` + isoPayload + ` }`,
			map[string]any{"p": globalID("PaymentPartner", f.hubPartner)}, "NOT_FOUND"},
		{"createMultiProductCart", `mutation($p: ID!) { createMultiProductCart(input: {partnerId: $p,
			networkGiftcards: [{amount: "25", quantity: 1, themedPdfId: "1"}]}) ` + isoPayload + ` }`,
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
			map[string]any{"id": globalID("PayoutRequest", isoID(f.payout))}, "NOT_FOUND"},
		{"payoutRequests", `{ payoutRequests(first: 100) { totalCount edges { node { uuid amount partner { name iban } } } } }`, nil, ""},
		{"validatePayoutRequest", `mutation($p: ID!) { validatePayoutRequest(input: {payoutRequestId: $p, reason: "x"}) {
			payoutRequest { status } errors { field code } } }`, map[string]any{"p": globalID("PayoutRequest", isoID(f.payout))}, "FORBIDDEN"},
		{"markPayoutRequestPaid", `mutation($p: ID!) { markPayoutRequestPaid(input: {payoutRequestId: $p, reason: "x"}) {
			payoutRequest { status } errors { field code } } }`, map[string]any{"p": isoID(f.payout)}, "FORBIDDEN"},
		{"node PayoutRequest", isoNode, map[string]any{"id": globalID("PayoutRequest", isoID(f.payout))}, "NOT_FOUND"},
		{"node PaymentPartner", isoNode, map[string]any{"id": globalID("PaymentPartner", f.hubPartner)}, "NOT_FOUND"},
		{"node KycDocument", isoNode, map[string]any{"id": globalID("KycDocument", f.kycDocument)}, "NOT_FOUND"},
		{"node Wallet", isoNode, map[string]any{"id": globalID("Wallet", f.hubWallet)}, "NOT_FOUND"},
		{"node MultiProductCart", isoNode, map[string]any{"id": globalID("MultiProductCart", f.mpCart)}, "NOT_FOUND"},
	}
}

// uploadKycDocumentAsOthers uploads a KYC document for the owner's
// payment-hub partner with each account but the owner's.
func (f *isoFixture) uploadKycDocumentAsOthers(t *testing.T) {
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
}

func (f *isoFixture) paymentsMalformed(t *testing.T) []isoMalformed {
	noKYCFile, noKYCFileType := multipartBody(t, field("partner_uuid", f.hubPartner), field("comment", "x"), field("document_type", "IDENTITY_PROOF"))
	return []isoMalformed{
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
}
