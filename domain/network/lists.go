package network

import (
	"context"

	"github.com/google/uuid"

	"salesplatform/domain"
)

// The graph's reads of the network area beyond its REST twins': the list
// of a marketplace's cards and of its network partners, the lookups by id
// its Node types need, and the batches its loaders read (the usages,
// ledgers and holds of many cards, the offers of many boxes, the usages of
// many vouchers, and network partners by marketplace). Tenancy is the
// REST twins': a marketplace's member reads its marketplace's records,
// staff every marketplace's; another marketplace's record reads as absent.

// PartnerKey names a partner as a marketplace's network shows it.
type PartnerKey struct{ MarketplaceID, PartnerID int64 }

// ListStore reads the records of the network area the graph lists, looks
// up and batches. A tenant (nil: every marketplace) limits each read to
// the records of that marketplace's cards, boxes and vouchers.
type ListStore interface {
	// Giftcards returns a page of tenant's cards, newest first (creation
	// date, then id, descending), numbered or a keyset page (Size+1 rows
	// in its reading direction), and how many there are.
	// Errors: domain.ErrCursorGone.
	Giftcards(ctx context.Context, tenant *int64, page domain.PageRequest) ([]*Giftcard, int, error)
	// GiftcardsByID returns tenant's cards with ids in ids order, nil for
	// the others.
	GiftcardsByID(ctx context.Context, ids []int64, tenant *int64) ([]*Giftcard, error)
	// UsagesOfCards, MovementsOfCards and HoldsOfCards return, for each
	// card of cardIDs, the page of its usages (oldest first), of its ledger
	// (oldest first) or of its holds (newest first), and their number:
	// none for a card that is not tenant's.
	UsagesOfCards(ctx context.Context, cardIDs []int64, tenant *int64, page domain.PageRequest) ([][]*Usage, []int, error)
	MovementsOfCards(ctx context.Context, cardIDs []int64, tenant *int64, page domain.PageRequest) ([][]*Movement, []int, error)
	HoldsOfCards(ctx context.Context, cardIDs []int64, tenant *int64, page domain.PageRequest) ([][]*Hold, []int, error)
	// UsageByID, HoldByID and MovementByID return the record of a card of
	// tenant's with that id; domain.ErrNotFound when there is none.
	UsageByID(ctx context.Context, id int64, tenant *int64) (*Usage, error)
	HoldByID(ctx context.Context, id int64, tenant *int64) (*Hold, error)
	MovementByID(ctx context.Context, id int64, tenant *int64) (*Movement, error)
	// NetworkPartners returns a page of the partners of marketplace's
	// network, by partner id, and how many there are.
	NetworkPartners(ctx context.Context, marketplaceID int64, page domain.PageRequest) ([]*Partner, int, error)
	// NetworkPartnersByKey returns the partners keys name as their
	// marketplace's network shows them, in keys order, nil for a partner
	// that is not in that network.
	NetworkPartnersByKey(ctx context.Context, keys []PartnerKey) ([]*Partner, error)
	// OffersOfBoxes returns, for each box of boxIDs, the page of its
	// offers (by ranking, then id) and their number: none for a box that
	// is not tenant's.
	OffersOfBoxes(ctx context.Context, boxIDs []int64, tenant *int64, page domain.PageRequest) ([][]*Offer, []int, error)
	// OfferByID returns the offer of a box of tenant's with that id and
	// the box's marketplace; domain.ErrNotFound when there is none.
	OfferByID(ctx context.Context, id int64, tenant *int64) (*Offer, int64, error)
	// UsagesOfVouchers returns, for each voucher of voucherIDs, the page of
	// its usages (by id) and their number: none for a voucher that is not
	// tenant's.
	UsagesOfVouchers(ctx context.Context, voucherIDs []int64, tenant *int64, page domain.PageRequest) ([][]*VoucherUsage, []int, error)
	// VoucherUsageByID returns the usage of a voucher of tenant's with that
	// id; domain.ErrNotFound when there is none.
	VoucherUsageByID(ctx context.Context, id int64, tenant *int64) (*VoucherUsage, error)
}

// Giftcards returns a page of the caller's marketplace's cards (every
// marketplace's for staff), newest first. Their codes are masked unless
// the caller may use or create cards, as GiftcardsByEmail's.
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound past
// the last numbered page; domain.ErrCursorGone for a keyset page from an
// item that is not in the list.
func (s *GiftcardService) Giftcards(ctx context.Context, page domain.PageRequest) (*domain.Page[*Giftcard], error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardRead)
	if err != nil {
		return nil, err
	}
	cards, count, err := s.uow.Stores().Lists.Giftcards(ctx, c.Tenant(), page)
	if err != nil {
		return nil, err
	}
	maskCodes(c, cards)
	return domain.NewPage(cards, count, page)
}

// maskCodes masks the codes of cards unless the caller may see them.
func maskCodes(c *domain.Caller, cards []*Giftcard) {
	if MaySeeCodes(c) {
		return
	}
	for _, g := range cards {
		if g != nil {
			g.Code = MaskCode(g.Code)
		}
	}
}

