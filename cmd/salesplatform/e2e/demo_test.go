package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"salesplatform/cmd/salesplatform/demo"
	"salesplatform/domain"
	"salesplatform/persistence/dbtest"
)

// The demo dataset as `seed demo` loads it, read back over REST and the
// graph. (package demo tests the loader itself: idempotency, failures.)
// Each area keeps its checks in demo_<area>_test.go.
func TestSeedDemo(t *testing.T) {
	t.Parallel()
	data, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	dsn := dbtest.NewDSN(t)
	db := OpenDB(t, dsn)
	dataDir := t.TempDir()

	code, out, errOut := RunCommand(t, "seed", "demo", "--database-url", dsn, "--data-dir", dataDir)
	if code != 0 {
		t.Fatalf("seed demo: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	tokens := map[string]string{}
	for _, line := range lines[len(lines)-len(data.Partners)-1:] {
		m := seedTokenLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q is not \"username token\"; stdout:\n%s", line, out)
		}
		tokens[m[1]] = m[2]
	}
	if len(tokens) != len(data.Partners)+1 || tokens[data.Staff.Username] == "" ||
		!strings.Contains(out, "Loaded the demo catalogue:") || !strings.Contains(out, "Loaded the demo administration data:") {
		t.Fatalf("seed demo's stdout:\n%s", out)
	}

	s := &seededDemo{data: data, db: db, srv: Serve(t, dsn, "--data-dir", dataDir), tokens: tokens,
		today: time.Now().Format(time.DateOnly)}
	for _, checks := range [][]demoCheck{catalogueDemoChecks, adminDemoChecks, networkDemoChecks, paymentsDemoChecks, ecommerceDemoChecks,
		mediaDemoChecks} {
		for _, c := range checks {
			t.Run(c.name, func(t *testing.T) { c.run(t, s) })
		}
	}
}

// demoCheck is one subtest of TestSeedDemo.
type demoCheck struct {
	name string
	run  func(*testing.T, *seededDemo)
}

// seededDemo is the demo dataset, seeded and served.
type seededDemo struct {
	data   *demo.Dataset
	db     *bun.DB
	srv    *Server
	tokens map[string]string // username → token
	today  string
}

// get reads path on partnerDomain's site: 200 or the subtest fails.
func (s *seededDemo) get(t *testing.T, path, partnerDomain string) map[string]any {
	t.Helper()
	res := Do(t, "GET", s.srv.URL+path, "", "X-Partner-Domain", partnerDomain)
	if res.Status != 200 {
		t.Fatalf("GET %s (%s): status %d, body %s", path, partnerDomain, res.Status, res.Body)
	}
	return res.JSON(t)
}

// call sends a request as the marketplace's user: status or the subtest
// fails.
func (s *seededDemo) call(t *testing.T, method, path, body string, status int) Response {
	t.Helper()
	res := Do(t, method, s.srv.URL+path, body, "Authorization", "Token "+s.tokens["demo-market"])
	if res.Status != status {
		t.Fatalf("%s %s: status %d, body %s; want %d", method, path, res.Status, res.Body, status)
	}
	return res
}

// decodeJSON decodes body into v (a decimal.Decimal field keeps its
// number exact).
func decodeJSON(t *testing.T, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("body %s: %v", body, err)
	}
}

// wantEightLanguages fails unless v is a Localized as the API shows it with
// a text in every language.
func wantEightLanguages(t *testing.T, what string, v any) {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s = %v, want an object of the eight languages", what, v)
		return
	}
	for _, lang := range domain.Languages {
		if s, _ := m[lang].(string); s == "" {
			t.Errorf("%s has no %s text: %v", what, lang, m)
		}
	}
}
