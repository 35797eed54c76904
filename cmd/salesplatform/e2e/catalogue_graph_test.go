package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/client"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/domain/l10n"
	"salesplatform/persistence"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
)

// gcFixture is the service's handler behind gqlgen's test client, on a
// database whose statements it counts, with the partners the GraphQL
// catalogue tests share:
//   - market: a marketplace at market.example.com whose prices are in CHF;
//   - shop: a partner at shop.example.com in market's network, with a token;
//   - other: a partner without a site domain, outside the network, with a
//     token;
//   - a staff account without a partner.
type gcFixture struct {
	h     http.Handler
	c     *client.Client
	db    *bun.DB
	stmts *dbtest.StatementCounter

	partners  domain.PartnerStore
	catalog   *persistence.PartnerCatalogStore
	events    *persistence.EventStore
	workshops *persistence.WorkshopStore
	boxes     catalogue.BoxStore
	protos    *persistence.PrototypeStore

	market, shop, other         *domain.Partner
	shopTok, otherTok, staffTok string
	readerTok                   string // a partner's account without permissions
}

func newGCFixture(t *testing.T) *gcFixture {
	t.Helper()
	ctx := context.Background()
	dsn := dbtest.NewDSN(t)
	f := &gcFixture{stmts: &dbtest.StatementCounter{}}
	// Managing a catalogue needs manage_masteradmin; reader has none.
	manage := []string{"--permission", domain.PermManageMasterAdmin}
	CreateUser(t, dsn, append([]string{"--username", "market", "--password", "market-password",
		"--partner-name", "Market", "--partner-domain", "market.example.com", "--marketplace"}, manage...)...)
	f.shopTok = CreateUser(t, dsn, append([]string{"--username", "shop", "--password", "shop-password",
		"--partner-name", "Shop", "--partner-domain", "shop.example.com"}, manage...)...)
	f.otherTok = CreateUser(t, dsn, append([]string{"--username", "other", "--password", "other-password",
		"--partner-name", "Other"}, manage...)...)
	f.readerTok = CreateUser(t, dsn, "--username", "viewer", "--password", "viewer-password", "--partner-name", "Viewer")
	f.staffTok = CreateUser(t, dsn, "--username", "staff", "--password", "staff-password", "--staff")
	db, err := dbtest.OpenCounted(ctx, dsn, f.stmts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	f.db = db
	f.partners = persistence.NewDatabase(db).Stores().Partners
	f.catalog = persistence.NewPartnerCatalogStore(db)
	f.events, f.workshops = persistence.NewEventStore(db), persistence.NewWorkshopStore(db)
	f.boxes, f.protos = persistence.BoxStores(db).Boxes, persistence.NewPrototypeStore(db)
	_, err = db.ExecContext(ctx, "UPDATE partners SET currency = 'CHF' WHERE name = 'Market'")
	gcMust(t, err)
	f.market, f.shop, f.other = f.partnerOf(t, "market"), f.partnerOf(t, "shop"), f.partnerOf(t, "other")
	gcMust(t, f.catalog.AddNetworkPartner(ctx, f.market.ID, f.shop.ID))

	f.h = Handler(t, db)
	f.c = client.New(f.h)
	return f
}

func gcMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// partnerOf returns the partner of a user created by createuser.
func (f *gcFixture) partnerOf(t *testing.T, username string) *domain.Partner {
	t.Helper()
	var id int64
	gcMust(t, f.db.NewRaw("SELECT partner_id FROM users WHERE username = ?", username).Scan(context.Background(), &id))
	p, err := f.partners.FindPartnerByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// networkPartner creates an active partner in market's network with a
// profile and two labels.
func (f *gcFixture) networkPartner(t *testing.T, name string) *domain.Partner {
	t.Helper()
	ctx := context.Background()
	p := &domain.Partner{Name: name, Status: domain.PartnerStatusActive}
	gcMust(t, f.partners.CreatePartner(ctx, p))
	gcMust(t, f.catalog.AddNetworkPartner(ctx, f.market.ID, p.ID))
	gcMust(t, f.catalog.SavePartnerProfile(ctx, p.ID, &catalogue.PartnerProfile{
		Description: domain.Localized{"fr": "Chez " + name}, Region: "Bretagne", Department: "Finistère", City: "Brest"}))
	for _, label := range []string{"Label A", "Label B"} {
		gcMust(t, f.catalog.AddPartnerLabel(ctx, &catalogue.PartnerLabel{PartnerID: p.ID, Name: label,
			LogoURL: "https://cdn.example.com/" + label + ".png"}))
	}
	return p
}

// box creates an active box of market with validated offers from partners.
func (f *gcFixture) box(t *testing.T, name, price string, ranking int, partners ...*domain.Partner) *catalogue.Box {
	t.Helper()
	ctx := context.Background()
	b := &catalogue.Box{MarketplaceID: f.market.ID, Name: domain.Localized{"fr": name, "en": name}, IsActive: true,
		Price: decimal.RequireFromString(price), Ranking: ranking, Images: []string{"https://cdn.example.com/" + name + ".jpg"}}
	gcMust(t, f.boxes.CreateBox(ctx, b))
	for _, p := range partners {
		gcMust(t, f.boxes.CreateBoxOffer(ctx, &catalogue.BoxOffer{BoxID: b.ID, PartnerID: p.ID, Status: catalogue.BoxOfferStatusValidated}))
	}
	return b
}

// ask runs an operation for the catalogue of site (X-Partner-Domain, "" for
// none) with token ("" for none), and returns its data and errors.
func (f *gcFixture) ask(t *testing.T, site, token, query string, vars map[string]any) (json.RawMessage, []gqlError) {
	t.Helper()
	return postAt(t, f.c, site, token, query, vars)
}

// mustAsk is ask for an operation that must succeed.
func (f *gcFixture) mustAsk(t *testing.T, site, token, query string, vars map[string]any) json.RawMessage {
	t.Helper()
	data, errs := f.ask(t, site, token, query, vars)
	if errs != nil {
		t.Fatalf("errors: %+v", errs)
	}
	return data
}

const gcMarket = "market.example.com"

// gcMoneyJSON is the JSON of a Money with its formatted texts.
func gcMoneyJSON(amount, currency string) string {
	formatted, _ := json.Marshal(l10n.Money(decimal.RequireFromString(amount), currency))
	return fmt.Sprintf(`{"amount":%q,"currency":%q,"formatted":%s}`, amount, currency, formatted)
}

// TestGraphCatalogueStatementCount proves that nested lists and references
// load in batches: a three-level query costs the same number of statements
// for 2 rows as for 10.
func TestGraphCatalogueStatementCount(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	ctx := context.Background()

	// count runs q for market's catalogue and returns its statements: the
	// least of three runs. Loaders gather keys for a few milliseconds; on a
	// starved machine a batch may split in two, one statement more, which
	// is latency, not a statement per row (that would show in every run).
	count := func(t *testing.T, q string, rows int) int {
		t.Helper()
		least := -1
		for range 3 {
			f.stmts.Reset()
			data := f.mustAsk(t, gcMarket, "", q, nil)
			if !strings.Contains(string(data), fmt.Sprintf(`"totalCount":%d`, rows)) {
				t.Fatalf("want %d rows at the top: %s", rows, data)
			}
			if n := f.stmts.Count(); least < 0 || n < least {
				least = n
				t.Logf("%d statements for %d rows:\n%s", n, rows, strings.Join(f.stmts.Queries(), "\n"))
			}
		}
		return least
	}

	t.Run("BoxesOffersPartnersLabels", func(t *testing.T) {
		q := `{ boxes(first: 50) { totalCount edges { node { id images
			offers(first: 10) { totalCount edges { node { id partner { id name labels { name logo } } } } } } } } }`
		addBoxes := func(from, to int) {
			for i := from; i < to; i++ {
				p1, p2 := f.networkPartner(t, fmt.Sprintf("P%da", i)), f.networkPartner(t, fmt.Sprintf("P%db", i))
				f.box(t, fmt.Sprintf("Box %d", i), "10", i, p1, p2)
			}
		}
		addBoxes(0, 2)
		small := count(t, q, 2)
		addBoxes(2, 10)
		large := count(t, q, 10)
		if small != large {
			t.Errorf("2 boxes: %d statements, 10 boxes: %d; want the same", small, large)
		}
	})

	// A keyset list is counted only when the query asks for its
	// totalCount, or names a cursor (whose item must be in the list).
	t.Run("BoxesCountedWhenAsked", func(t *testing.T) {
		for i := range 3 {
			f.box(t, fmt.Sprintf("Counted %d", i), "10", 100+i, f.networkPartner(t, fmt.Sprintf("C%d", i)))
		}
		counted := func(q string) (json.RawMessage, bool) {
			t.Helper()
			f.mustAsk(t, gcMarket, "", q, nil) // the scope partner is read once, then kept
			f.stmts.Reset()
			data := f.mustAsk(t, gcMarket, "", q, nil)
			n := 0
			for _, stmt := range f.stmts.Queries() {
				if strings.Contains(stmt, "count(*) FILTER") {
					n++
				}
			}
			if n > 1 {
				t.Errorf("%s: %d counts", q, n)
			}
			return data, n == 1
		}
		data, ok := counted(`{ boxes(first: 2) { edges { cursor node { id } } pageInfo { hasNextPage } } }`)
		if ok {
			t.Error("counted without totalCount")
		}
		var page struct {
			Boxes struct {
				Edges []struct{ Cursor string }
			}
		}
		if err := json.Unmarshal(data, &page); err != nil || len(page.Boxes.Edges) != 2 || !strings.Contains(string(data), `"hasNextPage":true`) {
			t.Fatalf("page: %s", data)
		}
		if data, ok := counted(`{ boxes(first: 2) { totalCount edges { node { id } } } }`); !ok || strings.Contains(string(data), `"totalCount":0`) {
			t.Errorf("totalCount asked: counted %v, %s", ok, data)
		}
		if _, ok := counted(`{ boxes(first: 1, after: "` + page.Boxes.Edges[0].Cursor + `") { edges { node { id } } } }`); !ok {
			t.Error("a cursor was not checked")
		}
	})

	t.Run("SessionsWorkshopsSessions", func(t *testing.T) {
		q := `{ workshopSessions(first: 50) { totalCount edges { node { id
			workshop { id name { fr } category { name { fr } price { amount } } themes { id }
				sessions(first: 5) { totalCount edges { node { id startingDatetime } } } } } } } }`
		cat := &catalogue.WorkshopCategory{PartnerID: f.market.ID, Name: domain.Localized{"fr": "Cuisine"}, Price: decimal.RequireFromString("30")}
		gcMust(t, f.workshops.CreateWorkshopCategory(ctx, cat))
		start := time.Now().Add(48 * time.Hour).Truncate(time.Hour)
		addWorkshops := func(from, to int) {
			for i := from; i < to; i++ {
				w := &catalogue.Workshop{PartnerID: f.market.ID, CategoryID: cat.ID, Name: domain.Localized{"fr": fmt.Sprintf("Atelier %d", i)}}
				gcMust(t, f.workshops.CreateWorkshop(ctx, w))
				for j := range 2 {
					gcMust(t, f.workshops.AddWorkshopSession(ctx, &catalogue.WorkshopSession{WorkshopID: w.ID,
						StartingAt: start.Add(time.Duration(i*24+j) * time.Hour), EndingAt: start.Add(time.Duration(i*24+j+1) * time.Hour),
						MaxCapacity: 10, AvailablePlaces: 5}))
				}
			}
		}
		addWorkshops(0, 2)
		small := count(t, q, 4)
		addWorkshops(2, 10)
		large := count(t, q, 20)
		if small != large {
			t.Errorf("2 workshops: %d statements, 10 workshops: %d; want the same", small, large)
		}
	})
}

// gcJSON marshals v for an expected body.
func gcJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// gcLocalized is the JSON of a Localized with all eight languages: null
// but where pairs (language, text, ...) give a text.
func gcLocalized(pairs ...string) string {
	m := map[string]any{}
	for _, lang := range domain.Languages {
		m[lang] = nil
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return gcJSON(m)
}

const gcAllLanguages = `fr en es it de nl ca pt`

// gcErrorCode fails unless errs is one error with the code and message (""
// for any message) at path.
func gcErrorCode(t *testing.T, errs []gqlError, code, message, path string) {
	t.Helper()
	if len(errs) != 1 || errs[0].Extensions["code"] != code {
		t.Fatalf("errors = %+v, want one with code %s", errs, code)
	}
	if message != "" && errs[0].Message != message {
		t.Errorf("message = %q, want %q", errs[0].Message, message)
	}
	if got := fmt.Sprint(errs[0].Path); path != "" && got != path {
		t.Errorf("path = %s, want %s", got, path)
	}
}

func TestGraphCataloguePartners(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	ctx := context.Background()
	alpha, beta := f.networkPartner(t, "Alpha"), f.networkPartner(t, "Beta")
	closed := &domain.Partner{Name: "Closed", Status: domain.PartnerStatusInactive}
	gcMust(t, f.partners.CreatePartner(ctx, closed))
	gcMust(t, f.catalog.AddNetworkPartner(ctx, f.market.ID, closed.ID))
	lat, lng := decimal.RequireFromString("48.856600"), decimal.RequireFromString("2.352200")
	gcMust(t, f.catalog.SavePartnerProfile(ctx, f.shop.ID, &catalogue.PartnerProfile{
		Description: domain.Localized{"fr": "Une boutique", "en": "A shop"}, Managers: domain.Localized{"fr": "Anne"},
		Region: "Île-de-France", Department: "Paris", City: "Paris", Latitude: &lat, Longitude: &lng,
		Facilities:  catalogue.PartnerFacilities{DisabledAccess: true, Wifi: true},
		SocialLinks: map[string]string{"instagram": "https://instagram.example/shop", "facebook": "https://facebook.example/shop"},
	}))
	gcMust(t, f.catalog.AddPartnerLabel(ctx, &catalogue.PartnerLabel{PartnerID: f.shop.ID, Name: "Bio", LogoURL: "https://cdn.example.com/bio.png"}))
	listed := []*domain.Partner{f.shop, alpha, beta} // by id
	page := `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id: legacyId name } }`

	t.Run("OKFirstPageThenNext", func(t *testing.T) {
		q := `query($after: String) { partners(first: 2, after: $after) { ` + page + ` } }`
		data := f.mustAsk(t, gcMarket, "", q, nil)
		WantJSON(t, data, fmt.Sprintf(`{"partners": {"totalCount": 3,
			"pageInfo": {"hasNextPage": true, "hasPreviousPage": false, "startCursor": %q, "endCursor": %q},
			"edges": [{"cursor": %[1]q, "node": {"id": "%[3]d", "name": "Shop"}}, {"cursor": %[2]q, "node": {"id": "%[4]d", "name": "Alpha"}}]}}`,
			encodeOffset(0), encodeOffset(1), f.shop.ID, alpha.ID))
		data = f.mustAsk(t, gcMarket, "", q, map[string]any{"after": encodeOffset(1)})
		WantJSON(t, data, fmt.Sprintf(`{"partners": {"totalCount": 3,
			"pageInfo": {"hasNextPage": false, "hasPreviousPage": true, "startCursor": %q, "endCursor": %[1]q},
			"edges": [{"cursor": %[1]q, "node": {"id": "%[2]d", "name": "Beta"}}]}}`, encodeOffset(2), beta.ID))
	})

	t.Run("OKWindowAcrossPages", func(t *testing.T) {
		// Two items after the first: not a numbered page of size 2.
		data := f.mustAsk(t, gcMarket, "", `{ partners(first: 2, after: "`+encodeOffset(0)+`") { edges { cursor node { name } } } }`, nil)
		WantJSON(t, data, fmt.Sprintf(`{"partners": {"edges": [{"cursor": %q, "node": {"name": "Alpha"}}, {"cursor": %q, "node": {"name": "Beta"}}]}}`,
			encodeOffset(1), encodeOffset(2)))
	})

	t.Run("OKCountOnlyAndPastTheEnd", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", `{ partners(first: 0) { `+page+` } }`, nil)
		WantJSON(t, data, `{"partners": {"totalCount": 3, "edges": [],
			"pageInfo": {"hasNextPage": true, "hasPreviousPage": false, "startCursor": null, "endCursor": null}}}`)
		for _, first := range []int{1, 20} {
			data = f.mustAsk(t, gcMarket, "", fmt.Sprintf(`{ partners(first: %d, after: "%s") { `+page+` } }`, first, encodeOffset(6)), nil)
			WantJSON(t, data, `{"partners": {"totalCount": 3, "edges": [],
				"pageInfo": {"hasNextPage": false, "hasPreviousPage": true, "startCursor": null, "endCursor": null}}}`)
		}
	})

	t.Run("OKLastAndBefore", func(t *testing.T) {
		q := `query($last: Int, $before: String, $first: Int) { partners(last: $last, before: $before, first: $first) { ` + page + ` } }`
		// The last two, then the one before them: offsets, from the
		// list's length.
		data := f.mustAsk(t, gcMarket, "", q, map[string]any{"last": 2})
		WantJSON(t, data, fmt.Sprintf(`{"partners": {"totalCount": 3,
			"pageInfo": {"hasNextPage": false, "hasPreviousPage": true, "startCursor": %q, "endCursor": %q},
			"edges": [{"cursor": %[1]q, "node": {"id": "%[3]d", "name": "Alpha"}}, {"cursor": %[2]q, "node": {"id": "%[4]d", "name": "Beta"}}]}}`,
			encodeOffset(1), encodeOffset(2), alpha.ID, beta.ID))
		data = f.mustAsk(t, gcMarket, "", q, map[string]any{"last": 2, "before": encodeOffset(1)})
		WantJSON(t, data, fmt.Sprintf(`{"partners": {"totalCount": 3,
			"pageInfo": {"hasNextPage": true, "hasPreviousPage": false, "startCursor": %q, "endCursor": %[1]q},
			"edges": [{"cursor": %[1]q, "node": {"id": "%[2]d", "name": "Shop"}}]}}`, encodeOffset(0), f.shop.ID))
		// Before the first item, and first with before.
		data = f.mustAsk(t, gcMarket, "", q, map[string]any{"before": encodeOffset(0)})
		WantJSON(t, data, `{"partners": {"totalCount": 3, "edges": [],
			"pageInfo": {"hasNextPage": true, "hasPreviousPage": false, "startCursor": null, "endCursor": null}}}`)
		data = f.mustAsk(t, gcMarket, "", q, map[string]any{"first": 5, "before": encodeOffset(2)})
		WantJSON(t, data, fmt.Sprintf(`{"partners": {"totalCount": 3,
			"pageInfo": {"hasNextPage": true, "hasPreviousPage": false, "startCursor": %q, "endCursor": %q},
			"edges": [{"cursor": %[1]q, "node": {"id": "%[3]d", "name": "Shop"}}, {"cursor": %[2]q, "node": {"id": "%[4]d", "name": "Alpha"}}]}}`,
			encodeOffset(0), encodeOffset(1), f.shop.ID, alpha.ID))
		// More than the list holds.
		data = f.mustAsk(t, gcMarket, "", `{ partners(last: 50) { edges { node { name } } pageInfo { hasPreviousPage } } }`, nil)
		WantJSON(t, data, `{"partners": {"edges": [{"node": {"name": "Shop"}}, {"node": {"name": "Alpha"}}, {"node": {"name": "Beta"}}],
			"pageInfo": {"hasPreviousPage": false}}}`)
	})

	t.Run("OKEveryField", func(t *testing.T) {
		q := `query($ids: [ID!]) { partners(ids: $ids) { edges { node { id: legacyId name
			description { ` + gcAllLanguages + ` } managers { fr text(lang: FR) } nearby { fr } practicalInformation { fr }
			access { fr } commercialDescription { fr } region department city latitude longitude
			facilities { disabledAccess airConditioning privateParking wifi smokingArea petsAllowed familyFriendly }
			socialLinks { key value } labels { name logo } } } } }`
		data := f.mustAsk(t, gcMarket, "", q, map[string]any{"ids": []string{fmt.Sprint(f.shop.ID)}})
		WantJSON(t, data, fmt.Sprintf(`{"partners": {"edges": [{"node": {"id": "%d", "name": "Shop",
			"description": %s, "managers": {"fr": "Anne", "text": "Anne"}, "nearby": {"fr": null},
			"practicalInformation": {"fr": null}, "access": {"fr": null}, "commercialDescription": {"fr": null},
			"region": "Île-de-France", "department": "Paris", "city": "Paris", "latitude": 48.8566, "longitude": 2.3522,
			"facilities": {"disabledAccess": true, "airConditioning": false, "privateParking": false, "wifi": true,
				"smokingArea": false, "petsAllowed": false, "familyFriendly": false},
			"socialLinks": [{"key": "facebook", "value": "https://facebook.example/shop"}, {"key": "instagram", "value": "https://instagram.example/shop"}],
			"labels": [{"name": "Bio", "logo": "https://cdn.example.com/bio.png"}]}}]}}`,
			f.shop.ID, gcLocalized("fr", "Une boutique", "en", "A shop")))
	})

	t.Run("OKFilters", func(t *testing.T) {
		names := func(t *testing.T, args string) string {
			t.Helper()
			return string(f.mustAsk(t, gcMarket, "", `{ partners`+args+` { totalCount edges { node { name } } } }`, nil))
		}
		WantJSON(t, []byte(names(t, `(department: "FINISTÈRE")`)), `{"partners": {"totalCount": 2, "edges": [{"node": {"name": "Alpha"}}, {"node": {"name": "Beta"}}]}}`)
		WantJSON(t, []byte(names(t, fmt.Sprintf(`(ids: ["%d", "%d", "%d"])`, beta.ID, closed.ID, f.other.ID))),
			`{"partners": {"totalCount": 1, "edges": [{"node": {"name": "Beta"}}]}}`)
		WantJSON(t, []byte(names(t, `(ids: [])`)), `{"partners": {"totalCount": 0, "edges": []}}`)
	})

	t.Run("ErrArguments", func(t *testing.T) {
		data, errs := f.ask(t, gcMarket, "", `{ partners(ids: ["1", "two"]) { totalCount } }`, nil)
		gcErrorCode(t, errs, "BAD_USER_INPUT", "ids: Enter a whole number.", "[partners]")
		if string(data) != "null" {
			t.Errorf("data = %s, want null", data)
		}
		_, errs = f.ask(t, gcMarket, "", `{ partners(after: "bm9wZQ==") { totalCount } }`, nil)
		gcErrorCode(t, errs, "BAD_USER_INPUT", "after: Invalid cursor.", "[partners]")
		_, errs = f.ask(t, gcMarket, "", `{ partners(first: -1) { totalCount } }`, nil)
		gcErrorCode(t, errs, "BAD_USER_INPUT", "first: Ensure this value is greater than or equal to 0.", "[partners]")
		_, errs = f.ask(t, gcMarket, "", `{ partners(last: -1) { totalCount } }`, nil)
		gcErrorCode(t, errs, "BAD_USER_INPUT", "last: Ensure this value is greater than or equal to 0.", "[partners]")
		_, errs = f.ask(t, gcMarket, "", `{ partners(first: 1, last: 1) { totalCount } }`, nil)
		gcErrorCode(t, errs, "BAD_USER_INPUT", "last: Give first or last, not both.", "[partners]")
		_, errs = f.ask(t, gcMarket, "", `{ partners(last: 1, before: "bm9wZQ==") { totalCount } }`, nil)
		gcErrorCode(t, errs, "BAD_USER_INPUT", "before: Invalid cursor.", "[partners]")
	})

	t.Run("OKPartnerAndCurrentPartner", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", fmt.Sprintf(`{ partner(id: "%d") { name labels { name } } currentPartner { id: legacyId name } }`, alpha.ID), nil)
		WantJSON(t, data, fmt.Sprintf(`{"partner": {"name": "Alpha", "labels": [{"name": "Label A"}, {"name": "Label B"}]},
			"currentPartner": {"id": "%d", "name": "Market"}}`, f.market.ID))
		// A partner's own catalogue shows itself alone.
		data = f.mustAsk(t, "", f.shopTok, `{ partners { edges { node { name } } } currentPartner { name } }`, nil)
		WantJSON(t, data, `{"partners": {"edges": [{"node": {"name": "Shop"}}]}, "currentPartner": {"name": "Shop"}}`)
	})

	t.Run("ErrNotInTheCatalogue", func(t *testing.T) {
		for _, p := range []*domain.Partner{closed, f.other, f.market} {
			data, errs := f.ask(t, gcMarket, "", fmt.Sprintf(`{ partner(id: "%d") { name } }`, p.ID), nil)
			gcErrorCode(t, errs, "NOT_FOUND", "Not found.", "[partner]")
			WantJSON(t, data, `{"partner": null}`)
		}
	})

	t.Run("OKDestinations", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", `{ destinations { city department region } }`, nil)
		WantJSON(t, data, `{"destinations": [
			{"city": "Brest", "department": "Finistère", "region": "Bretagne"},
			{"city": "Paris", "department": "Paris", "region": "Île-de-France"}]}`)
	})

	t.Run("OKLegalInformationAndTerms", func(t *testing.T) {
		gcMust(t, f.catalog.SaveLegalInformation(ctx, f.market.ID, &catalogue.LegalInformation{AgencyName: "Market SA",
			City: "Genève", CapitalStock: decimal.RequireFromString("1000.5"), SIRETNumber: "123", VATID: "CHE-1"}))
		gcMust(t, f.catalog.SaveRefundWithdrawalTerms(ctx, f.market.ID, domain.Localized{"fr": "Remboursé", "en": " "}))
		data := f.mustAsk(t, gcMarket, "", `{ legalInformation { agencyName name city addressLine1 capitalStock currencySymbol
			siretNumber vatId creationDate } refundWithdrawalTerms { `+gcAllLanguages+` } }`, nil)
		var out struct {
			LegalInformation      map[string]any
			RefundWithdrawalTerms json.RawMessage
		}
		gcMust(t, json.Unmarshal(data, &out))
		li := out.LegalInformation
		created, err := time.Parse(time.RFC3339Nano, li["creationDate"].(string))
		if err != nil || !created.Equal(f.market.CreatedAt) || !strings.HasSuffix(li["creationDate"].(string), "+01:00") {
			t.Errorf("creationDate = %v (%v), want %v in Europe/Paris", li["creationDate"], err, f.market.CreatedAt)
		}
		delete(li, "creationDate")
		WantJSON(t, []byte(gcJSON(li)), `{"agencyName": "Market SA", "name": "Market", "city": "Genève", "addressLine1": "",
			"capitalStock": "1000.50", "currencySymbol": "CHF", "siretNumber": "123", "vatId": "CHE-1"}`)
		WantJSON(t, out.RefundWithdrawalTerms, `{"fr": "Remboursé", "en": "-", "es": "-", "it": "-", "de": "-", "nl": "-", "ca": "-", "pt": "-"}`)
	})

	t.Run("OKProductInformation", func(t *testing.T) {
		gcMust(t, f.catalog.SaveNetworkGiftcardsProductInformation(ctx, f.market.ID, &catalogue.NetworkGiftcardsProductInformation{
			Title: domain.Localized{"fr": "Carte réseau"},
			Giftcard: catalogue.NetworkGiftcardSettings{MinimumAmount: decimal.RequireFromString("20"),
				PredefinedAmounts: []decimal.Decimal{decimal.RequireFromString("50")}, ValidityPeriod: 6, ValidityUnit: "month"},
			MoneyPot: catalogue.NetworkGiftcardMoneyPot{Activated: true, Logo: "https://cdn.example.com/pot.png"}}))
		gcMust(t, f.catalog.SaveWorkshopsProductInformation(ctx, f.market.ID, &catalogue.WorkshopsProductInformation{
			TOSURL: map[string]string{"fr": "https://market.example.com/cgv"}, DisplayPhoneNumber: true, PhoneNumber: "+41 22"}))
		data := f.mustAsk(t, gcMarket, "", `{ productInformation {
			events { title { fr } tosUrl { key } displayEventsPerSlots }
			giftcards { partners { id agencyName } }
			networkGiftcards { title { fr } giftcard { minimumAmount { amount currency formatted { en } } predefinedAmounts { amount } validityUnit }
				moneyPot { activated logo } }
			networkVouchers { displayByUniverse validityPeriodUnit }
			vouchers { subtitle { fr } methodOfDisplay }
			workshops { tosUrl { key value } displayPhoneNumber phoneNumber } } }`, nil)
		WantJSON(t, data, fmt.Sprintf(`{"productInformation": {
			"events": {"title": {"fr": null}, "tosUrl": [], "displayEventsPerSlots": false},
			"giftcards": {"partners": [{"id": %q, "agencyName": "Shop"}, {"id": %q, "agencyName": "Alpha"}, {"id": %q, "agencyName": "Beta"}]},
			"networkGiftcards": {"title": {"fr": "Carte réseau"},
				"giftcard": {"minimumAmount": {"amount": "20.00", "currency": "CHF", "formatted": {"en": "CHF\u00a020.00"}},
					"predefinedAmounts": [{"amount": "50.00"}], "validityUnit": "MONTH"},
				"moneyPot": {"activated": true, "logo": "https://cdn.example.com/pot.png"}},
			"networkVouchers": {"displayByUniverse": false, "validityPeriodUnit": 0},
			"vouchers": {"subtitle": {"fr": null}, "methodOfDisplay": 0},
			"workshops": {"tosUrl": [{"key": "fr", "value": "https://market.example.com/cgv"}], "displayPhoneNumber": true, "phoneNumber": "+41 22"}}}`,
			globalID("PartnerAgency", listed[0].ID), globalID("PartnerAgency", listed[1].ID), globalID("PartnerAgency", listed[2].ID)))
	})
}

