package policy

import "strings"

// hiddenDiscardRule: a git command that throws uncommitted or stashed
// work away (reset --hard, checkout -- ., clean -f, stash clear/drop),
// reached through a disguise the user does not read as that command: an
// eval of text the line computes (base64 -d, a $(…) of a decoder), a git
// alias the line defines and then runs, or a script file the line writes
// and then runs. Written plainly, each of these asks (core.git:*); put
// out of sight, the prompt would show the disguise, not the loss, so it
// is denied. The reading already sees through each disguise (the
// commands carry the wrapper that ran them); this rule only weighs it.
func hiddenDiscardRule() Rule {
	return Rule{ID: "core.local:git-discard-hidden", Mode: Deny, Tools: shellTools, Cmds: []string{"git"},
		Desc: "A git command that discards uncommitted or stashed work (reset --hard, checkout -- ., clean -f, stash clear/drop) run through a disguise: an eval of decoded or computed text, a git alias defined on the line, or a script the line writes and then runs",
		Match: func(e *Env) string {
			for i := range e.F.Commands {
				c := &e.F.Commands[i]
				if c.Name != "git" || c.Depth == 0 && len(c.Wrappers) == 0 {
					continue
				}
				what := hiddenDiscardKind(c)
				if what == "" {
					continue
				}
				how := discardDisguise(e, i)
				if how == "" {
					continue
				}
				if what != "stash" {
					if dirty, _ := e.Dirty(); !dirty {
						continue
					}
				}
				return strings.Join(append([]string{"git"}, c.Args...), " ") + " throws work away, run through " + how
			}
			return ""
		},
		Catch: []string{
			`eval "$(printf 'Z2l0IGNsZWFuIC1mZA==' | base64 --decode)"`,
			`git config alias.fresh '!git checkout -- . && git clean -fd' && git fresh`,
			"printf 'git restore .\\n' > /tmp/r.sh; bash /tmp/r.sh",
			"git config --global alias.wipe '!git stash clear' ; git wipe",
		},
		Allow: []string{
			"eval \"$(ssh-agent -s)\"",
			"git config alias.st status && git st",
			"printf 'git status\\n' > /tmp/s.sh; sh /tmp/s.sh",
			"git reset --soft HEAD~1",
			"bash -c 'git stash list'",
		}}
}

// hiddenDiscardKind names what git command c throws away: "tree" for
// uncommitted changes, "stash" for stashed work, "" for neither.
func hiddenDiscardKind(c *Cmd) string {
	switch sub(c) {
	case "reset":
		if c.Has("--hard", "--merge") {
			return "tree"
		}
	case "checkout", "restore":
		if sub(c) == "restore" && c.Has("--staged", "-S") && !c.Has("--worktree", "-W") {
			return ""
		}
		if gitForce(c) || anyPos(c, ".", ":/", "*", "./") {
			return "tree"
		}
	case "clean":
		if c.Has("-f", "--force") && !c.Has("-n", "--dry-run", "-X") {
			return "tree"
		}
	case "stash":
		if c.Sub(1) == "clear" || c.Sub(1) == "drop" {
			return "stash"
		}
	}
	return ""
}

// discardDisguise says how command i was reached when the line hides it:
// a git alias the line defines, an eval of text that is not written out
// on the line, or a script file the line wrote (ScriptShown on a shell
// given a file, not -c; a here-document fed to sh is the text itself,
// in plain sight). "" when it runs in plain sight.
func discardDisguise(e *Env, i int) string {
	c := &e.F.Commands[i]
	for _, w := range c.Wrappers {
		if strings.HasPrefix(w, "git config ") && strings.Contains(w, "alias.") {
			return "a git alias (" + w + ")"
		}
	}
	if c.Depth == 0 || len(c.Wrappers) == 0 {
		return ""
	}
	outer := c.Wrappers[len(c.Wrappers)-1]
	// the shell or eval that ran c: the nearest earlier command one level up
	for j := i - 1; j >= 0; j-- {
		p := &e.F.Commands[j]
		if p.Depth != c.Depth-1 || p.Payload == "" {
			continue
		}
		switch {
		case p.Name == "eval" && outer == "eval":
			if !strings.Contains(e.F.Command, p.Payload) {
				return "eval of text the line computes, not shows"
			}
		case p.ScriptShown && outer == p.Name && !p.Has("-c") && len(p.Pos) > 0 && p.Heredoc == "":
			return "a script the line writes, then runs (" + p.Name + " " + strings.Join(p.Pos, " ") + ")"
		}
		return ""
	}
	return ""
}
