package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/cart"
	"salesplatform/domain/checkout"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
)

// Orders pending for longer than pendingOrderLapse since their last
// change lapse (checkout.LapsePendingOrders), checked every
// orderLapseInterval, orderLapseBatch at a time: the customer has left
// the provider's page, so their stock, coupon use and giftcard hold go
// back. An hour is well within a cart's life and a hold's.
const (
	pendingOrderLapse  = time.Hour
	orderLapseInterval = time.Minute
	orderLapseBatch    = 100
)

// newCheckout is the checkout on the hub hub and the giftcards' service
// cards; it sets hub's settle hook.
func newCheckout(db *bun.DB, carts *cart.Service, store cart.CartStore, cfg *Config, partners domain.PartnerStore,
	hub *payments.PaymentService, cards *network.GiftcardService) *checkout.Service {
	return checkout.NewService(persistence.NewUnitOfWork(db, persistence.CheckoutStores), carts, store, cfg.CartTTL,
		partners, hub, cards)
}

// lapseOrders lapses the stale pending orders, and asks again for the
// refunds of failed orders that were paid, every interval until ctx ends.
func lapseOrders(ctx context.Context, svc *checkout.Service, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := svc.LapsePendingOrders(ctx, time.Now().Add(-pendingOrderLapse), orderLapseBatch)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("lapsing pending orders", "error", err.Error())
		case n > 0:
			log.Info("pending orders ended", "orders", n)
		}
		n, err = svc.RefundFailedOrders(ctx, orderLapseBatch)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("refunding failed orders", "error", err.Error())
		case n > 0:
			log.Info("failed orders' refunds asked", "orders", n)
		}
	}
}
