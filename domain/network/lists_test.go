package network_test

import (
	"context"
	"slices"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/persistence/dbtest"
)

// codes returns the codes of cards.
func codes(cards []*network.Giftcard) []string {
	out := make([]string, len(cards))
	for i, g := range cards {
		out[i] = g.Code
	}
	return out
}

// The list of a marketplace's cards is newest first, numbered or by
// keyset, of the caller's marketplace only (staff: all), with the codes
// masked unless the caller may use or create cards; a card read by id is
// masked alike, and another marketplace's is not found.
func TestGiftcardList(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 4)
	c1 := f.card(t, "NGC-LIST-0001", "paid", "10")
	c2 := f.card(t, "NGC-LIST-0002", "paid", "20")
	c3 := f.card(t, "NGC-LIST-0003", "draft", "30")
	rival := f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Rival', true) RETURNING id`)
	rc := f.card(t, "NGC-RIVAL-0001", "paid", "5")
	f.id(t, "UPDATE network_giftcards SET marketplace_id = ? WHERE id = ? RETURNING id", rival, rc.ID)
	// c2 is the newest, then c3 and c1 (same date: the higher id first).
	f.id(t, "UPDATE network_giftcards SET creation_date = '2026-01-01T10:00:00Z' WHERE id IN (?, ?) RETURNING id", c1.ID, c3.ID)
	f.id(t, "UPDATE network_giftcards SET creation_date = '2026-02-01T10:00:00Z' WHERE id = ? RETURNING id", c2.ID)

	page := domain.PageRequest{Number: 1, Size: 2}
	got, err := f.svc.Giftcards(f.asMarket, page)
	if err != nil || got.Count != 3 || !slices.Equal(codes(got.Items), []string{c2.Code, c3.Code}) {
		t.Fatalf("page 1 = %+v, %v", got, err)
	}
	if got.Items[0].MarketplaceID != f.market || !got.Items[0].Value.Equal(dec("20")) || got.Items[0].Description != "" {
		t.Errorf("record = %+v", got.Items[0])
	}
	got, err = f.svc.Giftcards(f.asMarket, domain.PageRequest{Number: 2, Size: 2})
	if err != nil || !slices.Equal(codes(got.Items), []string{c1.Code}) {
		t.Errorf("page 2 = %+v, %v", got, err)
	}
	_, err = f.svc.Giftcards(f.asMarket, domain.PageRequest{Number: 3, Size: 2})
	dbtest.WantCode(t, err, domain.CodeNotFound)

	// Keyset pages start past an item of the list.
	got, err = f.svc.Giftcards(f.asMarket, domain.PageRequest{Size: 1, Keyset: &domain.Keyset{After: c2.ID}})
	if err != nil || !got.More || !slices.Equal(codes(got.Items), []string{c3.Code}) {
		t.Errorf("after c2 = %+v, %v", got, err)
	}
	got, err = f.svc.Giftcards(f.asMarket, domain.PageRequest{Size: 5, Keyset: &domain.Keyset{Before: c1.ID, Backward: true}})
	if err != nil || got.More || !slices.Equal(codes(got.Items), []string{c2.Code, c3.Code}) {
		t.Errorf("before c1 = %+v, %v", got, err)
	}
	_, err = f.svc.Giftcards(f.asMarket, domain.PageRequest{Size: 1, Keyset: &domain.Keyset{After: rc.ID}})
	if e := dbtest.WantCode(t, err, domain.CodeInvalid); e.Fields[0].Message != domain.MsgCursorGone {
		t.Errorf("a cursor of another marketplace's card: %+v", e.Fields)
	}

	// Without the permissions to use or create cards, codes are masked.
	asReader := as(f.market, false)
	got, err = f.svc.Giftcards(asReader, domain.PageRequest{Number: 1, Size: 5})
	want := []string{network.MaskCode(c2.Code), network.MaskCode(c3.Code), network.MaskCode(c1.Code)}
	if err != nil || !slices.Equal(codes(got.Items), want) || want[0] != "•••••••••0002" {
		t.Errorf("masked = %q, %v; want %q", codes(got.Items), err, want)
	}
	for ctx, code := range map[context.Context]string{f.asMarket: c1.Code, as(f.market, false, domain.PermCreateNetworkGiftcardAPI): c1.Code,
		asReader: network.MaskCode(c1.Code), as(0, true): c1.Code} {
		if g, err := f.svc.Giftcard(ctx, c1.ID); err != nil || g.Code != code {
			t.Errorf("by id: %+v, %v; want code %q", g, err, code)
		}
	}
	_, err = f.svc.Giftcard(f.asMarket, rc.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	cards, err := f.svc.GiftcardsByID(f.asMarket, []int64{rc.ID, c3.ID, 999999, c1.ID})
	if err != nil || len(cards) != 4 || cards[0] != nil || cards[1].ID != c3.ID || cards[2] != nil || cards[3].ID != c1.ID {
		t.Errorf("batch = %+v, %v", cards, err)
	}

	// Staff list every marketplace's cards, whole.
	got, err = f.svc.Giftcards(as(0, true), domain.PageRequest{Number: 1, Size: 10})
	if err != nil || got.Count != 4 || !slices.Contains(codes(got.Items), rc.Code) {
		t.Errorf("staff = %+v, %v", got, err)
	}
	if got, err := f.svc.Giftcards(as(rival, false), page); err != nil || got.Count != 1 || got.Items[0].ID != rc.ID {
		t.Errorf("rival = %+v, %v", got, err)
	}
	_, err = f.svc.Giftcards(context.Background(), page)
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
}

