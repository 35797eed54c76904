package gifts_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/domain/l10n"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// giftFixture has a shop and another partner (each with a site domain and a
// voucher prototype, a giftcard prototype), and a marketplace with a box.
type giftFixture struct {
	raw      *bun.DB
	store    *persistence.GiftStore
	partners domain.PartnerStore
	svc      *gifts.GiftService

	shop, other, market *domain.Partner
	shopVP, otherVP     int64 // voucher prototypes
	shopGP              int64 // giftcard prototype
	box                 int64 // the marketplace's box
}

func newGiftFixture(t *testing.T) *giftFixture {
	t.Helper()
	db, raw := dbtest.NewDatabase(t)
	f := &giftFixture{raw: raw, store: persistence.NewGiftStore(raw), partners: db.Stores().Partners}
	f.svc = gifts.NewGiftService(f.store, f.partners)
	// The cases share one client; TestGiftServiceThrottles tests the limits.
	f.svc.SetThrottles(domain.NewClientThrottle(1000, time.Second), domain.NewClientThrottle(1000, time.Second))
	f.shop = dbtest.MustPartner(t, f.partners, &domain.Partner{Name: "Shop", SiteDomain: "shop.example.com", TimeZone: "America/New_York", Currency: "USD"})
	f.other = dbtest.MustPartner(t, f.partners, &domain.Partner{Name: "Other", SiteDomain: "other.example.com"})
	f.market = dbtest.MustPartner(t, f.partners, &domain.Partner{Name: "Market", SiteDomain: "market.example.com", IsMarketplace: true})
	f.shopVP = giftMustID(t, raw, `INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id`, f.shop.ID)
	f.otherVP = giftMustID(t, raw, `INSERT INTO voucher_prototypes (partner_id) VALUES (?) RETURNING id`, f.other.ID)
	f.shopGP = giftMustID(t, raw, `INSERT INTO giftcard_prototypes (partner_id) VALUES (?) RETURNING id`, f.shop.ID)
	f.box = giftMustID(t, raw, `INSERT INTO network_voucher_boxes (marketplace_id) VALUES (?) RETURNING id`, f.market.ID)
	return f
}

