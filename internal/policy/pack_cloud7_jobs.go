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
			ids, others := 0, 0
			for _, p := range c.Pos {
				switch {
				case optionBefore(c.Args, p):
					// an option's value (-u $USER, -A lab): the filter, read below
				case jobID.MatchString(p):
					ids++
				case strings.HasPrefix(p, "$") || strings.HasPrefix(p, "`"):
					return c.Name + " acts on jobs the line does not show (" + p + "): " + c.String()
				default:
					others++ // condor_rm alice: a user's every job
				}
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
