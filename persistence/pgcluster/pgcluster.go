// Package pgcluster runs a private PostgreSQL server from the server
// binaries installed on the machine, so that the application and its tests
// work on a developer machine without anyone setting up a database first.
//
// The data directory is kept between runs: initdb runs only when it holds no
// PG_VERSION.
//
// The server never listens on TCP, only on a unix socket in a fresh, short
// directory under the temporary directory (/tmp when that path is too
// long). Nothing else on the machine reaches it by accident, clusters never
// fight over a port, and the socket path stays under the ~107 byte limit of
// unix socket paths however deep the data directory is.
//
// A Cluster holds an exclusive lock (flock) on its data directory until
// Stop. A second Start on the same directory, from this process or another,
// fails with ErrInUse rather than sharing a server that its owner may stop
// at any moment; the error names the running server's socket so it can be
// used directly. The lock dies with its process, so a directory whose owner
// was killed is free again: Start then stops the server that owner left
// running (pg_ctl starts it detached, so it outlives its owner), or removes
// the postmaster.pid of a server that was killed itself, and starts afresh.
//
// PostgreSQL refuses to run as root. When the process is root, initdb,
// pg_ctl and the server run as the "postgres" OS user (else "nobody"),
// which then owns the data directory; every parent directory must let it
// in, and Start says so when one does not.
package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrInUse is returned, wrapped, by Start and Remove when another Cluster,
// in this process or another, runs on the data directory.
var ErrInUse = errors.New("pgcluster: data directory in use")

const (
	// port only names the socket file (.s.PGSQL.5432): there is no TCP.
	port = 5432
	// superuser is the role initdb creates, trusted on the socket.
	superuser = "postgres"
	// logName is the server log, inside the data directory.
	logName = "postgresql.log"
	// socketPrefix names the socket directories, so that Start can tell
	// its own apart when cleaning up after a dead server.
	socketPrefix = "pgcluster-"
	// maxSocketPath is sizeof(sun_path) minus the terminating NUL.
	maxSocketPath = 107
	// pgctlWait is how long pg_ctl waits for the server to start or stop.
	pgctlWait = 60
)

// Options configure Start.
type Options struct {
	// DataDir is the PostgreSQL data directory; it is created when
	// missing. Required.
	DataDir string

	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger

	// BinDir, when set, is the only directory searched for initdb, pg_ctl
	// and postgres; see FindBinDir for the search otherwise.
	BinDir string

	// NoSync trades durability for speed: initdb --no-sync, fsync and
	// full_page_writes off. Commits survive the server being killed, but
	// an operating system crash can corrupt the data, so it is for
	// throwaway clusters such as the test ones.
	NoSync bool

	// Settings are server settings passed as -c name=value at every start.
	Settings map[string]string
}

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dataDir   string
	socketDir string
	binDir    string
	account   *account
	log       *slog.Logger

	mu   sync.Mutex
	lock *os.File // flock'ed data directory; nil once stopped
}

// account is the OS user the server runs as when the process is root.
type account struct {
	name     string
	uid, gid uint32
}

// Start starts a PostgreSQL server on opts.DataDir, running initdb first
// when the directory holds no cluster yet. It returns once the server
// accepts connections; see DSN.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	c, err := prepare(opts)
	if err != nil {
		return nil, err
	}
	started := false
	defer func() {
		if !started {
			c.release()
		}
	}()

	if _, err := os.Stat(filepath.Join(c.dataDir, "PG_VERSION")); errors.Is(err, fs.ErrNotExist) {
		if err := c.initdb(ctx, opts.NoSync); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	if err := c.clearLeftovers(ctx); err != nil {
		return nil, err
	}
	if err := c.makeSocketDir(); err != nil {
		return nil, err
	}
	if err := c.start(ctx, opts); err != nil {
		return nil, err
	}
	started = true
	c.log.Info("pgcluster: server started", "data_dir", c.dataDir, "socket_dir", c.socketDir)
	return c, nil
}

// ErrNotRunning is returned, wrapped, by Attach when no Cluster runs on the
// data directory.
var ErrNotRunning = errors.New("pgcluster: no server runs on the data directory")

// Attach returns the server that another Cluster, in this process or
// another, runs on dataDir, without owning it: Stop on the result does
// nothing, and the server goes away when its owner stops it. It lets a short
// command (creating a user, a migration) work beside a running service.
func Attach(dataDir string) (*Cluster, error) {
	dir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrNotRunning, dir, err)
	}
	defer f.Close()
	// Only an owner holds the lock: if we can take it, nobody runs there.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotRunning, dir)
	}
	_, info, err := readPIDFile(dir)
	if err != nil || info.socketDir == "" {
		return nil, fmt.Errorf("%w: %s has an owner but no server yet", ErrNotRunning, dir)
	}
	// lock stays nil: Stop and release leave the owner's server alone.
	return &Cluster{dataDir: dir, socketDir: info.socketDir, log: slog.New(slog.DiscardHandler)}, nil
}

