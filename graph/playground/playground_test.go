package playground_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/chromedp/chromedp"
	"github.com/vektah/gqlparser/v2"

	"salesplatform/cmd/salesplatform/e2e/browser"
	"salesplatform/graph"
	"salesplatform/graph/httptransport"
	"salesplatform/graph/playground"
)

func serve(t *testing.T, h http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

var assetURL = regexp.MustCompile(`(?:src|href)="([^"]+)"`)

func TestPage(t *testing.T) {
	h := playground.Handler("/graphql")
	for target, prefix := range map[string]string{"/playground": "playground/", "/playground/": ""} {
		w := serve(t, h, http.MethodGet, target, nil)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: status %d", target, w.Code)
		}
		for k, want := range map[string]string{
			"Content-Type":           "text/html; charset=utf-8",
			"Cache-Control":          "no-cache",
			"X-Content-Type-Options": "nosniff",
		} {
			if got := w.Header().Get(k); got != want {
				t.Errorf("GET %s: %s = %q, want %q", target, k, got, want)
			}
		}
		csp := w.Header().Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self';"} {
			if !strings.Contains(csp, want) {
				t.Errorf("CSP %q lacks %q", csp, want)
			}
		}
		body := w.Body.String()
		if strings.Contains(body, "http://") || strings.Contains(body, "https://") || strings.Contains(body, "//unpkg") {
			t.Errorf("the page names an absolute URL:\n%s", body)
		}
		if !strings.Contains(body, `data-endpoint="/graphql"`) {
			t.Errorf("the page does not point at /graphql:\n%s", body)
		}
		// Every asset the page names is relative, under /playground/, and served.
		urls := assetURL.FindAllStringSubmatch(body, -1)
		if len(urls) != 7 { // icon, 2 style sheets, 4 scripts
			t.Errorf("found %d asset URLs, want 7: %q", len(urls), urls)
		}
		base, _ := url.Parse("http://example.test" + target)
		for _, m := range urls {
			if strings.HasPrefix(m[1], "data:") {
				continue
			}
			if !strings.HasPrefix(m[1], prefix) || strings.HasPrefix(m[1], "/") {
				t.Errorf("asset URL %q is not relative with prefix %q", m[1], prefix)
			}
			u := base.ResolveReference(&url.URL{Path: strings.Split(m[1], "?")[0], RawQuery: strings.SplitN(m[1], "?", 2)[1]})
			if !strings.HasPrefix(u.Path, "/playground/") {
				t.Errorf("asset %q resolves to %s, outside /playground/", m[1], u.Path)
			}
			aw := serve(t, h, http.MethodGet, u.RequestURI(), nil)
			if aw.Code != http.StatusOK {
				t.Errorf("GET %s: status %d", u.RequestURI(), aw.Code)
			}
			if got := aw.Header().Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("GET %s: Cache-Control = %q", u.RequestURI(), got)
			}
		}
	}
}

func TestPageEscapesEndpoint(t *testing.T) {
	w := serve(t, playground.Handler(`https://api.example.test/graphql?a="<x>"`), http.MethodGet, "/playground", nil)
	body := w.Body.String()
	if strings.Contains(body, `"<x>"`) {
		t.Errorf("endpoint not escaped:\n%s", body)
	}
	if csp := w.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' https://api.example.test;") {
		t.Errorf("CSP %q does not allow the endpoint's origin", csp)
	}
}

func TestAssets(t *testing.T) {
	h := playground.Handler("/graphql")
	for path, ct := range map[string]string{
		"/playground/graphiql/graphiql.min.js":              "text/javascript; charset=utf-8",
		"/playground/graphiql/graphiql.min.css":             "text/css; charset=utf-8",
		"/playground/react/react.production.min.js":         "text/javascript; charset=utf-8",
		"/playground/react-dom/react-dom.production.min.js": "text/javascript; charset=utf-8",
		"/playground/playground.js":                         "text/javascript; charset=utf-8",
		"/playground/playground.css":                        "text/css; charset=utf-8",
		"/playground/graphiql/LICENSE":                      "text/plain; charset=utf-8",
		"/playground/react/LICENSE":                         "text/plain; charset=utf-8",
		"/playground/react-dom/LICENSE":                     "text/plain; charset=utf-8",
	} {
		w := serve(t, h, http.MethodGet, path, nil)
		if w.Code != http.StatusOK || w.Body.Len() == 0 {
			t.Errorf("GET %s: status %d, %d bytes", path, w.Code, w.Body.Len())
			continue
		}
		if got := w.Header().Get("Content-Type"); got != ct {
			t.Errorf("GET %s: Content-Type = %q, want %q", path, got, ct)
		}
		// Without the version query the browser must revalidate.
		if got := w.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: Cache-Control = %q, want no-cache", path, got)
		}
		etag := w.Header().Get("ETag")
		if etag == "" {
			t.Errorf("GET %s: no ETag", path)
			continue
		}
		if w := serve(t, h, http.MethodGet, path, http.Header{"If-None-Match": {etag}}); w.Code != http.StatusNotModified {
			t.Errorf("GET %s with If-None-Match: status %d, want 304", path, w.Code)
		}
	}

	plain := serve(t, h, http.MethodGet, "/playground/graphiql/graphiql.min.js", nil)
	if !bytes.Contains(plain.Body.Bytes(), []byte("window.GraphiQL")) {
		t.Error("graphiql.min.js is not GraphiQL's UMD build")
	}
	w := serve(t, h, http.MethodGet, "/playground/graphiql/graphiql.min.js", http.Header{"Accept-Encoding": {"gzip, deflate, br"}})
	if w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("no gzip: %v", w.Header())
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(unzipped, plain.Body.Bytes()) {
		t.Errorf("gzip body differs from the plain one (%v)", err)
	}
	if w := serve(t, h, http.MethodGet, "/playground/graphiql/graphiql.min.js", http.Header{"Accept-Encoding": {"gzip;q=0"}}); w.Header().Get("Content-Encoding") != "" {
		t.Error("gzip sent although refused with q=0")
	}

	for _, path := range []string{"/playground/README.md", "/playground/page.html", "/playground/nope.js", "/playground/graphiql/", "/elsewhere"} {
		if w := serve(t, h, http.MethodGet, path, nil); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", path, w.Code)
		}
	}
	if w := serve(t, h, http.MethodPost, "/playground", nil); w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /playground: status %d, Allow %q", w.Code, w.Header().Get("Allow"))
	}
	if w := serve(t, h, http.MethodHead, "/playground", nil); w.Code != http.StatusOK || w.Body.Len() != 0 {
		t.Errorf("HEAD /playground: status %d, %d bytes", w.Code, w.Body.Len())
	}
}

