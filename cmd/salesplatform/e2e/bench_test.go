package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/catalogue"
	"salesplatform/persistence"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
)

// benchEnv is a benchmark's database and the service's handler on it.
type benchEnv struct {
	h       http.Handler
	db      *bun.DB
	dsn     string
	market  *domain.Partner   // market.example.com
	network []*domain.Partner // the market's network
}

// benchMarketplace fills a fresh database with a marketplace whose network
// has n described partners with two labels each.
func benchMarketplace(b *testing.B, n int) benchEnv {
	b.Helper()
	ctx := context.Background()
	dsn := dbtest.NewDSN(b)
	CreateUser(b, dsn, "--username", "market", "--password", "market-password",
		"--partner-name", "Market", "--partner-domain", "market.example.com", "--marketplace")
	db, err := persistence.Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	partners := persistence.NewDatabase(db).Stores().Partners
	store := persistence.NewPartnerCatalogStore(db)
	market, err := partners.FindPartnerBySiteDomain(ctx, "market.example.com")
	if err != nil {
		b.Fatal(err)
	}
	network := make([]*domain.Partner, n)
	for i := range n {
		p := &domain.Partner{Name: fmt.Sprintf("Partner %d", i), Status: domain.PartnerStatusActive}
		must(b, partners.CreatePartner(ctx, p))
		network[i] = p
		must(b, store.AddNetworkPartner(ctx, market.ID, p.ID))
		must(b, store.SavePartnerProfile(ctx, p.ID, &catalogue.PartnerProfile{
			Description: domain.Localized{"fr": "Une adresse", "en": "A place"},
			Region:      "Bretagne", Department: "Finistère", City: "Brest",
			Facilities:  catalogue.PartnerFacilities{Wifi: true},
			SocialLinks: map[string]string{"instagram": "https://instagram.example/p"},
		}))
		for _, label := range []string{"Label A", "Label B"} {
			must(b, store.AddPartnerLabel(ctx, &catalogue.PartnerLabel{PartnerID: p.ID, Name: label, LogoURL: "https://cdn.example.com/l.png"}))
		}
	}
	return benchEnv{h: Handler(b, db), db: db, dsn: dsn, market: market, network: network}
}

// benchMarketplaceDSN is benchMarketplace's handler and database.
func benchMarketplaceDSN(b *testing.B, n int) (http.Handler, string) {
	e := benchMarketplace(b, n)
	return e.h, e.dsn
}

