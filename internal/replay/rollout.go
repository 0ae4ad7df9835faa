package replay

import (
	"sort"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/policy"
	"github.com/warden-dev/warden/internal/stats"
	"github.com/warden-dev/warden/internal/store"
)

// Rollout counts, for every rule in audit or warn mode under pol, the
// recorded PreToolUse calls (chosen by f) it fires on when they are
// evaluated again, and how many of those no other rule already denies or
// asks: what raising the rule would stop. PermissionRequest events are
// left out (they repeat a PreToolUse call).
func Rollout(evs []store.Event, f Filter, home string, pol *Policy) *stats.Rollout {
	out := &stats.Rollout{Rules: []stats.RolloutRule{}}
	projects := SessionProjects(evs)
	type agg struct {
		stats.RolloutRule
		sessions map[string]bool
	}
	by := map[string]*agg{}
	get := func(id string, b *built) *agg {
		if by[id] == nil {
			by[id] = &agg{RolloutRule: stats.RolloutRule{Rule: id, Mode: string(b.modes[id]), Default: string(b.defaults[id])}, sessions: map[string]bool{}}
		}
		return by[id]
	}
	soft := func(m policy.Mode) bool { return m == policy.Audit || m == policy.Warn }
	for i := range evs {
		ev := &evs[i]
		if ev.Event != string(event.PreToolUse) || ev.Tool == "" || !f.Match(ev) {
			continue
		}
		call, skip := CallOf(ev, home, projects[ev.SessionID])
		project := call.Project
		if project == "" {
			project = projects[ev.SessionID]
		}
		b := pol.engine(project)
		if ev.Rule != "" && soft(policy.Mode(ev.Mode)) && soft(b.modes[ev.Rule]) {
			get(ev.Rule, b).Recorded++
		}
		if skip != "" {
			out.NotReplayed++
			continue
		}
		out.Replayed++
		res := b.eng.Evaluate(ctxNoGit, policy.Normalize(call))
		for _, h := range res.Hits {
			if !soft(h.Mode) {
				continue
			}
			a := get(h.ID, b)
			a.Fired++
			a.sessions[ev.SessionID] = true
			blocked := false
			for _, o := range res.Hits {
				if o.ID != h.ID && (o.Mode == policy.Deny || o.Mode == policy.Ask) {
					blocked = true
				}
			}
			if !blocked {
				a.WouldBlock++
			}
		}
	}
	for _, a := range by {
		a.Sessions = len(a.sessions)
		out.Rules = append(out.Rules, a.RolloutRule)
	}
	sort.Slice(out.Rules, func(i, j int) bool {
		a, b := out.Rules[i], out.Rules[j]
		if a.WouldBlock != b.WouldBlock {
			return a.WouldBlock > b.WouldBlock
		}
		if a.Fired != b.Fired {
			return a.Fired > b.Fired
		}
		return a.Rule < b.Rule
	})
	return out
}
