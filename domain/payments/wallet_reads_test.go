package payments_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/gifts"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
)

// Who reads which wallet: staff any; a payment-hub partner's wallet its
// members and its referrer's; a network giftcard's wallet its
// marketplace's members; the platform's accounts staff only; anything
// else is not found, as an unknown wallet. The movements follow the
// wallet.
func TestWalletReadAuthorization(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	ctx := context.Background()
	hub := f.create(t) // referred by market
	uow := persistence.NewUnitOfWork(f.db, persistence.PaymentsStores)
	svc := payments.NewWalletService(persistence.NewUnitOfWork(f.db, persistence.PaymentWalletReadStores))

	inTx := func(fn func(ctx context.Context, tx payments.Stores) error) {
		t.Helper()
		if err := uow.RunInTx(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	card := func(marketplace int64, code string) uuid.UUID {
		t.Helper()
		g := &gifts.NetworkGiftcard{Code: code, MarketplaceID: marketplace, Status: "paid", Value: dec("50"), RemainingValue: dec("50")}
		if err := persistence.NewGiftStore(f.db).CreateNetworkGiftcard(ctx, g); err != nil {
			t.Fatal(err)
		}
		var id uuid.UUID
		if err := f.db.NewRaw(`SELECT uuid FROM network_giftcards WHERE id = ?`, g.ID).Scan(ctx, &id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	marketCard, rivalCard := card(f.market.ID, "NGC-READ-0001"), card(f.rival.ID, "NGC-READ-0002")
	var hubWallet, shopWallet, payin, clearing uuid.UUID
	var moves []*payments.Movement
	inTx(func(ctx context.Context, tx payments.Stores) error {
		w, err := payments.PartnerWallet(ctx, tx, hub.ID, "EUR")
		if err != nil {
			return err
		}
		hubWallet = w.UUID
		if w, err = payments.PartnerWallet(ctx, tx, f.shop.ID, "EUR"); err != nil {
			return err
		}
		shopWallet = w.UUID
		if w, err = payments.PlatformWallet(ctx, tx, payments.WalletPayin, "EUR"); err != nil {
			return err
		}
		payin = w.UUID
		if w, err = payments.PlatformWallet(ctx, tx, payments.WalletPayinClearing, "EUR"); err != nil {
			return err
		}
		clearing = w.UUID
		for _, in := range []payments.MoveInput{mv(payin, clearing, "30", payments.MovePayin),
			mv(clearing, hubWallet, "25", payments.MoveTransfer), mv(clearing, hubWallet, "5", payments.MoveTransfer)} {
			m, err := payments.Transfer(ctx, tx, in)
			if err != nil {
				return err
			}
			moves = append(moves, m)
		}
		_, err = payments.DrawFromGiftcard(ctx, tx, mv(marketCard, clearing, "10", payments.MoveExtraSource))
		return err
	})

	staff := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{ID: 1, IsStaff: true}})
	own := asOwn(hub)
	shopMember := asMember(f.shop, 41)
	noPartner := domain.WithCaller(ctx, &domain.Caller{User: &domain.User{ID: 42}})
	unknown := uuid.New()
	for _, c := range []struct {
		who    string
		ctx    context.Context
		wallet uuid.UUID
		want   domain.Code // "" seen, else the error's code
	}{
		{"staff", staff, hubWallet, ""},
		{"staff", staff, payin, ""},
		{"staff", staff, marketCard, ""},
		{"staff", staff, rivalCard, ""},
		{"staff", staff, unknown, domain.CodeNotFound},
		{"referrer", f.asMarket, hubWallet, ""},
		{"referrer", f.asMarket, marketCard, ""},
		{"referrer", f.asMarket, rivalCard, domain.CodeNotFound},
		{"referrer", f.asMarket, payin, domain.CodeNotFound},
		{"referrer", f.asMarket, clearing, domain.CodeNotFound},
		{"referrer", f.asMarket, shopWallet, domain.CodeNotFound},
		{"own member", own, hubWallet, ""},
		{"own member", own, marketCard, domain.CodeNotFound},
		{"own member", own, payin, domain.CodeNotFound},
		{"rival", f.asRival, hubWallet, domain.CodeNotFound},
		{"rival", f.asRival, rivalCard, ""},
		{"rival", f.asRival, marketCard, domain.CodeNotFound},
		{"a partner outside the hub", shopMember, shopWallet, ""},
		{"a partner outside the hub", shopMember, hubWallet, domain.CodeNotFound},
		{"no partner", noPartner, hubWallet, domain.CodeForbidden},
		{"nobody", ctx, hubWallet, domain.CodeUnauthenticated},
	} {
		w, err := svc.Wallet(c.ctx, c.wallet)
		page, merr := svc.Movements(c.ctx, c.wallet, domain.PageRequest{Number: 1, Size: 10})
		switch {
		case c.want == "" && (err != nil || merr != nil):
			t.Errorf("%s reading %s: %v, %v", c.who, c.wallet, err, merr)
		case c.want == "" && (w.UUID != c.wallet || page == nil):
			t.Errorf("%s reading %s: %+v", c.who, c.wallet, w)
		case c.want != "" && (!domain.IsCode(err, c.want) || !domain.IsCode(merr, c.want)):
			t.Errorf("%s reading %s: %v, %v; want %s", c.who, c.wallet, err, merr, c.want)
		}
	}

	// The record: the partner's uuid with a partner's wallet, the card's
	// remaining value as a card's balance.
	w, err := svc.Wallet(f.asMarket, hubWallet)
	if err != nil || w.Kind != payments.WalletPartner || *w.PartnerID != hub.ID || *w.PartnerUUID != hub.UUID ||
		w.Currency != "EUR" || !w.Balance.Equal(dec("30")) || w.Card != nil {
		t.Errorf("partner wallet %+v %v", w, err)
	}
	w, err = svc.Wallet(f.asMarket, marketCard)
	if err != nil || w.Kind != payments.WalletNetworkGiftcard || w.PartnerUUID != nil || !w.Balance.Equal(dec("40")) || w.Card == nil {
		t.Errorf("card wallet %+v %v", w, err)
	}
	if w, err = svc.Wallet(f.asRival, rivalCard); err != nil || w.ID != 0 || !w.CreatedAt.IsZero() {
		t.Errorf("a card's wallet not opened yet: %+v %v", w, err)
	}

	// The movements, oldest first, by numbered pages.
	page, err := svc.Movements(own, hubWallet, domain.PageRequest{Number: 1, Size: 1})
	if err != nil || page.Count != 2 || len(page.Items) != 1 || page.Items[0].UUID != moves[1].UUID ||
		page.Items[0].Debited != clearing || page.Items[0].Credited != hubWallet || !page.Items[0].Amount.Equal(dec("25")) {
		t.Errorf("first page %+v %v", page, err)
	}
	if page, err = svc.Movements(own, hubWallet, domain.PageRequest{Number: 2, Size: 1}); err != nil || page.Items[0].UUID != moves[2].UUID {
		t.Errorf("second page %+v %v", page, err)
	}
	if _, err = svc.Movements(own, hubWallet, domain.PageRequest{Number: 3, Size: 1}); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("past the last page: %v", err)
	}
	if page, err = svc.Movements(staff, payin, domain.PageRequest{Number: 1, Size: 10}); err != nil || page.Count != 1 ||
		page.Items[0].Type != payments.MovePayin {
		t.Errorf("payin's movements %+v %v", page, err)
	}
}
