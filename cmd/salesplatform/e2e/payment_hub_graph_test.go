package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
)

// graph sends a GraphQL operation to the fixture's handler with token (""
// for none) and returns its data and errors; a mutation's typed errors
// must name its input.
func (f *hubFixture) graph(t *testing.T, token, query string, vars map[string]any) (map[string]any, []gqlError) {
	t.Helper()
	body := jsonOf(t, map[string]any{"query": query, "variables": vars})
	return f.graphBody(t, token, body, "application/json", body)
}

// graphBody posts body (of contentType) to /graphql; request is the JSON
// operation it carries, whose answer is checked.
func (f *hubFixture) graphBody(t *testing.T, token, body, contentType, request string) (map[string]any, []gqlError) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("GraphQL-Require-Preflight", "1")
	if token != "" {
		req.Header.Set("Authorization", "Token "+token)
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	checkGraphAnswer(t, []byte(request), rec.Body.Bytes())
	raw, errs := decodeGraph(t, Response{Status: rec.Code, Body: rec.Body.String()})
	var data map[string]any
	if len(raw) > 0 && string(raw) != "null" {
		gcMust(t, json.Unmarshal(raw, &data))
	}
	return data, errs
}

func (f *hubFixture) mustGraph(t *testing.T, token, query string, vars map[string]any) map[string]any {
	t.Helper()
	data, errs := f.graph(t, token, query, vars)
	if len(errs) > 0 {
		t.Fatalf("%s: errors %+v", query, errs)
	}
	return data
}

const (
	phPartnerFields = `id legacyId uuid status name commercialName shortName companyType siretNumber
		legalRepresentativeFirstName legalRepresentativeLastName legalRepresentativeBirthday legalRepresentativeEmail
		hqAddressLine1 hqAddressLine2 hqPostalCode hqCity hqCountry rcs ape vatId agencyEmail agencyPhone website
		hideFromStats thirdPartySalesOnly referrerId payoutFrequency autoValidatePayout freezePayout blockPayoutValidation
		iban bic paymentActivationStatus canTakePayments activation { uuid status partnerUuid userActionUrl createdOn completedOn }`
	phPayload = `userErrors { field code message } errors { field code message }`
	phCreate  = `mutation($in: CreatePaymentPartnerInput!, $key: String) { createPaymentPartner(input: $in, idempotencyKey: $key) {
		paymentPartner { ` + phPartnerFields + ` } ` + phPayload + ` } }`
	phUpdate = `mutation($in: UpdatePaymentPartnerInput!) { updatePaymentPartner(input: $in) {
		paymentPartner { ` + phPartnerFields + ` } ` + phPayload + ` } }`
	phRead     = `query($u: UUID!) { paymentPartner(uuid: $u) { ` + phPartnerFields + ` } }`
	phActivate = `mutation($p: ID!, $key: String) { activatePartnerPayments(input: {partnerId: $p}, idempotencyKey: $key) {
		activation { uuid status partnerUuid userActionUrl createdOn completedOn partner { uuid canTakePayments } } ` + phPayload + ` } }`
	phNode = `query($id: ID!) { node(id: $id) { id ... on PaymentPartner { uuid iban } ... on KycDocument { legacyId comment }
		... on Wallet { uuid balance } ... on MultiProductCart { cartId: legacyId partnerUuid } } }`
)

// phInput is a creation input with every required field, changed by kv
// (drop removes a field).
func phInput(kv ...any) map[string]any {
	m := map[string]any{"status": "ACTIVE", "commercialName": "Spa des Alpes", "shortName": "SPA",
		"legalRepresentativeEmail": "anne@spa.example.com", "agencyEmail": "contact@spa.example.com"}
	return withPairs(m, kv...)
}

