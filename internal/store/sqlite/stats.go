package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/stats"
)

// The queries of `warden stats` (stats.Source). Days are computed in SQL
// from ts_us shifted by the query's time-zone offset.

var _ stats.Source = (*Store)(nil)

// dayExpr is the YYYY-MM-DD of a ts_us column in the query's zone.
func dayExpr(col string, q stats.Query) string {
	return fmt.Sprintf("date(%s / 1000000 + %d, 'unixepoch')", col, q.TZOffset)
}

// eventScope is the WHERE part every events query shares (alias e).
func eventScope(q stats.Query) (string, []any) {
	where := []string{"e.ts_us >= ?"}
	args := []any{q.Since.UnixMicro()}
	if q.Since.IsZero() {
		args[0] = int64(0)
	}
	if q.Project != "" {
		p := strings.TrimSuffix(q.Project, "/")
		where = append(where, "(e.cwd = ? OR substr(e.cwd, 1, ?) = ?)")
		args = append(args, p, len(p)+1, p+"/")
	}
	return strings.Join(where, " AND "), args
}

// StatsBlocks implements stats.Source. Overridden: an ask whose tool call
// then ran (a PostToolUse with the same tool_use_id), or a deny of a call
// with a path whose tool then succeeded on the same path, in the same
// session within the override window.
func (s *Store) StatsBlocks(ctx context.Context, q stats.Query) ([]stats.RuleDay, error) {
	where, args := eventScope(q)
	query := `SELECT ` + dayExpr("e.ts_us", q) + ` AS day, e.rule,
		sum(e.decision = 'deny'), sum(e.decision = 'ask'),
		sum(EXISTS (SELECT 1 FROM events p WHERE p.session_id = e.session_id AND p.id > e.id
			AND p.event = 'PostToolUse' AND p.ts_us <= e.ts_us + ?
			AND ((e.decision = 'ask' AND e.tool_use_id != '' AND p.tool_use_id = e.tool_use_id)
			  OR (e.decision = 'deny' AND e.path != '' AND p.tool = e.tool AND p.path = e.path))))
		FROM events e WHERE e.decision IN ('deny', 'ask') AND ` + where + `
		GROUP BY day, e.rule ORDER BY day, e.rule`
	rows, err := s.db.QueryContext(ctx, query, append([]any{q.OverrideWindow.Microseconds()}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("stats: blocks: %w", err)
	}
	defer rows.Close()
	var out []stats.RuleDay
	for rows.Next() {
		var r stats.RuleDay
		if err := rows.Scan(&r.Day, &r.Rule, &r.Denied, &r.Asked, &r.Overridden); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// StatsBreakerTrips implements stats.Source: the breaker warns once, when
// it trips.
func (s *Store) StatsBreakerTrips(ctx context.Context, q stats.Query) ([]stats.DayCount, error) {
	return s.dayCounts(ctx, q, "e.rule = 'gates:breaker' AND e.decision = 'warn'")
}

// StatsLoopsCaught implements stats.Source: workaround detection's denials.
func (s *Store) StatsLoopsCaught(ctx context.Context, q stats.Query) ([]stats.DayCount, error) {
	return s.dayCounts(ctx, q, "e.rule = 'judge:workaround'")
}

func (s *Store) dayCounts(ctx context.Context, q stats.Query, cond string) ([]stats.DayCount, error) {
	where, args := eventScope(q)
	rows, err := s.db.QueryContext(ctx, `SELECT `+dayExpr("e.ts_us", q)+` AS day, count(*) FROM events e
		WHERE `+cond+` AND `+where+` GROUP BY day ORDER BY day`, args...)
	if err != nil {
		return nil, fmt.Errorf("stats: %w", err)
	}
	defer rows.Close()
	var out []stats.DayCount
	for rows.Next() {
		var c stats.DayCount
		if err := rows.Scan(&c.Day, &c.N); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// StatsJudges implements stats.Source. With a project, the judge calls of
// the sessions that have events in it.
func (s *Store) StatsJudges(ctx context.Context, q stats.Query) ([]stats.JudgeDay, error) {
	query := `SELECT ` + dayExpr("j.ts_us", q) + ` AS day, j.judge, j.verdict, count(*), total(j.cost_usd)
		FROM judgements j WHERE j.ts_us >= ?`
	args := []any{q.Since.UnixMicro()}
	if q.Since.IsZero() {
		args[0] = int64(0)
	}
	if q.Project != "" {
		where, eargs := eventScope(stats.Query{Project: q.Project})
		query += ` AND j.session_id IN (SELECT DISTINCT e.session_id FROM events e WHERE ` + where + `)`
		args = append(args, eargs...)
	}
	query += ` GROUP BY day, j.judge, j.verdict ORDER BY day, j.judge, j.verdict`
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("stats: judges: %w", err)
	}
	defer rows.Close()
	var out []stats.JudgeDay
	for rows.Next() {
		var j stats.JudgeDay
		if err := rows.Scan(&j.Day, &j.Judge, &j.Verdict, &j.N, &j.CostUSD); err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}
