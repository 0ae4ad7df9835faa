// Package sibling names warden's binaries and finds one of them beside
// the running one. warden ships as three programs that install side by
// side: the front Claude Code starts for every hook (warden), the command
// tree and hook runtime (warden-core), and the helper that carries the
// heavy dependencies (warden-helper: the daemon, the MCP server, the LLM
// judges, PostgreSQL, OAuth polling). Each finds the others here.
//
// The front links this package, so it imports only errors, os and
// path/filepath (internal/hookclient's deps test checks the list).
package sibling

import (
	"errors"
	"os"
	"path/filepath"
)

// The three binaries.
const (
	// Front is what Claude Code starts for every hook and what users type.
	Front = "warden"
	// Core holds the command tree, the hook runtime and the store keeper.
	Core = "warden-core"
	// Helper holds what the hook path must never link: net/http servers,
	// TLS, Prometheus, the MCP and Anthropic SDKs, pgx, image encoding.
	Helper = "warden-helper"
)

// All are the binaries an install puts side by side, front first.
var All = []string{Front, Core, Helper}

// Retired are binaries earlier versions installed beside warden, whose
// commands warden-helper now runs (`warden-helper judge|serve|mcp`);
// install removes them.
var Retired = []string{"warden-judge", "warden-serve", "warden-mcp"}

// MissingError says a binary is neither beside the running one nor on
// PATH, and how to put it there.
type MissingError struct {
	Name string // the binary looked for
	Self string // the running binary ("" when unknown)
}

func (e *MissingError) Error() string {
	where := "next to warden"
	if e.Self != "" {
		where = "next to " + e.Self
	}
	if goRun(e.Self) {
		// go run builds only the package it is given, into a temporary
		// folder: the siblings are never beside it
		return e.Name + " is missing " + where + " and on PATH: `go run ./cmd/warden` builds the front alone; build all three with `make build` and run bin/warden (or `go build -o DIR/ ./cmd/...`)"
	}
	return e.Name + " is missing " + where + " and on PATH; build them with `make build`, or reinstall with `make install`"
}

// goRun: self is a binary `go run` built (GOTMPDIR/go-buildNNN/bNNN/exe/NAME).
// The front imports no strings package (see the package comment), so the
// prefix is matched by hand.
func goRun(self string) bool {
	exe := filepath.Dir(self)
	build := filepath.Base(filepath.Dir(filepath.Dir(exe)))
	const prefix = "go-build"
	return filepath.Base(exe) == "exe" && len(build) > len(prefix) && build[:len(prefix)] == prefix
}

// Find returns the binary name beside the running executable (symlinks
// resolved, so a link to the installed warden finds its siblings), else
// the first executable called name in an absolute directory of $PATH:
// `go install …/cmd/...@latest` puts all the binaries in GOBIN, and a
// packager may split them across directories.
func Find(name string) (string, error) { return FindOnPath(name, os.Getenv("PATH")) }

// FindOnPath is Find with the PATH list to fall back on (a hook runs for a
// caller whose PATH is not this process's).
func FindOnPath(name, pathList string) (string, error) {
	self, err := os.Executable()
	if err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		if p := filepath.Join(filepath.Dir(self), name); IsExecutable(p) {
			return p, nil
		}
	} else {
		self = ""
	}
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // "" and relative entries mean the working directory: never for a sibling
		}
		if p := filepath.Join(dir, name); IsExecutable(p) {
			return p, nil
		}
	}
	return "", &MissingError{Name: name, Self: self}
}

// IsMissing reports whether err is Find's "not found".
func IsMissing(err error) bool {
	var m *MissingError
	return errors.As(err, &m)
}

// IsExecutable reports whether p is a regular file someone may execute.
func IsExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