func giftMustID(t *testing.T, raw *bun.DB, query string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := raw.NewRaw(query, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return id
}

func giftDec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func giftTime(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

func siteOf(p *domain.Partner) context.Context {
	return domain.WithPartnerDomain(context.Background(), p.SiteDomain)
}

func TestGiftService_Gift(t *testing.T) {
	t.Parallel()
	f := newGiftFixture(t)
	ctx := context.Background()
	voucher := &gifts.Voucher{Code: "VOUCHER-1", VoucherPrototypeID: f.shopVP, State: gifts.VoucherStatePaid,
		TotalPrice: giftDec("120.5"), ExpirationDate: giftTime("2099-01-31T23:00:00Z")}
	if err := f.store.CreateVoucher(ctx, voucher); err != nil {
		t.Fatal(err)
	}
	ngc := &gifts.NetworkGiftcard{Code: "NGC-1", MarketplaceID: f.market.ID, Status: gifts.GiftStatusUsing,
		Value: giftDec("100"), RemainingValue: giftDec("40")}
	if err := f.store.CreateNetworkGiftcard(ctx, ngc); err != nil {
		t.Fatal(err)
	}

	t.Run("OKVoucherInSellerCurrencyAndZone", func(t *testing.T) {
		g, err := f.svc.Gift(siteOf(f.shop), "VOUCHER-1")
		if err != nil {
			t.Fatal(err)
		}
		if g.Kind != gifts.GiftKindVoucher || g.ID != voucher.ID || g.State != "paid" || !g.Usable ||
			g.Seller.ID != f.shop.ID || g.Currency != "USD" || g.Location.String() != "America/New_York" {
			t.Errorf("gift = %+v", g)
		}
		if g.Value.StringFixed(2) != "120.50" || g.RemainingValue != nil || g.MaxUsages != nil {
			t.Errorf("value %v remaining %v usages %v", g.Value, g.RemainingValue, g.MaxUsages)
		}
		if got, want := g.ValueFormatted, domain.Localized(l10n.Money(giftDec("120.50"), "USD")); !sameLocalized(got, want) {
			t.Errorf("value_formatted = %v, want %v", got, want)
		}
		loc, _ := time.LoadLocation("America/New_York")
		if got, want := g.ExpiresAtFormatted, domain.Localized(l10n.Date(*voucher.ExpirationDate, loc)); !sameLocalized(got, want) {
			t.Errorf("expiration formatted = %v, want %v", got, want)
		}
		if *g.ProductID != f.shopVP || g.ProductType() != "voucher_prototype" {
			t.Errorf("product %d %s", *g.ProductID, g.ProductType())
		}
	})

	t.Run("OKAuthenticatedPartner", func(t *testing.T) {
		cctx := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{}, Partner: f.shop})
		if _, err := f.svc.Gift(cctx, "VOUCHER-1"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("OKMarketplaceSeesNetworkGift", func(t *testing.T) {
		g, err := f.svc.Gift(siteOf(f.market), "NGC-1")
		if err != nil {
			t.Fatal(err)
		}
		if g.Kind != gifts.GiftKindNetworkGiftcard || g.ProductID != nil || !g.Usable || g.RemainingValue.StringFixed(2) != "40.00" {
			t.Errorf("gift = %+v", g.Gift)
		}
	})

	t.Run("ErrOtherPartnersGift", func(t *testing.T) {
		_, err := f.svc.Gift(siteOf(f.other), "VOUCHER-1")
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, err = f.svc.Gift(siteOf(f.market), "VOUCHER-1")
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})

	t.Run("ErrPartnerAsksForNetworkGift", func(t *testing.T) {
		_, err := f.svc.Gift(siteOf(f.shop), "NGC-1")
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})

	t.Run("ErrUnknownOrMalformedCode", func(t *testing.T) {
		for _, code := range []string{"NOPE", "", "voucher-1", "VOUCHER 1", strings.Repeat("A", 65)} {
			_, err := f.svc.Gift(siteOf(f.shop), code)
			dbtest.WantCode(t, err, domain.CodeNotFound)
		}
	})

	t.Run("ErrNoPartner", func(t *testing.T) {
		_, err := f.svc.Gift(ctx, "VOUCHER-1")
		if e := dbtest.WantCode(t, err, domain.CodeInvalid); e.Message != domain.MsgPartnerRequired {
			t.Errorf("message = %q", e.Message)
		}
	})

	t.Run("ErrUnknownDomain", func(t *testing.T) {
		_, err := f.svc.Gift(domain.WithPartnerDomain(ctx, "nowhere.example.com"), "VOUCHER-1")
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})
}

func sameLocalized(a, b domain.Localized) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestGiftUsable(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	dec := func(s string) *decimal.Decimal { d := giftDec(s); return &d }
	n := func(i int) *int { return &i }
	cases := map[string]struct {
		gift gifts.Gift
		want bool
	}{
		"OKVoucherPaid":              {gifts.Gift{Kind: gifts.GiftKindVoucher, State: "paid"}, true},
		"OKVoucherPaidNotExpired":    {gifts.Gift{Kind: gifts.GiftKindVoucher, State: "paid", ExpiresAt: &future}, true},
		"ErrVoucherExpired":          {gifts.Gift{Kind: gifts.GiftKindVoucher, State: "paid", ExpiresAt: &past}, false},
		"ErrVoucherUsing":            {gifts.Gift{Kind: gifts.GiftKindVoucher, State: "using"}, false},
		"ErrVoucherDraft":            {gifts.Gift{Kind: gifts.GiftKindVoucher, State: "draft"}, false},
		"OKGiftcardUsing":            {gifts.Gift{Kind: gifts.GiftKindGiftcard, State: "using", RemainingValue: dec("0.01")}, true},
		"ErrGiftcardSpent":           {gifts.Gift{Kind: gifts.GiftKindGiftcard, State: "using", RemainingValue: dec("0")}, false},
		"ErrGiftcardCanceled":        {gifts.Gift{Kind: gifts.GiftKindGiftcard, State: "cncld", RemainingValue: dec("5")}, false},
		"ErrGiftcardTest":            {gifts.Gift{Kind: gifts.GiftKindGiftcard, State: "test", RemainingValue: dec("5")}, false},
		"OKNetworkGiftcardActive":    {gifts.Gift{Kind: gifts.GiftKindNetworkGiftcard, State: "paid", RemainingValue: dec("5"), ActivatesAt: &past}, true},
		"ErrNetworkGiftcardNotYet":   {gifts.Gift{Kind: gifts.GiftKindNetworkGiftcard, State: "paid", RemainingValue: dec("5"), ActivatesAt: &future}, false},
		"OKNetworkVoucherUsagesLeft": {gifts.Gift{Kind: gifts.GiftKindNetworkVoucher, State: "paid", MaxUsages: n(2), UsageCount: n(1)}, true},
		"ErrNetworkVoucherUsedUp":    {gifts.Gift{Kind: gifts.GiftKindNetworkVoucher, State: "using", MaxUsages: n(2), UsageCount: n(2)}, false},
		"ErrExpiresNow":              {gifts.Gift{Kind: gifts.GiftKindVoucher, State: "paid", ExpiresAt: &now}, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.gift.Usable(now); got != tc.want {
				t.Errorf("Usable = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestGiftStore_Codes(t *testing.T) {
	t.Parallel()
	f := newGiftFixture(t)
	ctx := context.Background()
	if err := f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "SHARED", VoucherPrototypeID: f.shopVP}); err != nil {
		t.Fatal(err)
	}

	t.Run("ErrCodeTakenByAnotherKind", func(t *testing.T) {
		for name, create := range map[string]func() error{
			"voucher": func() error {
				return f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "SHARED", VoucherPrototypeID: f.otherVP})
			},
			"giftcard": func() error {
				return f.store.CreateGiftcard(ctx, &gifts.Giftcard{Code: "SHARED", GiftcardPrototypeID: f.shopGP})
			},
			"network_giftcard": func() error {
				return f.store.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: "SHARED", MarketplaceID: f.market.ID})
			},
			"network_voucher": func() error {
				return f.store.CreateNetworkVoucher(ctx, &gifts.NetworkVoucher{Code: "SHARED", BoxID: f.box})
			},
		} {
			t.Run(name, func(t *testing.T) {
				dbtest.WantFieldErrors(t, create(), map[string]string{"code": "A gift with this code already exists."})
			})
		}
	})

	t.Run("ErrMalformedCode", func(t *testing.T) {
		err := f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "has space", VoucherPrototypeID: f.shopVP})
		dbtest.WantFieldErrors(t, err, map[string]string{"code": `Enter a valid gift code: 1 to 64 letters, digits, ".", "_" or "-".`})
	})

	t.Run("ErrUnknownProduct", func(t *testing.T) {
		dbtest.WantFieldErrors(t, f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "V-NOPROTO", VoucherPrototypeID: 999999}),
			map[string]string{"voucher_prototype": "Not found."})
		dbtest.WantFieldErrors(t, f.store.CreateNetworkVoucher(ctx, &gifts.NetworkVoucher{Code: "NV-NOBOX", BoxID: 999999}),
			map[string]string{"box": "Not found."})
		// A refused gift leaves its code free.
		if err := f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "V-NOPROTO", VoucherPrototypeID: f.shopVP}); err != nil {
			t.Errorf("code kept after a failed insert: %v", err)
		}
	})

	t.Run("ErrNetworkGiftcardOfNonMarketplace", func(t *testing.T) {
		err := f.store.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: "NGC-SHOP", MarketplaceID: f.shop.ID})
		dbtest.WantFieldErrors(t, err, map[string]string{"marketplace": "No marketplace has this id."})
		if err := f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "NGC-SHOP", VoucherPrototypeID: f.shopVP}); err != nil {
			t.Errorf("code kept after a refused network giftcard: %v", err)
		}
	})

	t.Run("ErrInvalidState", func(t *testing.T) {
		err := f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "V-STATE", VoucherPrototypeID: f.shopVP, State: "lost"})
		dbtest.WantFieldErrors(t, err, map[string]string{"state": "Not a valid choice."})
		err = f.store.CreateGiftcard(ctx, &gifts.Giftcard{Code: "G-STATE", GiftcardPrototypeID: f.shopGP, Status: "used"})
		dbtest.WantFieldErrors(t, err, map[string]string{"status": "Not a valid choice."})
	})

	t.Run("OKDefaults", func(t *testing.T) {
		nv := &gifts.NetworkVoucher{Code: "NV-DEFAULTS", BoxID: f.box}
		before := time.Now().Add(-time.Minute)
		if err := f.store.CreateNetworkVoucher(ctx, nv); err != nil {
			t.Fatal(err)
		}
		if nv.ID == 0 || nv.Status != "draft" || nv.MaxUsages != 1 || nv.CreationDate.Before(before) {
			t.Errorf("network voucher = %+v", nv)
		}
		g, err := f.store.FindGiftByCode(ctx, "NV-DEFAULTS")
		if err != nil {
			t.Fatal(err)
		}
		if g.Kind != gifts.GiftKindNetworkVoucher || g.SellerID != f.market.ID || *g.ProductID != f.box ||
			*g.MaxUsages != 1 || *g.UsageCount != 0 || g.Value != nil || g.RemainingValue != nil {
			t.Errorf("gift = %+v", g)
		}
	})

	t.Run("ErrAllowedPartnerOfNonMarketplace", func(t *testing.T) {
		dbtest.WantFieldErrors(t, f.store.AddNetworkGiftcardAllowedPartner(ctx, f.shop.ID, f.other.ID),
			map[string]string{"marketplace": "No marketplace has this id."})
		dbtest.WantFieldErrors(t, f.store.AddNetworkGiftcardAllowedPartner(ctx, f.market.ID, 999999),
			map[string]string{"partner": "No partner has this id."})
	})
}

