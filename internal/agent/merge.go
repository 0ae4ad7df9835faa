package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Merging a task's branch into its base in the project's repository
// (warden task merge). Nothing is touched until everything that could
// make the merge go wrong is known:
//
//   - the conflicts, from `git merge-tree --write-tree`, which merges in
//     the object store only: a conflicting merge is refused with the
//     files named and the repository exactly as it was;
//   - the base's checkout, when the base is checked out somewhere (the
//     project directory, usually): its uncommitted or untracked files
//     that the merge would change are named and the merge refused, and
//     a merge or rebase already in progress there refuses too.
//
// Then the base is checked out: `git merge --no-ff` runs there (aborted
// if it fails after all, leaving it as it was); not checked out: the
// merge commit is made from merge-tree's tree and the branch moved to it
// only if it still points where it did (update-ref with the old value).

// MergeOptions says what to merge.
type MergeOptions struct {
	Project string // the project's top-level directory
	Branch  string // the task's branch
	Base    string // the branch to merge into
	Message string // the merge commit's message
	DryRun  bool   // say what would happen, change nothing
}

// MergeResult is what a merge did (or, dry, would do).
type MergeResult struct {
	Branch  string   `json:"branch"`
	Base    string   `json:"base"`
	Commits []string `json:"commits"` // the branch's commits not in base, oldest first
	Files   []string `json:"files"`   // what the merge changes
	// Checkout is the worktree where base is checked out ("" when none):
	// the merge runs there, so its files are updated.
	Checkout string `json:"checkout,omitempty"`
	// Commit is the merge commit on base (empty when dry).
	Commit string `json:"commit,omitempty"`
	DryRun bool   `json:"dry_run,omitempty"`
}

// MergeRefusal is a merge that cannot be done as things are; nothing
// was changed. Files names what stands in the way (conflicts, local
// changes).
type MergeRefusal struct {
	Msg   string
	Files []string
}

func (r *MergeRefusal) Error() string { return r.Msg }

// MergeBranch merges o.Branch into o.Base (see the comment above).
func MergeBranch(ctx context.Context, o MergeOptions) (*MergeResult, error) {
	res := &MergeResult{Branch: o.Branch, Base: o.Base, DryRun: o.DryRun}
	top := o.Project
	for _, b := range []string{o.Branch, o.Base} {
		if !gitOK(ctx, top, "rev-parse", "--verify", "--quiet", "refs/heads/"+b) {
			return nil, &MergeRefusal{Msg: fmt.Sprintf("branch %s does not exist in %s (deleted, or renamed?): nothing to merge", b, top)}
		}
	}
	baseSHA, err := git(ctx, top, "rev-parse", "refs/heads/"+o.Base)
	if err != nil {
		return nil, err
	}
	log, err := git(ctx, top, "log", "--reverse", "--format=%h %s", "refs/heads/"+o.Base+"..refs/heads/"+o.Branch)
	if err != nil {
		return nil, err
	}
	res.Commits = lines(log)
	if len(res.Commits) == 0 {
		return nil, &MergeRefusal{Msg: fmt.Sprintf("%s has every commit of %s already: nothing to merge", o.Base, o.Branch)}
	}
	files, err := git(ctx, top, "diff", "--name-only", "refs/heads/"+o.Base+"...refs/heads/"+o.Branch)
	if err != nil {
		return nil, err
	}
	res.Files = lines(files)

	if res.Checkout, err = checkoutOf(ctx, top, o.Base); err != nil {
		return nil, err
	}
	if res.Checkout != "" {
		if err := checkoutReady(ctx, res.Checkout, o.Base, res.Files); err != nil {
			return nil, err
		}
	}
	tree, conflicts, err := mergeTree(ctx, top, o.Base, o.Branch)
	if err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return nil, &MergeRefusal{Files: conflicts, Msg: fmt.Sprintf("%s does not merge cleanly into %s: conflicts in %s; nothing was changed. Merge by hand (git merge %s), or reply to the task to rebase its work onto %s",
			o.Branch, o.Base, strings.Join(conflicts, ", "), o.Branch, o.Base)}
	}
	if o.DryRun {
		return res, nil
	}

	if res.Checkout != "" {
		if _, err := git(ctx, res.Checkout, "merge", "--no-ff", "--no-edit", "-m", o.Message, "refs/heads/"+o.Branch); err != nil {
			if gitOK(ctx, res.Checkout, "rev-parse", "--verify", "--quiet", "MERGE_HEAD") {
				_, _ = git(context.Background(), res.Checkout, "merge", "--abort")
			}
			return nil, fmt.Errorf("git merge in %s failed, merge aborted: %w", res.Checkout, err)
		}
		res.Commit, err = git(ctx, res.Checkout, "rev-parse", "HEAD")
		return res, err
	}
	commit, err := git(ctx, top, "commit-tree", tree, "-p", baseSHA, "-p", "refs/heads/"+o.Branch, "-m", o.Message)
	if err != nil {
		return nil, err
	}
	if _, err := git(ctx, top, "update-ref", "-m", "warden: merge "+o.Branch, "refs/heads/"+o.Base, commit, baseSHA); err != nil {
		return nil, fmt.Errorf("%s moved while merging (nothing changed; try again): %w", o.Base, err)
	}
	res.Commit = commit
	return res, nil
}