// The batches of usages, ledgers and holds give each card its page and
// its count, nothing for another marketplace's card; usages, holds and
// movements read by id keep the same tenancy.
func TestGiftcardBatchesAndLookups(t *testing.T) {
	t.Parallel()
	f := newNGCFixture(t, 4)
	g := f.card(t, "NGC-BATCH-0001", "paid", "50")
	other := f.card(t, "NGC-BATCH-0002", "paid", "10")
	u1, err := f.svc.Use(f.asMarket, use(g.Code, f.member, "5"))
	if err != nil {
		t.Fatal(err)
	}
	u2, err := f.svc.Use(f.asMarket, use(g.Code, f.member, "7"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := f.svc.Hold(f.asMarket, hold(g.Code, f.member, "R-1", "3"))
	if err != nil {
		t.Fatal(err)
	}
	rival := f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Rival', true) RETURNING id`)
	asRival := as(rival, false, domain.PermUseNetworkGiftcardAPI)

	first := domain.PageRequest{Number: 1, Size: 1}
	usages, err := f.svc.UsagesOfCards(f.asMarket, []int64{g.ID, other.ID}, first)
	if err != nil || len(usages) != 2 || usages[0].Count != 2 || len(usages[0].Items) != 1 || usages[0].Items[0].ID != u1.ID ||
		usages[0].Items[0].PartnerID != f.member || usages[0].Items[0].MarketplaceID != f.market ||
		usages[1].Count != 0 || len(usages[1].Items) != 0 {
		t.Fatalf("usages = %+v, %v", usages, err)
	}
	second, err := f.svc.UsagesOfCards(f.asMarket, []int64{g.ID}, domain.PageRequest{Number: 2, Size: 1})
	if err != nil || second[0].Items[0].ID != u2.ID {
		t.Errorf("usages page 2 = %+v, %v", second, err)
	}
	ledger, err := f.svc.MovementsOfCards(f.asMarket, []int64{g.ID}, domain.PageRequest{Number: 1, Size: 10})
	kinds := []string{}
	for _, m := range ledger[0].Items {
		kinds = append(kinds, m.Kind)
	}
	if err != nil || ledger[0].Count != 4 || !slices.Equal(kinds, []string{"issue", "use", "use", "hold"}) ||
		!ledger[0].Items[3].BalanceAfter.Equal(dec("35")) {
		t.Errorf("ledger = %v %+v, %v", kinds, ledger[0], err)
	}
	holds, err := f.svc.HoldsOfCards(f.asMarket, []int64{other.ID, g.ID}, first)
	if err != nil || holds[0].Count != 0 || holds[1].Count != 1 || holds[1].Items[0].ID != h.ID || holds[1].Items[0].ReservationID != "R-1" {
		t.Errorf("holds = %+v, %v", holds, err)
	}
	// Another marketplace gets empty pages, staff everything.
	for ctx, n := range map[context.Context]int{asRival: 0, as(0, true): 2} {
		if p, err := f.svc.UsagesOfCards(ctx, []int64{g.ID}, first); err != nil || p[0].Count != n {
			t.Errorf("usages seen %+v, %v; want %d", p, err, n)
		}
		if p, err := f.svc.MovementsOfCards(ctx, []int64{g.ID}, first); err != nil || (p[0].Count == 0) != (n == 0) {
			t.Errorf("ledger seen %+v, %v", p, err)
		}
		if p, err := f.svc.HoldsOfCards(ctx, []int64{g.ID}, first); err != nil || (p[0].Count == 0) != (n == 0) {
			t.Errorf("holds seen %+v, %v", p, err)
		}
	}

	if got, err := f.svc.Usage(as(f.market, false), u2.ID); err != nil || got.ID != u2.ID || !got.Value.Equal(dec("7")) || got.CardID != g.ID {
		t.Errorf("usage = %+v, %v", got, err)
	}
	if got, err := f.svc.HoldByID(f.asMarket, h.ID); err != nil || got.Status != network.HoldHeld || !got.Amount.Equal(dec("3")) {
		t.Errorf("hold = %+v, %v", got, err)
	}
	m := ledger[0].Items[1]
	if got, err := f.svc.Movement(f.asMarket, m.ID); err != nil || got.Kind != "use" || *got.UsageID != u1.ID {
		t.Errorf("movement = %+v, %v", got, err)
	}
	_, err = f.svc.Usage(asRival, u1.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.HoldByID(asRival, h.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	_, err = f.svc.Movement(asRival, m.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if _, err := f.svc.Movement(as(0, true), m.ID); err != nil {
		t.Errorf("staff movement: %v", err)
	}
	_, err = f.svc.UsagesOfCards(context.Background(), []int64{g.ID}, first)
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
}

// A marketplace lists its network's partners (staff name the
// marketplace); partners read by key show only the caller's network.
func TestNetworkPartnerList(t *testing.T) {
	t.Parallel()
	f := newNPFixture(t)
	spa, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "source_id", "101", "link_to_ngc_settings", true,
		"partner_tags", []any{map[string]any{"tag": "spa"}})))
	if err != nil {
		t.Fatal(err)
	}
	bar, err := f.svc.CreateNetworkPartner(f.asMarket, npInput(t, npBody(t, "name", "Bar", "siret_number", "22222222200022")))
	if err != nil {
		t.Fatal(err)
	}
	page := domain.PageRequest{Number: 1, Size: 1}
	got, err := f.svc.NetworkPartners(asMember(f.market), nil, page)
	if err != nil || got.Count != 2 || len(got.Items) != 1 {
		t.Fatalf("list = %+v, %v", got, err)
	}
	p := got.Items[0]
	if p.ID != spa.ID || *p.SourceID != "101" || !p.LinkedToNGCSettings || p.LinkedToNVSettings || p.SiretNumber != "12345678900012" ||
		len(p.Tags) != 1 || p.Tags[0] != "spa" || p.MarketplaceID != f.market.ID || p.Status != domain.PartnerStatusNetwork {
		t.Errorf("partner = %+v", p)
	}
	if next, err := f.svc.NetworkPartners(asMember(f.market), &f.market.UUID, domain.PageRequest{Number: 2, Size: 1}); err != nil ||
		next.Items[0].ID != bar.ID {
		t.Errorf("page 2 = %+v, %v", next, err)
	}
	if got, err := f.svc.NetworkPartners(f.asRival, nil, page); err != nil || got.Count != 0 {
		t.Errorf("rival = %+v, %v", got, err)
	}
	_, err = f.svc.NetworkPartners(f.asRival, &f.market.UUID, page)
	wantField(t, err, "marketplace_uuid", "does not exist")
	staff := dbtest.AsStaff()
	_, err = f.svc.NetworkPartners(staff, nil, page)
	wantField(t, err, "marketplace_uuid", "required")
	if got, err := f.svc.NetworkPartners(staff, &f.market.UUID, page); err != nil || got.Count != 2 {
		t.Errorf("staff = %+v, %v", got, err)
	}
	_, err = f.svc.NetworkPartners(staff, &f.shop.UUID, page)
	wantField(t, err, "marketplace_uuid", network.MsgNotMarketplace)
	_, err = f.svc.NetworkPartners(asMember(f.shop), nil, page)
	dbtest.WantCode(t, err, domain.CodeForbidden)

	keys := []network.PartnerKey{{MarketplaceID: f.rival.ID, PartnerID: spa.ID}, {MarketplaceID: f.market.ID, PartnerID: bar.ID},
		{MarketplaceID: f.market.ID, PartnerID: f.shop.ID}, {MarketplaceID: f.market.ID, PartnerID: spa.ID}}
	for ctx, name := range map[context.Context]string{asMember(f.market): "member", staff: "staff"} {
		ps, err := f.svc.NetworkPartnersByKey(ctx, keys)
		if err != nil || len(ps) != 4 || ps[0] != nil || ps[1].ID != bar.ID || ps[2] != nil || ps[3].ID != spa.ID || *ps[3].SourceID != "101" {
			t.Errorf("%s: by key = %+v, %v", name, ps, err)
		}
	}
	if ps, err := f.svc.NetworkPartnersByKey(f.asRival, keys); err != nil || ps[1] != nil || ps[3] != nil {
		t.Errorf("rival by key = %+v, %v", ps, err)
	}
	_, err = f.svc.NetworkPartner(f.asRival, keys[3])
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if p, err := f.svc.NetworkPartner(asMember(f.market), keys[1]); err != nil || p.Name != "Bar" {
		t.Errorf("one = %+v, %v", p, err)
	}
}

// The offers of many boxes and the usages of many vouchers are read at
// once, each box or voucher its own page, nothing of another
// marketplace's; an offer or a usage read by id keeps the same tenancy.
func TestVoucherBatchesAndLookups(t *testing.T) {
	t.Parallel()
	f := newNVFixture(t, 4)
	rival := f.id(t, `INSERT INTO partners (name, is_marketplace) VALUES ('Rival', true) RETURNING id`)
	rivalBox := f.newBox(t, rival, 0)
	asRival := f.as(t, "rival-user", rival, false, domain.PermUseVoucher)
	f.id(t, "UPDATE box_offers SET ranking = 0 WHERE box_id = ? AND partner_id = ? RETURNING id", f.box, f.outsider)

	page := domain.PageRequest{Number: 1, Size: 2}
	offers, err := f.svc.OffersOfBoxes(f.asReader, []int64{rivalBox, f.box}, page)
	if err != nil || offers[0].Count != 0 || offers[1].Count != 3 || len(offers[1].Items) != 2 ||
		offers[1].Items[0].PartnerID != f.outsider || offers[1].Items[1].PartnerID != f.member || offers[1].Items[1].Status != "VALIDATED" {
		t.Fatalf("offers = %+v, %v", offers, err)
	}
	o, market, err := f.svc.BoxOffer(f.asReader, offers[1].Items[1].ID)
	if err != nil || o.BoxID != f.box || market != f.market || o.PartnerID != f.member {
		t.Errorf("offer = %+v, %d, %v", o, market, err)
	}
	_, _, err = f.svc.BoxOffer(asRival, o.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)

	v := f.voucher(t, "NV-BATCH-0001", f.box, "paid", 3, "")
	w := f.voucher(t, "NV-BATCH-0002", f.box, "paid", 3, "")
	u, err := f.svc.RecordUsage(f.asMarket, bySource(v.Code, 42, "2026-11-24"))
	if err != nil {
		t.Fatal(err)
	}
	usages, err := f.svc.UsagesOfVouchers(f.asReader, []int64{w.ID, v.ID}, page)
	if err != nil || usages[0].Count != 0 || usages[1].Count != 1 || usages[1].Items[0].ID != u.ID ||
		usages[1].Items[0].PartnerAgencyName != "Member Agency" {
		t.Errorf("usages = %+v, %v", usages, err)
	}
	if got, err := f.svc.UsagesOfVouchers(asRival, []int64{v.ID}, page); err != nil || got[0].Count != 0 {
		t.Errorf("rival usages = %+v, %v", got, err)
	}
	if got, err := f.svc.Usage(f.asReader, u.ID); err != nil || got.VoucherID != v.ID || got.MarketplaceID != f.market {
		t.Errorf("usage = %+v, %v", got, err)
	}
	_, err = f.svc.Usage(asRival, u.ID)
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if _, err := f.svc.Usage(dbtest.AsStaff(), u.ID); err != nil {
		t.Errorf("staff usage: %v", err)
	}
	_, err = f.svc.OffersOfBoxes(context.Background(), []int64{f.box}, page)
	dbtest.WantCode(t, err, domain.CodeUnauthenticated)
}
