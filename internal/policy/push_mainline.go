package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A push to main or master publishes to the line everyone builds, deploys
// and branches from: CI releases it, a host that deploys on push ships it,
// and a commit there cannot be taken back without a rewrite others
// notice. So it asks, whoever the remote is (origin, upstream, a
// publishing service's remote such as overleaf), when the line names main
// or master as the destination (git push origin main, HEAD:main,
// refs/heads/master, jj git push --bookmark main, git subtree push … main)
// or pushes the current branch (a bare git push, git push origin, git
// push origin HEAD) while main or master is checked out — read from
// .git/HEAD (githead.go), in the directory the push runs in. Feature
// and topic branches stay the author's routine (release and other shared
// lines: core.git:push-shared, push_shared.go); a dry run (-n,
// --dry-run), tags (core.git:release), force pushes and deletions
// (core.git:push-force, which deny) and a push into a directory on this
// machine (../mirror) are judged elsewhere or not at all.

// mainlineBranch: the branches a push to which publishes the shared line.
func mainlineBranch(b string) bool { return b == "main" || b == "master" }

// gitPushValued: git push's options that take the next word as value.
var gitPushValued = map[string]bool{"-o": true, "--push-option": true, "--repo": true, "--receive-pack": true, "--exec": true}

// elsewhereRunners run git against a checkout that is not the one here:
// inside a container, or a dotfiles manager's own repository.
var elsewhereRunners = map[string]bool{"docker": true, "podman": true, "nerdctl": true, "docker-compose": true, "podman-compose": true, "lxc": true, "incus": true, "distrobox": true, "toolbox": true, "yadm": true, "vcsh": true}

// dotfilesGit: git run by a dotfiles manager (yadm push, vcsh REPO
// push): the user's own dotfiles repository, not a line a team shares.
func dotfilesGit(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if w == "yadm" || w == "vcsh" || strings.HasPrefix(w, "yadm ") || strings.HasPrefix(w, "vcsh ") {
			return true
		}
	}
	return false
}

// branchIn is the branch checked out where c runs: the call's own cwd is
// read once per call (currentBranch), another directory (cd lib && …,
// git -C lib …) on its own. A command run in another host's shell or a
// container has no branch here to read ("").
func (e *Env) branchIn(c *Cmd) string {
	if callfacts.InRemoteShell(c) {
		return ""
	}
	for _, w := range c.Wrappers {
		if f := strings.Fields(w); len(f) > 0 && elsewhereRunners[f[0]] {
			return ""
		}
	}
	if c.Dir == "" || c.Dir == e.F.Cwd {
		return e.currentBranch()
	}
	if e.gitBranch == nil {
		return ""
	}
	return e.gitBranch(e.ctx, c.Dir)
}

// gitPushWords splits a git push's words into its positional operands
// (the remote, then refspecs) and the options among gitPushKinds it
// carries; ok false when c is not a push.
func gitPushWords(c *Cmd) (pos []string, kinds map[string]bool, ok bool) {
	args := c.Args
	for len(args) > 0 && args[0] != "push" {
		args = args[1:]
	}
	if len(args) == 0 {
		return nil, nil, false
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case gitPushValued[a]:
			i++
		case gitPushKinds[a]:
			if kinds == nil {
				kinds = map[string]bool{}
			}
			kinds[a] = true
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			pos = append(pos, a)
		}
	}
	return pos, kinds, true
}

// gitPushKinds: git push's options that change what it sends — tags
// (core.git:release), a mirror, deletions, prunes and every branch (the
// force and delete rules).
var gitPushKinds = map[string]bool{"--tags": true, "--follow-tags": true, "--mirror": true, "--delete": true, "-d": true, "--prune": true, "--all": true, "--branches": true}

