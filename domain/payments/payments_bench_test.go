package payments_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// payBench is a database with spa, a payment-hub partner of market whose
// payments are activated at the simulated provider, and the payment
// service on a pool of conns connections.
type payBench struct {
	db               *bun.DB
	svc              *payments.PaymentService
	spa              *payments.Partner
	asSpa, asMarket  context.Context
	market, outsider *domain.Partner
}

func newPayBench(b *testing.B, conns int) *payBench {
	b.Helper()
	db := dbtest.New(b)
	persistence.SetMaxConns(db.DB, conns)
	sim := psp.NewSim(db, simBase)
	keys := idempotency.NewGuard(persistence.NewIdempotencyStore(db))
	hub := payments.NewHubPartnerService(persistence.NewUnitOfWork(db, persistence.PaymentPartnerStores), keys, sim,
		blobstore.NewLocal(b.TempDir()))
	partners := persistence.NewDatabase(db).Stores().Partners
	f := &payBench{db: db, svc: payments.NewPaymentService(persistence.NewUnitOfWork(db, persistence.PaymentsStores), keys, sim)}
	// The users of the callers, who create payments and move money.
	if _, err := db.ExecContext(context.Background(), `INSERT INTO users (id, username, password_hash)
		VALUES (21, 'user21', 'x'), (31, 'user31', 'x')`); err != nil {
		b.Fatal(err)
	}
	f.market = dbtest.MustPartner(b, partners, &domain.Partner{Name: "Market", IsMarketplace: true, Currency: "EUR"})
	f.outsider = dbtest.MustPartner(b, partners, &domain.Partner{Name: "Outsider", IsMarketplace: true, Currency: "EUR"})
	f.asMarket = asMember(f.market, 21, domain.PermAccessConfigurationMarketplaces)
	spa, err := f.hub(b, hub, f.asMarket)
	if err != nil {
		b.Fatal(err)
	}
	a, err := hub.ActivatePayments(f.asMarket, spa.UUID)
	if err != nil {
		b.Fatal(err)
	}
	// The legal representative verifies their identity on the provider's page.
	page, _ := url.Parse(a.UserActionURL)
	req := httptest.NewRequest(http.MethodPost, page.Path, strings.NewReader("decision=verify"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	sim.Handler(psp.Callbacks{ActivationChanged: hub.SyncActivation}).ServeHTTP(rec, req)
	if spa, err = hub.GetPartner(f.asMarket, spa.UUID); err != nil || !spa.MayTakePayments() {
		b.Fatalf("spa cannot take payments: %v (page answered %d)", err, rec.Code)
	}
	f.spa = spa
	f.asSpa = asMember(&domain.Partner{ID: spa.ID, UUID: spa.UUID, Status: spa.Status}, 31)
	return f
}

// hub creates an active payment-hub partner as ctx's marketplace.
func (f *payBench) hub(b *testing.B, hub *payments.HubPartnerService, ctx context.Context) (*payments.Partner, error) {
	return hub.CreatePartner(ctx, partnerInput(b, dbtest.JSON(b, `{"status": "a", "commercial_name": "Spa des Alpes", "short_name": "SPA",
		"legal_representative_email": "anne@spa.example.com", "agency_email": "contact@spa.example.com"}`).(map[string]any)))
}

// payInput is a payment of 100.00 of spa paid at once by the simulated
// provider's successful card.
func (f *payBench) payInput(*testing.B) payments.PaymentInput {
	return payInput(&domain.Partner{UUID: f.spa.UUID}, dec("100.00"))
}

// BenchmarkCreatePayment measures PaymentService.CreatePayment of a
// payment charged at once (`card`): the payment and its pending pay-in in
// one transaction, the simulated provider's charge (a row of its own), then
// the pay-in applied in a second transaction on the payment's locked row,
// which moves the money through the platform's pay-in, clearing and
// commission wallets to spa's. "serial" is one caller; "parallel" 32
// goroutines on 16 connections, every payment moving the same four wallet
// rows. Afterwards spa must hold one paid payment of 100.00 per call.
func BenchmarkCreatePayment(b *testing.B) {
	run := func(b *testing.B, f *payBench, doc payments.PaymentInput) {
		p, err := f.svc.CreatePayment(f.asSpa, doc)
		if err != nil || p.Status != payments.StatusPaid {
			b.Fatalf("create: %v %+v", err, p)
		}
	}
	b.Run("serial", func(b *testing.B) {
		f := newPayBench(b, 16)
		doc := f.payInput(b)
		b.ReportAllocs()
		start := time.Now()
		for b.Loop() {
			run(b, f, doc)
		}
		elapsed := time.Since(start)
		f.checkPaid(b, b.N)
		b.ReportMetric(float64(b.N)/elapsed.Seconds(), "payments/s")
	})
	b.Run("parallel", func(b *testing.B) {
		f := newPayBench(b, 16)
		doc := f.payInput(b)
		b.ReportAllocs()
		b.SetParallelism(16) // 32 goroutines on 2 cores
		b.ResetTimer()
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				p, err := f.svc.CreatePayment(f.asSpa, doc)
				if err != nil || p.Status != payments.StatusPaid {
					b.Errorf("create: %v", err)
					return
				}
			}
		})
		elapsed := time.Since(start)
		b.StopTimer()
		f.checkPaid(b, b.N)
		b.ReportMetric(float64(b.N)/elapsed.Seconds(), "payments/s")
	})
}

