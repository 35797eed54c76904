package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/gifts"
	"salesplatform/domain/l10n"
	"salesplatform/domain/widgets"
	"salesplatform/persistence"
)

// The gifts, contact requests and marketing widgets fields of the graph
// (graph/schema/catalogue_gifts.graphqls), on the GraphQL catalogue
// fixture: shop sells vouchers, market (CHF) network vouchers.

const ggGiftFields = `id legacyId code type state
	value { amount currency formatted { ` + gcAllLanguages + ` } }
	remainingValue { amount currency formatted { ` + gcAllLanguages + ` } }
	maxUsages usageCount currencyCode creationDate activationDate expirationDate
	expirationDateFormatted { ` + gcAllLanguages + ` }
	usable product { id legacyId type } partner { id legacyId partnerId uuid name isMarketplace }`

const ggGiftQuery = `query($code: String!) { gift(code: $code) { ` + ggGiftFields + ` } }`

const ggLinkedQuery = `query($code: String!) { giftLinkedPartners(code: $code) {
	code type partners { id legacyId partnerId uuid name isMarketplace } } }`

const ggWidgetsQuery = `query($key: String!) { marketingWidgets(key: $key) { key purchaseUrl
	navbar { showNavbar showNavbarOnPurchaseSite navbarOrientation navbarSide navbarPosition
		activateOffer activateBook activateContact offerBackgroundColor offerTextColor offerHoverColor
		bookBackgroundColor bookTextColor bookHoverColor contactBackgroundColor contactTextColor contactHoverColor
		navbarOfferBoxUrl navbarBookBoxUrl navbarContactBoxUrl offerText bookText contactText }
	floattingBar { showFloattingBar showFloattingBarOnPurchaseSite floattingBarOrientation
		floattingBarBackgroundColor floattingBarBorderColor floattingBarText floattingBarTextColor
		floattingBarCtaButtonText floattingBarCtaButtonLink floattingBarCtaButtonColor
		floattingBarCtaButtonHoverColor floattingBarCtaButtonTextColor floattingBarCtaButtonTextHoverColor } } }`

const ggContactMutation = `mutation($input: ContactRequestInput!) { createContactRequest(input: $input) {
	contactRequest { id legacyId giftCode fullName email phoneNumber message partner relatedProductDetails { id legacyId type state } }
	userErrors { field code message } errors { field code message } } }`

// ggGiftsFixture adds to the catalogue fixture a voucher of shop (V1), a
// voucher of other (V-OTHER) and a network voucher of market (NV1) in a box
// with validated offers of shop and spa.
type ggGiftsFixture struct {
	*gcFixture
	spa             *domain.Partner
	shopVP, otherVP int64
	nvBox           *catalogue.Box
	voucher, nv     int64
	expires         time.Time
	shopLoc, mktLoc *time.Location
}

func newGGGiftsFixture(t *testing.T) *ggGiftsFixture {
	t.Helper()
	ctx := context.Background()
	f := &ggGiftsFixture{gcFixture: newGCFixture(t), expires: giftsTime("2099-12-31T22:00:00Z")}
	giftStore := persistence.NewGiftStore(f.db)
	f.spa = f.networkPartner(t, "Spa")
	f.nvBox = f.box(t, "Spa day", "90", 1, f.shop, f.spa)
	f.shopVP = f.id(t, "INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id", f.shop.ID)
	f.otherVP = f.id(t, "INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id", f.other.ID)
	v := &gifts.Voucher{Code: "V1", VoucherPrototypeID: f.shopVP, State: "paid", TotalPrice: giftsDec("150"),
		CreationDate: giftsTime("2026-01-15T10:00:00Z"), ExpirationDate: &f.expires}
	gcMust(t, giftStore.CreateVoucher(ctx, v))
	gcMust(t, giftStore.CreateVoucher(ctx, &gifts.Voucher{Code: "V-OTHER", VoucherPrototypeID: f.otherVP}))
	nv := &gifts.NetworkVoucher{Code: "NV1", BoxID: f.nvBox.ID, Status: "using", MaxUsages: 3, UsageCount: 1,
		CreationDate: giftsTime("2026-03-01T12:00:00Z")}
	gcMust(t, giftStore.CreateNetworkVoucher(ctx, nv))
	f.voucher, f.nv = v.ID, nv.ID
	f.shopLoc, f.mktLoc = ggLocation(f.shop), ggLocation(f.market)
	return f
}

