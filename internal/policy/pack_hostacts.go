package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// hostActRules judge what a command does to this machine, its account and
// data that no path shows, as callfacts/hostacts.txt lists it: one rule
// per verdict, the table says which line is which (a new command is a line
// there, not a rule here).
func hostActRules() []Rule {
	names := callfacts.HostActTools()
	level := func(want string) func(e *Env, c *Cmd) string {
		return func(e *Env, c *Cmd) string {
			// dotnet ef database drop on a dev database on localhost; cpanm
			// --installdeps . (the project's own dependencies, installdeps.go)
			if a := e.hostAction(c); a != nil && a.Level == want && !(want == "ask" && (localDevDB(e) || devSession(c) || localDepsOrLib(e, c, a))) {
				return c.String() + " " + a.What
			}
			return ""
		}
	}
	return []Rule{
		localRule("core.local:host-action", Deny, "A change to the machine or its account that no path shows and that is hard to undo or hides what happened: boot arguments (nvram boot-args), a login's environment made permanent (launchctl load -w, launchctl config user path), logs vacuumed to nothing, packages installed unsigned (--allow-unauthenticated, --nogpgcheck), the user's files shared with everyone, data zeroed in place (fsutil setZeroData), an app's data purged (snap remove --purge) or a device wiped, the network cut or redirected, an account given sudo or locked out, snapshots deleted; the list is data (callfacts/hostacts.txt)", names,
			level("deny"),
			[]string{"sudo nvram boot-args=\"amfi_get_out_of_my_way=1\"", "launchctl load -w ~/Library/LaunchAgents/com.update.helper.plist", "sudo launchctl config user path /tmp/.bin:/usr/bin:/bin",
				"sudo journalctl --vacuum-time=1s", "sudo apt-get install -y --allow-unauthenticated acme-agent", "sudo dnf install --nogpgcheck ./agent.rpm",
				"net share 'proj=C:\\Users\\dev' /grant:everyone,full", "fsutil file setZeroData offset=0 length=999999999 C:\\Users\\dev\\notes.docx", "sudo snap remove --purge firefox",
				"adb shell recovery --wipe_data", "sudo resolvectl dns eth0 203.0.113.53", "sudo ip route del default", "sudo ip link set eth0 down", "sudo usermod -aG sudo,docker dev",
				"chsh -s /bin/false", "sudo chattr -R +i /home/dev", "diskutil apfs deleteSnapshot disk1s1 -uuid 6B3F", "tmutil deletelocalsnapshots /", "tarsnap -d -f laptop-2024-06-01",
				"wevtutil cl Security", "flatpak override --filesystem=host org.gimp.GIMP", "sudo umount -l /home"},
			[]string{"nvram -p", "launchctl list", "launchctl load ~/Library/LaunchAgents/dev.sync.plist", "launchctl config user path --help", "journalctl --disk-usage", "journalctl -u nginx --since today",
				"sudo apt-get install -y curl", "dnf install ripgrep", "net share", "fsutil fsinfo drives", "snap remove firefox", "snap list", "adb shell pm list packages", "resolvectl status",
				"ip route show", "ip link show", "usermod -s /bin/zsh dev", "chsh -s /bin/zsh", "sudo chattr +i /etc/resolv.conf", "diskutil list", "tmutil listlocalsnapshots /", "tarsnap --list-archives",
				"flatpak override --user --nofilesystem=home org.gimp.GIMP", "umount /mnt/usb", "apt-get install --dry-run --allow-unauthenticated x"}),
		localRule("core.local:trash-script", Ask, "Emptying the trash through a script (osascript -e 'tell application \"Finder\" to empty trash'): what the user set aside for recovery is gone", []string{"osascript"},
			func(e *Env, c *Cmd) string {
				a := strings.ToLower(strings.Join(c.Args, " "))
				if strings.Contains(a, "empty trash") || strings.Contains(a, "empty the trash") || strings.Contains(a, "emptytrash") {
					return "osascript empties the trash: " + c.String()
				}
				return ""
			},
			[]string{"osascript -e 'tell application \"Finder\" to empty trash'", "osascript -e 'tell app \"Finder\" to empty the trash'", "osascript -l JavaScript -e 'Application(\"Finder\").emptyTrash()'"},
			[]string{"osascript -e 'tell application \"Finder\" to get name of every item of trash'", "osascript -e 'display notification \"done\"'", "osascript -e 'tell application \"Finder\" to open trash'"}),
		localRule("core.local:host-action-ask", Ask, "A change to the machine or the account that is worth a look and that no path shows: installing for the whole machine or account (choco, winget, scoop, cpan, dotnet tool install -g, nix profile install, make install PREFIX=/usr/local), an app let into the home directory (flatpak override --filesystem=home), older package generations deleted (nix-collect-garbage -d), the trash emptied, a disk forced away, logs vacuumed, a session or desktop service ended, one of the user's own settings written by the program that keeps it (defaults write, gsettings set, pip config set, conda config --add), an environment or toolchain under home removed (conda env remove, pyenv uninstall); the list is data (callfacts/hostacts.txt)", names,
			level("ask"),
			[]string{"choco install nodejs-lts -y", "winget install --id Git.Git -e", "cpan -i Acme::Free::Helper", "dotnet tool install -g dotnet-ef", "nix profile install nixpkgs#ripgrep",
				"nix-env -iA nixpkgs.jq", "sudo make install PREFIX=/usr/local", "gmake install DESTDIR=/opt/acme", "flatpak override --user --filesystem=home com.slack.Slack", "nix-collect-garbage -d",
				"trash-empty", "gio trash --empty", "powershell.exe -NoProfile -Command 'Clear-RecycleBin -DriveLetter C -Force'", "hdiutil detach /Volumes/Backup -force",
				"sudo journalctl --vacuum-size=500M", "screen -X -S prod quit", "systemctl --user stop pipewire", "nix-env --install jq", "cpanm --installdeps ~/Downloads/Foo-1.0"},
			[]string{"choco list", "winget search git", "scoop list", "cpan -l", "dotnet tool install dotnet-ef", "dotnet tool list -g", "nix profile list", "nix-env -q", "make install PREFIX=$HOME/.local",
				"make install DESTDIR=./stage", "sudo make install", "flatpak override --user --show com.slack.Slack", "nix-collect-garbage", "trash-list", "gio trash ./tmp.txt", "hdiutil detach /Volumes/Backup",
				"journalctl --vacuum-time=2weeks --help", "screen -ls", "systemctl --user status pipewire", "systemctl --user restart app", "xcrun simctl erase all", "adb shell pm clear com.acme.app.debug", "choco install nodejs-lts --whatif",
				"cpanm --installdeps --notest .", "cpanm -L local Moose"}),
	}
}
