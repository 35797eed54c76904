// Package e2e holds the end-to-end tests: requests through the whole HTTP
// handler the binary serves, over a real PostgreSQL database, on both
// surfaces. Its exported helpers start that server in the test process
// (Serve), create users through the createuser command (CreateUser), send
// requests (Do) and compare JSON answers (WantResponse, WantJSON); other
// packages' tests import them to drive the server the same way.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/uptrace/bun"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/persistence"
	"salesplatform/persistence/cartstore"
	"salesplatform/persistence/dbtest"
	"salesplatform/rest/openapi"
)

// Main runs the tests of a package that uses these helpers, on the
// databases of persistence/dbtest. Every command and server they run
// hashes passwords at 1 MiB instead of 64: the tests check logins, not
// argon2id's cost, which was three quarters of their CPU time.
func Main(m *testing.M) {
	os.Setenv("PASSWORD_HASH_MEMORY", "1")
	dbtest.Main(m)
}

// Handler is the handler serve runs, over db, without a listener: carts in
// memory, media under a temporary directory, passwords hashed cheaply, the
// log discarded.
func Handler(tb testing.TB, db *bun.DB) http.Handler {
	tb.Helper()
	return handlerWithCarts(tb, db, 100)
}

// handlerWithCarts is Handler with a cart store of maxCarts carts
// (cartstore.NewMemory).
func handlerWithCarts(tb testing.TB, db *bun.DB, maxCarts int) http.Handler {
	tb.Helper()
	carts := cartstore.NewMemory(maxCarts)
	tb.Cleanup(carts.Close)
	cfg := &app.Config{PasswordHashing: dbtest.CheapHashing, CartTTL: time.Hour, PublicBaseURL: "http://api.test", DataDir: tb.TempDir()}
	return app.NewHandler(db, carts, cfg, app.NewLogger(io.Discard, slog.LevelInfo))
}

// SyncBuffer collects a server's log while it runs.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Server is the binary's serve command running in the test process.
type Server struct {
	URL  string
	Log  *SyncBuffer
	Stop func() int
}

// Serve runs `serve` on a free port with the given extra flags and stops
// it at cleanup.
func Serve(tb testing.TB, dsn string, flags ...string) *Server {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	log := &SyncBuffer{}
	done := make(chan int, 1)
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--database-url", dsn}, flags...)
	go func() {
		done <- app.Run(ctx, args, io.Discard, log, app.Hooks{Listening: func(a string) { addr <- a }})
	}()
	s := &Server{Log: log}
	select {
	case a := <-addr:
		s.URL = "http://" + a
	case code := <-done:
		cancel()
		tb.Fatalf("serve exited with %d before listening:\n%s", code, log)
	case <-time.After(30 * time.Second):
		cancel()
		tb.Fatalf("serve did not listen within 30s:\n%s", log)
	}
	var once sync.Once
	var code int
	s.Stop = func() int {
		once.Do(func() {
			cancel()
			code = <-done
		})
		return code
	}
	tb.Cleanup(func() { s.Stop() })
	return s
}

// RunCommand runs the binary's command line with args in the test process
// and returns its exit code and output.
func RunCommand(tb testing.TB, args ...string) (code int, stdout, stderr string) {
	tb.Helper()
	var out, errOut bytes.Buffer
	code = app.Run(context.Background(), args, &out, &errOut, app.Hooks{})
	return code, out.String(), errOut.String()
}

// seedTokenLine is a last line of `seed demo`'s first run: a demo user
// and its token.
var seedTokenLine = regexp.MustCompile(`^(demo-[a-z]+) ([0-9a-f]{40})$`)

// SeedDemo runs `seed demo` on the database dsn names, with media files in
// dataDir, and returns the API tokens it printed, by username.
func SeedDemo(tb testing.TB, dsn, dataDir string) map[string]string {
	tb.Helper()
	code, out, errOut := RunCommand(tb, "seed", "demo", "--database-url", dsn, "--data-dir", dataDir)
	if code != 0 {
		tb.Fatalf("seed demo: exit %d\n%s\n%s", code, out, errOut)
	}
	tokens := map[string]string{}
	for line := range strings.SplitSeq(out, "\n") {
		if m := seedTokenLine.FindStringSubmatch(line); m != nil {
			tokens[m[1]] = m[2]
		}
	}
	return tokens
}

