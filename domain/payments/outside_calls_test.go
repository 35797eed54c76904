package payments_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/psp"
)

// watched is the simulated provider and a blob store that note, at each
// call, whether the hub's pool has a connection lent: the hub calls them
// holding no connection, so no transaction and no lock
// (docs/ARCHITECTURE.md, "Locks and outside calls"). Each test has a pool
// of its own, used by nothing else while it calls.
type watched struct {
	payments.Provider
	blobs domain.BlobStore
	hub   *bun.DB
	mu    sync.Mutex
	calls map[string]int
	held  []string
}

func watch(p payments.Provider, blobs domain.BlobStore, hub *bun.DB) *watched {
	return &watched{Provider: p, blobs: blobs, hub: hub, calls: map[string]int{}}
}

func (w *watched) check(call string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls[call]++
	if n := w.hub.DB.Stats().InUse; n != 0 {
		w.held = append(w.held, fmt.Sprintf("%s called with %d connections of the hub's pool in use", call, n))
	}
}

func (w *watched) StartActivation(ctx context.Context, in payments.ActivationRequest) (*payments.ProviderActivation, error) {
	w.check("StartActivation")
	return w.Provider.StartActivation(ctx, in)
}

func (w *watched) Activation(ctx context.Context, ref string) (*payments.ProviderActivation, error) {
	w.check("Activation")
	return w.Provider.Activation(ctx, ref)
}

func (w *watched) Charge(ctx context.Context, in payments.ChargeRequest) (*payments.Payin, error) {
	w.check("Charge")
	return w.Provider.Charge(ctx, in)
}

func (w *watched) Payin(ctx context.Context, ref string) (*payments.Payin, error) {
	w.check("Payin")
	return w.Provider.Payin(ctx, ref)
}

func (w *watched) Refund(ctx context.Context, in payments.RefundRequest) (*payments.ProviderRefund, error) {
	w.check("Refund")
	return w.Provider.Refund(ctx, in)
}

func (w *watched) Put(ctx context.Context, key, contentType string, r io.Reader, size int64) error {
	w.check("BlobStore.Put")
	return w.blobs.Put(ctx, key, contentType, r, size)
}

func (w *watched) Delete(ctx context.Context, key string) error { return w.blobs.Delete(ctx, key) }

func (w *watched) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	w.check("BlobStore.Open")
	return w.blobs.Open(ctx, key)
}

func (w *watched) verify(t *testing.T, want ...string) {
	t.Helper()
	for _, call := range want {
		if w.calls[call] == 0 {
			t.Errorf("%s never called (calls %v)", call, w.calls)
		}
	}
	for _, h := range w.held {
		t.Error(h)
	}
}

// A partner's activation (its start, its follow-up, the provider's page's
// notice) and a KYC upload call out holding no connection.
func TestPartnerOutsideCallsHoldNoConnection(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	w := watch(f.sim, blobstore.NewLocal(f.blobDir), f.db)
	svc := payments.NewHubPartnerService(persistence.NewUnitOfWork(f.db, persistence.PaymentPartnerStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(f.db)), w, w)
	p, err := svc.CreatePartner(f.asMarket, phBody(t))
	if err != nil {
		t.Fatal(err)
	}
	a, err := svc.ActivatePayments(f.asMarket, p.UUID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ActivatePayments(f.asMarket, p.UUID); err != nil {
		t.Fatal(err)
	}
	answer(t, f.sim.Handler(psp.Callbacks{ActivationChanged: svc.SyncActivation}), a.UserActionURL, "verify")
	if got, _ := svc.GetPartner(f.asMarket, p.UUID); !got.MayTakePayments() {
		t.Errorf("not activated: %+v", got.Activation)
	}
	if _, err := svc.UploadKYCDocument(f.asMarket, payments.KYCUpload{PartnerUUID: domain.Some(p.UUID),
		Comment: domain.Some("ID"), DocumentType: domain.Some("IDENTITY_PROOF"),
		File: bytes.NewReader([]byte("%PDF-1.4\n%%EOF\n")), Files: 1}); err != nil {
		t.Fatal(err)
	}
	w.verify(t, "StartActivation", "Activation", "BlobStore.Put")
	if w.calls["Activation"] < 2 {
		t.Errorf("the follow-up and the notice read the activation %d times, want 2", w.calls["Activation"])
	}
}

// Payments (a card charged, a 3-D Secure pay-in's notice) and refunds
// call the provider holding no connection.
func TestPaymentOutsideCallsHoldNoConnection(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	sim := psp.NewSim(f.db, simBase)
	w := watch(sim, nil, f.db)
	pays := payments.NewPaymentService(f.uow, idempotency.NewGuard(persistence.NewIdempotencyStore(f.db)), w)
	paid, err := pays.CreatePayment(f.member(f.spa), payInput(f.spa, dec("50")))
	if err != nil || paid.Status != payments.StatusPaid {
		t.Fatalf("pay: %v %+v", err, paid)
	}
	pending, err := pays.CreatePayment(f.member(f.spa), payInput(f.spa, dec("20"), "card", psp.CardThreeDSecure))
	if err != nil || pending.PayinURL == "" {
		t.Fatalf("3-D Secure: %v %+v", err, pending)
	}
	answer(t, sim.Handler(psp.Callbacks{PayinChanged: pays.SyncPayin}), pending.PayinURL, "authenticate")
	if got, _ := pays.Payment(f.staff, pending.UUID); got.Status != payments.StatusPaid {
		t.Errorf("after the challenge: %+v", got)
	}
	r, err := pays.RefundPayment(f.member(f.spa), paid.UUID, refundOf("10.00"))
	if err != nil || r.Status != payments.RefundStatusSucceeded {
		t.Fatalf("refund: %v %+v", err, r)
	}
	w.verify(t, "Charge", "Payin", "Refund")
}
