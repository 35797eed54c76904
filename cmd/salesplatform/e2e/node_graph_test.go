package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/client"

	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// globalID is the graph's global id of the typ record with key (a record
// id, a UUID or a code), as docs/GRAPHQL.md writes it: the unpadded
// base64url of "typ:key".
func globalID(typ string, key any) string {
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%s:%v", typ, key)))
}

// recordKey is the key of a global id of typ (the record id a service's
// messages name), read as docs/GRAPHQL.md writes global ids.
func recordKey(t *testing.T, typ, id string) string {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(id)
	key, ok := strings.CutPrefix(string(raw), typ+":")
	if err != nil || !ok {
		t.Fatalf("%q is not a global id of %s", id, typ)
	}
	return key
}

// nodeRecord is a record of a Node type found in the demo data: where it is
// read (the catalogue's site or the token of a partner that sees it) and
// who must not read it.
type nodeRecord struct {
	typ, id, key       string
	site, token        string // who reads it
	otherSite, otherTk string // who must not
}

// nodeFixture is the demo dataset behind the handler.
type nodeFixture struct {
	c      *client.Client
	tokens map[string]string
}

func newNodeFixture(t *testing.T) *nodeFixture {
	t.Helper()
	dsn := dbtest.NewDSN(t)
	tokens := SeedDemo(t, dsn, t.TempDir())
	db, err := persistence.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return &nodeFixture{c: client.New(Handler(t, db)), tokens: tokens}
}

func (f *nodeFixture) ask(t *testing.T, site, token, q string, vars map[string]any) (map[string]any, []gqlError) {
	t.Helper()
	data, errs := postAt(t, f.c, site, token, q, vars)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("data %s: %v", data, err)
	}
	return m, errs
}

// dig follows keys (and first elements of lists) into v.
func dig(v any, path ...string) any {
	for _, k := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			if len(x) == 0 {
				return nil
			}
			v = x[0].(map[string]any)[k]
		default:
			return nil
		}
	}
	return v
}