// The graph's payment-hub partners: a creation answers the whole record,
// field by field, as REST's GET answers it (the IBAN masked but for
// staff); the lookup and node read it back for those who see it; updates
// change what each caller may; refusals are typed errors on the input's
// own fields and write nothing.
func TestGraphPaymentHubPartners(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)
	in := phInput("status", "TEST", "name", "Spa des Alpes SAS", "companyType", "BUS", "siretNumber", "12345678900012",
		"legalRepresentativeFirstName", "Anne", "legalRepresentativeLastName", "Dupont", "legalRepresentativeBirthday", "1980-05-17",
		"hqAddressLine1", "1 rue Haute", "hqAddressLine2", "Bâtiment B", "hqPostalCode", "74000", "hqCity", "Annecy",
		"hqCountry", "FR", "rcs", "RCS Annecy 123", "ape", "9604Z", "vatId", "FR12345678901", "agencyPhone", "+33 4 50 00 00 00",
		"website", "https://spa.example.com", "payoutFrequency", "WEEK", "autoValidatePayout", true, "freezePayout", true,
		"blockPayoutValidation", true, "iban", "FR14 2004 1010 0505 0001 3M02 606", "bic", "BNPAFRPPXXX", "hideFromStats", true,
		"thirdPartySalesOnly", true, "referrerId", globalID("Partner", f.market.UUID))
	data := f.mustGraph(t, f.marketTok, phCreate, map[string]any{"in": in, "key": "ph-create-1"})
	p := dig(data, "createPaymentPartner", "paymentPartner").(map[string]any)
	uuid := p["uuid"].(string)
	var id int64
	gcMust(t, f.db.NewRaw(`SELECT id FROM partners WHERE uuid = ?`, uuid).Scan(context.Background(), &id))
	want := map[string]any{"id": globalID("PaymentPartner", uuid), "legacyId": fmt.Sprint(id), "uuid": uuid, "status": "TEST",
		"name": "Spa des Alpes SAS", "commercialName": "Spa des Alpes", "shortName": "SPA", "companyType": "bus",
		"siretNumber": "12345678900012", "legalRepresentativeFirstName": "Anne", "legalRepresentativeLastName": "Dupont",
		"legalRepresentativeBirthday": "1980-05-17", "legalRepresentativeEmail": "anne@spa.example.com",
		"hqAddressLine1": "1 rue Haute", "hqAddressLine2": "Bâtiment B", "hqPostalCode": "74000", "hqCity": "Annecy",
		"hqCountry": "FR", "rcs": "RCS Annecy 123", "ape": "9604Z", "vatId": "FR12345678901", "agencyEmail": "contact@spa.example.com",
		"agencyPhone": "+33 4 50 00 00 00", "website": "https://spa.example.com", "hideFromStats": true, "thirdPartySalesOnly": true,
		"referrerId": fmt.Sprint(f.market.ID), "payoutFrequency": "WEEK", "autoValidatePayout": true, "freezePayout": true,
		"blockPayoutValidation": true, "iban": hubMasked, "bic": "BNPAFRPPXXX", "paymentActivationStatus": nil,
		"canTakePayments": false, "activation": nil}
	wantSame(t, "created", p, want)
	if errs := dig(data, "createPaymentPartner", "errors").([]any); len(errs) != 0 {
		t.Errorf("errors %v", errs)
	}
	// REST reads the same record.
	rest := f.call(t, http.MethodGet, hubBase+uuid+"/", f.marketTok, "").JSON(t)
	if rest["iban"] != p["iban"] || rest["name"] != p["name"] || rest["payout_frequency"] != "week" || rest["status"] != "t" {
		t.Errorf("REST reads %v", rest)
	}
	// A replay answers the first creation.
	again := f.mustGraph(t, f.marketTok, phCreate, map[string]any{"in": in, "key": "ph-create-1"})
	wantSame(t, "replayed", dig(again, "createPaymentPartner", "paymentPartner"), want)

	// The lookup and node: the marketplace, the partner's own members and
	// staff (the IBAN whole); others NOT_FOUND.
	wantSame(t, "read by the referrer", f.mustGraph(t, f.marketTok, phRead, map[string]any{"u": uuid})["paymentPartner"], want)
	own := f.memberOf(t, id, domain.PermManageMasterAdmin)
	wantSame(t, "read by its member", f.mustGraph(t, own, phRead, map[string]any{"u": uuid})["paymentPartner"], want)
	want["iban"] = hubIBAN
	wantSame(t, "read by staff", f.mustGraph(t, f.staffTok, phRead, map[string]any{"u": uuid})["paymentPartner"], want)
	wantSame(t, "node", f.mustGraph(t, f.marketTok, phNode, map[string]any{"id": want["id"]})["node"],
		map[string]any{"id": want["id"], "uuid": uuid, "iban": hubMasked})
	for _, tok := range []string{f.rivalTok, f.shopTok} {
		data, errs := f.graph(t, tok, phRead, map[string]any{"u": uuid})
		wantGraphCode(t, errs, "NOT_FOUND")
		if data["paymentPartner"] != nil {
			t.Errorf("rival reads %v", data)
		}
		_, errs = f.graph(t, tok, phNode, map[string]any{"id": want["id"]})
		wantGraphCode(t, errs, "NOT_FOUND")
	}
	_, errs := f.graph(t, "", phRead, map[string]any{"u": uuid})
	wantGraphCode(t, errs, "UNAUTHENTICATED")

	// Refused creations: typed errors on the input's fields, nothing
	// written; no permission or no marketplace is FORBIDDEN.
	before := f.digest(t)
	for _, c := range []struct {
		in   map[string]any
		want []string
	}{
		{phInput("iban", "FR1420041010050500013M02607"), []string{"INVALID input.iban"}},
		{phInput("bic", "BNPA"), []string{"INVALID input.bic"}},
		{phInput("agencyEmail", "contact", "legalRepresentativeEmail", "anne@"),
			[]string{"INVALID input.legalRepresentativeEmail", "INVALID input.agencyEmail"}},
		{phInput("hqPostalCode", "74000-74001"), []string{"MAX_LENGTH input.hqPostalCode"}},
		{phInput("commercialName", ""), []string{"REQUIRED input.commercialName"}},
		{phInput("legalRepresentativeBirthday", "17 May 1980"), []string{"INVALID input.legalRepresentativeBirthday"}},
		{phInput("website", "www.spa.example.com"), []string{"INVALID input.website"}},
		{phInput("referrerId", "999999"), []string{"DOES_NOT_EXIST input.referrerId"}},
	} {
		data := f.mustGraph(t, f.marketTok, phCreate, map[string]any{"in": c.in})
		got := payloadErrors(t, data, "createPaymentPartner", "paymentPartner")
		slices.Sort(got) // the errors of several fields come in any order
		slices.Sort(c.want)
		wantErrors(t, fmt.Sprint(c.in), got, c.want...)
	}
	data = f.mustGraph(t, f.staffTok, phCreate, map[string]any{"in": phInput("referrerId", globalID("Partner", f.shop.UUID))})
	wantErrors(t, "a referrer that is not a marketplace", payloadErrors(t, data, "createPaymentPartner", "paymentPartner"),
		"INVALID input.referrerId")
	for _, tok := range []string{f.shopTok, f.viewerTok} {
		_, errs := f.graph(t, tok, phCreate, map[string]any{"in": phInput()})
		wantGraphCode(t, errs, "FORBIDDEN")
	}
	_, errs = f.graph(t, f.marketTok, phCreate, map[string]any{"in": phInput(), "key": "has space"})
	wantGraphCode(t, errs, "BAD_USER_INPUT")
	_, errs = f.graph(t, "", phCreate, map[string]any{"in": phInput()})
	wantGraphCode(t, errs, "UNAUTHENTICATED")
	if after := f.digest(t); after != before {
		t.Errorf("a refused creation wrote:\n%s\n%s", before, after)
	}

	// Updates: the referrer changes the settings, the partner's member its
	// legal representative; a field the caller may not change is refused
	// on that field.
	data = f.mustGraph(t, f.marketTok, phUpdate, map[string]any{"in": map[string]any{"partnerId": want["id"], "status": "ACTIVE",
		"hideFromStats": false, "blockPayoutValidation": false, "legalRepresentativeBirthday": nil, "reason": "verified"}})
	p = dig(data, "updatePaymentPartner", "paymentPartner").(map[string]any)
	if p["status"] != "ACTIVE" || p["hideFromStats"] != false || p["blockPayoutValidation"] != false ||
		p["legalRepresentativeBirthday"] != nil || p["iban"] != hubMasked || p["thirdPartySalesOnly"] != true {
		t.Errorf("updated by the referrer: %v", p)
	}
	var reason string
	gcMust(t, f.db.NewRaw(`SELECT reason FROM payment_partner_audit WHERE partner_id = ? ORDER BY id DESC LIMIT 1`, id).
		Scan(context.Background(), &reason))
	if reason != "verified" {
		t.Errorf("audit reason %q", reason)
	}
	data = f.mustGraph(t, own, phUpdate, map[string]any{"in": map[string]any{"partnerId": uuid,
		"legalRepresentativeEmail": "legal@spa.example.com", "legalRepresentativeBirthday": "1981-02-03"}})
	if p := dig(data, "updatePaymentPartner", "paymentPartner").(map[string]any); p["legalRepresentativeEmail"] != "legal@spa.example.com" ||
		p["legalRepresentativeBirthday"] != "1981-02-03" {
		t.Errorf("updated by its member: %v", p)
	}
	before = f.digest(t)
	data = f.mustGraph(t, own, phUpdate, map[string]any{"in": map[string]any{"partnerId": uuid, "status": "INACTIVE"}})
	wantErrors(t, "its member's status", payloadErrors(t, data, "updatePaymentPartner", "paymentPartner"), "INVALID input.status")
	data = f.mustGraph(t, f.marketTok, phUpdate, map[string]any{"in": map[string]any{"partnerId": uuid, "referrerId": nil}})
	wantErrors(t, "the referrer's referrer", payloadErrors(t, data, "updatePaymentPartner", "paymentPartner"), "INVALID input.referrerId")
	data = f.mustGraph(t, f.marketTok, phUpdate, map[string]any{"in": map[string]any{"partnerId": uuid, "legalRepresentativeEmail": "x"}})
	wantErrors(t, "a bad e-mail", payloadErrors(t, data, "updatePaymentPartner", "paymentPartner"), "INVALID input.legalRepresentativeEmail")
	for _, c := range []struct{ tok, code string }{{f.rivalTok, "NOT_FOUND"}, {f.viewerTok, "FORBIDDEN"}, {"", "UNAUTHENTICATED"}} {
		_, errs := f.graph(t, c.tok, phUpdate, map[string]any{"in": map[string]any{"partnerId": uuid, "hideFromStats": true}})
		wantGraphCode(t, errs, c.code)
	}
	_, errs = f.graph(t, f.staffTok, phUpdate, map[string]any{"in": map[string]any{"partnerId": globalID("Partner", uuid), "hideFromStats": true}})
	wantGraphCode(t, errs, "NOT_FOUND")
	if after := f.digest(t); after != before {
		t.Errorf("a refused update wrote:\n%s\n%s", before, after)
	}
	// Staff hand the partner over to another referrer.
	var rival int64
	gcMust(t, f.db.NewRaw(`SELECT id FROM partners WHERE name = 'Rival'`).Scan(context.Background(), &rival))
	data = f.mustGraph(t, f.staffTok, phUpdate, map[string]any{"in": map[string]any{"partnerId": uuid, "referrerId": fmt.Sprint(rival)}})
	if p := dig(data, "updatePaymentPartner", "paymentPartner").(map[string]any); p["referrerId"] != fmt.Sprint(rival) || p["iban"] != hubIBAN {
		t.Errorf("handed over: %v", p)
	}
	_, errs = f.graph(t, f.marketTok, phRead, map[string]any{"u": uuid})
	wantGraphCode(t, errs, "NOT_FOUND")
}

