package policy

import (
	"maps"
	"path"
	"slices"
	"strings"
)

// Shared machines run other people's work: a cluster's batch jobs, other
// accounts' processes. Ending them is not the agent's to do; ending the
// user's own (scancel -u $USER, scancel 1234567) is routine.

// jobCancellers end batch jobs, with the option that picks whose.
var jobCancellers = map[string][]string{"scancel": {"-u", "--user"}, "qdel": {"-u"}, "bkill": {"-u"}, "condor_rm": {"-user"}, "canceljob": {"-u"}}

// selfUser reports whether a -u value names the user running the line
// (a command substitution, $(whoami) or another, is let be: the facts
// keep no text of it).
func selfUser(e *Env, v string) bool {
	v = strings.Trim(v, `"'`)
	switch v {
	case "$USER", "${USER}", "$LOGNAME", "${LOGNAME}", "$(whoami)", "`whoami`", "$(id -un)", "$(id -u -n)":
		return true
	}
	return e.F.Home != "" && v == path.Base(e.F.Home)
}

func othersJobsRule() Rule {
	names := slices.Sorted(maps.Keys(jobCancellers))
	return cmdRule("core.local:others-jobs", Deny, "Cancelling other users' batch jobs on a shared cluster (scancel -u alice, a loop of scancel -u over a group's members, qdel -u, bkill -u): their work, queued or running, is gone; the user's own jobs stay routine", names,
		func(e *Env, c *Cmd) string {
			for _, o := range jobCancellers[c.Name] {
				v := optValue(c, o)
				if v == "" || selfUser(e, v) || strings.Contains(v, "$(") && !listsAccounts(e) {
					continue
				}
				return c.Name + " cancels the jobs of " + v + ", another user of the shared cluster: " + c.String()
			}
			return ""
		},
		[]string{"scancel -u alice", "for u in $(getent group lab | cut -d: -f4 | tr , ' '); do scancel -u \"$u\"; done", "scancel --user=bob --state=RUNNING", "qdel -u carol all", "bkill -u dave 0"},
		[]string{"scancel -u $USER --state=PENDING --name=rnaseq-align", "scancel 1234567", "scancel -u dev", "squeue -u alice", "scancel --user=$(whoami)", "qstat -u bob"})
}

// listsAccounts reports whether the line lists the machine's accounts or
// a group's members (getent group lab, /etc/passwd, members, ls /home,
// who, users): a value taken from it names other people.
func listsAccounts(e *Env) bool {
	for i := range e.F.Commands {
		c := &e.F.Commands[i]
		switch c.Name {
		case "getent", "members", "lid", "who", "users", "dscl", "id":
			if c.Name != "id" || len(c.Pos) > 0 {
				return true
			}
		case "ls":
			if anyPos(c, "/home", "/home/", "/Users", "/Users/") {
				return true
			}
		}
	}
	return strings.Contains(e.F.Command, "/etc/passwd") || strings.Contains(e.F.Command, "/etc/group")
}
