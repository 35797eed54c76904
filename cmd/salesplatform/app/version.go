package app

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// versionCmd is `salesplatform version`: the module's path and version, the
// VCS commit it was built from (with "dirty" when the work tree had changes)
// and the Go version, as runtime/debug.ReadBuildInfo tells them. A binary
// built with -buildvcs=false (or outside a repository) knows no commit.
func versionCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
			fmt.Fprintln(stdout, "usage: salesplatform version\n\nprints the module version and VCS commit this binary was built from; no flags.")
			return errHelp
		}
		fmt.Fprintln(stderr, "usage: salesplatform version (no arguments)")
		return errUsage
	}
	fmt.Fprintln(stdout, versionString())
	return nil
}

// versionString is one line: "salesplatform (devel) commit 0123abcd… (2026-11-24T01:00:00Z) dirty go1.26.8".
func versionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "salesplatform (no build information) " + runtime.Version()
	}
	path, version := info.Main.Path, info.Main.Version
	if path == "" {
		path = "salesplatform"
	}
	if version == "" {
		version = "(devel)"
	}
	var revision, when string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	line := path + " " + version
	if revision == "" {
		line += " commit unknown (built without VCS information)"
	} else {
		line += " commit " + revision
		if when != "" {
			line += " (" + when + ")"
		}
		if dirty {
			line += " dirty"
		}
	}
	return line + " " + info.GoVersion
}