// records finds one record of every Node type in the demo data.
func (f *nodeFixture) records(t *testing.T) []nodeRecord {
	t.Helper()
	found := map[string]nodeRecord{}
	add := func(r nodeRecord, node any, keyField string) {
		m, _ := node.(map[string]any)
		if m == nil || found[r.typ].id != "" {
			return
		}
		r.id, r.key = fmt.Sprint(m["id"]), fmt.Sprint(m[keyField])
		found[r.typ] = r
	}
	// Each site's records, read from the next site: the catalogues of
	// chateau and atelier are their own; the marketplace's boxes are its own.
	sites := []string{"chateau.localhost", "atelier.localhost", "market.localhost"}
	const catalogue = `{ partners(first: 1) { edges { node { id legacyId } } }
		boxes(first: 1) { edges { node { id legacyId offers(first: 1) { edges { node { id legacyId } } } } } }
		giftcardPrototypes(first: 1) { edges { node { id legacyId } } }
		eventSlots(first: 1) { edges { node { event { id legacyId } } } }
		workshopSessions(first: 1) { edges { node { workshop { id legacyId } } } } }`
	for i, site := range sites {
		other := sites[(i+1)%len(sites)]
		data, _ := f.ask(t, site, "", catalogue, nil)
		r := nodeRecord{site: site, otherSite: other}
		r.typ = "CataloguePartner"
		add(r, dig(data, "partners", "edges", "node"), "legacyId")
		r.typ = "Box"
		add(r, dig(data, "boxes", "edges", "node"), "legacyId")
		r.typ = "BoxOffer"
		add(r, dig(data, "boxes", "edges", "node", "offers", "edges", "node"), "legacyId")
		r.typ = "GiftcardPrototype"
		add(r, dig(data, "giftcardPrototypes", "edges", "node"), "legacyId")
		r.typ = "Event"
		add(r, dig(data, "eventSlots", "edges", "node", "event"), "legacyId")
		r.typ = "Workshop"
		add(r, dig(data, "workshopSessions", "edges", "node", "workshop"), "legacyId")
	}
	users := []string{"demo-chateau", "demo-market", "demo-atelier"}
	const admin = `{ viewer { user { id legacyId } partner { id uuid } }
		adminVoucherPrototypes(first: 1) { edges { node { id legacyId } } }
		adminOptions(first: 1) { edges { node { id legacyId } } }
		adminOptionCategories(first: 1) { edges { node { id legacyId } } }
		adminVouchers(first: 1) { edges { node { id code } } }
		adminGiftcards(first: 1) { edges { node { id legacyId } } }
		media(first: 1) { edges { node { id legacyId } } } }`
	for i, user := range users {
		tok, other := f.tokens[user], f.tokens[users[(i+1)%len(users)]]
		if tok == "" || other == "" {
			t.Fatalf("seed demo printed no token for %s: %v", user, f.tokens)
		}
		data, _ := f.ask(t, "", tok, admin, nil) // a list the account may not read is null
		r := nodeRecord{token: tok, otherTk: other}
		r.typ = "Partner"
		add(r, dig(data, "viewer", "partner"), "uuid")
		r.typ = "User"
		add(r, dig(data, "viewer", "user"), "legacyId")
		for typ, list := range map[string]string{"AdminVoucherPrototype": "adminVoucherPrototypes", "VoucherOption": "adminOptions",
			"OptionCategory": "adminOptionCategories", "AdminGiftcard": "adminGiftcards", "Media": "media"} {
			r.typ = typ
			add(r, dig(data, list, "edges", "node"), "legacyId")
		}
		r.typ = "AdminVoucher"
		add(r, dig(data, "adminVouchers", "edges", "node"), "code")
		if found["Cart"].id == "" {
			data, errs := f.ask(t, "", tok, `mutation { createCart(input: {items: [{productId: 1, quantity: 1}]}) { cart { id legacyId } } }`, nil)
			if len(errs) > 0 {
				t.Fatalf("createCart: %+v", errs)
			}
			r.typ = "Cart"
			add(r, dig(data, "createCart", "cart"), "legacyId")
		}
	}
	var out []nodeRecord
	for _, typ := range []string{"CataloguePartner", "Event", "Workshop", "Box", "BoxOffer", "GiftcardPrototype", "Media",
		"AdminVoucherPrototype", "VoucherOption", "OptionCategory", "AdminVoucher", "AdminGiftcard", "Cart", "Partner", "User"} {
		r, ok := found[typ]
		if !ok {
			t.Fatalf("the demo data has no %s to read", typ)
		}
		out = append(out, r)
	}
	return out
}

