package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/persistence/dbtest"
)

// nvrFixture is a running server with a marketplace, Market (Europe/Paris),
// whose network has member (source id 42, a validated offer in box) and
// refused (source id 43, whose offer in box was refused); box has every
// field of the box record set, box2 is bare; Rival is another marketplace with a box
// and a voucher. Accounts: market (use_voucher), reader (Market's, no
// permission), rival (Rival's, use_voucher), staff.
type nvrFixture struct {
	*Server
	db                                       *bun.DB
	marketTok, readerTok, rivalTok, staffTok string
	market, rival, member, refused           int64
	box, box2, rivalBox, priceRange, product int64
	media, image, offerMember, offerRefused  int64
	voucher, spare, draft                    int64
	mediaUUID, voucherUUID, spareUUID        string
}

func (f *nvrFixture) id(t *testing.T, query string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(query, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return id
}

// newVoucher inserts a network voucher of box with its code.
func (f *nvrFixture) newVoucher(t *testing.T, code string, box int64, status string, max int, extra string) (int64, string) {
	t.Helper()
	ctx := context.Background()
	var id int64
	var u string
	gcMust(t, f.db.NewRaw("INSERT INTO gift_codes (code, kind) VALUES (?, 'network_voucher') RETURNING code", code).Scan(ctx, new(string)))
	gcMust(t, f.db.NewRaw(`INSERT INTO network_vouchers (code, box_id, status, max_usages, creation_date, expiration_date)
		VALUES (?, ?, ?, ?, '2026-11-20T10:00:00Z', '2027-11-20T10:00:00Z') RETURNING id, uuid::text`,
		code, box, status, max).Scan(ctx, &id, &u))
	if extra != "" {
		f.id(t, "UPDATE network_vouchers SET "+extra+" WHERE id = ? RETURNING id", id)
	}
	return id, u
}

func newNVRFixture(t *testing.T) *nvrFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	f := &nvrFixture{
		marketTok: CreateUser(t, dsn, "--username", "market", "--password", "market-password", "--partner-name", "Market",
			"--marketplace", "--permission", domain.PermUseVoucher),
		readerTok: CreateUser(t, dsn, "--username", "reader", "--password", "reader-password", "--partner-name", "Reader"),
		rivalTok: CreateUser(t, dsn, "--username", "rival", "--password", "rival-password", "--partner-name", "Rival",
			"--marketplace", "--permission", domain.PermUseVoucher),
		staffTok: CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff"),
	}
	f.db = OpenDB(t, dsn)
	f.market = f.id(t, "SELECT partner_id FROM users WHERE username = 'market'")
	f.rival = f.id(t, "SELECT partner_id FROM users WHERE username = 'rival'")
	f.id(t, "UPDATE users SET partner_id = ? WHERE username = 'reader' RETURNING id", f.market)
	f.id(t, "UPDATE partners SET time_zone = 'Europe/Paris' WHERE id = ? RETURNING id", f.market)
	f.member = f.id(t, "INSERT INTO partners (name, status) VALUES ('Member', 'n') RETURNING id")
	f.id(t, "INSERT INTO partner_legal_information (partner_id, agency_name) VALUES (?, 'Member Agency') RETURNING partner_id", f.member)
	f.refused = f.id(t, "INSERT INTO partners (name, status) VALUES ('Refused Inn', 'n') RETURNING id")
	f.id(t, `INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, '42'), (?, ?, '43')
		RETURNING partner_id`, f.market, f.member, f.market, f.refused)

	f.priceRange = f.id(t, `INSERT INTO network_voucher_price_ranges (partner_id, name)
		VALUES (?, '{"fr": "Moins de 100 €", "en": "Under 100 €", "de": "Unter 100 €"}') RETURNING id`, f.market)
	f.box = f.id(t, `INSERT INTO network_voucher_boxes (marketplace_id, name, short_description, long_description,
		creation_date, is_active, is_highlight, price, max_number_usages, max_days_after_first_usage, weight, price_scope,
		nb_mpo_orders, price_range_id, management_fees, commission_rate)
		VALUES (?, '{"fr": "Coffret découverte", "en": "Discovery box"}', '{"en": "Short en"}', '{"en": "Long en", "fr": "Long fr"}',
		'2026-10-01T08:00:00Z', true, true, 89.90, 2, 0, 450, 2, 3, ?, 2.50, 12.50) RETURNING id`, f.market, f.priceRange)
	f.box2 = f.id(t, `INSERT INTO network_voucher_boxes (marketplace_id, creation_date) VALUES (?, '2026-10-05T08:00:00Z') RETURNING id`, f.market)
	f.product = f.id(t, `INSERT INTO network_voucher_box_products (box_id, name, price_range_id) VALUES (?, '{"en": "Dinner"}', ?) RETURNING id`,
		f.box, f.priceRange)
	f.media = f.id(t, `INSERT INTO media (partner_id, name, blob_key, content_type, size, width, height, created_on)
		VALUES (?, 'cover.png', 'nv-cover', 'image/png', 1234, 2, 2, '2026-09-01T10:00:00Z') RETURNING id`, f.market)
	gcMust(t, f.db.NewRaw("SELECT uuid::text FROM media WHERE id = ?", f.media).Scan(context.Background(), &f.mediaUUID))
	f.image = f.id(t, `INSERT INTO network_voucher_box_images (box_id, position, url, media_id, cover)
		VALUES (?, 1, 'https://cdn.example.com/cover.png', ?, true) RETURNING id`, f.box, f.media)
	f.id(t, `INSERT INTO network_voucher_box_images (box_id, position, url) VALUES (?, 2, 'https://cdn.example.com/2.png') RETURNING id`, f.box)
	f.offerMember = f.id(t, `INSERT INTO box_offers (box_id, partner_id, status, name, description, terms_of_use, edition_date,
		ranking, product_id) VALUES (?, ?, 'VALIDATED', '{"fr": "Dîner"}', '{"en": "A dinner"}', '{"en": "Book ahead"}',
		'2026-10-02T08:00:00Z', 1, ?) RETURNING id`, f.box, f.member, f.product)
	f.offerRefused = f.id(t, `INSERT INTO box_offers (box_id, partner_id, status, edition_date, rejection_date, is_active, ranking)
		VALUES (?, ?, 'REFUSED', '2026-10-02T09:00:00Z', '2026-10-03T09:30:00Z', false, 2) RETURNING id`, f.box, f.refused)
	universe := f.id(t, `INSERT INTO universes (name) VALUES ('{"fr": "Loisirs", "en": "Leisure"}') RETURNING id`)
	child := f.id(t, `INSERT INTO universes (parent_id, name) VALUES (?, '{"fr": "Châteaux"}') RETURNING id`, universe)
	f.id(t, "INSERT INTO network_voucher_box_universes (box_id, universe_id) VALUES (?, ?) RETURNING box_id", f.box, child)

	f.voucher, f.voucherUUID = f.newVoucher(t, "NV-E2E-0001", f.box, "paid", 2,
		"language = 'en', gifter_email = 'Anne@Example.com', giftee_email = 'bob@example.com'")
	f.spare, f.spareUUID = f.newVoucher(t, "NV-E2E-0002", f.box, "paid", 1, "")
	f.draft, _ = f.newVoucher(t, "NV-E2E-DRAFT", f.box, "draft", 1, "")
	f.rivalBox = f.id(t, `INSERT INTO network_voucher_boxes (marketplace_id, name) VALUES (?, '{"en": "Rival box"}') RETURNING id`, f.rival)
	f.newVoucher(t, "NV-RIVAL-0001", f.rivalBox, "paid", 1, "gifter_email = 'anne@example.com'")
	f.Server = Serve(t, dsn)
	return f
}

