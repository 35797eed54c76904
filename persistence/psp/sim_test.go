package psp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"salesplatform/domain"
	"salesplatform/domain/payments"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

const base = "https://pay.test"

func newSim(t *testing.T) *psp.Sim {
	t.Helper()
	return psp.NewSim(dbtest.New(t), base)
}

func charge(t *testing.T, sim *psp.Sim, card, amount string) *payments.Payin {
	t.Helper()
	p, err := sim.Charge(context.Background(), payments.ChargeRequest{RequestID: uuid.New(), Amount: decimal.RequireFromString(amount),
		Currency: "EUR", Card: card, Description: "test"})
	if err != nil {
		t.Fatalf("charge %s: %v", card, err)
	}
	return p
}

func refund(t *testing.T, sim *psp.Sim, payin, amount string) *payments.ProviderRefund {
	t.Helper()
	r, err := sim.Refund(context.Background(), payments.RefundRequest{RequestID: uuid.New(), PayinRef: payin,
		Amount: decimal.RequireFromString(amount)})
	if err != nil {
		t.Fatalf("refund: %v", err)
	}
	return r
}

// post answers decision on the page at pageURL and returns the response.
func post(t *testing.T, h http.Handler, pageURL, decision string) *httptest.ResponseRecorder {
	t.Helper()
	u, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, u.Path, strings.NewReader("decision="+decision))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func get(t *testing.T, h http.Handler, pageURL string) *httptest.ResponseRecorder {
	t.Helper()
	u, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, u.Path, nil))
	return rec
}

func TestScriptedCharges(t *testing.T) {
	t.Parallel()
	sim := newSim(t)
	for _, c := range []struct {
		card, status, code string
	}{
		{psp.CardSuccess, payments.PayinSucceeded, psp.CodeSuccess},
		{"5555 5555 5555 4444", payments.PayinSucceeded, psp.CodeSuccess}, // any other valid number
		{psp.CardDecline, payments.PayinFailed, psp.CodeDeclined},
		{psp.CardThreeDSecure, payments.PayinPending3DS, psp.CodeThreeDSRequired},
		{psp.CardRefundFailure, payments.PayinSucceeded, psp.CodeSuccess},
		{"4242424242424241", payments.PayinFailed, psp.CodeInvalidCard}, // Luhn fails
		{"42424242", payments.PayinFailed, psp.CodeInvalidCard},
		{"tok_abc", payments.PayinFailed, psp.CodeInvalidCard},
	} {
		p := charge(t, sim, c.card, "25.50")
		if p.Status != c.status || p.ResultCode != c.code || p.ResultMessage == "" || !p.Amount.Equal(decimal.RequireFromString("25.5")) ||
			p.Currency != "EUR" || !p.RefundedAmount.IsZero() || (p.UserActionURL != "") != (c.status == payments.PayinPending3DS) {
			t.Errorf("card %s: %+v", c.card, p)
		}
		read, err := sim.Payin(context.Background(), p.Ref)
		if err != nil || read.Status != p.Status || read.Ref != p.Ref {
			t.Errorf("read back %s: %v %+v", p.Ref, err, read)
		}
	}
	_, err := sim.Payin(context.Background(), "pay_unknown")
	dbtest.WantCode(t, err, domain.CodeNotFound)
}

func TestChargeRepeatAnswersTheFirst(t *testing.T) {
	t.Parallel()
	sim := newSim(t)
	req := payments.ChargeRequest{RequestID: uuid.New(), Amount: decimal.NewFromInt(10), Currency: "EUR", Card: psp.CardSuccess}
	codes := dbtest.Concurrently(5, func(int) error {
		_, err := sim.Charge(context.Background(), req)
		return err
	})
	first, err := sim.Charge(context.Background(), req)
	if codes[""] != 5 || err != nil {
		t.Fatalf("%v %v", codes, err)
	}
	again, err := sim.Charge(context.Background(), req)
	if err != nil || again.Ref != first.Ref {
		t.Errorf("repeat: %v %+v", err, again)
	}
}

