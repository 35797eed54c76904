package e2e

// The REST lists against bare references (docs/PERFORMANCE.md): for each
// list, a plain net/http handler on a pgx pool that runs the statements
// the service runs for the same request (read off the service itself) and
// writes the same bytes with the service's encoder (goccy/go-json, as
// rest/ writes its answers), with nothing else: no router, middleware,
// domain or ORM. Both are loaded over loopback TCP by loadConns clients,
// alternately in one benchmark (benchAgainst); the benchmark first checks
// that their bodies are byte for byte the same and hold the expected
// page, and checks the last answers again after timing.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"salesplatform/domain"
	"salesplatform/domain/l10n"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"

	"github.com/shopspring/decimal"
)

// BenchmarkPartnersPageAgainstBare loads GET /api/v2/partners/?page=2&page_size=20
// (a marketplace of 200 described partners with two labels each) on the
// service and on its bare reference.
func BenchmarkPartnersPageAgainstBare(b *testing.B) {
	h, dsn := benchMarketplaceDSN(b, 200)
	const path = "/api/v2/partners/?page=2&page_size=20"
	bare := func(pool *pgxpool.Pool, stmts []string) http.Handler {
		return barePage(pool, stmts[0], stmts[1], nil, func(rows pgx.Rows) (barePartner, error) {
			var p barePartner
			var profileID int64
			var desc, managers, nearby, practical, access, commercial map[string]string
			var city string
			var lat, lon *string
			f := &p.Facilities
			err := rows.Scan(&p.ID, &p.Name, &profileID, &desc, &managers, &nearby, &practical, &access,
				&commercial, &p.Region, &p.Department, &city, &lat, &lon, &f.DisabledAccess, &f.AirConditioning,
				&f.PrivateParking, &f.Wifi, &f.SmokingArea, &f.PetsAllowed, &f.FamilyFriendly, &p.SocialLinks)
			p.Description, p.Managers, p.Nearby = bareLocalized(desc), bareLocalized(managers), bareLocalized(nearby)
			p.PracticalInformation, p.Access, p.CommercialDescription = bareLocalized(practical), bareLocalized(access), bareLocalized(commercial)
			p.Latitude, p.Longitude = bareNumber(lat), bareNumber(lon)
			p.Labels = []bareLabel{}
			return p, err
		}, func(ctx context.Context, page []barePartner) error {
			// The labels of the page, as the service reads them: the
			// third statement, prepared, with the page's ids.
			ids := make([]int64, len(page))
			at := make(map[int64]*barePartner, len(page))
			for i := range page {
				ids[i], at[page[i].ID] = page[i].ID, &page[i]
			}
			rows, err := pool.Query(ctx, stmts[2], pgx.QueryExecModeCacheStatement, ids)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id, partner int64
				var l bareLabel
				if err := rows.Scan(&id, &partner, &l.Name, &l.Logo); err != nil {
					return err
				}
				at[partner].Labels = append(at[partner].Labels, l)
			}
			return rows.Err()
		})
	}
	compareWithBare(b, h, dsn, path, "market.example.com", 3, bare, func(body []byte) error {
		// The second page of 20 of the 200 partners, each with its two labels.
		var page barePageJSON[barePartner]
		if err := json.Unmarshal(body, &page); err != nil {
			return err
		}
		if page.Count != 200 || len(page.Results) != 20 || page.Next == nil || page.Previous == nil {
			return fmt.Errorf("count %d, %d results: %.500s", page.Count, len(page.Results), body)
		}
		for i, p := range page.Results {
			if want := fmt.Sprintf("Partner %d", 20+i); p.Name != want || len(p.Labels) != 2 || p.Region != "Bretagne" {
				return fmt.Errorf("result %d is %q with %d labels, want %q with 2", i, p.Name, len(p.Labels), want)
			}
		}
		return nil
	})
}

