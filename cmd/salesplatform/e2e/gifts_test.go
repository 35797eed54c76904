package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/domain/l10n"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// giftsFixture is a running server with:
//   - shop: a partner at shop.example.com (EUR, Europe/Paris) with a voucher
//     prototype and a giftcard prototype;
//   - other: a partner without a site domain (reached by its token) with a
//     voucher prototype;
//   - market: a marketplace at market.example.com with a box;
//   - spa and inn: partners where the market's gifts are used;
//   - a staff user without a partner.
type giftsFixture struct {
	*Server
	db                                 *bun.DB
	gifts                              *persistence.GiftStore
	partners                           domain.PartnerStore
	shop, other, market, spa, inn      *domain.Partner
	shopTok, otherTok, marketTok       string
	staffTok                           string
	shopVP, otherVP, shopGP, marketBox int64
}

func newGiftsFixture(t *testing.T) *giftsFixture {
	t.Helper()
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	f := &giftsFixture{
		shopTok: CreateUser(t, dsn, "--username", "shop", "--password", "shop-password",
			"--partner-name", "Shop", "--partner-domain", "shop.example.com"),
		otherTok: CreateUser(t, dsn, "--username", "other", "--password", "other-password", "--partner-name", "Other"),
		marketTok: CreateUser(t, dsn, "--username", "market", "--password", "market-password",
			"--partner-name", "Market", "--partner-domain", "market.example.com", "--marketplace"),
		staffTok: CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff"),
	}
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db, f.gifts = db, persistence.NewGiftStore(db)
	f.partners = persistence.NewDatabase(db).Stores().Partners
	f.shop, f.other, f.market = f.mustPartnerOf(t, "shop"), f.mustPartnerOf(t, "other"), f.mustPartnerOf(t, "market")
	f.spa = &domain.Partner{Name: "Spa", Status: domain.PartnerStatusActive}
	f.inn = &domain.Partner{Name: "Inn", Status: domain.PartnerStatusActive}
	f.must(t, f.partners.CreatePartner(ctx, f.spa))
	f.must(t, f.partners.CreatePartner(ctx, f.inn))
	f.shopVP = f.mustID(t, "INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id", f.shop.ID)
	f.otherVP = f.mustID(t, "INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id", f.other.ID)
	f.shopGP = f.mustID(t, "INSERT INTO giftcard_prototypes (partner_id) VALUES (?) RETURNING id", f.shop.ID)
	f.marketBox = f.mustID(t, "INSERT INTO network_voucher_boxes (marketplace_id) VALUES (?) RETURNING id", f.market.ID)
	f.Server = Serve(t, dsn)
	return f
}

func (f *giftsFixture) mustPartnerOf(t *testing.T, username string) *domain.Partner {
	t.Helper()
	id := f.mustID(t, "SELECT partner_id FROM users WHERE username = ?", username)
	p, err := f.partners.FindPartnerByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *giftsFixture) mustID(t *testing.T, query string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(query, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return id
}

func (f *giftsFixture) must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func giftsDec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func giftsTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func giftsTimePtr(s string) *time.Time { t := giftsTime(s); return &t }

// giftsJSON is the JSON of a value, for splicing into expected bodies.
func giftsJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// giftsPartner is a partner as the gift payloads show it.
func giftsPartner(p *domain.Partner) string {
	return fmt.Sprintf(`{"id": %d, "uuid": %q, "name": %q, "is_marketplace": %v}`, p.ID, p.UUID, p.Name, p.IsMarketplace)
}

var giftsParis = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		panic(err)
	}
	return loc
}()

