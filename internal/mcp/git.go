package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"
)

// gitTimeout bounds one git command that only reads or writes locally; a
// push gets pushTimeout (it talks to a remote).
const (
	gitTimeout  = 30 * time.Second
	pushTimeout = 2 * time.Minute
)

// gitResult is one git run: its output and exit code.
type gitResult struct {
	Stdout, Stderr string
	Code           int
}

// git runs git in dir with a deadline. err is set only when git could not
// run or ran out of time; a non-zero exit is in Code.
func git(ctx context.Context, dir string, timeout time.Duration, stdin string, args ...string) (gitResult, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	// Never wait on a credential prompt or an editor: a tool has no terminal.
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_EDITOR=true", "GIT_ASKPASS=", "SSH_ASKPASS=")
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	r := gitResult{Stdout: out.String(), Stderr: errb.String()}
	if ctx.Err() != nil {
		return r, fmt.Errorf("git %s: no answer within %v", strings.Join(args, " "), timeout)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.Code = ee.ExitCode()
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return r, nil
}

// gitOK runs git and turns a non-zero exit into an error carrying stderr.
func gitOK(ctx context.Context, dir string, args ...string) (string, error) {
	r, err := git(ctx, dir, gitTimeout, "", args...)
	if err != nil {
		return "", err
	}
	if r.Code != 0 {
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), firstLine(r.Stderr))
	}
	return r.Stdout, nil
}

// repoRoot is the top of the git work tree holding dir, or an error that
// says dir is not in one.
func repoRoot(ctx context.Context, dir string) (string, error) {
	out, err := gitOK(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s is not inside a git repository", dir)
	}
	return strings.TrimSpace(out), nil
}

// currentBranch is the checked-out branch; "" on a detached HEAD.
func currentBranch(ctx context.Context, dir string) (string, error) {
	r, err := git(ctx, dir, gitTimeout, "", "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil {
		return "", err
	}
	if r.Code != 0 {
		return "", nil
	}
	return strings.TrimSpace(r.Stdout), nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return clip(s, 300)
}

// clip shortens s to n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// tailText keeps the last n bytes of s (the end of a test run's output is
// where the failures and the summary are).
func tailText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := len(s) - n
	for cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut++
	}
	return "…" + s[cut:]
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// lazyRE compiles a regular expression on first use: warden-helper mcp starts
// with every Claude Code session, and most of its expressions serve one
// tool that may never be called.
func lazyRE(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
