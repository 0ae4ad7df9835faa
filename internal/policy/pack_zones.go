package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// zonesPack judges every effect on a path by the zone of the path,
// through the verdict table (zones.txt): a program the tool tables know,
// or a disguise the reading sees through, is judged without a rule of
// its own. One rule per verdict, so config and explain treat them like
// any other rule.
func zonesPack() Pack {
	return Pack{Name: "core.zones", Desc: "The verdict table, effect × zone (warden policy zones): recursive delete of home data and home config, writes to credentials, system or warden's files, destructive effects on targets the line does not show", Rules: append([]Rule{
		zoneRule("core.zones:deny", Deny, "Effects the verdict table denies (recursive delete · home data, home config or the agent's config, emptying files there, anything but permissions on credentials, deletes in the system, warden's own files)",
			[]string{"rm -rf ~/Documents", "find ~/Pictures -type f -delete", "srm -r ~/work", "rm -rf .git", "cd ~ && rm -rf Music", "rm -rf \"$HOME\"/Desktop", "rm -rf ${HOME}/{a,b}", "shred -u ~/.aws/credentials", "rsync -a --delete ./empty/ ~/photos/", "truncate -s 0 ~/.zsh_history", "rm -rf ~/.claude/projects", "truncate -s 0 ~/notes/todo.md"},
			[]string{"rm -rf ./build", "rm -rf node_modules", "rm -rf /tmp/x", "find . -name '*.pyc' -delete", "rsync -a --delete ./src/ ./dist/", "cat ~/.bashrc", "rm -rf ~/.cache/pip"}),
		zoneRule("core.zones:ask", Ask, "Effects the verdict table asks about (deletes in home, files written over the user's home data, overwriting home config, the agent's config or system directories, destructive effects on unknown targets)",
			[]string{"rm ~/.zsh_history", "rm -rf \"$TARGET\"", "cp dotfiles/zshrc ~/.zshrc", "chmod 000 ~/.config", "rm ~/.claude/CLAUDE.md", "pandoc notes.md -o ~/Documents/notes.docx", "cp out/report.pdf ~/Documents/report.pdf"},
			[]string{"rm -f build/app.o", "echo x > /tmp/out", "echo hi > notes.txt", "chmod +x ./run.sh", "touch ~/todo.txt", "curl -o ~/Downloads/x.tgz https://example.com/x.tgz", "pandoc ~/Documents/notes.md -o /tmp/notes.html"}),
		projectSourceRule(),
		{ID: "core.zones:startup-replace", Mode: Deny, Tools: shellTools,
			Desc: "Replacing or emptying a start-up file in home (~/.bashrc, ~/.zshrc, ~/.profile, ~/.gitconfig…): every later shell or tool runs what it now holds, and what it held is gone",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if (tc.Effect == callfacts.PathOverwrite || tc.Effect == callfacts.PathTruncate || tc.Effect == callfacts.PathDelete) && tc.Zone == callfacts.ZoneHomeConfig &&
						path.Dir(tc.Path) == e.F.Home && homeRC(path.Base(tc.Path)) {
						return tc.Via + " replaces " + homeRel(tc.Path, e.F.Home) + ", a start-up file every later shell or tool runs"
					}
				}
				return ""
			},
			Catch: []string{"cp -f dotfiles/bashrc ~/.bashrc", "echo 'export PS1=x' > ~/.zshrc", ": > ~/.profile", "ln -sf ~/.bashrc n && cat evil > n"},
			Allow: []string{"echo 'export PATH=$HOME/bin:$PATH' >> ~/.bashrc", "cp ~/.bashrc ~/.bashrc.bak", "cat ~/.bashrc", "cp dotfiles/bashrc ./bashrc.sample", "git config --global user.name x"}},
	}, append(append(persistRules(), extractOverRule(), extractSystemRule(), batchEmptyRule(), startupEditRule(), startupAppendRule(), worldOpenRule()), slices.Concat(startupAndSharedZoneRules(), homeSharedOverwriteRules(), startupOtherUserRules(), sharedStorageRules(), iacStateRules(), []Rule{sharedOverwriteRule(), containerInPlaceRule()}, overwriteRules(), localeffHomeDataRules(), []Rule{forcedOverwriteRule()}, localInplaceRules(), localLibraryRules(), homeWriteRules())...)...)}
}

// zoneRule fires on the first effect on a path whose verdict in the
// engine's table is mode, and names the table's cell.
func zoneRule(id string, mode Mode, desc string, catch, allow []string) Rule {
	return Rule{ID: id, Mode: mode, Desc: desc, Catch: catch, Allow: allow,
		Match: func(e *Env) string {
			t := e.Opts.zones()
			for _, tc := range e.Touches() {
				if t.Verdict(tc.Effect, tc.Zone) != mode || leftoverFind(e, tc.Via) || keptHomeFile(e, tc) || freshHomeOutput(e, tc) || (tc.Effect == callfacts.PathRecursiveDelete || tc.Effect == callfacts.PathDelete) && testAppData(tc.Path, e.F.Home) {
					continue
				}
				why := tc.Via + " (" + homeRel(tc.Path, e.F.Home) + "): " + ZoneLine(tc.Effect, tc.Zone, mode)
				if tc.Zone == callfacts.ZoneHomeData && tc.Effect == callfacts.PathOverwrite {
					why += "; a file the user keeps under that name in their home data is replaced, with no undo"
				}
				if tc.Zone == callfacts.ZoneUnknown {
					why += "; the line does not show the target, so it cannot be judged by where it is"
				}
				return why
			}
			return ""
		}}
}

// leftoverFind: via is a find of the line that deletes only leftovers
// (find DIR -name '*.tmp' -delete, callfacts.FindsOnlyLeftovers): what it
// removes is named by kind, wherever DIR is.
func leftoverFind(e *Env, via string) bool {
	if !strings.HasPrefix(via, "find ") {
		return false
	}
	for _, c := range e.F.Cmds("find") {
		if c.String() == via && callfacts.FindsOnlyLeftovers(c) {
			return true
		}
	}
	return false
}
