package policy

import "strings"

// forcePushPlainRule: a plain force push (--force, -f, +refspec) replaces the
// remote branch with the local one whatever others pushed since: their
// commits are gone from the branch. --force-with-lease refuses when the
// remote moved, so on a feature branch it stays a recorded rewrite
// (core.git:history); the main branches and tags have their own rules.
func forcePushPlainRule() Rule {
	return cmdRule("core.git:force-push-plain", Ask, "A plain force push (git push --force, -f, +branch) without a lease: the remote branch is replaced whatever others pushed since; --force-with-lease, which refuses when the remote moved, is recorded only", []string{"git"},
		func(e *Env, c *Cmd) string {
			if sub(c) != "push" || e.dryRun(c) || onlyHelp(c) || !forcePush(c) {
				return ""
			}
			for _, a := range c.Args {
				if a == "--force-with-lease" || strings.HasPrefix(a, "--force-with-lease=") || a == "--force-if-includes" {
					return "" // leased: refused when the remote moved
				}
			}
			return "git push forces the remote branch to the local one, dropping what others pushed since: " + c.String()
		},
		[]string{"git push --force origin feature/iceberg-migration", "git push -f upstream release/2.3", "git push origin +gh-pages", "git -C ../site push --force odoo-sh staging-fix"},
		[]string{"git push --force-with-lease origin feature/login", "git push origin feature/x", "git push --dry-run --force origin main", "git push --force-with-lease=feature/x origin feature/x", "git push -u origin feat"})
}
