package mpcart_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/mpcart"
	"salesplatform/domain/network"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// fixture is three marketplaces and their partners:
//   - market sells network giftcards of 30.00 and 50.00 only, and has a box
//     on sale (box) and one that is not (shelved); shop is in its network;
//   - rival sells any amount from 20.00 and 15.00, and has a box on sale;
//   - bare has no network giftcard settings;
//   - twin is in market's and rival's networks, loner in none.
type fixture struct {
	db                          *bun.DB
	svc                         *mpcart.Service
	now                         time.Time
	market, rival, bare         *domain.Partner
	shop, twin, loner           *domain.Partner
	box, shelved, rivalBox      int64
	asMarket, asRival, asShop   context.Context
	asTwin, asLoner, asStaff    context.Context
	asNobody                    context.Context // an account without a partner, not staff
	marketUUID, shopUUID        string
	rivalUUID, twinUUID, bareID string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := dbtest.New(t)
	f := &fixture{db: db, now: time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)}
	f.svc = mpcart.NewService(persistence.NewUnitOfWork(db, persistence.MultiProductCartStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(db))).WithClock(func() time.Time { return f.now })
	f.market = f.partner(t, "Market", true)
	f.rival = f.partner(t, "Rival", true)
	f.bare = f.partner(t, "Bare", true)
	f.shop = f.partner(t, "Shop", false)
	f.twin = f.partner(t, "Twin", false)
	f.loner = f.partner(t, "Loner", false)
	f.exec(t, `INSERT INTO network_partners (marketplace_id, partner_id) VALUES (?, ?), (?, ?), (?, ?)`,
		f.market.ID, f.shop.ID, f.market.ID, f.twin.ID, f.rival.ID, f.twin.ID)
	f.exec(t, `INSERT INTO product_information_network_giftcards (partner_id, giftcard_customized_amount,
		giftcard_minimum_amount, giftcard_predefined_amounts) VALUES (?, false, 0, '{30, 50.00}'), (?, true, 20, '{15}')`,
		f.market.ID, f.rival.ID)
	f.box = f.id(t, `INSERT INTO network_voucher_boxes (marketplace_id, is_active) VALUES (?, true) RETURNING id`, f.market.ID)
	f.shelved = f.id(t, `INSERT INTO network_voucher_boxes (marketplace_id, is_active) VALUES (?, false) RETURNING id`, f.market.ID)
	f.rivalBox = f.id(t, `INSERT INTO network_voucher_boxes (marketplace_id, is_active) VALUES (?, true) RETURNING id`, f.rival.ID)
	f.asMarket, f.asRival, f.asShop = as(f.market, false), as(f.rival, false), as(f.shop, false)
	f.asTwin, f.asLoner, f.asStaff = as(f.twin, false), as(f.loner, false), as(nil, true)
	f.asNobody = as(nil, false)
	f.marketUUID, f.shopUUID, f.rivalUUID = f.market.UUID.String(), f.shop.UUID.String(), f.rival.UUID.String()
	f.twinUUID, f.bareID = f.twin.UUID.String(), f.bare.UUID.String()
	return f
}

func (f *fixture) partner(t *testing.T, name string, marketplace bool) *domain.Partner {
	t.Helper()
	return dbtest.MustPartner(t, persistence.MultiProductCartStores(f.db).Partners, &domain.Partner{Name: name, IsMarketplace: marketplace})
}

