package policy

import (
	"slices"
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// packageRules judge removing installed packages by what goes: every
// package a manager has installed (its names taken from the manager's own
// listing, or an --all option), or the system's packages. Which
// subcommands remove and which list is each manager's line in the facts'
// tool table, so a new manager is a line there, not a rule here.
func packageRules() []Rule {
	managers := callfacts.PackageManagers()
	return []Rule{
		cmdRule("core.destroy:packages-all", Ask, "Removing every installed package (pip freeze | xargs pip uninstall, brew uninstall $(brew list), gem uninstall --all)", managers,
			func(e *Env, c *Cmd) string {
				if !c.PackageRemoval() {
					return ""
				}
				if what := everyPackage(e, c); what != "" {
					return c.Name + " removes " + what + ": " + c.String()
				}
				return ""
			},
			[]string{"pip freeze | xargs pip uninstall -y", "pip uninstall -y -r <(pip freeze)", "brew uninstall --force $(brew list)", "gem uninstall -aIx", "npm ls -g --parseable | xargs npm uninstall -g", "pipx uninstall-all"},
			[]string{"pip uninstall -y requests", "pip freeze > requirements.txt && pip uninstall -y six", "brew list", "npm uninstall -g typescript", "npm cache clean --force"}),
		cmdRule("core.destroy:system-packages", Deny, "Removing the system's packages (apt-get purge, dnf remove, pacman -R, dpkg -P, apk del)", managers,
			func(e *Env, c *Cmd) string {
				if callfacts.SystemPackages(c.Name) && c.PackageRemoval() && !onlyHelp(c) {
					return c.Name + " removes system packages: " + c.String()
				}
				return ""
			},
			[]string{"apt-get purge -y openssh-server", "apt remove --purge -y python3", "dnf remove -y systemd", "pacman -Rns linux", "dpkg -P libc6", "apk del musl"},
			[]string{"apt-get install -y curl", "apt list --installed", "dpkg -l", "pacman -Syu", "apt-get -s purge nginx", "apk add git"}),
		packagesAllDataRule(), // script14
	}
}

// inventoryFeeding is the command listing installed packages whose output
// gives removal c its names (xargs, $(…), <(…), a while-read loop), or nil.
func inventoryFeeding(f *callfacts.Facts, c *Cmd) *Cmd {
	for i := range f.Commands {
		inv := &f.Commands[i]
		if !inv.PackageInventory() {
			continue
		}
		xargs := slices.Contains(c.Wrappers, "xargs") || slices.Contains(c.Wrappers, "parallel")
		for _, p := range c.Pos {
			switch {
			case xargs && (slices.Contains(c.Upstream, inv.Name) || inv.Name == c.Name && inv != c),
				strings.HasPrefix(p, "$(") && inv.Captured,
				strings.HasPrefix(p, "/dev/fd/"),
				strings.HasPrefix(p, "$") && readsFrom(f, inv.Name):
				return inv
			}
		}
	}
	return nil
}

// readsFrom reports whether a `read` of the line takes its input from
// program name (pip freeze | while read p; do …).
func readsFrom(f *callfacts.Facts, name string) bool {
	for _, r := range f.Cmds("read") {
		if slices.Contains(r.Upstream, name) {
			return true
		}
	}
	return false
}

// everyPackage says which packages c removes when it removes them all:
// every installed one (gem uninstall --all) or every one a listing on
// the line feeds it (brew uninstall $(brew list)); "" otherwise.
func everyPackage(e *Env, c *Cmd) string {
	if c.RemovesEveryPackage() {
		return "every installed package"
	}
	if inv := inventoryFeeding(e.F, c); inv != nil {
		return "every package " + inv.String() + " lists"
	}
	return ""
}