// Remove deletes the cluster in opts.DataDir, first stopping a server left
// running there by a process that died without calling Stop. It fails with
// ErrInUse while a Cluster runs on the directory. A directory that is
// neither a cluster nor empty is left alone, with an error.
func Remove(ctx context.Context, opts Options) error {
	if opts.DataDir != "" {
		_, err := os.Stat(filepath.Join(opts.DataDir, "PG_VERSION"))
		if entries, _ := os.ReadDir(opts.DataDir); err != nil && len(entries) > 0 {
			return fmt.Errorf("pgcluster: will not remove %s: it holds no PG_VERSION, so it is no PostgreSQL data directory", opts.DataDir)
		}
	}
	c, err := prepare(opts)
	if err != nil {
		return err
	}
	defer c.release()
	if err := c.clearLeftovers(ctx); err != nil {
		return err
	}
	if err := os.RemoveAll(c.dataDir); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	return nil
}

// prepare finds the binaries and takes the data directory's lock.
func prepare(opts Options) (*Cluster, error) {
	if opts.DataDir == "" {
		return nil, errors.New("pgcluster: Options.DataDir is required")
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	// pg_ctl hands the path to /bin/sh inside double quotes.
	if strings.ContainsAny(dataDir, "\"$`\\\n") {
		return nil, fmt.Errorf("pgcluster: data directory %q: pg_ctl cannot handle \", $, `, \\ or newlines in it", dataDir)
	}
	binDir, err := findBinDir(opts.BinDir)
	if err != nil {
		return nil, err
	}
	acct, err := serverAccount()
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Cluster{dataDir: dataDir, binDir: binDir, account: acct, log: log}

	// Parents we create must let the server's OS user through.
	if err := os.MkdirAll(filepath.Dir(dataDir), 0o755); err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	if acct != nil {
		if err := checkReachable(filepath.Dir(dataDir), acct); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("pgcluster: %w", err)
	}
	if err := c.takeLock(); err != nil {
		return nil, err
	}
	if acct != nil {
		if err := chownTree(dataDir, acct); err != nil {
			c.release()
			return nil, err
		}
	}
	return c, nil
}

// DSN returns a connection string for database dbname, understood by pgx
// and libpq (psql).
func (c *Cluster) DSN(dbname string) string {
	return socketDSN(c.socketDir, port, dbname)
}

func socketDSN(socketDir string, port int, dbname string) string {
	host := strings.ReplaceAll(url.QueryEscape(socketDir), "%2F", "/")
	return fmt.Sprintf("postgres://%s@/%s?host=%s&port=%d&sslmode=disable",
		superuser, url.PathEscape(dbname), host, port)
}

// DataDir returns the absolute path of the data directory.
func (c *Cluster) DataDir() string { return c.dataDir }

// Stop stops the server (pg_ctl stop -m fast: sessions are disconnected,
// transactions rolled back) and releases the data directory. Stopping a
// stopped or attached Cluster does nothing.
func (c *Cluster) Stop(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lock == nil {
		return nil
	}
	// A killed server never removes its pid file, so pg_ctl would wait for
	// it in vain; the next Start clears it.
	pid, _, err := readPIDFile(c.dataDir)
	if err == nil && postmasterState(pid, c.dataDir) != gone {
		if err := c.pgctlStop(ctx, c.dataDir, "fast"); err != nil {
			return err // keep the lock so that Stop can be retried
		}
		c.log.Info("pgcluster: server stopped", "data_dir", c.dataDir)
	} else {
		c.log.Warn("pgcluster: server was not running", "data_dir", c.dataDir)
	}
	c.release()
	return nil
}

// release removes the socket directory and drops the lock.
func (c *Cluster) release() {
	if c.socketDir != "" {
		_ = os.RemoveAll(c.socketDir)
	}
	if c.lock != nil {
		_ = c.lock.Close() // closing the last descriptor drops the flock
		c.lock = nil
	}
}

func (c *Cluster) takeLock() error {
	f, err := os.Open(c.dataDir) // O_CLOEXEC: the server must not inherit it
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			hint := ""
			if pid, info, err := readPIDFile(c.dataDir); err == nil && info.socketDir != "" {
				hint = fmt.Sprintf("; its server (pid %d) is at %s", pid, socketDSN(info.socketDir, info.port, superuser))
			}
			return fmt.Errorf("%w: %s is used by another Cluster, in this process or another%s", ErrInUse, c.dataDir, hint)
		}
		return fmt.Errorf("pgcluster: lock %s: %w", c.dataDir, err)
	}
	c.lock = f
	return nil
}