func (f *fixture) id(t *testing.T, q string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := f.db.NewRaw(q, args...).Scan(context.Background(), &id); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

func (f *fixture) exec(t *testing.T, q string, args ...any) {
	t.Helper()
	if _, err := f.db.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func (f *fixture) count(t *testing.T) int64 {
	t.Helper()
	return f.id(t, "SELECT count(*) FROM multi_product_carts")
}

// users numbers the callers: each has idempotency keys of its own.
var users atomic.Int64

// as is a context whose caller is a member of p (none when nil), or staff.
func as(p *domain.Partner, staff bool) context.Context {
	return domain.WithCaller(context.Background(), &domain.Caller{User: &domain.User{ID: users.Add(1), IsStaff: staff}, Partner: p})
}

// doc is the input of a body: partner_uuid and data.
func doc(t *testing.T, partnerUUID, data string) mpcart.CartInput {
	t.Helper()
	return input(t, fmt.Sprintf(`{"partner_uuid": %q, "data": %s}`, partnerUUID, data))
}

// input is the input of a body of well-typed JSON values: an absent key
// is absent, null is null.
func input(t *testing.T, body string) mpcart.CartInput {
	t.Helper()
	obj := object(t, []byte(body))
	in := mpcart.CartInput{PartnerUUID: field[uuid.UUID](t, obj, "partner_uuid")}
	switch raw, ok := obj["data"]; {
	case !ok:
	case string(raw) == "null":
		in.Data = domain.Null[mpcart.CartData]()
	default:
		data := object(t, raw)
		in.Data = domain.Some(mpcart.CartData{
			Giftcards: lines(t, data, mpcart.GiftcardsKey, func(l map[string]json.RawMessage) mpcart.GiftcardInput {
				return mpcart.GiftcardInput{Amount: field[decimal.Decimal](t, l, "amount"), Quantity: field[int64](t, l, "quantity"),
					ThemedPDFID: field[int64](t, l, "themed_pdf_id")}
			}),
			Vouchers: lines(t, data, mpcart.VouchersKey, func(l map[string]json.RawMessage) mpcart.VoucherInput {
				return mpcart.VoucherInput{BoxID: field[int64](t, l, "id"), Quantity: field[int64](t, l, "quantity")}
			}),
		})
	}
	return in
}

func object(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return obj
}

func field[T any](t *testing.T, obj map[string]json.RawMessage, key string) domain.Optional[T] {
	t.Helper()
	raw, ok := obj[key]
	switch {
	case !ok:
		return domain.Optional[T]{}
	case string(raw) == "null":
		return domain.Null[T]()
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %s: %v", key, raw, err)
	}
	return domain.Some(v)
}

func lines[T any](t *testing.T, obj map[string]json.RawMessage, key string, line func(map[string]json.RawMessage) T) domain.Optional[[]T] {
	t.Helper()
	elems := field[[]json.RawMessage](t, obj, key)
	if !elems.Set || elems.Null {
		return domain.Optional[[]T]{Set: elems.Set, Null: elems.Null}
	}
	out := make([]T, len(elems.Value))
	for i, e := range elems.Value {
		out[i] = line(object(t, e))
	}
	return domain.Some(out)
}

// A marketplace's member makes a cart of its amounts and its box; it is
// stored whole, read back by its partner and staff, and by no one else.
func TestCreateCart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c, err := f.svc.CreateCart(f.asMarket, doc(t, f.marketUUID, fmt.Sprintf(`{
		"network_giftcards": [{"amount": 30, "quantity": 2, "themed_pdf_id": 7}, {"amount": 50.00, "quantity": 1, "themed_pdf_id": 1}],
		"network_vouchers": [{"id": %d, "quantity": 3}, {"id": %d, "quantity": 1}]}`, f.box, f.box)))
	if err != nil {
		t.Fatal(err)
	}
	want := &mpcart.Cart{ID: c.ID, PartnerID: f.market.ID, PartnerUUID: f.market.UUID, MarketplaceID: f.market.ID,
		Giftcards: []mpcart.GiftcardLine{{Amount: decimal.RequireFromString("30"), Quantity: 2, ThemedPDFID: 7},
			{Amount: decimal.RequireFromString("50"), Quantity: 1, ThemedPDFID: 1}},
		Vouchers:  []mpcart.VoucherLine{{BoxID: f.box, Quantity: 3}, {BoxID: f.box, Quantity: 1}},
		CreatedAt: f.now, ExpiresAt: f.now.Add(mpcart.DefaultTTL)}
	wantCart(t, c, want)
	var data string
	if err := f.db.NewRaw(`SELECT data::text FROM multi_product_carts WHERE id = ?`, c.ID).Scan(context.Background(), &data); err != nil {
		t.Fatal(err)
	}
	wantData := fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 3}, {"id": %d, "quantity": 1}], `+
		`"network_giftcards": [{"amount": 30.00, "quantity": 2, "themed_pdf_id": 7}, {"amount": 50.00, "quantity": 1, "themed_pdf_id": 1}]}`,
		f.box, f.box)
	if data != wantData {
		t.Errorf("data\n%s\nwant\n%s", data, wantData)
	}

	for _, ctx := range []context.Context{f.asMarket, f.asStaff} {
		got, err := f.svc.Cart(ctx, c.ID.String())
		if err != nil {
			t.Fatal(err)
		}
		wantCart(t, got, want)
	}
	for _, ctx := range []context.Context{f.asRival, f.asShop} {
		_, err := f.svc.Cart(ctx, c.ID.String())
		dbtest.WantCode(t, err, domain.CodeNotFound)
	}
	for _, id := range []string{"nope", uuid.NewString(), strings.ToUpper(c.ID.String()) + "x"} {
		_, err := f.svc.Cart(f.asMarket, id)
		dbtest.WantCode(t, err, domain.CodeNotFound)
	}
}

func wantCart(t *testing.T, got, want *mpcart.Cart) {
	t.Helper()
	if got.ID != want.ID || got.PartnerID != want.PartnerID || got.PartnerUUID != want.PartnerUUID ||
		got.MarketplaceID != want.MarketplaceID || !got.CreatedAt.Equal(want.CreatedAt) || !got.ExpiresAt.Equal(want.ExpiresAt) {
		t.Errorf("cart %+v, want %+v", got, want)
	}
	if len(got.Giftcards) != len(want.Giftcards) || len(got.Vouchers) != len(want.Vouchers) {
		t.Fatalf("lines %+v %+v, want %+v %+v", got.Giftcards, got.Vouchers, want.Giftcards, want.Vouchers)
	}
	for i, g := range got.Giftcards {
		w := want.Giftcards[i]
		if !g.Amount.Equal(w.Amount) || g.Quantity != w.Quantity || g.ThemedPDFID != w.ThemedPDFID {
			t.Errorf("giftcard %d: %+v, want %+v", i, g, w)
		}
	}
	for i, v := range got.Vouchers {
		if v != want.Vouchers[i] {
			t.Errorf("voucher %d: %+v, want %+v", i, v, want.Vouchers[i])
		}
	}
}

// Every refusal of a body, field by field, with DRF's messages at their
// nested paths; nothing is written.
func TestCreateCartFieldErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	gc := `{"amount": 30, "quantity": 1, "themed_pdf_id": 1}`
	many := strings.TrimSuffix(strings.Repeat(gc+",", mpcart.MaxLines+1), ",")
	box := func(id int64) string { return fmt.Sprintf(`{"id": %d, "quantity": 1}`, id) }
	cases := []struct {
		name string
		body string
		want map[string]string
	}{
		{"nothing", `{}`, map[string]string{"partner_uuid": domain.MsgRequired, "data": domain.MsgRequired}},
		{"null data", `{"partner_uuid": "` + f.marketUUID + `", "data": null}`, map[string]string{"data": domain.MsgNull}},
		{"empty data", `{"partner_uuid": "` + f.marketUUID + `", "data": {}}`, map[string]string{"data.non_field_errors": mpcart.MsgEmpty}},
		{"empty lists", `{"partner_uuid": "` + f.marketUUID + `", "data": {"network_giftcards": [], "network_vouchers": []}}`,
			map[string]string{"data.non_field_errors": mpcart.MsgEmpty}},
		{"a null list", `{"partner_uuid": "` + f.marketUUID + `", "data": {"network_vouchers": null}}`,
			map[string]string{"data.network_vouchers": domain.MsgNull}},
		{"too many lines", `{"partner_uuid": "` + f.marketUUID + `", "data": {"network_giftcards": [` + many + `]}}`,
			map[string]string{"data.network_giftcards": "Ensure this field has no more than 50 elements."}},
		{"empty lines", `{"partner_uuid": "` + f.marketUUID + `", "data": {"network_giftcards": [{}], "network_vouchers": [{}]}}`,
			map[string]string{"data.network_giftcards.0.amount": domain.MsgRequired, "data.network_giftcards.0.quantity": domain.MsgRequired,
				"data.network_giftcards.0.themed_pdf_id": domain.MsgRequired, "data.network_vouchers.0.id": domain.MsgRequired,
				"data.network_vouchers.0.quantity": domain.MsgRequired}},
		{"bad giftcard fields", `{"partner_uuid": "` + f.marketUUID + `", "data": {"network_giftcards": [
			{"amount": 30, "quantity": 0, "themed_pdf_id": 0},
			{"amount": 0, "quantity": 101, "themed_pdf_id": 1},
			{"amount": 10.001, "quantity": 1, "themed_pdf_id": null},
			{"amount": 1000000.01, "quantity": 1, "themed_pdf_id": 2147483648},
			{"amount": 30, "quantity": null, "themed_pdf_id": 1}]}}`,
			map[string]string{
				"data.network_giftcards.0.quantity":      "Ensure this value is greater than or equal to 1.",
				"data.network_giftcards.0.themed_pdf_id": "Ensure this value is greater than or equal to 1.",
				"data.network_giftcards.1.amount":        domain.MsgPositive,
				"data.network_giftcards.1.quantity":      "Ensure this value is less than or equal to 100.",
				"data.network_giftcards.2.amount":        "Ensure that there are no more than 2 decimal places.",
				"data.network_giftcards.2.themed_pdf_id": domain.MsgNull,
				"data.network_giftcards.3.amount":        "Ensure this value is less than or equal to 1000000.",
				"data.network_giftcards.3.themed_pdf_id": "Ensure this value is less than or equal to 2147483647.",
				"data.network_giftcards.4.quantity":      domain.MsgNull,
			}},
		{"bad voucher fields", `{"partner_uuid": "` + f.marketUUID + `", "data": {"network_vouchers": [
			{"id": 1, "quantity": -1}, {"id": null, "quantity": 1}]}}`,
			map[string]string{
				"data.network_vouchers.0.quantity": "Ensure this value is greater than or equal to 1.",
				"data.network_vouchers.1.id":       domain.MsgNull,
			}},
		// Against the marketplace: its amounts, its boxes on sale; the
		// lines with errors of their own are not checked again.
		{"amounts and boxes the marketplace does not sell", `{"partner_uuid": "` + f.marketUUID + `", "data": {
			"network_giftcards": [` + gc + `, {"amount": 40, "quantity": 1, "themed_pdf_id": 1}, {"amount": 40, "quantity": 0, "themed_pdf_id": 1}],
			"network_vouchers": [` + box(f.box) + `, ` + box(f.shelved) + `, ` + box(f.rivalBox) + `, ` + box(0) + `, {"id": 999999999, "quantity": 0}]}}`,
			map[string]string{
				"data.network_giftcards.1.amount":   "40.00 is not one of this marketplace's amounts: 30.00, 50.00.",
				"data.network_giftcards.2.quantity": "Ensure this value is greater than or equal to 1.",
				"data.network_vouchers.1.id":        mpcart.MsgBoxNotOnSale,
				"data.network_vouchers.2.id":        fmt.Sprintf(`Invalid pk "%d" - object does not exist.`, f.rivalBox),
				"data.network_vouchers.3.id":        `Invalid pk "0" - object does not exist.`,
				"data.network_vouchers.4.quantity":  "Ensure this value is greater than or equal to 1.",
			}},
		{"another partner's uuid", `{"partner_uuid": "` + f.rivalUUID + `", "data": {"network_vouchers": [` + box(f.rivalBox) + `]}}`,
			map[string]string{"partner_uuid": "Object with uuid=" + f.rivalUUID + " does not exist."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.CreateCart(f.asMarket, input(t, c.body))
			e := dbtest.WantFieldErrors(t, err, c.want)
			if strings.Contains(c.name, "giftcard fields") && e.ListLengths["data.network_giftcards"] != 5 {
				t.Errorf("list lengths %v", e.ListLengths)
			}
		})
	}
	if n := f.count(t); n != 0 {
		t.Errorf("%d carts written", n)
	}
}

// A marketplace with customized amounts takes its predefined amounts and
// any amount of at least its minimum; one without settings sells no
// network giftcards.
func TestGiftcardAmounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	line := func(amount string) string {
		return `{"network_giftcards": [{"amount": ` + amount + `, "quantity": 1, "themed_pdf_id": 1}]}`
	}
	for _, amount := range []string{"15", `"20.00"`, "20.5", "1000000"} {
		if _, err := f.svc.CreateCart(f.asRival, doc(t, f.rivalUUID, line(amount))); err != nil {
			t.Errorf("%s: %v", amount, err)
		}
	}
	for _, amount := range []string{"19.99", "14"} {
		_, err := f.svc.CreateCart(f.asRival, doc(t, f.rivalUUID, line(amount)))
		dbtest.WantFieldErrors(t, err, map[string]string{"data.network_giftcards.0.amount": "Ensure this value is greater than or equal to 20.00."})
	}
	_, err := f.svc.CreateCart(f.asStaff, doc(t, f.bareID, line("30")))
	dbtest.WantFieldErrors(t, err, map[string]string{"data.network_giftcards.0.amount": mpcart.MsgNoGiftcards})
	// A change of the settings counts for the next cart.
	f.exec(t, "UPDATE product_information_network_giftcards SET giftcard_predefined_amounts = '{40}' WHERE partner_id = ?", f.market.ID)
	if _, err := f.svc.CreateCart(f.asMarket, doc(t, f.marketUUID, line("40"))); err != nil {
		t.Error(err)
	}
	_, err = f.svc.CreateCart(f.asMarket, doc(t, f.marketUUID, line("30")))
	dbtest.WantFieldErrors(t, err, map[string]string{"data.network_giftcards.0.amount": "30.00 is not one of this marketplace's amounts: 40.00."})
	if n := f.count(t); n != 5 {
		t.Errorf("%d carts, want 5", n)
	}
}

// partner_uuid names the caller's partner (staff: any); a partner that is
// not a marketplace sells the products of the one marketplace whose
// network it is in.
func TestCartPartner(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	boxes := func(ids ...int64) string {
		var lines []string
		for _, id := range ids {
			lines = append(lines, fmt.Sprintf(`{"id": %d, "quantity": 1}`, id))
		}
		return `{"network_vouchers": [` + strings.Join(lines, ", ") + `]}`
	}
	for _, ctx := range []context.Context{f.asShop, f.asStaff} {
		c, err := f.svc.CreateCart(ctx, doc(t, f.shopUUID, boxes(f.box)))
		if err != nil {
			t.Fatal(err)
		}
		if c.PartnerID != f.shop.ID || c.PartnerUUID != f.shop.UUID || c.MarketplaceID != f.market.ID {
			t.Errorf("shop's cart %+v", c)
		}
		_, err = f.svc.CreateCart(ctx, doc(t, f.shopUUID, boxes(f.rivalBox)))
		dbtest.WantFieldErrors(t, err, map[string]string{"data.network_vouchers.0.id": fmt.Sprintf(`Invalid pk "%d" - object does not exist.`, f.rivalBox)})
	}
	c, err := f.svc.CreateCart(f.asStaff, doc(t, f.rivalUUID, boxes(f.rivalBox)))
	if err != nil || c.MarketplaceID != f.rival.ID {
		t.Fatalf("staff for rival: %+v %v", c, err)
	}

	_, err = f.svc.CreateCart(f.asTwin, doc(t, f.twinUUID, boxes(f.box)))
	dbtest.WantFieldErrors(t, err, map[string]string{"partner_uuid": mpcart.MsgSeveralMarketplaces})
	_, err = f.svc.CreateCart(f.asLoner, doc(t, f.loner.UUID.String(), boxes(f.box)))
	dbtest.WantFieldErrors(t, err, map[string]string{"partner_uuid": mpcart.MsgNoMarketplace})
	// Another partner, even of one's network, reads as unknown; so does no
	// partner at all.
	_, err = f.svc.CreateCart(f.asMarket, doc(t, f.shopUUID, boxes(f.box)))
	dbtest.WantFieldErrors(t, err, map[string]string{"partner_uuid": "Object with uuid=" + f.shopUUID + " does not exist."})
	_, err = f.svc.CreateCart(f.asShop, doc(t, f.marketUUID, boxes(f.box)))
	dbtest.WantFieldErrors(t, err, map[string]string{"partner_uuid": "Object with uuid=" + f.marketUUID + " does not exist."})
	unknown := uuid.NewString()
	_, err = f.svc.CreateCart(f.asStaff, doc(t, unknown, boxes(f.box)))
	dbtest.WantFieldErrors(t, err, map[string]string{"partner_uuid": "Object with uuid=" + unknown + " does not exist."})
	// A member names its partner too.
	_, err = f.svc.CreateCart(f.asMarket, input(t, `{"data": `+boxes(f.box)+`}`))
	dbtest.WantFieldErrors(t, err, map[string]string{"partner_uuid": domain.MsgRequired})

	_, err = f.svc.CreateCart(f.asNobody, doc(t, f.marketUUID, boxes(f.box)))
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.Cart(f.asNobody, uuid.NewString())
	dbtest.WantCode(t, err, domain.CodeForbidden)
	_, err = f.svc.CreateCart(context.Background(), doc(t, f.marketUUID, boxes(f.box)))
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	_, err = f.svc.Cart(context.Background(), uuid.NewString())
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
	if n := f.count(t); n != 3 {
		t.Errorf("%d carts, want 3", n)
	}
}

// With an idempotency key, a repeat answers the first cart (or the first
// refusal) and writes nothing; the key with another body is refused.
func TestCreateCartIdempotent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx, err := idempotency.WithKey(f.asMarket, "cart-1")
	if err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 1}]}`, f.box)
	first, err := f.svc.CreateCart(ctx, doc(t, f.marketUUID, body))
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.svc.CreateCart(ctx, doc(t, f.marketUUID, body))
	if err != nil {
		t.Fatal(err)
	}
	if !idempotency.Replayed(ctx) {
		t.Error("the repeat was not replayed")
	}
	wantCart(t, again, first)
	_, err = f.svc.CreateCart(ctx, doc(t, f.marketUUID, fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 2}]}`, f.box)))
	dbtest.WantCode(t, err, domain.CodeUnprocessable)

	refused, _ := idempotency.WithKey(f.asMarket, "cart-2")
	bad := fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 1}]}`, f.shelved)
	for range 2 {
		_, err = f.svc.CreateCart(refused, doc(t, f.marketUUID, bad))
		dbtest.WantFieldErrors(t, err, map[string]string{"data.network_vouchers.0.id": mpcart.MsgBoxNotOnSale})
	}
	// The box goes on sale: the key still answers its refusal.
	f.exec(t, "UPDATE network_voucher_boxes SET is_active = true WHERE id = ?", f.shelved)
	_, err = f.svc.CreateCart(refused, doc(t, f.marketUUID, bad))
	dbtest.WantFieldErrors(t, err, map[string]string{"data.network_vouchers.0.id": mpcart.MsgBoxNotOnSale})
	if n := f.count(t); n != 1 {
		t.Errorf("%d carts, want 1", n)
	}
}

