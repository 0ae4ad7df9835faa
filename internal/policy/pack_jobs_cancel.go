package policy

import (
	"strings"
)

// Batch schedulers as data (remoteops.txt job-*): a cancel, hold or
// signal that names its jobs by id touches only those; one that chooses
// them by a filter (a user, an account, a partition, a state), means
// every job (bkill 0, qdel all, condor_rm -all), or takes ids from text
// the line does not show ($(qselect -u alice), squeue … | xargs scancel)
// ends everything the filter matches on a shared cluster: it asks. A
// filter narrowed to a job name (scancel -u $USER --name=sweep) stays
// routine; another user's jobs are denied by core.local:others-jobs.

// jobID: a scheduler's job id (1234567, 1234.pbs01, 123.0, 4242_7,
// 88[3]).
var jobID = re(`^[0-9]+([._][0-9A-Za-z-]+)*(\[[0-9,:-]*\])?$`)

func jobsBulkCancelRule() Rule {
	return cmdRule("external.systems:jobs-bulk-cancel", Ask, "A batch scheduler's cancel, hold or signal that chooses its jobs by a filter (scancel -A lab, scancel -u $USER with no name, qdel all, bkill 0, condor_rm -all) or from ids the line does not show (qdel $(qselect -u …), squeue … | xargs scancel): everything it matches on the shared cluster ends; the programs and options are data (remoteops.txt job-*)", opsNames("job-cancel"),
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Has("--help", "-h") || c.Has("--test-only") {
				return ""
			}
			every, sel := opsList("job-everything"), opsList("job-select")
			for _, a := range c.Args {
				if every[a] && (a != "0" || c.Name == "bkill" || c.Name == "bstop") && (a != "-a" || c.Name == "qsig" || strings.HasPrefix(c.Name, "condor")) {
					return c.Name + " acts on every job it may touch (" + a + "): " + c.String()
				}
			}
			if jobsCancelScope(e, c) == "own" {
				return "" // ids the user's own lister narrowed to one job name
			}
			ids, others, unseen := jobOperands(c)
			if unseen != "" {
				return c.Name + " acts on jobs the line does not show (" + unseen + "): " + c.String()
			}
			if ids == 0 && fedList(c) {
				return c.Name + " acts on a list of jobs another command picks: " + c.String()
			}
			filtered := others > 0 && strings.HasPrefix(c.Name, "condor")
			for _, f := range c.Flags {
				if k, _, _ := strings.Cut(f, "="); sel[k] {
					filtered = true
				}
			}
			if !filtered || ids > 0 {
				return ""
			}
			for _, f := range c.Flags {
				if k, _, _ := strings.Cut(f, "="); opsList("job-narrow")[k] {
					return "" // scancel -u $USER --name=sweep: one kind of the user's own jobs
				}
			}
			return c.Name + " acts on every job a filter matches on the shared cluster: " + c.String()
		},
		[]string{"scancel -A genomics_lab", "scancel -u dev", "qdel $(qselect -u alice)", "squeue -u $USER -h -o %i | xargs scancel", "bkill 0", "condor_rm -all", "scancel --partition=gpu --state=PENDING", "qdel all"},
		[]string{"scancel 1234567", "scancel -u $USER --state=PENDING --name=rnaseq-align", "qdel 1234.pbs01", "condor_rm 123.0", "bkill 4242", "scancel --help", "scancel 4242_7 4242_8"})
}

// optionBefore: the argument before the first p in c's arguments is an
// option (its value, not an operand).
func optionBefore(args []string, p string) bool {
	for i, a := range args {
		if a == p {
			return i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=")
		}
	}
	return false
}

// fedList: c's operands come from another command (xargs, parallel, a
// pipe into it): the line does not show which jobs.
func fedList(c *Cmd) bool {
	for _, w := range c.Wrappers {
		if f := strings.Fields(w); len(f) > 0 && (f[0] == "xargs" || f[0] == "parallel") {
			return true
		}
	}
	return false
}

