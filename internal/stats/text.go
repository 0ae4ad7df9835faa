package stats

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// WriteText prints the report as three small tables: per day, per rule,
// and judges.
func (r *Report) WriteText(w io.Writer) {
	scope := "all projects"
	if r.Project != "" {
		scope = r.Project
	}
	since := "the whole record"
	if !r.Since.IsZero() {
		since = "since " + r.Since.Local().Format("2006-01-02 15:04")
	}
	fmt.Fprintf(w, "warden stats: %s, %s\n", scope, since)
	t := r.Totals
	fmt.Fprintf(w, "blocks %d (denied %d, asked %d), overridden soon after %d, breaker trips %d, loops caught %d, judge calls %d ($%.4f)\n",
		t.Denied+t.Asked, t.Denied, t.Asked, t.Overridden, t.BreakerTrips, t.LoopsCaught, t.JudgeCalls, t.JudgeCostUSD)
	if len(r.Days) == 0 {
		fmt.Fprintln(w, "nothing recorded in this period")
		r.writeRollout(w)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\nday\tblocks\toverridden\tbreaker\tloops\tjudge calls\tjudge fails\tjudge cost\t")
	for _, d := range r.Days {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t$%.4f\t\n", d.Day, d.Blocks, d.Overridden, d.BreakerTrips,
			d.LoopsCaught, d.JudgeCalls, d.JudgeFails, d.JudgeCostUSD)
	}
	tw.Flush()
	if len(r.Rules) > 0 {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "\nrule\tdenied\tasked\toverridden (likely wrong)")
		for _, rr := range r.Rules {
			name := rr.Rule
			if name == "" {
				name = "(no rule)"
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\n", name, rr.Denied, rr.Asked, rr.Overridden)
		}
		tw.Flush()
	}
	if len(r.Judges) > 0 {
		type agg struct {
			pass, fail, open int
			cost             float64
		}
		by := map[string]*agg{}
		var names []string
		for _, j := range r.Judges {
			if by[j.Judge] == nil {
				by[j.Judge] = &agg{}
				names = append(names, j.Judge)
			}
			a := by[j.Judge]
			switch j.Verdict {
			case "pass":
				a.pass += j.N
			case "fail":
				a.fail += j.N
			default:
				a.open += j.N
			}
			a.cost += j.CostUSD
		}
		sort.Strings(names)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "\njudge\tpass\tfail\tfailed open\tcost")
		for _, n := range names {
			a := by[n]
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t$%.4f\n", n, a.pass, a.fail, a.open, a.cost)
		}
		tw.Flush()
	}
	r.writeRollout(w)
}
