package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"salesplatform/cmd/salesplatform/demo"
	"salesplatform/domain/gifts"
	"salesplatform/persistence/dbtest"
	"salesplatform/rest/openapi"
)

// TestOpenAPITour calls every operation of rest/openapi/openapi.yaml on
// the demo dataset, through Do, so that each one has at least one success
// checked against the document (Do checks every response), whatever the
// other tests happen to call.
func TestOpenAPITour(t *testing.T) {
	t.Parallel()
	data, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	dsn := dbtest.NewDSN(t)
	dataDir := t.TempDir()
	tokens := SeedDemo(t, dsn, dataDir)
	srv := Serve(t, dsn, "--data-dir", dataDir)
	staff := "Token " + tokens[data.Staff.Username]

	call := func(method, path, body string, headers ...string) Response {
		t.Helper()
		return Do(t, method, srv.URL+path, body, headers...)
	}
	list := func(res Response) []map[string]any {
		t.Helper()
		var v any
		if err := json.Unmarshal([]byte(res.Body), &v); err != nil {
			return nil
		}
		if m, ok := v.(map[string]any); ok {
			v = m["results"]
		}
		var out []map[string]any
		items, _ := v.([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	id := func(v any) string { return strings.TrimSuffix(fmt.Sprint(v), ".0") }

	// Account.
	call("POST", "/api-token-auth/", fmt.Sprintf(`{"username": %q, "password": %q}`, data.Staff.Username, data.Staff.Password))
	call("POST", "/api-token-auth/", `{"username": "nobody", "password": "wrong"}`)
	call("GET", "/api/permissions/", "", "Authorization", staff)
	call("GET", "/api/permissions/", "", "Authorization", "Token 0000000000000000000000000000000000000000")

	// The public catalogue, as each demo partner's site reads it.
	catalogue := []string{"/api/v2/partners/", "/api/v2/partners/me/", "/api/v2/destinations/",
		"/api/v2/partner_legal_information/", "/api/v2/refund_withdrawal_terms/",
		"/api/v2/product_information/events/", "/api/v2/product_information/giftcards/",
		"/api/v2/product_information/network_giftcards/", "/api/v2/product_information/network_vouchers/",
		"/api/v2/product_information/vouchers/", "/api/v2/product_information/workshops/",
		"/api/v2/event_slots/", "/api/v2/network_vouchers/boxes/?ordering=-price", "/api/v2/network_vouchers/universes/",
		"/api/v2/universes/", "/api/v2/themes/", "/api/v2/giftcard_prototypes/", "/api/v2/workshop_sessions/",
		"/api/v2/workshop_themes/"}
	for _, p := range data.Partners {
		site := []string{"X-Partner-Domain", p.Domain}
		for _, path := range catalogue {
			res := call("GET", path, "", site...)
			for _, it := range list(res) {
				switch {
				case strings.HasPrefix(path, "/api/v2/partners/"):
					call("GET", "/api/v2/partners/"+id(it["id"])+"/", "", site...)
				case path == "/api/v2/event_slots/":
					call("GET", "/api/v2/event_prototypes/"+id(it["event_id"])+"/", "", site...)
				case strings.HasPrefix(path, "/api/v2/network_vouchers/boxes/"):
					call("GET", "/api/v2/network_vouchers/boxes/"+id(it["id"])+"/", "", site...)
				case path == "/api/v2/giftcard_prototypes/":
					call("GET", "/api/v2/giftcard_prototypes/"+id(it["id"])+"/", "", site...)
				case path == "/api/v2/workshop_sessions/":
					call("GET", "/api/v2/workshops/"+id(it["workshop_id"])+"/", "", site...)
					call("OPTIONS", "/api/v2/workshops/"+id(it["workshop_id"])+"/", "", site...)
				}
			}
		}
		call("GET", "/api/v2/partners/999999/", "", site...)
		call("GET", "/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
		call("HEAD", "/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
		call("OPTIONS", "/api/setup_marketing_widgets/"+p.Widgets.Key+"/", "")
	}
	call("GET", "/api/v2/partners/", "") // no partner: refused
	for _, g := range data.Gifts {
		seller := []string{"X-Partner-Domain", data.Seller(g).Domain}
		res := call("GET", "/api/v2/gift/"+url.PathEscape(g.Code)+"/", "", seller...)
		call("GET", "/api/v2/gift/"+url.PathEscape(g.Code)+"/linked_partners/", "", seller...)
		if res.Status == 200 {
			partner, _ := res.JSON(t)["partner"].(map[string]any)
			call("POST", "/api/v2/contact_requests/", fmt.Sprintf(
				`{"gift_code": %q, "full_name": "Ada Tour", "email": "ada@example.com", "message": "Hello", "partner": %q}`,
				g.Code, partner["uuid"]), seller...)
		}
	}

	// A cart and its checkout handoff, on a partner's site and, for a
	// partner without one, on this service's address.
	shops := []string{"Token " + CreateUser(t, dsn, "--username", "tour-nosite", "--password", "tour-password-1",
		"--partner-name", "No Site")}
	for _, p := range data.Partners {
		shops = append(shops, "Token "+tokens[p.Username])
	}
	for _, token := range shops {
		res := call("POST", "/api/v2/ecommerce/cart/", `{"items": [{"product_id": 1, "quantity": 2}], "return_url": "https://example.com/"}`,
			"Authorization", token)
		if res.Status != 201 {
			continue
		}
		cart := res.JSON(t)
		cartID := cart["id"].(string)
		call("POST", "/api/v2/ecommerce/cart/", `{"id": "`+cartID+`", "items": [{"product_id": 1, "quantity": 3}]}`, "Authorization", token)
		got := call("GET", "/api/v2/ecommerce/cart/"+cartID+"/", "", "Authorization", token)
		call("GET", "/api/v2/ecommerce/cart/"+cartID+"/", "", "Authorization", token, "If-None-Match", got.Header.Get("ETag"))
		funnel, err := url.Parse(cart["funnel_url"].(string))
		if err != nil {
			t.Fatal(err)
		}
		call("GET", funnel.RequestURI(), "", "Host", funnel.Host)
		other := strings.Replace(funnel.RequestURI(), "/shop/", "/order/", 1)
		call("GET", other, "", "Host", funnel.Host)
	}
	call("GET", "/ecommerce/shop/customization/", "")
	call("GET", "/p/not-a-uuid/ecommerce/order/customization/?cart=x", "")

	// The administration API, as staff.
	admin := []string{"Authorization", staff}
	media := list(call("GET", "/api/media/", "", admin...))
	for _, m := range media[:min(2, len(media))] {
		call("GET", "/api/media/"+id(m["id"])+"/", "", admin...)
		call("GET", "/media/"+m["uuid"].(string), "")
	}
	var png bytes.Buffer
	if err := pngEncode(&png); err != nil {
		t.Fatal(err)
	}
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	fw, _ := mw.CreateFormFile("file", "tour.png")
	fw.Write(png.Bytes())
	mw.WriteField("name", "Tour")
	if pu, ok := firstPartnerUUID(t, call, staff); ok {
		mw.WriteField("partner_uuid", pu)
	}
	mw.Close()
	up := call("POST", "/api/media/", form.String(), append(admin, "Content-Type", mw.FormDataContentType())...)
	if up.Status == 201 {
		call("PATCH", "/api/media/"+id(up.JSON(t)["id"])+"/", `{"name": "Tour renamed"}`, admin...)
	}
	call("POST", "/api/media/", `{}`, admin...) // not multipart: 415

	vouchers := list(call("GET", "/api/vouchers/?ordering=-creation_date", "", admin...))
	for _, v := range vouchers {
		code := v["code"].(string)
		call("GET", "/api/vouchers/"+code+"/", "", admin...)
		if v["state"] == "paid" {
			call("PATCH", "/api/vouchers/"+code+"/", `{"state": "using"}`, admin...)
			call("PATCH", "/api/vouchers/"+code+"/", `{"state": "nonsense"}`, admin...)
		}
	}
	call("GET", "/api/vouchers/?ordering=nope", "", admin...)
	call("GET", "/api/vouchers/", "")
	for _, g := range list(call("GET", "/api/giftcards/", "", admin...)) {
		call("GET", "/api/giftcards/"+id(g["id"])+"/", "", admin...)
		call("GET", "/api/giftcards_by_code/"+g["code"].(string)+"/", "", admin...)
	}
	protos := list(call("GET", "/api/voucher_prototypes/", "", admin...))
	for i, p := range protos {
		pid := id(p["id"])
		call("GET", "/api/voucher_prototypes/"+pid+"/", "", admin...)
		options := list(call("GET", "/api/voucher_prototypes/"+pid+"/options/", "", admin...))
		if i > 0 {
			continue
		}
		body := map[string]any{}
		for k, v := range p {
			if k != "id" && k != "partner" && k != "nb_orders" {
				body[k] = v
			}
		}
		body["name_en"] = "Tour copy"
		b, _ := json.Marshal(body)
		created := call("POST", "/api/voucher_prototypes/", string(b), admin...)
		if created.Status == 201 {
			nid := id(created.JSON(t)["id"])
			call("PUT", "/api/voucher_prototypes/"+nid+"/", string(b), admin...)
			call("PATCH", "/api/voucher_prototypes/"+nid+"/", `{"ranking": 7}`, admin...)
		}
		call("POST", "/api/voucher_prototypes/", `{"type": "nope"}`, admin...)
		if len(options) > 0 {
			o := options[0]["option"].(map[string]any)
			ob := map[string]any{"partner_uuid": o["partner_uuid"], "price": 10, "selling_price": 12,
				"countable": true, "services_info": []any{}, "voucher_prototypes": []any{p["id"]}}
			for _, lang := range []string{"fr", "en", "es", "it", "de", "nl", "ca", "pt"} {
				ob["name_"+lang], ob["description_"+lang] = "Tour option "+lang, ""
			}
			b, _ := json.Marshal(ob)
			call("POST", "/api/options/", string(b), admin...)
			cb, _ := json.Marshal(map[string]any{"partner_uuid": o["partner_uuid"], "name_en": "Tour category"})
			call("POST", "/api/option_categories/", string(cb), admin...)
		}
	}

	// Network partners, in a demo marketplace's network.
	var marketplaceUUID string
	gcMust(t, OpenDB(t, dsn).NewRaw("SELECT uuid::text FROM partners WHERE is_marketplace ORDER BY id LIMIT 1").
		Scan(context.Background(), &marketplaceUUID))
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

	// Network giftcards of that marketplace, used at a partner of its
	// network that accepts them.
	npBody, _ = json.Marshal(map[string]any{"name": "Tour inn", "commercial_name": "Tour Inn", "short_name": "TI",
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

	// Network vouchers: the demo's boxes and offers, its vouchers and their
	// usages, a usage by partner id and one by source id (the demo's
	// network partners have none: one is given here), and a cancel.
	for _, b := range list(call("GET", "/api/networkvouchers/boxes/", "", admin...)) {
		call("GET", "/api/networkvouchers/boxes/"+id(b["id"])+"/", "", admin...)
		call("GET", "/api/networkvouchers/boxes/"+id(b["id"])+"/offers/", "", admin...)
	}
	call("GET", "/api/networkvouchers_by_email/nobody@example.com/", "", admin...)
	today, db := time.Now().Format(time.DateOnly), OpenDB(t, dsn)
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

	// A multi-product cart of the marketplace's network products: its
	// first network giftcard amount and its boxes on sale, read back.
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

	// The payment hub: a partner, its payments activated through the
	// simulated provider's page, a KYC document.
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

	// The demo's payment hub: a payment of its partner, paid at once,
	// refunded in part and dated; its payout request, validated then
	// paid; the wallet of the network giftcard that paid part of one. The
	// demo holds each: a step that cannot start is a failure, not a skip.
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

	// The service's own routes.
	for _, path := range []string{"/healthz", "/readyz", "/api/schema/", "/api/schema/?format=json", "/api/schema/openapi.json",
		"/api/schema/docs/", "/api/schema/docs/viewer.js", "/api/schema/docs/LICENSE.redoc"} {
		call("GET", path, "")
	}

	// Every operation has had a success checked against the document.
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.YAML)
	if err != nil {
		t.Fatal(err)
	}
	seen := CheckedOperations()
	var missing []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			ok := false
			for s := range op.Responses.Map() {
				// A success, or the redirect of a page's form.
				if (strings.HasPrefix(s, "2") || s == "303") && seen[op.OperationID+" "+s] {
					ok = true
				}
			}
			if !ok {
				missing = append(missing, method+" "+path+" ("+op.OperationID+")")
			}
		}
	}
	slices.Sort(missing)
	for _, m := range missing {
		t.Errorf("no success of %s was checked against the document", m)
	}
}

func pngEncode(b *bytes.Buffer) error {
	return png.Encode(b, image.NewRGBA(image.Rect(0, 0, 3, 2)))
}

// firstPartnerUUID is the uuid of a partner staff can upload media for.
func firstPartnerUUID(t *testing.T, call func(string, string, string, ...string) Response, staff string) (string, bool) {
	t.Helper()
	res := call("GET", "/api/voucher_prototypes/", "", "Authorization", staff)
	var page struct {
		Results []struct {
			PartnerUUID string `json:"partner_uuid"`
		} `json:"results"`
	}
	if json.Unmarshal([]byte(res.Body), &page) != nil || len(page.Results) == 0 {
		return "", false
	}
	return page.Results[0].PartnerUUID, true
}

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// CheckContract refuses what the document does not say, and lets through
// what it does and the paths it does not describe.
func TestCheckContract(t *testing.T) {
	t.Parallel()
	theme := `{"id": 1, "name": {"fr": "Mer", "en": null, "es": null, "it": null, "de": null, "nl": null, "ca": null, "pt": null}}`
	jsonCT := http.Header{"Content-Type": {"application/json"}}
	for _, tc := range []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		wantError          string
	}{
		{"Valid", "GET", "/api/v2/themes/", 200, jsonCT, "[" + theme + "]", ""},
		{"WithoutSlash", "GET", "/api/v2/themes", 200, jsonCT, "[" + theme + "]", ""},
		{"Head", "HEAD", "/api/v2/themes/", 200, jsonCT, "", ""},
		{"DetailError", "GET", "/api/v2/themes/", 400, jsonCT, `{"detail": "Invalid page."}`, ""},
		{"FieldErrors", "POST", "/api/v2/ecommerce/cart/", 400, jsonCT, `{"items": [{}, {"quantity": ["A valid integer is required."]}]}`, ""},
		{"NotDocumentedPath", "POST", "/graphql", 200, jsonCT, `{"data": {}}`, ""},
		{"UnknownMethod405", "DELETE", "/api/v2/themes/", 405, jsonCT, `{"detail": "Method \"DELETE\" not allowed."}`, ""},
		{"ExtraField", "GET", "/api/v2/themes/", 200, jsonCT, `[{"id": 1, "name": null, "colour": "blue"}]`, "does not match"},
		{"WrongType", "GET", "/api/v2/themes/", 200, jsonCT, `[{"id": "1", "name": {}}]`, "does not match"},
		{"UndocumentedStatus", "GET", "/api/v2/themes/", 418, jsonCT, `{"detail": "teapot"}`, "status is not supported"},
		{"UndocumentedMediaType", "GET", "/ecommerce/shop/customization/", 200, http.Header{"Content-Type": {"text/plain"}}, "hi", "does not document"},
		{"UndocumentedMethod", "PUT", "/api/v2/themes/", 200, jsonCT, `{}`, "has no PUT operation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, "http://api.test"+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{TB: t}
			CheckContract(rec, req, tc.status, tc.header, []byte(tc.body))
			switch {
			case tc.wantError == "" && len(rec.errors) > 0:
				t.Errorf("unexpected errors: %q", rec.errors)
			case tc.wantError != "" && (len(rec.errors) != 1 || !strings.Contains(rec.errors[0], tc.wantError)):
				t.Errorf("errors = %q, want one with %q", rec.errors, tc.wantError)
			}
		})
	}
}