func TestGiftRetrieve(t *testing.T) {
	t.Parallel()
	f := newGiftsFixture(t)
	ctx := context.Background()
	expires := giftsTime("2099-12-31T22:00:00Z")
	f.must(t, f.gifts.CreateVoucher(ctx, &gifts.Voucher{Code: "VOUCHER-1", VoucherPrototypeID: f.shopVP,
		State: "paid", TotalPrice: giftsDec("150"), CreationDate: giftsTime("2026-01-15T10:00:00Z"), ExpirationDate: &expires,
		GifterFirstName: "Ada", GifteeFirstName: "Grace"}))
	f.must(t, f.gifts.CreateGiftcard(ctx, &gifts.Giftcard{Code: "GIFTCARD-1", GiftcardPrototypeID: f.shopGP,
		Status: "using", Value: giftsDec("100"), RemainingValue: giftsDec("35.5"), CreatedOn: giftsTime("2026-07-01T08:30:00Z")}))
	f.must(t, f.gifts.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: "NGC-1", MarketplaceID: f.market.ID,
		Status: "paid", Value: giftsDec("80"), RemainingValue: giftsDec("80"), CreationDate: giftsTime("2026-02-01T00:00:00Z"),
		ActivationDate: giftsTimePtr("2099-01-01T00:00:00Z"), ExpirationDate: &expires}))
	f.must(t, f.gifts.CreateNetworkVoucher(ctx, &gifts.NetworkVoucher{Code: "NV-1", BoxID: f.marketBox,
		Status: "using", MaxUsages: 3, UsageCount: 1, CreationDate: giftsTime("2026-03-01T12:00:00Z")}))
	f.must(t, f.gifts.CreateVoucher(ctx, &gifts.Voucher{Code: "VOUCHER-OTHER", VoucherPrototypeID: f.otherVP}))

	url := func(code string) string { return f.URL + "/api/v2/gift/" + code + "/" }
	shopSite := []string{"X-Partner-Domain", "shop.example.com"}
	marketSite := []string{"X-Partner-Domain", "market.example.com"}
	expiresFmt := giftsJSON(l10n.Date(expires, giftsParis))
	voucherBody := `{"id": ` + fmt.Sprint(f.mustID(t, "SELECT id FROM vouchers WHERE code = 'VOUCHER-1'")) + `,
		"code": "VOUCHER-1", "type": "voucher", "state": "paid",
		"value": "150.00", "value_formatted": ` + giftsJSON(l10n.Money(giftsDec("150"), "EUR")) + `,
		"remaining_value": null, "remaining_value_formatted": null, "max_usages": null, "usage_count": null,
		"currency_code": "EUR", "creation_date": "2026-01-15T11:00:00+01:00", "activation_date": null,
		"expiration_date": "2099-12-31T23:00:00+01:00", "expiration_date_formatted": ` + expiresFmt + `,
		"usable": true, "product": {"id": ` + fmt.Sprint(f.shopVP) + `, "type": "voucher_prototype"},
		"partner": ` + giftsPartner(f.shop) + `}`

	t.Run("OKVoucherBySiteDomain", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("VOUCHER-1"), "", shopSite...), 200, voucherBody)
	})

	t.Run("OKWithoutTrailingSlash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", strings.TrimSuffix(url("VOUCHER-1"), "/"), "", shopSite...), 200, voucherBody)
	})

	t.Run("OKHead", func(t *testing.T) {
		res := Do(t, "HEAD", url("VOUCHER-1"), "", shopSite...)
		if res.Status != 200 || res.Body != "" {
			t.Errorf("HEAD = %d %q", res.Status, res.Body)
		}
	})

	t.Run("OKGiftcardByAuthenticatedPartner", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("GIFTCARD-1"), "", auth(f.shopTok)...), 200, `{
			"id": `+fmt.Sprint(f.mustID(t, "SELECT id FROM giftcards WHERE code = 'GIFTCARD-1'"))+`,
			"code": "GIFTCARD-1", "type": "giftcard", "state": "using",
			"value": "100.00", "value_formatted": `+giftsJSON(l10n.Money(giftsDec("100"), "EUR"))+`,
			"remaining_value": "35.50", "remaining_value_formatted": `+giftsJSON(l10n.Money(giftsDec("35.5"), "EUR"))+`,
			"max_usages": null, "usage_count": null, "currency_code": "EUR",
			"creation_date": "2026-07-01T10:30:00+02:00", "activation_date": null,
			"expiration_date": null, "expiration_date_formatted": null, "usable": true,
			"product": {"id": `+fmt.Sprint(f.shopGP)+`, "type": "giftcard_prototype"},
			"partner": `+giftsPartner(f.shop)+`}`)
	})

	t.Run("OKNetworkGiftcardByMarketplace", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("NGC-1"), "", marketSite...), 200, `{
			"id": `+fmt.Sprint(f.mustID(t, "SELECT id FROM network_giftcards WHERE code = 'NGC-1'"))+`,
			"code": "NGC-1", "type": "network_giftcard", "state": "paid",
			"value": "80.00", "value_formatted": `+giftsJSON(l10n.Money(giftsDec("80"), "EUR"))+`,
			"remaining_value": "80.00", "remaining_value_formatted": `+giftsJSON(l10n.Money(giftsDec("80"), "EUR"))+`,
			"max_usages": null, "usage_count": null, "currency_code": "EUR",
			"creation_date": "2026-02-01T01:00:00+01:00", "activation_date": "2099-01-01T01:00:00+01:00",
			"expiration_date": "2099-12-31T23:00:00+01:00", "expiration_date_formatted": `+expiresFmt+`,
			"usable": false, "product": null, "partner": `+giftsPartner(f.market)+`}`)
	})

	t.Run("OKNetworkVoucherByMarketplaceToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("NV-1"), "", auth(f.marketTok)...), 200, `{
			"id": `+fmt.Sprint(f.mustID(t, "SELECT id FROM network_vouchers WHERE code = 'NV-1'"))+`,
			"code": "NV-1", "type": "network_voucher", "state": "using",
			"value": null, "value_formatted": null, "remaining_value": null, "remaining_value_formatted": null,
			"max_usages": 3, "usage_count": 1, "currency_code": "EUR",
			"creation_date": "2026-03-01T13:00:00+01:00", "activation_date": null,
			"expiration_date": null, "expiration_date_formatted": null, "usable": true,
			"product": {"id": `+fmt.Sprint(f.marketBox)+`, "type": "network_voucher_box"},
			"partner": `+giftsPartner(f.market)+`}`)
	})

	t.Run("OKDomainWinsOverToken", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", url("VOUCHER-1"), "", append(auth(f.otherTok), shopSite...)...), 200, voucherBody)
	})

	notFound := `{"detail": "Not found."}`
	cases := map[string]struct {
		code    string
		headers []string
		status  int
		body    string
	}{
		"ErrOtherPartnersGift":         {"VOUCHER-OTHER", shopSite, 404, notFound},
		"ErrOtherPartnerAsksForOurs":   {"VOUCHER-1", auth(f.otherTok), 404, notFound},
		"ErrPartnerAsksForNetworkGift": {"NGC-1", shopSite, 404, notFound},
		"ErrMarketplaceAsksForVoucher": {"VOUCHER-1", marketSite, 404, notFound},
		"ErrUnknownCode":               {"NOPE", shopSite, 404, notFound},
		"ErrMalformedCode":             {"a%20b", shopSite, 404, notFound},
		"ErrCodeIsCaseSensitive":       {"voucher-1", shopSite, 404, notFound},
		"ErrUnknownDomain":             {"VOUCHER-1", []string{"X-Partner-Domain", "nowhere.example.com"}, 404, notFound},
		"ErrNoPartner":                 {"VOUCHER-1", nil, 400, giftsJSON(map[string]string{"detail": domain.MsgPartnerRequired})},
		"ErrStaffWithoutPartner":       {"VOUCHER-1", auth(f.staffTok), 400, giftsJSON(map[string]string{"detail": domain.MsgPartnerRequired})},
		"ErrBadToken":                  {"VOUCHER-1", auth("0123456789abcdef0123456789abcdef01234567"), 401, `{"detail": "Invalid token."}`},
		"ErrBadTokenWithDomain":        {"VOUCHER-1", append(auth("0123456789abcdef0123456789abcdef01234567"), shopSite...), 401, `{"detail": "Invalid token."}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			WantResponse(t, Do(t, "GET", url(tc.code), "", tc.headers...), tc.status, tc.body)
		})
	}

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		res := Do(t, "POST", url("VOUCHER-1"), `{}`, shopSite...)
		WantResponse(t, res, 405, `{"detail": "Method \"POST\" not allowed."}`)
		if res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("Allow = %q", res.Header.Get("Allow"))
		}
	})
}

