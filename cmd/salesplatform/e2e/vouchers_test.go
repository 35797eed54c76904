package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// avFixture is a running server with:
//   - shop (Europe/Paris) whose user holds permissions.use_voucher, with a
//     "stay" voucher prototype, options, a coupon, customers, a fully
//     populated voucher SHOP-001, a draft SHOP-002 and giftcards;
//   - other, a partner whose user holds no permission, with OTHER-001 and a
//     giftcard;
//   - a staff user.
type avFixture struct {
	*Server
	db                          *bun.DB
	dsn                         string
	shopTok, otherTok, staffTok string
	shopID, otherID             int64
	shopVP, shopGP, otherGP     int64
	opt1, opt2, cat, coupon     int64
	gifter, giftee, v1, g1, g2  int64
	otherG                      int64
}

func (f *avFixture) id(t *testing.T, query string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(query, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return id
}

func (f *avFixture) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	if _, err := f.db.NewRaw(query, args...).Exec(context.Background()); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// voucher inserts a voucher with its code; extra is "col = value, ..." SQL
// for the other columns.
func (f *avFixture) voucher(t *testing.T, code string, prototype int64, cols string, vals ...any) int64 {
	t.Helper()
	f.exec(t, "INSERT INTO gift_codes (code, kind) VALUES (?, 'voucher')", code)
	names, marks := "code, voucher_prototype_id", "?, ?"
	if cols != "" {
		names += ", " + cols
		marks += strings.Repeat(", ?", strings.Count(cols, ",")+1)
	}
	return f.id(t, "INSERT INTO vouchers ("+names+") VALUES ("+marks+") RETURNING id", append([]any{code, prototype}, vals...)...)
}

func (f *avFixture) giftcard(t *testing.T, code string, prototype int64, createdOn, value, remaining string) int64 {
	t.Helper()
	f.exec(t, "INSERT INTO gift_codes (code, kind) VALUES (?, 'giftcard')", code)
	return f.id(t, `INSERT INTO giftcards (code, giftcard_prototype_id, status, value, remaining_value, created_on,
		expires_on, gifter_first_name, gifter_last_name)
		VALUES (?, ?, 'paid', ?, ?, ?, '2027-06-30T22:00:00Z', 'Anne', 'Dupont') RETURNING id`,
		code, prototype, value, remaining, createdOn)
}

func newAVFixture(t *testing.T) *avFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	f := &avFixture{
		shopTok: CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop",
			"--permission", "permissions.use_voucher"),
		otherTok: CreateUser(t, dsn, "--username", "other", "--password", "other-password", "--partner-name", "Other"),
		staffTok: CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff"),
	}
	db, err := persistence.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db, f.dsn = db, dsn
	f.shopID = f.id(t, "SELECT partner_id FROM users WHERE username = 'shop'")
	f.otherID = f.id(t, "SELECT partner_id FROM users WHERE username = 'other'")
	f.exec(t, "UPDATE partners SET time_zone = 'Europe/Paris' WHERE id = ?", f.shopID)
	f.exec(t, "UPDATE partners SET time_zone = 'UTC' WHERE id = ?", f.otherID)
	f.shopVP = f.id(t, `INSERT INTO voucher_prototypes (partner_id, name, description, rent_conditions, type)
		VALUES (?, '{"fr": "Séjour spa", "en": "Spa stay"}', '{"fr": "Deux nuits"}', '{"en": "Book ahead"}', 'stay')
		RETURNING id`, f.shopID)
	otherVP := f.id(t, `INSERT INTO voucher_prototypes (partner_id, name) VALUES (?, '{"en": "Other stay"}') RETURNING id`, f.otherID)
	f.cat = f.id(t, "INSERT INTO option_categories (partner_id, name) VALUES (?, '{\"fr\": \"Repas\"}') RETURNING id", f.shopID)
	f.opt1 = f.id(t, `INSERT INTO options (partner_id, category_id, name, description, price, selling_price, countable,
		is_active, is_global, ranking, source_id)
		VALUES (?, ?, '{"fr": "Petit-déjeuner"}', '{"en": "Breakfast in bed"}', 5.50, 8.00, true, true, false, 2, 'BK')
		RETURNING id`, f.shopID, f.cat)
	f.opt2 = f.id(t, `INSERT INTO options (partner_id, name, source_id) VALUES (?, '{"en": "Welcome drink"}', 'WD') RETURNING id`, f.shopID)
	f.exec(t, `INSERT INTO option_services (option_id, position, service_cost, service_buying_vat, service_selling_vat, service_price)
		VALUES (?, 0, 3.00, 5.5, 10, 8.00)`, f.opt1)
	f.exec(t, "INSERT INTO voucher_prototype_options (voucher_prototype_id, option_id, count, included) VALUES (?, ?, 2, false), (?, ?, 1, true)",
		f.shopVP, f.opt1, f.shopVP, f.opt2)
	f.gifter = f.id(t, "INSERT INTO customers (partner_id, first_name, last_name, email) VALUES (?, 'Jean', 'Valjean', 'jean@example.com') RETURNING id", f.shopID)
	f.giftee = f.id(t, "INSERT INTO customers (partner_id, first_name, last_name, email) VALUES (?, 'Cosette', 'Fauchelevent', 'cosette@example.com') RETURNING id", f.shopID)
	f.coupon = f.id(t, `INSERT INTO coupons (partner_id, code, discount_text, discount, discount_type, number_of_usage,
		max_usage, start_date, end_date, voucher_prototypes_ids, giftcode, activate_for_vouchers)
		VALUES (?, 'SPRING', '10% off', 10, 'percentage', 3, 100, '2026-03-01T00:00:00Z', '2026-06-01T00:00:00Z', ARRAY[?]::bigint[],
		'GC', true) RETURNING id`, f.shopID, f.shopVP)
	f.v1 = f.voucher(t, "SHOP-001", f.shopVP, `state, total_price, creation_date, expiration_date, summary, origin,
		origin_url, type, api_version, language, imported_from, payment_type, nb_nights, nb_babies, nb_children, nb_adults,
		reception_mode, expedition_status, expedition_date, cover_letter_url, printable_pdf_file, gifter_id,
		gifter_civility, gifter_first_name, gifter_last_name, gifter_email, gifter_address, gifter_zipcode, gifter_city,
		gifter_country, gifter_wired_phone, gifter_mobile_phone, self_gifted, from_gifter, giftee_id, giftee_first_name,
		giftee_last_name, giftee_email, giftee_phone_number, recipient_address, to_giftee, message, purchase_price,
		rent_price, bought_rent_price, activation_date, is_group_payment, is_extendable, is_refundable, coupon_id`,
		"paid", "216.00", "2026-03-10T09:30:00Z", "2030-01-01T00:00:00Z", "Two nights", "web",
		"https://shop.example.com/offers?utm=x", 2, 3, "en", "legacy", "card", 2, 1, 1, 2,
		4, "sent", "2026-03-11T08:00:00Z", "https://cdn.example.com/letter.pdf", "https://cdn.example.com/v.pdf", f.gifter,
		"M.", "Jean", "Valjean", "jean@example.com", "1 rue Haute", 75001, "Paris",
		"France", "0102030405", "0602030405", false, "Jean", f.giftee, "Cosette",
		"Fauchelevent", "cosette@example.com", "0700000000", "2 rue Basse", "Cosette", "Enjoy!", "180.00",
		"150.00", "140.00", "2026-03-10T09:31:00Z", true, true, false, f.coupon)
	f.exec(t, "INSERT INTO voucher_options (voucher_id, option_id, count, total_price) VALUES (?, ?, 2, 16.00)", f.v1, f.opt1)
	// 23:30 UTC on the 11th is the 12th in Paris.
	f.voucher(t, "SHOP-002", f.shopVP, "state, total_price, creation_date, gifter_first_name, gifter_email, giftee_last_name, origin_url",
		"draft", "10.00", "2026-03-11T23:30:00Z", "Zoé", "zoe@example.org", "Martin", "https://a.example/50%_off")
	f.voucher(t, "OTHER-001", otherVP, "state, total_price, creation_date", "paid", "99.00", "2026-03-10T12:00:00Z")
	f.shopGP = f.id(t, "INSERT INTO giftcard_prototypes (partner_id) VALUES (?) RETURNING id", f.shopID)
	f.otherGP = f.id(t, "INSERT INTO giftcard_prototypes (partner_id) VALUES (?) RETURNING id", f.otherID)
	f.g1 = f.giftcard(t, "GC-SHOP-1", f.shopGP, "2026-03-10T09:30:00Z", "50.00", "20.50")
	f.g2 = f.giftcard(t, "GC-SHOP-2", f.shopGP, "2026-03-12T10:00:00Z", "100.00", "100.00")
	f.otherG = f.giftcard(t, "GC-OTHER-1", f.otherGP, "2026-03-10T09:30:00Z", "30.00", "30.00")
	f.Server = Serve(t, dsn)
	return f
}

