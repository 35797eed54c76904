package e2e

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain/gifts"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
)

// hubWallets are the wallets of a hubFixture: those of hub, a payment-hub
// partner market refers, of a network giftcard of market's (card), and
// the platform's payin and clearing accounts, with the movements of a
// payment: payin → clearing 30.00, clearing → hub 25.00 and 5.00, card →
// clearing 10.00.
type hubWallets struct {
	hubID                          int64
	hubUUID, ownTok                string
	partner, card, payin, clearing uuid.UUID
	cardID                         int64
	moves                          []*payments.Movement
}

func (f *hubFixture) wallets(t *testing.T) *hubWallets {
	t.Helper()
	ctx := context.Background()
	created := f.create(t)
	w := &hubWallets{hubID: int64(created["id"].(float64)), hubUUID: created["uuid"].(string)}
	w.ownTok = f.memberOf(t, w.hubID)
	g := &gifts.NetworkGiftcard{Code: "NGC-HUB-WALLET", MarketplaceID: f.market.ID, Status: "paid",
		Value: decimal.RequireFromString("50"), RemainingValue: decimal.RequireFromString("50")}
	gcMust(t, persistence.NewGiftStore(f.db).CreateNetworkGiftcard(ctx, g))
	w.cardID = g.ID
	gcMust(t, f.db.NewRaw(`SELECT uuid FROM network_giftcards WHERE id = ?`, g.ID).Scan(ctx, &w.card))
	uow := persistence.NewUnitOfWork(f.db, persistence.PaymentsStores)
	gcMust(t, uow.RunInTx(ctx, func(ctx context.Context, tx payments.Stores) error {
		open := []struct {
			dest *uuid.UUID
			open func() (*payments.Wallet, error)
		}{
			{&w.partner, func() (*payments.Wallet, error) { return payments.PartnerWallet(ctx, tx, w.hubID, "EUR") }},
			{&w.payin, func() (*payments.Wallet, error) { return payments.PlatformWallet(ctx, tx, payments.WalletPayin, "EUR") }},
			{&w.clearing, func() (*payments.Wallet, error) {
				return payments.PlatformWallet(ctx, tx, payments.WalletPayinClearing, "EUR")
			}},
		}
		for _, o := range open {
			wallet, err := o.open()
			if err != nil {
				return err
			}
			*o.dest = wallet.UUID
		}
		move := func(from, to uuid.UUID, amount, typ string) payments.MoveInput {
			return payments.MoveInput{From: from, To: to, Amount: decimal.RequireFromString(amount), Type: typ, Reason: typ + " " + amount}
		}
		for _, in := range []payments.MoveInput{move(w.payin, w.clearing, "30", payments.MovePayin),
			move(w.clearing, w.partner, "25", payments.MoveTransfer), move(w.clearing, w.partner, "5", payments.MoveTransfer)} {
			m, err := payments.Transfer(ctx, tx, in)
			if err != nil {
				return err
			}
			w.moves = append(w.moves, m)
		}
		m, err := payments.DrawFromGiftcard(ctx, tx, move(w.card, w.clearing, "10", payments.MoveExtraSource))
		w.moves = append(w.moves, m)
		return err
	}))
	return w
}

