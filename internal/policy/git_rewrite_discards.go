package policy

import "strings"

// Two git commands throw away uncommitted work as surely as git reset
// --hard does, spelled otherwise:
//   - git filter-repo --force: filter-repo refuses a repository that is
//     not a fresh clone, and --force runs it anyway; after rewriting it
//     resets the working tree to the new HEAD (git reset --hard), expires
//     every reflog and prunes (gc --prune=now). With uncommitted changes
//     in the tree they are gone, and so is the old history: deny, as
//     core.git:reset-hard. Without --force it stops at its fresh-clone
//     check here, and any filter-repo or filter-branch still asks
//     (core.git:lose-work); filter-branch refuses a dirty tree itself.
//   - git stash clear: every stash, each someone's uncommitted work, is
//     dropped at once (as git stash list | xargs git stash drop is,
//     core.git:discard-listed). And git stash then git stash drop (or
//     clear) in one line with uncommitted changes stashes the work only
//     to throw it away. A single git stash drop of an older entry still
//     asks (core.git:stash-drop).

// filterRepoForce: git filter-repo run past its fresh-clone check.
func filterRepoForce(c *Cmd) bool {
	return sub(c) == "filter-repo" && c.Has("--force", "-f") && !c.Has("--analyze", "--dry-run", "--help", "-h")
}

func gitRewriteDiscardRules() []Rule {
	return []Rule{
		{
			ID: "core.git:filter-repo-force", Mode: Deny, Tools: shellTools, Cmds: []string{"git"},
			Desc:  "git filter-repo --force with uncommitted changes: past its fresh-clone check it rewrites the history, resets the working tree (git reset --hard) and prunes the old objects",
			Match: gitDirtyRule(filterRepoForce, "git filter-repo --force resets the working tree after the rewrite (git reset --hard) and prunes the old history"),
			Catch: []string{"git filter-repo --path secrets/ --invert-paths --force", "git filter-repo --strip-blobs-bigger-than 50M -f", "git-filter-repo --force --replace-text expr.txt"},
			Allow: []string{"git filter-repo --analyze", "git filter-repo --force --dry-run --path x", "git filter-repo --help", "git status"},
		},
		{
			ID: "core.git:stash-discard", Mode: Deny, Tools: shellTools, Cmds: []string{"git"},
			Desc: "git stash clear (every stash dropped at once), or git stash then git stash drop/clear in one line with uncommitted changes: uncommitted work thrown away",
			Match: func(e *Env) string {
				stashed := false
				for i := range e.F.Commands {
					c := &e.F.Commands[i]
					if c.Name != "git" || sub(c) != "stash" {
						continue
					}
					switch v := c.Sub(1); {
					case v == "clear":
						return "git stash clear drops every stash, the uncommitted work each kept"
					case v == "" || v == "push" || v == "save" || strings.HasPrefix(v, "-"):
						stashed = true
					case v == "drop" && stashed && latestStash(c):
						if dirty, state := e.Dirty(); dirty {
							e.Unsure = strings.HasPrefix(state, "could not check")
							return "git stash then git stash drop: " + state + ", and the line stashes them only to drop them"
						}
					}
				}
				return ""
			},
			Catch: []string{"git stash clear", "bash -c 'git stash clear'", "git stash && git stash drop", "git stash push -u -m tmp; git stash drop stash@{0}"},
			Allow: []string{"git stash", "git stash list", "git stash pop", "git stash drop stash@{3}", "git stash && git pull --rebase && git stash pop"},
		},
	}
}

// latestStash: git stash drop names the newest entry (none, 0, stash@{0}).
func latestStash(c *Cmd) bool {
	if len(c.Pos) < 3 {
		return true
	}
	a := c.Pos[2]
	return a == "0" || a == "stash@{0}"
}