// benchBoxes is benchMarketplace with 5n partners and n active boxes of
// 5 validated offers each, one partner per offer.
func benchBoxes(b *testing.B, n int) benchEnv {
	e := benchMarketplace(b, 5*n)
	ctx := context.Background()
	boxes := persistence.BoxStores(e.db).Boxes
	for i := range n {
		box := &catalogue.Box{MarketplaceID: e.market.ID, Name: domain.Localized{"fr": fmt.Sprintf("Coffret %d", i)},
			IsActive: true, Price: decimal.RequireFromString("49.90"), Ranking: i}
		must(b, boxes.CreateBox(ctx, box))
		for j := range 5 {
			must(b, boxes.CreateBoxOffer(ctx, &catalogue.BoxOffer{BoxID: box.ID, PartnerID: e.network[i*5+j].ID,
				Status: catalogue.BoxOfferStatusValidated}))
		}
	}
	return e
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkPartnersList measures GET /api/v2/partners/ through the whole
// handler (middleware, routing, service, PostgreSQL, JSON) for a marketplace
// of 200 partners, at the default and the maximum page size. The first
// and the last answers must be the page, each partner with its labels.
func BenchmarkPartnersList(b *testing.B) {
	h := benchMarketplace(b, 200).h
	for _, size := range []int{20, 100} {
		b.Run(fmt.Sprintf("page_size=%d", size), func(b *testing.B) {
			url := fmt.Sprintf("/api/v2/partners/?page=2&page_size=%d", size)
			get := func() *httptest.ResponseRecorder {
				req := httptest.NewRequest(http.MethodGet, url, nil)
				req.Header.Set("X-Partner-Domain", "market.example.com")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				return rec
			}
			check := func(rec *httptest.ResponseRecorder) {
				var page struct {
					Count   int `json:"count"`
					Results []struct {
						Name   string `json:"name"`
						Labels []struct {
							Name string `json:"name"`
						} `json:"label_and_network"`
					} `json:"results"`
				}
				must(b, json.Unmarshal(rec.Body.Bytes(), &page))
				if page.Count != 200 || len(page.Results) != size {
					b.Fatalf("count %d, %d results, want 200 and %d", page.Count, len(page.Results), size)
				}
				for _, p := range page.Results {
					if !strings.HasPrefix(p.Name, "Partner ") || len(p.Labels) != 2 || p.Labels[0].Name != "Label A" {
						b.Fatalf("partner %+v, want its two labels", p)
					}
				}
			}
			check(get())
			var last *httptest.ResponseRecorder
			b.ReportAllocs()
			for b.Loop() {
				last = get()
			}
			check(last)
		})
	}
}

// BenchmarkGraphQLNestedBoxes measures a three-level catalogue query through
// the whole handler: 20 boxes, 5 validated offers each, every offer's
// partner with its labels (100 partners, 200 labels), loaded by dataloaders.
func BenchmarkGraphQLNestedBoxes(b *testing.B) {
	h := benchBoxes(b, 20).h
	body := `{"query": "{ boxes(first: 20) { totalCount edges { node { id name { fr en } price { amount formatted { fr } } offers(first: 5) { totalCount edges { node { id partner { id name labels { name logo } } } } } } } } }"}`
	run := func() string {
		req := httptest.NewRequest(http.MethodPost, "/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Partner-Domain", "market.example.com")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"errors"`) {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		return rec.Body.String()
	}
	check := func(out string) {
		var res struct {
			Data struct {
				Boxes struct {
					TotalCount int
					Edges      []struct {
						Node struct {
							Name   struct{ Fr string }
							Offers struct {
								TotalCount int
								Edges      []struct {
									Node struct {
										Partner struct {
											Name   string
											Labels []struct{ Name string }
										}
									}
								}
							}
						}
					}
				}
			}
		}
		must(b, json.Unmarshal([]byte(out), &res))
		boxes := res.Data.Boxes
		if boxes.TotalCount != 20 || len(boxes.Edges) != 20 {
			b.Fatalf("want 20 boxes: %.1000s", out)
		}
		for _, e := range boxes.Edges {
			offers := e.Node.Offers
			if !strings.HasPrefix(e.Node.Name.Fr, "Coffret ") || offers.TotalCount != 5 || len(offers.Edges) != 5 {
				b.Fatalf("want each box with its 5 offers: %.1000s", out)
			}
			for _, o := range offers.Edges {
				if p := o.Node.Partner; !strings.HasPrefix(p.Name, "Partner ") || len(p.Labels) != 2 {
					b.Fatalf("want each offer's partner with its 2 labels: %+v", p)
				}
			}
		}
	}
	check(run())
	var last string
	b.ReportAllocs()
	for b.Loop() {
		last = run()
	}
	check(last)
}

// BenchmarkAdminVouchersList measures GET /api/vouchers/ through the whole
// handler for a partner of 200 vouchers, each with two options bought (of a
// prototype offering three, one included) and a coupon: the full 2.4
// record, at the default and the maximum page size.
func BenchmarkAdminVouchersList(b *testing.B) {
	ctx := context.Background()
	dsn := dbtest.NewDSN(b)
	token := CreateUser(b, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop")
	db, err := persistence.Open(ctx, dsn)
	must(b, err)
	b.Cleanup(func() { db.Close() })
	_, err = db.ExecContext(ctx, `
		WITH p AS (SELECT id FROM partners WHERE name = 'Shop'),
		proto AS (INSERT INTO voucher_prototypes (partner_id, name, type, stay_price)
			SELECT id, '{"fr": "Nuit au château", "en": "A night at the castle"}', 'stay', 180 FROM p RETURNING id, partner_id),
		opts AS (INSERT INTO options (partner_id, name, description, price, selling_price)
			SELECT partner_id, jsonb_build_object('fr', 'Option ' || n), '{"fr": "Une option"}', 10 * n, 12 * n
			FROM proto, generate_series(1, 3) n RETURNING id, partner_id),
		links AS (INSERT INTO voucher_prototype_options (voucher_prototype_id, option_id, count, included)
			SELECT proto.id, opts.id, 1, opts.id = (SELECT min(id) FROM opts) FROM proto, opts RETURNING 1),
		coupon AS (INSERT INTO coupons (partner_id, code, discount, discount_text)
			SELECT id, 'WELCOME10', 10, '-10%' FROM p RETURNING id),
		codes AS (INSERT INTO gift_codes (code, kind) SELECT 'BENCH-' || n, 'voucher' FROM generate_series(1, 200) n RETURNING code),
		vouchers AS (INSERT INTO vouchers (code, voucher_prototype_id, state, total_price, gifter_first_name,
				gifter_last_name, giftee_first_name, giftee_last_name, coupon_id, expiration_date)
			SELECT codes.code, proto.id, 'paid', 204, 'Ada', 'Lovelace', 'Alan', 'Turing', coupon.id, now() + interval '1 year'
			FROM codes, proto, coupon RETURNING id)
		INSERT INTO voucher_options (voucher_id, option_id, count, total_price)
		SELECT vouchers.id, opts.id, 1, 12 FROM vouchers, opts WHERE opts.id > (SELECT min(id) FROM opts)`)
	must(b, err)
	h := Handler(b, db)
	for _, size := range []int{20, 100} {
		b.Run(fmt.Sprintf("page_size=%d", size), func(b *testing.B) {
			url := fmt.Sprintf("/api/vouchers/?page=2&page_size=%d", size)
			get := func() string {
				req := httptest.NewRequest(http.MethodGet, url, nil)
				req.Header.Set("Authorization", "Token "+token)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				return rec.Body.String()
			}
			check := func(out string) {
				if strings.Count(out, `"total_price":12`) != 2*size || strings.Count(out, `"WELCOME10"`) < size ||
					!strings.HasPrefix(out, `{"count":200,`) {
					b.Fatalf("want %d vouchers of 200 with two options and the coupon: %.2000s", size, out)
				}
			}
			check(get())
			var last string
			b.ReportAllocs()
			for b.Loop() {
				last = get()
			}
			check(last)
		})
	}
}

// cartBody is the body of the cart benchmarks: a cart of two lines.
const cartBody = `{"items": [{"product_id": 12, "quantity": 2, "variant_id": 3, "attribute_values": {"1": "red"}},
	{"product_id": 40, "quantity": 1}], "return_url": "https://shop.example.com/thanks"}`

// BenchmarkCartAgainstEcho measures POST /api/v2/ecommerce/cart/ with a
// token (in-process cart store: authentication, decoding, the rules, the
// store, the answer) against the floor of docs/PERFORMANCE.md: a bare
// net/http handler that decodes the same body into the same shape and
// writes it back with the service's encoder, with nothing else. The two
// alternate (benchAgainst): "handler" calls the handlers directly; "http"
// loads them over loopback TCP from loadConns clients. Every answer must
// hold the two lines posted, and the service's carts must be in its
// store.
func BenchmarkCartAgainstEcho(b *testing.B) {
	dsn := dbtest.NewDSN(b)
	token := CreateUser(b, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop",
		"--partner-domain", "shop.example.com")
	db, err := persistence.Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	// The store of serve's default size: under load a client's last
	// answer may come back after the others have made hundreds of carts,
	// and its cart must still be there to be read back.
	h, echo := handlerWithCarts(b, db, cartstore.DefaultMaxCarts), cartEcho()
	// The service's answer, and the cart it names read back from its store.
	held := func(body []byte) error {
		if err := cartCheck(body); err != nil {
			return err
		}
		var c struct{ ID string }
		if err := json.Unmarshal(body, &c); err != nil {
			return err
		}
		req := httptest.NewRequest(http.MethodGet, "/api/v2/ecommerce/cart/"+c.ID+"/", nil)
		req.Header.Set("Authorization", "Token "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			return fmt.Errorf("the cart %s read back: %d %s", c.ID, rec.Code, rec.Body)
		}
		return cartCheck(rec.Body.Bytes())
	}
	b.Run("handler", func(b *testing.B) {
		benchAgainst(b, handlerSide(b, "service", h, cartRequest(token), held), handlerSide(b, "echo", echo, cartRequest(""), cartCheck))
	})
	b.Run("http", func(b *testing.B) {
		benchAgainst(b, loadSide(b, "service", h, loadConns, http.StatusCreated, cartRequest(token), held),
			loadSide(b, "echo", echo, loadConns, http.StatusCreated, cartRequest(""), cartCheck))
	})
}

// cartEcho is the cart's floor: it decodes the body with encoding/json,
// as rest/ decodes bodies, and writes it back with goccy/go-json, as
// rest/ writes its answers.
func cartEcho() http.Handler {
	type line struct {
		ProductID       int64             `json:"product_id"`
		Quantity        int               `json:"quantity"`
		VariantID       int64             `json:"variant_id,omitempty"`
		AttributeValues map[string]string `json:"attribute_values,omitempty"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Items     []line `json:"items"`
			ReturnURL string `json:"return_url"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = gojson.NewEncoder(w).Encode(in)
	})
}

// cartRequest makes the POST of cartBody (with the token, when there is
// one) against a server's URL, or "" in process.
func cartRequest(token string) func(url string) *http.Request {
	return func(url string) *http.Request {
		req := httptest.NewRequest(http.MethodPost, url+"/api/v2/ecommerce/cart/", strings.NewReader(cartBody))
		req.RequestURI = "" // a client's request
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Token "+token)
		}
		return req
	}
}

// cartCheck checks that body, an answer to cartBody, holds its two lines
// and its return URL.
func cartCheck(body []byte) error {
	var c struct {
		Items []struct {
			ProductID       int64             `json:"product_id"`
			Quantity        int               `json:"quantity"`
			VariantID       *int64            `json:"variant_id"`
			AttributeValues map[string]string `json:"attribute_values"`
		} `json:"items"`
		ReturnURL string `json:"return_url"`
	}
	if err := json.Unmarshal(body, &c); err != nil {
		return err
	}
	if len(c.Items) != 2 || c.ReturnURL != "https://shop.example.com/thanks" {
		return fmt.Errorf("not the cart posted: %s", body)
	}
	a, z := c.Items[0], c.Items[1]
	if a.ProductID != 12 || a.Quantity != 2 || a.VariantID == nil || *a.VariantID != 3 || len(a.AttributeValues) != 1 ||
		a.AttributeValues["1"] != "red" || z.ProductID != 40 || z.Quantity != 1 || (z.VariantID != nil && *z.VariantID != 0) ||
		len(z.AttributeValues) != 0 {
		return fmt.Errorf("not the lines posted: %s", body)
	}
	return nil
}

// handlerSide is the side of a comparison that calls h in process with
// requests of newReq(""), each answer's status checked to be 201, the
// first answer and the last with check.
func handlerSide(b *testing.B, name string, h http.Handler, newReq func(url string) *http.Request, check func([]byte) error) side {
	serve := func() (*httptest.ResponseRecorder, error) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, newReq(""))
		if rec.Code != http.StatusCreated {
			return nil, fmt.Errorf("status %d: %s", rec.Code, rec.Body)
		}
		return rec, nil
	}
	rec, err := serve()
	if err == nil {
		err = check(rec.Body.Bytes())
	}
	must(b, err)
	return side{name: name, run: func(n int) (time.Duration, error) {
		var last *httptest.ResponseRecorder
		var err error
		start := time.Now()
		for range n {
			if last, err = serve(); err != nil {
				return 0, err
			}
		}
		elapsed := time.Since(start)
		return elapsed, check(last.Body.Bytes())
	}}
}
