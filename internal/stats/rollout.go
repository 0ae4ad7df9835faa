package stats

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Rollout is how often each rule in audit or warn mode would have blocked
// over the period: the recorded calls evaluated again with today's rules
// (internal/replay), so a rule can move audit → warn → ask/deny with
// figures, not hope.
type Rollout struct {
	// Replayed is the recorded tool calls evaluated again; NotReplayed
	// those recorded without their input (see `warden replay`).
	Replayed    int `json:"replayed"`
	NotReplayed int `json:"not_replayed"`
	// Rules are the rules in audit or warn mode that fired, most first.
	Rules []RolloutRule `json:"rules"`
}

// RolloutRule is one rule's figures.
type RolloutRule struct {
	Rule string `json:"rule"`
	// Mode is the rule's mode now (audit or warn); Default the mode it
	// ships with (built-in) or its file gives it.
	Mode    string `json:"mode"`
	Default string `json:"default"`
	// Fired is the replayed calls the rule fired on, in Sessions sessions;
	// WouldBlock those no other rule already denied or asked: the calls
	// raising it to ask or deny would stop.
	Fired      int `json:"fired"`
	WouldBlock int `json:"would_block"`
	Sessions   int `json:"sessions"`
	// Recorded counts the decisions the record holds with this rule in
	// audit or warn mode (including calls that cannot be replayed).
	Recorded int `json:"recorded"`
}

func (r *Report) writeRollout(w io.Writer) {
	ro := r.Rollout
	if ro == nil {
		return
	}
	fmt.Fprintf(w, "\nrollout: rules in audit or warn mode, over %d replayed tool calls", ro.Replayed)
	if ro.NotReplayed > 0 {
		fmt.Fprintf(w, " (%d recorded without their input)", ro.NotReplayed)
	}
	fmt.Fprintln(w)
	if len(ro.Rules) == 0 {
		fmt.Fprintln(w, "no rule in audit or warn mode fired")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rule\tmode\tships as\tfired\twould block\tsessions\trecorded")
	for _, x := range ro.Rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\n", x.Rule, x.Mode, x.Default, x.Fired, x.WouldBlock, x.Sessions, x.Recorded)
	}
	tw.Flush()
	fmt.Fprintln(w, "would block: calls raising the rule to ask or deny (policy.modes) would have stopped; `warden replay --config FILE` shows which")
}