// encodeOffset is the cursor of the item at offset: base64 of "offset:N".
func encodeOffset(n int) string {
	return base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("offset:%d", n)))
}

func TestGraphCatalogueScope(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	q := `{ currentPartner { name } }`

	t.Run("OKSiteOrCaller", func(t *testing.T) {
		WantJSON(t, f.mustAsk(t, "shop.example.com", "", q, nil), `{"currentPartner": {"name": "Shop"}}`)
		WantJSON(t, f.mustAsk(t, "", f.otherTok, q, nil), `{"currentPartner": {"name": "Other"}}`)
		// The header names the catalogue, whoever asks.
		WantJSON(t, f.mustAsk(t, "SHOP.example.com", f.otherTok, q, nil), `{"currentPartner": {"name": "Shop"}}`)
	})
	t.Run("ErrUnknownSite", func(t *testing.T) {
		data, errs := f.ask(t, "nowhere.example.com", "", `{ boxes { totalCount } }`, nil)
		gcErrorCode(t, errs, "NOT_FOUND", "Not found.", "[boxes]")
		if string(data) != "null" {
			t.Errorf("data = %s, want null", data)
		}
	})
	t.Run("ErrNoPartner", func(t *testing.T) {
		for _, token := range []string{"", f.staffTok} {
			_, errs := f.ask(t, "", token, q, nil)
			gcErrorCode(t, errs, "BAD_USER_INPUT", domain.MsgPartnerRequired, "[currentPartner]")
		}
	})
	t.Run("ErrRefusedToken", func(t *testing.T) {
		_, errs := f.ask(t, "", "0123456789abcdef0123456789abcdef01234567", q, nil)
		gcErrorCode(t, errs, "UNAUTHENTICATED", "Invalid token.", "[currentPartner]")
	})
	t.Run("ErrOtherPartnersRecord", func(t *testing.T) {
		ctx := context.Background()
		e := &catalogue.Event{PartnerID: f.other.ID, Name: domain.Localized{"fr": "Concert"}}
		gcMust(t, f.events.CreateEvent(ctx, e))
		cat := &catalogue.WorkshopCategory{PartnerID: f.other.ID, Name: domain.Localized{"fr": "Cat"}, Price: decimal.RequireFromString("1")}
		gcMust(t, f.workshops.CreateWorkshopCategory(ctx, cat))
		w := &catalogue.Workshop{PartnerID: f.other.ID, CategoryID: cat.ID}
		gcMust(t, f.workshops.CreateWorkshop(ctx, w))
		g := &catalogue.GiftcardPrototype{PartnerID: f.other.ID, ValidityPeriod: 1, ValidityUnit: catalogue.ValidityYear}
		gcMust(t, f.protos.CreateGiftcardPrototype(ctx, g))
		for field, id := range map[string]int64{"event": e.ID, "workshop": w.ID, "giftcardPrototype": g.ID} {
			data, errs := f.ask(t, "shop.example.com", "", fmt.Sprintf(`{ %s(id: "%d") { id } }`, field, id), nil)
			gcErrorCode(t, errs, "NOT_FOUND", "Not found.", "["+field+"]")
			WantJSON(t, data, `{"`+field+`": null}`)
			// Its owner sees it.
			f.mustAsk(t, "", f.otherTok, fmt.Sprintf(`{ %s(id: "%d") { id } }`, field, id), nil)
		}
		// Nested lists of another partner's records are empty: the
		// workshop's sessions through shop's catalogue cannot be reached,
		// and a list filtered on it is empty.
		data := f.mustAsk(t, "shop.example.com", "", fmt.Sprintf(`{ workshopSessions(workshopId: "%d") { totalCount } }`, w.ID), nil)
		WantJSON(t, data, `{"workshopSessions": {"totalCount": 0}}`)
	})
}

