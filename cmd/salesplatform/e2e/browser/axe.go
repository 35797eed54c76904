package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// AxeViolation is one rule axe-core found broken on a page, with the
// elements that break it.
type AxeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any  `json:"target"`
		HTML   string `json:"html"`
	} `json:"nodes"`
}

func (v AxeViolation) String() string {
	s := fmt.Sprintf("%s (%s): %s", v.ID, v.Impact, v.Help)
	for _, n := range v.Nodes {
		s += fmt.Sprintf("\n    %v %s", n.Target, n.HTML)
	}
	return s
}

// Axe runs axe-core (the script at scriptPath, axe.min.js) on the tab's
// page and returns the violations of the WCAG 2.x A and AA rules and of
// axe's best practices. The script is evaluated through the DevTools
// protocol, so the page's Content-Security-Policy does not apply to it:
// the page itself stays free of script.
func Axe(ctx context.Context, t testing.TB, scriptPath string) []AxeViolation {
	t.Helper()
	src, err := os.ReadFile(scriptPath)
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	// Loaded and run in one evaluation, so that both see the same document.
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](string(src)+`
		;axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}})
			.then(r => JSON.stringify(r.violations))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe-core run: %v", err)
	}
	var out []AxeViolation
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("axe-core answer: %v", err)
	}
	return out
}
