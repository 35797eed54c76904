package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"salesplatform/persistence/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// syncBuffer collects a server's log while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// server is the binary's serve command running in the test process.
type server struct {
	URL  string
	Log  *syncBuffer
	stop func() int
}

// mustServe runs `serve` on a free port with the given extra flags and stops
// it at cleanup.
func mustServe(tb testing.TB, dsn string, flags ...string) *server {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	log := &syncBuffer{}
	done := make(chan int, 1)
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--database-url", dsn}, flags...)
	go func() {
		done <- run(ctx, args, io.Discard, log, hooks{listening: func(a string) { addr <- a }})
	}()
	s := &server{Log: log}
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
	s.stop = func() int {
		once.Do(func() {
			cancel()
			code = <-done
		})
		return code
	}
	tb.Cleanup(func() { s.stop() })
	return s
}

// mustCreateUser runs `createuser` and returns the token it printed last.
func mustCreateUser(tb testing.TB, dsn string, args ...string) string {
	tb.Helper()
	var out, errOut bytes.Buffer
	full := append([]string{"createuser", "--database-url", dsn}, args...)
	if code := run(context.Background(), full, &out, &errOut, hooks{}); code != 0 {
		tb.Fatalf("createuser %v exited with %d: %s", args, code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return lines[len(lines)-1]
}

// response is what a test request got back.
type response struct {
	Status int
	Header http.Header
	Body   string
}

// JSON decodes the body.
func (r response) JSON(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.Body), &m); err != nil {
		tb.Fatalf("body %q is not a JSON object: %v", r.Body, err)
	}
	return m
}

// do sends one request; headers are name, value pairs.
func do(tb testing.TB, method, url, body string, headers ...string) response {
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
	return response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

// wantResponse fails unless the status and the JSON body are as given; the
// body is compared as JSON, so key order and spacing do not matter.
func wantResponse(tb testing.TB, got response, status int, body string) {
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

// wantJSON fails unless got and want are the same JSON value.
func wantJSON(tb testing.TB, got []byte, want string) {
	tb.Helper()
	wantResponse(tb, response{Status: 200, Body: string(got)}, 200, want)
}
