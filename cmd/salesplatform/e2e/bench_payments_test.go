package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/account"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// payBenchEnv is a database with spa, a payment-hub partner of market
// whose payments are activated at the simulated provider, the handler on
// it, and the tokens of a member of spa and of market.
type payBenchEnv struct {
	h                 http.Handler
	db                *bun.DB
	spaUUID           string
	spaID             int64
	spaTok, marketTok string
	outsider          int64
}

func newPayBenchEnv(b *testing.B) *payBenchEnv {
	b.Helper()
	ctx := context.Background()
	db := dbtest.New(b)
	accounts := account.NewAccountService(persistence.NewDatabase(db), nil, dbtest.CheapHashing)
	e := &payBenchEnv{h: Handler(b, db), db: db}
	e.marketTok = dbtest.MustAccount(b, accounts, account.NewAccountInput{Username: "market", PartnerName: "Market",
		Marketplace: true, Permissions: []string{domain.PermAccessConfigurationMarketplaces}}).Token
	e.outsider = dbtest.MustAccount(b, accounts, account.NewAccountInput{Username: "outsider", PartnerName: "Outsider",
		Marketplace: true}).Partner.ID
	do := func(method, path, token, body, contentType string, want int) map[string]any {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		if token != "" {
			req.Header.Set("Authorization", "Token "+token)
		}
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != want {
			b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
		}
		var out map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &out)
		return out
	}
	spa := do(http.MethodPost, "/api/payment_hub/partner/", e.marketTok, `{"status": "a", "commercial_name": "Spa des Alpes",
		"short_name": "SPA", "legal_representative_email": "anne@spa.example.com", "agency_email": "contact@spa.example.com"}`,
		"application/json", http.StatusCreated)
	e.spaUUID = spa["uuid"].(string)
	act := do(http.MethodPost, "/api/payment_hub/partner/"+e.spaUUID+"/activate-payments/", e.marketTok, "", "application/json", http.StatusOK)
	page, err := url.Parse(act["user_action_url"].(string))
	must(b, err)
	do(http.MethodPost, page.Path, "", "decision=verify", "application/x-www-form-urlencoded", http.StatusSeeOther)
	must(b, db.NewRaw(`SELECT id FROM partners WHERE uuid = ?`, e.spaUUID).Scan(ctx, &e.spaID))
	member := dbtest.MustAccount(b, accounts, account.NewAccountInput{Username: "cashier", PartnerName: "Cashier"})
	_, err = db.ExecContext(ctx, `UPDATE users SET partner_id = ? WHERE id = ?`, e.spaID, member.User.ID)
	must(b, err)
	e.spaTok = member.Token
	return e
}

// BenchmarkPaymentCreate measures POST /api/payment_hub/payments/ over
// loopback TCP from loadConns clients, each request with an idempotency
// key of its own: a payment of 100.00 charged at once by the simulated
// provider's successful card (`card`), so every request makes both of the
// payment's transactions and the provider's charge; every payment moves
// the same platform wallets and spa's.
func BenchmarkPaymentCreate(b *testing.B) {
	e := newPayBenchEnv(b)
	body := `{"customer": {"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com"},
		"partner_uuid": "` + e.spaUUID + `", "amount": 100, "discount": 0, "product": "voucher", "type": "credit_card",
		"card": "` + psp.CardSuccess + `"}`
	var key atomic.Int64
	newReq := func(url string) *http.Request {
		req := httptest.NewRequest(http.MethodPost, url+"/api/payment_hub/payments/", strings.NewReader(body))
		req.RequestURI = ""
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Token "+e.spaTok)
		req.Header.Set("X-Idempotency-Key", fmt.Sprintf("bench-%d", key.Add(1)))
		return req
	}
	benchLoad(b, e.h, loadConns, http.StatusCreated, newReq, func(body []byte) error {
		var p struct {
			Status      string `json:"status"`
			PartnerUUID string `json:"partner_uuid"`
		}
		if err := json.Unmarshal(body, &p); err != nil || p.Status != "ok" || p.PartnerUUID != e.spaUUID {
			return fmt.Errorf("not a paid payment of spa (%v): %.500s", err, body)
		}
		return nil
	})
	var paid int
	var amount decimal.Decimal
	must(b, e.db.NewRaw(`SELECT count(*), coalesce(sum(amount), 0) FROM payments WHERE status = 'ok' AND partner_id = ?`, e.spaID).
		Scan(context.Background(), &paid, &amount))
	if paid != b.N+1 || !amount.Equal(decimal.NewFromInt(100*int64(paid))) { // and the warm-up's
		b.Fatalf("%d paid payments of %s in all after %d requests of 100", paid, amount, b.N+1)
	}
}

