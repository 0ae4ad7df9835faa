package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-dev/warden/internal/judge"
)

// CheckIn bounds a check run.
type CheckIn struct {
	TimeoutSeconds int `json:"timeout_seconds,omitempty" jsonschema:"deadline for all commands together, in seconds (at most the configured mcp.check_timeout_ms)"`
}

// CommandRun is one command's outcome.
type CommandRun struct {
	Command    string `json:"command"`
	Passed     bool   `json:"passed"`
	ExitCode   int    `json:"exit_code"`
	TimedOut   bool   `json:"timed_out,omitempty"`
	Skipped    bool   `json:"skipped,omitempty" jsonschema:"not run: the deadline had passed"`
	DurationMS int64  `json:"duration_ms"`
	// Output is the end of what a failed command printed (stdout and
	// stderr together).
	Output string `json:"output,omitempty" jsonschema:"the end of a failed command's output"`
}

// CheckOut is check's answer.
type CheckOut struct {
	Passed   bool         `json:"passed"`
	Source   string       `json:"source" jsonschema:"configured (mcp.check_commands) or detected (from the project's files)"`
	Commands []CommandRun `json:"commands"`
	// Summary is the judge's digest of the failures, else the raw output.
	Summary      string `json:"summary"`
	SummarizedBy string `json:"summarized_by" jsonschema:"the model that summarized the failures, or raw"`
}

// outputKeep is how much of a failed command's output is kept.
const outputKeep = 6000

func (s *server) checkTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{Name: "check", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
		Description: "Run the project's lint and test commands (mcp.check_commands, else detected: go vet/test, npm test, pytest, cargo test, make test) with a deadline; failures are summarized by the judge when a provider exists, else given raw."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in CheckIn) (*sdk.CallToolResult, CheckOut, error) {
			limit := ms(s.o.Config.MCP.CheckTimeoutMS)
			if in.TimeoutSeconds < 0 {
				return nil, CheckOut{}, argError("timeout_seconds", "%d is negative; give seconds > 0", in.TimeoutSeconds)
			}
			if in.TimeoutSeconds > 0 {
				if d := time.Duration(in.TimeoutSeconds) * time.Second; d < limit {
					limit = d
				}
			}
			return nil, s.check(ctx, limit), nil
		})
}

// check runs the configured or detected commands within limit.
func (s *server) check(ctx context.Context, limit time.Duration) CheckOut {
	// Commands run at the top of the repository (where go.mod, package.json
	// … live) even when the server was started in a subdirectory.
	dir := s.o.Dir
	if root, err := repoRoot(ctx, dir); err == nil {
		dir = root
	}
	cmds, source := s.o.Config.MCP.CheckCommands, "configured"
	if len(cmds) == 0 {
		cmds, source = detectChecks(dir), "detected"
	}
	out := CheckOut{Source: source, Commands: []CommandRun{}, Passed: true}
	if len(cmds) == 0 {
		out.Summary = "no lint or test command: none configured (mcp.check_commands) and none detected (no go.mod, package.json with a test script, Python tests, Cargo.toml or Makefile test target)"
		out.SummarizedBy = "raw"
		return out
	}
	deadline := time.Now().Add(limit)
	for _, c := range cmds {
		r := runCheck(ctx, dir, c, deadline)
		out.Passed = out.Passed && r.Passed
		out.Commands = append(out.Commands, r)
	}
	s.summarize(ctx, &out)
	return out
}

// runCheck runs one command with sh -c in its own process group, so a
// deadline kills the test binaries it started too.
func runCheck(ctx context.Context, dir, command string, deadline time.Time) CommandRun {
	r := CommandRun{Command: command}
	if time.Until(deadline) <= 0 {
		r.Skipped, r.ExitCode, r.Output = true, -1, "not run: the check's deadline had passed"
		return r
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = dir
	// No terminal: stdin is /dev/null (watch modes do not start), no
	// colour codes in the output the judge and the agent read. CI is left
	// as it is: suites that behave differently under CI=true should run
	// as the user runs them.
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "TERM=dumb")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err := cmd.Run()
	r.DurationMS = time.Since(start).Milliseconds()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.TimedOut, r.ExitCode = true, -1
		buf.WriteString(fmt.Sprintf("\n[warden: killed at the check's deadline after %v]\n", time.Since(start).Round(time.Millisecond)))
	case errors.As(err, &ee):
		r.ExitCode = ee.ExitCode()
	case err != nil:
		r.ExitCode = -1
		buf.WriteString("\n[warden: " + err.Error() + "]\n")
	}
	r.Passed = err == nil && ctx.Err() == nil
	if !r.Passed {
		r.Output = tailText(strings.TrimSpace(buf.String()), outputKeep)
	}
	return r
}

// detectChecks picks the usual commands from the project's files, in a
// fixed order: vet/lint before tests.
func detectChecks(dir string) []string {
	has := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	var cmds []string
	if has("go.mod") {
		cmds = append(cmds, "go vet ./...", "go test ./...")
	}
	if has("package.json") {
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil && json.Unmarshal(b, &pkg) == nil {
			if _, ok := pkg.Scripts["lint"]; ok {
				cmds = append(cmds, "npm run lint")
			}
			if t, ok := pkg.Scripts["test"]; ok && !strings.Contains(t, "no test specified") {
				cmds = append(cmds, "npm test")
			}
		}
	}
	if has("pytest.ini") || has("pyproject.toml") || has("setup.cfg") || has("tox.ini") || has("conftest.py") ||
		(has("tests") && (has("setup.py") || has("requirements.txt"))) {
		cmds = append(cmds, "python3 -m pytest -q")
	}
	if has("Cargo.toml") {
		cmds = append(cmds, "cargo test")
	}
	if len(cmds) == 0 && has("Makefile") {
		if b, err := os.ReadFile(filepath.Join(dir, "Makefile")); err == nil && bytes.Contains(append([]byte("\n"), b...), []byte("\ntest:")) {
			cmds = append(cmds, "make test")
		}
	}
	return cmds
}

const checkSystem = `You summarize failed lint and test runs for a coding agent. Name each failure: the test or check, the file and line, and the error, one line each, most important first. No advice beyond what the output shows; at most 15 lines.`

// summarize fills Summary: nothing to say when all passed; the judge's
// digest of the failures when a provider answers; else the raw output.
func (s *server) summarize(ctx context.Context, out *CheckOut) {
	var failed []CommandRun
	for _, c := range out.Commands {
		if !c.Passed {
			failed = append(failed, c)
		}
	}
	if len(failed) == 0 {
		out.Summary, out.SummarizedBy = fmt.Sprintf("all %d command(s) passed", len(out.Commands)), "raw"
		return
	}
	var raw strings.Builder
	for _, c := range failed {
		fmt.Fprintf(&raw, "$ %s (exit %d%s)\n%s\n\n", c.Command, c.ExitCode, map[bool]string{true: ", timed out"}[c.TimedOut], c.Output)
	}
	out.Summary, out.SummarizedBy = strings.TrimSpace(raw.String()), "raw"
	a := ask{Judge: "mcp-check", Tier: "haiku", System: checkSystem, Prompt: "Failed commands and the end of their output:\n\n" + raw.String(),
		Deadline: ms(s.o.Config.LLM.TimeoutMS), MaxTokens: 1024}
	text, resp, err := s.complete(ctx, a)
	if err != nil || strings.TrimSpace(text) == "" {
		return
	}
	resp.Verdict = judge.Verdict{Pass: true, Decision: "SUMMARY"}
	s.record(a, resp)
	out.Summary, out.SummarizedBy = strings.TrimSpace(text), resp.Model
}
