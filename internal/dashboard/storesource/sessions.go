package storesource

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/warden-dev/warden/internal/dashboard"
)

// stateOf says what a session's newest event means for the person
// watching: a tool is running, Claude waits for the user, or it ended.
func stateOf(event string) string {
	switch event {
	case "SessionEnd":
		return "ended"
	case "Stop", "Notification", "PermissionRequest", "Elicitation":
		return "waiting"
	case "SessionStart":
		return "idle"
	default:
		return "working"
	}
}

// Sessions implements dashboard.Sessions from the event log: each session
// with an event since since, its newest event, and its subagents.
func (s *Source) Sessions(ctx context.Context, since time.Time) ([]dashboard.SessionInfo, error) {
	db := s.st.DB()
	rows, err := db.QueryContext(ctx, `SELECT e.session_id, count(*), max(e.id), min(e.ts_us), max(e.ts_us),
		coalesce((SELECT cwd FROM sessions WHERE id = e.session_id), '')
		FROM events e WHERE e.ts_us >= ? AND e.session_id != '' GROUP BY e.session_id`, since.UnixMicro())
	if err != nil {
		return nil, fmt.Errorf("read sessions: %w", err)
	}
	type last struct {
		info *dashboard.SessionInfo
		id   int64
	}
	var out []*last
	for rows.Next() {
		var l last
		var first, newest int64
		l.info = &dashboard.SessionInfo{}
		if err := rows.Scan(&l.info.ID, &l.info.Events, &l.id, &first, &newest, &l.info.Cwd); err != nil {
			rows.Close()
			return nil, err
		}
		l.info.Started, l.info.Updated = time.UnixMicro(first).UTC(), time.UnixMicro(newest).UTC()
		out = append(out, &l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	res := make([]dashboard.SessionInfo, 0, len(out))
	for _, l := range out {
		var ev, cwd string
		if err := db.QueryRowContext(ctx, "SELECT event, cwd FROM events WHERE id = ?", l.id).Scan(&ev, &cwd); err != nil {
			return nil, err
		}
		l.info.LastEvent, l.info.State = ev, stateOf(ev)
		if l.info.Cwd == "" {
			l.info.Cwd = cwd
		}
		agents, err := s.agents(ctx, l.info.ID, since)
		if err != nil {
			return nil, err
		}
		l.info.Agents = agents
		res = append(res, *l.info)
	}
	sort.Slice(res, func(i, j int) bool { return res[i].Updated.After(res[j].Updated) })
	return res, nil
}

// agents are a session's subagents seen since since: running until their
// SubagentStop.
func (s *Source) agents(ctx context.Context, session string, since time.Time) ([]dashboard.AgentInfo, error) {
	rows, err := s.st.DB().QueryContext(ctx, `SELECT agent_id, max(ts_us), max(CASE WHEN event = 'SubagentStop' THEN 1 ELSE 0 END)
		FROM events WHERE session_id = ? AND agent_id != '' AND ts_us >= ? GROUP BY agent_id ORDER BY max(ts_us) DESC LIMIT 20`,
		session, since.UnixMicro())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []dashboard.AgentInfo
	for rows.Next() {
		var a dashboard.AgentInfo
		var ts int64
		var stopped int
		if err := rows.Scan(&a.ID, &ts, &stopped); err != nil {
			return nil, err
		}
		a.Updated, a.State = time.UnixMicro(ts).UTC(), "running"
		if stopped == 1 {
			a.State = "done"
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
