package policy

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// The home directory's own shape: what the user's dotfiles hold and who
// may enter it. An archive from the network or a scratch directory
// unpacked over home itself or a config directory replaces the user's
// dotfiles with a stranger's (start-up files, ssh config, git hooks):
// denied (one from the project asks, core.zones:extract-over). A
// permission change that takes the owner's own access away from home,
// its config or its keys (chmod 000 ~, chmod -R u-rwx ~/.config) locks
// the user out of their own account: denied.

// foreignArchive names where the archive c unpacks comes from when that
// is the network (a fetcher upstream) or a scratch directory.
func foreignArchive(e *Env, c *Cmd) string {
	for _, u := range c.Upstream {
		switch u {
		case "curl", "wget", "aria2c", "iwr", "invoke-webrequest", "http", "xh", "nc", "ncat", "socat":
			return u
		}
	}
	cands := append([]string(nil), c.Pos...)
	if p, ok := strings.CutPrefix(c.Stdin, "< "); ok {
		cands = append(cands, p)
	}
	for i, a := range c.Args {
		if (a == "-f" || a == "--file") && i+1 < len(c.Args) {
			cands = append(cands, c.Args[i+1])
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "f") && i+1 < len(c.Args) {
			cands = append(cands, c.Args[i+1]) // tar -xzf FILE
		}
	}
	for _, p := range cands {
		if !strings.Contains(p, "/") {
			continue
		}
		if callfacts.ZoneOf(e.abs(c, p), e.F.Home, e.F.Project) == callfacts.ZoneTemp {
			return p
		}
	}
	return ""
}

func extractForeignRule() Rule {
	return Rule{ID: "core.zones:extract-foreign", Mode: Deny, Tools: shellTools, Cmds: slices.Sorted(maps.Keys(extractors)),
		Desc: "Unpacking an archive fetched from the network or taken from a scratch directory over home itself or a config directory in it (curl … | tar -xz -C ~, tar --overwrite -xzf /tmp/dotfiles.tgz -C ~, cd ~ && cpio -idmu < /tmp/x.cpio): the user's dotfiles are replaced by a stranger's",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				d := extractDir(e, c)
				if d == "" || c.Name == "cp" || c.Name == "rsync" || c.Name == "ditto" {
					continue
				}
				if d != e.F.Home && !(callfacts.ZoneOf(d, e.F.Home, e.F.Project) == callfacts.ZoneHomeConfig && path.Dir(d) == e.F.Home) {
					continue
				}
				if src := foreignArchive(e, c); src != "" {
					return c.Name + " unpacks an archive from " + src + " over " + homeRel(d, e.F.Home) + ": the user's dotfiles are replaced by files nobody has read"
				}
			}
			return ""
		},
		Catch: []string{"tar --overwrite -xzf /tmp/dotfiles.tgz -C ~", "curl -sL https://dl.example.net/dots.tgz | tar -xz -C ~", "cd ~ && cpio -idmu < /tmp/restore.cpio",
			"wget -qO- https://x.example/cfg.tgz | tar xz -C ~/.config", "unzip -o /tmp/profile.zip -d ~"},
		Allow: []string{"tar -xzf dotfiles.tgz -C ./backup", "tar -xzf /tmp/x.tgz -C ./vendor", "curl -sL https://x.example/a.tgz | tar -xz -C ./third_party", "tar -tzf /tmp/dotfiles.tgz", "unzip /tmp/x.zip -d ~/Downloads/x"}}
}

