package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/persistence/dbtest"
)

// mpcFixture is a running server with:
//   - market: a marketplace selling network giftcards of 30.00 and 50.00,
//     or any amount from 20.00, with a box on sale (box) and one that is
//     not (shelved); shop is a partner of its network;
//   - rival: another marketplace with a box on sale;
//   - staff, and nobody: an account without a partner.
type mpcFixture struct {
	*Server
	db                                     *bun.DB
	market, shop                           int64
	marketUUID, shopUUID, rivalUUID        string
	box, shelved, rivalBox                 int64
	marketTok, shopTok, rivalTok, staffTok string
	nobodyTok                              string
}

func newMPCFixture(t *testing.T) *mpcFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	f := &mpcFixture{
		marketTok: CreateUser(t, dsn, "--username", "market", "--password", "market-password", "--partner-name", "Market", "--marketplace"),
		rivalTok:  CreateUser(t, dsn, "--username", "rival", "--password", "rival-password", "--partner-name", "Rival", "--marketplace"),
		shopTok:   CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop"),
		staffTok:  CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff"),
		nobodyTok: CreateUser(t, dsn, "--username", "nobody", "--password", "nobody-password"),
	}
	f.db = OpenDB(t, dsn)
	var rival int64
	partner := "SELECT p.id, p.uuid::text FROM partners p JOIN users u ON u.partner_id = p.id WHERE u.username = ?"
	f.scan(t, partner, []any{&f.market, &f.marketUUID}, "market")
	f.scan(t, partner, []any{&rival, &f.rivalUUID}, "rival")
	f.scan(t, partner, []any{&f.shop, &f.shopUUID}, "shop")
	f.scan(t, "INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?) RETURNING partner_id", []any{new(int64)}, f.market, f.shop)
	f.scan(t, `INSERT INTO product_information_network_giftcards (partner_id, giftcard_customized_amount, giftcard_minimum_amount,
		giftcard_predefined_amounts) VALUES (?, true, 20, '{30, 50}') RETURNING partner_id`, []any{new(int64)}, f.market)
	box := "INSERT INTO network_voucher_boxes (marketplace_id, is_active) VALUES (?, ?) RETURNING id"
	f.scan(t, box, []any{&f.box}, f.market, true)
	f.scan(t, box, []any{&f.shelved}, f.market, false)
	f.scan(t, box, []any{&f.rivalBox}, rival, true)
	f.Server = Serve(t, dsn)
	return f
}

// scan runs q with args and scans its row into dest.
func (f *mpcFixture) scan(t *testing.T, q string, dest []any, args ...any) {
	t.Helper()
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), dest...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (f *mpcFixture) carts(t *testing.T) int64 {
	t.Helper()
	var n int64
	f.scan(t, "SELECT count(*) FROM multi_product_carts", []any{&n})
	return n
}

func (f *mpcFixture) call(t *testing.T, method, path, token, body string, headers ...string) Response {
	t.Helper()
	if token != "" {
		headers = append(headers, auth(token)...)
	}
	return Do(t, method, f.URL+path, body, headers...)
}

// body is a creation's body for partnerUUID with data.
func mpcBody(partnerUUID, data string) string {
	return `{"partner_uuid": "` + partnerUUID + `", "data": ` + data + `}`
}