func TestGiftService_LinkedPartners(t *testing.T) {
	t.Parallel()
	f := newGiftFixture(t)
	ctx := context.Background()
	spa := dbtest.MustPartner(t, f.partners, &domain.Partner{Name: "Spa"})
	inn := dbtest.MustPartner(t, f.partners, &domain.Partner{Name: "Inn"})
	for _, create := range []error{
		f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "V1", VoucherPrototypeID: f.shopVP, State: "paid"}),
		f.store.CreateGiftcard(ctx, &gifts.Giftcard{Code: "G1", GiftcardPrototypeID: f.shopGP, Value: giftDec("50"), RemainingValue: giftDec("50")}),
		f.store.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: "NGC1", MarketplaceID: f.market.ID, Value: giftDec("50"), RemainingValue: giftDec("50")}),
		f.store.CreateNetworkVoucher(ctx, &gifts.NetworkVoucher{Code: "NV1", BoxID: f.box}),
		// Allowed partners, one added twice, not in id order.
		f.store.AddNetworkGiftcardAllowedPartner(ctx, f.market.ID, inn.ID),
		f.store.AddNetworkGiftcardAllowedPartner(ctx, f.market.ID, spa.ID),
		f.store.AddNetworkGiftcardAllowedPartner(ctx, f.market.ID, spa.ID),
	} {
		if create != nil {
			t.Fatal(create)
		}
	}
	// Box offers: spa twice validated, inn validated once and once draft,
	// other only draft.
	for _, o := range []struct {
		partner int64
		status  string
	}{{inn.ID, "DRAFT"}, {spa.ID, "VALIDATED"}, {inn.ID, "VALIDATED"}, {spa.ID, "VALIDATED"}, {f.other.ID, "DRAFT"}} {
		giftMustID(t, f.raw, `INSERT INTO box_offers (box_id, partner_id, status) VALUES (?, ?, ?) RETURNING id`, f.box, o.partner, o.status)
	}
	// Another marketplace's allowed partner and box are not linked.
	market2 := dbtest.MustPartner(t, f.partners, &domain.Partner{Name: "Market 2", IsMarketplace: true})
	if err := f.store.AddNetworkGiftcardAllowedPartner(ctx, market2.ID, f.other.ID); err != nil {
		t.Fatal(err)
	}

	ids := func(ps []*domain.Partner) []int64 {
		out := []int64{}
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	cases := map[string]struct {
		ctx  context.Context
		code string
		want []int64
	}{
		"OKVoucherSellingPartner":          {siteOf(f.shop), "V1", []int64{f.shop.ID}},
		"OKGiftcardSellingPartner":         {siteOf(f.shop), "G1", []int64{f.shop.ID}},
		"OKNetworkGiftcardAllowedPartners": {siteOf(f.market), "NGC1", []int64{spa.ID, inn.ID}},
		"OKNetworkVoucherValidatedOffers":  {siteOf(f.market), "NV1", []int64{spa.ID, inn.ID}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			lp, err := f.svc.LinkedPartners(tc.ctx, tc.code)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(lp.Partners); !slices.Equal(got, tc.want) {
				t.Errorf("partners = %v, want %v in id order", got, tc.want)
			}
			if lp.Gift.Code != tc.code {
				t.Errorf("gift = %+v", lp.Gift)
			}
		})
	}

	t.Run("OKNoAllowedPartners", func(t *testing.T) {
		if err := f.store.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: "NGC2", MarketplaceID: market2.ID}); err != nil {
			t.Fatal(err)
		}
		c := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{}, Partner: market2})
		lp, err := f.svc.LinkedPartners(c, "NGC2")
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(lp.Partners); len(got) != 1 || got[0] != f.other.ID {
			t.Errorf("partners = %v", got)
		}
	})

	t.Run("ErrOtherPartnersGift", func(t *testing.T) {
		_, err := f.svc.LinkedPartners(siteOf(f.other), "V1")
		dbtest.WantCode(t, err, domain.CodeNotFound)
		_, err = f.svc.LinkedPartners(siteOf(f.shop), "NV1")
		dbtest.WantCode(t, err, domain.CodeNotFound)
	})
}