// checkPaid checks that spa has n paid payments of 100.00.
func (f *payBench) checkPaid(b *testing.B, n int) {
	b.Helper()
	var paid int
	var amount decimal.Decimal
	if err := f.db.NewRaw(`SELECT count(*), coalesce(sum(amount), 0) FROM payments WHERE status = 'ok' AND partner_id = ?`, f.spa.ID).
		Scan(context.Background(), &paid, &amount); err != nil {
		b.Fatal(err)
	}
	if paid != n || !amount.Equal(decimal.NewFromInt(100*int64(n))) {
		b.Fatalf("%d paid payments of %s in all after %d of 100.00", paid, amount, n)
	}
}

// listPayments is how many payments spa has in the list benchmarks;
// otherPayments how many another marketplace's partners have beside them.
const (
	listPayments  = 10_000
	otherPayments = 40_000
)

// fillPayments writes n payments of partner over the year before now: one
// in ten in progress, one in twenty failed, the others paid (one in ten of
// them partly refunded); 2,000 customers.
func fillPayments(b *testing.B, db *bun.DB, partner int64, n int) {
	b.Helper()
	_, err := db.ExecContext(context.Background(), `INSERT INTO payments (uuid, partner_id, status, currency,
			customer_first_name, customer_last_name, customer_email, product, type, amount, discount, commission,
			net_amount, payin_amount, refunded_amount, refunded_payin, created_on, modified_on)
		SELECT gen_random_uuid(), ?, CASE WHEN n % 10 = 0 THEN 'ip' WHEN n % 20 = 5 THEN 'fail' ELSE 'ok' END, 'EUR',
			'Ada', 'Customer ' || n % 2000, 'customer' || n % 2000 || '@example.com', 'voucher', 'credit_card',
			100, 0, 5.25, 94.75, 100, CASE WHEN n % 10 = 3 THEN 10 ELSE 0 END, CASE WHEN n % 10 = 3 THEN 10 ELSE 0 END,
			now() - n * interval '1 year' / ?, now() - n * interval '1 year' / ?
		FROM generate_series(1, ?) n`, partner, n, n, n)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.ExecContext(context.Background(), `VACUUM ANALYZE payments`); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPaymentsList measures PaymentService.Payments, the first page
// of 20 (newest first) of spa's 10,000 payments among 50,000: as a
// member of spa and of its referring marketplace, without filters and with
// the list's usual ones (the paid payments, those of a month, a customer's).
func BenchmarkPaymentsList(b *testing.B) {
	f := newPayBench(b, 4)
	ctx := context.Background()
	fillPayments(b, f.db, f.spa.ID, listPayments)
	// Another marketplace's partners and their payments.
	for i := range 4 {
		var other int64
		if err := f.db.NewRaw(`WITH p AS (INSERT INTO partners (name, currency) VALUES (?, 'EUR') RETURNING id),
				li AS (INSERT INTO partner_legal_information (partner_id, referrer_id) SELECT id, ? FROM p)
			INSERT INTO payment_partners (partner_id, legal_representative_email) SELECT id, 'o@example.com' FROM p
			RETURNING partner_id`, fmt.Sprintf("Other %d", i), f.outsider.ID).Scan(ctx, &other); err != nil {
			b.Fatal(err)
		}
		fillPayments(b, f.db, other, otherPayments/4)
	}
	month := time.Now().AddDate(0, -2, 0)
	for _, c := range []struct {
		name   string
		caller context.Context
		in     payments.PaymentListInput
		want   int
	}{
		{"partner", f.asSpa, payments.PaymentListInput{}, listPayments},
		{"partner/status", f.asSpa, payments.PaymentListInput{Status: "ok"}, listPayments * 8 / 10},
		{"partner/status,created_on", f.asSpa, payments.PaymentListInput{Status: "ok",
			CreatedOnGte: month.Format(time.DateOnly), CreatedOnLte: month.AddDate(0, 1, 0).Format(time.DateOnly)}, 500},
		{"partner/customer_email", f.asSpa, payments.PaymentListInput{CustomerEmail: "Customer7@example.com"}, 5},
		{"referrer", f.asMarket, payments.PaymentListInput{}, listPayments},
		{"referrer/status,created_on", f.asMarket, payments.PaymentListInput{Status: "ok",
			CreatedOnGte: month.Format(time.DateOnly), CreatedOnLte: month.AddDate(0, 1, 0).Format(time.DateOnly)}, 500},
	} {
		b.Run(c.name, func(b *testing.B) {
			list := func() *domain.Page[*payments.Payment] {
				page, err := f.svc.Payments(c.caller, c.in, domain.PageRequest{Number: 1, Size: 20})
				if err != nil {
					b.Fatal(err)
				}
				return page
			}
			// Every filter selects a fair share of spa's payments, and
			// only spa's: the first page and the last.
			check := func(page *domain.Page[*payments.Payment]) {
				if page.Count < c.want || page.Count > listPayments || len(page.Items) != min(20, page.Count) {
					b.Fatalf("count %d (want at least %d), %d items", page.Count, c.want, len(page.Items))
				}
				for _, p := range page.Items {
					if p.PartnerID != f.spa.ID {
						b.Fatalf("a payment of partner %d", p.PartnerID)
					}
				}
			}
			check(list())
			var last *domain.Page[*payments.Payment]
			b.ReportAllocs()
			for b.Loop() {
				last = list()
			}
			check(last)
		})
	}
}
