package policy

import "strings"

// tagRef: a ref naming a tag (refs/tags/…) or reading as a version tag.
func tagRef(r string) bool { return strings.HasPrefix(r, "refs/tags/") || tagLike(r) }

// forcePush reports whether a git push overwrites what the remote holds:
// --force, -f, --force-with-lease, or a refspec starting with +.
func forcePush(c *Cmd) bool {
	if c.Has("--force", "-f", "--force-with-lease", "--force-if-includes") {
		return true
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "--force-with-lease=") {
			return true
		}
	}
	for _, p := range c.Pos[min(2, len(c.Pos)):] {
		if strings.HasPrefix(p, "+") {
			return true
		}
	}
	return false
}

// forcePushTagsRules extend core.git: published tags rewritten.
func forcePushTagsRules() []Rule {
	return []Rule{cmdRule("core.git:force-push-tags", Deny, "A force push of tags (git push --force origin 'refs/tags/*', --tags --force, +v1.2.0): published releases are moved under everyone who fetched, built or signed them, and caches (the Go proxy, package mirrors) keep the old ones", []string{"git"},
		func(e *Env, c *Cmd) string {
			if sub(c) != "push" || e.dryRun(c) || !forcePush(c) {
				return ""
			}
			if c.Has("--tags") {
				return "git push --force --tags rewrites the remote's published tags: " + c.String()
			}
			for _, p := range c.Pos[min(2, len(c.Pos)):] {
				src, dst, _ := strings.Cut(strings.TrimPrefix(p, "+"), ":")
				if tagRef(src) || dst != "" && tagRef(dst) {
					return "git push --force rewrites the published tag " + p + ": " + c.String()
				}
			}
			return ""
		},
		[]string{"git push --force origin 'refs/tags/*'", "git push -f --tags", "git push origin +v1.2.0", "git push --force-with-lease upstream refs/tags/v2.0.0", "git -C lib push -f origin v3.1.4:refs/tags/v3.1.4"},
		[]string{"git push --tags", "git push origin v1.2.0", "git push --force origin feat/x", "git push --force --dry-run origin 'refs/tags/*'", "git push -f origin HEAD:refs/heads/wip"})}
}

// forkOverwriteRule: a fork overwritten from its source on the forge.
func forkOverwriteRule() Rule {
	return cmdRule("external.systems:fork-overwrite", Ask, "A repository on the forge reset to another's state (gh repo sync OWNER/FORK --source … --force): the fork's own commits on that branch are thrown away on the server", []string{"gh"},
		func(e *Env, c *Cmd) string {
			if sub(c) == "repo" && c.Sub(1) == "sync" && c.Has("--force") {
				return "gh repo sync --force discards the target's own commits: " + c.String()
			}
			return ""
		},
		[]string{"gh repo sync dev/libfoo --source acme/libfoo --force", "gh repo sync --force", "gh repo sync me/fork -b main --force"},
		[]string{"gh repo sync dev/libfoo --source acme/libfoo", "gh repo sync", "gh repo view acme/libfoo", "gh repo sync --help"})
}