// contactInput is the input of a body whose values are strings or null.
func contactInput(t *testing.T, body string) gifts.ContactRequestInput {
	t.Helper()
	var obj map[string]*string
	if err := json.Unmarshal([]byte(body), &obj); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	field := func(key string) domain.Optional[string] {
		s, ok := obj[key]
		switch {
		case !ok:
			return domain.Optional[string]{}
		case s == nil:
			return domain.Null[string]()
		}
		return domain.Some(*s)
	}
	return gifts.ContactRequestInput{GiftCode: field("gift_code"), FullName: field("full_name"), Email: field("email"),
		PhoneNumber: field("phone_number"), Message: field("message"), Partner: field("partner")}
}

func TestGiftService_CreateContactRequest(t *testing.T) {
	t.Parallel()
	f := newGiftFixture(t)
	ctx := context.Background()
	if err := f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "V1", VoucherPrototypeID: f.shopVP, State: "paid"}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.CreateVoucher(ctx, &gifts.Voucher{Code: "V-OTHER", VoucherPrototypeID: f.otherVP}); err != nil {
		t.Fatal(err)
	}
	nv := &gifts.NetworkVoucher{Code: "NV1", BoxID: f.box, Status: "paid"}
	if err := f.store.CreateNetworkVoucher(ctx, nv); err != nil {
		t.Fatal(err)
	}
	shop := f.shop.UUID.String()

	t.Run("OK", func(t *testing.T) {
		cr, err := f.svc.CreateContactRequest(ctx, contactInput(t, `{"gift_code": " V1 ",
			"full_name": " Ada Lovelace ", "email": "ada@example.com", "phone_number": "+33 6 12 34 56 78",
			"message": "When can I book?", "partner": "`+strings.ToUpper(shop)+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		if cr.ID == 0 || cr.PartnerID != f.shop.ID || cr.GiftCode != "V1" || cr.FullName != "Ada Lovelace" ||
			cr.Email != "ada@example.com" || *cr.PhoneNumber != "+33 6 12 34 56 78" || cr.Message != "When can I book?" ||
			cr.Gift.Kind != gifts.GiftKindVoucher || cr.Gift.State != "paid" || cr.Partner.ID != f.shop.ID {
			t.Errorf("contact request = %+v", cr)
		}
		var n int
		if err := f.raw.NewRaw(`SELECT count(*) FROM contact_requests WHERE partner_id = ? AND gift_code = 'V1'`, f.shop.ID).Scan(ctx, &n); err != nil || n != 1 {
			t.Errorf("stored %d rows (%v)", n, err)
		}
	})

	t.Run("OKNetworkGiftToMarketplaceWithoutPhone", func(t *testing.T) {
		for _, phone := range []string{``, `"phone_number": null,`, `"phone_number": "  ",`} {
			cr, err := f.svc.CreateContactRequest(ctx, contactInput(t, `{"gift_code": "NV1", `+phone+`
				"full_name": "Ada", "email": "ada@example.com", "message": "Hi", "partner": "`+f.market.UUID.String()+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			if cr.PhoneNumber != nil || cr.Gift.ID != nv.ID || cr.Gift.Kind != gifts.GiftKindNetworkVoucher {
				t.Errorf("contact request = %+v", cr)
			}
		}
	})

	cases := map[string]struct {
		body string
		want map[string]string
	}{
		"ErrAllMissing": {`{}`, map[string]string{"gift_code": "This field is required.", "full_name": "This field is required.",
			"email": "This field is required.", "message": "This field is required.", "partner": "This field is required."}},
		"ErrNullsAndBlanks": {`{"gift_code": null, "full_name": "  ", "email": "", "message": null, "partner": ""}`,
			map[string]string{"gift_code": "This field may not be null.", "full_name": "This field may not be blank.",
				"email": "This field may not be blank.", "message": "This field may not be null.", "partner": "This field may not be blank."}},
		"ErrInvalidValues": {`{"gift_code": "V1", "full_name": "A", "email": "ada@localhost", "message": "m", "partner": "shop", "phone_number": "call me"}`,
			map[string]string{"email": "Enter a valid email address.", "partner": "Must be a valid UUID.", "phone_number": "Enter a valid phone number."}},
		"ErrTooLong": {`{"gift_code": "` + strings.Repeat("V", 65) + `", "full_name": "` + strings.Repeat("é", 256) + `",
			"email": "` + strings.Repeat("a", 245) + `@example.com", "message": "` + strings.Repeat("m", 5001) + `",
			"partner": "` + shop + `", "phone_number": "` + strings.Repeat("1", 33) + `"}`,
			map[string]string{"gift_code": "Ensure this field has no more than 64 characters.",
				"full_name": "Ensure this field has no more than 255 characters.", "email": "Ensure this field has no more than 254 characters.",
				"message": "Ensure this field has no more than 5000 characters.", "phone_number": "Ensure this field has no more than 32 characters."}},
		"ErrNullCharacter": {`{"gift_code": "V1", "full_name": "A\u0000B", "email": "a@example.com", "message": "m", "partner": "` + shop + `"}`,
			map[string]string{"full_name": "Null characters are not allowed."}},
		"ErrUnknownGiftCode": {`{"gift_code": "NOPE", "full_name": "A", "email": "a@example.com", "message": "m", "partner": "` + shop + `"}`,
			map[string]string{"gift_code": "Gift code not found."}},
		"ErrMalformedGiftCode": {`{"gift_code": "no such code", "full_name": "A", "email": "a@example.com", "message": "m", "partner": "` + shop + `"}`,
			map[string]string{"gift_code": "Gift code not found."}},
		"ErrGiftOfAnotherPartner": {`{"gift_code": "V-OTHER", "full_name": "A", "email": "a@example.com", "message": "m", "partner": "` + shop + `"}`,
			map[string]string{"gift_code": "Gift code not found."}},
		"ErrNetworkGiftToPartner": {`{"gift_code": "NV1", "full_name": "A", "email": "a@example.com", "message": "m", "partner": "` + shop + `"}`,
			map[string]string{"gift_code": "Gift code not found."}},
		"ErrUnknownPartnerCodeUnchecked": {`{"gift_code": "NOPE", "full_name": "A", "email": "a@example.com", "message": "m", "partner": "` + uuid.NewString() + `"}`,
			map[string]string{"partner": "Partner not found."}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := f.svc.CreateContactRequest(ctx, contactInput(t, tc.body))
			dbtest.WantFieldErrors(t, err, tc.want)
		})
	}
}

// Unknown codes and contact requests are limited per client address; a
// found code costs nothing, and another client is not held back.
func TestGiftServiceThrottles(t *testing.T) {
	t.Parallel()
	f := newGiftFixture(t)
	f.svc.SetThrottles(domain.NewClientThrottle(2, time.Hour), domain.NewClientThrottle(1, time.Hour))
	if _, err := f.raw.Exec(`INSERT INTO gift_codes (code, kind) VALUES ('KNOWN-1', 'voucher');
		INSERT INTO vouchers (code, voucher_prototype_id) VALUES ('KNOWN-1', ?)`, f.shopVP); err != nil {
		t.Fatal(err)
	}
	scoped := domain.WithPartnerDomain(context.Background(), f.shop.SiteDomain)
	guesser := domain.WithClientAddr(scoped, "192.0.2.1")
	for i := range 3 {
		if _, err := f.svc.Gift(guesser, "KNOWN-1"); err != nil {
			t.Fatalf("known code, try %d: %v", i, err)
		}
	}
	for i, want := range []domain.Code{domain.CodeNotFound, domain.CodeNotFound, domain.CodeThrottled} {
		if _, err := f.svc.Gift(guesser, fmt.Sprintf("GUESS-%d", i)); domain.ErrorCode(err) != want {
			t.Fatalf("guess %d: %v, want %s", i, err, want)
		}
	}
	if _, err := f.svc.LinkedPartners(guesser, "KNOWN-1"); !domain.IsCode(err, domain.CodeThrottled) {
		t.Errorf("a throttled client looks up linked partners: %v", err)
	}
	if _, err := f.svc.Gift(domain.WithClientAddr(scoped, "192.0.2.2"), "KNOWN-1"); err != nil {
		t.Errorf("another client: %v", err)
	}

	writer := domain.WithClientAddr(context.Background(), "192.0.2.3")
	for i, want := range []domain.Code{domain.CodeInvalid, domain.CodeThrottled} {
		_, err := f.svc.CreateContactRequest(writer, gifts.ContactRequestInput{})
		var de *domain.Error
		if !errors.As(err, &de) || de.Code != want || (want == domain.CodeThrottled && de.RetryAfter <= 0) {
			t.Fatalf("contact request %d: %v, want %s", i, err, want)
		}
	}
}

// countingGiftStore counts the codes looked up in the store.
type countingGiftStore struct {
	gifts.GiftStore
	lookups atomic.Int64
}

func (s *countingGiftStore) FindGiftByCode(ctx context.Context, code string) (*gifts.Gift, error) {
	s.lookups.Add(1)
	return s.GiftStore.FindGiftByCode(ctx, code)
}

// Every lookup takes its attempt before it runs: 200 unknown codes sent at
// once from one address reach the store DefaultGiftLookupBurst times, and
// the others are refused. Found codes give their attempt back, also when
// they run at once.
func TestGiftLookupsConcurrent(t *testing.T) {
	t.Parallel()
	f := newGiftFixture(t)
	if _, err := f.raw.Exec(`INSERT INTO gift_codes (code, kind) VALUES ('KNOWN-1', 'voucher');
		INSERT INTO vouchers (code, voucher_prototype_id) VALUES ('KNOWN-1', ?)`, f.shopVP); err != nil {
		t.Fatal(err)
	}
	scoped := domain.WithPartnerDomain(context.Background(), f.shop.SiteDomain)

	t.Run("UnknownCodes", func(t *testing.T) {
		store := &countingGiftStore{GiftStore: f.store}
		svc := gifts.NewGiftService(store, f.partners)
		ctx := domain.WithClientAddr(scoped, "192.0.2.10")
		const n = 200
		got := dbtest.Concurrently(n, func(i int) error {
			_, err := svc.Gift(ctx, fmt.Sprintf("GUESS-%d", i))
			return err
		})
		want := map[domain.Code]int{domain.CodeNotFound: domain.DefaultGiftLookupBurst, domain.CodeThrottled: n - domain.DefaultGiftLookupBurst}
		if !maps.Equal(got, want) {
			t.Errorf("results = %v, want %v", got, want)
		}
		if c := store.lookups.Load(); c != domain.DefaultGiftLookupBurst {
			t.Errorf("%d codes looked up in the store, want %d", c, domain.DefaultGiftLookupBurst)
		}
		_, err := svc.Gift(ctx, "KNOWN-1")
		if e := dbtest.WantCode(t, err, domain.CodeThrottled); e.RetryAfter <= 0 || e.RetryAfter > domain.DefaultGiftLookupRefill {
			t.Errorf("RetryAfter = %v", e.RetryAfter)
		}
	})

	t.Run("FoundCodes", func(t *testing.T) {
		store := &countingGiftStore{GiftStore: f.store}
		svc := gifts.NewGiftService(store, f.partners)
		ctx := domain.WithClientAddr(scoped, "192.0.2.11")
		for range 3 {
			got := dbtest.Concurrently(domain.DefaultGiftLookupBurst, func(int) error {
				_, err := svc.Gift(ctx, "KNOWN-1")
				return err
			})
			if got[""] != domain.DefaultGiftLookupBurst {
				t.Fatalf("known codes at once: %v", got)
			}
		}
		// They spent nothing: the whole bucket is left for unknown codes.
		for i := range domain.DefaultGiftLookupBurst {
			if _, err := svc.Gift(ctx, fmt.Sprintf("GUESS-%d", i)); !domain.IsCode(err, domain.CodeNotFound) {
				t.Fatalf("unknown code %d: %v", i, err)
			}
		}
		_, err := svc.Gift(ctx, "GUESS-X")
		dbtest.WantCode(t, err, domain.CodeThrottled)
	})
}

// Contact requests take their attempt before they run: sent at once from
// one address, DefaultContactRequestBurst of them are checked.
func TestContactRequestsConcurrent(t *testing.T) {
	t.Parallel()
	f := newGiftFixture(t)
	svc := gifts.NewGiftService(f.store, f.partners)
	ctx := domain.WithClientAddr(context.Background(), "192.0.2.12")
	const n = 100
	got := dbtest.Concurrently(n, func(int) error {
		_, err := svc.CreateContactRequest(ctx, gifts.ContactRequestInput{})
		return err
	})
	want := map[domain.Code]int{domain.CodeInvalid: domain.DefaultContactRequestBurst, domain.CodeThrottled: n - domain.DefaultContactRequestBurst}
	if !maps.Equal(got, want) {
		t.Errorf("results = %v, want %v", got, want)
	}
}
