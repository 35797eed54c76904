package e2e

import (
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

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
