package payments

import (
	"context"

	"github.com/google/uuid"

	"salesplatform/domain"
)

// The reads of wallets and their movements, for both surfaces. The
// functions of wallets.go move value in their caller's transaction and
// check no caller; these check who may see a wallet
// (docs/DECISIONS.md, "Wallets": who reads them).

// WalletReadStores are the stores the wallet reads use.
type WalletReadStores struct {
	Wallets WalletStore
	// Partners finds a partner wallet's partner and its referrer.
	Partners PartnerStore
}

// WalletService reads wallets and their movements for the callers who may
// see them.
type WalletService struct {
	uow domain.UnitOfWork[WalletReadStores]
}

// NewWalletService returns the service.
func NewWalletService(uow domain.UnitOfWork[WalletReadStores]) *WalletService {
	return &WalletService{uow: uow}
}

// WalletRecord is a wallet as it is read: with its partner's uuid.
type WalletRecord struct {
	*Wallet
	PartnerUUID *uuid.UUID // a partner's wallet's
}

// Wallet returns the wallet with that uuid (a network giftcard's uuid
// names its wallet) if the caller may see it: staff any; a partner's
// wallet its members and its referring marketplace's; a network
// giftcard's wallet the members of its marketplace, who read the card;
// the platform's own accounts staff only.
// Errors: those of Authorize(OpWalletRead); CodeNotFound for an unknown
// wallet or one the caller may not see.
func (s *WalletService) Wallet(ctx context.Context, id uuid.UUID) (*WalletRecord, error) {
	c, err := domain.Authorize(ctx, domain.OpWalletRead)
	if err != nil {
		return nil, err
	}
	return s.visible(ctx, c, id)
}

// Movements returns a numbered page of the movements of the wallet with
// that uuid, oldest first, if the caller may see the wallet (Wallet).
// Errors: those of Wallet; CodeNotFound past the last page.
func (s *WalletService) Movements(ctx context.Context, id uuid.UUID, page domain.PageRequest) (*domain.Page[*Movement], error) {
	c, err := domain.Authorize(ctx, domain.OpWalletRead)
	if err != nil {
		return nil, err
	}
	if _, err := s.visible(ctx, c, id); err != nil {
		return nil, err
	}
	ms, count, err := s.uow.Stores().Wallets.MovementsOfWallet(ctx, id, page)
	if err != nil {
		return nil, err
	}
	return domain.NewPage(ms, count, page)
}

// visible reads the wallet and decides whether c sees it. A wallet c may
// not see is not found, whatever its kind: the answer tells nothing of it.
func (s *WalletService) visible(ctx context.Context, c *domain.Caller, id uuid.UUID) (*WalletRecord, error) {
	st := s.uow.Stores()
	w, err := st.Wallets.Wallet(ctx, id)
	if err != nil {
		return nil, err
	}
	out := &WalletRecord{Wallet: w}
	seen := c.User.IsStaff
	switch w.Kind {
	case WalletPartner:
		p, err := st.Partners.FindPartnerByID(ctx, *w.PartnerID)
		if err != nil {
			return nil, err
		}
		out.PartnerUUID = &p.UUID
		if !seen {
			if seen, err = partnerWalletSeen(ctx, st, c, p); err != nil {
				return nil, err
			}
		}
	case WalletNetworkGiftcard:
		// The card's own read rule (network.GiftcardService): its
		// marketplace's members with the right to read cards.
		_, denied := domain.Authorize(ctx, domain.OpNetworkGiftcardRead)
		seen = seen || (denied == nil && c.Sees(w.Card.MarketplaceID))
	}
	if !seen {
		return nil, domain.ErrNotFound
	}
	return out, nil
}

// partnerWalletSeen reports whether c relates to the payment-hub partner
// p as GetPartner's readers do: its members, its referrer's. A partner
// the hub has no record of is seen by its own members only.
func partnerWalletSeen(ctx context.Context, st WalletReadStores, c *domain.Caller, p *domain.Partner) (bool, error) {
	hub, err := st.Partners.FindHubPartner(ctx, p.UUID, false)
	switch {
	case domain.IsCode(err, domain.CodeNotFound):
		hub = &Partner{ID: p.ID}
	case err != nil:
		return false, err
	}
	return relationOf(c, hub) != unrelated, nil
}