// The wallet reads: a wallet's record and its movements, in the Page
// wrapper, to the callers who may see the wallet; 404 to any other.
func TestPaymentHubWalletsREST(t *testing.T) {
	t.Parallel()
	f := newHubFixture(t)
	w := f.wallets(t)
	const base = "/api/payment_hub/wallets/"
	var createdAt time.Time
	gcMust(t, f.db.NewRaw(`SELECT created_at FROM wallets WHERE uuid = ?`, w.partner).Scan(context.Background(), &createdAt))
	created := createdAt.UTC().Format(time.RFC3339Nano)

	partnerRecord := fmt.Sprintf(`{"uuid": %q, "kind": "partner", "currency": "EUR", "balance": 30.00, "partner": %d,
		"partner_uuid": %q, "network_giftcard": null, "created_on": %q}`, w.partner, w.hubID, w.hubUUID, created)
	for _, tok := range []string{f.marketTok, f.viewerTok, w.ownTok, f.staffTok} {
		res := f.call(t, http.MethodGet, base+w.partner.String()+"/", tok, "")
		WantResponse(t, res, http.StatusOK, partnerRecord)
	}
	WantResponse(t, f.call(t, http.MethodGet, base+w.card.String()+"/", f.marketTok, ""), http.StatusOK,
		fmt.Sprintf(`{"uuid": %q, "kind": "network_giftcard", "currency": "EUR", "balance": 40.00, "partner": null,
			"partner_uuid": null, "network_giftcard": %d, "created_on": %q}`, w.card, w.cardID,
			f.call(t, http.MethodGet, base+w.card.String()+"/", f.staffTok, "").JSON(t)["created_on"]))
	res := f.call(t, http.MethodGet, base+w.payin.String()+"/", f.staffTok, "")
	if got := res.JSON(t); res.Status != 200 || got["kind"] != "payin" || got["balance"] != -30.0 || got["partner"] != nil {
		t.Errorf("payin for staff: %d %s", res.Status, res.Body)
	}

	// Who may not: another marketplace, a partner unrelated, a member of
	// the partner for the card and the platform's accounts; no token.
	for _, c := range []struct {
		tok    string
		wallet uuid.UUID
	}{{f.rivalTok, w.partner}, {f.shopTok, w.partner}, {f.rivalTok, w.card}, {w.ownTok, w.card}, {f.marketTok, w.payin},
		{f.marketTok, w.clearing}, {w.ownTok, w.clearing}, {f.staffTok, uuid.New()}} {
		WantResponse(t, f.call(t, http.MethodGet, base+c.wallet.String()+"/", c.tok, ""), http.StatusNotFound, notFoundJS)
		WantResponse(t, f.call(t, http.MethodGet, base+c.wallet.String()+"/movements/", c.tok, ""), http.StatusNotFound, notFoundJS)
	}
	WantResponse(t, f.call(t, http.MethodGet, base+"nope/", f.staffTok, ""), http.StatusNotFound, notFoundJS)
	WantResponse(t, f.call(t, http.MethodGet, base+w.partner.String()+"/", "", ""), http.StatusUnauthorized,
		`{"detail": "Authentication credentials were not provided."}`)
	WantResponse(t, f.call(t, http.MethodGet, base+w.partner.String()+"/movements/", "", ""), http.StatusUnauthorized, "")

	// The movements, oldest first, by pages.
	movement := func(m *payments.Movement) string {
		return fmt.Sprintf(`{"created_on": %q, "amount": %s, "currency": "EUR", "status": "succeeded", "type": %q,
			"payment_uuid": null, "debited_wallet_uuid": %q, "credited_wallet_uuid": %q}`,
			m.CreatedOn.UTC().Format(time.RFC3339Nano), m.Amount.StringFixed(2), m.Type, m.Debited, m.Credited)
	}
	WantResponse(t, f.call(t, http.MethodGet, base+w.partner.String()+"/movements/", w.ownTok, ""), http.StatusOK,
		fmt.Sprintf(`{"count": 2, "previous": null, "has_previous": false, "has_next": false, "current_page": 1,
			"page_range": [1], "results": [%s, %s]}`, movement(w.moves[1]), movement(w.moves[2])))
	res = f.call(t, http.MethodGet, base+w.partner.String()+"/movements/?page=2&page_size=1", f.marketTok, "")
	WantResponse(t, res, http.StatusOK, fmt.Sprintf(`{"count": 2, "previous": "http://example.com%s", "has_previous": true,
		"has_next": false, "current_page": 2, "page_range": [1, 2], "results": [%s]}`,
		base+w.partner.String()+"/movements/?page_size=1", movement(w.moves[2])))
	WantResponse(t, f.call(t, http.MethodGet, base+w.partner.String()+"/movements/?page=3&page_size=1", f.marketTok, ""),
		http.StatusNotFound, `{"detail": "Invalid page."}`)
	WantResponse(t, f.call(t, http.MethodGet, base+w.card.String()+"/movements/", f.marketTok, ""), http.StatusOK,
		fmt.Sprintf(`{"count": 1, "previous": null, "has_previous": false, "has_next": false, "current_page": 1,
			"page_range": [1], "results": [%s]}`, movement(w.moves[3])))
	if got := f.call(t, http.MethodGet, base+w.clearing.String()+"/movements/", f.staffTok, "").JSON(t); got["count"] != 4.0 {
		t.Errorf("clearing's movements: %v", got)
	}
}