// A creation answers 201 with the contract's cart, field by field, and its
// Location, where its partner and staff read it back.
func TestMultiProductCartCreate(t *testing.T) {
	t.Parallel()
	f := newMPCFixture(t)
	res := f.call(t, "POST", "/api/multi_product_carts/", f.marketTok, mpcBody(f.marketUUID, fmt.Sprintf(`{
		"network_giftcards": [{"amount": 30, "quantity": 2, "themed_pdf_id": 7}, {"amount": "25.5", "quantity": 1, "themed_pdf_id": 3}],
		"network_vouchers": [{"id": %d, "quantity": 4}]}`, f.box)))
	if res.Status != 201 {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	id, _ := res.JSON(t)["id"].(string)
	want := fmt.Sprintf(`{"id": %q, "partner_uuid": %q, "data": {
		"network_giftcards": [{"amount": 30.00, "quantity": 2, "themed_pdf_id": 7}, {"amount": 25.50, "quantity": 1, "themed_pdf_id": 3}],
		"network_vouchers": [{"id": %d, "quantity": 4}]}}`, id, f.marketUUID, f.box)
	WantResponse(t, res, 201, want)
	if !strings.Contains(res.Body, `"amount":30.00`) || !strings.Contains(res.Body, `"amount":25.50`) {
		t.Errorf("amounts are not JSON numbers with two decimals: %s", res.Body)
	}
	loc := res.Header.Get("Location")
	if loc != "/api/multi_product_carts/"+id+"/" {
		t.Errorf("Location %q", loc)
	}
	WantResponse(t, f.call(t, "GET", loc, f.marketTok, ""), 200, want)
	WantResponse(t, f.call(t, "GET", strings.TrimSuffix(loc, "/"), f.staffTok, ""), 200, want)
	WantResponse(t, f.call(t, "HEAD", loc, f.marketTok, ""), 200, "")
	// Vouchers only.
	res = f.call(t, "POST", "/api/multi_product_carts", f.marketTok, mpcBody(f.marketUUID, fmt.Sprintf(`{"network_vouchers": [{"id": "%d", "quantity": "2"}]}`, f.box)))
	WantResponse(t, res, 201, fmt.Sprintf(`{"id": %q, "partner_uuid": %q, "data": {"network_giftcards": [], "network_vouchers": [{"id": %d, "quantity": 2}]}}`,
		res.JSON(t)["id"], f.marketUUID, f.box))

	notFound := `{"detail": "Not found."}`
	WantResponse(t, f.call(t, "GET", loc, f.rivalTok, ""), 404, notFound)
	WantResponse(t, f.call(t, "GET", loc, f.shopTok, ""), 404, notFound)
	WantResponse(t, f.call(t, "GET", "/api/multi_product_carts/nope/", f.marketTok, ""), 404, notFound)
	WantResponse(t, f.call(t, "GET", "/api/multi_product_carts/"+strings.Repeat("0", 8)+"-0000-0000-0000-000000000000/", f.marketTok, ""), 404, notFound)
	forbidden := `{"detail": "You do not have permission to perform this action."}`
	WantResponse(t, f.call(t, "GET", loc, f.nobodyTok, ""), 403, forbidden)
	WantResponse(t, f.call(t, "POST", "/api/multi_product_carts/", f.nobodyTok, mpcBody(f.marketUUID, `{}`)), 403, forbidden)
	missing := `{"detail": "Authentication credentials were not provided."}`
	WantResponse(t, f.call(t, "GET", loc, "", ""), 401, missing)
	WantResponse(t, f.call(t, "POST", "/api/multi_product_carts/", "", "not even JSON"), 401, missing)
	WantResponse(t, f.call(t, "POST", "/api/multi_product_carts/", "0000000000000000000000000000000000000000", "{}"), 401, `{"detail": "Invalid token."}`)
	WantResponse(t, f.call(t, "DELETE", loc, f.marketTok, ""), 405, `{"detail": "Method \"DELETE\" not allowed."}`)
	if n := f.carts(t); n != 2 {
		t.Errorf("%d carts, want 2", n)
	}
}

// Every refusal in DRF's shape, nested as the body is; nothing is
// written.
func TestMultiProductCartErrors(t *testing.T) {
	t.Parallel()
	f := newMPCFixture(t)
	gc := `{"amount": 30, "quantity": 1, "themed_pdf_id": 1}`
	box := fmt.Sprintf(`{"id": %d, "quantity": 1}`, f.box)
	many := "[" + strings.TrimSuffix(strings.Repeat(box+",", 51), ",") + "]"
	cases := []struct{ name, body, want string }{
		{"nothing", `{}`, `{"partner_uuid": ["This field is required."], "data": ["This field is required."]}`},
		{"not an object", `[1]`, `{"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}`},
		{"malformed", `{"data": `, ""},
		{"bad uuid, data not an object", `{"partner_uuid": 7, "data": "cart"}`,
			`{"partner_uuid": ["Must be a valid UUID."], "data": ["Expected a dictionary of items but got type \"str\"."]}`},
		{"no line", mpcBody(f.marketUUID, `{"network_giftcards": []}`),
			`{"data": {"non_field_errors": ["Give at least one network giftcard or network voucher."]}}`},
		{"too many lines", mpcBody(f.marketUUID, `{"network_vouchers": `+many+`}`),
			`{"data": {"network_vouchers": ["Ensure this field has no more than 50 elements."]}}`},
		{"lists of the wrong type", mpcBody(f.marketUUID, `{"network_giftcards": {}, "network_vouchers": null}`),
			`{"data": {"network_giftcards": ["Expected a list of items but got type \"dict\"."], "network_vouchers": ["This field may not be null."]}}`},
		{"lines field by field", mpcBody(f.marketUUID, fmt.Sprintf(`{"customer": {"email": "a@example.com"},
			"network_giftcards": [%s, {"amount": 10, "quantity": 1, "themed_pdf_id": 1}, {"amount": "30.001", "quantity": 0, "themed_pdf_id": "x"},
				{"amount": -5, "quantity": 101, "themed_pdf_id": 0, "theme": "birthday"}, {}, "gift"],
			"network_vouchers": [{"id": %d, "quantity": 1}, {"id": %d, "quantity": 1}, %s, {"id": "x", "quantity": null}, {"id": 999999999, "quantity": 1}]}`,
			gc, f.rivalBox, f.shelved, box)),
			fmt.Sprintf(`{"data": {"customer": ["This field is not part of a multi-product cart."],
			"network_giftcards": [{}, {"amount": ["Ensure this value is greater than or equal to 20.00."]},
				{"amount": ["Ensure that there are no more than 2 decimal places."], "quantity": ["Ensure this value is greater than or equal to 1."],
				 "themed_pdf_id": ["A valid integer is required."]},
				{"amount": ["Ensure this value is greater than 0."], "quantity": ["Ensure this value is less than or equal to 100."],
				 "themed_pdf_id": ["Ensure this value is greater than or equal to 1."], "theme": ["This field is not part of a multi-product cart."]},
				{"amount": ["This field is required."], "quantity": ["This field is required."], "themed_pdf_id": ["This field is required."]},
				{"non_field_errors": ["Invalid data. Expected a dictionary, but got str."]}],
			"network_vouchers": [{"id": ["Invalid pk \"%d\" - object does not exist."]}, {"id": ["This box is not on sale."]}, {},
				{"id": ["Incorrect type. Expected pk value, received str."], "quantity": ["This field may not be null."]},
				{"id": ["Invalid pk \"999999999\" - object does not exist."]}]}}`, f.rivalBox)},
		{"amount not a number", mpcBody(f.marketUUID, `{"network_giftcards": [{"amount": "thirty", "quantity": 1, "themed_pdf_id": 1},
			{"amount": 0, "quantity": 1, "themed_pdf_id": 1}, {"amount": 1000000.01, "quantity": 1, "themed_pdf_id": 1}]}`),
			`{"data": {"network_giftcards": [{"amount": ["A valid number is required."]}, {"amount": ["Ensure this value is greater than 0."]},
				{"amount": ["Ensure this value is less than or equal to 1000000."]}]}}`},
		{"another marketplace's uuid", mpcBody(f.rivalUUID, fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 1}]}`, f.rivalBox)),
			`{"partner_uuid": ["Object with uuid=` + f.rivalUUID + ` does not exist."]}`},
		{"a partner of one's network", mpcBody(f.shopUUID, `{"network_vouchers": [`+box+`]}`),
			`{"partner_uuid": ["Object with uuid=` + f.shopUUID + ` does not exist."]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := f.call(t, "POST", "/api/multi_product_carts/", f.marketTok, c.body)
			WantResponse(t, res, 400, c.want)
			if c.want == "" && !strings.HasPrefix(res.JSON(t)["detail"].(string), "JSON parse error") {
				t.Errorf("malformed: %s", res.Body)
			}
		})
	}
	if n := f.carts(t); n != 0 {
		t.Errorf("%d carts written", n)
	}
}

