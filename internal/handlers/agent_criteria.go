package handlers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
)

// flagAgentCriteriaBlocked remembers that a session's Stop was blocked
// once for its task's criteria.
const flagAgentCriteriaBlocked = "agent_criteria_blocked"

// agentCriteriaTimeout bounds the git calls at Stop.
const agentCriteriaTimeout = 3 * time.Second

// The Stop gate of warden's agents: a Stop with the task's git criteria
// (committed, clean) unmet is blocked once, telling the agent what is
// missing, so it can finish instead of failing its task. run:CMD criteria
// (a test suite, minutes) are not run in a hook: the agent manager runs
// them after an allowed Stop. A Stop that is already a continuation
// (stop_hook_active), or a second one, passes: the task then fails with
// what is missing.
func agentCriteriaHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "agent-criteria",
		Events: []event.Name{event.Stop},
		Run: func(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
			id, at := findAgentTask(c)
			if at == nil || c.Input.StopHookActive || c.State == nil || c.State.Flag(flagAgentCriteriaBlocked) {
				return event.Decision{}, nil
			}
			git := agent.GitCriteria(at.Criteria)
			if len(git) == 0 {
				return event.Decision{}, nil
			}
			ctx, cancel := context.WithTimeout(ctx, agentCriteriaTimeout)
			defer cancel()
			unmet := agent.CheckCriteria(ctx, at.Dir, at.BaseCommit, git)
			if unmet == "" || ctx.Err() != nil {
				return event.Decision{}, nil // met, or git too slow: fail open, the manager checks again
			}
			c.State.SetFlag(flagAgentCriteriaBlocked, true)
			return event.Decision{Verdict: event.Deny, RuleID: "agent:criteria", Mode: "deny",
				Reason: fmt.Sprintf("warden: task %s is not done yet: %s. It is done when: %s. Do what is missing (commit your work on %s, leave nothing uncommitted), then stop again; stopping now fails the task.",
					id, unmet, strings.Join(at.Criteria, "; "), at.Branch)}, nil
		},
	}
}
