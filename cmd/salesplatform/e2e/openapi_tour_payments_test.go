package e2e

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
)

// paymentsTour is the payment hub's part of TestOpenAPITour: a
// multi-product cart, a payment-hub partner of its own, and the demo's
// payments, payouts and wallets.
var paymentsTour = []tourStep{tourMultiProductCart, tourPaymentHub, tourDemoPaymentHub}

// tourMultiProductCart creates a multi-product cart of the marketplace's
// network products: its first network giftcard amount and its boxes on
// sale, read back.
func tourMultiProductCart(tr *tour) {
	t, call, admin, marketplaceUUID := tr.t, tr.call, tr.admin, tr.marketplaceUUID
	db := tr.db
	var amount string
	var boxes []int64
	gcMust(t, db.NewRaw(`SELECT coalesce((SELECT giftcard_predefined_amounts[1]::text FROM product_information_network_giftcards
		WHERE partner_id = (SELECT id FROM partners WHERE uuid = ?)), '')`, marketplaceUUID).Scan(t.Context(), &amount))
	gcMust(t, db.NewRaw(`SELECT id FROM network_voucher_boxes WHERE is_active
		AND marketplace_id = (SELECT id FROM partners WHERE uuid = ?) ORDER BY id`, marketplaceUUID).Scan(t.Context(), &boxes))
	cartData := map[string]any{"network_giftcards": []any{}, "network_vouchers": []any{}}
	if amount != "" {
		cartData["network_giftcards"] = []any{map[string]any{"amount": amount, "quantity": 1, "themed_pdf_id": 1}}
	}
	for _, b := range boxes {
		cartData["network_vouchers"] = append(cartData["network_vouchers"].([]any), map[string]any{"id": b, "quantity": 1})
	}
	cartBody, _ := json.Marshal(map[string]any{"partner_uuid": marketplaceUUID, "data": cartData})
	mpCart := call("POST", "/api/multi_product_carts/", string(cartBody), append(admin, "X-Idempotency-Key", "tour-cart")...)
	if mpCart.Status == 201 {
		call("GET", mpCart.Header.Get("Location"), "", admin...)
	}
}

// tourPaymentHub creates a payment-hub partner, its payments activated
// through the simulated provider's page, a KYC document and a payment
// request.
func tourPaymentHub(tr *tour) {
	t, call, srv, admin := tr.t, tr.call, tr.srv, tr.admin
	hub := call("POST", "/api/payment_hub/partner/", `{"status": "a", "commercial_name": "Tour Pay", "short_name": "TP",
		"legal_representative_email": "legal@tour.example.com", "agency_email": "pay@tour.example.com",
		"iban": "FR1420041010050500013M02606", "bic": "BNPAFRPP"}`, admin...)
	if hub.Status == 201 {
		partner := "/api/payment_hub/partner/" + hub.JSON(t)["uuid"].(string) + "/"
		call("GET", partner, "", admin...)
		call("PATCH", partner, `{"block_payout_validation": true, "reason": "tour"}`, admin...)
		act := call("POST", hub.JSON(t)["pending_payment_activation_uri"].(string), "", admin...)
		if act.Status == 200 {
			call("POST", act.JSON(t)["user_action_url"].(string)[len(srv.URL):], "decision=verify",
				"Content-Type", "application/x-www-form-urlencoded")
		}
		var kyc bytes.Buffer
		mw := multipart.NewWriter(&kyc)
		for k, v := range map[string]string{"partner_uuid": hub.JSON(t)["uuid"].(string), "comment": "Tour ID", "document_type": "IDENTITY_PROOF"} {
			gcMust(t, mw.WriteField(k, v))
		}
		var img bytes.Buffer
		gcMust(t, pngEncode(&img))
		fw, err := mw.CreateFormFile("file", "id.png")
		gcMust(t, err)
		_, err = fw.Write(img.Bytes())
		gcMust(t, err)
		gcMust(t, mw.Close())
		call("POST", "/api/payment_hub/kyc_documents/", kyc.String(), append(admin, "Content-Type", mw.FormDataContentType())...)
		// A payment request, its page, and the payment its form starts.
		req := call("POST", "/api/payment_hub/payment_requests/", `{"partner_uuid": "`+hub.JSON(t)["uuid"].(string)+`",
			"amount": 42, "language": "en", "reference": "TOUR-1", "customer": {"first_name": "Tour", "last_name": "Guest",
			"email": "guest@tour.example.com"}}`, admin...)
		if req.Status == 201 {
			r := req.JSON(t)
			call("GET", "/api/payment_hub/payment_requests/?search=tour", "", admin...)
			call("GET", req.Header.Get("Location"), "", admin...)
			page := r["payment_url"].(string)[len(srv.URL):]
			call("GET", page, "")
			// The page's form answers 303 to the provider's page: checked
			// without following it.
			form, err := http.NewRequest(http.MethodPost, srv.URL+page, nil)
			gcMust(t, err)
			noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			if res, err := noFollow.Do(form); err == nil {
				res.Body.Close()
				CheckContract(t, form, res.StatusCode, res.Header, nil)
			}
			call("GET", req.Header.Get("Location")+"payments/", "", admin...)
		}
	}
}

// tourDemoPaymentHub walks the demo's payment hub: a payment of its
// partner, paid at once, refunded in part and dated; its payout request,
// validated then paid; the wallet of the network giftcard that paid part
// of one. The demo holds each: a step that cannot start is a failure, not
// a skip.
func tourDemoPaymentHub(tr *tour) {
	t, call, list, id, admin := tr.t, tr.call, tr.list, tourID, tr.admin
	paid := list(call("GET", "/api/payment_hub/payments/?status=ok", "", admin...))
	if len(paid) == 0 {
		t.Fatal("the demo has no paid payment")
	}
	p := call("POST", "/api/payment_hub/payments/", `{"partner_uuid": "`+id(paid[0]["partner_uuid"])+`", "amount": 30,
		"discount": 0, "product": "voucher", "type": "credit_card", "card": "4242424242424242",
		"customer": {"first_name": "Tour", "last_name": "Guest", "email": "guest@tour.example.com"}}`, admin...)
	if p.Status != 201 {
		t.Fatalf("payment: %d %s", p.Status, p.Body)
	}
	payment := "/api/payment_hub/payments/" + id(p.JSON(t)["id"]) + "/"
	call("GET", payment, "", admin...)
	call("PATCH", payment, `{"freeze_payout_date": "2030-01-01"}`, admin...)
	call("POST", payment+"refund/", `{"amount": 1, "reason": "tour"}`, admin...)
	call("GET", payment+"transactions/", "", admin...)
	payouts := list(call("GET", "/api/payment_hub/payout_requests/", "", admin...))
	if len(payouts) == 0 {
		t.Fatal("the demo has no payout request")
	}
	payout := "/api/payment_hub/payout_requests/" + id(payouts[0]["id"]) + "/"
	call("GET", payout, "", admin...)
	call("GET", payout+"payments/", "", admin...)
	call("GET", payout+"usages/", "", admin...)
	call("POST", payout+"validate/", `{"reason": "tour"}`, admin...)
	call("POST", payout+"paid/", `{"reason": "tour"}`, admin...)
	card := call("GET", "/api/networkgiftcards_by_code/DEMO-NGC-SPA/", "", admin...)
	if card.Status != 200 {
		t.Fatalf("the demo's card: %d %s", card.Status, card.Body)
	}
	wallet := "/api/payment_hub/wallets/" + id(card.JSON(t)["uuid"]) + "/"
	call("GET", wallet, "", admin...)
	call("GET", wallet+"movements/", "", admin...)
}
