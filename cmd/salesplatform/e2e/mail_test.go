package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"salesplatform/domain/network"
	"salesplatform/domain/notify"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

// TestServeDeliversMails: serve works the outbox. Without --smtp-url a mail
// committed by a transaction is logged whole, from no-reply@ the public
// host, and counted in /metrics; the drain stops the workers cleanly.
func TestServeDeliversMails(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	s := Serve(t, dsn, "--public-base-url", "https://api.shop.example.com")
	if !strings.Contains(s.Log.String(), `"msg":"no SMTP_URL: mails are logged, not sent","mail_from":"no-reply@api.shop.example.com"`) {
		t.Errorf("the log does not say where mails go:\n%s", s.Log)
	}

	m := notify.Mail{Kind: notify.KindUsageBeneficiary, To: "lucia@example.com", Subject: "Tu tarjeta regalo",
		Text: "Importe: 12,50\u00a0€\n", Language: "es"}
	err := persistence.NewUnitOfWork(OpenDB(t, dsn), persistence.NetworkStores).RunInTx(t.Context(),
		func(ctx context.Context, tx network.Stores) error { return tx.Outbox.Enqueue(ctx, m) })
	if err != nil {
		t.Fatal(err)
	}
	const logged = `"msg":"mail logged, not sent: no SMTP_URL"`
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(s.Log.String(), logged); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the mail was not logged within 20s:\n%s", s.Log)
		}
	}
	for _, want := range []string{`"from":"no-reply@api.shop.example.com","to":"lucia@example.com","subject":"Tu tarjeta regalo"`,
		"\"text\":\"Importe: 12,50\u00a0€\\n\""} {
		if !strings.Contains(s.Log.String(), want) {
			t.Errorf("the logged mail lacks %s:\n%s", want, s.Log)
		}
	}
	metrics := Do(t, "GET", s.URL+"/metrics", "")
	if want := `salesplatform_mail_deliveries_total{kind="network_giftcard_usage_beneficiary",outcome="logged"} 1`; !strings.Contains(metrics.Body, want) {
		t.Errorf("/metrics lacks %s", want)
	}
	if code := s.Stop(); code != 0 || strings.Contains(s.Log.String(), `"level":"ERROR"`) {
		t.Errorf("exit %d:\n%s", code, s.Log)
	}
}
