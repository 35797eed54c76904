package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"salesplatform/persistence/dbtest"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/client"
)

// relFixture is the voucher fixture (newAVFixture) plus media of shop and
// other, shop's prototype showing two of shop's media and one of other's,
// an option of other bought with SHOP-001 (rows the API refuses, written
// here to prove the relations' tenancy), and an in-process graph handler
// whose statements are counted.
type relFixture struct {
	*avFixture
	g                   *gcFixture
	front, back, rival  int64
	frontUUID, backUUID string
	otherOpt            int64
	shopUUID, otherUUID string
	otherVP             int64
}

func (f *relFixture) media(t *testing.T, partner int64, name string) (int64, string) {
	t.Helper()
	id := f.id(t, `INSERT INTO media (partner_id, name, blob_key, content_type, size, width, height)
		VALUES (?, ?, ?, 'image/png', 10, 2, 1) RETURNING id`, partner, name, fmt.Sprintf("k-%d-%s", partner, name))
	var uuid string
	if err := f.db.NewRaw("SELECT uuid::text FROM media WHERE id = ?", id).Scan(context.Background(), &uuid); err != nil {
		t.Fatal(err)
	}
	return id, uuid
}

func (f *relFixture) uuidOf(t *testing.T, partner int64) string {
	t.Helper()
	var s string
	if err := f.db.NewRaw("SELECT uuid::text FROM partners WHERE id = ?", partner).Scan(context.Background(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func newRelFixture(t *testing.T) *relFixture {
	t.Helper()
	f := &relFixture{avFixture: newAVFixture(t)}
	f.front, f.frontUUID = f.media(t, f.shopID, "Front")
	f.back, f.backUUID = f.media(t, f.shopID, "Back")
	f.rival, _ = f.media(t, f.otherID, "Rival")
	f.exec(t, "INSERT INTO voucher_prototype_images (voucher_prototype_id, media_id, position) VALUES (?, ?, 0), (?, ?, 1), (?, ?, 2)",
		f.shopVP, f.back, f.shopVP, f.front, f.shopVP, f.rival)
	f.otherOpt = f.id(t, `INSERT INTO options (partner_id, name) VALUES (?, '{"en": "Rival drink"}') RETURNING id`, f.otherID)
	f.exec(t, "INSERT INTO voucher_options (voucher_id, option_id, count, total_price) VALUES (?, ?, 1, 5.00)", f.v1, f.otherOpt)
	f.otherVP = f.id(t, "SELECT id FROM voucher_prototypes WHERE partner_id = ?", f.otherID)
	f.shopUUID, f.otherUUID = f.uuidOf(t, f.shopID), f.uuidOf(t, f.otherID)

	// The graph's own pool, whose statements are counted.
	stmts := &dbtest.StatementCounter{}
	db, err := dbtest.OpenCounted(context.Background(), f.dsn, stmts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h := Handler(t, db)
	f.g = &gcFixture{h: h, c: client.New(h), db: db, stmts: stmts}
	return f
}

// TestGraphAdminRelations: a voucher's prototype and its images and cover,
// a bought option's option; each leaves out what the caller does not see.
func TestGraphAdminRelations(t *testing.T) {
	t.Parallel()
	f := newRelFixture(t)
	q := `{ adminVoucher(code: "SHOP-001") { voucherPrototypeId
		prototype { id: legacyId name { en } imageIds coverImageId images { id: legacyId name url } coverImage { id: legacyId name } }
		options { optionId option { id: legacyId name { fr en } categoryId category { id: legacyId } prototypeIds } } } }`
	url := func(uuid string) string { return "http://api.test/media/" + uuid }

	t.Run("MemberSeesItsOwn", func(t *testing.T) {
		WantJSON(t, f.g.mustAsk(t, "", f.shopTok, q, nil), fmt.Sprintf(`{"adminVoucher": {"voucherPrototypeId": "%[1]d",
			"prototype": {"id": "%[1]d", "name": {"en": "Spa stay"}, "imageIds": ["%[2]d", "%[3]d", "%[4]d"], "coverImageId": null,
				"images": [{"id": "%[2]d", "name": "Back", "url": %[5]q}, {"id": "%[3]d", "name": "Front", "url": %[6]q}],
				"coverImage": {"id": "%[2]d", "name": "Back"}},
			"options": [
				{"optionId": "%[9]d", "option": null},
				{"optionId": "%[7]d", "option": {"id": "%[7]d", "name": {"fr": "Petit-déjeuner", "en": null}, "categoryId": "%[8]d",
					"category": {"id": "%[8]d"}, "prototypeIds": ["%[1]d"]}}]}}`,
			f.shopVP, f.back, f.front, f.rival, url(f.backUUID), url(f.frontUUID), f.opt1, f.cat, f.otherOpt))
	})

	t.Run("StaffSeeEveryPartners", func(t *testing.T) {
		data := f.g.mustAsk(t, "", f.staffTok, q, nil)
		for _, want := range []string{fmt.Sprintf(`{"id":"%d","name":"Rival","url"`, f.rival), fmt.Sprintf(`"id":"%d","name":{"en":"Rival drink"`, f.otherOpt)} {
			if !strings.Contains(string(data), want) {
				t.Errorf("staff: %s lacks %s", data, want)
			}
		}
	})

	t.Run("Cover", func(t *testing.T) {
		cover := `{ adminVoucherPrototype(id: "%d") { coverImageId coverImage { id: legacyId } } }`
		f.exec(t, "UPDATE voucher_prototypes SET cover_image_id = ? WHERE id = ?", f.front, f.shopVP)
		WantJSON(t, f.g.mustAsk(t, "", f.shopTok, fmt.Sprintf(cover, f.shopVP), nil), fmt.Sprintf(
			`{"adminVoucherPrototype": {"coverImageId": "%[1]d", "coverImage": {"id": "%[1]d"}}}`, f.front))
		// Another partner's media as the cover (the API refuses it): not shown.
		f.exec(t, "UPDATE voucher_prototypes SET cover_image_id = ? WHERE id = ?", f.rival, f.shopVP)
		WantJSON(t, f.g.mustAsk(t, "", f.shopTok, fmt.Sprintf(cover, f.shopVP), nil), fmt.Sprintf(
			`{"adminVoucherPrototype": {"coverImageId": "%d", "coverImage": null}}`, f.rival))
		// No images and no cover: none.
		WantJSON(t, f.g.mustAsk(t, "", f.otherTok, fmt.Sprintf(`{ adminVoucherPrototype(id: "%d") { images { id: legacyId } coverImage { id: legacyId } } }`, f.otherVP), nil),
			`{"adminVoucherPrototype": {"images": [], "coverImage": null}}`)
		f.exec(t, "UPDATE voucher_prototypes SET cover_image_id = NULL WHERE id = ?", f.shopVP)
	})

	t.Run("OtherPartnerSeesNone", func(t *testing.T) {
		_, errs := f.g.ask(t, "", f.otherTok, q, nil)
		gcErrorCode(t, errs, "NOT_FOUND", "", "[adminVoucher]")
	})
}

// TestGraphAdminCoupon: the coupon is the whole coupon_for_email_details,
// in camelCase.
func TestGraphAdminCoupon(t *testing.T) {
	t.Parallel()
	f := newRelFixture(t)
	fields := []string{"id", "code", "type", "valid", "isActivated", "discountText", "discount", "discountType",
		"numberOfUsage", "maxUsage", "start", "end", "newValidityPeriod", "bookingEngineId", "isValueIncreased",
		"isValueIncreasedMultipleTimes", "partnerId", "voucherPrototypesIds", "cncOffersIds", "eshopProductsIds",
		"experienceOffersIds", "workshopsIds", "workshopCategoriesIds", "eventsIds", "flashsalesOffersIds",
		"paymentAmountConditionMinimum", "giftcode", "emailCondition", "priceConditionMinAmount", "productConditionMinAmount",
		"activateForVouchers", "activateForGiftcards", "activateForClickandcollect", "activateForEcommerce",
		"activateForExperiences", "activateForTicketsEvents", "activateForWorkshops", "activateForFlashsales",
		"activateForMoneypot", "activateForNetworkGiftcards", "activateForNetworkVouchers", "offerDeliveryCostClickandcollect",
		"printAtHomeReceptionMode", "expeditionReceptionMode", "gifteeEmailReceptionMode",
		"postalMailToBeneficiaryReceptionMode", "onSiteExpeditionMode"}
	data := f.g.mustAsk(t, "", f.shopTok, `{ adminVoucher(code: "SHOP-001") { coupon { legacyId `+strings.Join(fields, " ")+` } } }`, nil)
	var got struct {
		AdminVoucher struct{ Coupon map[string]any }
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}

	// Every field of the REST record has its camelCase twin ("partner" is
	// partnerId, as elsewhere in the graph).
	rest := f.get(t, "/api/vouchers/SHOP-001/", f.shopTok).JSON(t)["coupon_for_email_details"].(map[string]any)
	for k := range rest {
		name := k
		if k == "partner" {
			name = "partner_id"
		}
		parts := strings.Split(name, "_")
		for i := 1; i < len(parts); i++ {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
		if _, ok := got.AdminVoucher.Coupon[strings.Join(parts, "")]; !ok {
			t.Errorf("REST field %s has no graph field %s", k, strings.Join(parts, ""))
		}
	}
	if len(rest) != len(fields) {
		t.Errorf("REST has %d fields, the graph %d: %v", len(rest), len(fields), rest)
	}

	want := map[string]any{"id": globalID("AdminVoucherCoupon", f.coupon), "legacyId": fmt.Sprint(f.coupon), "code": "SPRING", "discountText": "10% off",
		"discountType": "percentage", "numberOfUsage": 3.0, "maxUsage": 100.0,
		"start": "2026-03-01T01:00:00+01:00", "end": "2026-06-01T02:00:00+02:00", "partnerId": fmt.Sprint(f.shopID),
		"voucherPrototypesIds": []any{fmt.Sprint(f.shopVP)}, "cncOffersIds": []any{}, "eventsIds": []any{},
		"giftcode": "GC", "emailCondition": "", "activateForVouchers": true, "activateForGiftcards": false,
		"onSiteExpeditionMode": false, "isValueIncreased": false}
	for k, v := range want {
		if g := got.AdminVoucher.Coupon[k]; fmt.Sprint(g) != fmt.Sprint(v) {
			t.Errorf("coupon.%s = %#v, want %#v", k, g, v)
		}
	}
}

// TestGraphAdminPartner: a partner's lists, through viewer.partner and
// adminPartner, with the top-level lists' filters and orderings; staff
// reach any partner, a member only its own.
func TestGraphAdminPartner(t *testing.T) {
	t.Parallel()
	f := newRelFixture(t)
	lists := `uuid
		voucherPrototypes { totalCount edges { node { id: legacyId } } }
		vouchers(orderBy: [{field: CODE, direction: DESC}]) { totalCount edges { node { code } } }
		filtered: vouchers(filter: {code: "002"}) { edges { node { code } } }
		giftcards { totalCount edges { node { code } } }
		media(first: 1) { totalCount edges { node { name } } pageInfo { hasNextPage } }`
	shopWant := fmt.Sprintf(`{"uuid": %q,
		"voucherPrototypes": {"totalCount": 1, "edges": [{"node": {"id": "%d"}}]},
		"vouchers": {"totalCount": 2, "edges": [{"node": {"code": "SHOP-002"}}, {"node": {"code": "SHOP-001"}}]},
		"filtered": {"edges": [{"node": {"code": "SHOP-002"}}]},
		"giftcards": {"totalCount": 2, "edges": [{"node": {"code": "GC-SHOP-2"}}, {"node": {"code": "GC-SHOP-1"}}]},
		"media": {"totalCount": 2, "edges": [{"node": {"name": "Back"}}], "pageInfo": {"hasNextPage": true}}}`, f.shopUUID, f.shopVP)
	otherWant := fmt.Sprintf(`{"uuid": %q,
		"voucherPrototypes": {"totalCount": 1, "edges": [{"node": {"id": "%d"}}]},
		"vouchers": {"totalCount": 1, "edges": [{"node": {"code": "OTHER-001"}}]},
		"filtered": {"edges": []},
		"giftcards": {"totalCount": 1, "edges": [{"node": {"code": "GC-OTHER-1"}}]},
		"media": {"totalCount": 1, "edges": [{"node": {"name": "Rival"}}], "pageInfo": {"hasNextPage": false}}}`, f.otherUUID, f.otherVP)
	byUUID := `query($uuid: UUID!) { adminPartner(uuid: $uuid) { ` + lists + ` } }`

	t.Run("Viewer", func(t *testing.T) {
		WantJSON(t, f.g.mustAsk(t, "", f.shopTok, `{ viewer { partner { `+lists+` } } }`, nil), `{"viewer": {"partner": `+shopWant+`}}`)
		WantJSON(t, f.g.mustAsk(t, "", f.otherTok, `{ viewer { partner { `+lists+` } } }`, nil), `{"viewer": {"partner": `+otherWant+`}}`)
	})
	t.Run("MemberItsOwn", func(t *testing.T) {
		WantJSON(t, f.g.mustAsk(t, "", f.shopTok, byUUID, map[string]any{"uuid": f.shopUUID}), `{"adminPartner": `+shopWant+`}`)
	})
	t.Run("StaffAny", func(t *testing.T) {
		WantJSON(t, f.g.mustAsk(t, "", f.staffTok, byUUID, map[string]any{"uuid": f.otherUUID}), `{"adminPartner": `+otherWant+`}`)
		WantJSON(t, f.g.mustAsk(t, "", f.staffTok, byUUID, map[string]any{"uuid": f.shopUUID}), `{"adminPartner": `+shopWant+`}`)
	})
	t.Run("NotFound", func(t *testing.T) {
		for name, c := range map[string]struct{ token, uuid, code string }{
			"another partner": {f.shopTok, f.otherUUID, "NOT_FOUND"},
			"unknown":         {f.staffTok, "00000000-0000-4000-8000-000000000000", "NOT_FOUND"},
			"no token":        {"", f.shopUUID, "UNAUTHENTICATED"},
		} {
			data, errs := f.g.ask(t, "", c.token, byUUID, map[string]any{"uuid": c.uuid})
			// adminPartner is nullable: its error nulls the field, not the whole data.
			if len(errs) != 1 || errs[0].Extensions["code"] != c.code || string(data) != `{"adminPartner":null}` {
				t.Errorf("%s: %s %+v, want %s", name, data, errs, c.code)
			}
		}
	})
	t.Run("BadFilter", func(t *testing.T) {
		_, errs := f.g.ask(t, "", f.shopTok, `{ viewer { partner { vouchers(filter: {creationDateGte: "soon"}) { totalCount } } } }`, nil)
		if len(errs) != 1 || errs[0].Extensions["code"] != "BAD_USER_INPUT" {
			t.Errorf("errors = %+v", errs)
		}
	})
}

// TestGraphAdminRelationsStatementCount: vouchers → prototype → images,
// cover, universe and option links → option → category, and vouchers →
// bought options → option → category, cost the same number of statements
// for 2 vouchers as for 10.
func TestGraphAdminRelationsStatementCount(t *testing.T) {
	t.Parallel()
	f := newRelFixture(t)
	q := `{ adminVouchers(first: 50, filter: {code: "BULK"}) { totalCount edges { node { code
		prototype { id partner { uuid } universe { id } images { id name partner { uuid } } coverImage { id }
			options(first: 5) { totalCount edges { node { count option { id category { id partner { uuid } } } } } } }
		options { count option { id partner { uuid } category { id } prototypes { id } } } } } } }`
	universe := f.id(t, `INSERT INTO universes (name) VALUES ('{"fr": "Spa"}') RETURNING id`)
	add := func(from, to int) {
		for i := from; i < to; i++ {
			vp := f.id(t, `INSERT INTO voucher_prototypes (partner_id, name, universe_id, type) VALUES (?, '{"en": "Bulk"}', ?, 'stay') RETURNING id`,
				f.shopID, universe)
			a, _ := f.media(t, f.shopID, fmt.Sprintf("Bulk %d a", i))
			b, _ := f.media(t, f.shopID, fmt.Sprintf("Bulk %d b", i))
			f.exec(t, "INSERT INTO voucher_prototype_images (voucher_prototype_id, media_id, position) VALUES (?, ?, 0), (?, ?, 1)", vp, a, vp, b)
			f.exec(t, "UPDATE voucher_prototypes SET cover_image_id = ? WHERE id = ?", b, vp)
			cat := f.id(t, `INSERT INTO option_categories (partner_id, name) VALUES (?, '{"fr": "Bulk"}') RETURNING id`, f.shopID)
			opt := f.id(t, `INSERT INTO options (partner_id, category_id, name) VALUES (?, ?, '{"en": "Bulk"}') RETURNING id`, f.shopID, cat)
			f.exec(t, "INSERT INTO voucher_prototype_options (voucher_prototype_id, option_id, count, included) VALUES (?, ?, 1, false)", vp, opt)
			v := f.voucher(t, fmt.Sprintf("BULK-%03d", i), vp, "state, total_price", "paid", "10.00")
			f.exec(t, "INSERT INTO voucher_options (voucher_id, option_id, count, total_price) VALUES (?, ?, 1, 2.00)", v, opt)
		}
	}
	// count returns the least of three runs' statements (a batch may split
	// on a starved machine: latency, not a statement per row).
	count := func(rows int) int {
		t.Helper()
		least := -1
		for range 3 {
			f.g.stmts.Reset()
			data := f.g.mustAsk(t, "", f.shopTok, q, nil)
			if !strings.Contains(string(data), fmt.Sprintf(`"totalCount":%d`, rows)) || strings.Contains(string(data), `"option":null`) ||
				strings.Contains(string(data), `"partner":null`) ||
				strings.Count(string(data), `"images":[{`) != rows {
				t.Fatalf("want %d full vouchers: %s", rows, data)
			}
			if n := f.g.stmts.Count(); least < 0 || n < least {
				least = n
				t.Logf("%d statements for %d vouchers:\n%s", n, rows, strings.Join(f.g.stmts.Queries(), "\n"))
			}
		}
		return least
	}
	add(0, 2)
	small := count(2)
	add(2, 10)
	if large := count(10); small != large {
		t.Errorf("2 vouchers: %d statements, 10 vouchers: %d; want the same", small, large)
	}
}