// A partner of a marketplace's network sells that marketplace's products;
// staff make a cart for any partner, naming it; carts are their partner's.
func TestMultiProductCartTenancy(t *testing.T) {
	t.Parallel()
	f := newMPCFixture(t)
	lines := fmt.Sprintf(`{"network_giftcards": [{"amount": 50, "quantity": 1, "themed_pdf_id": 1}], "network_vouchers": [{"id": %d, "quantity": 1}]}`, f.box)
	res := f.call(t, "POST", "/api/multi_product_carts/", f.shopTok, mpcBody(f.shopUUID, lines))
	WantResponse(t, res, 201, "")
	if res.JSON(t)["partner_uuid"] != f.shopUUID {
		t.Errorf("shop's cart: %s", res.Body)
	}
	shopCart := res.Header.Get("Location")
	WantResponse(t, f.call(t, "GET", shopCart, f.shopTok, ""), 200, res.Body)
	WantResponse(t, f.call(t, "GET", shopCart, f.marketTok, ""), 404, `{"detail": "Not found."}`)

	rivalBox := fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 1}]}`, f.rivalBox)
	WantResponse(t, f.call(t, "POST", "/api/multi_product_carts/", f.shopTok, mpcBody(f.shopUUID, rivalBox)), 400,
		fmt.Sprintf(`{"data": {"network_vouchers": [{"id": ["Invalid pk \"%d\" - object does not exist."]}]}}`, f.rivalBox))
	WantResponse(t, f.call(t, "POST", "/api/multi_product_carts/", f.shopTok, mpcBody(f.marketUUID, lines)), 400,
		`{"partner_uuid": ["Object with uuid=`+f.marketUUID+` does not exist."]}`)

	WantResponse(t, f.call(t, "POST", "/api/multi_product_carts/", f.staffTok, `{"data": `+lines+`}`), 400,
		`{"partner_uuid": ["This field is required."]}`)
	res = f.call(t, "POST", "/api/multi_product_carts/", f.staffTok, mpcBody(f.rivalUUID, rivalBox))
	WantResponse(t, res, 201, "")
	WantResponse(t, f.call(t, "GET", res.Header.Get("Location"), f.rivalTok, ""), 200, res.Body)
	WantResponse(t, f.call(t, "GET", res.Header.Get("Location"), f.marketTok, ""), 404, `{"detail": "Not found."}`)
	if n := f.carts(t); n != 2 {
		t.Errorf("%d carts, want 2", n)
	}
}

// X-Idempotency-Key: a repeat answers the first cart, marked replayed;
// the key with another body is 422.
func TestMultiProductCartIdempotency(t *testing.T) {
	t.Parallel()
	f := newMPCFixture(t)
	body := mpcBody(f.marketUUID, fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 1}]}`, f.box))
	first := f.call(t, "POST", "/api/multi_product_carts/", f.marketTok, body, "X-Idempotency-Key", "mpc-1")
	WantResponse(t, first, 201, "")
	again := f.call(t, "POST", "/api/multi_product_carts/", f.marketTok, body, "X-Idempotency-Key", "mpc-1")
	WantResponse(t, again, 201, first.Body)
	if again.Header.Get("Idempotent-Replayed") != "true" || first.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("Idempotent-Replayed: first %q, again %q", first.Header.Get("Idempotent-Replayed"), again.Header.Get("Idempotent-Replayed"))
	}
	WantResponse(t, f.call(t, "POST", "/api/multi_product_carts/", f.marketTok, mpcBody(f.marketUUID,
		fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 2}]}`, f.box)), "X-Idempotency-Key", "mpc-1"), 422,
		`{"detail": "This idempotency key was already used for another request."}`)
	WantResponse(t, f.call(t, "POST", "/api/multi_product_carts/", f.marketTok, body, "X-Idempotency-Key", "two words"), 400,
		`{"detail": "An idempotency key is 1 to 255 printable ASCII characters, without spaces."}`)
	if n := f.carts(t); n != 1 {
		t.Errorf("%d carts, want 1", n)
	}
}
