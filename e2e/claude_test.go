package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// claudeVersion is the Claude Code release the suite is pinned to. The
// protocol reference (shared/reference/claude-code-hooks.md) describes it.
const claudeVersion = "2.1.330"

// claudePackage is the npm package that ships the CLI.
const claudePackage = "@anthropic-ai/claude-code"

var (
	claudeOnce sync.Once
	claudeBin  string
	claudeErr  error // why the CLI is not available (nil when it is)
)

// inCI reports whether the suite runs in CI, where a missing CLI is a
// failure rather than a reason to skip.
func inCI() bool {
	v := strings.ToLower(os.Getenv("CI"))
	return v == "true" || v == "1"
}

// cacheRoot is where the pinned CLI is installed: $WARDEN_E2E_CACHE, else
// $XDG_CACHE_HOME/warden-e2e, else ~/.cache/warden-e2e.
func cacheRoot() (string, error) {
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

// requireClaude returns the path of the pinned claude executable, installing
// it on first use. Without node/npm or when the install fails, the test is
// skipped, or failed under CI=true.
func requireClaude(t *testing.T) string {
	t.Helper()
	claudeOnce.Do(func() { claudeBin, claudeErr = ensureClaude() })
	if claudeErr != nil {
		if inCI() {
			t.Fatalf("Claude Code %s is required in CI: %v", claudeVersion, claudeErr)
		}
		t.Skipf("Claude Code %s not available: %v", claudeVersion, claudeErr)
	}
	return claudeBin
}

// ensureClaude installs Claude Code into <cache>/claude-code-<version> unless
// a working copy is already there, under a file lock so parallel test
// processes (go test ./... runs packages in parallel; several checkouts may
// share the cache) install it once.
func ensureClaude() (string, error) {
	root, err := cacheRoot()
	if err != nil {
		return "", err
	}
	prefix := filepath.Join(root, "claude-code-"+claudeVersion)
	bin := filepath.Join(prefix, "node_modules", ".bin", "claude")
	if claudeWorks(bin) == nil { // fast path, no lock
		return bin, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("create cache %s: %w", root, err)
	}
	unlock, err := lockFile(filepath.Join(root, "claude-code-"+claudeVersion+".lock"))
	if err != nil {
		return "", fmt.Errorf("lock the cache: %w", err)
	}
	defer unlock()
	if claudeWorks(bin) == nil { // another process installed it meanwhile
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
			"(Debian/Ubuntu: apt-get install -y nodejs npm), or put %s %s into %s yourself",
			strings.Join(missing, " and "), claudePackage, claudeVersion, prefix)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund",
		"--prefix", prefix, claudePackage+"@"+claudeVersion)
	cmd.Dir = root
	cmd.Stdin = nil
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("npm install --prefix %s %s@%s failed (%v):\n%s",
			prefix, claudePackage, claudeVersion, err, tail(out, 2000))
	}
	werr := claudeWorks(bin)
	if werr != nil {
		// The package's postinstall copies the native executable from the
		// optional platform package over bin/claude.exe; npm run with
		// --ignore-scripts leaves the placeholder. Run it ourselves once.
		script := filepath.Join(prefix, "node_modules", "@anthropic-ai", "claude-code", "install.cjs")
		if _, serr := os.Stat(script); serr == nil {
			pc := exec.CommandContext(ctx, "node", script)
			pc.Dir = filepath.Dir(script)
			if pout, perr := pc.CombinedOutput(); perr != nil {
				werr = fmt.Errorf("%v; postinstall (node install.cjs) failed: %v: %s", werr, perr, tail(pout, 1000))
			} else {
				werr = claudeWorks(bin)
			}
		}
	}
	if werr != nil {
		return "", fmt.Errorf("installed %s@%s into %s but it does not run: %v "+
			"(it needs the optional platform package %s-<os>-<arch>: do not pass --omit=optional "+
			"or --ignore-scripts to npm); npm said:\n%s",
			claudePackage, claudeVersion, prefix, werr, claudePackage, tail(out, 1000))
	}
	fmt.Fprintf(os.Stderr, "e2e: installed Claude Code %s into %s in %.1fs\n",
		claudeVersion, prefix, time.Since(start).Seconds())
	return bin, nil
}

// claudeWorks runs `claude --version` and checks it is the pinned release.
// For 2.1.330 this runs the native executable from the platform package.
func claudeWorks(bin string) error {
	if _, err := os.Stat(bin); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = append(os.Environ(), "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s --version: %v: %s", bin, err, tail(out, 500))
	}
	if !bytes.HasPrefix(bytes.TrimSpace(out), []byte(claudeVersion+" ")) {
		return errors.New(bin + " --version printed " + strings.TrimSpace(string(out)) + ", want " + claudeVersion)
	}
	return nil
}

// tail returns the last n bytes of b as a string.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
