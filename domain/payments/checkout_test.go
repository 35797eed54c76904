package payments_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/persistence/psp"
)

// A checkout's payment: made without a caller under the order's uuid, paid
// on the provider's card page, which then returns to the ReturnURL; the
// settle hook hears of it once however often the provider tells; the
// platform's refund gives back all that remains, once.
func TestCheckoutPayment(t *testing.T) {
	t.Parallel()
	f := newPayoutFixture(t)
	ctx := context.Background()
	var settled atomic.Int32
	f.pays.WithSettled(func(_ context.Context, p *payments.Payment) {
		if p.Status == payments.StatusPaid {
			settled.Add(1)
		}
	})
	id := uuid.New()
	charge := payments.CheckoutCharge{ID: id, PartnerUUID: f.spa.UUID, Amount: dec("42.00"), Description: "Shop EC-1",
		Customer:  network.Customer{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"},
		ReturnURL: "https://shop.example/back/?order=1"}
	p, err := f.pays.StartCheckoutPayment(ctx, charge)
	if err != nil || p.UUID != id || p.Status != payments.StatusInProgress || !strings.Contains(p.PayinURL, psp.PagePrefix+"card/") {
		t.Fatalf("start: %v %+v", err, p)
	}
	if again, err := f.pays.StartCheckoutPayment(ctx, charge); err != nil || again.ID != p.ID {
		t.Errorf("a repeat made another payment: %v %+v", err, again)
	}
	pages := psp.NewSim(f.db, simBase).Handler(psp.Callbacks{PayinChanged: f.pays.SyncPayin})
	path := mustPath(t, p.PayinURL)
	form := url.Values{"card_number": {psp.CardSuccess}}
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	pages.ServeHTTP(httptest.NewRecorder(), req)
	w := httptest.NewRecorder()
	pages.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != charge.ReturnURL {
		t.Errorf("the paid card page: %d %q", w.Code, w.Header().Get("Location"))
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.pays.SyncPayment(ctx, id); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := settled.Load(); n != 1 {
		t.Errorf("the hook heard of the payment %d times", n)
	}
	r, err := f.pays.RefundCheckoutPayment(ctx, id, "The order could not be completed.")
	if err != nil || r == nil || r.Status != payments.RefundStatusSucceeded || !r.Amount.Equal(dec("42.00")) || r.ActorUserID != nil {
		t.Fatalf("refund: %v %+v", err, r)
	}
	if r, err := f.pays.RefundCheckoutPayment(ctx, id, "again"); err != nil || r != nil {
		t.Errorf("a second refund: %v %+v", err, r)
	}
	// A partner that cannot take payments.
	f.exec(t, `UPDATE payment_partner_activations SET status = 'REFUSED' WHERE partner_id = ?`, f.spa.ID)
	charge.ID = uuid.New()
	if _, err := f.pays.StartCheckoutPayment(ctx, charge); !domain.IsCode(err, domain.CodeConflict) {
		t.Errorf("a partner without payments: %v", err)
	}
}

func mustPath(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}