// avQuery escapes the values of a readable query "a=b c&d=e".
func avQuery(raw string) string {
	var parts []string
	for kv := range strings.SplitSeq(raw, "&") {
		k, v, _ := strings.Cut(kv, "=")
		parts = append(parts, k+"="+url.QueryEscape(v))
	}
	return strings.Join(parts, "&")
}

func (f *avFixture) get(t *testing.T, path, token string) Response {
	t.Helper()
	if token == "" {
		return Do(t, "GET", f.URL+path, "")
	}
	return Do(t, "GET", f.URL+path, "", auth(token)...)
}

// codes lists the codes of a page's results.
func avCodes(t *testing.T, r Response) []string {
	t.Helper()
	var page struct {
		Results []struct {
			Code string `json:"code"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(r.Body), &page); err != nil {
		t.Fatalf("%s: %v", r.Body, err)
	}
	out := []string{}
	for _, v := range page.Results {
		out = append(out, v.Code)
	}
	return out
}

// avLangs writes prefix_<lang> for the eight languages, the given ones set.
func avLangs(prefix string, texts map[string]string) string {
	var parts []string
	for _, l := range []string{"fr", "en", "es", "it", "de", "nl", "ca", "pt"} {
		v := "null"
		if s, ok := texts[l]; ok {
			v = fmt.Sprintf("%q", s)
		}
		parts = append(parts, fmt.Sprintf("%q: %s", prefix+"_"+l, v))
	}
	return strings.Join(parts, ", ")
}

func (f *avFixture) wantV1(changes string) string {
	return fmt.Sprintf(`{
		"id": %d, "code": "SHOP-001", "summary": "Two nights", "origin": "web", "voucher_prototype": %d,
		"voucher_prototype_type": 2, "type": 2, "api_version": 3, "language": "en", "imported_from": "legacy",
		"payment_type": "card",
		"voucher_prototype_name": "Spa stay", %s, %s, %s,
		"nb_nights": 2, "nb_babies": 1, "nb_children": 1, "nb_adults": 2,
		"options": [{"count": 2, "total_price": 16, "option": {"id": %d, %s, %s, "has_been_ordered": true,
			"countable": true, "services_info": [{"service_cost": 3, "service_buying_vat": 5.5,
			"service_selling_vat": 10, "service_price": 8}], "price": 5.5, "selling_price": 8, "is_active": true,
			"is_global": false, "ranking": 2, "category": %d, "voucher_prototypes": [{"id": %d}]}}],
		"voucher_prototype_included_options": [{"count": 1, "option": {%s, "source_id": "WD"}}],
		"reception_mode": 4, "reception_mode_display": "Postal mail to the beneficiary", "expedition_status": "sent",
		"expedition_date": "2026-03-11T09:00:00+01:00", "cover_letter_url": "https://cdn.example.com/letter.pdf",
		"printable_pdf_file": "https://cdn.example.com/v.pdf",
		"gifter": %d, "gifter_civility": "M.", "gifter_first_name": "Jean", "gifter_last_name": "Valjean",
		"gifter_fullname": "Jean Valjean", "gifter_address": "1 rue Haute", "gifter_email": "jean@example.com",
		"gifter_zipcode": 75001, "gifter_city": "Paris", "gifter_country": "France",
		"gifter_wired_phone": "0102030405", "gifter_mobile_phone": "0602030405", "self_gifted": false,
		"from_gifter": "Jean",
		"giftee": %d, "giftee_first_name": "Cosette", "giftee_last_name": "Fauchelevent",
		"giftee_email": "cosette@example.com", "giftee_phone_number": "0700000000", "recipient_address": "2 rue Basse",
		"to_giftee": "Cosette", "message": "Enjoy!",
		"total_price": "216.00", "purchase_price": "180.00", "rent_price": "150.00", "bought_rent_price": "140.00",
		"creation_date": "2026-03-10T10:30:00+01:00", "activation_date": "2026-03-10T10:31:00+01:00",
		"usage_date": %s, "expiration_date": "2030-01-01T01:00:00+01:00", "expiration_date_display": "2030-01-01",
		"state": %s, "is_group_payment": true, "is_usable": %s, "is_extendable": true, "is_refundable": false,
		"rentals": [], "coupon": "SPRING", "coupon_details": "10%% off",
		"coupon_for_email_details": {"id": %d, "valid": true, "discount_text": "10%% off", "number_of_usage": 3,
			"new_validity_period": "", "booking_engine_id": "", "is_activated": true, "code": "SPRING",
			"type": "discount", "start": "2026-03-01T01:00:00+01:00", "end": "2026-06-01T02:00:00+02:00",
			"discount": "10.00", "discount_type": "percentage", "is_value_increased": false,
			"is_value_increased_multiple_times": false, "max_usage": 100,
			"voucher_prototypes_ids": [%d], "cnc_offers_ids": [], "eshop_products_ids": [],
			"experience_offers_ids": [], "workshops_ids": [], "workshop_categories_ids": [], "events_ids": [],
			"flashsales_offers_ids": [], "payment_amount_condition_minimum": "", "giftcode": "GC",
			"email_condition": "", "price_condition_min_amount": "", "product_condition_min_amount": "",
			"activate_for_vouchers": true, "activate_for_giftcards": false, "activate_for_clickandcollect": false,
			"activate_for_ecommerce": false, "activate_for_experiences": false, "activate_for_tickets_events": false,
			"activate_for_workshops": false, "activate_for_flashsales": false, "activate_for_moneypot": false,
			"activate_for_network_giftcards": false, "activate_for_network_vouchers": false,
			"offer_delivery_cost_clickandcollect": false, "print_at_home_reception_mode": false,
			"expedition_reception_mode": false, "giftee_email_reception_mode": false,
			"postal_mail_to_beneficiary_reception_mode": false, "on_site_expedition_mode": false, "partner": %d}
	}`, f.v1, f.shopVP,
		avLangs("voucher_prototype_name", map[string]string{"fr": "Séjour spa", "en": "Spa stay"}),
		avLangs("voucher_prototype_description", map[string]string{"fr": "Deux nuits"}),
		avLangs("voucher_prototype_rent_conditions", map[string]string{"en": "Book ahead"}),
		f.opt1, avLangs("name", map[string]string{"fr": "Petit-déjeuner"}),
		avLangs("description", map[string]string{"en": "Breakfast in bed"}), f.cat, f.shopVP,
		avLangs("name", map[string]string{"en": "Welcome drink"}),
		f.gifter, f.giftee, changes, `"paid"`, "true", f.coupon, f.shopVP, f.shopID)
}

func TestAdminVouchersREST(t *testing.T) {
	t.Parallel()
	f := newAVFixture(t)

	t.Run("Auth", func(t *testing.T) {
		WantResponse(t, f.get(t, "/api/vouchers/", ""), 401, `{"detail": "Authentication credentials were not provided."}`)
		WantResponse(t, f.get(t, "/api/vouchers/", "bad-token"), 401, `{"detail": "Invalid token."}`)
		WantResponse(t, f.get(t, "/api/giftcards/", ""), 401, "")
		// The token check: any partner member gets 200.
		WantResponse(t, f.get(t, "/api/vouchers/", f.otherTok), 200, "")
	})

	t.Run("Detail", func(t *testing.T) {
		WantResponse(t, f.get(t, "/api/vouchers/SHOP-001/", f.shopTok), 200, f.wantV1("null"))
		WantResponse(t, f.get(t, "/api/vouchers/SHOP-001", f.staffTok), 200, f.wantV1("null"))
		WantResponse(t, f.get(t, "/api/vouchers/SHOP-001/", f.otherTok), 404, `{"detail": "Not found."}`)
		WantResponse(t, f.get(t, "/api/vouchers/NOPE/", f.shopTok), 404, `{"detail": "Not found."}`)
		WantResponse(t, f.get(t, "/api/vouchers/%25%25/", f.shopTok), 404, `{"detail": "Not found."}`)
	})

	t.Run("ListPage", func(t *testing.T) {
		r := f.get(t, "/api/vouchers/?page_size=1", f.shopTok)
		WantResponse(t, r, 200, "")
		m := r.JSON(t)
		if m["count"] != float64(2) || m["has_next"] != true || m["has_previous"] != false || m["current_page"] != float64(1) ||
			fmt.Sprint(m["page_range"]) != "[1 2]" || m["previous"] != nil {
			t.Errorf("page 1 = %s", r.Body)
		}
		if got := avCodes(t, r); fmt.Sprint(got) != "[SHOP-002]" {
			t.Errorf("page 1 codes = %v (newest first)", got)
		}
		r = f.get(t, "/api/vouchers/?page_size=1&page=2", f.shopTok)
		m = r.JSON(t)
		if m["has_next"] != false || m["has_previous"] != true || m["previous"] == nil || fmt.Sprint(avCodes(t, r)) != "[SHOP-001]" {
			t.Errorf("page 2 = %s", r.Body)
		}
		WantResponse(t, f.get(t, "/api/vouchers/?page_size=1&page=3", f.shopTok), 404, `{"detail": "Invalid page."}`)
		// The first result is the whole record.
		var page struct {
			Results []json.RawMessage `json:"results"`
		}
		_ = json.Unmarshal([]byte(r.Body), &page)
		WantJSON(t, page.Results[0], f.wantV1("null"))
		// Staff see every partner's.
		if got := avCodes(t, f.get(t, "/api/vouchers/?ordering=code", f.staffTok)); fmt.Sprint(got) != "[OTHER-001 SHOP-001 SHOP-002]" {
			t.Errorf("staff list = %v", got)
		}
		if got := avCodes(t, f.get(t, "/api/vouchers/", f.otherTok)); fmt.Sprint(got) != "[OTHER-001]" {
			t.Errorf("other list = %v", got)
		}
	})

	t.Run("Filters", func(t *testing.T) {
		for _, c := range []struct{ query, want string }{
			{"code=shop-00", "[SHOP-002 SHOP-001]"},
			{"code=001", "[SHOP-001]"},
			{"voucher_prototype_name=SÉJOUR", "[SHOP-002 SHOP-001]"},
			{"voucher_prototype_name=spa st", "[SHOP-002 SHOP-001]"},
			{"voucher_prototype_name=other", "[]"},
			{"gifter=valj", "[SHOP-001]"},
			{"gifter=ZOE@EXAMPLE", "[SHOP-002]"},
			{"gifter=zoé", "[SHOP-002]"},
			{"giftee=cosette", "[SHOP-001]"},
			{"giftee=martin", "[SHOP-002]"},
			{"origin_url=50%_off", "[SHOP-002]"},
			{"origin_url=%", "[SHOP-002]"}, // a literal %, not a wildcard
			{"origin_url=_", "[SHOP-002]"}, // a literal _
			{"origin_url=utm=x", "[SHOP-001]"},
			{"creation_date__gte=2026-03-12", "[SHOP-002]"}, // the 12th in Paris
			{"creation_date__lte=2026-03-11", "[SHOP-001]"},
			{"creation_date__lte=2026-03-12", "[SHOP-002 SHOP-001]"},
			{"creation_date__gte=2026-03-10T10:30:00+01:00", "[SHOP-002 SHOP-001]"},
			{"creation_date__gte=2026-03-10T10:30:01+01:00", "[SHOP-002]"},
			{"creation_date__lte=2026-03-10T09:30:00Z", "[SHOP-001]"},
			{"creation_date__range=2026-03-10,2026-03-11", "[SHOP-001]"},
			{"creation_date__range=2026-03-12,2026-03-12", "[SHOP-002]"},
			{"creation_date__range=2026-03-13,2026-03-20", "[]"},
			{"ordering=code", "[SHOP-001 SHOP-002]"},
			{"ordering=-code", "[SHOP-002 SHOP-001]"},
			{"ordering=total_price", "[SHOP-002 SHOP-001]"},
			{"ordering=-total_price", "[SHOP-001 SHOP-002]"},
			{"ordering=state", "[SHOP-002 SHOP-001]"},
			{"ordering=creation_date", "[SHOP-001 SHOP-002]"},
			{"ordering=expiration_date", "[SHOP-001 SHOP-002]"}, // nulls last
			{"ordering=-id", "[SHOP-002 SHOP-001]"},
		} {
			r := f.get(t, "/api/vouchers/?"+avQuery(c.query), f.shopTok)
			if r.Status != 200 || fmt.Sprint(avCodes(t, r)) != c.want {
				t.Errorf("?%s: %d %v, want %s (%s)", c.query, r.Status, avCodes(t, r), c.want, r.Body)
			}
		}
	})

	t.Run("BadQuery", func(t *testing.T) {
		for _, c := range []struct{ query, body string }{
			{"ordering=gifter_email", `{"ordering": ["Select a valid choice. gifter_email is not one of the available choices."]}`},
			{"ordering=code;DROP TABLE vouchers", `{"ordering": ["Select a valid choice. code;DROP TABLE vouchers is not one of the available choices."]}`},
			{"creation_date__gte=yesterday", `{"creation_date__gte": ["Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm])."]}`},
			{"creation_date__lte=2026-13-01", `{"creation_date__lte": ["Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm])."]}`},
			{"creation_date__range=2026-03-01", `{"creation_date__range": ["Enter two dates separated by a comma."]}`},
			{"creation_date__range=2026-03-01,x", `{"creation_date__range": ["Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm])."]}`},
			// Dates PostgreSQL cannot store (no year 0) are the client's 400.
			{"creation_date__gte=0001-01-01", `{"creation_date__gte": ["Enter a date between 0001-01-01 and 9999-12-31 (UTC)."]}`},
			{"creation_date__lte=0001-01-01T00:00:00+14:00", `{"creation_date__lte": ["Enter a date between 0001-01-01 and 9999-12-31 (UTC)."]}`},
			{"creation_date__range=0001-01-01,2026-01-01", `{"creation_date__range": ["Enter a date between 0001-01-01 and 9999-12-31 (UTC)."]}`},
			{"creation_date__range=2026-01-01,0000-01-01", `{"creation_date__range": ["Enter a date between 0001-01-01 and 9999-12-31 (UTC)."]}`},
			{"code=" + strings.Repeat("a", 256), `{"code": ["Ensure this field has no more than 255 characters."]}`},
			{"gifter=" + strings.Repeat("é", 256), `{"gifter": ["Ensure this field has no more than 255 characters."]}`},
		} {
			WantResponse(t, f.get(t, "/api/vouchers/?"+avQuery(c.query), f.shopTok), 400, c.body)
		}
		WantResponse(t, f.get(t, "/api/giftcards/?ordering=gifter_first_name", f.shopTok), 400,
			`{"ordering": ["Select a valid choice. gifter_first_name is not one of the available choices."]}`)
		WantResponse(t, f.get(t, "/api/giftcards/?created_on__gte=03/10/2026", f.shopTok), 400,
			`{"created_on__gte": ["Enter a valid date or date/time (YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][±hh:mm])."]}`)
		WantResponse(t, f.get(t, "/api/giftcards/?created_on__range=0001-01-01,0001-01-02", f.shopTok), 400,
			`{"created_on__range": ["Enter a date between 0001-01-01 and 9999-12-31 (UTC)."]}`)
		// The latest storable day is a bound.
		if r := f.get(t, "/api/vouchers/?creation_date__lte=9999-12-31", f.shopTok); r.Status != 200 {
			t.Errorf("creation_date__lte=9999-12-31: %d %s", r.Status, r.Body)
		}
	})

	t.Run("Giftcards", func(t *testing.T) {
		g1 := fmt.Sprintf(`{"id": %d, "code": "GC-SHOP-1", "status": "paid", "created_on": "2026-03-10T10:30:00+01:00",
			"expires_on": "2027-07-01T00:00:00+02:00", "value": "50.00", "remaining_value": "20.50",
			"gifter_first_name": "Anne", "gifter_last_name": "Dupont"}`, f.g1)
		WantResponse(t, f.get(t, fmt.Sprintf("/api/giftcards/%d/", f.g1), f.shopTok), 200, g1)
		WantResponse(t, f.get(t, "/api/giftcards_by_code/GC-SHOP-1/", f.shopTok), 200, g1)
		WantResponse(t, f.get(t, "/api/giftcards_by_code/GC-SHOP-1/", f.staffTok), 200, g1)
		WantResponse(t, f.get(t, fmt.Sprintf("/api/giftcards/%d/", f.g1), f.otherTok), 404, `{"detail": "Not found."}`)
		WantResponse(t, f.get(t, "/api/giftcards_by_code/GC-SHOP-1/", f.otherTok), 404, `{"detail": "Not found."}`)
		WantResponse(t, f.get(t, "/api/giftcards/abc/", f.shopTok), 404, `{"detail": "Not found."}`)
		WantResponse(t, f.get(t, "/api/giftcards/99999/", f.shopTok), 404, `{"detail": "Not found."}`)
		WantResponse(t, f.get(t, "/api/giftcards_by_code/GC-SHOP-1/", ""), 401, "")

		r := f.get(t, "/api/giftcards/", f.shopTok)
		WantResponse(t, r, 200, fmt.Sprintf(`{"count": 2, "previous": null, "has_previous": false, "has_next": false,
			"current_page": 1, "page_range": [1], "results": [{"id": %d, "code": "GC-SHOP-2", "status": "paid",
			"created_on": "2026-03-12T11:00:00+01:00", "expires_on": "2027-07-01T00:00:00+02:00", "value": "100.00",
			"remaining_value": "100.00", "gifter_first_name": "Anne", "gifter_last_name": "Dupont"}, %s]}`, f.g2, g1))
		for _, c := range []struct{ query, want string }{
			{"ordering=created_on", "[GC-SHOP-1 GC-SHOP-2]"},
			{"ordering=-remaining_value", "[GC-SHOP-2 GC-SHOP-1]"},
			{"ordering=code", "[GC-SHOP-1 GC-SHOP-2]"},
			{"created_on__gte=2026-03-11", "[GC-SHOP-2]"},
			{"created_on__lte=2026-03-11", "[GC-SHOP-1]"},
			{"created_on__range=2026-03-10,2026-03-10", "[GC-SHOP-1]"},
			{"page_size=1&page=2", "[GC-SHOP-1]"},
		} {
			r := f.get(t, "/api/giftcards/?"+avQuery(c.query), f.shopTok)
			if r.Status != 200 || fmt.Sprint(avCodes(t, r)) != c.want {
				t.Errorf("giftcards ?%s: %d %v, want %s", c.query, r.Status, avCodes(t, r), c.want)
			}
		}
		if got := avCodes(t, f.get(t, "/api/giftcards/?ordering=code", f.staffTok)); fmt.Sprint(got) != "[GC-OTHER-1 GC-SHOP-1 GC-SHOP-2]" {
			t.Errorf("staff giftcards = %v", got)
		}
	})
}

func (f *avFixture) patch(t *testing.T, code, body, token string) Response {
	t.Helper()
	return Do(t, "PATCH", f.URL+"/api/vouchers/"+url.PathEscape(code)+"/", body, auth(token)...)
}

func (f *avFixture) changes(t *testing.T, code string) int64 {
	t.Helper()
	return f.id(t, "SELECT count(*) FROM voucher_state_changes c JOIN vouchers v ON v.id = c.voucher_id WHERE v.code = ?", code)
}

func TestAdminVoucherStateUpdate(t *testing.T) {
	t.Parallel()
	f := newAVFixture(t)

	WantResponse(t, Do(t, "PATCH", f.URL+"/api/vouchers/SHOP-002/", `{"state": "paid"}`), 401, "")
	// other holds no use_voucher: 403, even for its own voucher.
	WantResponse(t, f.patch(t, "OTHER-001", `{"state": "used"}`, f.otherTok), 403,
		`{"detail": "You do not have permission to perform this action."}`)
	WantResponse(t, f.patch(t, "OTHER-001", `{"state": "used"}`, f.shopTok), 404, `{"detail": "Not found."}`)
	WantResponse(t, f.patch(t, "SHOP-002", `{"state": "x"}`, f.shopTok), 400, `{"state": ["\"x\" is not a valid choice."]}`)
	WantResponse(t, f.patch(t, "SHOP-002", `{}`, f.shopTok), 400, `{"state": ["This field is required."]}`)
	WantResponse(t, f.patch(t, "SHOP-002", `{"state": 3}`, f.shopTok), 400, `{"state": ["Not a valid string."]}`)
	WantResponse(t, f.patch(t, "SHOP-002", `{"state": null}`, f.shopTok), 400, `{"state": ["This field may not be null."]}`)
	WantResponse(t, f.patch(t, "SHOP-002", `["used"]`, f.shopTok), 400,
		`{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`)
	WantResponse(t, f.patch(t, "SHOP-002", `{"state": "used"}`, f.shopTok), 400,
		`{"state": ["Cannot change a voucher from \"draft\" to \"used\"."]}`)
	if n := f.changes(t, "SHOP-002"); n != 0 {
		t.Fatalf("%d state changes written by rejected updates", n)
	}

	// draft → paid sets the activation date and records who.
	r := f.patch(t, "SHOP-002", `{"state": "paid"}`, f.shopTok)
	WantResponse(t, r, 200, "")
	m := r.JSON(t)
	if m["state"] != "paid" || m["activation_date"] == nil || m["usage_date"] != nil || m["is_usable"] != true || m["code"] != "SHOP-002" {
		t.Errorf("after paid: %s", r.Body)
	}
	shopUser := f.id(t, "SELECT id FROM users WHERE username = 'shop'")
	if n := f.id(t, `SELECT count(*) FROM voucher_state_changes c JOIN vouchers v ON v.id = c.voucher_id
		WHERE v.code = 'SHOP-002' AND c.from_state = 'draft' AND c.to_state = 'paid' AND c.user_id = ?`, shopUser); n != 1 {
		t.Errorf("state change rows = %d", n)
	}
	// The same state is a no-op.
	WantResponse(t, f.patch(t, "SHOP-002", `{"state": "paid"}`, f.shopTok), 200, "")
	if n := f.changes(t, "SHOP-002"); n != 1 {
		t.Errorf("a no-op wrote a change: %d", n)
	}
	// paid → used sets the usage date; used is final.
	r = f.patch(t, "SHOP-002", `{"state": "used"}`, f.shopTok)
	m = r.JSON(t)
	if r.Status != 200 || m["state"] != "used" || m["usage_date"] == nil || m["is_usable"] != false {
		t.Errorf("after used: %s", r.Body)
	}
	WantResponse(t, f.patch(t, "SHOP-002", `{"state": "paid"}`, f.shopTok), 400,
		`{"state": ["Cannot change a voucher from \"used\" to \"paid\"."]}`)
	version := f.id(t, "SELECT version FROM vouchers WHERE code = 'SHOP-002'")
	if n := f.changes(t, "SHOP-002"); n != 2 || version != 3 {
		t.Errorf("changes = %d, version = %d; want 2, 3", n, version)
	}

	// An expired voucher is never used.
	f.exec(t, "UPDATE vouchers SET expiration_date = '2020-01-01T00:00:00Z' WHERE code = 'SHOP-001'")
	WantResponse(t, f.patch(t, "SHOP-001", `{"state": "used"}`, f.staffTok), 400,
		`{"state": ["Cannot use a voucher that expired on 2020-01-01."]}`)
	r = f.patch(t, "SHOP-001", `{"state": "exprd"}`, f.staffTok)
	if r.Status != 200 || r.JSON(t)["state"] != "exprd" {
		t.Errorf("expire: %s", r.Body)
	}

	// Of two concurrent changes only one is made.
	for i := range 5 {
		code := fmt.Sprintf("RACE-%d", i)
		f.voucher(t, code, f.shopVP, "state", "paid")
		results := make([]Response, 2)
		var wg sync.WaitGroup
		for j, to := range []string{"used", "exprd"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[j] = f.patch(t, code, `{"state": "`+to+`"}`, f.shopTok)
			}()
		}
		wg.Wait()
		ok := 0
		for _, res := range results {
			switch res.Status {
			case 200:
				ok++
			case 400, 409:
			default:
				t.Errorf("%s: unexpected %d %s", code, res.Status, res.Body)
			}
		}
		if ok != 1 || f.changes(t, code) != 1 {
			t.Errorf("%s: %d successes, %d changes; want 1, 1 (%v)", code, ok, f.changes(t, code), results)
		}
	}
}

// avGraph runs a GraphQL operation over HTTP and returns the body.
func (f *avFixture) graph(t *testing.T, token, query string, vars map[string]any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	headers := []string{}
	if token != "" {
		headers = auth(token)
	}
	r := Do(t, "POST", f.URL+"/graphql", string(body), headers...)
	if r.Status != 200 {
		t.Fatalf("graphql status %d: %s", r.Status, r.Body)
	}
	return r.JSON(t)
}

func avErrorCode(m map[string]any) string {
	errs, _ := m["errors"].([]any)
	if len(errs) != 1 {
		return fmt.Sprint(m)
	}
	ext, _ := errs[0].(map[string]any)["extensions"].(map[string]any)
	return fmt.Sprint(ext["code"])
}

func TestAdminVouchersGraph(t *testing.T) {
	t.Parallel()
	f := newAVFixture(t)
	const list = `query($f: AdminVoucherFilter, $o: [AdminVoucherOrder!], $first: Int, $after: String) {
		adminVouchers(filter: $f, orderBy: $o, first: $first, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } edges { node { code } } } }`

	// Keyset cursors: the voucher's id.
	v2 := f.id(t, "SELECT id FROM vouchers WHERE code = 'SHOP-002'")
	m := f.graph(t, f.shopTok, list, map[string]any{"first": 1})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"adminVouchers": {"totalCount": 2, "pageInfo": {"hasNextPage": true, "endCursor": %q},
		"edges": [{"node": {"code": "SHOP-002"}}]}}`, keyCursor(v2)))
	m = f.graph(t, f.shopTok, list, map[string]any{"first": 1, "after": keyCursor(v2)})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"adminVouchers": {"totalCount": 2, "pageInfo": {"hasNextPage": false, "endCursor": %q},
		"edges": [{"node": {"code": "SHOP-001"}}]}}`, keyCursor(f.v1)))
	m = f.graph(t, f.shopTok, list, map[string]any{"f": map[string]any{"gifter": "valjean", "creationDateLte": "2026-03-11"},
		"o": []any{map[string]any{"field": "CODE", "direction": "DESC"}}})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"adminVouchers": {"totalCount": 1, "pageInfo": {"hasNextPage": false, "endCursor": %q},
		"edges": [{"node": {"code": "SHOP-001"}}]}}`, keyCursor(f.v1)))
	m = f.graph(t, f.shopTok, list, map[string]any{"f": map[string]any{"creationDateGte": "soon"}})
	if avErrorCode(m) != "BAD_USER_INPUT" || !strings.Contains(fmt.Sprint(m["errors"]), "filter.creationDateGte") {
		t.Errorf("bad date: %v", m)
	}
	if m = f.graph(t, "", list, nil); avErrorCode(m) != "UNAUTHENTICATED" {
		t.Errorf("no token: %v", m)
	}

	const one = `query($code: String!) { adminVoucher(code: $code) { id: legacyId code state totalPrice voucherPrototypeType
		voucherPrototypeName { fr en } creationDate expirationDate isUsable receptionModeDisplay gifterFullname
		options { optionId name { fr } count totalPrice price sellingPrice categoryId voucherPrototypeIds
			services { cost buyingVat sellingVat price } }
		includedOptions { name { en } sourceId count }
		coupon { code discount discountType start }
		stateChanges { from to changedAt } } }`
	m = f.graph(t, f.shopTok, one, map[string]any{"code": "SHOP-001"})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"adminVoucher": {"id": "%d", "code": "SHOP-001", "state": "PAID",
		"totalPrice": "216.00", "voucherPrototypeType": 2, "voucherPrototypeName": {"fr": "Séjour spa", "en": "Spa stay"},
		"creationDate": "2026-03-10T10:30:00+01:00", "expirationDate": "2030-01-01T01:00:00+01:00", "isUsable": true,
		"receptionModeDisplay": "Postal mail to the beneficiary", "gifterFullname": "Jean Valjean",
		"options": [{"optionId": "%d", "name": {"fr": "Petit-déjeuner"}, "count": 2, "totalPrice": "16.00",
			"price": "5.50", "sellingPrice": "8.00", "categoryId": "%d", "voucherPrototypeIds": ["%d"],
			"services": [{"cost": "3.00", "buyingVat": "5.50", "sellingVat": "10.00", "price": "8.00"}]}],
		"includedOptions": [{"name": {"en": "Welcome drink"}, "sourceId": "WD", "count": 1}],
		"coupon": {"code": "SPRING", "discount": "10.00", "discountType": "percentage", "start": "2026-03-01T01:00:00+01:00"},
		"stateChanges": []}}`, f.v1, f.opt1, f.cat, f.shopVP))
	if m = f.graph(t, f.otherTok, one, map[string]any{"code": "SHOP-001"}); avErrorCode(m) != "NOT_FOUND" {
		t.Errorf("other's voucher: %v", m)
	}

	const update = `mutation($code: String!, $state: VoucherState!) { updateVoucherState(input: {code: $code, state: $state}) {
		voucher { state stateChanges { from to userId } } userErrors { field code message } errors { field code message } } }`
	m = f.graph(t, f.shopTok, update, map[string]any{"code": "SHOP-002", "state": "USED"})
	WantJSON(t, mustJSON(t, m["data"]), `{"updateVoucherState": {"voucher": null, "userErrors": [{"field": ["state"],
		"code": "invalid_state", "message": "Cannot change a voucher from \"draft\" to \"used\"."}],
		"errors": [{"field": ["input", "state"], "code": "INVALID_STATE", "message": "Cannot change a voucher from \"draft\" to \"used\"."}]}}`)
	shopUser := f.id(t, "SELECT id FROM users WHERE username = 'shop'")
	m = f.graph(t, f.shopTok, update, map[string]any{"code": "SHOP-002", "state": "ERROR"})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"updateVoucherState": {"voucher": {"state": "ERROR",
		"stateChanges": [{"from": "DRAFT", "to": "ERROR", "userId": "%d"}]}, "userErrors": [], "errors": []}}`, shopUser))
	if m = f.graph(t, f.otherTok, update, map[string]any{"code": "OTHER-001", "state": "USED"}); avErrorCode(m) != "FORBIDDEN" {
		t.Errorf("without use_voucher: %v", m)
	}

	const giftcards = `query($o: [AdminGiftcardOrder!], $f: AdminGiftcardFilter) { adminGiftcards(orderBy: $o, filter: $f) {
		totalCount edges { node { code value remainingValue createdOn expiresOn gifterFirstName } } } }`
	m = f.graph(t, f.shopTok, giftcards, map[string]any{"o": []any{map[string]any{"field": "CREATED_ON"}},
		"f": map[string]any{"createdOnLte": "2026-03-10"}})
	WantJSON(t, mustJSON(t, m["data"]), `{"adminGiftcards": {"totalCount": 1, "edges": [{"node": {"code": "GC-SHOP-1",
		"value": "50.00", "remainingValue": "20.50", "createdOn": "2026-03-10T10:30:00+01:00",
		"expiresOn": "2027-07-01T00:00:00+02:00", "gifterFirstName": "Anne"}}]}}`)
	const gc = `query($id: ID, $code: String) { adminGiftcard(id: $id, code: $code) { id: legacyId code } }`
	m = f.graph(t, f.shopTok, gc, map[string]any{"id": fmt.Sprint(f.g1)})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"adminGiftcard": {"id": "%d", "code": "GC-SHOP-1"}}`, f.g1))
	m = f.graph(t, f.shopTok, `query($id: ID) { adminGiftcard(id: $id) { partnerId partner { id: legacyId name } } }`, map[string]any{"id": fmt.Sprint(f.g1)})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"adminGiftcard": {"partnerId": "%[1]d", "partner": {"id": "%[1]d", "name": "Shop"}}}`, f.shopID))
	m = f.graph(t, f.shopTok, gc, map[string]any{"code": "GC-SHOP-2"})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"adminGiftcard": {"id": "%d", "code": "GC-SHOP-2"}}`, f.g2))
	if m = f.graph(t, f.shopTok, gc, map[string]any{"code": "GC-OTHER-1"}); avErrorCode(m) != "NOT_FOUND" {
		t.Errorf("other's giftcard: %v", m)
	}
	if m = f.graph(t, f.shopTok, gc, nil); avErrorCode(m) != "BAD_USER_INPUT" {
		t.Errorf("neither id nor code: %v", m)
	}
}

func TestAdminIssueGraph(t *testing.T) {
	t.Parallel()
	f := newAVFixture(t)
	const issue = `mutation($in: IssueVoucherInput!) { issueVoucher(input: $in) {
		voucher { code state totalPrice currencyCode language languageCode gifterFirstName gifteeEmail nbAdults activationDate
			options { optionId count totalPrice } }
		userErrors { field code message } errors { field code message } } }`
	in := map[string]any{"voucherPrototypeId": fmt.Sprint(f.shopVP), "totalPrice": "120.00", "languageCode": "EN",
		"gifterFirstName": " Victor ", "gifteeEmail": "marius@example.com", "nbAdults": 2,
		"options": []any{map[string]any{"optionId": fmt.Sprint(f.opt1), "count": 1, "totalPrice": "8.00"}}}
	if m := f.graph(t, f.shopTok, issue, map[string]any{"in": in}); avErrorCode(m) != "FORBIDDEN" {
		t.Errorf("partner issuing: %v", m)
	}
	m := f.graph(t, f.staffTok, issue, map[string]any{"in": in})
	data := m["data"].(map[string]any)["issueVoucher"].(map[string]any)
	v, _ := data["voucher"].(map[string]any)
	if v == nil || v["state"] != "PAID" || v["totalPrice"] != "120.00" || v["currencyCode"] != "EUR" ||
		v["language"] != "en" || v["languageCode"] != "EN" || v["gifterFirstName"] != "Victor" ||
		v["gifteeEmail"] != "marius@example.com" || v["nbAdults"] != float64(2) || v["activationDate"] == nil ||
		fmt.Sprint(v["options"]) != fmt.Sprintf("[map[count:1 optionId:%d totalPrice:8.00]]", f.opt1) {
		t.Fatalf("issued: %v", m)
	}
	code := v["code"].(string)
	if len(code) != 12 || f.id(t, "SELECT count(*) FROM gift_codes WHERE code = ? AND kind = 'voucher'", code) != 1 {
		t.Errorf("code %q not registered", code)
	}
	// The shop now sees it.
	WantResponse(t, f.get(t, "/api/vouchers/"+code+"/", f.shopTok), 200, "")

	before := f.id(t, "SELECT count(*) FROM vouchers")
	bad := map[string]any{"voucherPrototypeId": "999999", "totalPrice": "-1", "state": "USED", "language": "xx",
		"gifterEmail": "not-an-email", "receptionMode": 9, "nbAdults": -1, "expirationDate": "2020-01-01T00:00:00Z",
		"options": []any{map[string]any{"optionId": fmt.Sprint(f.opt1), "count": 0, "totalPrice": "1.234"}}}
	m = f.graph(t, f.staffTok, issue, map[string]any{"in": bad})
	WantJSON(t, mustJSON(t, m["data"]), fmt.Sprintf(`{"issueVoucher": {"voucher": null, "userErrors": [
		{"field": ["state"], "code": "invalid", "message": "\"used\" is not a valid choice."},
		{"field": ["totalPrice"], "code": "min_value", "message": "Ensure this value is greater than or equal to 0."},
		{"field": ["language"], "code": "invalid", "message": "\"xx\" is not a valid choice."},
		{"field": ["gifterEmail"], "code": "invalid", "message": "Enter a valid email address."},
		{"field": ["receptionMode"], "code": "invalid", "message": "\"9\" is not a valid choice."},
		{"field": ["nbAdults"], "code": "min_value", "message": "Ensure this value is greater than or equal to 0."},
		{"field": ["expirationDate"], "code": "invalid", "message": "The expiration date must be in the future."},
		{"field": ["voucherPrototypeId"], "code": "does_not_exist", "message": "Invalid pk \"999999\" - object does not exist."},
		{"field": ["options", "0", "optionId"], "code": "does_not_exist", "message": "Invalid pk \"%[1]d\" - object does not exist."},
		{"field": ["options", "0", "count"], "code": "min_value", "message": "Ensure this value is greater than or equal to 1."},
		{"field": ["options", "0", "totalPrice"], "code": "max_decimal_places", "message": "Ensure that there are no more than 2 decimal places."}
	], "errors": [
		{"field": ["input", "state"], "code": "INVALID", "message": "\"used\" is not a valid choice."},
		{"field": ["input", "totalPrice"], "code": "MIN_VALUE", "message": "Ensure this value is greater than or equal to 0."},
		{"field": ["input", "language"], "code": "INVALID", "message": "\"xx\" is not a valid choice."},
		{"field": ["input", "gifterEmail"], "code": "INVALID", "message": "Enter a valid email address."},
		{"field": ["input", "receptionMode"], "code": "INVALID", "message": "\"9\" is not a valid choice."},
		{"field": ["input", "nbAdults"], "code": "MIN_VALUE", "message": "Ensure this value is greater than or equal to 0."},
		{"field": ["input", "expirationDate"], "code": "INVALID", "message": "The expiration date must be in the future."},
		{"field": ["input", "voucherPrototypeId"], "code": "DOES_NOT_EXIST", "message": "Invalid pk \"999999\" - object does not exist."},
		{"field": ["input", "options", "0", "optionId"], "code": "DOES_NOT_EXIST", "message": "Invalid pk \"%[1]d\" - object does not exist."},
		{"field": ["input", "options", "0", "count"], "code": "MIN_VALUE", "message": "Ensure this value is greater than or equal to 1."},
		{"field": ["input", "options", "0", "totalPrice"], "code": "MAX_DECIMAL_PLACES", "message": "Ensure that there are no more than 2 decimal places."}
	]}}`, f.opt1))
	if after := f.id(t, "SELECT count(*) FROM vouchers"); after != before {
		t.Errorf("a refused issue wrote %d vouchers", after-before)
	}

	const issueGC = `mutation($in: IssueGiftcardInput!) { issueGiftcard(input: $in) {
		giftcard { code status value remainingValue gifterLastName } userErrors { field code message } errors { field code message } } }`
	m = f.graph(t, f.staffTok, issueGC, map[string]any{"in": map[string]any{"giftcardPrototypeId": fmt.Sprint(f.otherGP),
		"value": "75.00", "gifterLastName": "Hugo"}})
	g := m["data"].(map[string]any)["issueGiftcard"].(map[string]any)["giftcard"].(map[string]any)
	if g["status"] != "paid" || g["value"] != "75.00" || g["remainingValue"] != "75.00" || g["gifterLastName"] != "Hugo" {
		t.Errorf("issued giftcard: %v", m)
	}
	WantResponse(t, f.get(t, "/api/giftcards_by_code/"+g["code"].(string)+"/", f.otherTok), 200, "")
	m = f.graph(t, f.staffTok, issueGC, map[string]any{"in": map[string]any{"giftcardPrototypeId": "999999", "value": "5"}})
	WantJSON(t, mustJSON(t, m["data"]), `{"issueGiftcard": {"giftcard": null, "userErrors": [
		{"field": ["giftcardPrototypeId"], "code": "does_not_exist", "message": "Not found."}],
		"errors": [{"field": ["input", "giftcardPrototypeId"], "code": "DOES_NOT_EXIST", "message": "Not found."}]}}`)
	if m = f.graph(t, f.otherTok, issueGC, map[string]any{"in": map[string]any{"giftcardPrototypeId": "1", "value": "5"}}); avErrorCode(m) != "FORBIDDEN" {
		t.Errorf("partner issuing a giftcard: %v", m)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