func TestGiftLinkedPartners(t *testing.T) {
	t.Parallel()
	f := newGiftsFixture(t)
	ctx := context.Background()
	f.must(t, f.gifts.CreateVoucher(ctx, &gifts.Voucher{Code: "V1", VoucherPrototypeID: f.shopVP, State: "paid"}))
	f.must(t, f.gifts.CreateGiftcard(ctx, &gifts.Giftcard{Code: "G1", GiftcardPrototypeID: f.shopGP,
		Value: giftsDec("10"), RemainingValue: giftsDec("10")}))
	f.must(t, f.gifts.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: "NGC1", MarketplaceID: f.market.ID,
		Value: giftsDec("10"), RemainingValue: giftsDec("10")}))
	f.must(t, f.gifts.CreateNetworkVoucher(ctx, &gifts.NetworkVoucher{Code: "NV1", BoxID: f.marketBox}))
	emptyBox := f.mustID(t, "INSERT INTO network_voucher_boxes (marketplace_id) VALUES (?) RETURNING id", f.market.ID)
	f.must(t, f.gifts.CreateNetworkVoucher(ctx, &gifts.NetworkVoucher{Code: "NV-EMPTY", BoxID: emptyBox}))
	// The network giftcard settings allow inn and spa (inn first, spa twice).
	for _, p := range []*domain.Partner{f.inn, f.spa, f.spa} {
		f.must(t, f.gifts.AddNetworkGiftcardAllowedPartner(ctx, f.market.ID, p.ID))
	}
	// The box has validated offers of inn (twice) and spa, a draft offer of
	// other; the empty box only a draft offer of spa.
	for _, o := range []struct {
		box     int64
		partner *domain.Partner
		status  string
	}{{f.marketBox, f.inn, "VALIDATED"}, {f.marketBox, f.other, "DRAFT"}, {f.marketBox, f.spa, "VALIDATED"},
		{f.marketBox, f.inn, "VALIDATED"}, {emptyBox, f.spa, "DRAFT"}} {
		f.mustID(t, "INSERT INTO box_offers (box_id, partner_id, status) VALUES (?, ?, ?) RETURNING id", o.box, o.partner.ID, o.status)
	}

	url := func(code string) string { return f.URL + "/api/v2/gift/" + code + "/linked_partners/" }
	shopSite := []string{"X-Partner-Domain", "shop.example.com"}
	marketSite := []string{"X-Partner-Domain", "market.example.com"}
	spaInn := giftsPartner(f.spa) + ", " + giftsPartner(f.inn) // spa was created first

	cases := map[string]struct {
		code    string
		headers []string
		status  int
		body    string
	}{
		"OKVoucherSellingPartner":          {"V1", shopSite, 200, `{"code": "V1", "type": "voucher", "partners": [` + giftsPartner(f.shop) + `]}`},
		"OKGiftcardSellingPartner":         {"G1", auth(f.shopTok), 200, `{"code": "G1", "type": "giftcard", "partners": [` + giftsPartner(f.shop) + `]}`},
		"OKNetworkGiftcardAllowedPartners": {"NGC1", marketSite, 200, `{"code": "NGC1", "type": "network_giftcard", "partners": [` + spaInn + `]}`},
		"OKNetworkVoucherValidatedOffers":  {"NV1", auth(f.marketTok), 200, `{"code": "NV1", "type": "network_voucher", "partners": [` + spaInn + `]}`},
		"OKNoValidatedOffer":               {"NV-EMPTY", marketSite, 200, `{"code": "NV-EMPTY", "type": "network_voucher", "partners": []}`},
		"ErrOtherPartnersGift":             {"V1", auth(f.otherTok), 404, `{"detail": "Not found."}`},
		"ErrPartnerAsksForNetworkGift":     {"NV1", shopSite, 404, `{"detail": "Not found."}`},
		"ErrUnknownCode":                   {"NOPE", marketSite, 404, `{"detail": "Not found."}`},
		"ErrUnknownDomain":                 {"V1", []string{"X-Partner-Domain", "nowhere.example.com"}, 404, `{"detail": "Not found."}`},
		"ErrNoPartner":                     {"V1", nil, 400, giftsJSON(map[string]string{"detail": domain.MsgPartnerRequired})},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			WantResponse(t, Do(t, "GET", url(tc.code), "", tc.headers...), tc.status, tc.body)
		})
	}

	t.Run("OKWithoutTrailingSlash", func(t *testing.T) {
		WantResponse(t, Do(t, "GET", strings.TrimSuffix(url("V1"), "/"), "", shopSite...), 200,
			`{"code": "V1", "type": "voucher", "partners": [`+giftsPartner(f.shop)+`]}`)
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		res := Do(t, "DELETE", url("V1"), "", shopSite...)
		WantResponse(t, res, 405, `{"detail": "Method \"DELETE\" not allowed."}`)
		if res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("Allow = %q", res.Header.Get("Allow"))
		}
	})
}

