package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// InCI reports whether the tests run in CI (CI=true or CI=1), where a
// missing tool is a failure rather than a reason to skip.
func InCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v == "true" || v == "1"
}

// CacheRoot is where pinned npm tools are installed: $WARDEN_E2E_CACHE,
// else $XDG_CACHE_HOME/warden-e2e, else ~/.cache/warden-e2e.
func CacheRoot() (string, error) {
	if d := os.Getenv("WARDEN_E2E_CACHE"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "warden-e2e"), nil
	}
	h, err := os.UserHomeDir()
	if err != nil || h == "" {
		return "", fmt.Errorf("no cache directory: set WARDEN_E2E_CACHE (home: %v)", err)
	}
	return filepath.Join(h, ".cache", "warden-e2e"), nil
}

// NPMTool is a pinned npm package with an executable, installed into
// <CacheRoot>/<Dir>-<Version>.
type NPMTool struct {
	Name    string // what messages call it: "Claude Code"
	Package string // the npm package: "@anthropic-ai/claude-code"
	Version string // the pinned release
	Dir     string // the install directory's name before -<Version>
	Bin     string // the executable in node_modules/.bin
	// Works reports whether the executable at bin runs the pinned release.
	Works func(bin string) error
	// Postinstall, if set, is a script in the package's directory that its
	// npm postinstall runs; when the installed copy does not run (npm was
	// told --ignore-scripts), it is run once with node.
	Postinstall string
}

func (p NPMTool) spec() string { return p.Package + "@" + p.Version }

var (
	npmMu       sync.Mutex
	npmInstalls = map[string]func() (string, error){}
)

// Install returns the path of the tool's executable, installing the pinned
// release with npm unless a working copy is in the cache already. It runs
// once per process (a failure too is kept), under a file lock so parallel
// test processes (go test ./... runs packages in parallel; several
// checkouts may share the cache) install it once.
func (p NPMTool) Install() (string, error) {
	npmMu.Lock()
	f, ok := npmInstalls[p.spec()]
	if !ok {
		f = sync.OnceValues(p.install)
		npmInstalls[p.spec()] = f
	}
	npmMu.Unlock()
	return f()
}

// Require is Install for a test: without node and npm, or when the install
// fails, the test is skipped with the reason, or failed under CI=true.
func (p NPMTool) Require(t testing.TB) string {
	t.Helper()
	bin, err := p.Install()
	if err != nil {
		if InCI() {
			t.Fatalf("%s %s is required in CI: %v", p.Name, p.Version, err)
		}
		t.Skipf("%s %s not available: %v", p.Name, p.Version, err)
	}
	return bin
}

func (p NPMTool) install() (string, error) {
	root, err := CacheRoot()
	if err != nil {
		return "", err
	}
	prefix := filepath.Join(root, p.Dir+"-"+p.Version)
	bin := filepath.Join(prefix, "node_modules", ".bin", p.Bin)
	if p.Works(bin) == nil { // fast path, no lock
		return bin, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("create cache %s: %w", root, err)
	}
	unlock, err := lockFile(filepath.Join(root, p.Dir+"-"+p.Version+".lock"))
	if err != nil {
		return "", fmt.Errorf("lock the cache: %w", err)
	}
	defer unlock()
	if p.Works(bin) == nil { // another process installed it meanwhile
		return bin, nil
	}

	var missing []string
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("%s not on PATH; install Node.js 20 or newer with npm "+
			"(Debian/Ubuntu: apt-get install -y nodejs npm), or put %s into %s yourself",
			strings.Join(missing, " and "), p.spec(), prefix)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--prefix", prefix, p.spec())
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("npm install --prefix %s %s failed (%v):\n%s", prefix, p.spec(), err, Tail(out, 2000))
	}
	werr := p.Works(bin)
	if werr != nil && p.Postinstall != "" {
		script := filepath.Join(prefix, "node_modules", filepath.FromSlash(p.Package), p.Postinstall)
		if _, serr := os.Stat(script); serr == nil {
			pc := exec.CommandContext(ctx, "node", script)
			pc.Dir = filepath.Dir(script)
			if pout, perr := pc.CombinedOutput(); perr != nil {
				werr = fmt.Errorf("%v; postinstall (node %s) failed: %v: %s", werr, p.Postinstall, perr, Tail(pout, 1000))
			} else {
				werr = p.Works(bin)
			}
		}
	}
	if werr != nil {
		// The launchers run a native executable from an optional platform
		// package.
		return "", fmt.Errorf("installed %s into %s but it does not run: %v "+
			"(it needs its optional platform package: do not pass --omit=optional "+
			"or --ignore-scripts to npm); npm said:\n%s", p.spec(), prefix, werr, Tail(out, 1000))
	}
	fmt.Fprintf(os.Stderr, "testenv: installed %s %s into %s in %.1fs\n", p.Name, p.Version, prefix, time.Since(start).Seconds())
	return bin, nil
}

// Tail returns the last n bytes of b as a string.
func Tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