func (c *Cluster) initdb(ctx context.Context, noSync bool) error {
	args := []string{"-D", c.dataDir, "-U", superuser, "--auth=trust", "-E", "UTF8", "--locale=C"}
	if noSync {
		args = append(args, "--no-sync")
	}
	c.log.Info("pgcluster: creating cluster", "data_dir", c.dataDir)
	if out, err := c.command(ctx, "initdb", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("pgcluster: initdb %s: %w\n%s", c.dataDir, err, out)
	}
	return nil
}

// clearLeftovers deals with the postmaster.pid of an earlier run. Holding
// the lock, we know no Cluster owns that server: either it is still running
// because its owner died without calling Stop, so we stop it, or it was
// killed itself and its pid file is stale. PostgreSQL removes a stale pid
// file on its own unless the pid has been reused meanwhile (common in
// containers), which is why we check what the pid now is.
func (c *Cluster) clearLeftovers(ctx context.Context) error {
	pidFile := filepath.Join(c.dataDir, "postmaster.pid")
	pid, info, err := readPIDFile(c.dataDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		// Empty or cut short: a server died while starting.
		c.log.Warn("pgcluster: removing unreadable postmaster.pid", "data_dir", c.dataDir, "err", err)
		return removeFile(pidFile)
	}
	switch postmasterState(pid, c.dataDir) {
	case running:
		c.log.Warn("pgcluster: stopping a server left running by a process that did not stop it",
			"data_dir", c.dataDir, "pid", pid)
		if err := c.pgctlStop(ctx, c.dataDir, "fast"); err != nil {
			if err := c.pgctlStop(ctx, c.dataDir, "immediate"); err != nil {
				return err
			}
		}
		if info.socketDir != "" && strings.HasPrefix(filepath.Base(info.socketDir), socketPrefix) {
			_ = os.RemoveAll(info.socketDir)
		}
	case gone:
		c.log.Warn("pgcluster: removing the postmaster.pid of a server that was killed", "data_dir", c.dataDir, "pid", pid)
		if info.socketDir != "" && strings.HasPrefix(filepath.Base(info.socketDir), socketPrefix) {
			_ = os.RemoveAll(info.socketDir)
		}
		return removeFile(pidFile)
	}
	return nil // unknown: let pg_ctl and the server judge
}

func (c *Cluster) makeSocketDir() error {
	base := os.TempDir()
	// MkdirTemp adds up to 10 digits; the socket is .s.PGSQL.5432.
	if len(base)+len("/"+socketPrefix+"0123456789/.s.PGSQL.5432") > maxSocketPath ||
		(c.account != nil && checkReachable(base, c.account) != nil) {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, socketPrefix)
	if err != nil {
		return fmt.Errorf("pgcluster: socket directory: %w", err)
	}
	c.socketDir = dir
	if c.account != nil {
		if err := os.Chown(dir, int(c.account.uid), int(c.account.gid)); err != nil {
			return fmt.Errorf("pgcluster: socket directory: %w", err)
		}
	}
	return nil
}

func (c *Cluster) start(ctx context.Context, opts Options) error {
	serverArgs := []string{"-p", strconv.Itoa(port), "-k", c.socketDir, "-c", "listen_addresses="}
	if opts.NoSync {
		serverArgs = append(serverArgs, "-c", "fsync=off", "-c", "full_page_writes=off")
	}
	for _, name := range slices.Sorted(maps.Keys(opts.Settings)) {
		serverArgs = append(serverArgs, "-c", name+"="+opts.Settings[name])
	}
	quoted := make([]string, len(serverArgs))
	for i, a := range serverArgs {
		quoted[i] = shellQuote(a) // pg_ctl runs the server through /bin/sh
	}
	logFile := filepath.Join(c.dataDir, logName)
	args := []string{"start", "-w", "-t", strconv.Itoa(pgctlWait), "-D", c.dataDir, "-l", logFile, "-o", strings.Join(quoted, " ")}

	for attempt := 1; ; attempt++ {
		var logStart int64
		if fi, err := os.Stat(logFile); err == nil {
			logStart = fi.Size()
		}
		out, err := c.command(ctx, "pg_ctl", args...).CombinedOutput()
		if err == nil {
			return nil
		}
		serverLog := readFrom(logFile, logStart)
		// Backends of a killed server hold its shared memory for a moment
		// after the postmaster dies; they exit as soon as they notice.
		if strings.Contains(serverLog, "pre-existing shared memory block") && attempt < 20 && ctx.Err() == nil {
			c.log.Info("pgcluster: waiting for the processes of a killed server to exit", "data_dir", c.dataDir)
			time.Sleep(250 * time.Millisecond)
			continue
		}
		return fmt.Errorf("pgcluster: start server on %s: %w\n%s\nserver log (%s):\n%s",
			c.dataDir, err, strings.TrimSpace(string(out)), logFile, lastLines(serverLog, 30))
	}
}

