package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Removed says what RemoveWorktree did.
type Removed struct {
	// Archive is the .tar.gz holding the uncommitted changes, "" when the
	// tree was clean.
	Archive string `json:"archive,omitempty"`
}

// RemoveWorktree ends a task's worktree: uncommitted changes are archived
// to <archives>/<task>.tar.gz first (a failed archive stops the removal,
// so work is never lost), then the worktree is removed and pruned. The
// branch warden/<task> stays until the user merges or deletes it. A
// worktree already gone is pruned and not an error.
func RemoveWorktree(ctx context.Context, wt *Worktree, archives string) (Removed, error) {
	var res Removed
	if _, err := os.Stat(wt.Dir); err == nil {
		dst := filepath.Join(archives, wt.Task+".tar.gz")
		any, err := Archive(ctx, wt.Dir, dst)
		if err != nil {
			return res, fmt.Errorf("worktree %s kept: %w", wt.Dir, err)
		}
		if any {
			res.Archive = dst
		}
		if _, err := git(ctx, wt.Project, "worktree", "remove", "--force", wt.Dir); err != nil {
			// A worktree git no longer knows (its .git file broken) is
			// removed by hand; prune forgets it below.
			if rerr := os.RemoveAll(wt.Dir); rerr != nil {
				return res, errors.Join(err, rerr)
			}
		}
	} else if !os.IsNotExist(err) {
		return res, err
	}
	if _, err := git(ctx, wt.Project, "worktree", "prune"); err != nil {
		return res, err
	}
	_ = os.Remove(filepath.Dir(wt.Dir)) // the project's directory, once empty
	return res, nil
}
