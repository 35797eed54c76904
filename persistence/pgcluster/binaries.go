package pgcluster

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ErrNotFound is returned, wrapped in an error that says what to do, when
// the PostgreSQL server binaries cannot be found.
var ErrNotFound = errors.New("pgcluster: PostgreSQL server binaries not found")

// serverRoot holds one bin directory per installed major version on Debian
// and Ubuntu (postgresql-NN packages). Tests point it elsewhere.
var serverRoot = "/usr/lib/postgresql"

// serverBinaries must all live in one directory: initdb and pg_ctl find
// postgres next to themselves.
var serverBinaries = []string{"initdb", "pg_ctl", "postgres"}

// FindBinDir returns the directory holding initdb, pg_ctl and postgres,
// searching PATH, then `pg_config --bindir`, then
// /usr/lib/postgresql/*/bin from the highest major version down. The error
// wraps ErrNotFound when none holds them.
func FindBinDir() (string, error) {
	return findBinDir("")
}

func findBinDir(override string) (string, error) {
	if override != "" {
		if hasServerBinaries(override) {
			return override, nil
		}
		return "", fmt.Errorf("%w in %s (Options.BinDir): it must hold %s",
			ErrNotFound, override, strings.Join(serverBinaries, ", "))
	}

	// PATH entries are often symlinks (/usr/local/bin/pg_ctl ->
	// /usr/lib/postgresql/15/bin/pg_ctl): use the directory they point into.
	for _, name := range serverBinaries[:2] {
		if p, err := exec.LookPath(name); err == nil {
			if real, err := filepath.EvalSymlinks(p); err == nil && hasServerBinaries(filepath.Dir(real)) {
				return filepath.Dir(real), nil
			}
		}
	}

	if p, err := exec.LookPath("pg_config"); err == nil {
		if out, err := exec.Command(p, "--bindir").Output(); err == nil {
			if dir := strings.TrimSpace(string(out)); dir != "" && hasServerBinaries(dir) {
				return dir, nil
			}
		}
	}

	dirs, _ := filepath.Glob(filepath.Join(serverRoot, "*", "bin"))
	slices.SortFunc(dirs, func(a, b string) int {
		return compareVersions(filepath.Base(filepath.Dir(b)), filepath.Base(filepath.Dir(a)))
	})
	for _, dir := range dirs {
		if hasServerBinaries(dir) {
			return dir, nil
		}
	}

	return "", fmt.Errorf("%w: initdb and pg_ctl are not in PATH, `pg_config --bindir` or %s/*/bin: "+
		"install the PostgreSQL server (Debian/Ubuntu: apt-get install postgresql) or use an existing server",
		ErrNotFound, serverRoot)
}

func hasServerBinaries(dir string) bool {
	for _, name := range serverBinaries {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			return false
		}
	}
	return true
}

// compareVersions orders "9.6" < "15" < "17": numerically, part by part.
func compareVersions(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(pa), len(pb)) {
		var na, nb int
		if i < len(pa) {
			na, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			nb, _ = strconv.Atoi(pb[i])
		}
		if na != nb {
			return na - nb
		}
	}
	return strings.Compare(a, b)
}
