package policy

import "strings"

// holderFinder says which directory or mount a pid finder in the line
// looks up the holders of (lsof -t +D /mnt/scratch, fuser -m /data),
// "" for none: every process with a file open there, whoever started it.
func holderFinder(e *Env) string {
	for i := range e.F.Commands {
		f := &e.F.Commands[i]
		switch f.Name {
		case "lsof":
			for j, a := range f.Args {
				if (a == "+D" || a == "+d") && j+1 < len(f.Args) {
					return f.Args[j+1]
				}
			}
		case "fuser":
			if f.Has("-m", "--mount", "-km", "-mk") || f.Has("-k") && len(f.Pos) > 0 && strings.HasPrefix(f.Pos[0], "/") && !strings.Contains(f.Pos[0], "tcp") {
				for _, p := range f.Pos {
					if strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, ".") {
						return p
					}
				}
			}
		}
	}
	return ""
}

// killHoldersRules extend core.destroy: processes ended for holding a
// directory.
func killHoldersRules() []Rule {
	return []Rule{cmdRule("core.destroy:kill-holders", Ask, "Ending every process that holds a file under a directory or mount (kill $(lsof -t +D /mnt/scratch), fuser -km /data): whoever has work open there — other users' jobs, a database, an editor — is ended, not only what the agent started", append(killTools, "xargs"),
		func(e *Env, c *Cmd) string {
			if endsNothing(c) {
				return ""
			}
			if c.Name == "xargs" && !contains(c.Args, "kill") {
				return ""
			}
			d := holderFinder(e)
			if d == "" {
				return ""
			}
			if c.Name == "fuser" && !c.Has("-k", "-km", "-mk") {
				return ""
			}
			return c.Name + " ends every process holding files under " + d + ": " + c.String()
		},
		[]string{"kill $(lsof -t +D /mnt/scratch)", "sudo fuser -km /data", "lsof -t +D ~/proj-old | xargs kill -9", "kill -9 $(lsof -t +d /media/usb)"},
		[]string{"lsof +D /mnt/scratch", "fuser -m /data", "kill $(lsof -t -i:3000)", "kill -9 1234", "fuser -v /mnt/scratch"})}
}