type seenRequest struct{ authorization, body string }

// TestPlaygroundInBrowser runs a query from GraphiQL in headless Chromium
// against the real GraphQL handler, with a token typed in the Headers tab,
// and checks the browser asked nothing of any other host.
func TestPlaygroundInBrowser(t *testing.T) {
	chromium := browser.Path(t)

	srv := handler.New(graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}}))
	srv.AddTransport(httptransport.GET{})
	srv.AddTransport(httptransport.POST{})
	srv.Use(extension.Introspection{})
	var mu sync.Mutex
	var seen []seenRequest
	mux := http.NewServeMux()
	mux.Handle("/graphql", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		mu.Lock()
		seen = append(seen, seenRequest{r.Header.Get("Authorization"), string(body)})
		mu.Unlock()
		srv.ServeHTTP(w, r)
	}))
	pg := playground.Handler("/graphql")
	mux.Handle(playground.Path, pg)
	mux.Handle(playground.Path+"/", pg)
	ts := httptest.NewServer(mux)
	defer ts.Close()
	local, _ := url.Parse(ts.URL)

	ctx, tab := browser.Start(t, chromium)
	defer tab.Close()

	const (
		query   = `{ __schema { queryType { name } } }`
		token   = "Token 0123456789abcdef"
		editors = `.graphiql-query-editor .CodeMirror`
		// The Headers tab is open, so its editor is the visible one.
		headers  = `.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror`
		response = `document.querySelector('.graphiql-response .CodeMirror').CodeMirror.getValue()`
	)
	set := func(selector, value string) chromedp.Action[chromedp.Void] {
		return chromedp.Evaluate[chromedp.Void](`document.querySelector(` + jsString(selector) + `).CodeMirror.setValue(` + jsString(value) + `)`)
	}
	var welcome string
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+playground.Path),
		chromedp.WaitVisible(chromedp.CSS(editors)),
		chromedp.WaitVisible(chromedp.CSS(headers)),
	)
	if err == nil {
		// A first visit opens on how to log in, with the mutation ready.
		welcome, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(`+jsString(editors)+`).CodeMirror.getValue()`))
	}
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	checkWelcome(t, welcome)
	err = chromedp.Do(ctx,
		set(headers, `{"Authorization": "`+token+`"}`),
		set(editors, query),
		// The first tab held two operations, so the button was a menu
		// to choose one; it is a plain button once GraphiQL has read the
		// new document.
		chromedp.Poll[chromedp.Void](`!document.querySelector('.graphiql-execute-button').hasAttribute('aria-haspopup')`,
			chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Click(chromedp.CSS(`.graphiql-execute-button`)),
		chromedp.Poll[chromedp.Void](response+`.includes('"Query"')`, chromedp.WithPollingTimeout(30*time.Second)),
	)
	var result string
	if err == nil {
		result, err = chromedp.Run(ctx, chromedp.Evaluate[string](response))
	}
	if err != nil {
		partial, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { try { return `+response+` } catch (e) { return String(e) } })()`))
		_, problems := tab.Seen()
		t.Fatalf("browser: %v\nresult pane: %q\nproblems: %q", err, partial, problems)
	}
	if !strings.Contains(result, `"queryType"`) || !strings.Contains(result, `"name": "Query"`) {
		t.Errorf("result pane = %q, want the query type Query", result)
	}

	mu.Lock()
	defer mu.Unlock()
	var ran bool
	for _, r := range seen {
		var params struct{ Query string }
		if json.Unmarshal([]byte(r.body), &params) == nil && params.Query == query {
			ran = true
			if r.authorization != token {
				t.Errorf("the query went with Authorization %q, want %q", r.authorization, token)
			}
		}
	}
	if !ran {
		t.Errorf("the server never got the query; it got %d requests", len(seen))
	}
	requested, problems := tab.Seen()
	if len(requested) < 8 {
		t.Errorf("the browser made %d requests, want the page, 6 assets and GraphQL: %q", len(requested), requested)
	}
	browser.WantLocal(t, requested, local.Host, nil)
	if len(problems) > 0 {
		t.Errorf("the page logged errors: %q", problems)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// checkWelcome checks the first tab's document: it says how to log in and
// its operations are valid against the schema, so a renamed field fails
// here rather than in a newcomer's first minute.
func checkWelcome(t *testing.T, doc string) {
	t.Helper()
	for _, want := range []string{"createToken(input:", `{"Authorization": "Token <the token>"}`, "Headers tab"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the first tab lacks %q:\n%s", want, doc)
		}
	}
	schema := graph.NewExecutableSchema(graph.Config{Resolvers: &graph.Resolver{}}).Schema()
	if _, errs := gqlparser.LoadQuery(schema, doc); errs != nil {
		t.Errorf("the first tab's document does not validate: %v", errs)
	}
}