func (c *Cluster) pgctlStop(ctx context.Context, dataDir, mode string) error {
	out, err := c.command(ctx, "pg_ctl", "stop", "-w", "-t", strconv.Itoa(pgctlWait), "-m", mode, "-D", dataDir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("pgcluster: stop server on %s: %w\n%s", dataDir, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// command prepares a server binary to run as the server's OS user.
func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(c.binDir, name), args...)
	cmd.Dir = c.dataDir
	cmd.WaitDelay = 5 * time.Second
	// PGPORT, PGDATA and friends would change what the server does.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if c.account != nil {
		// Groups stays empty: the server gets no supplementary groups.
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: c.account.uid, Gid: c.account.gid}}
	}
	return cmd
}

// serverAccount returns the OS user to run the server as: nil (ourselves)
// unless we are root, which PostgreSQL refuses.
func serverAccount() (*account, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil || uid == 0 {
			continue
		}
		return &account{name: name, uid: uint32(uid), gid: uint32(gid)}, nil
	}
	return nil, errors.New(`pgcluster: PostgreSQL refuses to run as root, and there is neither a "postgres" nor a "nobody" OS user to run it as: create one (useradd --system postgres)`)
}

// checkReachable reports an error when acct cannot enter dir and each of its
// parents. It reads the mode bits only: ACLs are not considered.
func checkReachable(dir string, acct *account) error {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("pgcluster: %w", err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return nil
		}
		perm := fi.Mode().Perm()
		var bit fs.FileMode = 0o001
		switch {
		case st.Uid == acct.uid:
			bit = 0o100
		case st.Gid == acct.gid:
			bit = 0o010
		}
		if perm&bit == 0 {
			return fmt.Errorf("pgcluster: the server runs as OS user %q because PostgreSQL refuses to run as root, "+
				"and that user cannot enter %s (mode %v): use a data directory below one it can reach (such as /var/tmp), "+
				"or let it in (chmod o+x %s)", acct.name, d, perm, d)
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// chownTree gives dir to acct, recursively when dir itself is not yet its.
func chownTree(dir string, acct *account) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid == acct.uid && st.Gid == acct.gid {
		return nil
	}
	err = filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, int(acct.uid), int(acct.gid))
	})
	if err != nil {
		return fmt.Errorf("pgcluster: give %s to OS user %q: %w", dir, acct.name, err)
	}
	return nil
}

// pidInfo is what postmaster.pid tells beyond the pid.
type pidInfo struct {
	port      int
	socketDir string
}

// readPIDFile parses postmaster.pid: pid, data directory, start time,
// port, first socket directory, listen address, shared memory key, status.
func readPIDFile(dataDir string) (int, pidInfo, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0, pidInfo{}, err
	}
	lines := strings.Split(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || pid <= 0 {
		return 0, pidInfo{}, fmt.Errorf("postmaster.pid: bad pid %q", lines[0])
	}
	info := pidInfo{port: port}
	if len(lines) > 4 {
		if p, err := strconv.Atoi(strings.TrimSpace(lines[3])); err == nil {
			info.port = p
		}
		info.socketDir = strings.TrimSpace(lines[4])
	}
	return pid, info, nil
}

type procState int

const (
	unknown procState = iota
	running           // a live process working in dataDir: the postmaster
	gone              // no such process, a zombie, or a pid reused elsewhere
)

// postmasterState tells whether pid is a server running on dataDir, from
// the process's working directory: the server changes into its data
// directory. Without /proc (or the right to read it) the answer is unknown.
func postmasterState(pid int, dataDir string) procState {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return gone
	}
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// "pid (comm) S ...": the state follows the last ')'.
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			return gone
		}
	}
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
	if err != nil {
		return unknown
	}
	want := dataDir
	if real, err := filepath.EvalSymlinks(dataDir); err == nil {
		want = real
	}
	if cwd == want {
		return running
	}
	return gone
}

func removeFile(name string) error {
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("pgcluster: %w", err)
	}
	return nil
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// readFrom returns the file's contents from offset on, at most 64 KiB.
func readFrom(name string, offset int64) string {
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size()-offset > 64<<10 {
		offset = fi.Size() - 64<<10
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(f)
	return string(b)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
