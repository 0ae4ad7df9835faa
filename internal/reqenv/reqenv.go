// Package reqenv is the caller of one request as a value: its environment,
// working directory, umask and time zone. The resident hook server answers
// many callers at once in one process, so nothing about a caller may live
// in process-wide state (os.Setenv, os.Chdir, time.Local): it travels in
// the request's context to everything that needs it — paths, config,
// git, the judges' subprocesses, the status line's --wrap command.
//
// Code that runs in a process of its own gets Process(), the process's
// own, so the same functions serve `warden-core hook` and the server.
package reqenv

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Env is one caller. Treat it as immutable once made: goroutines of a
// request share it.
type Env struct {
	// Environ is the caller's environment, KEY=VALUE.
	Environ []string
	// Cwd is the caller's working directory, absolute. The server checks
	// it names the directory the caller is in (its device and inode) and
	// never changes its own: relative paths and children resolve against
	// this value, not the process's directory.
	Cwd string
}

// Process is this process's own environment and working directory, for
// code running in a process of its own.
func Process() *Env {
	cwd, _ := os.Getwd()
	return &Env{Environ: os.Environ(), Cwd: cwd}
}

// Getenv looks key up the way os.Getenv does: the first entry wins.
func (e *Env) Getenv(key string) string {
	v, _ := e.LookupEnv(key)
	return v
}

// LookupEnv is os.LookupEnv on the caller's environment.
func (e *Env) LookupEnv(key string) (string, bool) {
	if e == nil {
		return os.LookupEnv(key)
	}
	for _, kv := range e.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// Abs makes p absolute against the caller's working directory.
func (e *Env) Abs(p string) string {
	if p == "" || filepath.IsAbs(p) || e == nil || e.Cwd == "" {
		return p
	}
	return filepath.Join(e.Cwd, p)
}

// With adds more variables (KEY=VALUE) after the caller's, for a child:
// later entries win in a child's environment (os/exec dedups keeping the
// last).
func (e *Env) With(kv ...string) []string {
	out := make([]string, 0, len(e.Environ)+len(kv))
	out = append(out, e.Environ...)
	return append(out, kv...)
}

// LookPath finds a program the way a shell of the caller would: on the
// caller's PATH, relative to the caller's directory.
func (e *Env) LookPath(file string) (string, error) {
	if e == nil {
		return exec.LookPath(file)
	}
	if strings.Contains(file, "/") {
		p := e.Abs(file)
		if isExec(p) {
			return p, nil
		}
		return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
	}
	for _, dir := range filepath.SplitList(e.Getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		if p := e.Abs(filepath.Join(dir, file)); isExec(p) {
			return p, nil
		}
	}
	return "", &exec.Error{Name: file, Err: exec.ErrNotFound}
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// Command is exec.CommandContext for the caller: the program found on the
// caller's PATH, run in the caller's directory with the caller's
// environment (and extra, KEY=VALUE, on top).
func (e *Env) Command(ctx context.Context, name string, args []string, extra ...string) *exec.Cmd {
	bin, err := e.LookPath(name)
	if err != nil {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Err = err
		if errors.Is(err, exec.ErrNotFound) {
			cmd.Err = &exec.Error{Name: name, Err: exec.ErrNotFound}
		}
		return cmd
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = e.Cwd
	cmd.Env = e.With(extra...)
	return cmd
}

type ctxKey struct{}

// Into returns ctx carrying e.
func Into(ctx context.Context, e *Env) context.Context {
	return context.WithValue(ctx, ctxKey{}, e)
}

// From is the caller ctx carries, else this process (Process()).
func From(ctx context.Context) *Env {
	if ctx != nil {
		if e, ok := ctx.Value(ctxKey{}).(*Env); ok && e != nil {
			return e
		}
	}
	return Process()
}

// Getenv is From(ctx).Getenv(key) without building Process() for a
// context that carries no caller.
func Getenv(ctx context.Context, key string) string {
	if ctx != nil {
		if e, ok := ctx.Value(ctxKey{}).(*Env); ok && e != nil {
			return e.Getenv(key)
		}
	}
	return os.Getenv(key)
}
