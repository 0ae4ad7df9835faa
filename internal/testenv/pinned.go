package testenv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The npm tools the suite runs, each pinned to one release. They live here,
// not in the test files that use them, so that `make test-deps`
// (scripts/test-deps.sh → go run ./internal/testenv/pinnedtools) installs
// them into the cache once, before any test starts, instead of a test
// spending minutes in npm under the go test timeout.

// ClaudeCodeVersion is the Claude Code release the e2e suite is pinned to.
// The protocol reference (shared/reference/claude-code-hooks.md)
// describes it.
const ClaudeCodeVersion = "2.1.330"

// CopilotVersion is the pinned Copilot CLI release.
const CopilotVersion = "1.0.102"

// CcusageVersion is the ccusage release warden's session and blocks
// reports must agree with (shared/reference/usage-counting.md).
const CcusageVersion = "20.0.24"

var (
	// ClaudeCode ships the CLI, installed into <cache>/claude-code-<version>.
	ClaudeCode = NPMTool{
		Name:    "Claude Code",
		Package: "@anthropic-ai/claude-code",
		Version: ClaudeCodeVersion,
		Dir:     "claude-code",
		Bin:     "claude",
		Works:   claudeWorks,
		// The package's postinstall copies the native executable from the
		// optional platform package over bin/claude.exe; npm run with
		// --ignore-scripts leaves the placeholder.
		Postinstall: "install.cjs",
	}
	// The other agent CLIs (shared/reference/other-agent-clis.md).
	CodexCLI = NPMTool{Name: "Codex CLI", Package: "@openai/codex", Version: "0.171.0",
		Dir: "codex", Bin: "codex", Works: versionWorks("codex-cli 0.171.0")}
	GeminiCLI = NPMTool{Name: "Gemini CLI", Package: "@google/gemini-cli", Version: "0.61.0",
		Dir: "gemini-cli", Bin: "gemini", Works: versionWorks("0.61.0")}
	CopilotCLI = NPMTool{Name: "Copilot CLI", Package: "@github/copilot", Version: CopilotVersion,
		Dir: "copilot", Bin: "copilot", Works: versionWorks("GitHub Copilot CLI " + CopilotVersion)}
	// Ccusage is what internal/usage's reports are compared with.
	Ccusage = NPMTool{Name: "ccusage", Package: "ccusage", Version: CcusageVersion,
		Dir: "ccusage", Bin: "ccusage", Works: versionWorks("ccusage " + CcusageVersion)}
)

// PinnedTools are every pinned tool, in the order test-deps reports them.
var PinnedTools = []*NPMTool{&ClaudeCode, &CodexCLI, &GeminiCLI, &CopilotCLI, &Ccusage}

// CopilotCache is where Copilot's executable unpacks its 235 MB package on
// first run ($XDG_CACHE_HOME/copilot): shared by every test home, and
// filled by the install's first `--version`.
func CopilotCache() string {
	root, _ := CacheRoot()
	return filepath.Join(root, "copilot-"+CopilotVersion, "xdg-cache")
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
		return fmt.Errorf("%s --version: %v: %s", bin, err, Tail(out, 500))
	}
	if !bytes.HasPrefix(bytes.TrimSpace(out), []byte(ClaudeCodeVersion+" ")) {
		return errors.New(bin + " --version printed " + strings.TrimSpace(string(out)) + ", want " + ClaudeCodeVersion)
	}
	return nil
}

// versionWorks checks that a line of `BIN --version` starts with want.
func versionWorks(want string) func(string) error {
	return func(bin string) error {
		if _, err := os.Stat(bin); err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "--version")
		cmd.Env = append(os.Environ(), "COPILOT_AUTO_UPDATE=false", "XDG_CACHE_HOME="+CopilotCache(), "NO_COLOR=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s --version: %v: %s", bin, err, Tail(out, 500))
		}
		// Codex may print a warning line first (its PATH aliases refused
		// under a temporary directory, as test homes are), ccusage a
		// banner: any line will do.
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), want) {
				return nil
			}
		}
		return errors.New(bin + " --version printed " + strings.TrimSpace(string(out)) + ", want " + want)
	}
}