// OpenDB connects to the database dsn names until the test ends.
func OpenDB(tb testing.TB, dsn string) *bun.DB {
	tb.Helper()
	db, err := persistence.Open(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// CreateUser runs `createuser` and returns the token it printed last.
func CreateUser(tb testing.TB, dsn string, args ...string) string {
	tb.Helper()
	var out, errOut bytes.Buffer
	full := append([]string{"createuser", "--database-url", dsn}, args...)
	if code := app.Run(context.Background(), full, &out, &errOut, app.Hooks{}); code != 0 {
		tb.Fatalf("createuser %v exited with %d: %s", args, code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return lines[len(lines)-1]
}

// Response is what a test request got back.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// JSON decodes the body.
func (r Response) JSON(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Body), &m); err != nil {
		tb.Fatalf("body %q is not a JSON object: %v", r.Body, err)
	}
	return m
}

// JSONArray decodes a body that is an array of objects.
func (r Response) JSONArray(tb testing.TB) []map[string]any {
	tb.Helper()
	var a []map[string]any
	if err := json.Unmarshal([]byte(r.Body), &a); err != nil {
		tb.Fatalf("body %q is not a JSON array of objects: %v", r.Body, err)
	}
	return a
}

// Do sends one request; headers are name, value pairs. A response to a
// path the OpenAPI document describes (rest/openapi/openapi.yaml) must
// match it: its status documented for the operation, its JSON body valid
// against that status's schema (CheckContract). A GraphQL mutation's
// typed errors must name its input (CheckPayloadErrors).
func Do(tb testing.TB, method, url, body string, headers ...string) Response {
	tb.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatal(err)
	}
	CheckContract(tb, req, res.StatusCode, res.Header, b)
	if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/graphql") {
		checkGraphAnswer(tb, []byte(body), b)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

// contract is the OpenAPI document and a router over its paths, loaded
// once for every test.
var contract = sync.OnceValues(func() (routers.Router, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.YAML)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, err
	}
	doc.Servers = nil // match paths on whatever host the test server has
	return gorillamux.NewRouter(doc)
})

// checked holds "operationId status" for every response CheckContract
// found to match the document.
var checked sync.Map

// CheckedOperations lists "operationId status" for every response found
// to match the OpenAPI document so far, by any test of this process.
func CheckedOperations() map[string]bool {
	out := map[string]bool{}
	checked.Range(func(k, _ any) bool {
		out[k.(string)] = true
		return true
	})
	return out
}

