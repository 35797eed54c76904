package pgcluster

import (
	"bufio"
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// dataDir returns an empty data directory removed at cleanup. Unlike the
// directories in t.TempDir, whose parent is private, it lets the server's
// OS user through when the tests run as root: Start hands it over.
func dataDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func start(t *testing.T, dir string) *Cluster {
	t.Helper()
	c, err := Start(t.Context(), Options{DataDir: dir, Logger: testLogger(t), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return c
}

func connect(t *testing.T, c *Cluster) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), c.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func TestStartKeepsDataAcrossRestarts(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	c := start(t, dir)

	conn := connect(t, c)
	var one int
	if err := conn.QueryRow(t.Context(), "select 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("select 1 = %d, %v", one, err)
	}
	if _, err := conn.Exec(t.Context(), "create table kept (v text); insert into kept values ('hello')"); err != nil {
		t.Fatal(err)
	}
	var listen string
	if err := conn.QueryRow(t.Context(), "show listen_addresses").Scan(&listen); err != nil || listen != "" {
		t.Errorf("listen_addresses = %q, %v; want no TCP", listen, err)
	}
	conn.Close(t.Context())
	socketDir := c.socketDir
	if err := c.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(t.Context()); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if _, err := os.Stat(socketDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket directory %s left behind: %v", socketDir, err)
	}

	c = start(t, dir)
	var v string
	if err := connect(t, c).QueryRow(t.Context(), "select v from kept").Scan(&v); err != nil || v != "hello" {
		t.Fatalf("after restart: %q, %v", v, err)
	}
}

func TestSecondStartOnSameDirFails(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	c := start(t, dir)

	_, err := Start(t.Context(), Options{DataDir: dir})
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("second Start: %v, want ErrInUse", err)
	}
	if !strings.Contains(err.Error(), c.socketDir) {
		t.Errorf("error %q does not say where the running server is", err)
	}
	if err := Remove(t.Context(), Options{DataDir: dir}); !errors.Is(err, ErrInUse) {
		t.Errorf("Remove: %v, want ErrInUse", err)
	}
	// The failed attempts must leave the running server alone.
	connect(t, c)
}

func TestStartAfterServerKilled(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	c := start(t, dir)
	if _, err := connect(t, c).Exec(t.Context(), "create table kept (v int); insert into kept values (7)"); err != nil {
		t.Fatal(err)
	}
	pid, _, err := readPIDFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid, dir)
	if err := c.Stop(t.Context()); err != nil {
		t.Fatalf("Stop after the server was killed: %v", err)
	}

	c = start(t, dir)
	var v int
	if err := connect(t, c).QueryRow(t.Context(), "select v from kept").Scan(&v); err != nil || v != 7 {
		t.Fatalf("after crash: %d, %v", v, err)
	}
}

// TestStartAfterOwnerKilled kills a process that started a cluster, which
// leaves the server running without an owner, and starts the cluster again.
func TestStartAfterOwnerKilled(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperOwner$")
	cmd.Env = append(os.Environ(), "PGCLUSTER_HELPER_DIR="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("helper: %q, %v", line, err)
	}
	orphan, _, err := readPIDFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if postmasterState(orphan, dir) != running {
		t.Fatal("the server died with its owner; this test needs it to outlive it")
	}

	c := start(t, dir)
	waitGone(t, orphan, dir)
	var v string
	if err := connect(t, c).QueryRow(t.Context(), "select v from kept").Scan(&v); err != nil || v != "helper" {
		t.Fatalf("%q, %v", v, err)
	}
}

func TestHelperOwner(t *testing.T) {
	dir := os.Getenv("PGCLUSTER_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process for TestStartAfterOwnerKilled")
	}
	c, err := Start(context.Background(), Options{DataDir: dir, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(context.Background(), c.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), "create table kept (v text); insert into kept values ('helper')"); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("ready\n")
	time.Sleep(time.Minute) // killed by the parent
}

func TestRemoveStopsAbandonedServer(t *testing.T) {
	t.Parallel()
	dir := dataDir(t)
	c := start(t, dir)
	pid, _, err := readPIDFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	socketDir := c.socketDir
	// Drop the lock without stopping, as a killed owner would.
	c.lock.Close()
	c.lock = nil

	if err := Remove(t.Context(), Options{DataDir: dir, Logger: testLogger(t)}); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid, dir)
	for _, d := range []string{dir, socketDir} {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", d, err)
		}
	}
}

func TestUnreachableDataDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root runs the server as another OS user")
	}
	parent := t.TempDir() // in a directory of mode 0700, owned by root
	_, err := Start(t.Context(), Options{DataDir: filepath.Join(parent, "data")})
	if err == nil || !strings.Contains(err.Error(), "cannot enter "+filepath.Dir(parent)) {
		t.Fatalf("got %v, want an error saying the server's user cannot enter %s", err, filepath.Dir(parent))
	}
}

func TestRemoveLeavesOtherDirectoriesAlone(t *testing.T) {
	dir := dataDir(t)
	if err := os.WriteFile(filepath.Join(dir, "precious"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Remove(t.Context(), Options{DataDir: dir}); err == nil {
		t.Fatal("Remove deleted a directory that is no cluster")
	}
	if _, err := os.Stat(filepath.Join(dir, "precious")); err != nil {
		t.Fatal(err)
	}
	if err := Remove(t.Context(), Options{}); err == nil {
		t.Fatal("Remove without DataDir succeeded")
	}
}

func TestBinariesNotFound(t *testing.T) {
	_, err := Start(t.Context(), Options{DataDir: dataDir(t), BinDir: t.TempDir()})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("BinDir without binaries: %v, want ErrNotFound", err)
	}

	t.Setenv("PATH", t.TempDir())
	old := serverRoot
	serverRoot = t.TempDir()
	t.Cleanup(func() { serverRoot = old })
	_, err = Start(t.Context(), Options{DataDir: dataDir(t)})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("nothing installed: %v, want ErrNotFound", err)
	}
	for _, want := range []string{"PATH", "pg_config --bindir", serverRoot + "/*/bin", "apt-get install postgresql"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestFindBinDirPrefersHighestVersion(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"9.6", "15", "17", "16"} {
		bin := filepath.Join(root, v, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if v == "17" {
			continue // broken install: no binaries
		}
		for _, name := range serverBinaries {
			if err := os.WriteFile(filepath.Join(bin, name), nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Setenv("PATH", t.TempDir())
	old := serverRoot
	serverRoot = root
	t.Cleanup(func() { serverRoot = old })

	got, err := FindBinDir()
	if want := filepath.Join(root, "16", "bin"); got != want || err != nil {
		t.Fatalf("FindBinDir() = %q, %v; want %q", got, err, want)
	}
}

func TestSocketDSNEscapes(t *testing.T) {
	got := socketDSN("/tmp/pgcluster-1", 5432, "my db")
	want := "postgres://postgres@/my%20db?host=/tmp/pgcluster-1&port=5432&sslmode=disable"
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	cfg, err := pgx.ParseConfig(got)
	if err != nil || cfg.Host != "/tmp/pgcluster-1" || cfg.Database != "my db" || cfg.User != "postgres" {
		t.Fatalf("pgx reads %+v, %v", cfg, err)
	}
}

// waitGone waits for a killed server to be gone: it is no child of ours.
func waitGone(t *testing.T, pid int, dir string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); postmasterState(pid, dir) != gone; {
		if time.Now().After(deadline) {
			t.Fatalf("server %d still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAttachBorrowsRunningServer(t *testing.T) {
	dir := dataDir(t)
	if _, err := Attach(dir); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Attach with no server: %v, want ErrNotRunning", err)
	}
	owner := start(t, dir)
	borrowed, err := Attach(dir)
	if err != nil {
		t.Fatal(err)
	}
	if borrowed.DSN("postgres") != owner.DSN("postgres") {
		t.Errorf("DSN %q, owner's %q", borrowed.DSN("postgres"), owner.DSN("postgres"))
	}
	var one int
	if err := connect(t, borrowed).QueryRow(t.Context(), "select 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("query through the attached cluster: %v", err)
	}
	// Stopping the borrower leaves the owner's server running.
	if err := borrowed.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := connect(t, owner).QueryRow(t.Context(), "select 1").Scan(&one); err != nil {
		t.Fatalf("the owner's server stopped with its borrower: %v", err)
	}
	if err := owner.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := Attach(dir); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Attach after the owner stopped: %v, want ErrNotRunning", err)
	}
}
