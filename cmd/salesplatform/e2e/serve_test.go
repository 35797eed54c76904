package e2e

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"salesplatform/cmd/salesplatform/app"
	"salesplatform/persistence"
	"salesplatform/persistence/dbtest"
)

func TestServeHealthAndShutdown(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	s := Serve(t, dsn)
	WantResponse(t, Do(t, "GET", s.URL+"/healthz", ""), 200, `{"status": "ok"}`)
	WantResponse(t, Do(t, "GET", s.URL+"/readyz", ""), 200, `{"status": "ok"}`)
	res := Do(t, "GET", s.URL+"/healthz", "", "X-Request-Id", "abc-123")
	if res.Header.Get("X-Request-Id") != "abc-123" {
		t.Errorf("X-Request-Id = %q", res.Header.Get("X-Request-Id"))
	}
	if !strings.Contains(s.Log.String(), `"request_id":"abc-123"`) {
		t.Errorf("the access log lacks the request id:\n%s", s.Log)
	}
	if code := s.Stop(); code != 0 {
		t.Errorf("serve exited with %d after cancel:\n%s", code, s.Log)
	}
	if !strings.Contains(s.Log.String(), `"msg":"shutting down"`) {
		t.Errorf("no shutdown in the log:\n%s", s.Log)
	}
}

func TestReadyzWithoutDatabase(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	s := Serve(t, dsn)
	WantResponse(t, Do(t, "GET", s.URL+"/readyz", ""), 200, `{"status": "ok"}`)

	// Take the database away under the running server.
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	u.Path = "/postgres"
	admin, err := persistence.Open(t.Context(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.ExecContext(t.Context(), "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
		t.Fatal(err)
	}
	WantResponse(t, Do(t, "GET", s.URL+"/readyz", ""), 503, `{"status": "database unreachable"}`)
	WantResponse(t, Do(t, "GET", s.URL+"/healthz", ""), 200, `{"status": "ok"}`)
}

// TestServeSignal runs the real binary and stops it with SIGTERM.
func TestServeSignal(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dsn := dbtest.NewDSN(t)
	cmd, url := startBinary(t, bin, "--database-url", dsn)
	WantResponse(t, Do(t, "GET", url+"/healthz", ""), 200, "")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the server did not stop within 20s of SIGTERM")
	}
	_ = os.Remove(bin)
}

// TestServeDrain stops a server with a request in flight: /readyz answers
// 503 from the moment it is asked to stop, the listener closes, and the
// request in flight (which reads the database) still completes with 200,
// on a response that closes its connection.
func TestServeDrain(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	token := CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop")

	started, release := make(chan struct{}), make(chan struct{})
	var addr string
	listening := make(chan struct{})
	readyDuringDrain := make(chan Response, 1) // /readyz once stopping
	hooks := app.Hooks{
		Listening: func(a string) { addr = a; close(listening) },
		// Requests marked X-Test-Slow wait for release before the server
		// handles them.
		Handler: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("X-Test-Slow") != "" {
					close(started)
					<-release
				}
				next.ServeHTTP(w, r)
			})
		},
		// Called once the server is stopping, before its listener closes:
		// a load balancer's probe now sees 503.
		Draining: func() {
			c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
			res, err := c.Get("http://" + addr + "/readyz")
			if err != nil {
				readyDuringDrain <- Response{Body: "error: " + err.Error()}
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			readyDuringDrain <- Response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &SyncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- app.Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--database-url", dsn, "--shutdown-grace", "20s"},
			io.Discard, log, hooks)
	}()
	select {
	case <-listening:
	case <-time.After(30 * time.Second):
		t.Fatalf("not listening:\n%s", log)
	}
	url := "http://" + addr
	WantResponse(t, Do(t, "GET", url+"/readyz", ""), 200, `{"status": "ok"}`)

	inFlight := make(chan Response, 1)
	var closed bool // the response closed its connection
	go func() {
		req, _ := http.NewRequest("GET", url+"/api/v2/partners/me/", nil)
		req.Header.Set("Authorization", "Token "+token)
		req.Header.Set("X-Test-Slow", "1")
		res, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
		if err != nil {
			inFlight <- Response{Body: "error: " + err.Error()}
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		closed = res.Close
		inFlight <- Response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
	}()
	<-started
	cancel() // SIGTERM

	// The listener closes while the request is still in flight.
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break
		}
		conn.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts connections 10s after the stop")
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case res := <-readyDuringDrain:
		if res.Status != 503 || !strings.Contains(res.Body, `"draining"`) {
			t.Errorf("/readyz during the drain: %d %q", res.Status, res.Body)
		}
	case <-time.After(5 * time.Second):
		t.Error("the Draining hook was not called")
	}
	select {
	case res := <-inFlight:
		t.Fatalf("the request in flight ended before it was released: %d %s", res.Status, res.Body)
	case <-done:
		t.Fatal("serve returned with a request in flight")
	default:
	}

	close(release)
	select {
	case res := <-inFlight:
		if res.Status != 200 || !strings.Contains(res.Body, `"name":"Shop"`) {
			t.Errorf("request in flight: %d %q", res.Status, res.Body)
		}
		if !closed {
			t.Error("the response in the drain kept its connection open (no Connection: close)")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the request in flight did not complete")
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d:\n%s", code, log)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not return after the drain")
	}
	if l := log.String(); !strings.Contains(l, `"msg":"shutting down"`) || !strings.Contains(l, `"msg":"requests drained; stopping"`) {
		t.Errorf("log:\n%s", l)
	}
}

// With a drain delay, a probe from outside sees /readyz answer 503 after
// the signal, while the listener still accepts, before it closes.
func TestServeDrainDelay(t *testing.T) {
	t.Parallel()
	dsn := dbtest.NewDSN(t)
	var addr string
	listening := make(chan struct{})
	hooks := app.Hooks{Listening: func(a string) { addr = a; close(listening) }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := &SyncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- app.Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--database-url", dsn, "--drain-delay", "2s"},
			io.Discard, log, hooks)
	}()
	select {
	case <-listening:
	case <-time.After(30 * time.Second):
		t.Fatalf("not listening:\n%s", log)
	}
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	probe := func() int {
		res, err := c.Get("http://" + addr + "/readyz")
		if err != nil {
			return 0 // refused: the listener is closed
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := probe(); got != 200 {
		t.Fatalf("/readyz before the signal = %d", got)
	}
	cancel()
	var seen []int
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		status := probe()
		if len(seen) == 0 || seen[len(seen)-1] != status {
			seen = append(seen, status)
		}
		if status == 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// 200 until the signal is seen, then 503 while draining, then refused.
	if i := slices.Index(seen, 503); i < 0 || seen[len(seen)-1] != 0 || slices.Contains(seen[i:], 200) {
		t.Errorf("/readyz over the drain: %v, want 503s before the listener closes", seen)
	}
	if code := <-done; code != 0 {
		t.Errorf("serve exited %d:\n%s", code, log)
	}
}