func (f *ggGiftsFixture) id(t *testing.T, query string, args ...any) int64 {
	t.Helper()
	var id int64
	gcMust(t, f.db.NewRaw(query, args...).Scan(context.Background(), &id))
	return id
}

// ggLocation is the zone a partner's gift dates are shown in (UTC when it
// has none).
func ggLocation(p *domain.Partner) *time.Location {
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil || p.TimeZone == "" {
		return time.UTC
	}
	return loc
}

// ggLocalizedJSON is the JSON of a Localized with the texts of l.
func ggLocalizedJSON(l l10n.Localized) string {
	var pairs []string
	for lang, text := range l {
		pairs = append(pairs, lang, text)
	}
	return gcLocalized(pairs...)
}

// ggPartner is a partner as the gift types show it.
func ggPartner(p *domain.Partner) string {
	return fmt.Sprintf(`{"id": %q, "legacyId": "%d", "partnerId": %q, "uuid": %q, "name": %q, "isMarketplace": %v}`,
		globalID("GiftPartner", p.ID), p.ID, globalID("Partner", p.UUID), p.UUID, p.Name, p.IsMarketplace)
}

func ggTime(t time.Time, loc *time.Location) string { return t.In(loc).Format(time.RFC3339) }

// ggNotFound checks a null field with NOT_FOUND at path.
func ggNotFound(t *testing.T, data []byte, errs []gqlError, field string) {
	t.Helper()
	gcErrorCode(t, errs, "NOT_FOUND", "Not found.", "["+field+"]")
	WantJSON(t, data, `{"`+field+`": null}`)
}

func TestGraphGift(t *testing.T) {
	t.Parallel()
	f := newGGGiftsFixture(t)

	t.Run("OKVoucher", func(t *testing.T) {
		data := f.mustAsk(t, "shop.example.com", "", ggGiftQuery, map[string]any{"code": "V1"})
		WantJSON(t, data, `{"gift": {"id": "`+globalID("Gift", "voucher:"+fmt.Sprint(f.voucher))+`", "legacyId": "`+fmt.Sprint(f.voucher)+`", "code": "V1", "type": "VOUCHER", "state": "paid",
			"value": `+gcMoneyJSON("150.00", "EUR")+`, "remainingValue": null, "maxUsages": null, "usageCount": null,
			"currencyCode": "EUR", "creationDate": "`+ggTime(giftsTime("2026-01-15T10:00:00Z"), f.shopLoc)+`",
			"activationDate": null, "expirationDate": "`+ggTime(f.expires, f.shopLoc)+`",
			"expirationDateFormatted": `+ggLocalizedJSON(l10n.Date(f.expires, f.shopLoc))+`,
			"usable": true, "product": {"id": "`+globalID("GiftProduct", "voucher_prototype:"+fmt.Sprint(f.shopVP))+`", "legacyId": "`+fmt.Sprint(f.shopVP)+`", "type": "voucher_prototype"},
			"partner": `+ggPartner(f.shop)+`}}`)
	})

	t.Run("OKVoucherByToken", func(t *testing.T) {
		data := f.mustAsk(t, "", f.shopTok, `query { gift(code: "V1") { code partner { name } } }`, nil)
		WantJSON(t, data, `{"gift": {"code": "V1", "partner": {"name": "Shop"}}}`)
	})

	t.Run("OKNetworkVoucher", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", ggGiftQuery, map[string]any{"code": "NV1"})
		WantJSON(t, data, `{"gift": {"id": "`+globalID("Gift", "network_voucher:"+fmt.Sprint(f.nv))+`", "legacyId": "`+fmt.Sprint(f.nv)+`", "code": "NV1", "type": "NETWORK_VOUCHER", "state": "using",
			"value": null, "remainingValue": null, "maxUsages": 3, "usageCount": 1,
			"currencyCode": "CHF", "creationDate": "`+ggTime(giftsTime("2026-03-01T12:00:00Z"), f.mktLoc)+`",
			"activationDate": null, "expirationDate": null, "expirationDateFormatted": null,
			"usable": true, "product": {"id": "`+globalID("GiftProduct", "network_voucher_box:"+fmt.Sprint(f.nvBox.ID))+`", "legacyId": "`+fmt.Sprint(f.nvBox.ID)+`", "type": "network_voucher_box"},
			"partner": `+ggPartner(f.market)+`}}`)
	})

	for name, tc := range map[string]struct{ site, token, code string }{
		"ErrUnknownCode":               {"shop.example.com", "", "NOPE"},
		"ErrMalformedCode":             {"shop.example.com", "", "a b"},
		"ErrCodeIsCaseSensitive":       {"shop.example.com", "", "v1"},
		"ErrOtherPartnersGift":         {"shop.example.com", "", "V-OTHER"},
		"ErrOtherPartnerAsksForOurs":   {"", f.otherTok, "V1"},
		"ErrPartnerAsksForNetworkGift": {"shop.example.com", "", "NV1"},
		"ErrMarketplaceAsksForVoucher": {gcMarket, "", "V1"},
	} {
		t.Run(name, func(t *testing.T) {
			data, errs := f.ask(t, tc.site, tc.token, ggGiftQuery, map[string]any{"code": tc.code})
			ggNotFound(t, data, errs, "gift")
		})
	}

	t.Run("ErrNoPartner", func(t *testing.T) {
		_, errs := f.ask(t, "", "", ggGiftQuery, map[string]any{"code": "V1"})
		gcErrorCode(t, errs, "BAD_USER_INPUT", domain.MsgPartnerRequired, "[gift]")
	})
}

