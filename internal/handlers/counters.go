package handlers

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
)

// Session counters other handlers build on: the tool-call count (pacing's
// subagent reminder, strict-vs-lazy judging) and the subagent depth (is this
// call in the main context?). Always on: they are bookkeeping, not guards.
//
// The depth is the number of running subagents, kept as the set of their
// agent ids so it can never go negative and heals when a stop is missed:
//   - SubagentStart adds its agent_id; SubagentStop removes it (a stop for
//     an agent never started — the compaction agent — changes nothing; a
//     stop without an id removes the oldest);
//   - the main context's PostToolUse of the Agent tool removes the agent
//     whose result it carries (a foreground agent is done by then);
//   - the main Stop without background tasks, and every SessionStart, clear
//     the set: no foreground subagent outlives the turn;
//   - an entry older than subagentMaxAge is dropped.
func countersHandler() pipeline.Handler {
	return pipeline.Handler{
		Name: "counters",
		Events: []event.Name{event.PreToolUse, event.PostToolUse, event.SubagentStart, event.SubagentStop,
			event.SessionStart, event.Stop},
		AlwaysOn: true,
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			if c.Event == event.PreToolUse {
				c.State.ToolCount++
				return event.Decision{}, nil
			}
			a := loadAgents(c.State)
			now := c.Now.Unix()
			switch c.Event {
			case event.SubagentStart:
				id := c.Input.AgentID
				if id == "" {
					id = "anonymous-" + itoa(int(now)) + "-" + itoa(len(a))
				}
				a[id] = now
			case event.SubagentStop:
				if c.Input.AgentID != "" {
					delete(a, c.Input.AgentID)
				} else if oldest := oldestAgent(a); oldest != "" {
					delete(a, oldest)
				}
			case event.PostToolUse:
				if c.Input.AgentID == "" && (c.Input.ToolName == "Agent" || c.Input.ToolName == "Task") {
					var resp struct {
						AgentID string `json:"agentId"`
						Status  string `json:"status"`
					}
					if json.Unmarshal(c.Input.ToolResponse, &resp) == nil && resp.Status != "async_launched" {
						if resp.AgentID != "" {
							delete(a, resp.AgentID)
						}
					}
				}
			case event.SessionStart:
				a = map[string]int64{}
			case event.Stop:
				if c.Input.AgentID == "" && !hasBackgroundTasks(c.Input.Raw) {
					a = map[string]int64{}
				}
			}
			for id, t := range a {
				if now-t > subagentMaxAge {
					delete(a, id)
				}
			}
			c.State.SubagentDepth = len(a)
			return event.Decision{}, c.State.Put(keySubagents, a)
		},
	}
}

const (
	keySubagents = "subagents"
	// subagentMaxAge (seconds) drops a subagent whose stop never came.
	subagentMaxAge = 2 * 3600
)

func loadAgents(s *session.State) map[string]int64 {
	a := map[string]int64{}
	if !s.Get(keySubagents, &a) || a == nil {
		a = map[string]int64{}
		// State from before the set existed: keep what the depth said.
		for i := 0; i < s.SubagentDepth; i++ {
			a["legacy-"+itoa(i)] = 0
		}
	}
	return a
}

func oldestAgent(a map[string]int64) string {
	ids := make([]string, 0, len(a))
	for id := range a {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if a[ids[i]] != a[ids[j]] {
			return a[ids[i]] < a[ids[j]]
		}
		return ids[i] < ids[j]
	})
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

func hasBackgroundTasks(raw []byte) bool {
	var in struct {
		BackgroundTasks []json.RawMessage `json:"background_tasks"`
	}
	return json.Unmarshal(raw, &in) == nil && len(in.BackgroundTasks) > 0
}

func itoa(n int) string { return strconv.Itoa(n) }