// GiftcardsByID returns the cards the caller sees in ids order, nil for
// the others (a graph batch: the card of a usage), with their codes
// masked as Giftcards masks them: a card's id tells nothing of its code.
// Errors: those of Authorize(OpNetworkGiftcardRead).
func (s *GiftcardService) GiftcardsByID(ctx context.Context, ids []int64) ([]*Giftcard, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkGiftcardRead)
	if err != nil {
		return nil, err
	}
	cards, err := s.uow.Stores().Lists.GiftcardsByID(ctx, ids, c.Tenant())
	if err != nil {
		return nil, err
	}
	maskCodes(c, cards)
	return cards, nil
}

// Giftcard returns the card with that id as GiftcardsByID does.
// Errors: those of GiftcardsByID; CodeNotFound for an unknown id or
// another marketplace's card.
func (s *GiftcardService) Giftcard(ctx context.Context, id int64) (*Giftcard, error) {
	cards, err := s.GiftcardsByID(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if cards[0] == nil {
		return nil, domain.ErrNotFound
	}
	return cards[0], nil
}

// pagesOf makes one page of req per parent of a batch read.
func pagesOf[T any](items [][]T, counts []int, req domain.PageRequest) []*domain.Page[T] {
	out := make([]*domain.Page[T], len(items))
	for i, it := range items {
		if it == nil {
			it = []T{}
		}
		out[i] = &domain.Page[T]{Items: it, Count: counts[i], Request: req}
	}
	return out
}

// batch authorizes op and reads a batch of pages of tenant's parents.
func batch[T any](ctx context.Context, op domain.AdminOp, page domain.PageRequest,
	read func(tenant *int64) ([][]T, []int, error)) ([]*domain.Page[T], error) {
	c, err := domain.Authorize(ctx, op)
	if err != nil {
		return nil, err
	}
	items, counts, err := read(c.Tenant())
	if err != nil {
		return nil, err
	}
	return pagesOf(items, counts, page), nil
}

// UsagesOfCards returns the page of usages of each card of ids, oldest
// first, cancelled ones included; an empty page for a card the caller
// does not see (a graph batch: the cards' usages).
// Errors: those of Authorize(OpNetworkGiftcardRead).
func (s *GiftcardService) UsagesOfCards(ctx context.Context, ids []int64, page domain.PageRequest) ([]*domain.Page[*Usage], error) {
	return batch(ctx, domain.OpNetworkGiftcardRead, page, func(tenant *int64) ([][]*Usage, []int, error) {
		return s.uow.Stores().Lists.UsagesOfCards(ctx, ids, tenant, page)
	})
}

// MovementsOfCards returns the page of the ledger of each card of ids,
// oldest first, as UsagesOfCards.
func (s *GiftcardService) MovementsOfCards(ctx context.Context, ids []int64, page domain.PageRequest) ([]*domain.Page[*Movement], error) {
	return batch(ctx, domain.OpNetworkGiftcardRead, page, func(tenant *int64) ([][]*Movement, []int, error) {
		return s.uow.Stores().Lists.MovementsOfCards(ctx, ids, tenant, page)
	})
}

// HoldsOfCards returns the page of holds of each card of ids, newest
// first, as UsagesOfCards.
func (s *GiftcardService) HoldsOfCards(ctx context.Context, ids []int64, page domain.PageRequest) ([]*domain.Page[*Hold], error) {
	return batch(ctx, domain.OpNetworkGiftcardRead, page, func(tenant *int64) ([][]*Hold, []int, error) {
		return s.uow.Stores().Lists.HoldsOfCards(ctx, ids, tenant, page)
	})
}

// lookup authorizes op and reads one record of the caller's tenant.
func lookup[T any](ctx context.Context, op domain.AdminOp, read func(tenant *int64) (T, error)) (T, error) {
	c, err := domain.Authorize(ctx, op)
	if err != nil {
		var zero T
		return zero, err
	}
	return read(c.Tenant())
}

// Usage returns the usage with that id of a card of the caller's
// marketplace (any for staff).
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound.
func (s *GiftcardService) Usage(ctx context.Context, id int64) (*Usage, error) {
	return lookup(ctx, domain.OpNetworkGiftcardRead, func(tenant *int64) (*Usage, error) {
		return s.uow.Stores().Lists.UsageByID(ctx, id, tenant)
	})
}

// HoldByID returns the hold with that id of a card of the caller's
// marketplace (any for staff).
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound.
func (s *GiftcardService) HoldByID(ctx context.Context, id int64) (*Hold, error) {
	return lookup(ctx, domain.OpNetworkGiftcardRead, func(tenant *int64) (*Hold, error) {
		return s.uow.Stores().Lists.HoldByID(ctx, id, tenant)
	})
}

// Movement returns the ledger movement with that id of a card of the
// caller's marketplace (any for staff).
// Errors: those of Authorize(OpNetworkGiftcardRead); CodeNotFound.
func (s *GiftcardService) Movement(ctx context.Context, id int64) (*Movement, error) {
	return lookup(ctx, domain.OpNetworkGiftcardRead, func(tenant *int64) (*Movement, error) {
		return s.uow.Stores().Lists.MovementByID(ctx, id, tenant)
	})
}

// NetworkPartners returns a page of the partners of the caller's
// marketplace's network, by partner id; staff name the marketplace with
// marketplace (a member may name its own).
// Errors: those of Authorize(OpNetworkPartnerRead); CodeForbidden for a
// partner that is not a marketplace; CodeInvalid on "marketplace_uuid"
// (required of staff, unknown, another partner's for a member, or not a
// marketplace); CodeNotFound past the last page.
func (s *PartnerService) NetworkPartners(ctx context.Context, marketplace *uuid.UUID, page domain.PageRequest) (*domain.Page[*Partner], error) {
	c, err := authorizeMarketplace(ctx, domain.OpNetworkPartnerRead)
	if err != nil {
		return nil, err
	}
	st := s.uow.Stores()
	m, err := domain.WritePartner(ctx, st.Partners, c, marketplace, "marketplace_uuid")
	if err != nil {
		return nil, err
	}
	if !m.IsMarketplace {
		return nil, fieldError("marketplace_uuid", domain.VInvalid, MsgNotMarketplace)
	}
	ps, count, err := st.Lists.NetworkPartners(ctx, m.ID, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(ps, count, page)
}

// NetworkPartnersByKey returns the network partners keys name that the
// caller sees (those of its marketplace's network; every network's for
// staff), in keys order, nil for the others (a graph batch: the partner of
// a usage, a hold or an offer).
// Errors: those of Authorize(OpNetworkPartnerRead).
func (s *PartnerService) NetworkPartnersByKey(ctx context.Context, keys []PartnerKey) ([]*Partner, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkPartnerRead)
	if err != nil {
		return nil, err
	}
	seen := make([]PartnerKey, 0, len(keys))
	for _, k := range keys {
		if c.Sees(k.MarketplaceID) {
			seen = append(seen, k)
		}
	}
	found, err := s.uow.Stores().Lists.NetworkPartnersByKey(ctx, seen)
	if err != nil {
		return nil, err
	}
	byKey := make(map[PartnerKey]*Partner, len(found))
	for i, p := range found {
		byKey[seen[i]] = p
	}
	out := make([]*Partner, len(keys))
	for i, k := range keys {
		out[i] = byKey[k]
	}
	return out, nil
}

// NetworkPartner returns the partner key names as NetworkPartnersByKey
// does.
// Errors: those of NetworkPartnersByKey; CodeNotFound for a partner that
// is not in that network, or a network the caller does not see.
func (s *PartnerService) NetworkPartner(ctx context.Context, key PartnerKey) (*Partner, error) {
	ps, err := s.NetworkPartnersByKey(ctx, []PartnerKey{key})
	if err != nil {
		return nil, err
	}
	if ps[0] == nil {
		return nil, domain.ErrNotFound
	}
	return ps[0], nil
}

// OffersOfBoxes returns the page of offers of each box of ids, whatever
// their status, by ranking then id; an empty page for a box the caller
// does not see (a graph batch: the boxes' offers).
// Errors: those of Authorize(OpNetworkVoucherRead).
func (s *VoucherService) OffersOfBoxes(ctx context.Context, ids []int64, page domain.PageRequest) ([]*domain.Page[*Offer], error) {
	return batch(ctx, domain.OpNetworkVoucherRead, page, func(tenant *int64) ([][]*Offer, []int, error) {
		return s.uow.Stores().Lists.OffersOfBoxes(ctx, ids, tenant, page)
	})
}

// BoxOffer returns the offer with that id of a box of the caller's
// marketplace (any for staff), and that marketplace's id.
// Errors: those of Authorize(OpNetworkVoucherRead); CodeNotFound.
func (s *VoucherService) BoxOffer(ctx context.Context, id int64) (*Offer, int64, error) {
	c, err := domain.Authorize(ctx, domain.OpNetworkVoucherRead)
	if err != nil {
		return nil, 0, err
	}
	return s.uow.Stores().Lists.OfferByID(ctx, id, c.Tenant())
}

// UsagesOfVouchers returns the page of usages of each voucher of ids, by
// id, cancelled ones included; an empty page for a voucher the caller
// does not see (a graph batch: the vouchers' usages).
// Errors: those of Authorize(OpNetworkVoucherRead).
func (s *VoucherService) UsagesOfVouchers(ctx context.Context, ids []int64, page domain.PageRequest) ([]*domain.Page[*VoucherUsage], error) {
	return batch(ctx, domain.OpNetworkVoucherRead, page, func(tenant *int64) ([][]*VoucherUsage, []int, error) {
		return s.uow.Stores().Lists.UsagesOfVouchers(ctx, ids, tenant, page)
	})
}

// Usage returns the usage with that id of a voucher of the caller's
// marketplace (any for staff).
// Errors: those of Authorize(OpNetworkVoucherRead); CodeNotFound.
func (s *VoucherService) Usage(ctx context.Context, id int64) (*VoucherUsage, error) {
	return lookup(ctx, domain.OpNetworkVoucherRead, func(tenant *int64) (*VoucherUsage, error) {
		return s.uow.Stores().Lists.VoucherUsageByID(ctx, id, tenant)
	})
}