// Activating a partner's payments and pushing its KYC documents through
// the graph: the same service as REST's, its answers field by field, the
// idempotency keys replaying, and who may not.
func TestGraphPaymentHubActivationAndKYC(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)
	created := f.create(t)
	uuid := created["uuid"].(string)
	id := globalID("PaymentPartner", uuid)

	data := f.mustGraph(t, f.marketTok, phActivate, map[string]any{"p": id, "key": "ph-activate-1"})
	a := dig(data, "activatePartnerPayments", "activation").(map[string]any)
	var actID string
	var createdOn time.Time
	gcMust(t, f.db.NewRaw(`SELECT a.id::text, a.created_on FROM payment_partner_activations a JOIN partners p ON p.id = a.partner_id
		WHERE p.uuid = ?`, uuid).Scan(context.Background(), &actID, &createdOn))
	url, _ := a["userActionUrl"].(string)
	if !strings.HasPrefix(url, "http://api.test/psp/sim/activations/") {
		t.Errorf("userActionUrl %q", url)
	}
	wantSame(t, "activation", a, map[string]any{"uuid": actID, "status": "PENDING_USER_ACTION", "partnerUuid": uuid,
		"userActionUrl": url, "createdOn": createdOn.UTC().Format(time.RFC3339Nano), "completedOn": nil,
		"partner": map[string]any{"uuid": uuid, "canTakePayments": false}})
	again := f.mustGraph(t, f.marketTok, phActivate, map[string]any{"p": id, "key": "ph-activate-1"})
	wantSame(t, "replayed", dig(again, "activatePartnerPayments", "activation"), a)
	// REST sees the same activation.
	if got := f.call(t, http.MethodGet, hubBase+uuid+"/", f.marketTok, "").JSON(t); got["payment_activation_status"] != "PENDING_USER_ACTION" {
		t.Errorf("REST after the graph's activation: %v", got)
	}
	// The legal representative verifies; the partner may then take payments.
	page := pagePath(t, url)
	f.call(t, http.MethodPost, page, "", "decision=verify", "Content-Type", "application/x-www-form-urlencoded")
	p := f.mustGraph(t, f.marketTok, phRead, map[string]any{"u": uuid})["paymentPartner"].(map[string]any)
	if p["paymentActivationStatus"] != "COMPLETED" || p["canTakePayments"] != true || dig(p, "activation", "status") != "COMPLETED" ||
		dig(p, "activation", "completedOn") == nil || dig(p, "activation", "uuid") != actID {
		t.Errorf("after verification: %v", p)
	}
	for _, c := range []struct{ tok, id, code string }{{f.rivalTok, id, "NOT_FOUND"}, {f.viewerTok, id, "FORBIDDEN"},
		{"", id, "UNAUTHENTICATED"}, {f.staffTok, "nope", "NOT_FOUND"}, {f.staffTok, globalID("Partner", uuid), "NOT_FOUND"}} {
		_, errs := f.graph(t, c.tok, phActivate, map[string]any{"p": c.id})
		wantGraphCode(t, errs, c.code)
	}

	// KYC documents, as GraphQL multipart requests.
	pdf := []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
	const kycMutation = `mutation($in: UploadKycDocumentInput!, $key: String) { uploadKycDocument(input: $in, idempotencyKey: $key) {
		kycDocument { id legacyId partnerId partnerUuid comment documentType contentType size createdOn partner { uuid } } ` + phPayload + ` } }`
	upload := func(tok string, in map[string]any, key any, data []byte) (map[string]any, []gqlError) {
		t.Helper()
		in["file"] = nil
		ops := jsonOf(t, map[string]any{"query": kycMutation, "variables": map[string]any{"in": in, "key": key}})
		body, ct := multipartBody(t, field("operations", ops), field("map", `{"f": ["variables.in.file"]}`), file("f", data))
		return f.graphBody(t, tok, body, ct, ops)
	}
	kycIn := func(kv ...string) map[string]any {
		m := map[string]any{"partnerId": id, "comment": "Kbis extract", "documentType": "REGISTRATION_PROOF"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	data, errs := upload(f.marketTok, kycIn(), "kyc-1", pdf)
	if len(errs) > 0 {
		t.Fatalf("upload: %+v", errs)
	}
	doc := dig(data, "uploadKycDocument", "kycDocument").(map[string]any)
	var docID, partnerID int64
	var docCreated time.Time
	gcMust(t, f.db.NewRaw(`SELECT id, partner_id, created_on FROM kyc_documents`).Scan(context.Background(), &docID, &partnerID, &docCreated))
	wantDoc := map[string]any{"id": globalID("KycDocument", docID), "legacyId": fmt.Sprint(docID), "partnerId": fmt.Sprint(partnerID),
		"partnerUuid": uuid, "comment": "Kbis extract", "documentType": "REGISTRATION_PROOF", "contentType": "application/pdf",
		"size": float64(len(pdf)), "createdOn": docCreated.UTC().Format(time.RFC3339Nano), "partner": map[string]any{"uuid": uuid}}
	wantSame(t, "KYC document", doc, wantDoc)
	replay, _ := upload(f.marketTok, kycIn(), "kyc-1", pdf)
	wantSame(t, "replayed upload", dig(replay, "uploadKycDocument", "kycDocument"), wantDoc)
	// Its uuid names the partner too; node reads the document back.
	if data, errs := upload(f.marketTok, kycIn("partnerId", uuid, "documentType", "IDENTITY_PROOF"), nil, pdf); len(errs) > 0 ||
		dig(data, "uploadKycDocument", "kycDocument", "documentType") != "IDENTITY_PROOF" {
		t.Errorf("by uuid: %v %+v", data, errs)
	}
	wantSame(t, "node", f.mustGraph(t, f.marketTok, phNode, map[string]any{"id": wantDoc["id"]})["node"],
		map[string]any{"id": wantDoc["id"], "legacyId": wantDoc["legacyId"], "comment": "Kbis extract"})
	_, errs = f.graph(t, f.rivalTok, phNode, map[string]any{"id": wantDoc["id"]})
	wantGraphCode(t, errs, "NOT_FOUND")

	before := f.digest(t)
	for _, c := range []struct {
		tok  string
		in   map[string]any
		file []byte
		want string
	}{
		{f.marketTok, kycIn(), []byte("Not a PDF at all.\n"), "INVALID input.file"},
		{f.marketTok, kycIn(), []byte{}, "INVALID input.file"},
		{f.marketTok, kycIn("comment", ""), pdf, "REQUIRED input.comment"},
		{f.marketTok, kycIn("partnerId", "x"), pdf, "INVALID input.partnerId"},
		{f.rivalTok, kycIn(), pdf, "DOES_NOT_EXIST input.partnerId"},
	} {
		data, errs := upload(c.tok, c.in, nil, c.file)
		if len(errs) > 0 {
			t.Errorf("%v: %+v", c.in, errs)
			continue
		}
		wantErrors(t, fmt.Sprint(c.in), payloadErrors(t, data, "uploadKycDocument", "kycDocument"), c.want)
	}
	_, errs = upload(f.viewerTok, kycIn(), nil, pdf)
	wantGraphCode(t, errs, "FORBIDDEN")
	_, errs = upload("", kycIn(), nil, pdf)
	wantGraphCode(t, errs, "UNAUTHENTICATED")
	if after := f.digest(t); after != before {
		t.Errorf("a refused upload wrote:\n%s\n%s", before, after)
	}
}

const (
	walletFields = `id legacyId uuid kind currencyCode balance createdOn partnerId partner { uuid name }
		networkGiftcard { code remainingValue }`
	walletMovementFields = `uuid createdOn amount currencyCode status type paymentUuid debitedWalletUuid creditedWalletUuid reason`
	walletRead           = `query($u: UUID!, $first: Int, $after: String) { wallet(uuid: $u) { ` + walletFields + `
		movements(first: $first, after: $after) { totalCount pageInfo { hasNextPage hasPreviousPage endCursor }
			edges { cursor node { ` + walletMovementFields + ` } } } } }`
)

// The graph's wallets: a wallet with its partner or network giftcard and
// its movements (a connection, oldest first), for those who may see it;
// NOT_FOUND for the others.
func TestGraphWallets(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)
	w := f.wallets(t)
	var walletID int64
	var createdAt time.Time
	gcMust(t, f.db.NewRaw(`SELECT id, created_at FROM wallets WHERE uuid = ?`, w.partner).Scan(context.Background(), &walletID, &createdAt))
	movement := func(i int) map[string]any {
		m := w.moves[i]
		return map[string]any{"uuid": m.UUID.String(), "createdOn": m.CreatedOn.UTC().Format(time.RFC3339Nano),
			"amount": m.Amount.StringFixed(2), "currencyCode": "EUR", "status": "SUCCEEDED", "type": strings.ToUpper(m.Type),
			"paymentUuid": nil, "debitedWalletUuid": m.Debited.String(), "creditedWalletUuid": m.Credited.String(), "reason": m.Reason}
	}

	data := f.mustGraph(t, f.marketTok, walletRead, map[string]any{"u": w.partner, "first": 1})
	got := data["wallet"].(map[string]any)
	moves := got["movements"].(map[string]any)
	delete(got, "movements")
	wantSame(t, "partner wallet", got, map[string]any{"id": globalID("Wallet", w.partner), "legacyId": fmt.Sprint(walletID),
		"uuid": w.partner.String(), "kind": "PARTNER", "currencyCode": "EUR", "balance": "30.00",
		"createdOn": createdAt.UTC().Format(time.RFC3339Nano), "partnerId": fmt.Sprint(w.hubID),
		"partner": map[string]any{"uuid": w.hubUUID, "name": "Spa des Alpes"}, "networkGiftcard": nil})
	edges := moves["edges"].([]any)
	if moves["totalCount"] != 2.0 || len(edges) != 1 || dig(moves, "pageInfo", "hasNextPage") != true {
		t.Fatalf("first page %v", moves)
	}
	wantSame(t, "first movement", dig(edges[0], "node"), movement(1))
	data = f.mustGraph(t, w.ownTok, walletRead, map[string]any{"u": w.partner, "first": 1, "after": dig(moves, "pageInfo", "endCursor")})
	moves = dig(data, "wallet", "movements").(map[string]any)
	if edges := moves["edges"].([]any); len(edges) != 1 || dig(moves, "pageInfo", "hasNextPage") != false ||
		dig(moves, "pageInfo", "hasPreviousPage") != true {
		t.Errorf("second page %v", moves)
	} else {
		wantSame(t, "second movement", dig(edges[0], "node"), movement(2))
	}

	// A card's wallet: the card, its remaining value; the card's code
	// masked, as the network's lists show it to a member who may neither
	// use nor create cards.
	data = f.mustGraph(t, f.marketTok, walletRead, map[string]any{"u": w.card})
	card := data["wallet"].(map[string]any)
	if card["kind"] != "NETWORK_GIFTCARD" || card["balance"] != "40.00" || card["partner"] != nil || card["partnerId"] != nil ||
		dig(card, "networkGiftcard", "code") != "••••••••••LLET" || dig(card, "networkGiftcard", "remainingValue") != "40.00" ||
		dig(card, "movements", "totalCount") != 1.0 {
		t.Errorf("card wallet %v", card)
	} else {
		wantSame(t, "card movement", dig(card, "movements", "edges", "node"), movement(3))
	}
	// The platform's accounts, for staff; node reads a wallet back.
	data = f.mustGraph(t, f.staffTok, walletRead, map[string]any{"u": w.payin})
	if p := data["wallet"].(map[string]any); p["kind"] != "PAYIN" || p["balance"] != "-30.00" || p["partner"] != nil {
		t.Errorf("payin %v", p)
	}
	wantSame(t, "node", f.mustGraph(t, f.viewerTok, phNode, map[string]any{"id": globalID("Wallet", w.partner)})["node"],
		map[string]any{"id": globalID("Wallet", w.partner), "uuid": w.partner.String(), "balance": "30.00"})

	for _, c := range []struct {
		tok    string
		wallet any
		code   string
	}{{f.rivalTok, w.partner, "NOT_FOUND"}, {f.shopTok, w.partner, "NOT_FOUND"}, {w.ownTok, w.card, "NOT_FOUND"},
		{f.marketTok, w.payin, "NOT_FOUND"}, {f.marketTok, w.clearing, "NOT_FOUND"}, {f.staffTok, "00000000-0000-0000-0000-000000000001", "NOT_FOUND"},
		{"", w.partner, "UNAUTHENTICATED"}} {
		data, errs := f.graph(t, c.tok, walletRead, map[string]any{"u": c.wallet})
		wantGraphCode(t, errs, c.code)
		if data["wallet"] != nil {
			t.Errorf("%v reads %v", c.wallet, data)
		}
	}
	_, errs := f.graph(t, f.rivalTok, phNode, map[string]any{"id": globalID("Wallet", w.partner)})
	wantGraphCode(t, errs, "NOT_FOUND")
}