func TestThreeDSecurePage(t *testing.T) {
	t.Parallel()
	sim := newSim(t)
	var told []string
	h := sim.Handler(psp.Callbacks{PayinChanged: func(_ context.Context, ref string) error { told = append(told, ref); return nil }})
	for decision, want := range map[string]string{"authenticate": payments.PayinSucceeded, "fail": payments.PayinFailed} {
		p := charge(t, sim, psp.CardThreeDSecure, "80")
		if !strings.HasPrefix(p.UserActionURL, base+"/psp/sim/3ds/") {
			t.Fatalf("3-D Secure page %q", p.UserActionURL)
		}
		page := get(t, h, p.UserActionURL)
		if page.Code != 200 || !strings.Contains(page.Body.String(), "80.00 EUR") || !strings.Contains(page.Body.String(), "•••• 3220") ||
			page.Header().Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("page %d %s", page.Code, page.Body)
		}
		if res := post(t, h, p.UserActionURL, decision); res.Code != http.StatusSeeOther || res.Header().Get("Location") != "/psp/sim/3ds/"+p.Ref+"/" {
			t.Errorf("%s: %d %v", decision, res.Code, res.Header())
		}
		read, _ := sim.Payin(context.Background(), p.Ref)
		if read.Status != want || read.UserActionURL != "" {
			t.Errorf("%s: %+v", decision, read)
		}
		if told[len(told)-1] != p.Ref {
			t.Errorf("told %v", told)
		}
		// A second answer keeps the first.
		post(t, h, p.UserActionURL, map[string]string{"authenticate": "fail", "fail": "authenticate"}[decision])
		if again, _ := sim.Payin(context.Background(), p.Ref); again.Status != want {
			t.Errorf("answered twice: %+v", again)
		}
	}
}

func TestScriptedRefunds(t *testing.T) {
	t.Parallel()
	sim := newSim(t)
	p := charge(t, sim, psp.CardSuccess, "100")
	for _, c := range []struct{ amount, status, code, refunded string }{
		{"30", payments.RefundSucceeded, psp.CodeSuccess, "30"},
		{"70.01", payments.RefundFailed, psp.CodeRefundExceeds, "30"},
		{"70", payments.RefundSucceeded, psp.CodeSuccess, "100"},
		{"0.01", payments.RefundFailed, psp.CodeRefundExceeds, "100"},
	} {
		r := refund(t, sim, p.Ref, c.amount)
		read, _ := sim.Payin(context.Background(), p.Ref)
		if r.Status != c.status || r.ResultCode != c.code || !read.RefundedAmount.Equal(decimal.RequireFromString(c.refunded)) {
			t.Errorf("refund %s: %+v, refunded %s", c.amount, r, read.RefundedAmount)
		}
	}
	for card, code := range map[string]string{psp.CardRefundFailure: psp.CodeRefundFailed, psp.CardDecline: psp.CodePayinNotRefundable,
		psp.CardThreeDSecure: psp.CodePayinNotRefundable} {
		p := charge(t, sim, card, "50")
		if r := refund(t, sim, p.Ref, "10"); r.Status != payments.RefundFailed || r.ResultCode != code {
			t.Errorf("card %s: %+v", card, r)
		}
	}
	_, err := sim.Refund(context.Background(), payments.RefundRequest{RequestID: uuid.New(), PayinRef: "pay_unknown", Amount: decimal.NewFromInt(1)})
	dbtest.WantCode(t, err, domain.CodeNotFound)
	if _, err := sim.Refund(context.Background(), payments.RefundRequest{RequestID: uuid.New(), PayinRef: p.Ref}); err == nil {
		t.Error("a refund of 0 was made")
	}
}