func TestGraphGiftLinkedPartners(t *testing.T) {
	t.Parallel()
	f := newGGGiftsFixture(t)

	t.Run("OKVoucherSellingPartner", func(t *testing.T) {
		data := f.mustAsk(t, "shop.example.com", "", ggLinkedQuery, map[string]any{"code": "V1"})
		WantJSON(t, data, `{"giftLinkedPartners": {"code": "V1", "type": "VOUCHER", "partners": [`+ggPartner(f.shop)+`]}}`)
	})

	t.Run("OKNetworkVoucherValidatedOffers", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", ggLinkedQuery, map[string]any{"code": "NV1"})
		WantJSON(t, data, `{"giftLinkedPartners": {"code": "NV1", "type": "NETWORK_VOUCHER",
			"partners": [`+ggPartner(f.shop)+`, `+ggPartner(f.spa)+`]}}`)
	})

	for name, tc := range map[string]struct{ site, token, code string }{
		"ErrUnknownCode":               {gcMarket, "", "NOPE"},
		"ErrOtherPartnersGift":         {"", f.otherTok, "V1"},
		"ErrPartnerAsksForNetworkGift": {"shop.example.com", "", "NV1"},
	} {
		t.Run(name, func(t *testing.T) {
			data, errs := f.ask(t, tc.site, tc.token, ggLinkedQuery, map[string]any{"code": tc.code})
			ggNotFound(t, data, errs, "giftLinkedPartners")
		})
	}
}

