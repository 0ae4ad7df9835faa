package policy

import (
	"slices"
	"strings"
)

// listedDiscardRule: a discard fed, through xargs or parallel, the list
// of every changed file or every stash entry that git prints — `git
// ls-files -m | xargs git checkout --`, `git status --porcelain | awk
// '{print $2}' | xargs git restore`, `git stash list | cut -d: -f1 |
// xargs -n1 git stash drop`. Per file or per entry the prompt reads as a
// small restore; over the whole list it is `git checkout -- .` or `git
// stash clear`: every uncommitted change (every stash) is gone, and no
// commit or reflog keeps it. A list narrowed by a pathspec or a filter
// between the stages (grep) picks some files, which core.git:lose-work
// already weighs (ask).
func listedDiscardRule() Rule {
	return Rule{ID: "core.git:discard-listed", Mode: Deny, Tools: shellTools, Cmds: []string{"git"},
		Desc: "A git discard (checkout --, restore, stash drop) fed by xargs or parallel the list of every changed file (git ls-files -m, git status --porcelain, git diff --name-only) or every stash entry (git stash list): the whole tree's uncommitted work, or every stash, thrown away",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if c.Name != "git" || len(c.Upstream) == 0 || c.Upstream[0] != "git" || !viaListRunner(c) {
					continue
				}
				kind := listedDiscardKind(c)
				if kind == "" {
					continue
				}
				src := listingSource(e, i)
				if src == nil || narrowedBetween(e, src, i) {
					continue // a filter between the stages picks some of them
				}
				lists := gitListsChanged(src)
				if kind == "stash" {
					lists = gitListsStashes(src)
				}
				if !lists {
					continue
				}
				if kind == "tree" {
					if dirty, state := e.Dirty(); !dirty {
						continue
					} else {
						e.Unsure = strings.HasPrefix(state, "could not check")
					}
					return "git " + strings.Join(src.Args, " ") + " lists every changed file, and " + strings.Join(append([]string{"git"}, c.Args...), " ") + " restores each: every uncommitted change is discarded, as git checkout -- . does"
				}
				return "git " + strings.Join(src.Args, " ") + " lists every stash, and " + strings.Join(append([]string{"git"}, c.Args...), " ") + " drops each: all stashed work is thrown away, as git stash clear does"
			}
			return ""
		},
		Catch: []string{
			"git ls-files -m | xargs git checkout --",
			"git diff --name-only | xargs git checkout HEAD --",
			"git status -s | awk '{print $2}' | xargs -r git restore --worktree",
			"git ls-files --modified -z | xargs -0 git restore",
			"git stash list --format=%gd | xargs -n1 git stash drop",
			"git diff --name-only | parallel git checkout -- {}",
		},
		Allow: []string{
			"git ls-files -m | xargs git add",
			"git diff --name-only | xargs gofmt -l",
			"git ls-files -m | grep '\\.orig$' | xargs git checkout --",
			"git diff --name-only -- vendor/ | xargs git checkout --",
			"git status --porcelain | awk '{print $2}' | xargs git restore --staged",
			"git stash list | head -1 | cut -d: -f1 | xargs git stash show -p",
		}}
}

// viaListRunner: c was run by xargs or GNU parallel.
func viaListRunner(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "xargs") || strings.HasPrefix(w, "parallel") {
			return true
		}
	}
	return false
}

// listedDiscardKind: "tree" when c restores files of the work tree from
// the index or a commit (checkout [REV] -- …, restore without --staged
// only), "stash" for stash drop, "" otherwise.
func listedDiscardKind(c *Cmd) string {
	switch sub(c) {
	case "checkout":
		if slices.Contains(c.Args, "--") || gitForce(c) {
			return "tree"
		}
	case "restore":
		if c.Has("--staged", "-S") && !c.Has("--worktree", "-W") {
			return ""
		}
		return "tree"
	case "stash":
		if c.Sub(1) == "drop" {
			return "stash"
		}
	}
	return ""
}

// listingSource is the git command at the head of command i's pipeline:
// the nearest earlier git command at the same depth not itself run by
// xargs.
func listingSource(e *Env, i int) *Cmd {
	c := &e.F.Commands[i]
	for j := i - 1; j >= 0; j-- {
		p := &e.F.Commands[j]
		if p.Depth != c.Depth || p.Name != "git" || viaListRunner(p) {
			continue
		}
		return p
	}
	return nil
}

// gitListsChanged: src prints every changed file of the tree — ls-files
// -m, status --porcelain/-s, diff --name-only against the index or HEAD
// — with no pathspec narrowing it.
func gitListsChanged(src *Cmd) bool {
	pos := src.Pos
	if len(pos) == 0 {
		return false
	}
	rest := pos[1:]
	switch pos[0] {
	case "ls-files":
		return len(rest) == 0 && src.Has("-m", "--modified")
	case "status":
		return len(rest) == 0 && src.Has("--porcelain", "-s", "--short")
	case "diff":
		if !src.Has("--name-only", "--name-status") || src.Has("--cached", "--staged") || slices.Contains(src.Args, "--") {
			return false
		}
		return len(rest) == 0 || len(rest) == 1 && rest[0] == "HEAD"
	}
	return false
}

// gitListsStashes: src prints every stash entry (git stash list, no
// count limit).
func gitListsStashes(src *Cmd) bool {
	return len(src.Pos) >= 2 && src.Pos[0] == "stash" && src.Pos[1] == "list" && !src.Has("-n", "--max-count", "-1")
}

// narrowedBetween: a stage between src and command i keeps only some of
// the lines it reads (grep, head, sed -n, an awk program with a
// pattern): what follows it gets part of the list.
func narrowedBetween(e *Env, src *Cmd, i int) bool {
	past := false
	for k := 0; k < i; k++ {
		p := &e.F.Commands[k]
		if p == src {
			past = true
			continue
		}
		if !past || p.Depth != src.Depth {
			continue
		}
		switch p.Name {
		case "grep", "egrep", "fgrep", "rg", "head", "tail", "fzf", "sk", "shuf":
			return true
		case "sed", "gsed":
			if p.Has("-n", "--quiet", "--silent") {
				return true
			}
		case "awk", "gawk", "mawk":
			for _, a := range p.Pos {
				if strings.Contains(a, "{") && !strings.HasPrefix(strings.TrimSpace(a), "{") {
					return true // awk '$1=="M" {print $2}': only some lines
				}
			}
		}
	}
	return false
}
