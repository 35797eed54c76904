package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/cmd/salesplatform/e2e/browser"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/psp"
)

// TestPayPagesInBrowser pays a payment request as a customer does, in
// headless Chromium, under the pages' policies: the pay page and the
// provider's card page keep their own styles (allowed by hash), the pay
// form's redirect to the provider is allowed, and nothing is refused.
func TestPayPagesInBrowser(t *testing.T) {
	t.Parallel()
	chromium := browser.Path(t)
	f := newPayFixture(t)
	f.inHub(t)
	// The server at its public address, so that the browser follows the
	// provider's page there.
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	defer srv.Close()
	carts := cartstore.NewMemory(10)
	defer carts.Close()
	h = app.NewHandler(f.db, carts, &app.Config{PasswordHashing: dbtest.CheapHashing, CartTTL: time.Hour, PublicBaseURL: srv.URL,
		DataDir: t.TempDir()}, app.NewLogger(io.Discard, 0))
	f.h = h
	payURL := f.request(t)["payment_url"].(string)
	if !strings.HasPrefix(payURL, srv.URL+"/pay/") {
		t.Fatalf("payment_url %q", payURL)
	}

	ctx, tab := browser.Start(t, chromium)
	defer tab.Close()
	// 36rem: the width each page's own <style> gives its body.
	const styled = `getComputedStyle(document.body).maxWidth === "576px"`
	err := chromedp.Do(ctx,
		chromedp.Navigate(payURL),
		chromedp.WaitVisible(`button[type="submit"]`),
		chromedp.Poll[chromedp.Void](styled, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.Click(`button[type="submit"]`),
		chromedp.WaitVisible(`#card_number`),
		chromedp.Poll[chromedp.Void](styled, chromedp.WithPollingTimeout(5*time.Second)),
		chromedp.SendKeys(`#card_number`, psp.CardSuccess),
		chromedp.Click(`button[type="submit"]`),
		chromedp.WaitVisible(`#outcome`),
	)
	_, problems := tab.Seen()
	if err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		t.Fatalf("browser: %v\npage: %s\nproblems: %q", err, text, problems)
	}
	outcome, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("outcome").innerText`))
	if err != nil || !strings.Contains(outcome, "Payment accepted") {
		t.Errorf("outcome %q, %v", outcome, err)
	}
	if len(problems) > 0 {
		t.Errorf("the pages logged errors: %q", problems)
	}
}