// call sends a JSON body (none when "") with token ("" for none).
func (f *nvrFixture) call(t *testing.T, method, path, token, body string) Response {
	t.Helper()
	var h []string
	if token != "" {
		h = auth(token)
	}
	return Do(t, method, f.URL+path, body, h...)
}

// flat adds l's texts as prefix_<lang> over langs, "" where there is none.
func flat(m map[string]any, prefix string, l map[string]string, languages []string) {
	for _, lang := range languages {
		m[prefix+"_"+lang] = l[lang]
	}
}

// wantBoxJSON is box's record.
func (f *nvrFixture) wantBoxJSON() map[string]any {
	m := map[string]any{
		"id": f.box, "creation_date": "2026-10-01T08:00:00Z", "is_active": true, "is_highlight": true, "price": 89.9,
		"weight": 450, "price_scope": 2, "max_usages": 2, "max_days_after_first_usage": 0, "nb_mpo_orders": 3,
		"marketplace": f.market,
		"images": []any{map[string]any{"id": f.image, "image": map[string]any{
			"id": f.media, "uuid": f.mediaUUID, "name": "cover.png", "size": 1234, "readable": true, "writable": false,
			"created_on": "2026-09-01T10:00:00Z", "updated_on": "2026-09-01T10:00:00Z", "archived_on": nil, "cover": true}}},
		"allowed_partners": []any{map[string]any{"id": f.member, "source_id": "42", "agency_name": "Member Agency"}},
	}
	flat(m, "name", map[string]string{"fr": "Coffret découverte", "en": "Discovery box"}, langs)
	flat(m, "short_description", map[string]string{"en": "Short en"}, langs)
	flat(m, "long_description", map[string]string{"en": "Long en", "fr": "Long fr"}, langs)
	pr := map[string]any{"id": f.priceRange, "partner": f.market}
	flat(pr, "name", map[string]string{"fr": "Moins de 100 €", "en": "Under 100 €"}, []string{"en", "fr", "es", "it", "nl", "ca", "pt"})
	m["price_range"] = pr
	product := map[string]any{"id": f.product, "price_range": f.priceRange}
	flat(product, "name", map[string]string{"en": "Dinner"}, langs)
	m["products"] = []any{product}
	return m
}

