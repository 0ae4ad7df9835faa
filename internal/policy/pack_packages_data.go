package policy

import "github.com/warden-dev/warden/internal/callfacts"

// packagesAllDataRule: every installed package removed together with
// each one's data in home (brew uninstall --zap $(brew list --cask); a
// manager's --delete-data or --purge over its own listing):
// core.destroy:packages-all asks for the packages, which can be installed
// again; their settings and data cannot.
func packagesAllDataRule() Rule {
	return cmdRule("core.destroy:packages-all-data", Deny, "Removing every installed package with its data (brew uninstall --zap $(brew list --cask)): the applications' settings and data in home go with them", callfacts.PackageManagers(),
		func(e *Env, c *Cmd) string {
			if !c.PackageRemoval() || !c.Has("--zap", "--delete-data", "--purge") {
				return ""
			}
			if what := everyPackage(e, c); what != "" {
				return c.Name + " removes " + what + ", and its data: " + c.String()
			}
			return ""
		},
		[]string{"brew uninstall --zap --force $(brew list --cask)", "brew list --cask | xargs brew uninstall --zap", "brew uninstall --zap $(brew list)"},
		[]string{"brew uninstall --zap firefox", "brew uninstall --force $(brew list --formula | grep old-)", "flatpak uninstall --unused -y", "brew list --cask"})
}