func TestGraphMarketingWidgets(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	ctx := context.Background()
	widgetService := widgets.NewWidgetService(persistence.NewUnitOfWork(f.db, persistence.WidgetStores))
	full := &widgets.MarketingWidgets{PartnerID: f.shop.ID, Key: "0123456789abcdef0123456789ABCDEF",
		Navbar: &widgets.WidgetNavbar{ShowNavbar: true, Orientation: "vertical", Side: "right", Position: 40,
			ActivateOffer: true, ActivateContact: true,
			OfferBackgroundColor: "#112233", OfferTextColor: "#FFFFFF", OfferHoverColor: "#223344",
			BookBackgroundColor: "#000001", BookTextColor: "#000002", BookHoverColor: "#000003",
			ContactBackgroundColor: "#aa0000", ContactTextColor: "#bb0000", ContactHoverColor: "#cc0000",
			OfferBoxURL: "https://shop.example.com/offer", ContactBoxURL: "https://shop.example.com/contact",
			OfferText: "Offer a gift", ContactText: "Contact us"},
		FloatingBar: &widgets.WidgetFloatingBar{ShowFloatingBar: true, ShowFloatingBarOnPurchaseSite: true,
			Orientation: "bottom", BackgroundColor: "#FAFAFA", BorderColor: "#E0E0E0", Text: "Christmas gifts!",
			TextColor: "#111111", CTAButtonText: "Shop now", CTAButtonLink: "https://shop.example.com/",
			CTAButtonColor: "#FF0000", CTAButtonHoverColor: "#CC0000", CTAButtonTextColor: "#FFFFFF",
			CTAButtonTextHoverColor: "#EEEEEE"},
	}
	gcMust(t, widgetService.CreateWidgets(ctx, full))
	empty := &widgets.MarketingWidgets{PartnerID: f.other.ID}
	gcMust(t, widgetService.CreateWidgets(ctx, empty))

	fullData := `{"marketingWidgets": {"key": "0123456789abcdef0123456789abcdef", "purchaseUrl": "https://shop.example.com/",
		"navbar": {"showNavbar": true, "showNavbarOnPurchaseSite": false, "navbarOrientation": "vertical",
			"navbarSide": "right", "navbarPosition": 40, "activateOffer": true, "activateBook": false,
			"activateContact": true, "offerBackgroundColor": "#112233", "offerTextColor": "#FFFFFF",
			"offerHoverColor": "#223344", "bookBackgroundColor": "#000001", "bookTextColor": "#000002",
			"bookHoverColor": "#000003", "contactBackgroundColor": "#aa0000", "contactTextColor": "#bb0000",
			"contactHoverColor": "#cc0000", "navbarOfferBoxUrl": "https://shop.example.com/offer",
			"navbarBookBoxUrl": "", "navbarContactBoxUrl": "https://shop.example.com/contact",
			"offerText": "Offer a gift", "bookText": "", "contactText": "Contact us"},
		"floattingBar": {"showFloattingBar": true, "showFloattingBarOnPurchaseSite": true,
			"floattingBarOrientation": "bottom", "floattingBarBackgroundColor": "#FAFAFA",
			"floattingBarBorderColor": "#E0E0E0", "floattingBarText": "Christmas gifts!",
			"floattingBarTextColor": "#111111", "floattingBarCtaButtonText": "Shop now",
			"floattingBarCtaButtonLink": "https://shop.example.com/", "floattingBarCtaButtonColor": "#FF0000",
			"floattingBarCtaButtonHoverColor": "#CC0000", "floattingBarCtaButtonTextColor": "#FFFFFF",
			"floattingBarCtaButtonTextHoverColor": "#EEEEEE"}}}`

	t.Run("OKWithoutPartnerOrToken", func(t *testing.T) {
		data := f.mustAsk(t, "", "", ggWidgetsQuery, map[string]any{"key": "0123456789abcdef0123456789abcdef"})
		WantJSON(t, data, fullData)
	})

	t.Run("OKKeyInAnyCaseAndOtherSite", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, f.otherTok, ggWidgetsQuery, map[string]any{"key": "0123456789ABCDEF0123456789abcdef"})
		WantJSON(t, data, fullData)
	})

	t.Run("OKNotConfiguredWithoutSiteDomain", func(t *testing.T) {
		data := f.mustAsk(t, "", "", ggWidgetsQuery, map[string]any{"key": empty.Key})
		WantJSON(t, data, `{"marketingWidgets": {"key": "`+empty.Key+`", "purchaseUrl": "", "navbar": null, "floattingBar": null}}`)
	})

	for name, key := range map[string]string{
		"ErrUnknownKey":   "ffffffffffffffffffffffffffffffff",
		"ErrMalformedKey": "not-a-key",
		"ErrTooLongKey":   "0123456789abcdef0123456789abcdef0",
		"ErrEmptyKey":     "",
	} {
		t.Run(name, func(t *testing.T) {
			data, errs := f.ask(t, "shop.example.com", "", ggWidgetsQuery, map[string]any{"key": key})
			ggNotFound(t, data, errs, "marketingWidgets")
		})
	}
}