// wantVoucherJSON is the record of NV-E2E-0001 with count usages.
func (f *nvrFixture) wantVoucherJSON(status string, count int) map[string]any {
	return map[string]any{"id": f.voucher, "uuid": f.voucherUUID, "code": "NV-E2E-0001", "status": status,
		"creation_date": "2026-11-20T10:00:00Z", "expiration_date": "2027-11-20T10:00:00Z", "max_usages": 2,
		"usage_count": count, "box": f.box, "box_name": "Discovery box", "box_price": 89.9, "is_box_active": true,
		"description": "Long en", "short_description": "Short en", "universes": []any{[]any{"Leisure", "Châteaux"}},
		"tags": []any{}}
}

func wantHeader(t *testing.T, res Response, name, want string) {
	t.Helper()
	if got := res.Header.Get(name); got != want {
		t.Errorf("%s = %q, want %q", name, got, want)
	}
}

const (
	nvNotProvided = `{"detail": "Authentication credentials were not provided."}`
	nvNotFound    = `{"detail": "Not found."}`
	nvForbidden   = `{"detail": "You do not have permission to perform this action."}`
)

// The boxes and their offers, field by field as the contract says, as
// plain arrays paged with X-Total-Count and Link; another marketplace's
// are not found.
func TestNetworkVoucherBoxesREST(t *testing.T) {
	t.Parallel()
	f := newNVRFixture(t)
	box := f.wantBoxJSON()

	res := f.call(t, "GET", "/api/networkvouchers/boxes/?page_size=1", f.marketTok, "")
	WantResponse(t, res, 200, jsonOf(t, []any{box}))
	wantHeader(t, res, "X-Total-Count", "2")
	host := strings.TrimPrefix(f.URL, "http://")
	wantHeader(t, res, "Link", `<http://`+host+`/api/networkvouchers/boxes/?page=2&page_size=1>; rel="next"`)
	res = f.call(t, "GET", "/api/networkvouchers/boxes/?page=2&page_size=1", f.readerTok, "")
	bare := map[string]any{"id": f.box2, "creation_date": "2026-10-05T08:00:00Z", "is_active": false, "is_highlight": false,
		"price": 0, "weight": 0, "price_scope": 1, "max_usages": 1, "max_days_after_first_usage": 0, "nb_mpo_orders": 0,
		"marketplace": f.market, "price_range": nil, "images": []any{}, "allowed_partners": []any{}, "products": []any{}}
	for _, p := range []string{"name", "short_description", "long_description"} {
		flat(bare, p, nil, langs)
	}
	WantResponse(t, res, 200, jsonOf(t, []any{bare}))
	wantHeader(t, res, "Link", `<http://`+host+`/api/networkvouchers/boxes/?page_size=1>; rel="prev"`)
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers/boxes/?page=3&page_size=1", f.marketTok, ""), 404, `{"detail": "Invalid page."}`)
	res = f.call(t, "GET", "/api/networkvouchers/boxes/", f.staffTok, "")
	if res.Status != 200 || res.Header.Get("X-Total-Count") != "3" || res.Header.Get("Link") != "" {
		t.Errorf("staff list: %d %v", res.Status, res.Header)
	}
	res = f.call(t, "GET", "/api/networkvouchers/boxes/", f.rivalTok, "")
	if res.Status != 200 || res.Header.Get("X-Total-Count") != "1" || strings.Contains(res.Body, "Discovery") {
		t.Errorf("rival list: %d %v %s", res.Status, res.Header, res.Body)
	}
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers/boxes/", "", ""), 401, nvNotProvided)

	path := fmt.Sprintf("/api/networkvouchers/boxes/%d/", f.box)
	WantResponse(t, f.call(t, "GET", path, f.marketTok, ""), 200, jsonOf(t, box))
	if res := f.call(t, "HEAD", path, f.marketTok, ""); res.Status != 200 || res.Body != "" {
		t.Errorf("HEAD: %d %q", res.Status, res.Body)
	}
	WantResponse(t, f.call(t, "GET", path, f.staffTok, ""), 200, jsonOf(t, box))
	WantResponse(t, f.call(t, "GET", path, f.rivalTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "GET", fmt.Sprintf("/api/networkvouchers/boxes/%d/", f.rivalBox), f.marketTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers/boxes/x1/", f.marketTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers/boxes/99999999999999999999/", f.marketTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "GET", path, "", ""), 401, nvNotProvided)

	member := map[string]any{"id": f.offerMember, "edition_date": "2026-10-02T08:00:00Z", "rejection_date": nil,
		"is_active": true, "status": "VALIDATED", "ranking": 1, "box": f.box, "product": f.product, "partner": f.member}
	flat(member, "name", map[string]string{"fr": "Dîner"}, langs)
	flat(member, "description", map[string]string{"en": "A dinner"}, langs)
	flat(member, "terms_of_use", map[string]string{"en": "Book ahead"}, langs)
	refused := map[string]any{"id": f.offerRefused, "edition_date": "2026-10-02T09:00:00Z",
		"rejection_date": "2026-10-03T09:30:00Z", "is_active": false, "status": "REFUSED", "ranking": 2, "box": f.box,
		"product": nil, "partner": f.refused}
	for _, p := range []string{"name", "description", "terms_of_use"} {
		flat(refused, p, nil, langs)
	}
	res = f.call(t, "GET", path+"offers/", f.readerTok, "")
	WantResponse(t, res, 200, jsonOf(t, []any{member, refused}))
	wantHeader(t, res, "X-Total-Count", "2")
	WantResponse(t, f.call(t, "GET", path+"offers/?page=2&page_size=1", f.marketTok, ""), 200, jsonOf(t, []any{refused}))
	WantResponse(t, f.call(t, "GET", path+"offers/?page=3&page_size=1", f.marketTok, ""), 404, `{"detail": "Invalid page."}`)
	WantResponse(t, f.call(t, "GET", path+"offers/", f.rivalTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "GET", path+"offers/", "", ""), 401, nvNotProvided)
}

