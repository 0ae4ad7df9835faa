package policy

// Discarding uncommitted work — git reset --hard, git clean -f, git
// checkout -- . — cannot be undone: no commit, stash or reflog keeps what
// was never committed. With uncommitted changes in the tree they are
// denied, as the guard's destructive-shell list says (and as the same
// discards reached through eval, an alias or a script already were:
// core.local:git-discard-hidden). When git cannot say whether the tree
// is clean (a timeout, not a repository, replay), the hit asks instead
// (Env.Unsure): unknown stays visible, but a failed check must not turn
// into a denial.

// resetDiscards: git reset --hard (--merge, --keep overwrite too).
func resetDiscards(c *Cmd) bool { return sub(c) == "reset" && c.Has("--hard", "--merge", "--keep") }

// cleanDeletes: git clean -f outside build output, scratch and generated
// files (-X removes only what .gitignore ignores; -n only lists).
func cleanDeletes(c *Cmd) bool {
	return sub(c) == "clean" && c.Has("-f", "--force") && !c.Has("-n", "--dry-run") &&
		!c.Has("-X") && !onlyBuildOutput(c.Pos[1:]) && !onlyScratch(c.Pos[1:]) && !onlyGenerated(c.Pos[1:])
}

// checkoutDiscardsAll: the whole tree restored (checkout -- ., restore .,
// checkout -f / switch -f), or a whole folder of it (checkout -- src/).
func checkoutDiscardsAll(c *Cmd) bool {
	s := sub(c)
	if s != "checkout" && s != "restore" && s != "switch" {
		return false
	}
	if s == "restore" && c.Has("--staged", "-S") && !c.Has("--worktree", "-W") {
		return false
	}
	if (s == "checkout" || s == "switch") && gitForce(c) {
		return true
	}
	return anyPos(c, ".", ":/", "*", "./") || checkoutDiscardsDir(c)
}
