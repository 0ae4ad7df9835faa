package storesource

import (
	"context"
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
// with an event since since, its newest event, and its subagents (running
// until their SubagentStop), most recently active first.
func (s *Source) Sessions(ctx context.Context, since time.Time) ([]dashboard.SessionInfo, error) {
	sums, err := s.act.SessionSummaries(ctx, since)
	if err != nil {
		return nil, err
	}
	res := make([]dashboard.SessionInfo, 0, len(sums))
	for _, ss := range sums {
		info := dashboard.SessionInfo{ID: ss.ID, Events: ss.Events, Started: ss.Started.UTC(), Updated: ss.Updated.UTC(),
			Cwd: ss.Cwd, LastEvent: ss.LastEvent, State: stateOf(ss.LastEvent)}
		for _, a := range ss.Subagents {
			ai := dashboard.AgentInfo{ID: a.ID, Updated: a.Updated.UTC(), State: "running"}
			if a.Stopped {
				ai.State = "done"
			}
			info.Agents = append(info.Agents, ai)
		}
		res = append(res, info)
	}
	sort.Slice(res, func(i, j int) bool { return res[i].Updated.After(res[j].Updated) })
	return res, nil
}
