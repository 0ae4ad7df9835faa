// Package replay is `warden replay`: recorded tool calls evaluated again
// by the policy engine — the current config and rules, or a candidate —
// to show which decisions a change would turn, before it goes live. It
// only reads: its engines never run git, no handler runs (no pacing
// sleeps; the tool-approval judge only with Options.Judges, see Judges),
// and nothing is written to any store.
package replay

import (
	"context"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/policy"
	"github.com/warden-dev/warden/internal/store"
)

// Filter chooses the recorded calls; zero fields match everything.
type Filter struct {
	Since, Until time.Time
	// Project: only calls whose directory is this one or below it.
	Project string
	Session string
	Tool    string
}

// Match reports whether a recorded event passes the filter's fields other
// than Since (the store applies that).
func (f *Filter) Match(ev *store.Event) bool {
	switch {
	case !f.Since.IsZero() && ev.Time.Before(f.Since),
		!f.Until.IsZero() && !ev.Time.Before(f.Until),
		f.Session != "" && ev.SessionID != f.Session,
		f.Tool != "" && !strings.EqualFold(ev.Tool, f.Tool),
		f.Project != "" && !under(ev.Cwd, f.Project):
		return false
	}
	return true
}

func under(p, dir string) bool {
	if p == "" {
		return false
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// Options are one replay.
type Options struct {
	Filter
	// Home is the user's home directory (what ~ means in a call).
	Home string
	// Baseline is what the candidate is compared with; nil compares with
	// the decisions as recorded.
	Baseline  *Policy
	Candidate *Policy
	// Examples is how many calls each change keeps (default 3).
	Examples int
	// Judges, when set, runs the tool-approval judge again where a policy
	// leaves a call to it (warden replay --judges); nil asks no model.
	Judges *Judges
}

// Report is what a replay found.
type Report struct {
	// Against is "recorded" or the baseline's name; Candidate the
	// candidate's.
	Against   string `json:"against"`
	Candidate string `json:"candidate"`
	// Calls is the recorded tool calls the filter chose; Replayed those
	// evaluated again, Unchanged those whose decision stayed.
	Calls     int `json:"calls"`
	Replayed  int `json:"replayed"`
	Unchanged int `json:"unchanged"`
	// Reattributed counts unchanged decisions another rule now makes.
	Reattributed int `json:"reattributed"`
	// NotReplayed counts the calls that could not be evaluated, by reason.
	NotReplayed []Skipped `json:"not_replayed"`
	// OtherHandler counts calls (against the record) decided by a gate, a
	// judge or another handler, which replay does not run.
	OtherHandler int      `json:"other_handler"`
	Changes      []Change `json:"changes"`
	// Changed is the calls whose decision changed; DenyIncrease those
	// newly denied, DenyDecrease those no longer denied.
	Changed      int `json:"changed"`
	DenyIncrease int `json:"deny_increase"`
	DenyDecrease int `json:"deny_decrease"`
	// Problems are rule-file problems of the engines (rules left out).
	Problems []string `json:"problems,omitempty"`
	// Judges is what the judges cost (with --judges only).
	Judges *JudgeStats `json:"judges,omitempty"`
}

// Skipped is a count of calls not replayed for one reason.
type Skipped struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Change is the calls one rule turns from one decision to another.
type Change struct {
	// Rule decides the new outcome, or decided the old one when the new
	// is allow.
	Rule     string    `json:"rule"`
	From     string    `json:"from"`
	To       string    `json:"to"`
	Count    int       `json:"count"`
	Examples []Example `json:"examples"`
}

// Example is one changed call.
type Example struct {
	ID      int64     `json:"id"`
	Time    time.Time `json:"time"`
	Session string    `json:"session_id"`
	Call    string    `json:"call"`
	Before  Outcome   `json:"before"`
	After   Outcome   `json:"after"`
}

// Run replays evs (oldest first, as the store lists them) under o.
func Run(evs []store.Event, o Options) *Report { return RunContext(context.Background(), evs, o) }

// RunContext is Run whose judge calls (Options.Judges) end with ctx.
func RunContext(ctx context.Context, evs []store.Event, o Options) *Report {
	if o.Examples <= 0 {
		o.Examples = 3
	}
	r := &Report{Against: "recorded", Candidate: o.Candidate.Name}
	if o.Baseline != nil {
		r.Against = o.Baseline.Name
	}
	projects := SessionProjects(evs)
	skips := map[string]int{}
	// Choose and rebuild the calls, judge them side by side (an engine
	// serves concurrent callers, as in the keeper), then count in order.
	var jobs []job
	for i := range evs {
		ev := &evs[i]
		if !Replayable(ev) || !o.Match(ev) {
			continue
		}
		r.Calls++
		call, skip := CallOf(ev, o.Home, projects[ev.SessionID])
		if skip != "" {
			skips[skip]++
			continue
		}
		jobs = append(jobs, job{ev: ev, call: call})
	}
	judgeAll(jobs, o)
	if o.Judges != nil {
		runJudges(ctx, jobs, o)
		st := o.Judges.Stats()
		r.Judges = &st
	}
	groups := map[[3]string]*Change{}
	for i := range jobs {
		j := &jobs[i]
		if j.other {
			r.OtherHandler++
			continue
		}
		ev, before, after := j.ev, j.before, j.after
		r.Replayed++
		if before.Decision == after.Decision {
			// Another rule may decide now, for the same decision: not a
			// change a user or a CI threshold cares about.
			r.Unchanged++
			if before.Rule != after.Rule {
				r.Reattributed++
			}
			continue
		}
		r.Changed++
		if after.Decision == "deny" && before.Decision != "deny" {
			r.DenyIncrease++
		}
		if before.Decision == "deny" && after.Decision != "deny" {
			r.DenyDecrease++
		}
		rule := after.Rule
		if rule == "" {
			rule = before.Rule
		}
		k := [3]string{rule, before.Decision, after.Decision}
		g := groups[k]
		if g == nil {
			g = &Change{Rule: rule, From: before.Decision, To: after.Decision}
			groups[k] = g
		}
		g.Count++
		if len(g.Examples) < o.Examples {
			g.Examples = append(g.Examples, Example{ID: ev.ID, Time: ev.Time, Session: ev.SessionID,
				Call: Summary(j.call), Before: before, After: after})
		}
	}
	for reason, n := range skips {
		r.NotReplayed = append(r.NotReplayed, Skipped{Reason: reason, Count: n})
	}
	sort.Slice(r.NotReplayed, func(i, j int) bool { return r.NotReplayed[i].Count > r.NotReplayed[j].Count })
	r.Changes = []Change{}
	for _, g := range groups {
		r.Changes = append(r.Changes, *g)
	}
	sort.Slice(r.Changes, func(i, j int) bool {
		a, b := r.Changes[i], r.Changes[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.From+a.To < b.From+b.To
	})
	for _, p := range []*Policy{o.Baseline, o.Candidate} {
		if p != nil {
			for _, pr := range p.Problems() {
				r.Problems = append(r.Problems, pr.String())
			}
		}
	}
	return r
}

// job is one recorded call and its two judgements.
type job struct {
	ev            *store.Event
	call          policy.Call
	before, after Outcome
	// other: decided (as recorded) by a handler replay does not run.
	other bool
}

// judgeAll judges every job under o, on as many goroutines as there are
// CPUs.
func judgeAll(jobs []job, o Options) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(jobs); i += workers {
				judgeOne(&jobs[i], o)
			}
		}(w)
	}
	wg.Wait()
}