func TestGraphCatalogueEvents(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	ctx := context.Background()
	paris, _ := time.LoadLocation("Europe/Paris")
	day := time.Now().Add(72 * time.Hour).Truncate(24 * time.Hour).Add(18 * time.Hour)
	concert := &catalogue.Event{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Concert", "en": "Concert"},
		ShortDescription: domain.Localized{"fr": "Live"}, CoverImage: "https://cdn.example.com/c.jpg",
		Images:          []string{"https://cdn.example.com/1.jpg"},
		DeliveryOptions: catalogue.DeliveryOptions{EmailToBuyer: true, PostalMailShippingCost: decimal.RequireFromString("4.5")}}
	gcMust(t, f.events.CreateEvent(ctx, concert))
	for _, fo := range []catalogue.EventFormula{{Name: domain.Localized{"fr": "Plein"}, Price: decimal.RequireFromString("25")},
		{Name: domain.Localized{"fr": "Réduit"}, Price: decimal.RequireFromString("19.5")}} {
		fo.EventID = concert.ID
		gcMust(t, f.events.AddEventFormula(ctx, &fo))
	}
	slot := func(e *catalogue.Event, start time.Time, places int) *catalogue.EventSlot {
		s := &catalogue.EventSlot{EventID: e.ID, StartingAt: start, EndingAt: start.Add(150 * time.Minute), AvailablePlaces: places}
		gcMust(t, f.events.AddEventSlot(ctx, s))
		return s
	}
	slot(concert, time.Now().Add(-time.Hour), 10) // started: never shown
	s1 := slot(concert, day, 0)                   // sold out
	s2 := slot(concert, day.Add(24*time.Hour), 5)
	s3 := slot(concert, day.Add(48*time.Hour), 2)
	free := &catalogue.Event{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Visite"}}
	gcMust(t, f.events.CreateEvent(ctx, free))
	s4 := slot(free, day.Add(time.Hour), 8)
	site := "shop.example.com"
	const slotPage = `totalCount pageInfo { hasNextPage hasPreviousPage startCursor } edges { node { id } }`

	t.Run("OKEvent", func(t *testing.T) {
		data := f.mustAsk(t, site, "", fmt.Sprintf(`{ event(id: "%d") { id: legacyId name { fr } shortDescription { fr } coverImage images
			formulas { name { fr } price { amount currency } } lowestPrice { amount currency formatted { fr en } }
			deliveryOptions { activatedEmailToBuyer postalMailShippingCost { amount } pickupOnSiteCost { amount } }
			slots(first: 2) { totalCount pageInfo { hasNextPage endCursor } edges { node { id availablePlaces funnelLink } } } } }`, concert.ID), nil)
		WantJSON(t, data, fmt.Sprintf(`{"event": {"id": "%d", "name": {"fr": "Concert"}, "shortDescription": {"fr": "Live"},
			"coverImage": "https://cdn.example.com/c.jpg", "images": ["https://cdn.example.com/1.jpg"],
			"formulas": [{"name": {"fr": "Plein"}, "price": {"amount": "25.00", "currency": "EUR"}},
				{"name": {"fr": "Réduit"}, "price": {"amount": "19.50", "currency": "EUR"}}],
			"lowestPrice": %s,
			"deliveryOptions": {"activatedEmailToBuyer": true, "postalMailShippingCost": {"amount": "4.50"}, "pickupOnSiteCost": {"amount": "0.00"}},
			"slots": {"totalCount": 3, "pageInfo": {"hasNextPage": true, "endCursor": %q}, "edges": [
				{"node": {"id": %[6]q, "availablePlaces": 0, "funnelLink": "https://shop.example.com/events/%[1]d/booking/?slot=%[4]d"}},
				{"node": {"id": %[7]q, "availablePlaces": 5, "funnelLink": "https://shop.example.com/events/%[1]d/booking/?slot=%[5]d"}}]}}}`,
			concert.ID, `{"amount": "19.50", "currency": "EUR", "formatted": {"fr": "19,50\u00a0€", "en": "€19.50"}}`,
			encodeOffset(1), s1.ID, s2.ID, globalID("EventSlot", s1.ID), globalID("EventSlot", s2.ID)))
		data = f.mustAsk(t, site, "", fmt.Sprintf(`{ event(id: "%d") { slots(first: 2, after: "%s") { edges { node { id } } pageInfo { hasNextPage } } lowestPrice { amount } } }`,
			free.ID, encodeOffset(0)), nil)
		WantJSON(t, data, `{"event": {"slots": {"edges": [], "pageInfo": {"hasNextPage": false}}, "lowestPrice": null}}`)
		// A nested list read from its end: the lengths of both events'
		// lists, then their windows.
		data = f.mustAsk(t, site, "", fmt.Sprintf(`{ a: event(id: "%d") { slots(last: 2) { `+slotPage+` } }
			b: event(id: "%d") { slots(last: 2) { `+slotPage+` } } }`, concert.ID, free.ID), nil)
		WantJSON(t, data, fmt.Sprintf(`{
			"a": {"slots": {"totalCount": 3, "pageInfo": {"hasNextPage": false, "hasPreviousPage": true, "startCursor": %q},
				"edges": [{"node": {"id": %q}}, {"node": {"id": %q}}]}},
			"b": {"slots": {"totalCount": 1, "pageInfo": {"hasNextPage": false, "hasPreviousPage": false, "startCursor": %q},
				"edges": [{"node": {"id": %q}}]}}}`, encodeOffset(1), globalID("EventSlot", s2.ID), globalID("EventSlot", s3.ID),
			encodeOffset(0), globalID("EventSlot", s4.ID)))
		data = f.mustAsk(t, site, "", fmt.Sprintf(`{ event(id: "%d") { slots(last: 1, before: "%s") { `+slotPage+` } } }`,
			concert.ID, encodeOffset(1)), nil)
		WantJSON(t, data, fmt.Sprintf(`{"event": {"slots": {"totalCount": 3, "pageInfo": {"hasNextPage": true, "hasPreviousPage": false, "startCursor": %q},
			"edges": [{"node": {"id": %q}}]}}}`, encodeOffset(0), globalID("EventSlot", s1.ID)))
	})

	t.Run("OKSlotDates", func(t *testing.T) {
		data := f.mustAsk(t, site, "", fmt.Sprintf(`{ event(id: "%d") { slots(first: 1) { edges { node {
			startingDatetime startingDatetimeFormatted { fr } endingDatetime durationFormatted { fr en } } } } } }`, concert.ID), nil)
		var out struct {
			Event struct {
				Slots struct {
					Edges []struct {
						Node struct {
							StartingDatetime, EndingDatetime string
							StartingDatetimeFormatted        struct{ Fr string }
							DurationFormatted                struct{ Fr, En string }
						}
					}
				}
			}
		}
		gcMust(t, json.Unmarshal(data, &out))
		n := out.Event.Slots.Edges[0].Node
		if n.StartingDatetime != s1.StartingAt.In(paris).Format(time.RFC3339) || n.EndingDatetime != s1.EndingAt.In(paris).Format(time.RFC3339) {
			t.Errorf("dates %s %s, want %s in Europe/Paris", n.StartingDatetime, n.EndingDatetime, s1.StartingAt)
		}
		if want := l10n.DateTime(s1.StartingAt, paris)["fr"]; n.StartingDatetimeFormatted.Fr != want {
			t.Errorf("startingDatetimeFormatted.fr = %q, want %q", n.StartingDatetimeFormatted.Fr, want)
		}
		if want := l10n.Duration(150 * time.Minute); n.DurationFormatted.Fr != want["fr"] || n.DurationFormatted.En != want["en"] {
			t.Errorf("durationFormatted = %+v, want %v", n.DurationFormatted, want)
		}
	})

	t.Run("OKEventSlotsWithTheirEvents", func(t *testing.T) {
		data := f.mustAsk(t, site, "", `{ eventSlots { totalCount edges { node { id eventId name { fr } description { fr }
			price { amount } formulasCount availablePlaces slotsCount event { id: legacyId name { fr } slots(first: 1) { totalCount } } } } } }`, nil)
		// Each event by its first available slot, by start: s4, then s2
		// (s1 is sold out).
		WantJSON(t, data, fmt.Sprintf(`{"eventSlots": {"totalCount": 2, "edges": [
			{"node": {"id": %[5]q, "eventId": "%[2]d", "name": {"fr": "Visite"}, "description": {"fr": null}, "price": null,
				"formulasCount": 0, "availablePlaces": 8, "slotsCount": 1, "event": {"id": "%[2]d", "name": {"fr": "Visite"}, "slots": {"totalCount": 1}}}},
			{"node": {"id": %[6]q, "eventId": "%[4]d", "name": {"fr": "Concert"}, "description": {"fr": "Live"}, "price": {"amount": "19.50"},
				"formulasCount": 2, "availablePlaces": 5, "slotsCount": 2, "event": {"id": "%[4]d", "name": {"fr": "Concert"}, "slots": {"totalCount": 3}}}}]}}`,
			s4.ID, free.ID, s2.ID, concert.ID, globalID("EventSlotListItem", s4.ID), globalID("EventSlotListItem", s2.ID)))
	})

	t.Run("ErrOtherCatalogue", func(t *testing.T) {
		data, errs := f.ask(t, gcMarket, "", fmt.Sprintf(`{ event(id: "%d") { id } }`, concert.ID), nil)
		gcErrorCode(t, errs, "NOT_FOUND", "Not found.", "[event]")
		WantJSON(t, data, `{"event": null}`)
		WantJSON(t, f.mustAsk(t, gcMarket, "", `{ eventSlots { totalCount } }`, nil), `{"eventSlots": {"totalCount": 0}}`)
	})
}

func TestGraphCatalogueWorkshops(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	ctx := context.Background()
	validity := 6
	cat := &catalogue.WorkshopCategory{PartnerID: f.shop.ID, Name: domain.Localized{"fr": "Cuisine"},
		Price: decimal.RequireFromString("45"), SpecificValidityPeriod: &validity}
	gcMust(t, f.workshops.CreateWorkshopCategory(ctx, cat))
	tag := func(kind catalogue.WorkshopTagKind, name string) *catalogue.WorkshopTag {
		tg := &catalogue.WorkshopTag{Name: domain.Localized{"fr": name}}
		gcMust(t, f.workshops.CreateWorkshopTag(ctx, kind, tg))
		return tg
	}
	level, sweet, salty := tag(catalogue.WorkshopLevel, "Débutant"), tag(catalogue.WorkshopTheme, "Sucré"), tag(catalogue.WorkshopTheme, "Salé")
	target := tag(catalogue.WorkshopTarget, "Enfants")
	w := &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: cat.ID, LevelID: &level.ID, Name: domain.Localized{"fr": "Pâtisserie"},
		Address: "1 rue du Four", CanBePrivatized: true, ThemeIDs: []int64{salty.ID, sweet.ID}, TargetIDs: []int64{target.ID}}
	gcMust(t, f.workshops.CreateWorkshop(ctx, w))
	bare := &catalogue.Workshop{PartnerID: f.shop.ID, CategoryID: cat.ID, Name: domain.Localized{"fr": "Pain"}}
	gcMust(t, f.workshops.CreateWorkshop(ctx, bare))
	start := time.Now().Add(48 * time.Hour).Truncate(time.Hour)
	session := func(ws *catalogue.Workshop, at time.Time) *catalogue.WorkshopSession {
		s := &catalogue.WorkshopSession{WorkshopID: ws.ID, StartingAt: at, EndingAt: at.Add(90 * time.Minute), MinCapacity: 2,
			MaxCapacity: 8, AvailablePlaces: 3}
		gcMust(t, f.workshops.AddWorkshopSession(ctx, s))
		return s
	}
	w1, b1, w2 := session(w, start), session(bare, start.Add(time.Hour)), session(w, start.Add(24*time.Hour))
	session(w, start.Add(48*time.Hour))
	site := "shop.example.com"

	t.Run("OKWorkshop", func(t *testing.T) {
		data := f.mustAsk(t, site, "", fmt.Sprintf(`{ workshop(id: "%d") { id: legacyId name { fr } address canBePrivatized
			category { name { fr } price { amount currency formatted { fr } } specificValidityPeriod }
			level { id name { fr } } themes { id name { fr } } targets { name { fr } } skills { id } recipes { id }
			sessions(first: 2) { totalCount edges { node { id workshopId minCapacity maxCapacity availablePlaces
				durationValueFormatted { fr } funnelLink } } } } }`, w.ID), nil)
		WantJSON(t, data, fmt.Sprintf(`{"workshop": {"id": "%d", "name": {"fr": "Pâtisserie"}, "address": "1 rue du Four", "canBePrivatized": true,
			"category": {"name": {"fr": "Cuisine"}, "price": %s, "specificValidityPeriod": 6},
			"level": {"id": %q, "name": {"fr": "Débutant"}},
			"themes": [{"id": %q, "name": {"fr": "Sucré"}}, {"id": %q, "name": {"fr": "Salé"}}],
			"targets": [{"name": {"fr": "Enfants"}}], "skills": [], "recipes": [],
			"sessions": {"totalCount": 3, "edges": [%s, %s]}}}`,
			w.ID, `{"amount": "45.00", "currency": "EUR", "formatted": {"fr": "45,00\u00a0€"}}`, globalID("WorkshopLevel", level.ID),
			globalID("WorkshopTheme", sweet.ID), globalID("WorkshopTheme", salty.ID),
			gcSessionJSON(w, w1), gcSessionJSON(w, w2)))
		data = f.mustAsk(t, site, "", fmt.Sprintf(`{ workshop(id: "%d") { level { id } sessions(after: "%s") { edges { node { id } } } } }`,
			bare.ID, encodeOffset(0)), nil)
		WantJSON(t, data, `{"workshop": {"level": null, "sessions": {"edges": []}}}`)
	})

	t.Run("OKSessionsWithTheirWorkshops", func(t *testing.T) {
		data := f.mustAsk(t, site, "", `{ workshopSessions(first: 3) { totalCount pageInfo { hasNextPage }
			edges { node { id workshop { name { fr } sessions(first: 1) { totalCount } } } } } }`, nil)
		WantJSON(t, data, fmt.Sprintf(`{"workshopSessions": {"totalCount": 4, "pageInfo": {"hasNextPage": true}, "edges": [
			{"node": {"id": %q, "workshop": {"name": {"fr": "Pâtisserie"}, "sessions": {"totalCount": 3}}}},
			{"node": {"id": %q, "workshop": {"name": {"fr": "Pain"}, "sessions": {"totalCount": 1}}}},
			{"node": {"id": %q, "workshop": {"name": {"fr": "Pâtisserie"}, "sessions": {"totalCount": 3}}}}]}}`,
			globalID("WorkshopSession", w1.ID), globalID("WorkshopSession", b1.ID), globalID("WorkshopSession", w2.ID)))
		data = f.mustAsk(t, site, "", fmt.Sprintf(`{ workshopSessions(workshopId: "%d") { edges { node { id } } } }`, bare.ID), nil)
		WantJSON(t, data, fmt.Sprintf(`{"workshopSessions": {"edges": [{"node": {"id": %q}}]}}`, globalID("WorkshopSession", b1.ID)))
	})

	t.Run("ErrWorkshopID", func(t *testing.T) {
		_, errs := f.ask(t, site, "", `{ workshopSessions(workshopId: "pain") { totalCount } }`, nil)
		gcErrorCode(t, errs, "BAD_USER_INPUT", "workshopId: Enter a number.", "[workshopSessions]")
		if fields, _ := errs[0].Extensions["fields"].([]any); len(fields) != 1 {
			t.Errorf("extensions.fields = %v, want one", errs[0].Extensions["fields"])
		}
	})

	t.Run("OKThemes", func(t *testing.T) {
		data := f.mustAsk(t, site, "", `{ workshopThemes(first: 1) { totalCount pageInfo { hasNextPage } edges { node { id name { text(lang: FR) } } } } }`, nil)
		WantJSON(t, data, fmt.Sprintf(`{"workshopThemes": {"totalCount": 2, "pageInfo": {"hasNextPage": true},
			"edges": [{"node": {"id": %q, "name": {"text": "Sucré"}}}]}}`, globalID("WorkshopTheme", sweet.ID)))
	})
}

