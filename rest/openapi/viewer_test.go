package openapi_test

import (
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"salesplatform/cmd/salesplatform/e2e/browser"
)

// TestViewerInBrowser opens /api/schema/docs/ in headless Chromium and
// checks that Redoc renders every operation of the document, with no
// error, and that the browser asked nothing of any other host.
func TestViewerInBrowser(t *testing.T) {
	chromium := browser.Path(t)
	doc := load(t)
	var operations int
	for _, item := range doc.Paths.Map() {
		operations += len(item.Operations())
	}

	ts := httptest.NewServer(router())
	defer ts.Close()
	local, _ := url.Parse(ts.URL)

	ctx, tab := browser.Start(t, chromium)
	defer tab.Close()

	// Redoc gives each operation a section whose id ends with
	// operation/<operationId>.
	const count = `document.querySelectorAll('[data-section-id*="operation/"]').length`
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/api/schema/docs/"),
		chromedp.Poll[chromedp.Void](count+` >= `+strconv.Itoa(operations), chromedp.WithPollingTimeout(60*time.Second)),
	)
	if err != nil {
		n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](count))
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		_, problems := tab.Seen()
		t.Fatalf("browser: %v\n%d of %d operations rendered\npage: %s\nproblems: %q", err, n, operations, text, problems)
	}
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Sales platform REST API", "Fetch an API token", "/api/v2/ecommerce/cart/", "Change a voucher's state"} {
		if !strings.Contains(text, want) {
			t.Errorf("the rendered page lacks %q", want)
		}
	}

	// Redoc's sidebar credit keeps its text, without the image of its CDN
	// (served with an empty src): nothing is asked of another host, and
	// nothing is blocked.
	if !strings.Contains(text, "API docs by Redocly") {
		t.Errorf("the rendered page lacks Redoc's credit")
	}
	requested, problems := tab.Seen()
	browser.WantLocal(t, requested, local.Host, nil)
	if len(problems) > 0 {
		t.Errorf("the page logged errors: %q", problems)
	}
}
