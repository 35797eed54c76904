package payments_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"salesplatform/domain"
	"salesplatform/domain/network"
	"salesplatform/domain/payments"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// The hub's changes keep their webhook events for the partner concerned:
// each payment's outcome, each refund's, and each payout request's
// creation (and its validation when automatic), validation and payment.
func TestPaymentWebhookEvents(t *testing.T) {
	t.Parallel()
	dbtest.UseJSONWebhooks()
	f := newPayoutFixture(t)
	spa := dbtest.WebhookEndpoint(t, f.db, f.spa.ID)
	market := dbtest.WebhookEndpoint(t, f.db, f.market.ID, "payout_request.created", "payout_request.validated", "payout_request.paid")
	platform := dbtest.WebhookEndpoint(t, f.db, 0, "payment.failed")
	now := time.Date(2026, 11, 25, 9, 0, 0, 0, paris(t))
	f.exec(t, `UPDATE payment_partners SET auto_validate_payout = true WHERE partner_id = ?`, f.market.ID)

	first := f.pay(t, f.spa, "100.00", now.AddDate(0, 0, -7))
	f.pay(t, f.market, "100.00", now.AddDate(0, 0, -7))
	declined, err := f.pays.CreatePayment(f.member(f.spa), payInput(f.spa, dec("10"), "card", psp.CardDecline))
	if err != nil || declined.Status != payments.StatusFailed {
		t.Fatalf("declined payment: %v %+v", err, declined)
	}
	refusing := f.pay(t, f.spa, "30.00", now.AddDate(0, 0, -7), "card", psp.CardRefundFailure)
	ok, err := f.pays.RefundPayment(f.member(f.spa), first.UUID, payments.RefundInput{Amount: domain.Some(dec("10"))})
	if err != nil || ok.Status != payments.RefundStatusSucceeded {
		t.Fatalf("refund: %v %+v", err, ok)
	}
	refused, err := f.pays.RefundPayment(f.member(f.spa), refusing.UUID, payments.RefundInput{Amount: domain.Some(dec("5"))})
	if err != nil || refused.Status != payments.RefundStatusFailed {
		t.Fatalf("refused refund: %v %+v", err, refused)
	}
	var spaPayout *payments.Payout
	for _, p := range f.build(t, now) {
		if p.PartnerID == f.spa.ID {
			spaPayout = p
		}
	}
	if _, err := f.payouts.ValidatePayout(f.staff, spaPayout.ID, payments.PayoutChangeInput{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.payouts.MarkPayoutPaid(f.staff, spaPayout.ID, payments.PayoutChangeInput{}); err != nil {
		t.Fatal(err)
	}

	want := []string{"payment.succeeded", "payment.failed", "payment.succeeded", "refund.succeeded", "refund.failed",
		"payout_request.created", "payout_request.validated", "payout_request.paid"}
	if got := dbtest.WebhookTypes(t, f.db, spa); !slices.Equal(got, want) {
		t.Errorf("the partner's endpoint got\n%v, want\n%v", got, want)
	}
	if got := dbtest.WebhookTypes(t, f.db, market); !slices.Equal(got, []string{"payout_request.created", "payout_request.validated"}) {
		t.Errorf("the auto-validating partner's endpoint got %v", got)
	}
	if got := dbtest.WebhookTypes(t, f.db, platform); !slices.Equal(got, []string{"payment.failed"}) {
		t.Errorf("the platform's endpoint got %v", got)
	}
	events := dbtest.WebhookEvents(t, f.db, spa)
	var pm struct{ UUID, Status string }
	if err := json.Unmarshal(events[1].Data, &pm); err != nil || pm.UUID != declined.UUID.String() || pm.Status != payments.StatusFailed {
		t.Errorf("payment.failed data %s", events[1].Data)
	}
	var rf struct{ UUID, Status string }
	if err := json.Unmarshal(events[4].Data, &rf); err != nil || rf.UUID != refused.UUID.String() || rf.Status != payments.RefundStatusFailed {
		t.Errorf("refund.failed data %s", events[4].Data)
	}
	var po struct {
		ID     int64
		Status string
	}
	if err := json.Unmarshal(events[7].Data, &po); err != nil || po.ID != spaPayout.ID || po.Status != payments.PayoutPaid {
		t.Errorf("payout_request.paid data %s", events[7].Data)
	}
}

// A partner's payments activated at the provider keep
// partner.payments_activated for it, once; the pending start keeps none.
func TestActivationWebhookEvent(t *testing.T) {
	t.Parallel()
	dbtest.UseJSONWebhooks()
	f := newPHFixture(t)
	p := f.create(t)
	ep := dbtest.WebhookEndpoint(t, f.db, p.ID)
	pages := f.sim.Handler(psp.Callbacks{ActivationChanged: f.svc.SyncActivation})
	a, err := f.svc.ActivatePayments(f.asMarket, p.UUID)
	if err != nil {
		t.Fatal(err)
	}
	if got := dbtest.WebhookTypes(t, f.db, ep); len(got) != 0 {
		t.Errorf("pending: %v", got)
	}
	if code := answer(t, pages, a.UserActionURL, "verify"); code != http.StatusSeeOther {
		t.Fatalf("page answered %d", code)
	}
	if _, err := f.svc.ActivatePayments(f.asMarket, p.UUID); err != nil {
		t.Fatal(err)
	}
	events := dbtest.WebhookEvents(t, f.db, ep)
	var data struct {
		ID         int64
		Activation struct{ Status string }
	}
	if len(events) != 1 || events[0].Type != "partner.payments_activated" || json.Unmarshal(events[0].Data, &data) != nil ||
		data.ID != p.ID || data.Activation.Status != payments.ActivationCompleted {
		t.Errorf("events %+v", events)
	}
}

// A payment request paid by card keeps payment_request.paid for its
// partner, its data with the public page's address; starting its
// payment keeps none.
func TestPaymentRequestWebhookEvent(t *testing.T) {
	t.Parallel()
	dbtest.UseJSONWebhooks()
	f := newPayoutFixture(t)
	f.pays.WithRequestPages("https://sales.example.com", nil)
	ep := dbtest.WebhookEndpoint(t, f.db, f.spa.ID, "payment_request.paid")
	r, err := f.pays.CreatePaymentRequest(f.member(f.spa), payments.PaymentRequestInput{PartnerUUID: domain.Some(f.spa.UUID),
		Amount: domain.Some(dec("40")), Language: domain.Some("en"),
		Customer: domain.Some(network.CustomerInput{FirstName: domain.Some("Ada"), LastName: domain.Some("Lovelace"),
			Email: domain.Some("ada@example.com")})})
	if err != nil {
		t.Fatal(err)
	}
	card, err := f.pays.PayPaymentRequest(context.Background(), r.Code)
	if err != nil {
		t.Fatal(err)
	}
	if got := dbtest.WebhookTypes(t, f.db, ep); len(got) != 0 {
		t.Errorf("before the card: %v", got)
	}
	u, err := url.Parse(card)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, u.Path, strings.NewReader("card_number="+psp.CardSuccess))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	psp.NewSim(f.db, simBase).Handler(psp.Callbacks{PayinChanged: f.pays.SyncPayin}).ServeHTTP(rec, req)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("card page answered %d %s", rec.Code, rec.Body)
	}
	events := dbtest.WebhookEvents(t, f.db, ep)
	var data struct {
		ID     int64
		Status string
		URL    string
	}
	if len(events) != 1 || events[0].Type != "payment_request.paid" || json.Unmarshal(events[0].Data, &data) != nil ||
		data.ID != r.ID || data.Status != payments.RequestPaid || data.URL != "https://sales.example.com/pay/"+r.Code+"/" {
		t.Errorf("events %+v", events)
	}
}
