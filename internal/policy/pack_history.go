package policy

import "strings"

// historyRules extend core.git: every command that rewrites history or
// throws work away is recorded (audit) even on a clean tree; where work
// would be lost it asks.
func historyRules() []Rule {
	return []Rule{
		cmdRule("core.git:history", Audit, "History rewrites and discards, recorded even on a clean tree (commit --amend, rebase, filter-branch/filter-repo, reset to a ref, checkout <ref> -- path, restore --source, stash drop/clear, branch -f, tag -d, worktree remove --force, push --mirror/--delete/--force/+refspec)", []string{"git", "git-filter-repo"},
			func(e *Env, c *Cmd) string {
				if c.Name == "git-filter-repo" {
					return "rewrites history: git filter-repo"
				}
				if why := historyOp(c); why != "" {
					return why + ": git " + strings.Join(c.Args, " ")
				}
				return ""
			},
			[]string{"git commit --amend --no-edit", "git rebase -i HEAD~3", "git filter-branch --tree-filter 'rm -f x' HEAD", "git reset HEAD~2", "git tag -d v1.0", "git push --force-with-lease origin feat", "git branch -f main HEAD~1", "git stash drop"},
			[]string{"git commit -m x", "git status", "git log --oneline", "git push origin feat", "git reset", "git tag v1.1"}),
		cmdRule("core.git:push-delete", Ask, "Deleting branches or tags on a remote (push --delete, or a refspec with no source, :branch): others' clones lose them too", []string{"git"},
			func(e *Env, c *Cmd) string {
				if sub(c) != "push" || e.dryRun(c) {
					return ""
				}
				if c.Has("--delete", "-d") && len(c.Pos) > 2 {
					return "deletes " + strings.Join(c.Pos[2:], ", ") + " on the remote " + c.Pos[1]
				}
				for i, r := range c.Pos {
					if i >= 2 && strings.HasPrefix(r, ":") && len(r) > 1 {
						return "deletes " + strings.TrimPrefix(r[1:], "refs/heads/") + " on the remote " + c.Pos[1] + " (a refspec with no source)"
					}
				}
				return ""
			},
			[]string{"git push origin :feature", "git push origin --delete old-branch", "git push upstream :refs/heads/release", "git -C repo push origin :tmp"},
			[]string{"git push origin feature:feature", "git push origin HEAD:feature", "git push origin feature", "git push --dry-run origin :feature"}),
		cmdRule("core.git:lose-work", Ask, "Discards that lose work: worktree remove --force, branch -D, restore or checkout -- path over uncommitted changes, push --mirror", []string{"git"},
			func(e *Env, c *Cmd) string {
				s := sub(c)
				switch {
				case s == "worktree" && c.Sub(1) == "remove" && c.Has("--force", "-f"):
					return "git worktree remove --force deletes the worktree with its uncommitted changes"
				case (s == "branch" && c.Has("-D") || s == "branch" && c.Has("--delete", "-d") && c.Has("--force", "-f")) && !fewNamedBranches(c):
					return "git branch -D deletes the branch even with commits merged nowhere"
				case (s == "filter-branch" || s == "filter-repo") && !c.Has("--analyze", "--dry-run"):
					return "git " + s + " rewrites every commit of the history"
				case s == "reflog" && c.Sub(1) == "expire" && strings.Contains(strings.Join(c.Args, " "), "=now"),
					s == "gc" && strings.Contains(strings.Join(c.Args, " "), "--prune=now"), s == "prune" && !c.Has("-n", "--dry-run"):
					return "git " + s + " destroys the way back to lost commits"
				case s == "update-ref" && c.Has("-d", "--delete"):
					return "git update-ref -d deletes a ref (its commits become unreachable)"
				case s == "update-ref" && len(c.Pos) > 2 && !c.Has("--stdin"):
					// Plumbing for git branch -f: on the checked-out or a
					// protected branch it drops the commits after the target.
					ref := c.Pos[1]
					b := strings.TrimPrefix(ref, "refs/heads/")
					if ref == "HEAD" || strings.HasPrefix(ref, "refs/heads/") && (e.protected(b) || b == e.currentBranch()) {
						return "git update-ref moves " + ref + " to " + c.Pos[2] + ": the commits after it become unreachable"
					}
				case s == "branch" && c.Has("-f", "--force", "-M", "-C") && len(c.Pos) > 1:
					// branch -f main X / branch -M x main: the branch
					// now points elsewhere and its own commits are lost.
					b := c.Pos[1]
					if c.Has("-M", "-C") {
						b = c.Pos[len(c.Pos)-1]
					}
					if e.protected(b) || b == e.currentBranch() {
						return "git branch " + strings.Join(c.Flags, " ") + " moves " + b + " by force: the commits only it held become unreachable"
					}
				case s == "symbolic-ref" && c.Has("-d", "--delete"):
					return "git symbolic-ref -d deletes " + orUnknown(c.Sub(1)) + ": the repository no longer knows its checked-out branch"
				case s == "rm" && (c.Has("-r") && anyPos(c, ".", "*", ":/") || c.Has("-f", "--force")) && !c.Has("--cached", "-n", "--dry-run"):
					// --cached leaves the files on disk, -n only lists them
					if dirty, state := e.Dirty(); dirty {
						return "git rm deletes files with their uncommitted changes: " + state
					}
				case (s == "show" || s == "cat-file") && showOverSource(e, c) != "":
					if dirty, state := e.Dirty(); dirty {
						return "git " + s + " writes another commit's " + showOverSource(e, c) + " over the file itself: " + state
					}
				case s == "push" && c.Has("--prune"):
					return "git push --prune deletes every remote branch that has no local counterpart"
				case s == "push" && c.Has("--mirror"):
					return "git push --mirror makes the remote match exactly: its other branches and tags are deleted"
				case s == "restore" && len(c.Pos) > 1 && !(c.Has("--staged", "-S") && !c.Has("--worktree", "-W")),
					s == "checkout" && len(c.Pos) > 1 && strings.Contains(" "+strings.Join(c.Args, " ")+" ", " -- "):
					if dirty, state := e.Dirty(); dirty {
						return "git " + s + " overwrites files from another commit: " + state
					}
				}
				return ""
			},
			[]string{"git worktree remove --force ../wt", "git restore --source HEAD~3 src/", "git checkout main -- src/app.go", "git push --mirror origin", "git checkout -- README.md", "git restore src/a.go", "git branch -D $(git branch --merged | grep -v main)",
				"git update-ref refs/heads/main HEAD~10", "git update-ref HEAD 4b825dc", "git symbolic-ref -d HEAD", "git branch -f main origin/main~20", "git branch -M spike main", "git show HEAD~2:cmd/main.go > cmd/main.go", "git update-ref --delete refs/heads/main"},
			[]string{"git worktree remove ../wt", "git worktree list", "git restore --staged a.go", "git checkout main", "git push origin main", "git update-ref refs/heads/backup HEAD", "git symbolic-ref HEAD", "git branch -f feature HEAD", "git branch -M old new", "git show HEAD~2:cmd/main.go > /tmp/main.go.orig", "git rm -r --cached .", "git rm -n -rf ."}),
	}
}

