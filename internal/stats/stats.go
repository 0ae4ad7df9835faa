// Package stats is `warden stats`: what the guards did, per day — blocks
// per rule, blocks the user overrode soon after (likely wrong), breaker
// trips, loops caught, judge verdicts and their cost. The figures come from
// a Source (the store implements it, internal/store/sqlite/stats.go) so the
// CLI and the dashboard show the same numbers.
package stats

import (
	"context"
	"sort"
	"time"
)

// Query selects what is counted.
type Query struct {
	// Since: only events at or after it (zero: all).
	Since time.Time
	// Project: only events whose cwd is this directory or under it, and
	// judge calls of their sessions ("": every project).
	Project string
	// OverrideWindow: a block counts as overridden when the user let the
	// same call through within it (default DefaultOverrideWindow).
	OverrideWindow time.Duration
	// TZOffset shifts timestamps into the days of a time zone (seconds
	// east of UTC); days are YYYY-MM-DD in that zone.
	TZOffset int
}

// DefaultOverrideWindow is how soon after a block letting the same call
// through counts as overriding it.
const DefaultOverrideWindow = 10 * time.Minute

// RuleDay is the blocks of one rule on one day.
type RuleDay struct {
	Day  string `json:"day"`
	Rule string `json:"rule"`
	// Denied and Asked count deny and ask decisions.
	Denied int `json:"denied"`
	Asked  int `json:"asked"`
	// Overridden counts those the user let through soon after: an ask
	// whose tool call then ran (same tool_use_id), or a denied file-tool
	// call whose tool then succeeded on the same path in the same session.
	Overridden int `json:"overridden"`
}

// DayCount is a count on one day.
type DayCount struct {
	Day string `json:"day"`
	N   int    `json:"n"`
}

// JudgeDay is one judge's verdicts of one kind on one day.
type JudgeDay struct {
	Day     string  `json:"day"`
	Judge   string  `json:"judge"`
	Verdict string  `json:"verdict"` // pass | fail | open
	N       int     `json:"n"`
	CostUSD float64 `json:"cost_usd"`
}

// Source answers the queries. Declared here, implemented by the store, so
// the dashboard reuses it with its own rendering.
type Source interface {
	// StatsBlocks counts deny and ask decisions per day and rule.
	StatsBlocks(ctx context.Context, q Query) ([]RuleDay, error)
	// StatsBreakerTrips counts circuit-breaker trips per day.
	StatsBreakerTrips(ctx context.Context, q Query) ([]DayCount, error)
	// StatsLoopsCaught counts calls stopped as a repetition loop
	// (workaround detection: the same denied call tried again and again).
	StatsLoopsCaught(ctx context.Context, q Query) ([]DayCount, error)
	// StatsJudges counts judge calls per day, judge and verdict, with cost.
	StatsJudges(ctx context.Context, q Query) ([]JudgeDay, error)
}

// Report is every figure, per day, with totals.
type Report struct {
	Since        time.Time  `json:"since,omitempty"`
	Project      string     `json:"project,omitempty"`
	Days         []Day      `json:"days"`
	Totals       Totals     `json:"totals"`
	Rules        []RuleDay  `json:"rules"` // per rule over the whole period (Day empty)
	BlocksByDay  []RuleDay  `json:"blocks_by_day"`
	BreakerTrips []DayCount `json:"breaker_trips"`
	LoopsCaught  []DayCount `json:"loops_caught"`
	Judges       []JudgeDay `json:"judges"`
	// Rollout is set by the caller that can replay calls (`warden stats`).
	Rollout *Rollout `json:"rollout,omitempty"`
}

// Day sums one day.
type Day struct {
	Day          string  `json:"day"`
	Blocks       int     `json:"blocks"`
	Overridden   int     `json:"overridden"`
	BreakerTrips int     `json:"breaker_trips"`
	LoopsCaught  int     `json:"loops_caught"`
	JudgeCalls   int     `json:"judge_calls"`
	JudgeFails   int     `json:"judge_fails"`
	JudgeCostUSD float64 `json:"judge_cost_usd"`
}

// Totals sums the period.
type Totals struct {
	Denied       int     `json:"denied"`
	Asked        int     `json:"asked"`
	Overridden   int     `json:"overridden"`
	BreakerTrips int     `json:"breaker_trips"`
	LoopsCaught  int     `json:"loops_caught"`
	JudgeCalls   int     `json:"judge_calls"`
	JudgeCostUSD float64 `json:"judge_cost_usd"`
}

// Collect runs the queries and assembles the report.
func Collect(ctx context.Context, src Source, q Query) (*Report, error) {
	if q.OverrideWindow <= 0 {
		q.OverrideWindow = DefaultOverrideWindow
	}
	r := &Report{Since: q.Since, Project: q.Project}
	var err error
	if r.BlocksByDay, err = src.StatsBlocks(ctx, q); err != nil {
		return nil, err
	}
	if r.BreakerTrips, err = src.StatsBreakerTrips(ctx, q); err != nil {
		return nil, err
	}
	if r.LoopsCaught, err = src.StatsLoopsCaught(ctx, q); err != nil {
		return nil, err
	}
	if r.Judges, err = src.StatsJudges(ctx, q); err != nil {
		return nil, err
	}
	days := map[string]*Day{}
	day := func(d string) *Day {
		if days[d] == nil {
			days[d] = &Day{Day: d}
		}
		return days[d]
	}
	rules := map[string]*RuleDay{}
	for _, b := range r.BlocksByDay {
		d := day(b.Day)
		d.Blocks += b.Denied + b.Asked
		d.Overridden += b.Overridden
		r.Totals.Denied += b.Denied
		r.Totals.Asked += b.Asked
		r.Totals.Overridden += b.Overridden
		if rules[b.Rule] == nil {
			rules[b.Rule] = &RuleDay{Rule: b.Rule}
		}
		rr := rules[b.Rule]
		rr.Denied, rr.Asked, rr.Overridden = rr.Denied+b.Denied, rr.Asked+b.Asked, rr.Overridden+b.Overridden
	}
	for _, c := range r.BreakerTrips {
		day(c.Day).BreakerTrips += c.N
		r.Totals.BreakerTrips += c.N
	}
	for _, c := range r.LoopsCaught {
		day(c.Day).LoopsCaught += c.N
		r.Totals.LoopsCaught += c.N
	}
	for _, j := range r.Judges {
		d := day(j.Day)
		d.JudgeCalls += j.N
		d.JudgeCostUSD += j.CostUSD
		if j.Verdict == "fail" {
			d.JudgeFails += j.N
		}
		r.Totals.JudgeCalls += j.N
		r.Totals.JudgeCostUSD += j.CostUSD
	}
	for _, d := range days {
		r.Days = append(r.Days, *d)
	}
	sort.Slice(r.Days, func(i, j int) bool { return r.Days[i].Day < r.Days[j].Day })
	for _, rr := range rules {
		r.Rules = append(r.Rules, *rr)
	}
	sort.Slice(r.Rules, func(i, j int) bool {
		a, b := r.Rules[i], r.Rules[j]
		if a.Denied+a.Asked != b.Denied+b.Asked {
			return a.Denied+a.Asked > b.Denied+b.Asked
		}
		return a.Rule < b.Rule
	})
	return r, nil
}