// the lister that picks the ids a cancel takes from text the
// line does not show (squeue … | xargs scancel, JOBS=$(squeue …); scancel
// $JOBS, qdel $(qselect …)), and its arguments up to the pipe or the end
// of the substitution.
var jobLister = re(`\b(squeue|qselect|qstat|bjobs|condor_q|sacct)\b([^|;)&\n]*)`)

// jobsUnseenScope says whom the jobs a cancel takes from a lister
// belong to: "everyone" when the lister names no user, "own" when it
// names the user and narrows to a job name, "user" when it names only
// the user, "" when the line shows no lister.
func jobsUnseenScope(line string) string {
	m := jobLister.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	user, narrow := false, false
	sel, nar := opsList("job-user"), opsList("job-narrow")
	for _, a := range strings.Fields(m[2]) {
		k, _, _ := strings.Cut(a, "=")
		user = user || sel[k]
		narrow = narrow || nar[k] || strings.HasPrefix(k, "-n") && len(k) > 2 && !strings.HasPrefix(k, "--")
	}
	switch {
	case !user:
		return "everyone"
	case narrow:
		return "own"
	}
	return "user"
}

// jobOperands sorts a scheduler command's operands: job ids, other words
// (condor_rm alice: a user's every job) and the first operand the line
// does not show ($JOBS, `…`), "" for none; an option's value (-u $USER,
// -A lab) is a filter, read from the flags.
func jobOperands(c *Cmd) (ids, others int, unseen string) {
	for _, p := range c.Pos {
		switch {
		case optionBefore(c.Args, p):
		case jobID.MatchString(p):
			ids++
		case strings.HasPrefix(p, "$") || strings.HasPrefix(p, "`"):
			if unseen == "" {
				unseen = p
			}
		default:
			others++
		}
	}
	return ids, others, unseen
}

// jobsCancelScope is whom a scheduler's cancel without job ids reaches:
// "everyone" when it takes ids from a lister that names no user or
// filters (a partition, an account, a state) without naming a user,
// "own" when a lister narrows to the user's jobs of one name, "" for the
// rest.
func jobsCancelScope(e *Env, c *Cmd) string {
	ids, _, dynamic := jobOperands(c)
	if ids > 0 {
		return ""
	}
	if dynamic != "" || fedList(c) {
		if s := jobsUnseenScope(e.F.Command); s != "user" {
			return s
		}
		return ""
	}
	filtered, user := false, false
	sel, users := opsList("job-select"), opsList("job-user")
	for _, f := range c.Flags {
		k, _, _ := strings.Cut(f, "=")
		filtered = filtered || sel[k]
		user = user || users[k]
	}
	if filtered && !user && (c.Name == "scancel" || c.Name == "qdel" || c.Name == "bkill") {
		return "everyone"
	}
	return ""
}

func jobsEveryoneCancelRule() Rule {
	return cmdRule("external.systems:jobs-everyone-cancel", Deny, "A batch scheduler's cancel whose jobs are chosen without naming the user: ids listed by squeue, qstat or bjobs with no -u/--me (squeue -h -o %i | xargs scancel), or a partition, account or state filter alone (scancel -p gpu): every user's jobs on the shared cluster end; a list narrowed to the user and a job name stays allowed (the options are data: remoteops.txt job-user, job-narrow)", []string{"scancel", "qdel", "bkill"},
		func(e *Env, c *Cmd) string {
			if onlyHelp(c) || c.Has("--help", "-h") || c.Has("--test-only") {
				return ""
			}
			if jobsCancelScope(e, c) == "everyone" {
				return c.Name + " cancels jobs chosen without naming the user, every user's on the shared cluster: " + c.String()
			}
			return ""
		},
		[]string{"squeue -h -o %i | xargs scancel", "scancel $(squeue -h -t PD -o %i)", "scancel -p gpu --state=PENDING", "scancel -A genomics_lab", "qstat -q batch | awk '{print $1}' | xargs qdel"},
		[]string{"scancel 1234567", "JOBS=$(squeue -u dev -h -n smoke-test -o %i); [ -n \"$JOBS\" ] && scancel $JOBS", "squeue -u $USER -h -o %i | xargs scancel", "scancel -u $USER --state=PENDING", "scancel --help", "squeue --me -h -o %i"})
}