// CheckContract fails tb unless a response to req matches the OpenAPI
// document: the status must be documented for the operation, and a JSON
// body must be valid against its schema. A path the document does not
// describe (/graphql, /playground, an unknown path) is not checked; a path
// without its trailing slash is checked as the documented one with it.
// HEAD is checked against the path's HEAD operation, else as GET, on its
// status only; a CORS preflight is not an operation and is not checked.
func CheckContract(tb testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	tb.Helper()
	router, err := contract()
	if err != nil {
		tb.Errorf("rest/openapi/openapi.yaml does not load: %v", err)
		return
	}
	if req.Method == http.MethodOptions && req.Header.Get("Access-Control-Request-Method") != "" {
		return // a CORS preflight, answered by the middleware before any route
	}
	probe := req.Clone(context.Background())
	probe.Body = http.NoBody
	find := func() (*routers.Route, map[string]string, error) {
		probe.Method = req.Method
		route, vars, err := router.FindRoute(probe)
		if req.Method == http.MethodHead && errors.Is(err, routers.ErrMethodNotAllowed) {
			// HEAD is checked as GET where the path has no HEAD operation.
			probe.Method = http.MethodGet
			route, vars, err = router.FindRoute(probe)
		}
		return route, vars, err
	}
	route, vars, err := find()
	if errors.Is(err, routers.ErrPathNotFound) && !strings.HasSuffix(probe.URL.Path, "/") {
		u := *probe.URL
		u.Path += "/"
		u.RawPath = ""
		probe.URL = &u
		route, vars, err = find()
	}
	where := req.Method + " " + req.URL.RequestURI()
	switch {
	case errors.Is(err, routers.ErrPathNotFound):
		return // not a documented route
	case errors.Is(err, routers.ErrMethodNotAllowed):
		if !pathParamsValid(router, probe) {
			return // a path variable the document's pattern refuses: no route
		}
		if status != http.StatusMethodNotAllowed {
			tb.Errorf("OpenAPI contract: %s answered %d, but rest/openapi/openapi.yaml has no %s operation on this path", where, status, req.Method)
		}
		return
	case err != nil:
		tb.Errorf("OpenAPI contract: %s: %v", where, err)
		return
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
	mediaType, _, _ := strings.Cut(header.Get("Content-Type"), ";")
	if req.Method == http.MethodHead || !strings.HasSuffix(strings.TrimSpace(mediaType), "json") {
		// No body to check (HEAD), or not JSON: the status is checked, and
		// the media type against the documented ones below.
		opts.ExcludeResponseBody = true
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: probe, PathParams: vars, Route: route},
		Status:                 status,
		Header:                 header,
		Options:                opts,
	}
	input.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), input); err != nil {
		tb.Errorf("OpenAPI contract: %s (operation %s) answered %d, which does not match rest/openapi/openapi.yaml: %v\nbody: %.600s",
			where, route.Operation.OperationID, status, err, body)
		return
	}
	if opts.ExcludeResponseBody && req.Method != http.MethodHead && len(body) > 0 {
		if r := route.Operation.Responses.Status(status); r != nil && r.Value != nil && len(r.Value.Content) > 0 && r.Value.Content.Get(header.Get("Content-Type")) == nil {
			tb.Errorf("OpenAPI contract: %s (operation %s) answered %d with Content-Type %q, which rest/openapi/openapi.yaml does not document",
				where, route.Operation.OperationID, status, header.Get("Content-Type"))
			return
		}
	}
	checked.Store(route.Operation.OperationID+" "+strconv.Itoa(status), true)
}

// pathParamsValid reports whether req's path, read as a documented path
// (by any of its operations), has path variables its schemas accept: the
// document's router matches "/partners/{id}" on "/partners/me1", which the
// server's pattern ([0-9]+) does not.
func pathParamsValid(router routers.Router, req *http.Request) bool {
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := req.Clone(context.Background())
		probe.Method = method
		route, vars, err := router.FindRoute(probe)
		if err != nil {
			continue
		}
		for _, p := range route.Operation.Parameters {
			if p.Value == nil || p.Value.In != openapi3.ParameterInPath || p.Value.Schema == nil {
				continue
			}
			var value any = vars[p.Value.Name]
			if sch := p.Value.Schema.Value; sch.Type.Is("integer") || sch.Type.Is("number") {
				n, err := strconv.ParseFloat(vars[p.Value.Name], 64)
				if err != nil {
					return false
				}
				value = n
			}
			if p.Value.Schema.Value.VisitJSON(value) != nil {
				return false
			}
		}
		return true
	}
	return true
}

// WantResponse fails unless the status and the JSON body are as given; the
// body is compared as JSON, so key order and spacing do not matter.
func WantResponse(tb testing.TB, got Response, status int, body string) {
	tb.Helper()
	if got.Status != status {
		tb.Errorf("status = %d, want %d (body %s)", got.Status, status, got.Body)
	}
	if body == "" {
		return
	}
	var g, w any
	if err := json.Unmarshal([]byte(got.Body), &g); err != nil {
		tb.Fatalf("body %q is not JSON: %v", got.Body, err)
	}
	if err := json.Unmarshal([]byte(body), &w); err != nil {
		tb.Fatalf("bad expected JSON %q: %v", body, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if !bytes.Equal(gb, wb) {
		tb.Errorf("body = %s\nwant   %s", gb, wb)
	}
}

// WantJSON fails unless got and want are the same JSON value.
func WantJSON(tb testing.TB, got []byte, want string) {
	tb.Helper()
	WantResponse(tb, Response{Status: 200, Body: string(got)}, 200, want)
}