// BenchmarkBoxesPageAgainstBare loads GET /api/v2/network_vouchers/boxes/
// (a page of 20 boxes of 5 offers each) on the service and on its bare
// reference.
func BenchmarkBoxesPageAgainstBare(b *testing.B) {
	e := benchBoxes(b, 20)
	const path = "/api/v2/network_vouchers/boxes/"
	bare := func(pool *pgxpool.Pool, stmts []string) http.Handler {
		// The page is a prepared statement whose parameters are the
		// marketplace, the page's size and its offset, as the service
		// runs it.
		args := func(n, size int) []any {
			return []any{pgx.QueryExecModeCacheStatement, e.market.ID, size, (n - 1) * size}
		}
		return barePage(pool, stmts[0], stmts[1], args, func(rows pgx.Rows) (bareBox, error) {
			var x bareBox
			var marketplace int64
			var name, short map[string]string
			var price decimal.Decimal
			var ranking, people, usages, days int
			err := rows.Scan(&x.ID, &marketplace, &name, &short, &x.IsActive, &x.IsHighlight, &x.DisplayNbOffers,
				&price, &ranking, &people, &usages, &days, &x.NbOffers, &x.Universes)
			x.Name, x.ShortDescription, x.Ranking = bareLocalized(name), bareLocalized(short), ranking
			x.Price, x.CurrencyCode = price.StringFixed(2), "EUR"
			x.PriceFormatted = bareLocalized(l10n.Money(price, "EUR"))
			return x, err
		}, nil)
	}
	compareWithBare(b, e.h, e.dsn, path, "market.example.com", 2, bare, func(body []byte) error {
		// The 20 boxes, in their ranking, each with its 5 validated offers.
		var page barePageJSON[bareBox]
		if err := json.Unmarshal(body, &page); err != nil {
			return err
		}
		if page.Count != 20 || len(page.Results) != 20 {
			return fmt.Errorf("count %d, %d results: %.500s", page.Count, len(page.Results), body)
		}
		for i, x := range page.Results {
			if name := x.Name["fr"]; name == nil || *name != fmt.Sprintf("Coffret %d", i) || x.NbOffers != 5 || x.Price != "49.90" {
				return fmt.Errorf("result %d: %+v", i, x)
			}
		}
		return nil
	})
}