func judgeOne(j *job, o Options) {
	cand := o.Candidate.engine(j.call.Project)
	if o.Baseline == nil {
		if j.ev.Rule != "" && !cand.rules[j.ev.Rule] && (o.Judges == nil || j.ev.Rule != RuleToolApprove) {
			j.other = true
			return
		}
		j.before = Outcome{Decision: j.ev.Decision, Rule: j.ev.Rule}
	}
	f := policy.Normalize(j.call)
	if o.Baseline != nil {
		j.before = Judge(o.Baseline.engine(j.call.Project).eng, f)
	}
	j.after = Judge(cand.eng, f)
}

// SessionProjects is each session's project directory as its hooks saw
// it: the directory of its first recorded event (Claude Code starts in
// the project; later calls may run in a directory below it).
func SessionProjects(evs []store.Event) map[string]string {
	out := map[string]string{}
	for i := range evs {
		ev := &evs[i]
		if _, ok := out[ev.SessionID]; !ok && ev.Cwd != "" {
			out[ev.SessionID] = ev.Cwd
		}
	}
	return out
}

// FailOn is a --fail-on threshold.
type FailOn string

const (
	FailNever        FailOn = ""
	FailDenyIncrease FailOn = "deny-increase"
	FailAnyChange    FailOn = "any-change"
)

// Fails reports whether r crosses the threshold.
func (r *Report) Fails(t FailOn) bool {
	switch t {
	case FailDenyIncrease:
		return r.DenyIncrease > 0
	case FailAnyChange:
		return r.Changed > 0
	}
	return false
}
