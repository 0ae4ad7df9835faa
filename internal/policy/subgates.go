package policy

import (
	"slices"
	"sync"
)

// Most rules indexed by a program (Rule.Cmds) are about a few of its
// subcommands: core.git:reset-hard about git reset, core.git:push-force
// about git push. Every git command met some thirty rules about git, and
// an everyday git status or git diff ran each only to return at its
// first test. The engine reads the table below as it reads Cmds: such a
// rule runs only when one of the line's commands is the program with one
// of the listed subcommands (Cmd.Sub(0), what sub(c) reads). It still runs
// where it ran before, at the first command of the program, so the hits
// keep their order and the same hit decides.
//
// Each entry is a necessary condition read from the rule's Match: the
// rule returns "" unless a command of the program has one of these
// subcommands. Change one with the other; TestSubGatesAreSound runs every
// gated rule's catch cases against its entry. A rule not listed runs for
// every command of its programs, as before. A rule that names other
// programs besides the entry's (core.git:release names gh and glab) is
// gated only on the entry's program: a command of any other of its
// programs opens the gate, as a curl or wget does not close reqgates.go's
// for an httpie command.

// subGate is a rule's program and the subcommands it can fire on.
type subGate struct {
	prog string
	subs []string
}

// builtinSubGates is built on first use, like builtinTriggers.
var builtinSubGates = sync.OnceValue(func() map[string]subGate {
	git := func(subs ...string) subGate { return subGate{"git", subs} }
	return map[string]subGate{
		"core.shell:run-cloned":         git("clone"), // clonedDirs: a git clone on the line
		"core.git:push-force":           git("push"),
		"core.git:reset-hard":           git("reset"),
		"core.git:clean-force":          git("clean"),
		"core.git:checkout-all":         git("checkout", "restore", "switch"),
		"core.git:stash-drop":           git("stash"),
		"core.git:stash-discard":        git("stash"),
		"core.git:filter-repo-force":    git("filter-repo"),
		"core.git:push-delete":          git("push"),
		"core.git:checkout-paths":       git("checkout"),
		"core.git:read-tree-reset":      git("read-tree"),
		"core.git:push-new-remote":      git("remote"),                                                   // a remote the line adds, then pushed to
		"core.git:other-repo-discard":   git("reset", "clean", "checkout", "switch", "restore", "stash"), // gitDiscards
		"core.git:global-config":        git("config"),                                                   // globalConfigSet
		"core.git:global-config-code":   git("config"),
		"core.git:destroy-recovery":     git("gc", "prune"),
		"core.git:push-delete-many":     git("push"),
		"core.git:force-push-plain":     git("push"),
		"core.self:git-clean-warden":    git("clean"),
		"external.systems:push-deploys": git("push"), // gitPushDeploys
		"core.git:lose-work": git("worktree", "branch", "filter-branch", "filter-repo", "reflog", "gc", "prune",
			"update-ref", "symbolic-ref", "rm", "show", "cat-file", "push", "restore", "checkout"),
		"core.git:delete-protected-remote": git("push", "update-ref"),
		"core.git:push-all-new-remote":     git("remote"), // a remote the line adds, then pushed to
		"core.git:force-push-tags":         git("push"),
		"core.secrets:push-secret-file":    git("push"), // fires on the push, reading the line's adds
		"risky.routine:branch-delete":      git("branch", "push"),
		"risky.routine:discard-changes":    git("restore", "checkout", "switch"),
		"external.systems:push-to-url":     git("push", "send-email"),
		"core.local:credential-fill":       git("credential"),
		"core.git:discard-listed":          git("checkout", "restore", "stash"),                   // listedDiscardKind
		"core.local:git-discard-hidden":    git("reset", "checkout", "restore", "clean", "stash"), // hiddenDiscardKind
		// rules that name other programs too (gated on git only)
		"core.git:history": git("commit", "rebase", "filter-branch", "filter-repo", "replace", "reset", "checkout", "restore", "stash", "branch",
			"tag", "worktree", "push", "update-ref", "symbolic-ref", "reflog", "gc", "prune", "clean"), // historyOp; git-filter-repo opens it
		"core.git:push-mainline": git("push", "subtree"), // git push, git subtree push; jj opens it
		"core.git:release":       git("push", "remote"),  // git push, git remote set-url; gh and glab open it
		"core.git:hooks-off":     git("config"),          // git config core.hooksPath; chmod, rm, unlink, trash open it
		// rules of many programs whose only git form is one subcommand: an
		// everyday git status or git diff ran each of them for nothing
		"core.git:push-shared":        git("push"),  // pushSharedRule: sub(c) == "push"
		"core.zones:extract-over":     git("apply"), // extractDir: git apply --directory
		"core.zones:extract-system":   git("apply"), //
		"core.zones:extract-foreign":  git("apply"), //
		"core.local:vcs-discard-tree": git("annex"), // git annex drop --force
		"core.local:secret-hunt":      git("grep"),  // secretHunt: git grep only
		// and whose only go form is one subcommand: go test, go build
		"core.shell:package-source": {"go", []string{"env"}},            // packageSourceMay: go env -w
		"core.shell:run-unvetted":   {"go", []string{"run", "install"}}, // go run|install module@version
	}
})

// gateFor is r's subcommand gate, nil when it has none, and the program
// it gates.
func gateFor(r *Rule) ([]string, string) {
	g, ok := builtinSubGates()[r.ID]
	if !ok || r.Source != "" || !slices.Contains(r.Cmds, g.prog) {
		return nil, ""
	}
	return g.subs, g.prog
}

// gateOpen reports whether the gated rule r can fire on the line f: one
// of its gated program's commands there has one of its subcommands, or a
// command of another of its programs is there.
func gateOpen(r *prepared, f *Facts) bool {
	prog := r.subProg
	for i := range f.Commands {
		c := &f.Commands[i]
		if c.Name == prog {
			if slices.Contains(r.subs, c.Sub(0)) {
				return true
			}
		} else if len(r.Cmds) > 1 && slices.Contains(r.Cmds, c.Name) {
			return true
		}
	}
	return false
}
