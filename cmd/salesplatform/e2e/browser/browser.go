// Package browser runs headless Chromium for the tests that check a page in
// a real browser (the GraphQL playground, the API reference): it finds
// Chromium, starts one tab, and records what the tab requested and every
// error the page logged. It imports nothing of this module, so any package's
// tests may use it.
package browser

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Path finds Chromium: $CHROMIUM_PATH, /usr/bin/chromium, or chromium,
// chromium-browser or google-chrome in PATH. Without one the test is skipped
// locally but fails under CI=true, where a skip must not pass for a success.
func Path(t testing.TB) string {
	t.Helper()
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

// Tab is one headless Chromium tab and what it has seen so far. The tab's
// events arrive on chromedp's goroutine, hence the lock.
type Tab struct {
	mu                  sync.Mutex
	requested, problems []string
	cancel              []context.CancelFunc
}

// Start launches the Chromium at path (from Path) with a fresh profile and
// opens one tab, which records every request it sends and every error the
// page logs (log entries, exceptions, console.error). The context it returns
// drives the tab and bounds the whole test, browser included, to two
// minutes. Close the tab before the test server it browses, so that the
// server does not wait on the browser's connections: defer tab.Close()
// after starting the server. extra adds flags to Chromium's command line
// (HostResolverRules).
func Start(t testing.TB, path string, extra ...chromedp.ExecAllocatorOption) (context.Context, *Tab) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 800),
	)
	opts = append(opts, extra...)
	tab := &Tab{}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	ctx, cancelBrowser := chromedp.NewContext(ctx)
	tab.cancel = []context.CancelFunc{cancelBrowser, cancelAlloc, cancel}

	// chromedp enables the Network, Log and Runtime domains of the tab.
	err := chromedp.Listen(ctx, func(ev any) {
		tab.mu.Lock()
		defer tab.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			tab.requested = append(tab.requested, ev.Request.URL)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				tab.problems = append(tab.problems, string(ev.Entry.Source)+": "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				msg += " " + ex.Description
			}
			tab.problems = append(tab.problems, "exception: "+msg)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, strings.TrimSpace(string(a.Value)+" "+a.Description))
				}
				tab.problems = append(tab.problems, "console.error: "+strings.Join(args, " "))
			}
		}
	})
	if err != nil {
		tab.Close()
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx, tab
}

// Close closes the tab, then the browser.
func (tab *Tab) Close() {
	for _, cancel := range tab.cancel {
		cancel()
	}
}

// Seen is what the tab has seen so far, taken at one moment: the URLs it
// requested and the errors the page logged, each in order.
func (tab *Tab) Seen() (requested, problems []string) {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	return append([]string(nil), tab.requested...), append([]string(nil), tab.problems...)
}

// WantLocal fails the test for every URL of requested (from Seen) on a host
// other than host (the test server's), unless allowed (which may be nil)
// lets that URL go: a page under test must ask nothing of any other host.
// data:, blob: and about: URLs never leave the browser.
func WantLocal(t testing.TB, requested []string, host string, allowed func(raw string) bool) {
	t.Helper()
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
		if u.Host != host && (allowed == nil || !allowed(raw)) {
			t.Errorf("the browser requested %s, not on this server (%s)", raw, host)
		}
	}
}

// HostResolverRules sends every name of hosts to 127.0.0.1, so that a page
// on a partner's own domain (a funnel_url) reaches the test server; ports
// stay as the URL gives them.
func HostResolverRules(hosts ...string) chromedp.ExecAllocatorOption {
	rules := make([]string, len(hosts))
	for i, h := range hosts {
		rules[i] = "MAP " + h + " 127.0.0.1"
	}
	return chromedp.Flag("host-resolver-rules", strings.Join(rules, ", "))
}