// A cart lives DefaultTTL; lapsed carts are deleted by later creations.
func TestCartLifetime(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	body := fmt.Sprintf(`{"network_vouchers": [{"id": %d, "quantity": 1}]}`, f.box)
	var ids []string
	for range 3 {
		c, err := f.svc.CreateCart(f.asMarket, doc(t, f.marketUUID, body))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID.String())
	}
	start := f.now
	f.now = start.Add(mpcart.DefaultTTL - time.Microsecond)
	if _, err := f.svc.Cart(f.asMarket, ids[0]); err != nil {
		t.Fatalf("a cart before its end: %v", err)
	}
	f.now = start.Add(mpcart.DefaultTTL)
	_, err := f.svc.Cart(f.asMarket, ids[0])
	dbtest.WantCode(t, err, domain.CodeNotFound)
	// Each creation deletes two lapsed carts.
	if _, err := f.svc.CreateCart(f.asMarket, doc(t, f.marketUUID, body)); err != nil {
		t.Fatal(err)
	}
	if n := f.count(t); n != 2 {
		t.Errorf("%d carts after a creation, want 2 (one lapsed left, the new one)", n)
	}
	if _, err := f.svc.CreateCart(f.asMarket, doc(t, f.marketUUID, body)); err != nil {
		t.Fatal(err)
	}
	if n := f.id(t, "SELECT count(*) FROM multi_product_carts WHERE expires_at <= ?", f.now); n != 0 {
		t.Errorf("%d lapsed carts left", n)
	}
}

// A cart's giftcard is a network giftcard to be: its bound is theirs.
func TestMaxAmountIsNetworkGiftcards(t *testing.T) {
	if !mpcart.MaxAmount.Equal(network.MaxCardValue) {
		t.Errorf("MaxAmount %s, network.MaxCardValue %s", mpcart.MaxAmount, network.MaxCardValue)
	}
}
