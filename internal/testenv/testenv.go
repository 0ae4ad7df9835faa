// Package testenv is what warden's tests share to run the real programs:
// warden's own binaries, built once per test process, and pinned npm tools
// (Claude Code, ccusage) installed once into a cache. Like Go's own
// internal/testenv it is imported only by _test.go files, never by a
// command, which is why it may import package testing.
package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Module is warden's module path; Build takes the names of its cmd/ packages.
const Module = "github.com/warden-dev/warden"

var (
	buildMu  sync.Mutex
	builds   = map[string]func() (string, error){}
	builtDir []string // every directory Build made, for Cleanup
)

// Build builds Module/cmd/<name> for each name into one new temp directory,
// side by side, and returns the directory (warden finds warden-helper and
// warden-helper next to itself). Each set of names is built once per process
// (a failure too is kept); sets are never mixed, so a lone warden has no
// helper next to it. The error carries go build's output.
//
// warden always comes with warden-core: the front binary runs it for
// everything the keeper does not answer.
func Build(names ...string) (string, error) {
	if slices.Contains(names, "warden") && !slices.Contains(names, "warden-core") {
		names = append(slices.Clone(names), "warden-core")
	}
	key := strings.Join(names, " ")
	buildMu.Lock()
	f, ok := builds[key]
	if !ok {
		f = sync.OnceValues(func() (string, error) { return build(names) })
		builds[key] = f
	}
	buildMu.Unlock()
	return f()
}

func build(names []string) (string, error) {
	dir, err := os.MkdirTemp("", "warden-test-bin-")
	if err != nil {
		return "", err
	}
	buildMu.Lock()
	builtDir = append(builtDir, dir)
	buildMu.Unlock()
	if pre := os.Getenv(BinariesEnv); pre != "" {
		if err := copyPrebuilt(pre, dir, names); err == nil {
			return dir, nil
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, name := range names {
		args := []string{"build", "-o", filepath.Join(dir, name)}
		out, err := exec.CommandContext(ctx, "go", append(args, Module+"/cmd/"+name)...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("go build ./cmd/%s: %v\n%s", name, err, out)
		}
	}
	return dir, nil
}

// BinariesEnv names a directory of binaries `make test` built from this
// tree just before (`make build`), so each test process copies them
// instead of linking its own: linking warden-core once per package that
// runs it was most of the suite's time on a 2-vCPU machine. Each set is
// still a directory of its own holding exactly the names asked for.
const BinariesEnv = "WARDEN_TEST_BINARIES"

func copyPrebuilt(from, to string, names []string) error {
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, name), b, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// Binaries is Build for a test: it fails the test when the build fails.
func Binaries(t testing.TB, names ...string) string {
	t.Helper()
	dir, err := Build(names...)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Binary returns the path of cmd/<name> built alone in its directory
// (warden with its warden-core).
func Binary(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(Binaries(t, name), name)
}

// Cleanup removes what Build built and stops the PostgreSQL server Postgres
// started; a TestMain may call it after m.Run (the server's watchdog stops
// it anyway when the process ends).
func Cleanup() {
	stopSharedPostgres()
	buildMu.Lock()
	defer buildMu.Unlock()
	for _, d := range builtDir {
		os.RemoveAll(d)
	}
	builtDir = nil
}