func TestContactRequestCreate(t *testing.T) {
	t.Parallel()
	f := newGiftsFixture(t)
	ctx := context.Background()
	voucher := &gifts.Voucher{Code: "V1", VoucherPrototypeID: f.shopVP, State: "paid"}
	f.must(t, f.gifts.CreateVoucher(ctx, voucher))
	f.must(t, f.gifts.CreateVoucher(ctx, &gifts.Voucher{Code: "V-OTHER", VoucherPrototypeID: f.otherVP}))
	ngc := &gifts.NetworkGiftcard{Code: "NGC1", MarketplaceID: f.market.ID, Status: "cncld", Value: giftsDec("10"), RemainingValue: giftsDec("10")}
	f.must(t, f.gifts.CreateNetworkGiftcard(ctx, ngc))
	url := f.URL + "/api/v2/contact_requests/"
	shop := f.shop.UUID.String()

	// wantCreated checks a 201 body field by field, the id aside, and that
	// the request was stored under that id.
	wantCreated := func(t *testing.T, res Response, want string) {
		t.Helper()
		id, _ := res.JSON(t)["id"].(float64)
		if id < 1 {
			t.Fatalf("id = %v in %s", res.JSON(t)["id"], res.Body)
		}
		WantResponse(t, res, 201, strings.Replace(want, `"id": ?`, fmt.Sprintf(`"id": %d`, int64(id)), 1))
		var n int
		if err := f.db.NewRaw("SELECT count(*) FROM contact_requests WHERE id = ?", int64(id)).Scan(ctx, &n); err != nil || n != 1 {
			t.Errorf("stored rows with id %v: %d (%v)", id, n, err)
		}
	}

	t.Run("OK", func(t *testing.T) {
		res := Do(t, "POST", url, `{"gift_code": "V1", "full_name": "  Ada Lovelace ", "email": "ada@example.com",
			"phone_number": "+33 6 12 34 56 78", "message": "Can I move my booking?", "partner": "`+shop+`", "ignored": 1}`)
		wantCreated(t, res, `{"id": ?, "gift_code": "V1", "full_name": "Ada Lovelace", "email": "ada@example.com",
			"phone_number": "+33 6 12 34 56 78", "message": "Can I move my booking?", "partner": "`+shop+`",
			"related_product_details": {"id": `+fmt.Sprint(voucher.ID)+`, "type": "voucher", "state": "paid"}}`)
	})

	t.Run("OKNetworkGiftToMarketplaceWithoutTokenOrSlash", func(t *testing.T) {
		res := Do(t, "POST", strings.TrimSuffix(url, "/"), `{"gift_code": "NGC1", "full_name": "Grace",
			"email": "grace@example.com", "phone_number": null, "message": "Refund?", "partner": "`+f.market.UUID.String()+`"}`)
		wantCreated(t, res, `{"id": ?, "gift_code": "NGC1", "full_name": "Grace", "email": "grace@example.com",
			"phone_number": null, "message": "Refund?", "partner": "`+f.market.UUID.String()+`",
			"related_product_details": {"id": `+fmt.Sprint(ngc.ID)+`, "type": "network_giftcard", "state": "cncld"}}`)
	})

	t.Run("OKForm", func(t *testing.T) {
		// A field given twice is read at its last value, as Django's
		// QueryDict reads a form.
		res := Do(t, "POST", url, "gift_code=V1&full_name=Bob&full_name=Ada&email=ada%40example.com&phone_number=&message=Hello&partner="+shop,
			"Content-Type", "application/x-www-form-urlencoded")
		wantCreated(t, res, `{"id": ?, "gift_code": "V1", "full_name": "Ada", "email": "ada@example.com",
			"phone_number": null, "message": "Hello", "partner": "`+shop+`",
			"related_product_details": {"id": `+fmt.Sprint(voucher.ID)+`, "type": "voucher", "state": "paid"}}`)
	})

	t.Run("OKHeadersPlayNoPart", func(t *testing.T) {
		res := Do(t, "POST", url, `{"gift_code": "V1", "full_name": "Ada", "email": "ada@example.com",
			"message": "Hello", "partner": "`+shop+`"}`,
			append([]string{"X-Partner-Domain", "nowhere.example.com"}, auth(f.staffTok)...)...)
		wantCreated(t, res, `{"id": ?, "gift_code": "V1", "full_name": "Ada", "email": "ada@example.com",
			"phone_number": null, "message": "Hello", "partner": "`+shop+`",
			"related_product_details": {"id": `+fmt.Sprint(voucher.ID)+`, "type": "voucher", "state": "paid"}}`)
	})

	cases := map[string]struct {
		body string
		want string
	}{
		"ErrEmptyBody": {``, `{"gift_code": ["This field is required."], "full_name": ["This field is required."],
			"email": ["This field is required."], "message": ["This field is required."], "partner": ["This field is required."]}`},
		"ErrInvalidFields": {`{"gift_code": "", "full_name": null, "email": "ada@", "phone_number": "phone",
			"message": "` + strings.Repeat("m", 5001) + `", "partner": "not-a-uuid"}`,
			`{"gift_code": ["This field may not be blank."], "full_name": ["This field may not be null."],
			"email": ["Enter a valid email address."], "phone_number": ["Enter a valid phone number."],
			"message": ["Ensure this field has no more than 5000 characters."], "partner": ["Must be a valid UUID."]}`},
		"ErrGiftOfAnotherPartner": {`{"gift_code": "V-OTHER", "full_name": "Ada", "email": "ada@example.com",
			"message": "m", "partner": "` + shop + `"}`, `{"gift_code": ["Gift code not found."]}`},
		"ErrUnknownGiftCode": {`{"gift_code": "NOPE", "full_name": "Ada", "email": "ada@example.com",
			"message": "m", "partner": "` + shop + `"}`, `{"gift_code": ["Gift code not found."]}`},
		"ErrNetworkGiftToPartner": {`{"gift_code": "NGC1", "full_name": "Ada", "email": "ada@example.com",
			"message": "m", "partner": "` + shop + `"}`, `{"gift_code": ["Gift code not found."]}`},
		"ErrUnknownPartner": {`{"gift_code": "V1", "full_name": "Ada", "email": "ada@example.com",
			"message": "m", "partner": "00000000-0000-0000-0000-000000000000"}`, `{"partner": ["Partner not found."]}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			WantResponse(t, Do(t, "POST", url, tc.body, "Content-Type", "application/json"), 400, tc.want)
		})
	}

	t.Run("ErrBadToken", func(t *testing.T) {
		res := Do(t, "POST", url, `{"gift_code": "V1", "full_name": "Ada", "email": "ada@example.com",
			"message": "Hello", "partner": "`+shop+`"}`, auth("0123456789abcdef0123456789abcdef01234567")...)
		WantResponse(t, res, 401, `{"detail": "Invalid token."}`)
	})

	t.Run("ErrMalformedJSON", func(t *testing.T) {
		res := Do(t, "POST", url, `{"gift_code": `)
		if res.Status != 400 || !strings.HasPrefix(res.JSON(t)["detail"].(string), "JSON parse error - ") {
			t.Errorf("got %d %s", res.Status, res.Body)
		}
	})

	t.Run("ErrMethodNotAllowed", func(t *testing.T) {
		for _, m := range []string{"GET", "PUT", "DELETE"} {
			res := Do(t, m, url, "")
			WantResponse(t, res, 405, `{"detail": "Method \"`+m+`\" not allowed."}`)
			if res.Header.Get("Allow") != "POST" {
				t.Errorf("Allow = %q", res.Header.Get("Allow"))
			}
		}
	})

	t.Run("OKNothingStoredOnError", func(t *testing.T) {
		var n int
		if err := f.db.NewRaw("SELECT count(*) FROM contact_requests").Scan(ctx, &n); err != nil || n != 4 {
			t.Errorf("%d contact requests stored, want the 4 created above (%v)", n, err)
		}
	})
}
