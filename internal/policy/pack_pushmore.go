package policy

import (
	"strings"
)

// pushMoreRules: what a push does to others' clones beyond one branch —
// tags deleted, many branches deleted at once (a list the line computes,
// a pattern, --prune), a force-push whose branch the line computes — and
// releases: tags pushed, a deploy workflow started, the remote pointed
// somewhere else.
func pushMoreRules() []Rule {
	return []Rule{
		cmdRule("core.git:destroy-recovery", Deny, "Destroying git's way back: reflog expire --expire=now --all with gc --prune=now (or prune) in the same line — commits no branch holds are gone for good", []string{"git"},
			func(e *Env, c *Cmd) string {
				if sub(c) != "gc" && sub(c) != "prune" || e.dryRun(c) {
					return ""
				}
				a := strings.Join(c.Args, " ")
				if sub(c) == "gc" && !strings.Contains(a, "--prune=now") && !strings.Contains(a, "--prune=all") {
					return ""
				}
				for _, r := range e.F.Cmds("git") {
					if r.Sub(0) == "reflog" && r.Sub(1) == "expire" && strings.Contains(strings.Join(r.Args, " "), "=now") {
						return "git reflog expire and " + sub(c) + " in one line destroy every unreachable commit: " + c.String()
					}
				}
				return ""
			},
			[]string{"git reflog expire --expire=now --all && git gc --prune=now --aggressive", "git reflog expire --expire-unreachable=now --all; git prune", "git reflog expire --expire=now --all && git gc --prune=all"},
			[]string{"git gc", "git reflog expire --expire=90.days.ago --all && git gc", "git gc --prune=now"}),
		cmdRule("core.git:push-delete-many", Deny, "Deleting tags, or many branches at once, on a remote: git push origin :refs/tags/v2, --delete $(git branch -r …), --prune with a pattern, a force-push whose branch the line computes", []string{"git"},
			func(e *Env, c *Cmd) string {
				if sub(c) != "push" || e.dryRun(c) || len(c.Pos) < 2 {
					return ""
				}
				refs := c.Pos[2:]
				if c.Has("--prune") && len(refs) > 0 && strings.Contains(strings.Join(refs, " "), "*") {
					return "git push --prune deletes every remote branch the pattern matches that is not here: " + c.String()
				}
				for _, r := range refs {
					switch {
					case strings.HasPrefix(r, ":refs/tags/") || c.Has("--delete", "-d") && (strings.HasPrefix(r, "refs/tags/") || tagLike(r)):
						return "git push deletes the tag " + strings.TrimPrefix(strings.TrimPrefix(r, ":"), "refs/tags/") + " on " + c.Pos[1] + ": a release others use"
					case c.Has("--delete", "-d") && (strings.Contains(r, "$(") || strings.Contains(r, "*") || r == "$INPUT"):
						return "git push deletes branches the line computes (" + r + ") on " + c.Pos[1]
					case (c.Has("--force", "-f") || strings.HasPrefix(r, "+")) && strings.Contains(r, "$("):
						return "git push --force to a branch the line computes (" + r + "): it may be a protected one"
					}
				}
				return ""
			},
			[]string{"git push origin :refs/tags/v2.0.0", "git push --prune origin 'refs/heads/*:refs/heads/*'", "git push origin --delete $(git branch -r | grep -v main | sed 's#origin/##')",
				"git push origin \"$(cat .release-branch)\" --force", "git push origin --delete v1.2.0"},
			[]string{"git push origin :feature", "git push --prune origin", "git push origin feature", "git push origin --delete old-branch", "git push --force-with-lease origin feat"}),
		cmdRule("core.git:release", Ask, "Releasing from git: pushing tags (git push origin v2.0.0, --tags, --follow-tags), starting a deploy workflow (gh workflow run), or pointing a remote at another host (git remote set-url origin https://other.example/…)", []string{"git", "gh", "glab"},
			func(e *Env, c *Cmd) string {
				switch c.Name {
				case "gh":
					if sub(c) == "workflow" && c.Sub(1) == "run" {
						return "gh workflow run starts a workflow (a deploy or a release): " + c.String()
					}
				case "glab":
					if sub(c) == "ci" && (c.Sub(1) == "run" || c.Sub(1) == "trigger") {
						return "glab ci run starts a pipeline: " + c.String()
					}
				case "git":
					if e.dryRun(c) {
						return ""
					}
					if sub(c) == "push" {
						if c.Has("--tags", "--follow-tags") {
							return "git push sends tags (a release): " + c.String()
						}
						for _, r := range c.Pos[min(2, len(c.Pos)):] {
							if tagLike(r) || strings.HasPrefix(r, "refs/tags/") || prefixedVersionTag(r) || createdTag(e, c, r) {
								return "git push sends the tag " + r + " (a release): " + c.String()
							}
						}
						if len(c.Pos) > 2 && !localRemote(c.Pos[1]) {
							for _, r := range c.Pos[2:] {
								if sitePagesBranch(r) {
									return "git push publishes the site branch " + r + " (GitHub Pages serves it): " + c.String()
								}
							}
						}
					}
					if sub(c) == "remote" && c.Sub(1) == "set-url" && len(c.Pos) > 3 && remoteHost(c.Pos[3]) != "" && !knownForge(remoteHost(c.Pos[3])) {
						return "git remote set-url points " + c.Pos[2] + " at " + c.Pos[3] + ": later pushes go there: " + c.String()
					}
				}
				return ""
			},
			[]string{"git push origin v2.0.0", "npm version patch && git push --follow-tags", "gh workflow run deploy.yml -f env=production", "git remote set-url origin https://git.x.example/acme/app.git", "git push --tags", "git push origin gh-pages", "git push -u origin HEAD:gh-pages", "git push origin client-1.42.0", "git push upstream @acme/ui@3.2.1", `git tag -a "v$VER" -m "Release v$VER" && git push origin "v$VER"`},
			[]string{"git push origin feature", "gh workflow list", "git remote set-url origin git@github.com:acme/app.git", "git push origin v2-docs-fix", "git tag v1.0", "git push ../mirror gh-pages", "git push origin gh-pages-draft", "git checkout gh-pages", "git push origin release-1.2", "git push origin fix-1.2.3-crash", "git tag -d old && git push origin main"}),
	}
}

