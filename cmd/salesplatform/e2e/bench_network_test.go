package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// BenchmarkNetworkGiftcardUseHTTP measures POST
// /api/networkgiftcards_by_code/{code}/use/ over loopback TCP from 32
// clients, 0.01 a use: all at one card (every use updates the same row in
// turn) and spread over 1,000 cards. Mails are off
// (send_usage_notification_email false): the outbox's insert is another
// statement, measured apart by the mailer's tests. Afterwards every
// request must have made one usage of 0.01 and taken it off its card.
func BenchmarkNetworkGiftcardUseHTTP(b *testing.B) {
	for _, cards := range []int{1, 1000} {
		b.Run(fmt.Sprintf("cards=%d", cards), func(b *testing.B) {
			ctx := context.Background()
			dsn := dbtest.NewDSN(b)
			token := CreateUser(b, dsn, "--username", "market", "--password", "market-password", "--partner-name", "Market",
				"--marketplace", "--permission", domain.PermUseNetworkGiftcardAPI)
			db, err := persistence.Open(ctx, dsn)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { db.Close() })
			var market, spa int64
			must(b, db.NewRaw("SELECT partner_id FROM users WHERE username = 'market'").Scan(ctx, &market))
			must(b, db.NewRaw("INSERT INTO partners (name, status) VALUES ('Spa', 'n') RETURNING id").Scan(ctx, &spa))
			_, err = db.ExecContext(ctx, `INSERT INTO network_partners (marketplace_id, partner_id, source_id) VALUES (?, ?, '101');
				INSERT INTO network_giftcard_allowed_partners (marketplace_id, partner_id) VALUES (?, ?)`, market, spa, market, spa)
			must(b, err)
			codes := make([]string, cards)
			store := persistence.NewGiftStore(db)
			for i := range codes {
				codes[i] = fmt.Sprintf("NGC-BENCH-%04d", i)
				must(b, store.CreateNetworkGiftcard(ctx, &gifts.NetworkGiftcard{Code: codes[i], MarketplaceID: market, Status: "paid",
					Value: decimal.NewFromInt(1_000_000), RemainingValue: decimal.NewFromInt(1_000_000)}))
			}
			var next atomic.Int64
			newReq := func(url string) *http.Request {
				code := codes[int(next.Add(1))%len(codes)]
				req := httptest.NewRequest(http.MethodPost, url+"/api/networkgiftcards_by_code/"+code+"/use/", strings.NewReader(
					`{"creation_date": "2026-06-01", "value": 0.01, "partner_source_id": 101, "send_usage_notification_email": false}`))
				req.RequestURI = ""
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Token "+token)
				return req
			}
			benchLoad(b, Handler(b, db), 32, http.StatusOK, newReq, nil)
			checkGiftcardUses(b, db, b.N+1) // and the warm-up's
		})
	}
}

// checkGiftcardUses checks that the cards of db were used n times for
// 0.01 each: n usages, whose amounts make 0.01 n, and every card's
// balance down by the sum of its own usages.
func checkGiftcardUses(b *testing.B, db *bun.DB, n int) {
	b.Helper()
	var uses, off int
	var used, spent decimal.Decimal
	must(b, db.NewRaw(`SELECT coalesce(sum(u.n), 0), coalesce(sum(u.used), 0), sum(c.value - c.remaining_value),
			count(*) FILTER (WHERE c.value - c.remaining_value <> coalesce(u.used, 0))
		FROM network_giftcards c LEFT JOIN (SELECT network_giftcard_id, count(*) n, sum(value) used
			FROM network_giftcard_usages WHERE is_active GROUP BY 1) u ON u.network_giftcard_id = c.id`).
		Scan(context.Background(), &uses, &used, &spent, &off))
	want := decimal.New(int64(n), -2)
	if uses != n || !used.Equal(want) || !spent.Equal(want) || off != 0 {
		b.Fatalf("%d uses of 0.01: %d usages of %s in all, %s off the cards, %d cards whose balance is not their usages'",
			n, uses, used, spent, off)
	}
}
