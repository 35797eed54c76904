package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/domain"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
)

// The graph's fast path (graph/fastpath.go) answers the boxes list itself
// when it can: every answer must be, byte for byte, the one gqlgen's
// executor gives on the same database, the fast path answering or not, and
// where it answers it must spend much less. Not parallel: it counts
// allocations (testing.AllocsPerRun), which other tests would add to.
func TestGraphFastPathAnswersAsGqlgen(t *testing.T) {
	f := newGCFixture(t)
	odd := f.networkPartner(t, "Café \"Chez <Lou>\" & fils \\ \u2028 ☕")
	for i, name := range []string{"Escapade", "Détente", "Gourmet"} {
		f.box(t, name, []string{"49.90", "120", "0.5"}[i], i, f.networkPartner(t, name+" A"), f.networkPartner(t, name+" B"), odd)
	}
	handler := func(noFastPath bool) http.Handler {
		carts := cartstore.NewMemory(100)
		t.Cleanup(carts.Close)
		cfg := &app.Config{PasswordHashing: dbtest.CheapHashing, CartTTL: time.Hour, PublicBaseURL: "http://api.test",
			DataDir: t.TempDir(), NoGraphFastPath: noFastPath}
		return app.NewHandler(f.db, carts, cfg, app.NewLogger(io.Discard, slog.LevelInfo))
	}
	fast, gqlgen := handler(false), handler(true)

	const everything = `{ boxes(first: 3) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
		edges { cursor node { __typename id legacyId name { fr en es it de nl ca pt } shortDescription { fr }
			longDescription { fr } isHighlight displayNbOffers nbOffers ranking peopleIncluded maxNumberUsages
			maxDaysAfterFirstUsage universeIds images
			price { amount currencyCode currency formatted { fr en de } }
			offers(first: 2) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { __typename id legacyId
				partnerId partner { __typename id legacyId name description { fr en } managers { fr } nearby { fr }
				practicalInformation { fr } access { fr } commercialDescription { fr } region department city
				labels { name logo } } } } } } } } }`
	for _, c := range []struct {
		name, query string
		vars        map[string]any
		answers     bool // the fast path answers it
	}{
		{"the compared query", `{ boxes(first: 10) { edges { node { id name { fr } offers(first: 5) {
			edges { node { partner { id name labels { name logo } } } } } } } } }`, nil, true},
		{"every field it writes", everything, nil, true},
		{"aliases, fragments, variables, directives", `query($n: Int, $skip: Boolean!, $order: [BoxOrder!]) {
			a: boxes(first: 2, orderBy: $order) { ...page } b: boxes(first: 1, after: "azox") { totalCount }
			boxes(first: $n) { edges { node { ... on Node { id } name @skip(if: $skip) { fr }
				first: offers(first: 1) { edges { node { partner { ...partner } } } }
				rest: offers(first: 2, after: "b2Zmc2V0OjA=") { edges { node { legacyId } } } } } } }
			fragment page on BoxConnection { edges { node { __typename legacyId price { amount } } } }
			fragment partner on CataloguePartner { name labels @include(if: $skip) { name } }`,
			map[string]any{"n": 2, "skip": true, "order": []any{map[string]any{"field": "RANKING", "direction": "DESC"}}}, true},
		{"a field it has no writer for", `{ boxes(first: 2) { edges { node { name { fr } universes { id } } } } }`, nil, false},
		{"a window the read-ahead does not read", `{ boxes(first: 2) { edges { node { offers(last: 1) {
			edges { node { partner { name } } } } } } } }`, nil, false},
		{"an argument gqlgen refuses", `{ boxes(first: -1) { totalCount } }`, nil, false},
		{"a cursor the resolver refuses", `{ boxes(first: 2, after: "nope") { totalCount } }`, nil, false},
		{"beside another root field", `{ boxUniverses { id } boxes(first: 3) { edges { node { id
			offers(first: 3) { edges { node { partner { name labels { name logo } } } } } } } } }`, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, err := json.Marshal(map[string]any{"query": c.query, "variables": c.vars})
			if err != nil {
				t.Fatal(err)
			}
			ask := func(h http.Handler) []byte {
				req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Partner-Domain", gcMarket)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				return rec.Body.Bytes()
			}
			want := ask(gqlgen)
			if got := ask(fast); !bytes.Equal(got, want) {
				t.Fatalf("the fast path answers\n%s\ngqlgen\n%s", got, want)
			}
			if !c.answers {
				return
			}
			if bytes.Contains(want, []byte(`"errors"`)) || !bytes.Contains(want, []byte(`"data":{"`)) {
				t.Fatalf("want data and no errors: %s", want)
			}
			// gqlgen's executor allocates for every field of every object;
			// the fast path for a few per object.
			fastAllocs := testing.AllocsPerRun(5, func() { ask(fast) })
			gqlgenAllocs := testing.AllocsPerRun(5, func() { ask(gqlgen) })
			if fastAllocs > 0.7*gqlgenAllocs {
				t.Errorf("the fast path made %.0f allocations, gqlgen %.0f: it does not answer", fastAllocs, gqlgenAllocs)
			}
		})
	}
	if t.Failed() {
		return
	}
	// The odd name comes back as gqlgen escapes it.
	var out struct{ Data offerPartners }
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader([]byte(`{"query":"{ boxes(first: 1) { edges { node { offers(first: 3) { edges { node { partner { name } } } } } } } }"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Partner-Domain", gcMarket)
	rec := httptest.NewRecorder()
	fast.ServeHTTP(rec, req)
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	if got := out.Data.Boxes.Edges[0].Node.Offers.Edges[2].Node.Partner; got == nil || got.Name != odd.Name {
		t.Errorf("partner %+v, want %q", got, odd.Name)
	}
}

// The boxes list reads its offers' partners in its own statement when the
// query asks for their names and labels only: one statement for the whole
// query, and the same partners, by the catalogue's rules, as the partner
// loader reads when a field asks for more (the marketplace itself, whatever
// its status; its network's active and network partners; no other: null).
func TestGraphBoxesReadPartnersAlong(t *testing.T) {
	t.Parallel()
	f := newGCFixture(t)
	ctx := context.Background()
	outside := &domain.Partner{Name: "Outside", Status: domain.PartnerStatusActive}
	gcMust(t, f.partners.CreatePartner(ctx, outside))
	inactive := f.networkPartner(t, "Inactive")
	_, err := f.db.NewUpdate().Table("partners").Set("status = ?", domain.PartnerStatusInactive).Where("id = ?", inactive.ID).Exec(ctx)
	gcMust(t, err)
	f.box(t, "Mixed", "10", 0, f.networkPartner(t, "Listed"), f.market, outside, inactive)
	f.box(t, "Plain", "20", 1, f.networkPartner(t, "Other listed"))

	const along = `{ boxes(first: 5) { edges { node { offers(first: 5) { edges { node {
		partner { id name labels { name logo } } } } } } } } }`
	f.mustAsk(t, gcMarket, "", along, nil) // the scope partner is read once, then kept
	f.stmts.Reset()
	names := f.mustAsk(t, gcMarket, "", along, nil)
	if n := f.stmts.Count(); n != 1 {
		t.Errorf("%d statements, want the boxes' one:\n%s", n, strings.Join(f.stmts.Queries(), "\n"))
	}
	// A profile field reads the partners through the loader instead.
	profiles := f.mustAsk(t, gcMarket, "", strings.Replace(along, "labels", "description { fr } labels", 1), nil)
	var a, b offerPartners
	gcMust(t, json.Unmarshal(names, &a))
	gcMust(t, json.Unmarshal(profiles, &b))
	if len(a.Boxes.Edges) != 2 || len(a.Boxes.Edges[0].Node.Offers.Edges) != 4 {
		t.Fatalf("want 2 boxes, the first of 4 offers: %s", names)
	}
	var got []string
	for _, e := range a.Boxes.Edges[0].Node.Offers.Edges {
		if p := e.Node.Partner; p == nil {
			got = append(got, "null")
		} else {
			got = append(got, fmt.Sprintf("%s/%d labels", p.Name, len(p.Labels)))
		}
	}
	if want := []string{"Listed/2 labels", "Market/0 labels", "null", "null"}; !slices.Equal(got, want) {
		t.Errorf("partners read along: %v, want %v", got, want)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("read along:\n%s\nthrough the loader:\n%s", names, profiles)
	}
	// Other pages and orders: the partners follow their boxes.
	for _, args := range []string{"last: 1", "first: 1, orderBy: [{field: PRICE, direction: DESC}]", `first: 2, after: "azox"`} {
		q := strings.Replace(along, "first: 5", args, 1)
		names, profiles := f.mustAsk(t, gcMarket, "", q, nil), f.mustAsk(t, gcMarket, "", strings.Replace(q, "labels", "description { fr } labels", 1), nil)
		var a, b offerPartners
		gcMust(t, json.Unmarshal(names, &a))
		gcMust(t, json.Unmarshal(profiles, &b))
		if len(a.Boxes.Edges) == 0 || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: read along:\n%s\nthrough the loader:\n%s", args, names, profiles)
		}
	}
}

// offerPartners is the data of a query of boxes → offers → partner.
type offerPartners struct {
	Boxes struct {
		Edges []struct {
			Node struct {
				Offers struct {
					Edges []struct {
						Node struct {
							Partner *struct {
								ID, Name string
								Labels   []struct{ Name, Logo string }
							}
						}
					}
				}
			}
		}
	}
}