// gitPushMainline returns the mainline branch a git push sends to ("").
func gitPushMainline(e *Env, c *Cmd) string {
	pos, kinds, ok := gitPushWords(c)
	if !ok || kinds["--mirror"] || kinds["--delete"] || kinds["-d"] || kinds["--prune"] {
		return "" // a mirror, a delete or a prune rewrites or removes (the force and delete rules)
	}
	tags := kinds["--tags"] // tags are a release (core.git:release)
	if len(pos) > 0 && localRemote(pos[0]) {
		return "" // a clone on this machine: nobody else's line
	}
	if len(pos) <= 1 {
		if tags {
			return "" // git push --tags sends tags only
		}
		if b := e.branchIn(c); mainlineBranch(b) {
			return b + " (the branch checked out)"
		}
		return ""
	}
	for _, r := range pos[1:] {
		src, dst := r, r
		if i := strings.LastIndexByte(r, ':'); i >= 0 {
			src, dst = r[:i], r[i+1:]
			if src == "" {
				continue // a deletion (core.git:push-force, push-delete-many)
			}
		}
		dst = strings.TrimPrefix(dst, "refs/heads/")
		if dst == "HEAD" || dst == "@" {
			if b := e.branchIn(c); mainlineBranch(b) {
				return b + " (the branch checked out)"
			}
			continue
		}
		if mainlineBranch(dst) {
			return dst
		}
	}
	return ""
}

// jjPushMainline returns the mainline bookmark jj git push sends ("").
func jjPushMainline(c *Cmd) string {
	args := c.Args
	for i, a := range args {
		var v string
		switch {
		case (a == "-b" || a == "--bookmark" || a == "--branch") && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--bookmark="), strings.HasPrefix(a, "--branch="):
			_, v, _ = strings.Cut(a, "=")
		default:
			continue
		}
		v = strings.TrimPrefix(strings.Trim(v, `"'`), "exact:")
		if mainlineBranch(v) {
			return v
		}
	}
	return ""
}

func pushMainlineRule() Rule {
	return cmdRule("core.git:push-mainline", Ask, "A push to main or master — named as the destination (git push origin main, HEAD:master, jj git push --bookmark main, git subtree push … main) or the branch checked out when the push names none (git push, git push origin, git push origin HEAD) — publishes to the line everyone builds and deploys from; feature, topic and release branches (those: core.git:push-shared), dry runs and pushes into a clone on this machine stay routine; force pushes and deletions have their deny rules", []string{"git", "jj"},
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Name == "git" && sub(c) == "push" && c.Has("-n") {
				return "" // git push -n is git push --dry-run
			}
			if forcePush(c) || dotfilesGit(c) {
				return "" // a force push is judged by core.git:push-force and force-push-plain
			}
			b := ""
			switch {
			case c.Name == "git" && sub(c) == "push":
				b = gitPushMainline(e, c)
			case c.Name == "git" && sub(c) == "subtree" && c.Sub(1) == "push" && len(c.Pos) >= 4:
				r := c.Pos[len(c.Pos)-1]
				if mainlineBranch(strings.TrimPrefix(r[strings.LastIndexByte(r, ':')+1:], "refs/heads/")) && !localRemote(c.Pos[len(c.Pos)-2]) {
					b = r
				}
			case c.Name == "jj" && sub(c) == "git" && c.Sub(1) == "push":
				b = jjPushMainline(c)
			}
			if b == "" {
				return ""
			}
			return "the push publishes to " + b + ", the shared line others build and deploy from: " + c.String()
		},
		[]string{"git push origin main", "git push overleaf master", "git push", "git push -u origin HEAD", "git push origin HEAD:refs/heads/main", "jj git push --bookmark main", "GIT_SSH_COMMAND='ssh -i ~/.ssh/id_deploy' git push origin master", "git subtree push --prefix dist origin main", "cd ../lib && git push origin"},
		[]string{"git push origin feature/x", "git push --dry-run origin main", "git push -n origin master", "git push origin main:feature/main-sync", "git push ../mirror main", "jj git push --bookmark feature-x", "git push origin release/2.4", "git push --tags", "git push origin --delete old", "git pull origin main"})
}
