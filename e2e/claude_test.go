package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// claudeVersion is the Claude Code release the suite is pinned to. The
// protocol reference (shared/reference/claude-code-hooks.md) describes it.
const claudeVersion = "2.1.330"

// claudeCode is the npm package that ships the CLI, installed into
// <cache>/claude-code-<version> (testenv.CacheRoot: ~/.cache/warden-e2e).
var claudeCode = testenv.NPMTool{
	Name:    "Claude Code",
	Package: "@anthropic-ai/claude-code",
	Version: claudeVersion,
	Dir:     "claude-code",
	Bin:     "claude",
	Works:   claudeWorks,
	// The package's postinstall copies the native executable from the
	// optional platform package over bin/claude.exe; npm run with
	// --ignore-scripts leaves the placeholder.
	Postinstall: "install.cjs",
}

// requireClaude returns the path of the pinned claude executable, installing
// it on first use. Without node/npm or when the install fails, the test is
// skipped, or failed under CI=true.
func requireClaude(t *testing.T) string {
	t.Helper()
	return claudeCode.Require(t)
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
		return fmt.Errorf("%s --version: %v: %s", bin, err, testenv.Tail(out, 500))
	}
	if !bytes.HasPrefix(bytes.TrimSpace(out), []byte(claudeVersion+" ")) {
		return errors.New(bin + " --version printed " + strings.TrimSpace(string(out)) + ", want " + claudeVersion)
	}
	return nil
}