func TestGraphCreateContactRequest(t *testing.T) {
	t.Parallel()
	f := newGGGiftsFixture(t)
	ctx := context.Background()
	shop := f.shop.UUID.String()
	count := func(t *testing.T) int {
		t.Helper()
		n, err := f.db.NewSelect().Table("contact_requests").Count(ctx)
		gcMust(t, err)
		return n
	}
	// create runs the mutation without a token or a partner header.
	create := func(t *testing.T, input map[string]any) map[string]any {
		t.Helper()
		data, errs := f.ask(t, "", "", ggContactMutation, map[string]any{"input": input})
		if errs != nil {
			t.Fatalf("errors: %+v", errs)
		}
		var out struct {
			CreateContactRequest map[string]any `json:"createContactRequest"`
		}
		gcMust(t, json.Unmarshal(data, &out))
		return out.CreateContactRequest
	}
	// wantCreated checks the payload, the id aside, and that the request was
	// stored under that id.
	wantCreated := func(t *testing.T, payload map[string]any, want string) {
		t.Helper()
		cr, _ := payload["contactRequest"].(map[string]any)
		id, _ := cr["legacyId"].(string)
		if id == "" {
			t.Fatalf("payload = %v", payload)
		}
		WantJSON(t, []byte(gcJSON(payload)), strings.Replace(want, `"id": ?`,
			fmt.Sprintf(`"id": %q, "legacyId": %q`, globalID("ContactRequest", id), id), 1))
		var n int
		gcMust(t, f.db.NewRaw("SELECT count(*) FROM contact_requests WHERE id = ?", id).Scan(ctx, &n))
		if n != 1 {
			t.Errorf("stored rows with id %s: %d", id, n)
		}
	}

	t.Run("OKVoucher", func(t *testing.T) {
		payload := create(t, map[string]any{"giftCode": "V1", "fullName": "  Ada Lovelace ", "email": "ada@example.com",
			"phoneNumber": "+33 6 12 34 56 78", "message": "Can I move my booking?", "partner": shop})
		wantCreated(t, payload, `{"contactRequest": {"id": ?, "giftCode": "V1", "fullName": "Ada Lovelace",
			"email": "ada@example.com", "phoneNumber": "+33 6 12 34 56 78", "message": "Can I move my booking?",
			"partner": "`+shop+`", "relatedProductDetails": {"id": "`+globalID("RelatedProductDetails", "voucher:"+fmt.Sprint(f.voucher))+`", "legacyId": "`+fmt.Sprint(f.voucher)+`", "type": "VOUCHER", "state": "paid"}},
			"userErrors": [], "errors": []}`)
	})

	t.Run("OKNetworkVoucherToMarketplaceWithoutPhone", func(t *testing.T) {
		market := f.market.UUID.String()
		// partnerId, the Partner's global id (a gift's partner.partnerId), names it.
		payload := create(t, map[string]any{"giftCode": "NV1", "fullName": "Grace", "email": "grace@example.com",
			"phoneNumber": nil, "message": "Refund?", "partnerId": globalID("Partner", market)})
		wantCreated(t, payload, `{"contactRequest": {"id": ?, "giftCode": "NV1", "fullName": "Grace",
			"email": "grace@example.com", "phoneNumber": null, "message": "Refund?", "partner": "`+market+`",
			"relatedProductDetails": {"id": "`+globalID("RelatedProductDetails", "network_voucher:"+fmt.Sprint(f.nv))+`", "legacyId": "`+fmt.Sprint(f.nv)+`", "type": "NETWORK_VOUCHER", "state": "using"}},
			"userErrors": [], "errors": []}`)
	})

	cases := map[string]struct {
		input map[string]any
		want  string
	}{
		"ErrInvalidFields": {map[string]any{"giftCode": "", "fullName": " ", "email": "ada@", "phoneNumber": "phone",
			"message": strings.Repeat("m", 5001), "partner": "not-a-uuid"}, `[
			{"field": ["giftCode"], "code": "required", "message": "This field may not be blank."},
			{"field": ["fullName"], "code": "required", "message": "This field may not be blank."},
			{"field": ["email"], "code": "invalid", "message": "Enter a valid email address."},
			{"field": ["phoneNumber"], "code": "invalid", "message": "Enter a valid phone number."},
			{"field": ["message"], "code": "max_length", "message": "Ensure this field has no more than 5000 characters."},
			{"field": ["partner"], "code": "invalid", "message": "Must be a valid UUID."}]`},
		"ErrGiftOfAnotherPartner": {map[string]any{"giftCode": "V-OTHER", "fullName": "Ada", "email": "ada@example.com",
			"message": "m", "partner": shop}, `[{"field": ["giftCode"], "code": "does_not_exist", "message": "Gift code not found."}]`},
		"ErrUnknownGiftCode": {map[string]any{"giftCode": "NOPE", "fullName": "Ada", "email": "ada@example.com",
			"message": "m", "partner": shop}, `[{"field": ["giftCode"], "code": "does_not_exist", "message": "Gift code not found."}]`},
		"ErrNetworkGiftToPartner": {map[string]any{"giftCode": "NV1", "fullName": "Ada", "email": "ada@example.com",
			"message": "m", "partner": shop}, `[{"field": ["giftCode"], "code": "does_not_exist", "message": "Gift code not found."}]`},
		"ErrUnknownPartner": {map[string]any{"giftCode": "V1", "fullName": "Ada", "email": "ada@example.com",
			"message": "m", "partner": "00000000-0000-0000-0000-000000000000"},
			`[{"field": ["partner"], "code": "does_not_exist", "message": "Partner not found."}]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := count(t)
			payload := create(t, tc.input)
			wantUserErrors(t, payload, nil, tc.want)
			if payload["contactRequest"] != nil {
				t.Errorf("contactRequest = %v, want null", payload["contactRequest"])
			}
			if after := count(t); after != before {
				t.Errorf("contact requests: %d, then %d after a refused one", before, after)
			}
		})
	}

	t.Run("ErrMissingRequiredField", func(t *testing.T) {
		before := count(t)
		_, errs := f.ask(t, "", "", ggContactMutation, map[string]any{"input": map[string]any{"giftCode": "V1"}})
		if len(errs) == 0 || errs[0].Extensions["code"] != "GRAPHQL_VALIDATION_FAILED" && errs[0].Extensions["code"] != "BAD_USER_INPUT" {
			t.Errorf("errors = %+v", errs)
		}
		if after := count(t); after != before {
			t.Errorf("contact requests: %d, then %d", before, after)
		}
	})
}

// One request with 600 gift aliases of unknown codes looks up no more
// codes than the client's throttle allows: every alias takes its attempt
// before it runs, so the rest are refused without a lookup.
func TestGraphGiftAliasesAreThrottled(t *testing.T) {
	t.Parallel()
	f := newGGGiftsFixture(t)
	var q strings.Builder
	q.WriteString("query {")
	for i := range 600 {
		fmt.Fprintf(&q, ` a%d: gift(code: "UNKNOWN-%d") { code }`, i, i)
	}
	q.WriteString(" }")
	_, errs := f.ask(t, "shop.example.com", "", q.String(), nil)
	codes := map[any]int{}
	for _, e := range errs {
		codes[e.Extensions["code"]]++
	}
	if codes["NOT_FOUND"] != domain.DefaultGiftLookupBurst || codes["THROTTLED"] != 600-domain.DefaultGiftLookupBurst {
		t.Errorf("error codes %v, want %d NOT_FOUND and the rest THROTTLED", codes, domain.DefaultGiftLookupBurst)
	}
}