// gcSessionJSON is a workshop session as the tests ask for it.
func gcSessionJSON(w *catalogue.Workshop, s *catalogue.WorkshopSession) string {
	return fmt.Sprintf(`{"node": {"id": %q, "workshopId": "%d", "minCapacity": %d, "maxCapacity": %d, "availablePlaces": %d,
		"durationValueFormatted": {"fr": %q}, "funnelLink": "https://shop.example.com/workshops/%[2]d/booking/?session=%[7]d"}}`,
		globalID("WorkshopSession", s.ID), w.ID, s.MinCapacity, s.MaxCapacity, s.AvailablePlaces,
		l10n.DurationShort(s.EndingAt.Sub(s.StartingAt))["fr"], s.ID)
}

func TestGraphCatalogueBoxes(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	ctx := context.Background()
	alpha, beta := f.networkPartner(t, "Alpha"), f.networkPartner(t, "Beta")
	root := &catalogue.Universe{Name: domain.Localized{"fr": "Séjours"}}
	gcMust(t, f.protos.CreateUniverse(ctx, root))
	sub := &catalogue.Universe{ParentID: &root.ID, Name: domain.Localized{"fr": "Spa"}}
	gcMust(t, f.protos.CreateUniverse(ctx, sub))

	spa := &catalogue.Box{MarketplaceID: f.market.ID, Name: domain.Localized{"fr": "Spa", "en": "Spa"}, IsActive: true,
		IsHighlight: true, DisplayNbOffers: true, Price: decimal.RequireFromString("49.9"), Ranking: 2, PeopleIncluded: 2,
		UniverseIDs: []int64{sub.ID}, Images: []string{"https://cdn.example.com/b.jpg", "https://cdn.example.com/a.jpg"}}
	gcMust(t, f.boxes.CreateBox(ctx, spa))
	for _, o := range []catalogue.BoxOffer{{PartnerID: alpha.ID, Status: catalogue.BoxOfferStatusValidated},
		{PartnerID: beta.ID, Status: catalogue.BoxOfferStatusDraft},
		{PartnerID: f.other.ID, Status: catalogue.BoxOfferStatusValidated}, // not in the network
		{PartnerID: f.shop.ID, Status: catalogue.BoxOfferStatusValidated}} {
		o.BoxID = spa.ID
		gcMust(t, f.boxes.CreateBoxOffer(ctx, &o))
	}
	dinner := f.box(t, "Dinner", "120", 1, beta)
	hidden := &catalogue.Box{MarketplaceID: f.market.ID, IsActive: false, Price: decimal.RequireFromString("1")}
	gcMust(t, f.boxes.CreateBox(ctx, hidden))

	t.Run("OKBoxesWithOffersAndPartners", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", `{ boxes { totalCount edges { node { id: legacyId name { fr } nbOffers ranking
			offers { totalCount edges { node { partnerId partner { name labels { name } } } } } } } } }`, nil)
		WantJSON(t, data, fmt.Sprintf(`{"boxes": {"totalCount": 2, "edges": [
			{"node": {"id": "%d", "name": {"fr": "Dinner"}, "nbOffers": 1, "ranking": 1, "offers": {"totalCount": 1, "edges": [
				{"node": {"partnerId": "%d", "partner": {"name": "Beta", "labels": [{"name": "Label A"}, {"name": "Label B"}]}}}]}}},
			{"node": {"id": "%d", "name": {"fr": "Spa"}, "nbOffers": 3, "ranking": 2, "offers": {"totalCount": 3, "edges": [
				{"node": {"partnerId": "%d", "partner": {"name": "Alpha", "labels": [{"name": "Label A"}, {"name": "Label B"}]}}},
				{"node": {"partnerId": "%d", "partner": null}},
				{"node": {"partnerId": "%d", "partner": {"name": "Shop", "labels": []}}}]}}}]}}`,
			dinner.ID, beta.ID, spa.ID, alpha.ID, f.other.ID, f.shop.ID))
	})

	t.Run("OKKeysetPages", func(t *testing.T) {
		// The boxes page by keyset (by ranking, then id): Dinner, Spa.
		q := `query($first: Int, $after: String, $last: Int, $before: String) {
			boxes(first: $first, after: $after, last: $last, before: $before) {
				totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { name { fr } } } } }`
		page := func(cursor, name string, prev, next bool) string {
			return fmt.Sprintf(`{"boxes": {"totalCount": 2, "pageInfo": {"hasNextPage": %v, "hasPreviousPage": %v, "startCursor": %q, "endCursor": %[3]q},
				"edges": [{"cursor": %[3]q, "node": {"name": {"fr": %q}}}]}}`, next, prev, cursor, name)
		}
		WantJSON(t, f.mustAsk(t, gcMarket, "", q, map[string]any{"first": 1}), page(keyCursor(dinner.ID), "Dinner", false, true))
		WantJSON(t, f.mustAsk(t, gcMarket, "", q, map[string]any{"first": 1, "after": keyCursor(dinner.ID)}), page(keyCursor(spa.ID), "Spa", true, false))
		WantJSON(t, f.mustAsk(t, gcMarket, "", q, map[string]any{"last": 1}), page(keyCursor(spa.ID), "Spa", true, false))
		WantJSON(t, f.mustAsk(t, gcMarket, "", q, map[string]any{"last": 1, "before": keyCursor(spa.ID)}), page(keyCursor(dinner.ID), "Dinner", false, true))
		// An inactive box is not in the list: its cursor names nothing.
		_, errs := f.ask(t, gcMarket, "", q, map[string]any{"first": 1, "after": keyCursor(hidden.ID)})
		gcErrorCode(t, errs, "BAD_USER_INPUT", "after: This cursor's item is no longer in the list.", "[boxes]")
		_, errs = f.ask(t, gcMarket, "", q, map[string]any{"first": 1, "after": encodeOffset(0)})
		gcErrorCode(t, errs, "BAD_USER_INPUT", "after: Invalid cursor.", "[boxes]")
	})

	t.Run("OKOrderBy", func(t *testing.T) {
		ids := func(t *testing.T, orderBy string) string {
			t.Helper()
			return string(f.mustAsk(t, gcMarket, "", `{ boxes(orderBy: `+orderBy+`) { edges { node { id: legacyId } } } }`, nil))
		}
		byPriceDesc := fmt.Sprintf(`{"boxes": {"edges": [{"node": {"id": "%d"}}, {"node": {"id": "%d"}}]}}`, dinner.ID, spa.ID)
		byID := fmt.Sprintf(`{"boxes": {"edges": [{"node": {"id": "%d"}}, {"node": {"id": "%d"}}]}}`, spa.ID, dinner.ID)
		WantJSON(t, []byte(ids(t, `[{field: PRICE, direction: DESC}]`)), byPriceDesc)
		WantJSON(t, []byte(ids(t, `[{field: ID}]`)), byID)
		WantJSON(t, []byte(ids(t, `[{field: RANKING, direction: DESC}, {field: ID}]`)), byID)
		WantJSON(t, []byte(ids(t, `[]`)), byPriceDesc) // ranking, then id
	})

	t.Run("OKBoxMoneyImagesUniverses", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", fmt.Sprintf(`{ box(id: "%d") { isHighlight displayNbOffers peopleIncluded
			price { amount currency formatted { `+gcAllLanguages+` } } images universeIds universes { id name { fr } parentId }
			offers(first: 1, after: "%s") { edges { node { partnerId } } } } }`,
			spa.ID, encodeOffset(0)), nil)
		WantJSON(t, data, fmt.Sprintf(`{"box": {"isHighlight": true, "displayNbOffers": true, "peopleIncluded": 2, "price": %s,
			"images": ["https://cdn.example.com/b.jpg", "https://cdn.example.com/a.jpg"], "universeIds": ["%d"],
			"universes": [{"id": %q, "name": {"fr": "Spa"}, "parentId": "%d"}],
			"offers": {"edges": [{"node": {"partnerId": "%d"}}]}}}`, gcMoneyJSON("49.90", "CHF"), sub.ID, globalID("UniverseRecord", sub.ID),
			root.ID, f.other.ID))
		data = f.mustAsk(t, gcMarket, "", `{ boxUniverses { id name { fr } order subUniverses { id name { fr } subUniverses { id } } } }`, nil)
		WantJSON(t, data, fmt.Sprintf(`{"boxUniverses": [{"id": %q, "name": {"fr": "Séjours"}, "order": null,
			"subUniverses": [{"id": %q, "name": {"fr": "Spa"}, "subUniverses": []}]}]}`, globalID("Universe", root.ID), globalID("Universe", sub.ID)))
	})

	t.Run("ErrNotShown", func(t *testing.T) {
		for _, q := range []string{fmt.Sprintf(`{ box(id: "%d") { id } }`, hidden.ID), `{ box(id: "spa") { id } }`} {
			data, errs := f.ask(t, gcMarket, "", q, nil)
			gcErrorCode(t, errs, "NOT_FOUND", "Not found.", "[box]")
			WantJSON(t, data, `{"box": null}`)
		}
		// A partner that is not a marketplace has no boxes.
		_, errs := f.ask(t, "shop.example.com", "", fmt.Sprintf(`{ box(id: "%d") { id } }`, spa.ID), nil)
		gcErrorCode(t, errs, "NOT_FOUND", "Not found.", "[box]")
		WantJSON(t, f.mustAsk(t, "shop.example.com", "", `{ boxes { totalCount } boxUniverses { id } }`, nil),
			`{"boxes": {"totalCount": 0}, "boxUniverses": []}`)
	})
}

func TestGraphCataloguePrototypes(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	ctx := context.Background()
	proto := func(p *catalogue.GiftcardPrototype) *catalogue.GiftcardPrototype {
		gcMust(t, f.protos.CreateGiftcardPrototype(ctx, p))
		return p
	}
	own := proto(&catalogue.GiftcardPrototype{PartnerID: f.market.ID, Title: domain.Localized{"fr": "Carte", "en": "Card"},
		CustomizedAmount: true, MinimumAmount: decimal.RequireFromString("10"),
		PredefinedAmounts: []decimal.Decimal{decimal.RequireFromString("50"), decimal.RequireFromString("25.5")},
		MoneyPotActivated: true, MoneyPotLogo: "https://cdn.example.com/pot.png", ValidityPeriod: 12, ValidityUnit: catalogue.ValidityMonth})
	shops := proto(&catalogue.GiftcardPrototype{PartnerID: f.shop.ID, ValidityPeriod: 2, ValidityUnit: catalogue.ValidityWeek})
	proto(&catalogue.GiftcardPrototype{PartnerID: f.other.ID, ValidityPeriod: 1, ValidityUnit: catalogue.ValidityDay})

	t.Run("OKListWithPartners", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", `{ giftcardPrototypes { totalCount edges { node { id: legacyId title { fr en }
			customizedAmount minimumAmount { amount currency formatted { fr } } predefinedAmounts { amount currency }
			moneyPot { activated logo } validityPeriod validityUnit partnerId partnerName partner { id: legacyId name } } } } }`, nil)
		WantJSON(t, data, fmt.Sprintf(`{"giftcardPrototypes": {"totalCount": 2, "edges": [
			{"node": {"id": "%d", "title": {"fr": "Carte", "en": "Card"}, "customizedAmount": true,
				"minimumAmount": {"amount": "10.00", "currency": "CHF", "formatted": {"fr": %q}},
				"predefinedAmounts": [{"amount": "50.00", "currency": "CHF"}, {"amount": "25.50", "currency": "CHF"}],
				"moneyPot": {"activated": true, "logo": "https://cdn.example.com/pot.png"}, "validityPeriod": 12, "validityUnit": "MONTH",
				"partnerId": "%d", "partnerName": "Market", "partner": {"id": "%[3]d", "name": "Market"}}},
			{"node": {"id": "%d", "title": {"fr": null, "en": null}, "customizedAmount": false,
				"minimumAmount": {"amount": "0.00", "currency": "EUR", "formatted": {"fr": %q}},
				"predefinedAmounts": [], "moneyPot": {"activated": false, "logo": null}, "validityPeriod": 2, "validityUnit": "WEEK",
				"partnerId": "%d", "partnerName": "Shop", "partner": {"id": "%[6]d", "name": "Shop"}}}]}}`,
			own.ID, l10n.Money(decimal.RequireFromString("10"), "CHF")["fr"], f.market.ID,
			shops.ID, l10n.Money(decimal.Zero, "EUR")["fr"], f.shop.ID))
	})

	t.Run("OKPartnerFilterAndOne", func(t *testing.T) {
		data := f.mustAsk(t, gcMarket, "", fmt.Sprintf(`{ mine: giftcardPrototypes(partnerId: "%d") { totalCount }
			outside: giftcardPrototypes(partnerId: "%d") { totalCount } giftcardPrototype(id: "%d") { partnerName } }`,
			f.shop.ID, f.other.ID, shops.ID), nil)
		WantJSON(t, data, `{"mine": {"totalCount": 1}, "outside": {"totalCount": 0}, "giftcardPrototype": {"partnerName": "Shop"}}`)
		_, errs := f.ask(t, gcMarket, "", `{ giftcardPrototypes(partnerId: "shop") { totalCount } }`, nil)
		gcErrorCode(t, errs, "BAD_USER_INPUT", "partnerId: A valid integer is required.", "[giftcardPrototypes]")
	})

	t.Run("OKUniversesAndThemes", func(t *testing.T) {
		u := &catalogue.Universe{Name: domain.Localized{"fr": "Loisirs"}}
		gcMust(t, f.protos.CreateUniverse(ctx, u))
		th := &catalogue.Theme{Name: domain.Localized{"fr": "Nature", "de": "Natur"}}
		gcMust(t, f.protos.CreateTheme(ctx, th))
		gcMust(t, f.protos.CreateVoucherPrototype(ctx, &catalogue.VoucherPrototype{PartnerID: f.shop.ID, UniverseID: &u.ID, ThemeIDs: []int64{th.ID}}))
		data := f.mustAsk(t, "shop.example.com", "", `{ universes { id name { fr } subUniverses { id } } themes { id name { de text(lang: DE) } } }`, nil)
		WantJSON(t, data, fmt.Sprintf(`{"universes": [{"id": %q, "name": {"fr": "Loisirs"}, "subUniverses": []}],
			"themes": [{"id": %q, "name": {"de": "Natur", "text": "Natur"}}]}`, globalID("Universe", u.ID), globalID("Theme", th.ID)))
		WantJSON(t, f.mustAsk(t, gcMarket, "", `{ universes { id } themes { id } }`, nil), `{"universes": [], "themes": []}`)
	})
}

func TestGraphCatalogueLimits(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)

	t.Run("ErrTooDeep", func(t *testing.T) {
		q := `{ universes { ` + gcNest("subUniverses", 11, "id") + ` } }`
		data, errs := f.ask(t, gcMarket, "", q, nil)
		gcErrorCode(t, errs, "QUERY_TOO_DEEP", "operation has depth 13, which exceeds the limit of 12", "")
		if string(data) != "null" {
			t.Errorf("data = %s, want none: the operation must not run", data)
		}
		// Fragments count where they are spread.
		q = `{ universes { ...U } } fragment U on Universe { ` + gcNest("subUniverses", 10, "name { fr }") + ` }`
		_, errs = f.ask(t, gcMarket, "", q, nil)
		gcErrorCode(t, errs, "QUERY_TOO_DEEP", "operation has depth 13, which exceeds the limit of 12", "")
	})

	t.Run("OKDeepIntrospection", func(t *testing.T) {
		// GraphiQL's introspection query nests its type references deeper
		// than the limit; introspection is not counted.
		f.mustAsk(t, "", "", `{ __schema { types { fields { type { `+gcNest("ofType", 9, "name")+` } } } } }`, nil)
	})

	t.Run("ErrTooComplex", func(t *testing.T) {
		// first: 100 nested thrice: a million sessions.
		q := `{ workshopSessions(first: 100) { edges { node { workshop { sessions(first: 100) { edges { node {
			workshop { sessions(first: 100) { edges { node { id } } } } } } } } } } } }`
		data, errs := f.ask(t, gcMarket, "", q, nil)
		if len(errs) != 1 || errs[0].Extensions["code"] != "COMPLEXITY_LIMIT_EXCEEDED" ||
			!strings.HasPrefix(errs[0].Message, "operation has complexity ") || !strings.HasSuffix(errs[0].Message, "which exceeds the limit of 20000") {
			t.Fatalf("errors = %+v, want COMPLEXITY_LIMIT_EXCEEDED", errs)
		}
		if string(data) != "null" {
			t.Errorf("data = %s, want none: the operation must not run", data)
		}
		// first counts even past its cap, and by default as 20.
		_, errs = f.ask(t, gcMarket, "", `{ boxes { edges { node { offers { edges { node { partner { labels { name } } } } } } } } }`, nil)
		if errs != nil {
			t.Errorf("20 × 20 offers refused: %+v", errs)
		}
	})

	t.Run("OKFullPage", func(t *testing.T) {
		// A full page of partners with every field and language passes.
		q := `{ partners(first: 100) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node {
			id name description { ` + gcAllLanguages + ` } managers { ` + gcAllLanguages + ` } nearby { ` + gcAllLanguages + ` }
			practicalInformation { ` + gcAllLanguages + ` } access { ` + gcAllLanguages + ` } commercialDescription { ` + gcAllLanguages + ` }
			region department city latitude longitude
			facilities { disabledAccess airConditioning privateParking wifi smokingArea petsAllowed familyFriendly }
			socialLinks { key value } labels { name logo } } } } }`
		f.mustAsk(t, gcMarket, "", q, nil)
	})
}

// gcNest is field nested n times around leaf: "f { f { leaf } }".
func gcNest(field string, n int, leaf string) string {
	return strings.Repeat(field+" { ", n) + leaf + strings.Repeat(" }", n)
}

// The boxes list reads its offers, their partners and its images ahead
// (look-ahead prefetching): behind loaders that would wait an hour for
// keys, the nested query still answers at once, with the same statements.
func TestGraphBoxesReadAhead(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	for i := range 3 {
		f.box(t, fmt.Sprintf("Box %d", i), "10", i, f.networkPartner(t, fmt.Sprintf("P%da", i)), f.networkPartner(t, fmt.Sprintf("P%db", i)))
	}
	carts := cartstore.NewMemory(100)
	t.Cleanup(carts.Close)
	cfg := &app.Config{PasswordHashing: dbtest.CheapHashing, CartTTL: time.Hour, PublicBaseURL: "http://api.test",
		DataDir: t.TempDir(), LoaderWait: time.Hour}
	c := client.New(app.NewHandler(f.db, carts, cfg, app.NewLogger(io.Discard, slog.LevelInfo)))
	q := `query($n: Int) { boxes(first: 10) { edges { node { name { fr } images
		offers(first: $n) { totalCount edges { node { partner { name labels { name } } } } }
		...on Box { more: offers(first: 1) { edges { node { partner { name } } } } } } } } }`
	done := make(chan error, 1)
	var data json.RawMessage
	go func() { // no t.Fatal off the test's goroutine: errors go to done
		resp, err := c.RawPost(q, client.Path("/graphql"), client.Var("n", 5), client.AddHeader("X-Partner-Domain", gcMarket))
		switch {
		case err != nil:
			done <- err
		case len(resp.Errors) > 0:
			done <- fmt.Errorf("%s", resp.Errors)
		default:
			data, err = json.Marshal(resp.Data)
			done <- err
		}
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the nested query waits on a loader's window: a level was not read ahead")
	}
	if n := strings.Count(string(data), `"labels"`); n != 6 {
		t.Errorf("want 6 offers with their partners' labels, got %d: %s", n, data)
	}
	if n := strings.Count(string(data), `"more"`); n != 3 {
		t.Errorf("want the aliased offers of 3 boxes, got %d: %s", n, data)
	}

	// Partners asked for their names and labels only are read without
	// their profiles; one alias asking for more reads them, for itself.
	profiles := func(q string) int {
		t.Helper()
		f.stmts.Reset()
		if _, errs := postAt(t, c, gcMarket, "", q, nil); errs != nil {
			t.Fatal(errs)
		}
		n := 0
		for _, stmt := range f.stmts.Queries() {
			if strings.Contains(stmt, "partner_profiles") {
				n++
			}
		}
		return n
	}
	if n := profiles(`{ boxes { edges { node { offers { edges { node { partner { id name labels { name } } } } } } } } }`); n != 0 {
		t.Errorf("names and labels read %d statements of profiles, want none", n)
	}
	// Aliases, and a fragment shared by two of them, each read through the
	// loader their own selection needs.
	data, errs := postAt(t, c, gcMarket, "", `fragment P on BoxOffer { partner { name } }
		{ boxes { edges { node { offers { edges { node {
		a: partner { name } b: partner { name description { fr } } } } }
		x: offers { edges { node { ...P } } } y: offers { edges { node { ...P partner { description { fr } } } } } } } } }`, nil)
	if errs != nil {
		t.Fatal(errs)
	}
	if n := strings.Count(string(data), `"description":{"fr":"Chez P`); n != 12 {
		t.Errorf("want 12 partners' descriptions (aliases b and y, 6 offers each), got %d: %s", n, data)
	}
	if n := profiles(`{ boxes { edges { node { offers { edges { node { partner { name description { fr } } } } } } } } }`); n != 1 {
		t.Errorf("a description read %d statements of profiles, want 1", n)
	}
}

