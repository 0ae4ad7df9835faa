package handlers

import (
	"context"
	"fmt"
	"strings"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/policy"
)

// keyPolicyAsked is the session value listing the files a once-per-session
// rule (core.sensitive) already asked about.
const keyPolicyAsked = "policy_asked"

// The guard engine (internal/policy): built-in packs plus the user's and
// the project's rule files, evaluated against PreToolUse calls,
// PermissionRequest and UserPromptSubmit prompts. The engine is built once
// per configuration and rule files (see engines) and compiles only what
// the calls reach.
func policyHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "policy",
		Events: []event.Name{event.PreToolUse, event.PermissionRequest, event.UserPromptSubmit},
		Run:    runPolicy,
	}
}

func runPolicy(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
	in := c.Input
	if c.Event != event.UserPromptSubmit && in.ToolName == "" {
		return event.Decision{}, nil
	}
	res, probs := evaluatePolicy(ctx, c)
	d := alwaysForTask(ctx, c, decide(c, res))
	// A broken rule file is left out (the other rules still apply); the
	// user hears about it once per session.
	if len(probs) > 0 && c.State != nil && !c.State.Flag(flagRulesWarned) {
		c.State.SetFlag(flagRulesWarned, true)
		d.SystemMessage = fmt.Sprintf("warden: rule file problem, rule left out: %s. Run `warden policy lint`.", probs[0])
	}
	return d, nil
}

const flagRulesWarned = "policy_rules_warned"

// evaluatePolicy runs the caller's engine (built-in packs, its rule files,
// its config) on the call, and says which rule files were left out.
func evaluatePolicy(ctx context.Context, c *pipeline.Call) (*policy.Result, []policy.Problem) {
	in := c.Input
	home := c.Paths().UserHome()
	cwd := in.Cwd
	if cwd == "" {
		cwd = c.ProjectDir
	}
	agent, agentKey := agentPacks(c)
	built := engines.get(policy.RuleDirs(c.Paths().Home(), c.ProjectDir), policy.OptionsFrom(c.Config, c.Paths().Home()), agent, agentKey)
	f := policy.Normalize(policy.Call{Event: string(c.Event), Tool: in.ToolName, Input: in.ToolInput,
		Prompt: in.Prompt, Cwd: cwd, Home: home, Project: c.ProjectDir})
	if c.State != nil {
		f.Session = map[string]any{"tool_count": c.State.ToolCount, "subagent_depth": c.State.SubagentDepth}
	}
	return built.eng.EvaluateFor(ctx, f, c.Getenv), built.probs // the caller's CLAUDE_CONFIG_DIR, not the server's
}

// decide turns the engine's hits into one decision: once-per-session asks
// already answered are dropped; at PermissionRequest only denials count
// (the ask already happened at PreToolUse).
func decide(c *pipeline.Call, res *policy.Result) event.Decision {
	asked := map[string]bool{}
	if c.State != nil {
		c.State.Get(keyPolicyAsked, &asked)
	}
	var hits []policy.Hit
	changed := false
	for _, h := range res.Hits {
		if c.Event == event.PermissionRequest && h.Mode != policy.Deny {
			continue
		}
		if h.OnceKey != "" && h.Mode == policy.Ask {
			k := h.ID + "|" + h.OnceKey
			if asked[k] {
				continue
			}
			if c.Event == event.PreToolUse {
				asked[k], changed = true, true
			}
		}
		hits = append(hits, h)
	}
	if changed && c.State != nil {
		_ = c.State.Put(keyPolicyAsked, asked)
	}
	if len(hits) == 0 {
		return event.Decision{}
	}
	top := 0
	for i, h := range hits {
		if h.Mode.Rank() > hits[top].Mode.Rank() {
			top = i
		}
	}
	t := hits[top]
	reason := t.Reason
	var also []string
	for i, h := range hits {
		if i != top {
			also = append(also, fmt.Sprintf("%s (%s)", h.ID, h.Mode))
		}
	}
	if len(also) > 0 {
		reason += "; also: " + strings.Join(also, ", ")
	}
	if c.Event == event.PreToolUse && t.Mode == policy.Deny {
		reason += ". Do not try to get around this guard; if the action is really needed, ask the user to run it."
	}
	return event.Decision{Verdict: verdictOf(t.Mode), RuleID: t.ID, Mode: string(t.Mode), Reason: reason}
}

func verdictOf(m policy.Mode) event.Verdict {
	// One enum: a rule's mode is the verdict; off says nothing.
	if m == policy.Off || m == "" {
		return event.Allow
	}
	return m
}
