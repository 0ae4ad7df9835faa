package agent

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Stat is what a task's branch holds past its base.
type Stat struct {
	Commits    int `json:"commits"`
	Files      int `json:"files"`
	Insertions int `json:"insertions"`
	Deletions  int `json:"deletions"`
}

func (s Stat) String() string {
	return fmt.Sprintf("%d commit(s), %d file(s) changed, +%d -%d", s.Commits, s.Files, s.Insertions, s.Deletions)
}

// BranchStat counts the commits and the diff of branch past base in the
// project's repository (the worktree may be gone; the branch stays).
func BranchStat(ctx context.Context, project, base, branch string) (Stat, error) {
	var s Stat
	n, err := git(ctx, project, "rev-list", "--count", base+".."+branch)
	if err != nil {
		return s, err
	}
	s.Commits, _ = strconv.Atoi(n)
	out, err := git(ctx, project, "diff", "--numstat", base, branch)
	if err != nil {
		return s, err
	}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		s.Files++
		add, _ := strconv.Atoi(f[0]) // "-" for binary files counts 0
		del, _ := strconv.Atoi(f[1])
		s.Insertions += add
		s.Deletions += del
	}
	return s, nil
}
