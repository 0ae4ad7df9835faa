package policy

import (
	"strings"
)

// gitCheckoutRules: the forms of git that put files back from the index or
// another commit without the `--` the other rules look for (git checkout
// HEAD a.go, git checkout main a.go b.go, git checkout ./src, git
// checkout --pathspec-from-file=f) and the plumbing that does what
// reset --hard does (git read-tree --reset -u): each overwrites the
// work tree's uncommitted changes to those files. And the repository's
// own record (.git/config, HEAD, index, refs) overwritten or deleted by
// something other than git loses its remotes and settings, a branch or
// the staged work.
func gitCheckoutRules() []Rule {
	return []Rule{
		{
			ID: "core.git:repo-metadata", Mode: Ask, Tools: shellTools,
			Desc: "The project repository's own files (.git/config, HEAD, index, packed-refs, refs/, objects/) overwritten or deleted by something other than git: its remotes and settings, a branch, or the staged work are lost",
			Match: func(e *Env) string {
				if e.F.Project == "" {
					return ""
				}
				gitDir := e.F.Project + "/.git/"
				for _, p := range e.F.Paths {
					if p.Op != OpWrite && p.Op != OpDelete || p.Via == "git" || !strings.HasPrefix(p.Path, gitDir) {
						continue
					}
					rel := strings.TrimPrefix(p.Path, gitDir)
					top, _, _ := strings.Cut(rel, "/")
					switch top {
					case "config", "HEAD", "index", "packed-refs", "refs", "objects", "logs", "shallow", "modules", "worktrees":
						return p.Via + " " + opVerb(p.Op) + " .git/" + rel + ", the repository's own record (git keeps it; edit it with git): " + e.F.Command
					}
				}
				return ""
			},
			Catch: []string{"echo x >.git/config", "cp ~/other.config .git/config", "rm .git/index", "rm -f .git/refs/heads/main", "printf 'ref: refs/heads/x' > .git/HEAD", "truncate -s 0 .git/packed-refs"},
			Allow: []string{"echo '*.log' >> .git/info/exclude", "cat .git/config", "git config user.name x", "rm .git/COMMIT_EDITMSG", "echo x > git/config", "ls .git/refs/heads", "rm .git/index.lock"},
		},
		{
			ID: "core.git:checkout-paths", Mode: Ask, Tools: shellTools, Cmds: []string{"git"},
			Desc: "git checkout of paths without `--` (git checkout HEAD a.go, git checkout main a.go b.go, git checkout ./src, --pathspec-from-file) with uncommitted changes: the files are overwritten from the index or the commit",
			Match: gitDirtyRule(func(c *Cmd) bool {
				return sub(c) == "checkout" && checkoutRestoresPaths(c)
			}, "git checkout overwrites those files' uncommitted changes"),
			Catch: []string{"git checkout HEAD file.txt", "git checkout main a.txt b.txt", "git checkout ./src", "git checkout .gitignore", "git checkout -q origin/main lib/x.py",
				"git checkout HEAD --pathspec-from-file=paths.txt", "git -C sub checkout v1.2 ../README.md", "git checkout --no-quiet main file.txt"},
			Allow: []string{"git checkout main", "git checkout -b new-branch origin/main", "git checkout -bnew-branch", "git checkout --track origin/feature",
				"git checkout --conflict merge main", "git checkout -U3 main", "git checkout --detach v1.2", "git checkout -", "git checkout feature/login", "git checkout --orphan gh-pages main"},
		},
		{
			ID: "core.git:read-tree-reset", Mode: Ask, Tools: shellTools, Cmds: []string{"git"},
			Desc: "git read-tree -u with --reset or -m (the plumbing under reset --hard and checkout) with uncommitted changes: the work tree is overwritten",
			Match: gitDirtyRule(func(c *Cmd) bool {
				return sub(c) == "read-tree" && c.Has("-u") && c.Has("--reset", "-m") && !c.Has("-n", "--dry-run")
			}, "git read-tree -u overwrites the work tree"),
			Catch: []string{"git read-tree --reset -u HEAD", "git read-tree -u --reset HEAD~3", "git read-tree -m -u HEAD origin/main"},
			Allow: []string{"git read-tree HEAD", "git read-tree --prefix=vendor/ -u lib", "git read-tree -n --reset -u HEAD", "git ls-tree HEAD"},
		},
	}
}

// checkoutValueOpts are git checkout's options whose value is the next
// argument; the modes --track and --recurse-submodules may take.
var (
	checkoutValueOpts = map[string]bool{"-b": true, "-B": true, "--orphan": true, "--conflict": true, "--unified": true, "-U": true, "--inter-hunk-context": true}
	checkoutModes     = map[string]bool{"direct": true, "inherit": true, "checkout": true, "on-demand": true}
)

// checkoutRestoresPaths reports whether git checkout c names paths to
// restore without `--`: a path list (--pathspec-from-file), a commit
// followed by paths, or one argument no branch can be (./src, ../x,
// .gitignore: a ref's name never starts with a dot).
func checkoutRestoresPaths(c *Cmd) bool {
	args := c.Args
	for i, a := range args {
		if a == "checkout" {
			args = args[i+1:]
			break
		}
	}
	var pos []string
	creates := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return false // the rules that read `--` judge it
		case a == "--pathspec-from-file" || strings.HasPrefix(a, "--pathspec-from-file="):
			return true
		case checkoutValueOpts[a]:
			creates = creates || a == "-b" || a == "-B" || a == "--orphan"
			i++
		case a == "--track" || a == "-t" || a == "--recurse-submodules":
			if i+1 < len(args) && checkoutModes[args[i+1]] {
				i++
			}
		case strings.HasPrefix(a, "-b") || strings.HasPrefix(a, "-B"):
			creates = true // -bname
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			pos = append(pos, a)
		}
	}
	if creates {
		return false // git checkout -b name start: a new branch at a start point
	}
	if len(pos) > 1 {
		return true
	}
	return len(pos) == 1 && len(pos[0]) > 1 && strings.HasPrefix(pos[0], ".") && pos[0] != ".." && !strings.HasPrefix(pos[0], "..")
}

// gitForce reports whether a git checkout or switch c forces (-f,
// --force, --discard-changes), reading a short-option cluster only up
// to an option that takes the rest as its value: -cfeature and
// -Cfixup name a branch, they do not force.
func gitForce(c *Cmd) bool {
	for _, a := range c.Args {
		switch {
		case a == "--":
			return false
		case a == "--force" || a == "--discard-changes":
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			for _, r := range a[1:] {
				if strings.ContainsRune("cCbBU", r) {
					break
				}
				if r == 'f' {
					return true
				}
			}
		}
	}
	return false
}
