package policy

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// extractOverRule: an archive unpacked, or a tree copied, into the top of
// home or of the system writes files the line does not name over
// whatever is there — dot-files, keys, binaries. The archive's members
// are unknown at decision time, so the directory's zone decides: home or
// a home config directory asks, / or a system directory is denied.
func extractOverRule() Rule {
	return Rule{ID: "core.zones:extract-over", Mode: Ask, Tools: shellTools, Cmds: extractCmds(),
		Desc: "Unpacking an archive or copying a tree into home itself or a home config directory (tar -xf x.tar -C ~, unzip -o x.zip -d ~, cp -r ./template/. ~/, cd ~ && cpio -idmu): files the line does not name land over the user's; into / or a system directory it is core.zones:extract-system",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				d := extractDir(e, c)
				archive := c.Name != "cp" && c.Name != "rsync" && c.Name != "ditto" // members unknown
				if d != "" && (d == e.F.Home || d == e.F.Home+"/.config" || archive && callfacts.ZoneOf(d, e.F.Home, e.F.Project) == callfacts.ZoneHomeConfig && path.Dir(d) == e.F.Home) {
					return c.Name + " writes files it does not name into " + homeRel(d, e.F.Home) + ", over what is there: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"unrar x -o+ pack.rar ~/", "stow -t ~ dotfiles", "patch -p1 -d ~ < dotfiles.patch", "git apply --unsafe-paths --directory=/home/dev fix.patch", "cp -rf ./config/* ~/.config/", "pax -r -f backup.pax -s ',^,/home/dev/,'", "tar xf dotfiles.tar -C $HOME", "find . -depth -print | cpio -pdmu ~/", "7z x -y archive.7z -o$HOME", "cp -r ./template/. ~/", "cd ~ && cpio -idmu < /tmp/restore.cpio",
			"unzip -o backup.zip -d ~", "tar -xzf cfg.tgz -C ~/.config"},
		Allow: []string{"tar xf deps.tar -C ./vendor", "unzip -o x.zip -d build/", "tar -xzf x.tgz", "cp -r ./template/. ./out/", "tar -tf dotfiles.tar", "unzip -l x.zip", "tar -xf x.tar -C ~/Downloads/x", "cp -r src ~/backup/src"}}
}

// extractSystemRule: the same into / or a system directory.
func extractSystemRule() Rule {
	return Rule{ID: "core.zones:extract-system", Mode: Deny, Tools: shellTools, Cmds: extractCmds(),
		Desc: "Unpacking an archive or copying a tree into / or a system directory (sudo tar -xpf rootfs.tar -C /, unzip -o update.zip -d /usr): the system's files are replaced by members the line does not show",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if d := extractDir(e, c); d != "" && (d == "/" || callfacts.ZoneOf(d, e.F.Home, e.F.Project) == callfacts.ZoneSystem) && (restorers[c.Name] == "" || systemRestore(d)) {
					return c.Name + " writes files it does not name into " + d + ", over the system's: " + c.String()
				}
			}
			return ""
		},
		Catch: []string{"sudo tar -xpf rootfs.tar -C /", "sudo unzip -o update.zip -d /", "cd / && tar xzf patch.tgz", "sudo cp -r ./etc/. /etc/"},
		Allow: []string{"tar -xf x.tar -C /tmp/x", "unzip x.zip -d ./out", "tar -tf rootfs.tar", "cp -r ./etc ./backup"}}
}

// extractDir is the directory an unpacking or tree-copying command writes
// unnamed files into (normalized), "" when c is not one.
func extractDir(e *Env, c *Cmd) string {
	if !extractors[c.Name] && restorers[c.Name] == "" || e.dryRun(c) {
		return ""
	}
	norm := func(p string) string {
		p = strings.ReplaceAll(strings.ReplaceAll(p, "${HOME}", "~"), "$HOME", "~")
		return strings.TrimSuffix(callfacts.NormPath(p, c.Dir, e.F.Home), "/.")
	}
	dirOr := func(v string) string {
		if v != "" {
			return norm(v)
		}
		return c.Dir
	}
	if _, ok := restorers[c.Name]; ok {
		return restoreDir(c, norm, dirOr)
	}
	switch c.Name {
	case "tar", "bsdtar", "gtar":
		extract := c.Has("-x", "--extract", "--get")
		if len(c.Args) > 0 && !strings.HasPrefix(c.Args[0], "-") && strings.Contains(c.Args[0], "x") {
			extract = true // tar xf a.tar: the old form's first word is its options
		}
		if !extract || c.Has("-t", "--list") {
			return ""
		}
		return dirOr(extractOpt(c, "-C", "--directory"))
	case "unzip":
		if c.Has("-l", "-t", "-v", "-Z", "-p") {
			return ""
		}
		return dirOr(extractOpt(c, "-d", ""))
	case "7z", "7za", "7zz", "7zr":
		if s := sub(c); s != "x" && s != "e" {
			return ""
		}
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-o") && len(a) > 2 {
				return norm(a[2:])
			}
		}
		return c.Dir
	case "unrar", "unar", "rar":
		if s := sub(c); c.Name != "unar" && s != "x" && s != "e" {
			return ""
		}
		if len(c.Pos) >= 3 || c.Name == "unar" && len(c.Pos) >= 2 {
			if d := c.Pos[len(c.Pos)-1]; strings.HasSuffix(d, "/") || d == "~" {
				return norm(d)
			}
		}
		return dirOr(extractOpt(c, "-o", ""))
	case "stow":
		// a preview (-n, --no, --simulate), or unstowing: -D removes only
		// the links into its own package (stow never deletes files it
		// does not own)
		if e.dryRun(c) || c.Has("-n", "--no", "--simulate") || c.Has("-D", "--delete") && !c.Has("-S", "--stow", "-R", "--restow", "--adopt") {
			return ""
		}
		return dirOr(extractOpt(c, "-t", "--target"))
	case "patch":
		return dirOr(extractOpt(c, "-d", "--directory"))
	case "git":
		if sub(c) == "apply" {
			if d := extractOpt(c, "", "--directory"); d != "" {
				return norm(d)
			}
		}
	case "pax":
		if c.Has("-r") {
			if v := extractOpt(c, "-s", ""); strings.Contains(v, e.F.Home+"/") || strings.Contains(v, "~/") {
				return e.F.Home
			}
			return c.Dir
		}
	case "cpio":
		if c.Has("-i", "--extract") {
			return c.Dir
		}
		if c.Has("-p", "--pass-through") && len(c.Pos) > 0 {
			return norm(c.Pos[len(c.Pos)-1])
		}
	case "cp", "rsync", "ditto":
		if c.Name == "cp" && !c.Has("-r", "-R", "-a", "--recursive", "--archive") || c.Name == "rsync" && !c.Has("-a", "-r", "--archive", "--recursive") || len(c.Pos) < 2 {
			return ""
		}
		src, dst := c.Pos[len(c.Pos)-2], c.Pos[len(c.Pos)-1]
		if strings.Contains(dst, ":") {
			return "" // another host
		}
		if strings.HasSuffix(src, "/.") || strings.HasSuffix(src, "/*") || strings.HasSuffix(src, "/") && c.Name != "cp" || c.Name == "ditto" {
			return norm(dst) // the tree's content lands in dst itself
		}
	}
	return ""
}

// extractOpt is the value of option short (-C DIR, -CDIR) or long
// (--directory DIR, --directory=DIR), "" when absent.
func extractOpt(c *Cmd, short, long string) string {
	for i, a := range c.Args {
		switch {
		case a == short || long != "" && a == long:
			if i+1 < len(c.Args) {
				return c.Args[i+1]
			}
		case long != "" && strings.HasPrefix(a, long+"="):
			return a[len(long)+1:]
		case len(short) == 2 && strings.HasPrefix(a, short) && len(a) > 2 && !strings.HasPrefix(a, "--"):
			return a[2:]
		}
	}
	return ""
}

// extractors are the programs extractDir knows.
var extractors = map[string]bool{"tar": true, "bsdtar": true, "gtar": true, "unzip": true, "7z": true, "7za": true, "7zz": true, "7zr": true, "unrar": true,
	"unar": true, "rar": true, "stow": true, "patch": true, "git": true, "pax": true, "cpio": true, "cp": true, "rsync": true, "ditto": true}

// extractCmds are the programs extractDir knows: unpackers, tree copies
// and backup tools' restores.
func extractCmds() []string {
	return slices.Sorted(maps.Keys(func() map[string]bool {
		m := maps.Clone(extractors)
		for k := range restorers {
			m[k] = true
		}
		return m
	}()))
}
