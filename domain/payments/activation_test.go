package payments_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"salesplatform/domain"
	"salesplatform/domain/idempotency"
	"salesplatform/domain/payments"
	"salesplatform/persistence"
	"salesplatform/persistence/blobstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// answer posts decision to the provider's page at pageURL (the page h
// serves) and returns the status.
func answer(t *testing.T, h http.Handler, pageURL, decision string) int {
	t.Helper()
	u, err := url.Parse(pageURL)
	if err != nil || !strings.HasPrefix(pageURL, simBase+psp.PagePrefix) {
		t.Fatalf("page URL %q", pageURL)
	}
	req := httptest.NewRequest(http.MethodPost, u.Path, strings.NewReader(url.Values{"decision": {decision}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func TestActivatePaymentsThroughTheProvidersPage(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	pages := f.sim.Handler(psp.Callbacks{ActivationChanged: f.svc.SyncActivation})

	a, err := f.svc.ActivatePayments(f.asMarket, p.UUID)
	if err != nil || a.Status != payments.ActivationPendingUserAction || a.PartnerUUID != p.UUID ||
		!strings.HasPrefix(a.UserActionURL, simBase+"/psp/sim/activations/") || a.CompletedOn != nil {
		t.Fatalf("activate: %v %+v", err, a)
	}
	// While pending, a repeat answers the same activation.
	again, err := f.svc.ActivatePayments(asOwn(p), p.UUID)
	if err != nil || again.ID != a.ID || again.UserActionURL != a.UserActionURL {
		t.Errorf("repeat: %v %+v", err, again)
	}
	got, _ := f.svc.GetPartner(f.asMarket, p.UUID)
	if got.Activation == nil || got.Activation.ID != a.ID || got.MayTakePayments() {
		t.Errorf("pending partner: %+v", got)
	}

	// The legal representative verifies their identity on the page: the
	// provider tells the hub, which records it.
	if code := answer(t, pages, a.UserActionURL, "verify"); code != http.StatusSeeOther {
		t.Fatalf("page answered %d", code)
	}
	got, _ = f.svc.GetPartner(f.asMarket, p.UUID)
	if got.Activation == nil || got.Activation.Status != payments.ActivationCompleted || got.Activation.CompletedOn == nil ||
		!got.MayTakePayments() {
		t.Fatalf("verified partner: %+v", got.Activation)
	}
	// Completed: a new request answers it, without a new activation.
	done, err := f.svc.ActivatePayments(f.asMarket, p.UUID)
	if err != nil || done.ID != a.ID || done.Status != payments.ActivationCompleted {
		t.Errorf("after completion: %v %+v", err, done)
	}
	// A second answer on the page changes nothing.
	answer(t, pages, a.UserActionURL, "refuse")

	trail := f.audit(t, p.ID)
	if len(trail) != 3 || trail[1].Action != payments.AuditActivationStart || trail[1].Actor != "user21" ||
		trail[2].Action != payments.AuditActivationComplete || trail[2].Actor != "provider:simulated" || trail[2].ActorUserID != nil ||
		field(t, trail[2].Before, "payments_activation_status") != payments.ActivationPendingUserAction ||
		field(t, trail[2].After, "payments_activation_status") != payments.ActivationCompleted ||
		field(t, trail[2].After, "can_take_payments") != true {
		t.Errorf("audit trail %+v", trail)
	}

	// Only an active partner takes payments.
	for status, may := range map[string]bool{"i": false, "t": false, "a": true} {
		if _, err := f.svc.UpdatePartner(f.asMarket, p.UUID, partnerUpdate(t, `{"status": "`+status+`"}`)); err != nil {
			t.Fatal(err)
		}
		if got, _ := f.svc.GetPartner(f.asMarket, p.UUID); got.MayTakePayments() != may {
			t.Errorf("status %s: may take payments = %v", status, !may)
		}
	}
}

func TestActivationRefusedThenRestarted(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	pages := f.sim.Handler(psp.Callbacks{ActivationChanged: f.svc.SyncActivation})
	a, err := f.svc.ActivatePayments(f.asMarket, p.UUID)
	if err != nil {
		t.Fatal(err)
	}
	answer(t, pages, a.UserActionURL, "refuse")
	got, _ := f.svc.GetPartner(f.asMarket, p.UUID)
	if got.Activation.Status != payments.ActivationRefused || got.MayTakePayments() {
		t.Fatalf("refused: %+v", got.Activation)
	}
	next, err := f.svc.ActivatePayments(f.asMarket, p.UUID)
	if err != nil || next.ID == a.ID || next.Status != payments.ActivationPendingUserAction || next.UserActionURL == a.UserActionURL {
		t.Errorf("restart: %v %+v", err, next)
	}
	if actions := f.audit(t, p.ID); len(actions) != 4 || actions[2].Action != payments.AuditActivationRefuse {
		t.Errorf("audit trail %+v", actions)
	}
}

// A completion the hub was not told of (the notice failed) is found when
// the activation is asked for again.
func TestActivationNoticeLost(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	a, err := f.svc.ActivatePayments(f.asMarket, p.UUID)
	if err != nil {
		t.Fatal(err)
	}
	lost := f.sim.Handler(psp.Callbacks{ActivationChanged: func(context.Context, string) error { return context.DeadlineExceeded }})
	if code := answer(t, lost, a.UserActionURL, "verify"); code != http.StatusBadGateway {
		t.Errorf("page answered %d, want 502 (recorded, not told)", code)
	}
	if got, _ := f.svc.GetPartner(f.asMarket, p.UUID); got.Activation.Status != payments.ActivationPendingUserAction {
		t.Fatalf("told anyway: %+v", got.Activation)
	}
	done, err := f.svc.ActivatePayments(f.asMarket, p.UUID)
	if err != nil || done.ID != a.ID || done.Status != payments.ActivationCompleted {
		t.Errorf("follow-up: %v %+v", err, done)
	}
	trail := f.audit(t, p.ID)
	if last := trail[len(trail)-1]; last.Action != payments.AuditActivationComplete || last.Actor != "user21" {
		t.Errorf("audit trail %+v", trail)
	}
	// The late notice changes nothing more.
	if err := f.svc.SyncActivation(context.Background(), strings.Split(a.UserActionURL, "/")[6]); err != nil ||
		len(f.audit(t, p.ID)) != len(trail) {
		t.Errorf("late notice: %v", err)
	}
	dbtest.WantCode(t, f.svc.SyncActivation(context.Background(), "act_unknown"), domain.CodeNotFound)
}

// Activations of one partner at once: the first reserves the start and
// asks the provider outside any transaction; the others, while it does,
// are refused with a conflict to retry (or, once it settled, answer its
// activation). One activation is started.
func TestActivationsOfOnePartnerAtOnce(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	codes := dbtest.Concurrently(8, func(int) error {
		_, err := f.svc.ActivatePayments(f.asMarket, p.UUID)
		if de := domain.AsError(err); de != nil && de.Code == domain.CodeConflict &&
			(de.Message != payments.MsgActivationStarting || de.RetryAfter <= 0) {
			t.Errorf("conflict %+v", de)
		}
		return err
	})
	if codes[""] == 0 || codes[""]+codes[domain.CodeConflict] != 8 {
		t.Errorf("outcomes %v", codes)
	}
	if n := f.count(t, `SELECT count(*) FROM payment_partner_activations WHERE partner_id = ?`, p.ID); n != 1 {
		t.Errorf("%d activations, want 1", n)
	}
	if n := f.count(t, `SELECT count(*) FROM payment_partner_audit WHERE partner_id = ? AND action = 'activation_start'`, p.ID); n != 1 {
		t.Errorf("%d starts in the audit trail, want 1", n)
	}
}

// lostStart is the simulated provider whose answers to StartActivation
// are lost while lose is set: the provider acts, the hub is not told.
type lostStart struct {
	payments.Provider
	lose atomic.Bool
}

func (l *lostStart) StartActivation(ctx context.Context, in payments.ActivationRequest) (*payments.ProviderActivation, error) {
	a, err := l.Provider.StartActivation(ctx, in)
	if l.lose.Load() {
		return nil, errUnreachable
	}
	return a, err
}

// A start whose answer was lost stays reserved, its lease ended: a repeat
// with the same key, or any next request, asks the provider again for the
// same activation, which is recorded once.
func TestActivationStartAnswerLost(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	net := &lostStart{Provider: f.sim}
	svc := payments.NewHubPartnerService(persistence.NewUnitOfWork(f.db, persistence.PaymentPartnerStores),
		idempotency.NewGuard(persistence.NewIdempotencyStore(f.db)), net, blobstore.NewLocal(f.blobDir))
	withKey := func(key string) context.Context {
		ctx, err := idempotency.WithKey(f.asMarket, key)
		if err != nil {
			t.Fatal(err)
		}
		return ctx
	}
	net.lose.Store(true)
	if _, err := svc.ActivatePayments(withKey("first"), p.UUID); !errors.Is(err, errUnreachable) {
		t.Fatalf("lost answer: %v", err)
	}
	net.lose.Store(false)
	if n := f.count(t, `SELECT count(*) FROM payment_partner_activations`); n != 0 {
		t.Errorf("%d activations recorded without the provider's answer", n)
	}
	a, err := svc.ActivatePayments(withKey("first"), p.UUID)
	if err != nil || a.Status != payments.ActivationPendingUserAction || a.ProviderRef == "" {
		t.Fatalf("repeat: %v %+v", err, a)
	}
	again, err := svc.ActivatePayments(withKey("second"), p.UUID)
	if err != nil || again.ID != a.ID || again.ProviderRef != a.ProviderRef {
		t.Errorf("next request: %v %+v", err, again)
	}
	for table, want := range map[string]int{"psp_sim_activations": 1, "payment_partner_activations": 1,
		"payment_partners WHERE activation_request_id IS NOT NULL": 0} {
		if n := f.count(t, `SELECT count(*) FROM `+table); n != want {
			t.Errorf("%s: %d rows, want %d", table, n, want)
		}
	}
}

// A start reserved by another request is refused while its lease runs,
// and the refusal is not its key's answer: once the lease ran out (the
// other request's process died), a repeat of the key takes the start over.
func TestActivationReservedElsewhere(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	ctx, err := idempotency.WithKey(f.asMarket, "k")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.NewRaw(`UPDATE payment_partners SET activation_request_id = gen_random_uuid(),
		activation_reserved_until = now() + interval '1 minute' WHERE partner_id = ?`, p.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.ActivatePayments(ctx, p.UUID)
	dbtest.WantCode(t, err, domain.CodeConflict)
	if _, err := f.db.NewRaw(`UPDATE payment_partners SET activation_reserved_until = now() WHERE partner_id = ?`, p.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	a, err := f.svc.ActivatePayments(ctx, p.UUID)
	if err != nil || a.Status != payments.ActivationPendingUserAction || idempotency.Replayed(ctx) {
		t.Fatalf("after the lease: %v %+v", err, a)
	}
	var reserved string
	if err := f.db.NewRaw(`SELECT request_id::text FROM psp_sim_activations`).Scan(ctx, &reserved); err != nil || reserved != a.ID.String() {
		t.Errorf("the provider's activation is %q (%v), want the reserved %s", reserved, err, a.ID)
	}
}

func TestActivatePaymentsWho(t *testing.T) {
	t.Parallel()
	f := newPHFixture(t)
	p := f.create(t)
	for name, c := range map[string]struct {
		ctx  context.Context
		want domain.Code
	}{
		"another marketplace":                 {f.asRival, domain.CodeNotFound},
		"the referrer without the permission": {asMember(f.market, 7), domain.CodeForbidden},
		"its own member without the permission": {asMember(&domain.Partner{ID: p.ID}, 8, domain.PermAccessConfigurationMarketplaces),
			domain.CodeForbidden},
		"no caller": {context.Background(), domain.CodeUnauthenticated},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := f.svc.ActivatePayments(c.ctx, p.UUID)
			dbtest.WantCode(t, err, c.want)
		})
	}
	if _, err := f.svc.ActivatePayments(f.asMarket, f.market.UUID); !domain.IsCode(err, domain.CodeNotFound) {
		t.Errorf("a partner outside the hub: %v", err)
	}
	if n := f.count(t, `SELECT count(*) FROM payment_partner_activations`); n != 0 {
		t.Errorf("%d activations written", n)
	}
}