// benchPayments writes n payments of partner over the year before now:
// one in ten in progress, one in twenty failed, the others paid (one in
// ten of them partly refunded); 2,000 customers.
func benchPayments(b *testing.B, db *bun.DB, partner int64, n int) {
	b.Helper()
	_, err := db.ExecContext(context.Background(), `INSERT INTO payments (uuid, partner_id, status, currency,
			customer_first_name, customer_last_name, customer_email, product, type, amount, discount, commission,
			net_amount, payin_amount, refunded_amount, refunded_payin, created_on, modified_on)
		SELECT gen_random_uuid(), ?, CASE WHEN n % 10 = 0 THEN 'ip' WHEN n % 20 = 5 THEN 'fail' ELSE 'ok' END, 'EUR',
			'Ada', 'Customer ' || n % 2000, 'customer' || n % 2000 || '@example.com', 'voucher', 'credit_card',
			100, 0, 5.25, 94.75, 100, CASE WHEN n % 10 = 3 THEN 10 ELSE 0 END, CASE WHEN n % 10 = 3 THEN 10 ELSE 0 END,
			now() - n * interval '1 year' / ?, now() - n * interval '1 year' / ?
		FROM generate_series(1, ?) n`, partner, n, n, n)
	must(b, err)
	_, err = db.ExecContext(context.Background(), `VACUUM ANALYZE payments`)
	must(b, err)
}

// BenchmarkPaymentsList measures GET /api/payment_hub/payments/ over
// loopback TCP from loadConns clients: the first page of 20 of spa's
// 10,000 payments among 50,000 (another marketplace's partners have the
// rest), as a member of spa, without filters and with the list's usual
// ones, and as a member of its referring marketplace.
func BenchmarkPaymentsList(b *testing.B) {
	e := newPayBenchEnv(b)
	benchPayments(b, e.db, e.spaID, 10_000)
	for i := range 4 {
		var other int64
		must(b, e.db.NewRaw(`WITH p AS (INSERT INTO partners (name, currency) VALUES (?, 'EUR') RETURNING id),
				li AS (INSERT INTO partner_legal_information (partner_id, referrer_id) SELECT id, ? FROM p)
			INSERT INTO payment_partners (partner_id, legal_representative_email) SELECT id, 'o@example.com' FROM p
			RETURNING partner_id`, fmt.Sprintf("Other %d", i), e.outsider).Scan(context.Background(), &other))
		benchPayments(b, e.db, other, 10_000)
	}
	month := time.Now().AddDate(0, -2, 0)
	window := "&created_on__gte=" + month.Format(time.DateOnly) + "&created_on__lte=" + month.AddDate(0, 1, 0).Format(time.DateOnly)
	for _, c := range []struct{ name, token, query string }{
		{"partner", e.spaTok, ""},
		{"partner/status", e.spaTok, "&status=ok"},
		{"partner/status,created_on", e.spaTok, "&status__in=ok,ip" + window},
		{"partner/customer_email,partially_refunded", e.spaTok, "&customer_email=Customer3@example.com&partially_refunded=true"},
		{"referrer", e.marketTok, ""},
		{"referrer/status,created_on", e.marketTok, "&status=ok" + window + "&partner_uuid=" + e.spaUUID},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := "/api/payment_hub/payments/?page=1&page_size=20" + c.query
			newReq := func(url string) *http.Request {
				req := httptest.NewRequest(http.MethodGet, url+path, nil)
				req.RequestURI = ""
				req.Header.Set("Authorization", "Token "+c.token)
				return req
			}
			// The page is spa's, and the filter selects some of its
			// payments: the first answer and each client's last.
			count := -1
			benchLoad(b, e.h, loadConns, http.StatusOK, newReq, func(body []byte) error {
				var page struct {
					Count   int `json:"count"`
					Results []struct {
						PartnerUUID string `json:"partner_uuid"`
					} `json:"results"`
				}
				if err := json.Unmarshal(body, &page); err != nil {
					return err
				}
				if count < 0 {
					count = page.Count
				}
				if page.Count == 0 || page.Count > 10_000 || page.Count != count || len(page.Results) != min(20, page.Count) {
					return fmt.Errorf("count %d (first %d): %.500s", page.Count, count, body)
				}
				for _, p := range page.Results {
					if p.PartnerUUID != e.spaUUID {
						return fmt.Errorf("another partner's payment: %.500s", body)
					}
				}
				return nil
			})
		})
	}
}