// checkoutOf is the worktree of top's repository that has branch checked
// out, "" when none does.
func checkoutOf(ctx context.Context, top, branch string) (string, error) {
	out, err := git(ctx, top, "worktree", "list", "--porcelain")
	if err != nil {
		return "", err
	}
	dir := ""
	for _, l := range strings.Split(out, "\n") {
		if d, ok := strings.CutPrefix(l, "worktree "); ok {
			dir = d
		} else if l == "branch refs/heads/"+branch {
			return dir, nil
		}
	}
	return "", nil
}

// checkoutReady refuses a checkout of base that a merge would disturb: a
// merge, rebase or cherry-pick in progress, or uncommitted or untracked
// files among those the merge changes (files elsewhere are left alone
// and stay as they are).
func checkoutReady(ctx context.Context, dir, base string, files []string) error {
	for _, ref := range []string{"MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD"} {
		if gitOK(ctx, dir, "rev-parse", "--verify", "--quiet", ref) {
			return &MergeRefusal{Msg: fmt.Sprintf("%s (where %s is checked out) is in the middle of a %s: finish or abort it first",
				dir, base, strings.ToLower(strings.TrimSuffix(ref, "_HEAD")))}
		}
	}
	// Porcelain v2: every entry starts with its kind, never a space
	// (which git's trimmed output would lose).
	out, err := git(ctx, dir, "status", "--porcelain=v2", "--untracked-files=all", "-z")
	if err != nil {
		return err
	}
	var touched []string
	entries := strings.Split(out, "\x00")
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		// The path follows this many space-separated fields.
		path := ""
		if n, ok := map[string]int{"1": 8, "2": 9, "u": 10, "?": 1}[e[:min(1, len(e))]]; ok {
			if f := strings.SplitN(e, " ", n+1); len(f) == n+1 {
				path = f[n]
			}
			if e[0] == '2' { // a rename's source follows
				i++
			}
		}
		if path != "" && slices.Contains(files, path) {
			touched = append(touched, path)
		}
	}
	if len(touched) > 0 {
		return &MergeRefusal{Files: touched, Msg: fmt.Sprintf("%s (where %s is checked out) has uncommitted changes the merge would touch: %s; commit or stash them first, nothing was changed",
			dir, base, strings.Join(touched, ", "))}
	}
	return nil
}

// mergeTree merges branch into base in the object store only: the merged
// tree, or the conflicting files.
func mergeTree(ctx context.Context, top, base, branch string) (tree string, conflicts []string, err error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "merge-tree", "--write-tree", "--name-only", "--no-messages",
		"refs/heads/"+base, "refs/heads/"+branch)
	cmd.Dir = top
	cmd.Env = append(cmd.Environ(), "LC_ALL=C")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	ls := lines(out.String())
	var ee *exec.ExitError
	switch {
	case err == nil && len(ls) > 0:
		return ls[0], nil, nil
	case errors.As(err, &ee) && ee.ExitCode() == 1 && len(ls) > 0:
		for _, f := range ls[1:] {
			if !slices.Contains(conflicts, f) {
				conflicts = append(conflicts, f)
			}
		}
		return ls[0], conflicts, nil
	}
	return "", nil, fmt.Errorf("git merge-tree %s %s (in %s): %v: %s (git 2.38 or newer is needed)", base, branch, filepath.Base(top), err, strings.TrimSpace(errb.String()))
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
