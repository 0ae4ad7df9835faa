package agent

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// gitTimeout bounds one git command; a fetch gets fetchTimeout.
const (
	gitTimeout   = 30 * time.Second
	fetchTimeout = 60 * time.Second
)

// git runs git in dir and returns its trimmed stdout. The error names the
// command, the directory and what git printed, so a failed task says why.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	return gitTimed(ctx, gitTimeout, dir, args...)
}

func gitTimed(ctx context.Context, d time.Duration, dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	// Never stop for credentials or an editor: nobody is there to answer.
	cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_EDITOR=true", "GIT_ASKPASS=true", "LC_ALL=C")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		if ctx.Err() == context.DeadlineExceeded {
			msg = fmt.Sprintf("no answer within %v", d)
		}
		return "", fmt.Errorf("git %s (in %s): %v: %s", strings.Join(args, " "), dir, err, msg)
	}
	return strings.TrimSpace(out.String()), nil
}

// gitOK reports whether a git command succeeds (for questions such as
// "does this ref exist").
func gitOK(ctx context.Context, dir string, args ...string) bool {
	_, err := git(ctx, dir, args...)
	return err == nil
}