// Concurrent refunds of one pay-in never give back more than it took, and
// the repeats of one request refund once.
func TestConcurrentRefunds(t *testing.T) {
	t.Parallel()
	sim := newSim(t)
	for _, c := range []struct{ charged, repeats, want string }{
		{"100", "distinct requests", "100"},    // 30 refunds of 10: ten succeed
		{"1000", "five repeats of one", "260"}, // 26 requests of 10
	} {
		p := charge(t, sim, psp.CardSuccess, c.charged)
		repeated := uuid.New()
		codes := dbtest.Concurrently(30, func(i int) error {
			req := payments.RefundRequest{RequestID: uuid.New(), PayinRef: p.Ref, Amount: decimal.NewFromInt(10)}
			if i < 5 && c.repeats != "distinct requests" {
				req.RequestID = repeated
			}
			_, err := sim.Refund(context.Background(), req)
			return err
		})
		read, _ := sim.Payin(context.Background(), p.Ref)
		if codes[""] != 30 || !read.RefundedAmount.Equal(decimal.RequireFromString(c.want)) {
			t.Errorf("%s: outcomes %v, refunded %s, want %s", c.repeats, codes, read.RefundedAmount, c.want)
		}
	}
}

func TestActivationPage(t *testing.T) {
	t.Parallel()
	sim := newSim(t)
	ctx := context.Background()
	var told []string
	h := sim.Handler(psp.Callbacks{ActivationChanged: func(_ context.Context, ref string) error { told = append(told, ref); return nil }})
	req := payments.ActivationRequest{RequestID: uuid.New(), PartnerUUID: uuid.New(), CommercialName: "Spa <des> Alpes",
		LegalRepresentativeFirstName: "Anne", LegalRepresentativeLastName: "Dupont", LegalRepresentativeEmail: "anne@spa.example.com"}
	a, err := sim.StartActivation(ctx, req)
	if err != nil || a.Status != payments.ActivationPendingUserAction || a.UserActionURL != base+"/psp/sim/activations/"+a.Ref+"/" {
		t.Fatalf("start: %v %+v", err, a)
	}
	if again, err := sim.StartActivation(ctx, req); err != nil || again.Ref != a.Ref {
		t.Errorf("repeat: %v %+v", err, again)
	}
	page := get(t, h, a.UserActionURL)
	if body := page.Body.String(); page.Code != 200 || !strings.Contains(body, "Spa &lt;des&gt; Alpes") ||
		!strings.Contains(body, "Anne Dupont") || !strings.Contains(body, `value="verify"`) ||
		!strings.Contains(page.Header().Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("page %d %s", page.Code, body)
	}
	for _, bad := range []string{"", "maybe"} {
		if res := post(t, h, a.UserActionURL, bad); res.Code != http.StatusBadRequest {
			t.Errorf("decision %q: %d", bad, res.Code)
		}
	}
	if res := post(t, h, a.UserActionURL, "verify"); res.Code != http.StatusSeeOther || len(told) != 1 || told[0] != a.Ref {
		t.Errorf("verify: %d, told %v", res.Code, told)
	}
	read, err := sim.Activation(ctx, a.Ref)
	if err != nil || read.Status != payments.ActivationCompleted || read.CompletedOn == nil {
		t.Errorf("read: %v %+v", err, read)
	}
	if body := get(t, h, a.UserActionURL).Body.String(); !strings.Contains(body, "Identity verified") || strings.Contains(body, "<form") {
		t.Errorf("answered page %s", body)
	}
	for _, path := range []string{"/psp/sim/activations/act_unknown/", "/psp/sim/3ds/pay_unknown/", "/psp/sim/other/"} {
		if res := get(t, h, base+path); res.Code != http.StatusNotFound {
			t.Errorf("%s: %d", path, res.Code)
		}
	}
	if res := post(t, h, base+"/psp/sim/activations/act_unknown/", "verify"); res.Code != http.StatusNotFound {
		t.Errorf("answer to an unknown activation: %d", res.Code)
	}
	_, err = sim.Activation(ctx, "act_unknown")
	dbtest.WantCode(t, err, domain.CodeNotFound)
}
