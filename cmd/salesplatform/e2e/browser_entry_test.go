package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"salesplatform/persistence/dbtest"
)

// TestGraphBrowserEntry opens the graph's endpoint as a person would: a
// browser's navigation is sent to the playground, GraphQL clients are not;
// a preflight CORS refuses answers as the routes' other refusals do (JSON,
// a detail), and the probes take the trailing slash as every route does.
func TestGraphBrowserEntry(t *testing.T) {
	t.Parallel()
	s := Serve(t, dbtest.NewDSN(t))
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(target string, header ...string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, s.URL+target, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

	t.Run("BrowserGoesToThePlayground", func(t *testing.T) {
		res := get("/graphql", "Accept", browser)
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/playground" {
			t.Fatalf("%d Location %q, want 303 to /playground", res.StatusCode, res.Header.Get("Location"))
		}
		page := Do(t, "GET", s.URL+"/playground", "")
		if page.Status != 200 || !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") {
			t.Errorf("the playground: %d %s", page.Status, page.Header.Get("Content-Type"))
		}
	})
	t.Run("QueriesAreAnswered", func(t *testing.T) {
		for _, accept := range []string{browser, "application/graphql-response+json", "text/html;q=0"} {
			target := "/graphql?query=%7B__typename%7D"
			if accept == "text/html;q=0" {
				target = "/graphql"
			}
			res := get(target, "Accept", accept)
			if res.StatusCode == http.StatusSeeOther {
				t.Errorf("GET %s with Accept %q was redirected", target, accept)
			}
		}
	})
	t.Run("RefusedPreflightIsADRFRefusal", func(t *testing.T) {
		res := Do(t, http.MethodOptions, s.URL+"/graphql", "", "Origin", "https://evil.example.com",
			"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type")
		if res.Status != http.StatusMethodNotAllowed || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("%d %s %s", res.Status, res.Header.Get("Content-Type"), res.Body)
		}
		var body map[string]string
		if err := json.Unmarshal([]byte(res.Body), &body); err != nil || body["detail"] != `Method "OPTIONS" not allowed.` {
			t.Errorf("body %s", res.Body)
		}
		if allow := res.Header.Get("Allow"); allow != "GET, POST" {
			t.Errorf("Allow %q, want GET, POST", allow)
		}
		if res.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("a refused preflight allows %q", res.Header.Get("Access-Control-Allow-Origin"))
		}
	})
	t.Run("ProbesTakeTheSlash", func(t *testing.T) {
		for _, p := range []string{"/healthz", "/healthz/", "/readyz", "/readyz/"} {
			WantResponse(t, Do(t, "GET", s.URL+p, ""), 200, `{"status": "ok"}`)
		}
	})
}
