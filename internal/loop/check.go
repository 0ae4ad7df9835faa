package loop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/reqenv"
)

// checkTimeout bounds one check command; the Stop hook's own deadline
// (ctx) bounds them all.
const checkTimeout = 60 * time.Second

// outputTail is how much of a failing check's output Claude is shown.
const outputTail = 1500

// RunChecks runs every check command with `sh -c` in dir, with the
// caller's environment (a hook server runs many callers), and returns one
// entry per check that failed: the command, its exit status and the tail
// of its output. A check that cannot finish before ctx's deadline counts
// as failed (the work is not shown to be done).
func RunChecks(ctx context.Context, caller *reqenv.Env, dir string, checks []string) []string {
	var missing []string
	for _, c := range checks {
		if ok, detail := runCheck(ctx, caller, dir, c); !ok {
			missing = append(missing, fmt.Sprintf("check `%s` %s", c, detail))
		}
	}
	return missing
}

func runCheck(ctx context.Context, caller *reqenv.Env, dir, command string) (bool, string) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	cmd := caller.Command(ctx, "sh", []string{"-c", command})
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	setGroup(cmd) // the whole process group is killed at the deadline
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	if err == nil {
		return true, ""
	}
	detail := "failed"
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		detail = "did not finish in time"
	case errors.As(err, &ee):
		detail = fmt.Sprintf("exited %d", ee.ExitCode())
	default:
		detail = "could not run: " + err.Error()
	}
	if tail := strings.TrimSpace(tailOf(out.String(), outputTail)); tail != "" {
		detail += ":\n" + tail
	}
	return false, detail
}

func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return "…" + s
}
