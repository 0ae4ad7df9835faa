package storesource

import (
	"context"
	"path/filepath"
	"sort"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/policy"
)

// engine is the policy engine as a hook in the project would build it.
func (s *Source) engine() *policy.Engine {
	cfg, _ := config.Load(filepath.Join(s.opt.WardenHome, "config.toml"), s.opt.ProjectDir)
	user, _, _ := policy.LoadUserRules(policy.RuleDirs(s.opt.WardenHome, s.opt.ProjectDir))
	return policy.New(policy.Builtin(), user, policy.OptionsFrom(cfg, s.opt.WardenHome))
}

// RuleStats implements dashboard.Decisions: per rule, how often each mode
// decided since since, the mode in force now and how many of its blocks
// were overridden.
func (s *Source) RuleStats(ctx context.Context, since time.Time) ([]dashboard.RuleStat, error) {
	counts, err := s.act.RuleDecisionCounts(ctx, since)
	if err != nil {
		return nil, err
	}
	byRule := map[string]*dashboard.RuleStat{}
	for _, c := range counts {
		r := byRule[c.Rule]
		if r == nil {
			r = &dashboard.RuleStat{Rule: c.Rule, Mode: c.Mode}
			byRule[c.Rule] = r
		}
		switch c.Decision {
		case "deny":
			r.Deny += c.Count
		case "ask":
			r.Ask += c.Count
		case "warn":
			r.Warn += c.Count
		case "audit":
			r.Audit += c.Count
		}
		r.Total += c.Count
		if t := c.Last.UTC(); t.After(r.Last) {
			r.Last = t
		}
	}
	for _, info := range s.engine().Rules() {
		if r := byRule[info.ID]; r != nil {
			r.Mode = string(info.Mode)
		}
	}
	over, err := s.Overrides(ctx, since, dashboard.OverrideWindow)
	if err != nil {
		return nil, err
	}
	for _, o := range over {
		if r := byRule[o.Block.Rule]; r != nil {
			r.Overridden++
		}
	}
	out := make([]dashboard.RuleStat, 0, len(byRule))
	for _, r := range byRule {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Total != out[j].Total {
			return out[i].Total > out[j].Total
		}
		return out[i].Rule < out[j].Rule
	})
	return out, nil
}

// Overrides implements dashboard.Decisions: blocks (deny or ask) at
// PreToolUse or PermissionRequest followed within within, in the same
// session, by the call running anyway — a PostToolUse of the same
// tool_use_id (an ask the user approved), or of the same tool on the same
// file. The first such follow-up per block.
func (s *Source) Overrides(ctx context.Context, since time.Time, within time.Duration) ([]dashboard.Override, error) {
	pairs, err := s.act.Overrides(ctx, since, within)
	if err != nil {
		return nil, err
	}
	out := make([]dashboard.Override, 0, len(pairs))
	for _, p := range pairs {
		out = append(out, dashboard.Override{Block: p.Block, Followed: p.Followed})
	}
	return out, nil
}