// Every Node type reads back through node and nodes, as its own lookup
// does: another tenant's record is null (NOT_FOUND), a string that is not
// a global id is BAD_USER_INPUT.
func TestGraphNode(t *testing.T) {
	t.Parallel()
	f := newNodeFixture(t)
	records := f.records(t)
	const one = `query($id: ID!) { node(id: $id) { __typename id } }`

	for _, r := range records {
		t.Run(r.typ, func(t *testing.T) {
			if want := globalID(r.typ, r.key); r.id != want {
				t.Errorf("id = %q, want %q (the base64url of %s:%s)", r.id, want, r.typ, r.key)
			}
			data, errs := f.ask(t, r.site, r.token, one, map[string]any{"id": r.id})
			if len(errs) > 0 || dig(data, "node", "__typename") != r.typ || dig(data, "node", "id") != r.id {
				t.Errorf("node: %v %+v", data, errs)
			}
			data, errs = f.ask(t, r.site, r.token, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`,
				map[string]any{"ids": []string{r.id, r.id}})
			if nodes, _ := data["nodes"].([]any); len(errs) > 0 || len(nodes) != 2 || dig(nodes[1], "id") != r.id {
				t.Errorf("nodes: %v %+v", data, errs)
			}
			// Another tenant: null, as its own lookup answers.
			data, errs = f.ask(t, r.otherSite, r.otherTk, one, map[string]any{"id": r.id})
			wantErrorCode(t, errs, "NOT_FOUND")
			if data["node"] != nil {
				t.Errorf("another tenant reads %v", data)
			}
		})
	}

	t.Run("NodesInOrderWithErrorsAtTheirIndex", func(t *testing.T) {
		var own nodeRecord
		for _, r := range records {
			if r.typ == "AdminVoucher" {
				own = r
			}
		}
		var rival string
		for _, r := range records {
			if r.token == own.otherTk && r.typ != "Cart" && r.typ != "Partner" {
				rival = r.id
			}
		}
		if rival == "" {
			rival = globalID("AdminVoucher", "NO-SUCH-CODE")
		}
		data, errs := f.ask(t, "", own.token, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
			map[string]any{"ids": []string{rival, own.id, "not-a-global-id"}})
		if got := fmt.Sprint(data["nodes"]); got != fmt.Sprintf("[<nil> map[id:%s] <nil>]", own.id) {
			t.Errorf("nodes = %s", got)
		}
		codes := map[string]string{}
		for _, e := range errs {
			codes[fmt.Sprint(e.Path)] = fmt.Sprint(e.Extensions["code"])
		}
		if len(errs) != 2 || codes["[nodes 0]"] != "NOT_FOUND" || codes["[nodes 2]"] != "BAD_USER_INPUT" {
			t.Errorf("errors = %+v", errs)
		}
	})

	t.Run("Malformed", func(t *testing.T) {
		for _, id := range []string{"", "1", "not-a-global-id", "Qm94OjE=", globalID("Box", "x"), globalID("Box", "01"),
			globalID("Box", 0), globalID("Nothing", 1), globalID("UserError", 1), globalID("Cart", "NOT-A-UUID"),
			base64.StdEncoding.EncodeToString([]byte("Box:1")) + "==", globalID("AdminVoucher", "")} {
			data, errs := f.ask(t, "", f.tokens["demo-staff"], one, map[string]any{"id": id})
			if data["node"] != nil || len(errs) != 1 || errs[0].Extensions["code"] != "BAD_USER_INPUT" {
				t.Errorf("node(id: %q): %v %+v, want BAD_USER_INPUT", id, data, errs)
			}
		}
		ids := make([]string, 101)
		for i := range ids {
			ids[i] = globalID("Box", i+1)
		}
		_, errs := f.ask(t, "", "", `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids})
		wantErrorCode(t, errs, "BAD_USER_INPUT")
	})

	t.Run("LookupsTakeGlobalIDs", func(t *testing.T) {
		for _, r := range records {
			var q string
			switch r.typ {
			case "CataloguePartner":
				q = "partner"
			case "Event", "Workshop", "Box", "GiftcardPrototype":
				q = strings.ToLower(r.typ[:1]) + r.typ[1:]
			case "Media":
				q = "mediaItem"
			case "AdminVoucherPrototype":
				q = "adminVoucherPrototype"
			case "VoucherOption":
				q = "adminOption"
			case "OptionCategory":
				q = "adminOptionCategory"
			case "AdminVoucher", "AdminGiftcard", "Partner":
				q = "admin" + strings.TrimPrefix(r.typ, "Admin")
				if r.typ == "Partner" {
					q = "adminPartner"
				}
			default:
				continue // cart(id:) takes the cart's UUID, its key
			}
			query := fmt.Sprintf(`query($id: ID!) { %s(id: $id) { id } }`, q)
			data, errs := f.ask(t, r.site, r.token, query, map[string]any{"id": r.id})
			if len(errs) > 0 || dig(data, q, "id") != r.id {
				t.Errorf("%s(id: global): %v %+v", q, data, errs)
			}
			if r.typ != "AdminVoucher" && r.typ != "Partner" { // the deprecated numeric id still reads
				data, errs = f.ask(t, r.site, r.token, query, map[string]any{"id": r.key})
				if len(errs) > 0 || dig(data, q, "id") != r.id {
					t.Errorf("%s(id: %s): %v %+v", q, r.key, data, errs)
				}
			}
			// Another type's global id names no record of this one.
			_, errs = f.ask(t, r.site, r.token, query, map[string]any{"id": globalID("Theme", 1)})
			wantErrorCode(t, errs, "NOT_FOUND")
			if r.typ == "AdminVoucher" || r.typ == "Partner" {
				// Localized is no Node: not a global id.
				_, errs = f.ask(t, r.site, r.token, query, map[string]any{"id": globalID("Localized", 1)})
				wantErrorCode(t, errs, "BAD_USER_INPUT")
			}
		}
	})
}

