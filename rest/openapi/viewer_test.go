package openapi_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browser finds Chromium: $CHROMIUM_PATH, /usr/bin/chromium, or chromium,
// chromium-browser or google-chrome in PATH.
func browser(t *testing.T) string {
	if p := os.Getenv("CHROMIUM_PATH"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "no Chromium found for the browser test: set CHROMIUM_PATH, or install one (Debian: apt-get install -y chromium)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

const redocCredit = "https://cdn.redoc.ly/redoc/logo-mini.svg"

// TestViewerInBrowser opens /api/schema/docs/ in headless Chromium and
// checks that Redoc renders every operation of the document, with no
// error, and that the browser asked nothing of any other host.
func TestViewerInBrowser(t *testing.T) {
	chromium := browser(t)
	doc := load(t)
	var operations int
	for _, item := range doc.Paths.Map() {
		operations += len(item.Operations())
	}

	ts := httptest.NewServer(router())
	defer ts.Close()
	local, _ := url.Parse(ts.URL)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 800),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(ctx)
	defer cancelBrowser()

	var mu sync.Mutex
	var requested, problems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requested = append(requested, ev.Request.URL)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				problems = append(problems, string(ev.Entry.Source)+": "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				msg += " " + ex.Description
			}
			problems = append(problems, "exception: "+msg)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, strings.TrimSpace(string(a.Value)+" "+a.Description))
				}
				problems = append(problems, "console.error: "+strings.Join(args, " "))
			}
		}
	})
	if err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}

	// Redoc gives each operation a section whose id ends with
	// operation/<operationId>.
	const count = `document.querySelectorAll('[data-section-id*="operation/"]').length`
	err = chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/api/schema/docs/"),
		chromedp.Poll[chromedp.Void](count+` >= `+strconv.Itoa(operations), chromedp.WithPollingTimeout(60*time.Second)),
	)
	if err != nil {
		n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](count))
		text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		mu.Lock()
		defer mu.Unlock()
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

	mu.Lock()
	defer mu.Unlock()
	// Redoc's sidebar credit shows an image from its CDN; the page's CSP
	// blocks it before it leaves the browser, and Redoc then drops it.
	blocked := func(raw string) bool {
		for i, p := range problems {
			if strings.HasPrefix(p, "security: ") && strings.Contains(p, raw) && strings.Contains(p, "Content Security Policy") {
				problems = append(problems[:i], problems[i+1:]...)
				return true
			}
		}
		return false
	}
	for _, raw := range requested {
		u, err := url.Parse(raw)
		if err != nil {
			t.Errorf("request for %q: %v", raw, err)
			continue
		}
		switch u.Scheme {
		case "data", "blob", "about":
			continue
		}
		if u.Host != local.Host && !(raw == redocCredit && blocked(raw)) {
			t.Errorf("the browser requested %s, not on this server (%s)", raw, local.Host)
		}
	}
	if len(problems) > 0 {
		t.Errorf("the page logged errors: %q", problems)
	}
}
