package policy

import (
	"strings"
)

// A push publishes commits to a remote others read. To a branch whose
// name marks it as one piece of work in progress — feature/…, fix/…,
// chore/…, wip/…, a bot's renovate/… — it is the author's routine: that
// branch is theirs until a review merges it. To a branch named as a line
// others ship from (release/2.1, hotfix/…, staging, develop, stable, an
// LTS or maintenance line, an edition) it publishes to everyone who
// builds from that line, so a person confirms. A name that is neither
// (qc-limits-update) stays allowed: most are someone's topic branch, and
// asking on every push would teach people to click through. main and master have
// their own rule (core.git:push-mainline), tags theirs (core.git:release),
// force pushes and deletions theirs; a dry run, a push into a clone on
// this machine and a branch held in a variable the line does not set stay
// allowed.

// workPrefixes: besides topicPrefixes (maintbranch.go), the words a
// work-in-progress branch name starts with (followed by /, - or _, or
// alone): bots' dependency branches, review and task branches.
var workPrefixes = map[string]bool{"features": true, "fixes": true, "bugs": true, "chores": true, "topics": true, "deps": true, "dep": true, "renovate": true, "dependabot": true,
	"perf": true, "ci": true, "build": true, "style": true, "experiments": true, "review": true, "improvement": true, "enhancement": true, "task": true,
	"issue": true, "story": true, "cleanup": true, "temp": true, "work": true, "pr": true, "patch": true}

// topicBranch reports whether a branch name marks one piece of work in
// progress.
func topicBranch(b string) bool {
	w := strings.ToLower(b)
	if i := strings.IndexAny(w, "/-_"); i >= 0 {
		w = w[:i]
	}
	return topicPrefixes[w] || workPrefixes[w]
}

// gitPushSharedBranch returns the first branch a git push publishes that
// is named as a shared line and not as work in progress ("").
func gitPushSharedBranch(c *Cmd) string {
	pos, kinds, ok := gitPushWords(c)
	if !ok || len(kinds) > 0 {
		return "" // tags, mirrors, deletions and prunes have rules of their own
	}
	if len(pos) < 2 || localRemote(pos[0]) {
		return ""
	}
	for _, r := range pos[1:] {
		if strings.ContainsAny(r, "$`*") || strings.HasPrefix(r, "+") {
			continue // unknown, a pattern, or a force (core.git:push-force)
		}
		dst := r
		if i := strings.LastIndexByte(r, ':'); i >= 0 {
			if r[:i] == "" {
				continue // a deletion
			}
			dst = r[i+1:]
		}
		if strings.HasPrefix(dst, "refs/") && !strings.HasPrefix(dst, "refs/heads/") {
			continue // tags, notes, review refs: judged elsewhere
		}
		dst = strings.TrimPrefix(dst, "refs/heads/")
		if dst == "" || dst == "HEAD" || dst == "@" || mainlineBranch(dst) || topicBranch(dst) || !sharedLine(dst) {
			continue
		}
		return dst
	}
	return ""
}

func pushSharedRule() Rule {
	return cmdRule("core.git:push-shared", Ask, "A push to a branch named as a line others ship from (release/2.1, hotfix/…, staging, develop, stable, an LTS line, an edition) publishes to everyone who builds from it; feature/, fix/, chore/, wip/ and similar work branches (whatever words follow), names with no shared-line word, dry runs, pushes into a clone on this machine and a branch held in an unset variable stay routine", []string{"git"},
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || sub(c) != "push" || c.Has("-n") || c.Has("--dry-run") || forcePush(c) || dotfilesGit(c) {
				return ""
			}
			b := gitPushSharedBranch(c)
			if b == "" {
				return ""
			}
			return "git push publishes the branch " + b + ", a line others ship from: " + c.String()
		},
		[]string{"git push origin release/2.1", "git push upstream stable", "git push origin hotfix/rtg-collision-zone", "git push -u origin edition-2024", "git push origin HEAD:refs/heads/release-7"},
		[]string{"git push origin feature/x", "git push -u origin fix/cve-1", "git push origin chore/bump-deps", "git push --dry-run origin release/2.1", "git push ../mirror release/2.1", "git push origin \"$BRANCH\"", "git push origin wip", "git push origin qc-limits-update", "git push origin main:feature/main-sync"})
}

// sharedLine: a branch name with a word of a line others ship from.
func sharedLine(b string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(b), func(r rune) bool { return r == '/' || r == '-' || r == '_' || r == '.' }) {
		switch w {
		case "release", "releases", "hotfix", "hotfixes", "prod", "production", "live", "deploy", "stable", "lts", "staging", "develop", "development", "trunk", "next", "edition", "maint", "maintenance":
			return true
		}
	}
	return false
}
