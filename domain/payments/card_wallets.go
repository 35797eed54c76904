package payments

import (
	"context"
	"time"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/network"
)

// AccountStore is the wallets' own rows and movements. A network
// giftcard's wallet row holds no balance: the card's remaining value is the
// network area's, read and changed through its port (network.Balances).
type AccountStore interface {
	// Wallet returns the row of the wallet with that uuid (a card's with
	// no balance nor card); domain.ErrNotFound when there is none.
	Wallet(ctx context.Context, id uuid.UUID) (*Wallet, error)
	// OpenWallet is WalletStore's.
	OpenWallet(ctx context.Context, kind string, partnerID int64, currency string) (*Wallet, error)
	// OpenCardWallet writes the row of the wallet of card w.Card, if it
	// has none yet, and sets w.ID and w.CreatedAt.
	OpenCardWallet(ctx context.Context, w *Wallet) error
	// Lock locks the wallets with those uuids by id until the transaction
	// ends.
	Lock(ctx context.Context, ids []uuid.UUID) error
	// Transfer is WalletStore's, between two wallets with balances.
	Transfer(ctx context.Context, m *Movement) (ok bool, err error)
	// Reserve locks w, m's wallet that is not a card's, and numbers m
	// (m.ID) for its card's ledger movement to name. When w is debited
	// (debit), ok is false, and nothing is locked, unless it is not
	// Guarded or holds m.Amount.
	Reserve(ctx context.Context, m *Movement, w uuid.UUID, debit bool) (ok bool, err error)
	// Settle writes m, numbered by Reserve, and debits or credits w by
	// m.Amount; it sets m.UUID, m.CreatedOn and m.Status.
	Settle(ctx context.Context, m *Movement, w uuid.UUID, debit bool) error
	// MovementsOfWallet is WalletStore's.
	MovementsOfWallet(ctx context.Context, id uuid.UUID, page domain.PageRequest) ([]*Movement, int, error)
}

// cardWallets is the WalletStore of accounts and of the cards' port: a
// card's wallet is its row (if opened) with the card's balance view.
type cardWallets struct {
	accounts AccountStore
	cards    network.Balances
}

// NewWalletStore returns the WalletStore of the wallets' rows, accounts,
// and of the network giftcards' balances, cards.
func NewWalletStore(accounts AccountStore, cards network.Balances) WalletStore {
	return &cardWallets{accounts: accounts, cards: cards}
}

func (s *cardWallets) Wallet(ctx context.Context, id uuid.UUID) (*Wallet, error) {
	w, err := s.accounts.Wallet(ctx, id)
	switch {
	case err == nil && w.Kind != WalletNetworkGiftcard:
		return w, nil
	case err != nil && !domain.IsCode(err, domain.CodeNotFound):
		return nil, err
	}
	card, err := s.cards.CardByUUID(ctx, id)
	if err != nil {
		return nil, err
	}
	if w == nil {
		w = &Wallet{UUID: card.UUID, Kind: WalletNetworkGiftcard, Currency: card.Currency}
	}
	w.Balance, w.Card = card.RemainingValue, card
	return w, nil
}

func (s *cardWallets) OpenWallet(ctx context.Context, kind string, partnerID int64, currency string) (*Wallet, error) {
	return s.accounts.OpenWallet(ctx, kind, partnerID, currency)
}

func (s *cardWallets) OpenCardWallet(ctx context.Context, w *Wallet) error {
	return s.accounts.OpenCardWallet(ctx, w)
}

// Lock locks the wallets, then the cards: the order of every movement.
func (s *cardWallets) Lock(ctx context.Context, ids []uuid.UUID) error {
	if err := s.accounts.Lock(ctx, ids); err != nil {
		return err
	}
	return s.cards.LockCards(ctx, ids)
}

func (s *cardWallets) Transfer(ctx context.Context, m *Movement) (bool, error) {
	return s.accounts.Transfer(ctx, m)
}

// DrawFromCard locks the credited wallet, draws from the card (its
// ledger movement names m) as a use does (network.SpendLive: the holds
// past their expiry do not count), then writes m: the locks in the order
// of Lock.
func (s *cardWallets) DrawFromCard(ctx context.Context, m *Movement, at time.Time) (bool, error) {
	return s.withCard(ctx, m, m.Credited, false, func(ledger *network.Movement) (bool, error) {
		ledger.Kind, ledger.Amount = network.MovementPayment, m.Amount.Neg()
		card := func() (int64, error) {
			c, err := s.cards.CardByUUID(ctx, m.Debited)
			if err != nil {
				return 0, err
			}
			return c.ID, nil
		}
		return network.SpendLive(ctx, s.cards, card, time.Now(), func() (bool, error) {
			return s.cards.DrawCard(ctx, m.Debited, m.Currency, ledger, at)
		})
	})
}

// RefundToCard locks the debited wallet and reads its guard, gives the
// card back its amount, then writes m.
func (s *cardWallets) RefundToCard(ctx context.Context, m *Movement) (bool, error) {
	return s.withCard(ctx, m, m.Debited, true, func(ledger *network.Movement) (bool, error) {
		ledger.Kind, ledger.Amount = network.MovementRefund, m.Amount
		return s.cards.RefundCard(ctx, m.Credited, m.Currency, ledger)
	})
}

// withCard writes m between the wallet w and a card: w reserved, the
// card's side by card (its ledger movement), then m and w's balance.
// Nothing is written when either side refuses.
func (s *cardWallets) withCard(ctx context.Context, m *Movement, w uuid.UUID, debit bool, card func(*network.Movement) (bool, error)) (bool, error) {
	ok, err := s.accounts.Reserve(ctx, m, w, debit)
	if err != nil || !ok {
		return false, err
	}
	ledger := &network.Movement{ActorID: m.ActorID, Comment: m.Reason, WalletMovementID: &m.ID}
	if ok, err := card(ledger); err != nil || !ok {
		m.ID = 0
		return false, err
	}
	return true, s.accounts.Settle(ctx, m, w, debit)
}

func (s *cardWallets) MovementsOfWallet(ctx context.Context, id uuid.UUID, page domain.PageRequest) ([]*Movement, int, error) {
	return s.accounts.MovementsOfWallet(ctx, id, page)
}
