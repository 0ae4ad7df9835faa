package storesource

import (
	"context"
	"fmt"
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
	rows, err := s.st.DB().QueryContext(ctx, `SELECT rule, decision, count(*), max(ts_us), max(mode)
		FROM events WHERE rule != '' AND ts_us >= ? GROUP BY rule, decision`, since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("count decisions: %w", err)
	}
	byRule := map[string]*dashboard.RuleStat{}
	for rows.Next() {
		var rule, dec, mode string
		var n int
		var last int64
		if err := rows.Scan(&rule, &dec, &n, &last, &mode); err != nil {
			rows.Close()
			return nil, err
		}
		r := byRule[rule]
		if r == nil {
			r = &dashboard.RuleStat{Rule: rule, Mode: mode}
			byRule[rule] = r
		}
		switch dec {
		case "deny":
			r.Deny += n
		case "ask":
			r.Ask += n
		case "warn":
			r.Warn += n
		case "audit":
			r.Audit += n
		}
		r.Total += n
		if t := time.UnixMicro(last).UTC(); t.After(r.Last) {
			r.Last = t
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
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
	q := `SELECT b.id, (SELECT f.id FROM events f WHERE f.session_id = b.session_id AND f.id > b.id
			AND f.ts_us <= b.ts_us + ? AND f.event = 'PostToolUse' AND f.tool = b.tool
			AND ((b.tool_use_id != '' AND f.tool_use_id = b.tool_use_id) OR (b.path != '' AND f.path = b.path))
			ORDER BY f.id LIMIT 1) AS followed
		FROM events b
		WHERE b.ts_us >= ? AND b.decision IN ('deny', 'ask') AND b.rule != '' AND b.session_id != ''
			AND b.event IN ('PreToolUse', 'PermissionRequest') AND followed IS NOT NULL
		ORDER BY b.id DESC LIMIT 200`
	rows, err := s.st.DB().QueryContext(ctx, q, within.Microseconds(), since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("find overridden blocks: %w", err)
	}
	var pairs [][2]int64
	for rows.Next() {
		var p [2]int64
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			rows.Close()
			return nil, err
		}
		pairs = append(pairs, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]dashboard.Override, 0, len(pairs))
	for _, p := range pairs {
		b, err := s.event(ctx, p[0])
		if err != nil || b == nil {
			return nil, fmt.Errorf("read event %d: %v", p[0], err)
		}
		f, err := s.event(ctx, p[1])
		if err != nil || f == nil {
			return nil, fmt.Errorf("read event %d: %v", p[1], err)
		}
		out = append(out, dashboard.Override{Block: *b, Followed: *f})
	}
	return out, nil
}
