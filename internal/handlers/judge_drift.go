package handlers

import (
	"context"
	"os"
	"path/filepath"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/judge"
	"github.com/warden-dev/warden/internal/pipeline"
)

// The drift judges (SPEC §5 "other judges"), each off by default:
//
//   - validation.claude_md: a Write/Edit of any CLAUDE.md or CLAUDE.local.md
//     is judged (sonnet) for instructions that weaken the user's rules.
//   - validation.plan_drift: a Write/Edit under <claude dir>/plans/ is
//     judged (sonnet) against the user's prompts of the session.
//   - validation.style_drift: an Edit/MultiEdit whose changed lines are
//     mostly formatting, when the user asked for no formatting, is judged
//     (haiku); one that changes nothing but formatting on many lines is
//     denied without a model (see judge.StyleStats).
//
// One judge per call: a CLAUDE.md or plan file gets its own judge, not the
// style judge. CLAUDE.md and plan files are always strict (StrictReason);
// a style judgement may run lazily. With the three switches off this
// handler returns before reading anything.
//
// It runs with the judges (pipeline.OrderJudge), after the deterministic
// handlers — a call they denied costs no model call — and before
// judge-pretool, which counts a denial of ours as trouble (the next
// judgement is strict) and delivers our lazy verdicts.
func judgeDriftHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "judge-drift",
		Events: []event.Name{event.PreToolUse},
		Order:  pipeline.OrderJudge,
		Run:    runJudgeDrift,
	}
}

func runJudgeDrift(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
	v := c.Config.Validation
	if !v.PlanDrift && !v.StyleDrift && !v.ClaudeMD || judge.Nested(c.Getenv) {
		return event.Decision{}, nil
	}
	in := c.Input
	if in.ToolName != "Write" && in.ToolName != "Edit" && in.ToolName != "MultiEdit" {
		return event.Decision{}, nil
	}
	file := absFile(in.ToolString("file_path"), in.Cwd, c.ProjectDir)
	if file == "" {
		return event.Decision{}, nil
	}
	var check func(context.Context, *pipeline.Call, *judge.State, string) event.Decision
	switch {
	case judge.IsClaudeMD(file):
		if v.ClaudeMD {
			check = claudeMDCheck
		}
	case judge.IsPlanFile(file, c.Paths().ClaudeDir()):
		if v.PlanDrift {
			check = planDriftCheck
		}
	case v.StyleDrift && in.ToolName != "Write":
		check = styleDriftCheck
	}
	if check == nil || c.PriorDecision().Verdict == event.Deny {
		return event.Decision{}, nil
	}
	js := judge.LoadState(c.State)
	d := check(ctx, c, js, file)
	js.DriftPrompt = js.Prompts
	js.Save(c.State)
	return d, nil
}

// absFile makes a tool's file path absolute (Claude Code sends absolute
// paths; a relative one is taken from the call's cwd, else the project).
func absFile(p, cwd, project string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		base := cwd
		if base == "" {
			base = project
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// maxCurrent bounds how much of the file being changed is read to show
// the judge what the change replaces.
const maxCurrent = 256 << 10

// readCurrent returns the file's content when it exists and is small.
func readCurrent(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCurrent {
		return "", false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return string(b), true
}