// List filters that name a Node record take its global id.
func TestGraphFiltersTakeGlobalIDs(t *testing.T) {
	t.Parallel()
	f := newNodeFixture(t)
	for _, r := range f.records(t) {
		var q string
		switch r.typ {
		case "CataloguePartner":
			q = `query($id: ID!) { partners(ids: [$id]) { totalCount } giftcardPrototypes(partnerId: $id) { totalCount } }`
		case "Workshop":
			q = `query($id: ID!) { workshopSessions(workshopId: $id) { totalCount } }`
		default:
			continue
		}
		byGlobal, errs := f.ask(t, r.site, "", q, map[string]any{"id": r.id})
		if len(errs) > 0 {
			t.Fatalf("%s: %+v", q, errs)
		}
		byRecord, errs := f.ask(t, r.site, "", q, map[string]any{"id": r.key})
		if len(errs) > 0 || fmt.Sprint(byGlobal) != fmt.Sprint(byRecord) {
			t.Errorf("%s: %v by global id, %v by record id %+v", r.typ, byGlobal, byRecord, errs)
		}
		if n := dig(byGlobal, "partners", "totalCount"); r.typ == "CataloguePartner" && n != float64(1) {
			t.Errorf("partners(ids: [global id]) = %v, want 1", n)
		}
		if n, _ := dig(byGlobal, "workshopSessions", "totalCount").(float64); r.typ == "Workshop" && n < 1 {
			t.Errorf("workshopSessions(workshopId: global id) = %v", byGlobal)
		}
	}
}

// Lookups are nullable: a record that is not there nulls its own field,
// and the rest of the answer stays.
func TestGraphNullableLookups(t *testing.T) {
	t.Parallel()
	f := newNodeFixture(t)
	staff := f.tokens["demo-staff"]
	for _, c := range []struct{ name, query string }{
		{"adminPartner", `{ adminPartner(uuid: "00000000-0000-4000-8000-000000000000") { uuid } }`},
		{"adminPartner", `{ adminPartner(id: "` + globalID("Partner", "00000000-0000-4000-8000-000000000000") + `") { uuid } }`},
		{"adminVoucher", `{ adminVoucher(code: "NO-SUCH-CODE") { code } }`},
		{"adminVoucher", `{ adminVoucher(id: "` + globalID("AdminVoucher", "NO-SUCH-CODE") + `") { code } }`},
		{"adminGiftcard", `{ adminGiftcard(code: "NO-SUCH-CODE") { code } }`},
		{"adminGiftcard", `{ adminGiftcard(id: "` + globalID("AdminGiftcard", 999999) + `") { code } }`},
	} {
		query := strings.Replace(c.query, "{ ", "{ viewer { user { username } } ", 1)
		data, errs := f.ask(t, "", staff, query, nil)
		wantErrorCode(t, errs, "NOT_FOUND")
		if v, ok := data[c.name]; !ok || v != nil || dig(data, "viewer", "user", "username") != "demo-staff" {
			t.Errorf("%s: data = %v, want %s null beside the viewer", c.query, data, c.name)
		}
	}
	// Exactly one of id and uuid (code).
	for _, q := range []string{`{ adminPartner { uuid } }`, `{ adminVoucher { code } }`,
		`{ adminVoucher(id: "x", code: "y") { code } }`} {
		_, errs := f.ask(t, "", staff, q, nil)
		wantErrorCode(t, errs, "BAD_USER_INPUT")
	}
}

// The administration records' amounts carry their partner's currency.
func TestGraphAdminCurrencyCodes(t *testing.T) {
	t.Parallel()
	f := newNodeFixture(t)
	data, errs := f.ask(t, "", f.tokens["demo-chateau"], `{
		adminVoucherPrototypes(first: 1) { edges { node { currencyCode } } }
		adminOptions(first: 1) { edges { node { currencyCode } } }
		adminVouchers(first: 1) { edges { node { currencyCode } } }
		adminGiftcards(first: 1) { edges { node { currencyCode } } } }`, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, list := range []string{"adminVoucherPrototypes", "adminOptions", "adminVouchers", "adminGiftcards"} {
		if got := dig(data, list, "edges", "node", "currencyCode"); got != "EUR" {
			t.Errorf("%s currencyCode = %v, want EUR", list, got)
		}
	}
}