// Multi-product carts through the graph: the creation answers the cart
// field by field, which the lookup and node read back for its partner;
// refused lines are typed errors on the input's own lines.
func TestGraphMultiProductCarts(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)
	ctx := context.Background()
	gcMust(t, f.db.NewRaw(`INSERT INTO product_information_network_giftcards (partner_id, giftcard_predefined_amounts)
		VALUES (?, '{25, 50}') RETURNING partner_id`, f.market.ID).Scan(ctx, new(int64)))
	var box, shelved int64
	gcMust(t, f.db.NewRaw(`INSERT INTO network_voucher_boxes (marketplace_id, is_active) VALUES (?, true) RETURNING id`, f.market.ID).Scan(ctx, &box))
	gcMust(t, f.db.NewRaw(`INSERT INTO network_voucher_boxes (marketplace_id, is_active) VALUES (?, false) RETURNING id`, f.market.ID).Scan(ctx, &shelved))
	const create = `mutation($in: CreateMultiProductCartInput!, $key: String) { createMultiProductCart(input: $in, idempotencyKey: $key) {
		multiProductCart { id legacyId partnerUuid marketplaceId networkGiftcards { amount quantity themedPdfId }
			networkVouchers { boxId quantity } createdAt expiresAt partner { uuid } } ` + phPayload + ` } }`
	market := globalID("Partner", f.market.UUID)
	in := map[string]any{"partnerId": market, "networkGiftcards": []any{map[string]any{"amount": "25", "quantity": 2, "themedPdfId": "7"}},
		"networkVouchers": []any{map[string]any{"boxId": globalID("NetworkVoucherBox", box), "quantity": 1}}}
	data := f.mustGraph(t, f.marketTok, create, map[string]any{"in": in, "key": "mpc-1"})
	if errs := dig(data, "createMultiProductCart", "errors"); len(errs.([]any)) > 0 {
		t.Fatalf("create: %v", errs)
	}
	cart := dig(data, "createMultiProductCart", "multiProductCart").(map[string]any)
	var cartID string
	var createdAt, expiresAt time.Time
	gcMust(t, f.db.NewRaw(`SELECT id::text, created_at, expires_at FROM multi_product_carts`).Scan(ctx, &cartID, &createdAt, &expiresAt))
	want := map[string]any{"id": globalID("MultiProductCart", cartID), "legacyId": cartID, "partnerUuid": f.market.UUID.String(),
		"marketplaceId":    fmt.Sprint(f.market.ID),
		"networkGiftcards": []any{map[string]any{"amount": "25.00", "quantity": 2.0, "themedPdfId": "7"}},
		"networkVouchers":  []any{map[string]any{"boxId": fmt.Sprint(box), "quantity": 1.0}},
		"createdAt":        createdAt.UTC().Format(time.RFC3339Nano), "expiresAt": expiresAt.UTC().Format(time.RFC3339Nano),
		"partner": map[string]any{"uuid": f.market.UUID.String()}}
	wantSame(t, "cart", cart, want)
	if expiresAt.Sub(createdAt) != 7*24*time.Hour {
		t.Errorf("lapses after %v", expiresAt.Sub(createdAt))
	}
	again := f.mustGraph(t, f.marketTok, create, map[string]any{"in": in, "key": "mpc-1"})
	wantSame(t, "replayed", dig(again, "createMultiProductCart", "multiProductCart"), want)
	// REST reads it; the lookup by either id and node read it back.
	if got := f.call(t, http.MethodGet, "/api/multi_product_carts/"+cartID+"/", f.marketTok, "").JSON(t); got["id"] != cartID {
		t.Errorf("REST reads %v", got)
	}
	const read = `query($id: ID!) { multiProductCart(id: $id) { id legacyId partnerUuid marketplaceId
		networkGiftcards { amount quantity themedPdfId } networkVouchers { boxId quantity } createdAt expiresAt partner { uuid } } }`
	for _, id := range []string{want["id"].(string), cartID} {
		wantSame(t, "read "+id, f.mustGraph(t, f.marketTok, read, map[string]any{"id": id})["multiProductCart"], want)
	}
	wantSame(t, "node", f.mustGraph(t, f.staffTok, phNode, map[string]any{"id": want["id"]})["node"],
		map[string]any{"id": want["id"], "cartId": cartID, "partnerUuid": f.market.UUID.String()})
	for _, c := range []struct{ tok, id, code string }{{f.rivalTok, cartID, "NOT_FOUND"}, {f.shopTok, want["id"].(string), "NOT_FOUND"},
		{f.marketTok, "nope", "NOT_FOUND"}, {f.marketTok, globalID("Cart", cartID), "NOT_FOUND"}, {"", cartID, "UNAUTHENTICATED"}} {
		data, errs := f.graph(t, c.tok, read, map[string]any{"id": c.id})
		wantGraphCode(t, errs, c.code)
		if data["multiProductCart"] != nil {
			t.Errorf("%s reads %v", c.id, data)
		}
	}

	// Refusals: typed errors on the input's lines, nothing written.
	var carts int
	count := func() int {
		gcMust(t, f.db.NewRaw(`SELECT count(*) FROM multi_product_carts`).Scan(ctx, &carts))
		return carts
	}
	before := count()
	line := func(amount string, quantity int) map[string]any {
		return map[string]any{"amount": amount, "quantity": quantity, "themedPdfId": "1"}
	}
	for _, c := range []struct {
		tok  string
		in   map[string]any
		want []string
	}{
		{f.marketTok, map[string]any{"networkGiftcards": []any{line("26", 1)}}, []string{"INVALID input.networkGiftcards.0.amount"}},
		{f.marketTok, map[string]any{"networkGiftcards": []any{line("25", 1), line("25", 101)}}, []string{"MAX_VALUE input.networkGiftcards.1.quantity"}},
		{f.marketTok, map[string]any{"networkGiftcards": []any{map[string]any{"amount": "25", "quantity": 1, "themedPdfId": "x"}}},
			[]string{"INVALID input.networkGiftcards.0.themedPdfId"}},
		{f.marketTok, map[string]any{"networkVouchers": []any{map[string]any{"boxId": fmt.Sprint(shelved), "quantity": 1}}},
			[]string{"INVALID input.networkVouchers.0.boxId"}},
		{f.marketTok, map[string]any{"networkVouchers": []any{map[string]any{"boxId": "999999", "quantity": 1}}},
			[]string{"DOES_NOT_EXIST input.networkVouchers.0.boxId"}},
		{f.marketTok, map[string]any{"networkGiftcards": []any{}}, []string{"REQUIRED input"}},
		{f.marketTok, map[string]any{"networkGiftcards": nil}, []string{"NULL input.networkGiftcards"}},
		{f.rivalTok, map[string]any{"networkGiftcards": []any{line("25", 1)}}, []string{"DOES_NOT_EXIST input.partnerId"}},
		{f.shopTok, map[string]any{"partnerId": globalID("Partner", f.shop.UUID), "networkGiftcards": []any{line("25", 1)}},
			[]string{"INVALID input.partnerId"}},
	} {
		if c.in["partnerId"] == nil {
			c.in["partnerId"] = market
		}
		data := f.mustGraph(t, c.tok, create, map[string]any{"in": c.in})
		wantErrors(t, fmt.Sprint(c.in), payloadErrors(t, data, "createMultiProductCart", "multiProductCart"), c.want...)
	}
	// Another partner by its record id: the graph must look it up.
	_, errs := f.graph(t, f.rivalTok, create, map[string]any{"in": map[string]any{"partnerId": fmt.Sprint(f.market.ID),
		"networkGiftcards": []any{line("25", 1)}}})
	wantGraphCode(t, errs, "NOT_FOUND")
	_, errs = f.graph(t, "", create, map[string]any{"in": in})
	wantGraphCode(t, errs, "UNAUTHENTICATED")
	if after := count(); after != before {
		t.Errorf("a refused cart was stored: %d -> %d", before, after)
	}
}