// The boxes list reads the descriptions a query asks for (directly, under
// an alias or in a fragment, on Box or on an interface it implements), and
// answers them; a query that asks for none gets the rest alike.
func TestGraphBoxesDescriptions(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	gcMust(t, f.boxes.CreateBox(context.Background(), &catalogue.Box{MarketplaceID: f.market.ID, IsActive: true,
		Name: domain.Localized{"fr": "Coffret"}, ShortDescription: domain.Localized{"fr": "Court"},
		LongDescription: domain.Localized{"fr": "Long"}, Price: decimal.RequireFromString("10")}))
	for q, want := range map[string]string{
		`{ boxes { edges { node { name { fr } } } } }`:                                               `{"boxes":{"edges":[{"node":{"name":{"fr":"Coffret"}}}]}}`,
		`{ boxes { edges { node { shortDescription { fr } longDescription { fr } } } } }`:            `{"boxes":{"edges":[{"node":{"shortDescription":{"fr":"Court"},"longDescription":{"fr":"Long"}}}]}}`,
		`{ boxes { edges { node { s: shortDescription { fr } } } } }`:                                `{"boxes":{"edges":[{"node":{"s":{"fr":"Court"}}}]}}`,
		`{ boxes { edges { node { ...texts } } } } fragment texts on Box { longDescription { fr } }`: `{"boxes":{"edges":[{"node":{"longDescription":{"fr":"Long"}}}]}}`,
		// Through the interface Box implements.
		`{ boxes { edges { node { ... on Node { ... on Box { shortDescription { fr } } } } } } }`:            `{"boxes":{"edges":[{"node":{"shortDescription":{"fr":"Court"}}}]}}`,
		`{ boxes { edges { node { ...n } } } } fragment n on Node { ... on Box { longDescription { fr } } }`: `{"boxes":{"edges":[{"node":{"longDescription":{"fr":"Long"}}}]}}`,
	} {
		got := f.mustAsk(t, gcMarket, "", q, nil)
		var g, w any
		gcMust(t, json.Unmarshal(got, &g))
		gcMust(t, json.Unmarshal([]byte(want), &w))
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
}

// A boxes query whose offers fields all ask for one window reads the
// offers in the boxes' own statement; aliases asking for different
// windows read them after the boxes. Both answer the same offers.
func TestGraphBoxesOffersReadAlong(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	var partners []*domain.Partner
	for i := range 3 {
		partners = append(partners, f.networkPartner(t, fmt.Sprintf("Along %d", i)))
	}
	f.box(t, "Along", "10", 1, partners...)
	offersRead := func(q string) (json.RawMessage, bool) {
		t.Helper()
		f.mustAsk(t, gcMarket, "", q, nil) // the scope partner is read once, then kept
		f.stmts.Reset()
		data := f.mustAsk(t, gcMarket, "", q, nil)
		for _, stmt := range f.stmts.Queries() {
			if strings.Contains(stmt, "row_number() OVER (PARTITION BY o.box_id") {
				return data, true
			}
		}
		return data, false
	}
	names := func(data json.RawMessage) string {
		var out []string
		for _, m := range regexp.MustCompile(`"name":"(Along \d)"`).FindAllStringSubmatch(string(data), -1) {
			out = append(out, m[1])
		}
		return strings.Join(out, ",")
	}
	data, separate := offersRead(`{ boxes { edges { node { offers(first: 2) { totalCount edges { node { partner { name } } } } } } } }`)
	if separate || names(data) != "Along 0,Along 1" || !strings.Contains(string(data), `"totalCount":3`) {
		t.Errorf("one window: read apart %v, %s", separate, data)
	}
	data, separate = offersRead(`{ boxes { edges { node { a: offers(first: 1) { edges { node { partner { name } } } }
		b: offers(first: 2, after: "` + base64.StdEncoding.EncodeToString([]byte("offset:0")) + `") { edges { node { partner { name } } } } } } } }`)
	if !separate || names(data) != "Along 0,Along 1,Along 2" {
		t.Errorf("two windows: read apart %v, %s", separate, data)
	}
}

// An offer's partner asked for a profile text through a fragment on an
// interface it implements is read with its profile.
func TestGraphBoxOfferPartnerThroughInterface(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	p := f.networkPartner(t, "Profiled")
	gcMust(t, f.catalog.SavePartnerProfile(context.Background(), p.ID, &catalogue.PartnerProfile{Description: domain.Localized{"fr": "Une adresse"}}))
	f.box(t, "Coffret", "10", 1, p)
	got := string(f.mustAsk(t, gcMarket, "", `{ boxes { edges { node { offers { edges { node { partner {
		name ... on Node { ... on CataloguePartner { description { fr } } } } } } } } } } }`, nil))
	if !strings.Contains(got, `"description":{"fr":"Une adresse"}`) {
		t.Errorf("got %s", got)
	}
}
