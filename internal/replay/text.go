package replay

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// WriteText prints the report for a terminal: the counts, then each
// change with its examples, then what could not be replayed and why.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "replayed %d of %d recorded tool calls: %s against %s\n", r.Replayed, r.Calls, r.Candidate, r.Against)
	fmt.Fprintf(w, "%d unchanged, %d would change (%d newly denied, %d no longer denied)\n",
		r.Unchanged, r.Changed, r.DenyIncrease, r.DenyDecrease)
	if j := r.Judges; j != nil {
		fmt.Fprintf(w, "judges: %d calls left to tool approval, %d judge requests made (%d answered again from this replay's memory, %d failed open), %d tokens in, %d out, about $%.4f\n",
			j.Consulted, j.Requests, j.Reused, j.FailedOpen, j.TokensIn, j.TokensOut, j.CostUSD)
	}
	if r.Reattributed > 0 {
		fmt.Fprintf(w, "(%d of the unchanged are now decided by another rule)\n", r.Reattributed)
	}
	if len(r.Changes) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tFROM\tTO\tCALLS")
		for _, c := range r.Changes {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", orNone(c.Rule), c.From, c.To, c.Count)
		}
		tw.Flush()
		for _, c := range r.Changes {
			fmt.Fprintf(w, "\n%s: %s → %s, %d calls, e.g.\n", orNone(c.Rule), c.From, c.To, c.Count)
			for _, e := range c.Examples {
				fmt.Fprintf(w, "  #%d %s %s  %s\n", e.ID, e.Time.Local().Format("2006-01-02 15:04"), short(e.Session, 8), e.Call)
				fmt.Fprintf(w, "     was %s, now %s\n", e.Before, e.After)
			}
		}
	}
	if r.OtherHandler > 0 {
		fmt.Fprintf(w, "\n%d calls were decided by a gate, a judge or another handler, which replay does not run (--judges runs tool approval): not compared\n", r.OtherHandler)
	}
	if len(r.NotReplayed) > 0 {
		fmt.Fprintln(w, "\nnot replayed:")
		for _, s := range r.NotReplayed {
			fmt.Fprintf(w, "  %d  %s\n", s.Count, s.Reason)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "rule file problem (rule left out, as hooks leave it out): %s\n", p)
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