// lockout reports whether a chmod takes the owner's own access away:
// mode 000 (or 0xx), u-rwx, u=, a-rwx, a=.
func lockout(c *Cmd) bool {
	if c.Name != "chmod" || len(c.Pos) == 0 {
		return false
	}
	m := c.Pos[0]
	if m != "" && strings.Trim(m, "01234567") == "" {
		owner := m[0]
		if len(m) == 4 {
			owner = m[1]
		}
		return len(m) >= 3 && (owner == '0' || owner == '1' || owner == '2' || owner == '3')
	}
	for _, cl := range strings.Split(m, ",") {
		if i := strings.IndexAny(cl, "-="); i >= 0 && strings.ContainsAny(cl[:i], "ua") || cl == "=" {
			rest := cl[i+1:]
			if cl[i] == '=' && !strings.ContainsAny(rest, "rx") || cl[i] == '-' && strings.ContainsAny(rest, "rx") {
				return true
			}
		}
	}
	return false
}

func lockoutRule() Rule {
	return Rule{ID: "core.zones:home-lockout", Mode: Deny, Tools: shellTools, Cmds: []string{"chmod"},
		Desc: "Taking the owner's own access away from home, its config or its keys (chmod 000 ~, chmod -R u-rwx ~/.config, chmod 000 ~/.ssh): the user is locked out of their own account, shells and tools fail",
		Match: func(e *Env) string {
			for _, c := range e.F.Cmds("chmod") {
				if !lockout(c) {
					continue
				}
				for _, t := range c.Targets {
					z := callfacts.ZoneOf(t, e.F.Home, e.F.Project)
					if t == e.F.Home || (z == callfacts.ZoneHomeConfig || z == callfacts.ZoneCredentials) && path.Dir(t) == e.F.Home {
						return "chmod takes the owner's own access away from " + homeRel(t, e.F.Home) + ": " + c.String()
					}
				}
			}
			return ""
		},
		Catch: []string{"chmod 000 ~", "chmod 000 ~/.config", "chmod -R u-rwx ~/.ssh", "chmod 0000 $HOME", "chmod a= ~/.local"},
		Allow: []string{"chmod 700 ~/.ssh", "chmod 600 ~/.ssh/id_ed25519", "chmod 000 ./secret-test-fixture", "chmod go-rwx ~/.ssh", "chmod -R u+w ~/.config", "chmod 000 ~/Downloads/x.sh"}}
}

// linkedConfigRule: a config directory, start-up file or key of the
// user's replaced by a link into a scratch directory (ln -sfn /tmp/cfg
// ~/.config/nvim): every later program reading its config reads what
// anyone can write there.
func linkedConfigRule() Rule {
	return Rule{ID: "core.zones:config-link-scratch", Mode: Deny, Tools: shellTools, Cmds: []string{"ln"},
		Desc: "Replacing a config directory, start-up file or key of the user's with a link into a scratch directory (ln -sfn /tmp/cfg ~/.config/nvim, ln -sf /dev/shm/.b ~/.bashrc): every later program loads config anyone can write",
		Match: func(e *Env) string {
			for _, c := range e.F.Cmds("ln") {
				if !c.Has("-s", "--symbolic") || len(c.Pos) != 2 {
					continue
				}
				target, link := e.abs(c, c.Pos[0]), e.abs(c, c.Pos[1])
				if callfacts.ZoneOf(target, e.F.Home, e.F.Project) != callfacts.ZoneTemp {
					continue
				}
				switch callfacts.ZoneOf(link, e.F.Home, e.F.Project) {
				case callfacts.ZoneHomeConfig, callfacts.ZoneCredentials, callfacts.ZoneAgent, callfacts.ZoneWarden:
					return "ln makes " + homeRel(link, e.F.Home) + " a link to " + target + ", a scratch directory anyone can write"
				}
			}
			return ""
		},
		Catch: []string{"ln -sfn /tmp/cfg ~/.config/nvim", "ln -sf /dev/shm/.b ~/.bashrc", "ln -s /tmp/k ~/.ssh/authorized_keys", "ln -sfn /var/tmp/.g ~/.gitconfig"},
		Allow: []string{"ln -sfn ~/dotfiles/nvim ~/.config/nvim", "ln -s /tmp/build ./out", "ln -sf ~/.config/nvim /tmp/nvim-link", "ln -s /tmp/x.sock ~/proj/x.sock"}}
}