// historyOp says how c rewrites history or discards work, or "".
func historyOp(c *Cmd) string {
	s := sub(c)
	// the line joined, for the few cases that read it (most git commands
	// meet this rule): joined there, not for every command
	args := func() string { return " " + strings.Join(c.Args, " ") + " " }
	switch s {
	case "commit":
		if c.Has("--amend") {
			return "amends the last commit"
		}
	case "rebase", "filter-branch", "filter-repo", "replace":
		return "rewrites history"
	case "reset":
		if len(c.Pos) > 1 && (strings.Contains(c.Pos[1], "~") || strings.Contains(c.Pos[1], "^") || strings.HasPrefix(c.Pos[1], "origin/") || strings.Contains(c.Pos[1], "@{")) || c.Has("--hard", "--keep", "--merge") {
			return "moves the branch and drops commits or changes"
		}
	case "checkout":
		if strings.Contains(args(), " -- ") && len(c.Pos) > 2 {
			return "overwrites files from another commit"
		}
	case "restore":
		if c.Has("--source", "-s") || strings.Contains(args(), "--source=") {
			return "overwrites files from another commit"
		}
	case "stash":
		if c.Sub(1) == "drop" || c.Sub(1) == "clear" {
			return "throws stashed work away"
		}
	case "branch":
		if c.Has("-f", "--force", "-D", "-M", "-C") {
			return "moves or deletes a branch by force"
		}
	case "tag":
		if c.Has("-d", "--delete", "-f", "--force") {
			return "deletes or moves a tag"
		}
	case "worktree":
		if c.Sub(1) == "remove" && c.Has("--force", "-f") || c.Sub(1) == "prune" {
			return "removes a worktree"
		}
	case "push":
		if c.Has("--mirror", "--delete", "-d", "--force", "-f", "--force-with-lease", "--force-if-includes", "--prune") || strings.Contains(args(), " +") || strings.Contains(args(), " :") {
			return "rewrites or deletes remote refs"
		}
	case "update-ref":
		if c.Has("-d", "--delete") {
			return "deletes a ref"
		}
		if len(c.Pos) > 2 || c.Has("--stdin") {
			return "moves a ref"
		}
	case "symbolic-ref":
		if c.Has("-d", "--delete") || len(c.Pos) > 2 {
			return "changes or deletes a symbolic ref"
		}
	case "reflog":
		if c.Sub(1) == "expire" || c.Sub(1) == "delete" {
			return "drops reflog entries (the way back)"
		}
	case "gc", "prune":
		if strings.Contains(args(), "--prune=now") || s == "prune" {
			return "prunes unreachable commits for good"
		}
	case "clean":
		if c.Has("-f", "--force") && !c.Has("-n", "--dry-run") {
			return "deletes untracked files"
		}
	}
	return ""
}

// fewNamedBranches: git branch -D of one or two branches the line names
// (recorded by risky.routine:branch-delete; the reflog keeps their
// commits), not a list it computes.
func fewNamedBranches(c *Cmd) bool {
	names := c.Pos[1:]
	if len(names) == 0 || len(names) > 2 {
		return false
	}
	for _, n := range names {
		if strings.ContainsAny(n, "$*?`") || n == "main" || n == "master" {
			return false
		}
	}
	return true
}
