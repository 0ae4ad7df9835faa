package policy

import (
	"slices"
	"strings"
)

// A system package installed as root asks (decided in wave 13; it used to
// be recorded): sudo apt-get install, sudo dnf install, doas apk add, sudo
// dpkg -i put files in the system's own directories and change what every
// user of the machine runs, and the person at the keyboard may not want
// this machine changed at all. Which managers install the system's
// packages, and which subcommands install, is installscope.txt (the
// `system` field). Index refreshes (sudo apt update) and simulations
// (sudo apt-get install -s) change no package: core.shell:sudo-refresh
// records them. Installs for the user (brew, pip --user, npm in the
// project, cargo install) are judged by core.local:global-install.

// rootWrapper names the wrapper that runs c as root (sudo, doas, run0,
// pkexec, su), or "".
func rootWrapper(c *Cmd) string {
	for _, w := range c.Wrappers {
		n, _, _ := strings.Cut(w, " ")
		if privilegeWrappers[n] || n == "su" {
			return n
		}
	}
	return ""
}

// systemInstallAsRoot reports whether c installs or upgrades the system's
// packages as root on this machine (not in a chroot or container, not a
// simulation).
func systemInstallAsRoot(c *Cmd) bool {
	s := installScopes()[c.Name]
	return s != nil && s.system && s.installing(c) && !c.DryRun() && !isolatedInstall(c) && (rootWrapper(c) != "" || systemScope(c))
}

// systemScope: c asks for the machine-wide installation itself (flatpak
// install --system: polkit asks for the admin password, and every user
// gets the app).
func systemScope(c *Cmd) bool { return c.Name == "flatpak" && c.Has("--system") }

// systemManagers are installscope.txt's system package managers.
func systemManagers() []string {
	var out []string
	for n, s := range installScopes() {
		if s.system {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

func sudoInstallRule() Rule {
	return cmdRule("core.shell:sudo-install", Ask, "System packages installed or upgraded as root (sudo apt-get install, sudo dnf install, doas apk add, sudo dpkg -i): they change the system for every user", systemManagers(),
		func(e *Env, c *Cmd) string {
			if !systemInstallAsRoot(c) || systemComponent(c) {
				return "" // a driver, the kernel, every package upgraded: core.local:global-install says so
			}
			who := rootWrapper(c)
			if who == "" {
				who = "--system"
			}
			return c.Name + " installs system packages as root (" + who + "): changes the system for every user: " + c.String()
		},
		[]string{"sudo apt-get install -y jq", "sudo apt install -y zfsutils-linux nfs-common", "sudo dnf install -y git", "doas apk add curl", "sudo -E yum -y install gcc",
			"sudo DEBIAN_FRONTEND=noninteractive apt-get install -y libpq-dev", "sudo sh -c 'apt-get update && apt-get install -y tmux'", "sudo zypper in -y git",
			"sudo pacman -S --noconfirm ripgrep", "sudo snap install code --classic", "sudo dpkg -i ./google-chrome-stable_current_amd64.deb", "sudo rpm -Uvh ./mysql80-community-release-el9.rpm", "sudo port install wget", "flatpak install --system -y flathub org.gimp.GIMP"},
		[]string{"apt-get install -y jq", "sudo apt-get install -s mono-complete", "sudo apt-get --dry-run install jq", "sudo apt update", "flatpak install --user -y flathub org.gimp.GIMP", "sudo apt list --installed", "sudo dpkg -l | grep ssl",
			"apt show libssl-dev", "brew install jq", "pip install --user black", "sudo chroot build/rootfs apt-get install -y busybox", "echo sudo apt-get install -y jq", "sudo dnf check-update"})
}

// sudoRefreshRule records what a package manager does as root that
// installs nothing: the index refreshed (sudo apt update, sudo dnf
// makecache), an install simulated.
func sudoRefreshRule() Rule {
	return Rule{
		ID: "core.shell:sudo-refresh", Mode: Audit, Tools: shellTools, Cmds: []string{"sudo", "doas"},
		Desc: "Package index refreshes and simulated installs as root (sudo apt update, sudo apt-get install -s): recorded",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				if systemInstallAsRoot(&e.F.Commands[i]) {
					return "" // core.shell:sudo-install asks
				}
			}
			return first(e.F.Cmds("sudo", "doas"), func(c *Cmd) string {
				if m := pkgInstall(c); m != "" {
					return c.Name + " " + m + ": " + c.String()
				}
				return ""
			})
		},
		Catch: []string{"sudo apt update", "sudo apt-get update", "sudo dnf makecache", "sudo apt-get install -s jq"},
		Allow: []string{"sudo rm -rf /var/cache/x", "apt-get install jq", "sudo apt-get remove nginx", "sudo -l", "sudo apt-get install -y jq"},
	}
}
