package policy

import (
	"path"

	"github.com/warden-dev/warden/internal/callfacts"
)

// startupAppendRule: any change a command makes to the user's shell
// start-up files (~/.bashrc, ~/.zshrc, ~/.profile, config.fish…), however
// harmless what it appends: every later shell of the user runs it, and the
// user did not write it. What it plants that is hostile later is
// core.zones:startup-hijack; emptying or replacing the file is the
// verdict table's (truncate, overwrite · home config).
func startupAppendRule() Rule {
	return Rule{ID: "core.zones:startup-append", Mode: Ask, Tools: shellTools,
		Desc: "Appending to or editing the user's shell start-up files (echo 'alias gs=…' >> ~/.bashrc, tee -a ~/.zshrc, sed -i … ~/.profile): every later shell runs what the line adds",
		Match: func(e *Env) string {
			for _, tc := range e.Touches() {
				if tc.Effect != callfacts.PathWrite || tc.Zone != callfacts.ZoneHomeConfig && tc.Zone != callfacts.ZoneSystem &&
					!(tc.Zone == callfacts.ZoneHomeData && callfacts.PSProfile(path.Base(tc.Path))) { // ~/Documents/PowerShell/profile.ps1 (win14)
					continue
				}
				if callfacts.RunsLater(tc.Path) {
					return tc.Via + " changes " + homeRel(tc.Path, e.F.Home) + ", a start-up file every later shell runs"
				}
			}
			return ""
		},
		Catch: []string{"echo 'alias gs=\"git status -sb\"' >> ~/.bashrc", "printf 'export EDITOR=vim\\n' | tee -a ~/.zshrc", "echo 'set -x GOPATH ~/go' >> ~/.config/fish/config.fish",
			"sed -i 's/^export EDITOR=.*/export EDITOR=nvim/' ~/.profile", "cat snippets/aliases.sh >> \"$HOME/.bash_aliases\"", "echo 'umask 022' | sudo tee -a /etc/profile.d/umask.sh"},
		Allow: []string{"cat ~/.bashrc", "grep -n alias ~/.zshrc", "echo 'alias gs=\"git status\"' >> ./dotfiles/bashrc", "cp ~/.bashrc ./backup/bashrc", "echo 'export FOO=1' >> .envrc", "source ~/.bashrc"}}
}
