package policy

import "strings"

// scriptRunners run a file as a shell script: what it holds is executed,
// not shown.
var scriptRunners = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "source": true, ".": true}

// writtenScriptOnly: c's standard output goes to a file (printf '…%s…'
// "$TOKEN" > /tmp/run.sh) and the line uses that file only by running it
// as a script (sh /tmp/run.sh): the secret is put in the script it
// runs, which is judged on its own (its requests are read as the
// line's), and nothing prints it into the conversation. A file the line
// then shows (cat, head, less) or sends is still the secret's way out.
func writtenScriptOnly(e *Env, c *Cmd) bool {
	target := ""
	for _, r := range e.F.Redirects {
		if r.Cmd != c.Name {
			continue
		}
		switch r.Op {
		case ">", ">>", ">|":
			if strings.HasPrefix(r.Target, "&") || strings.HasPrefix(r.Target, "/dev/") {
				return false
			}
			target = r.Target
		}
	}
	if target == "" {
		return false
	}
	run := false
	for _, p := range e.F.Paths {
		if p.Path != target || p.Op == OpWrite {
			continue
		}
		if !scriptRunners[p.Via] {
			return false
		}
		run = true
	}
	return run
}