// tagLike: a version tag (v1.2.3, 1.2.0, v2).
func tagLike(r string) bool {
	r = strings.TrimPrefix(r, "v")
	if r == "" || r[0] < '0' || r[0] > '9' {
		return false
	}
	for _, ch := range r {
		if (ch < '0' || ch > '9') && ch != '.' && ch != '-' && ch != '+' && (ch < 'a' || ch > 'z') {
			return false
		}
	}
	return strings.Contains(r, ".") || len(r) <= 3
}

// sitePagesBranch: a push refspec whose destination is the branch a
// forge serves as the project's web site (gh-pages).
func sitePagesBranch(r string) bool {
	r = strings.TrimPrefix(r, "+")
	if i := strings.LastIndexByte(r, ':'); i >= 0 {
		r = r[i+1:]
	}
	r = strings.TrimPrefix(r, "refs/heads/")
	return r == "gh-pages"
}

// localRemote: a push target that is a directory on this machine
// (../mirror, /srv/git/site.git, file://…), not a forge.
func localRemote(r string) bool {
	return strings.HasPrefix(r, "/") || strings.HasPrefix(r, "./") || strings.HasPrefix(r, "../") || strings.HasPrefix(r, "file://") || strings.HasPrefix(r, "~/")
}

// prefixedVersionTag: a monorepo's release tag, a package or component
// name then a full version (client-1.42.0, api/v2.3.0, @acme/ui@3.2.1);
// a branch named for a minor line (release-1.2) is not one.
func prefixedVersionTag(r string) bool {
	if featureBranch(r) {
		return false
	}
	i := strings.LastIndexAny(r, "-/@")
	if i <= 0 || i == len(r)-1 {
		return false
	}
	v := strings.TrimPrefix(r[i+1:], "v")
	if strings.Count(v, ".") != 2 {
		return false
	}
	for _, p := range strings.Split(v, ".") {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// featureBranchPrefixes: the conventional names of a change's own branch
// (chore/bump-ingress-nginx-4.10.1, deps/…, renovate/…): a version in
// such a name is the dependency it bumps, not a release being tagged.
var featureBranchPrefixes = []string{"chore/", "feat/", "feature/", "features/", "fix/", "bugfix/", "docs/", "refactor/", "test/", "tests/", "ci/", "build/", "perf/", "style/", "deps/", "dependabot/", "renovate/", "bump/", "update/", "upgrade/", "wip/", "dev/", "topic/"}

func featureBranch(r string) bool {
	r = strings.TrimPrefix(strings.TrimPrefix(r, "+"), "refs/heads/")
	if i := strings.LastIndexByte(r, ':'); i >= 0 {
		r = strings.TrimPrefix(r[i+1:], "refs/heads/")
	}
	for _, p := range featureBranchPrefixes {
		if strings.HasPrefix(r, p) {
			return true
		}
	}
	return false
}
