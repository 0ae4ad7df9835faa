package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/stats"
)

// The queries of `warden stats` (stats.Source), as in the SQLite store:
// days are computed in SQL from ts_us shifted by the query's time-zone
// offset.

var _ stats.Source = (*Store)(nil)

// dayExpr is the YYYY-MM-DD of a ts_us column in the query's zone.
func dayExpr(col string, q stats.Query) string {
	return fmt.Sprintf("to_char(to_timestamp(%s / 1000000 + %d) AT TIME ZONE 'UTC', 'YYYY-MM-DD')", col, q.TZOffset)
}

// eventScope is the WHERE part every events query shares (alias e).
func eventScope(q stats.Query, p *params) string {
	since := q.Since.UnixMicro()
	if q.Since.IsZero() {
		since = 0
	}
	where := []string{"e.ts_us >= " + p.add(since)}
	if q.Project != "" {
		dir := strings.TrimSuffix(q.Project, "/")
		where = append(where, "(e.cwd = "+p.add(dir)+" OR starts_with(e.cwd, "+p.add(dir+"/")+"))")
	}
	return strings.Join(where, " AND ")
}

// StatsBlocks implements stats.Source. Overridden: an ask whose tool call
// then ran (a PostToolUse with the same tool_use_id), or a deny of a call
// with a path whose tool then succeeded on the same path, in the same
// session within the override window.
func (s *Store) StatsBlocks(ctx context.Context, q stats.Query) ([]stats.RuleDay, error) {
	p := params{q.OverrideWindow.Microseconds()}
	where := eventScope(q, &p)
	query := `SELECT ` + dayExpr("e.ts_us", q) + ` AS day, e.rule,
		count(*) FILTER (WHERE e.decision = 'deny'), count(*) FILTER (WHERE e.decision = 'ask'),
		count(*) FILTER (WHERE EXISTS (SELECT 1 FROM events p WHERE p.session_id = e.session_id AND p.id > e.id
			AND p.event = 'PostToolUse' AND p.ts_us <= e.ts_us + $1
			AND ((e.decision = 'ask' AND e.tool_use_id <> '' AND p.tool_use_id = e.tool_use_id)
			  OR (e.decision = 'deny' AND e.path <> '' AND p.tool = e.tool AND p.path = e.path))))
		FROM events e WHERE e.decision IN ('deny', 'ask') AND ` + where + `
		GROUP BY day, e.rule ORDER BY day, e.rule`
	rows, err := s.pool.Query(ctx, query, p...)
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
	var p params
	where := eventScope(q, &p)
	rows, err := s.pool.Query(ctx, `SELECT `+dayExpr("e.ts_us", q)+` AS day, count(*) FROM events e
		WHERE `+cond+` AND `+where+` GROUP BY day ORDER BY day`, p...)
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
	since := q.Since.UnixMicro()
	if q.Since.IsZero() {
		since = 0
	}
	p := params{since}
	query := `SELECT ` + dayExpr("j.ts_us", q) + ` AS day, j.judge, j.verdict, count(*), COALESCE(sum(j.cost_usd), 0)
		FROM judgements j WHERE j.ts_us >= $1`
	if q.Project != "" {
		where := eventScope(stats.Query{Project: q.Project}, &p)
		query += ` AND j.session_id IN (SELECT DISTINCT e.session_id FROM events e WHERE ` + where + `)`
	}
	query += ` GROUP BY day, j.judge, j.verdict ORDER BY day, j.judge, j.verdict`
	rows, err := s.pool.Query(ctx, query, p...)
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
