package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"salesplatform/persistence/dbtest"
	"salesplatform/persistence/redistest"
)

// buildBinary compiles this command into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "salesplatform")
	out, err := exec.Command("go", "build", "-o", bin, "salesplatform/cmd/salesplatform").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startBinary runs `bin serve` on a free port with args and returns the
// process and its base URL, read from its "listening" log line.
func startBinary(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "DATABASE_URL=", "REDIS_URL=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
		}
	})
	addr := make(chan string, 1)
	var lines []string
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines = append(lines, sc.Text())
			var entry struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &entry) == nil && entry.Msg == "listening" {
				addr <- entry.Addr
			}
		}
	}()
	select {
	case a := <-addr:
		return cmd, "http://" + a
	case <-time.After(60 * time.Second):
		t.Fatalf("the binary did not listen within 60s:\n%s", strings.Join(lines, "\n"))
		return nil, ""
	}
}

// TestPrivateDatabase runs the binary with no DATABASE_URL: it must start its
// own PostgreSQL in DATA_DIR, share it with createuser, keep the data across
// restarts, and stop it on shutdown.
func TestPrivateDatabase(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	// The server runs as an unprivileged user when the tests run as root:
	// its data directory must be reachable by that user, which t.TempDir
	// (mode 0700) is not.
	parent, err := os.MkdirTemp("", "salesplatform-data-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(parent) })
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(parent, "data")

	cmd, url := startBinary(t, bin, "--data-dir", dataDir)
	WantResponse(t, Do(t, "GET", url+"/readyz", ""), 200, `{"status": "ok"}`)

	// createuser beside the running server uses its cluster, as the README's
	// walkthrough does.
	out, err := exec.Command(bin, "createuser", "--data-dir", dataDir, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop").Output()
	if err != nil {
		t.Fatalf("createuser beside serve: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	token := lines[len(lines)-1]
	WantResponse(t, Do(t, "POST", url+"/api/v2/ecommerce/cart/", `{"items": []}`, auth(token)...), 201, "")

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGINT: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "postgres", "postmaster.pid")); !os.IsNotExist(err) {
		t.Errorf("the private PostgreSQL still runs after shutdown (postmaster.pid: %v)", err)
	}

	// The data outlives the server: the user's token works after a restart.
	_, url = startBinary(t, bin, "--data-dir", dataDir)
	WantResponse(t, Do(t, "POST", url+"/api/v2/ecommerce/cart/", `{"items": []}`, auth(token)...), 201, "")
}

// TestSharedRedisCarts runs two servers on one database and one Redis: a cart
// created on one is read and replaced on the other.
func TestSharedRedisCarts(t *testing.T) {
	t.Parallel()
	rc := redistest.Open(t)
	redisURL := redistest.URL()

	dsn := dbtest.NewDSN(t)
	token := CreateUser(t, dsn, "--username", "shop", "--password", "shop-password", "--partner-name", "Shop")
	a := Serve(t, dsn, "--redis-url", redisURL)
	b := Serve(t, dsn, "--redis-url", redisURL)

	res := Do(t, "POST", a.URL+"/api/v2/ecommerce/cart/", `{"items": [{"product_id": 3, "quantity": 1}]}`, auth(token)...)
	WantResponse(t, res, 201, "")
	id := res.JSON(t)["id"].(string)
	t.Cleanup(func() { rc.Del(context.Background(), "salesplatform:cart:"+id) })

	got := Do(t, "GET", b.URL+"/api/v2/ecommerce/cart/"+id+"/", "", auth(token)...)
	if got.Status != 200 || got.JSON(t)["id"] != id {
		t.Fatalf("second server: %d %s", got.Status, got.Body)
	}
	WantResponse(t, Do(t, "POST", b.URL+"/api/v2/ecommerce/cart/", `{"id": "`+id+`", "items": []}`, auth(token)...), 200, "")
	if items := Do(t, "GET", a.URL+"/api/v2/ecommerce/cart/"+id+"/", "", auth(token)...).JSON(t)["items"].([]any); len(items) != 0 {
		t.Errorf("first server sees items %v after the second replaced them", items)
	}
	if ttl := rc.PTTL(context.Background(), "salesplatform:cart:"+id).Val(); ttl <= time.Hour || ttl > 2*time.Hour {
		t.Errorf("Redis key TTL = %v, want about 2h", ttl)
	}
	// The shared cart store's metrics are its Redis pool's.
	metrics := Do(t, "GET", a.URL+"/metrics", "").Body
	for _, want := range []string{"salesplatform_redis_pool_connections ", "salesplatform_redis_pool_waits_total ", "salesplatform_redis_pool_timeouts_total 0"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(metrics, "salesplatform_carts_in_memory") {
		t.Error("/metrics counts carts in memory with REDIS_URL")
	}
}