// compareWithBare makes the bare handler of path from the n statements
// the service runs for it (a page's count first, then its rows, then
// what completes them), checks that the service h and the bare handler
// answer with the same bytes, which must pass check, then loads them
// alternately (benchAgainst), checking that their last answers are
// those bytes still.
func compareWithBare(b *testing.B, h http.Handler, dsn, path, host string, n int,
	bare func(pool *pgxpool.Pool, stmts []string) http.Handler, check func(body []byte) error) {
	stmts := statementsOf(b, dsn, path, host)
	if len(stmts) != n {
		b.Fatalf("want %d statements, got %q", n, stmts)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	must(b, err)
	// As the service's pool (persistence.Open): the simple protocol, as
	// many connections.
	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	cfg.MaxConns = persistence.DefaultMaxConns
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	must(b, err)
	b.Cleanup(pool.Close)
	newReq := func(base string) *http.Request {
		req, err := http.NewRequest(http.MethodGet, base+path, nil)
		must(b, err)
		// One host in the page links, whatever the listener's port.
		req.Host = "api.test"
		req.Header.Set("X-Partner-Domain", host)
		return req
	}
	service := newLoader(b, h, loadConns, http.StatusOK, newReq)
	want := bytes.Clone(service.warm(b, check))
	same := func(body []byte) error {
		if !bytes.Equal(body, want) {
			return fmt.Errorf("the service answers other bytes than at first:\nfirst: %.1500s\nlast:  %.1500s", want, body)
		}
		return nil
	}
	ref := loadSide(b, "bare", bare(pool, stmts), loadConns, http.StatusOK, newReq, func(body []byte) error {
		if !bytes.Equal(body, want) {
			return fmt.Errorf("the bare handler answers other bytes:\nservice: %.1500s\nbare:    %.1500s", want, body)
		}
		return nil
	})
	benchAgainst(b, side{name: "service", run: func(n int) (time.Duration, error) { return service.run(n, same) }}, ref)
}

// statementsOf returns the statements the service runs for a second GET
// of path (the first warms its caches), read through a pool of its own.
func statementsOf(b *testing.B, dsn, path, host string) []string {
	stmts := &dbtest.StatementCounter{}
	db, err := dbtest.OpenCounted(context.Background(), dsn, stmts)
	must(b, err)
	defer db.Close()
	h := Handler(b, db)
	for range 2 {
		stmts.Reset()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("X-Partner-Domain", host)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
	// The count first: Bun may send it alongside the page (ScanAndCount).
	qs := stmts.Queries()
	slices.SortStableFunc(qs, func(a, b string) int {
		rank := func(s string) int {
			if countFirst(s) {
				return 0
			}
			return 1
		}
		return cmp.Compare(rank(a), rank(b))
	})
	return qs
}

// countFirst reports whether a statement counts a list.
func countFirst(stmt string) bool {
	return strings.HasPrefix(stmt, "SELECT count(") || strings.Contains(stmt, "_count_wrapper")
}

// barePage answers a DRF page: countSQL's count, the rows of pageSQL
// (with pageArgs(page number, page size), its parameters, when it has
// some) through row, completed
// by complete when there is one, and the page links.
func barePage[T any](pool *pgxpool.Pool, countSQL, pageSQL string, pageArgs func(n, size int) []any, row func(pgx.Rows) (T, error),
	complete func(context.Context, []T) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		q := r.URL.Query()
		n, size := 1, domain.DefaultPageSize
		if p, err := strconv.Atoi(q.Get("page")); err == nil {
			n = p
		}
		if s, err := strconv.Atoi(q.Get("page_size")); err == nil {
			size = s
		}
		out := barePageJSON[T]{Results: []T{}}
		// The count is the first column (a keyset list's count statement
		// also checks its cursors).
		var more [2]int
		dest := []any{&out.Count}
		if strings.HasPrefix(countSQL, "SELECT count(*), count(*) FILTER") {
			dest = append(dest, &more[0], &more[1])
		}
		if err := pool.QueryRow(ctx, countSQL).Scan(dest...); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		var args []any
		if pageArgs != nil {
			args = pageArgs(n, size)
		}
		rows, err := pool.Query(ctx, pageSQL, args...)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		for rows.Next() {
			it, err := row(rows)
			if err != nil {
				rows.Close()
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			out.Results = append(out.Results, it)
		}
		if err := rows.Err(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if complete != nil {
			if err := complete(ctx, out.Results); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		link := func(page int) *string {
			if page == 1 {
				q.Del("page")
			} else {
				q.Set("page", strconv.Itoa(page))
			}
			s := (&url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawQuery: q.Encode()}).String()
			return &s
		}
		if n*size < out.Count {
			out.Next = link(n + 1)
		}
		if n > 1 {
			out.Previous = link(n - 1)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_ = gojson.NewEncoder(w).Encode(out)
	})
}

type barePageJSON[T any] struct {
	Count    int     `json:"count"`
	Next     *string `json:"next"`
	Previous *string `json:"previous"`
	Results  []T     `json:"results"`
}

type barePartner struct {
	ID                    int64              `json:"id"`
	Name                  string             `json:"name"`
	Description           map[string]*string `json:"description"`
	Managers              map[string]*string `json:"managers"`
	Nearby                map[string]*string `json:"nearby"`
	PracticalInformation  map[string]*string `json:"practical_information"`
	Access                map[string]*string `json:"access"`
	CommercialDescription map[string]*string `json:"commercial_description"`
	Logo                  *string            `json:"logo"`
	Region                string             `json:"region"`
	Department            string             `json:"department"`
	Latitude              *json.Number       `json:"latitude"`
	Longitude             *json.Number       `json:"longitude"`
	Facilities            struct {
		DisabledAccess  bool `json:"disabled_access"`
		AirConditioning bool `json:"air_conditioning"`
		PrivateParking  bool `json:"private_parking"`
		Wifi            bool `json:"wifi"`
		SmokingArea     bool `json:"smoking_area"`
		PetsAllowed     bool `json:"pets_allowed"`
		FamilyFriendly  bool `json:"family_friendly"`
	} `json:"facilities"`
	SocialLinks map[string]string `json:"social_links"`
	Labels      []bareLabel       `json:"label_and_network"`
}

type bareLabel struct {
	Name string `json:"name"`
	Logo string `json:"logo"`
}

type bareBox struct {
	ID               int64              `json:"id"`
	IsActive         bool               `json:"is_active"`
	IsHighlight      bool               `json:"is_highlight"`
	DisplayNbOffers  bool               `json:"display_nb_offers"`
	NbOffers         int                `json:"nb_offers"`
	Name             map[string]*string `json:"name"`
	ShortDescription map[string]*string `json:"short_description"`
	Price            string             `json:"price"`
	PriceFormatted   map[string]*string `json:"price_formatted"`
	CurrencyCode     string             `json:"currency_code"`
	Ranking          int                `json:"ranking"`
	Universes        []int64            `json:"universes"`
}

// bareLocalized is a text in every language, null where it has none.
func bareLocalized(m map[string]string) map[string]*string {
	out := make(map[string]*string, len(domain.Languages))
	for _, lang := range domain.Languages {
		if s, ok := m[lang]; ok {
			out[lang] = &s
		} else {
			out[lang] = nil
		}
	}
	return out
}

func bareNumber(s *string) *json.Number {
	if s == nil {
		return nil
	}
	n := json.Number(*s)
	return &n
}
