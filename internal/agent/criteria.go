package agent

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// criterionTimeout bounds a run: criterion (a test suite, say).
const criterionTimeout = 5 * time.Minute

// CheckCriteria checks the criteria of a task that stopped, in its
// worktree; it returns what is not met ("" when all are). Criteria warden
// can check itself:
//
//   - committed   the branch has at least one commit past the base
//   - clean       no uncommitted changes
//   - run:CMD     the shell command CMD exits 0 in the worktree
//
// Any other criterion is prose for the completion judge (tempo, when on),
// which is told it at every Stop from the worktree's task.json and had
// its say when it let the Stop through.
func CheckCriteria(ctx context.Context, dir, baseCommit string, criteria []string) string {
	var unmet []string
	for _, c := range criteria {
		c = strings.TrimSpace(c)
		switch {
		case c == "committed":
			n, err := git(ctx, dir, "rev-list", "--count", baseCommit+"..HEAD")
			if err != nil {
				unmet = append(unmet, "committed: "+err.Error())
			} else if k, _ := strconv.Atoi(n); k == 0 {
				unmet = append(unmet, "committed: no commit on the branch")
			}
		case c == "clean":
			if changed, err := Uncommitted(ctx, dir); err != nil {
				unmet = append(unmet, "clean: "+err.Error())
			} else if len(changed) > 0 {
				unmet = append(unmet, fmt.Sprintf("clean: %d uncommitted change(s): %s", len(changed), firstLines(strings.Join(changed, "\n"), 3)))
			}
		case strings.HasPrefix(c, "run:"):
			cmdline := strings.TrimSpace(strings.TrimPrefix(c, "run:"))
			cctx, cancel := context.WithTimeout(ctx, criterionTimeout)
			cmd := exec.CommandContext(cctx, "/bin/sh", "-c", cmdline)
			cmd.Dir = dir
			cmd.WaitDelay = 2 * time.Second
			out, err := cmd.CombinedOutput()
			cancel()
			if err != nil {
				unmet = append(unmet, fmt.Sprintf("run: %s: %v: %s", cmdline, err, lastLine(string(out))))
			}
		}
	}
	return strings.Join(unmet, "; ")
}

// GitCriteria are those of criteria a hook may check at Stop: committed
// and clean take a git call each; run:CMD may take minutes.
func GitCriteria(criteria []string) []string {
	var out []string
	for _, c := range criteria {
		if c = strings.TrimSpace(c); c == "committed" || c == "clean" {
			out = append(out, c)
		}
	}
	return out
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