// wantUsageJSON is the record of a usage at member.
func (f *nvrFixture) wantUsageJSON(id, voucher int64, date string, active bool, comment string) map[string]any {
	return map[string]any{"id": id, "creation_date": date, "network_voucher": voucher, "partner": f.member,
		"partner_agency_name": "Member Agency", "partner_source_id": 42, "is_active": active, "comment": comment,
		"management_fees": 2.5, "commission_rate": 12.5}
}

// usageID posts a usage and returns its id, failing unless it is 200.
func usageID(t *testing.T, res Response) int64 {
	t.Helper()
	if res.Status != 200 {
		t.Fatalf("use: %d %s", res.Status, res.Body)
	}
	return int64(res.JSON(t)["id"].(float64))
}

// The vouchers by code and by e-mail, their usages, recording usages by
// source id and by partner id with every refusal, and cancels, field by
// field as the contract says; another marketplace's are not found.
func TestNetworkVouchersREST(t *testing.T) {
	t.Parallel()
	f := newNVRFixture(t)
	code := "/api/networkvouchers_by_code/nv-e2e-0001/"

	WantResponse(t, f.call(t, "GET", code, f.readerTok, ""), 200, jsonOf(t, f.wantVoucherJSON("paid", 0)))
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers_by_code/NV-E2E-0001/", f.staffTok, ""), 200, jsonOf(t, f.wantVoucherJSON("paid", 0)))
	WantResponse(t, f.call(t, "GET", code, f.rivalTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers_by_code/NV-RIVAL-0001/", f.marketTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers_by_code/NV-NONE/", f.marketTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "GET", code, "", ""), 401, nvNotProvided)

	res := f.call(t, "GET", "/api/networkvouchers_by_email/ANNE@example.COM/", f.marketTok, "")
	WantResponse(t, res, 200, jsonOf(t, []any{f.wantVoucherJSON("paid", 0)}))
	wantHeader(t, res, "X-Total-Count", "1")
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers_by_email/bob@example.com/", f.marketTok, ""), 200,
		jsonOf(t, []any{f.wantVoucherJSON("paid", 0)}))
	res = f.call(t, "GET", "/api/networkvouchers_by_email/anne@example.com/", f.rivalTok, "")
	if res.Status != 200 || res.Header.Get("X-Total-Count") != "1" || strings.Contains(res.Body, "NV-E2E") {
		t.Errorf("the rival's by e-mail: %d %s", res.Status, res.Body)
	}
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers_by_email/"+strings.Repeat("a", 250)+"@x.io/", f.marketTok, ""), 400,
		`{"email": ["Ensure this field has no more than 254 characters."]}`)
	WantResponse(t, f.call(t, "GET", "/api/networkvouchers_by_email/anne@example.com/", "", ""), 401, nvNotProvided)

	usages := code + "usages/"
	res = f.call(t, "GET", usages, f.marketTok, "")
	WantResponse(t, res, 200, `[]`)
	wantHeader(t, res, "X-Total-Count", "0")

	// A date is taken at 12:00 in Paris; the partner by its source id.
	res = f.call(t, "POST", code+"use/", f.marketTok, `{"creation_date": "2026-11-24", "partner_source_id": 42, "comment": "Table 4"}`)
	u1 := usageID(t, res)
	first := f.wantUsageJSON(u1, f.voucher, "2026-11-24T11:00:00Z", true, "Table 4")
	WantResponse(t, res, 200, jsonOf(t, first))
	// A form, the partner by its id, a date-time in Paris.
	form := url.Values{"creation_date": {"2026-11-25T18:30:00"}, "partner_id": {fmt.Sprint(f.member)}}.Encode()
	res = Do(t, "POST", f.URL+code+"use_with_service_id/", form, "Content-Type", "application/x-www-form-urlencoded", "Authorization", "Token "+f.marketTok)
	u2 := usageID(t, res)
	second := f.wantUsageJSON(u2, f.voucher, "2026-11-25T17:30:00Z", true, "")
	WantResponse(t, res, 200, jsonOf(t, second))
	WantResponse(t, f.call(t, "POST", code+"use/", f.marketTok, `{"creation_date": "2026-11-26", "partner_source_id": 42}`), 409,
		`{"detail": "This network voucher has no usage left: it has been used 2 times, its max_usages."}`)
	WantResponse(t, f.call(t, "GET", code, f.marketTok, ""), 200, jsonOf(t, f.wantVoucherJSON("using", 2)))
	res = f.call(t, "GET", usages+"?page_size=1&page=2", f.marketTok, "")
	WantResponse(t, res, 200, jsonOf(t, []any{second}))
	wantHeader(t, res, "X-Total-Count", "2")
	WantResponse(t, f.call(t, "GET", usages, f.rivalTok, ""), 404, nvNotFound)

	spare := "/api/networkvouchers_by_code/NV-E2E-0002/"
	for _, tc := range []struct{ name, path, body, want string }{
		{"unknown source id", "use/", `{"creation_date": "2026-11-24", "partner_source_id": 44}`,
			`{"partner_source_id": ["No partner of the network voucher's marketplace network has this source id."]}`},
		{"no date", "use/", `{"partner_source_id": 42}`, `{"creation_date": ["This field is required."]}`},
		{"no partner", "use/", `{"creation_date": "2026-11-24"}`, `{"partner_source_id": ["This field is required."]}`},
		{"bad types", "use_with_service_id/", `{"creation_date": "tomorrow", "partner_id": "x"}`,
			`{"creation_date": ["Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z], YYYY-MM-DD."],
			  "partner_id": ["A valid integer is required."]}`},
		{"unknown partner", "use_with_service_id/", `{"creation_date": "2026-11-24", "partner_id": 99999999}`,
			`{"partner_id": ["Invalid pk \"99999999\" - object does not exist."]}`},
		{"a refused offer", "use_with_service_id/", fmt.Sprintf(`{"creation_date": "2026-11-24", "partner_id": %d}`, f.refused),
			`{"partner_id": ["This partner has no validated offer in the network voucher's box."]}`},
		{"outside the network", "use_with_service_id/", fmt.Sprintf(`{"creation_date": "2026-11-24", "partner_id": %d}`, f.rival),
			fmt.Sprintf(`{"partner_id": ["Invalid pk \"%d\" - object does not exist."]}`, f.rival)},
		{"expired", "use/", `{"creation_date": "2028-01-01", "partner_source_id": 42}`,
			`{"creation_date": ["This network voucher expired on 2027-11-20T10:00:00Z."]}`},
		{"long comment", "use/", `{"creation_date": "2026-11-24", "partner_source_id": 42, "comment": "` + strings.Repeat("x", 1001) + `"}`,
			`{"comment": ["Ensure this field has no more than 1000 characters."]}`},
		{"not an object", "use/", `[42]`, `{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			WantResponse(t, f.call(t, "POST", spare+tc.path, f.marketTok, tc.body), 400, tc.want)
		})
	}
	if res := f.call(t, "POST", spare+"use/", f.marketTok, `{"creation_date": `); res.Status != 400 || !strings.Contains(res.Body, "JSON parse error") {
		t.Errorf("malformed JSON: %d %s", res.Status, res.Body)
	}
	if res := Do(t, "POST", f.URL+spare+"use/", "x", "Content-Type", "text/plain", "Authorization", "Token "+f.marketTok); res.Status != 415 {
		t.Errorf("text/plain: %d %s", res.Status, res.Body)
	}
	WantResponse(t, f.call(t, "POST", "/api/networkvouchers_by_code/NV-E2E-DRAFT/use/", f.marketTok, `{"creation_date": "2026-11-24", "partner_source_id": 42}`),
		409, `{"detail": "This network voucher cannot be used: its status is draft."}`)
	use := `{"creation_date": "2026-11-24", "partner_source_id": 42}`
	WantResponse(t, f.call(t, "POST", "/api/networkvouchers_by_code/NV-NONE/use/", f.marketTok, use), 404, nvNotFound)
	WantResponse(t, f.call(t, "POST", "/api/networkvouchers_by_code/NV-RIVAL-0001/use/", f.marketTok, use), 404, nvNotFound)
	WantResponse(t, f.call(t, "POST", spare+"use/", f.rivalTok, use), 404, nvNotFound)
	WantResponse(t, f.call(t, "POST", spare+"use/", f.readerTok, use), 403, nvForbidden)
	WantResponse(t, f.call(t, "POST", spare+"use/", "", use), 401, nvNotProvided)
	WantResponse(t, f.call(t, "GET", spare, f.marketTok, ""), 200, jsonOf(t, map[string]any{"id": f.spare, "uuid": f.spareUUID,
		"code": "NV-E2E-0002", "status": "paid", "creation_date": "2026-11-20T10:00:00Z", "expiration_date": "2027-11-20T10:00:00Z",
		"max_usages": 1, "usage_count": 0, "box": f.box, "box_name": "Coffret découverte", "box_price": 89.9, "is_box_active": true,
		"description": "Long fr", "short_description": "Short en", "universes": []any{[]any{"Loisirs", "Châteaux"}}, "tags": []any{}}))

	// Cancels: the count comes back once.
	cancel := fmt.Sprintf("/api/networkvoucher_usages/%d/cancel/", u1)
	first["is_active"] = false
	WantResponse(t, f.call(t, "POST", cancel, f.marketTok, `{"comment": "wrong table"}`), 200, jsonOf(t, first))
	WantResponse(t, f.call(t, "POST", cancel, f.marketTok, ""), 200, jsonOf(t, first))
	WantResponse(t, f.call(t, "GET", code, f.marketTok, ""), 200, jsonOf(t, f.wantVoucherJSON("using", 1)))
	WantResponse(t, f.call(t, "POST", cancel, f.marketTok, `{"comment": ["x"]}`), 400, `{"comment": ["Not a valid string."]}`)
	WantResponse(t, f.call(t, "POST", cancel, f.rivalTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "POST", cancel, f.readerTok, ""), 403, nvForbidden)
	WantResponse(t, f.call(t, "POST", cancel, "", ""), 401, nvNotProvided)
	WantResponse(t, f.call(t, "POST", "/api/networkvoucher_usages/99999999/cancel/", f.marketTok, ""), 404, nvNotFound)
	WantResponse(t, f.call(t, "POST", "/api/networkvoucher_usages/x/cancel/", f.marketTok, ""), 404, nvNotFound)
	f.id(t, "UPDATE network_voucher_usages SET payout_id = 7 WHERE id = ? RETURNING id", u2)
	WantResponse(t, f.call(t, "POST", fmt.Sprintf("/api/networkvoucher_usages/%d/cancel/", u2), f.staffTok, ""), 409,
		`{"detail": "This usage is already in a payout: it cannot be cancelled."}`)
	// The cancelled usage's place is free again.
	usageID(t, f.call(t, "POST", code+"use/", f.marketTok, `{"creation_date": "2026-11-27", "partner_source_id": "42"}`))

	var count, ledger, active int
	gcMust(t, f.db.NewRaw(`SELECT usage_count, (SELECT sum(count) FROM network_voucher_movements WHERE network_voucher_id = v.id),
		(SELECT count(*) FROM network_voucher_usages WHERE network_voucher_id = v.id AND is_active)
		FROM network_vouchers v WHERE id = ?`, f.voucher).Scan(context.Background(), &count, &ledger, &active))
	if count != 2 || ledger != 2 || active != 2 {
		t.Errorf("count %d, ledger %d, active usages %d; want 2", count, ledger, active)
	}
}
