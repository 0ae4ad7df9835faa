package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// The harness phase measures `warden hook --harness NAME` for each CLI
// warden governs, from the Node parent with the store keeper (the path
// every CLI's hooks take): per round one benign shell-command PreToolUse
// in each CLI's own payload dialect (Claude Code's, Codex's, Gemini's
// BeforeTool, Copilot's camelCase preToolUse), plus a bare Go process,
// the order rotated every round. The machine is shared and noisy, so the
// figures that matter are the ratios measured in the same rounds: each
// CLI's p50 to Claude Code's.

// harnessRun is one CLI's hook as its installer registers it.
type harnessRun struct {
	name string
	args []string
	// payload is the CLI's PreToolUse for `ls -la` with description desc.
	payload func(b *bench, desc string) []byte
}

var harnessRuns = []harnessRun{
	{name: "claude", args: []string{"hook", "--harness", "claude"},
		payload: func(b *bench, _ string) []byte { return b.payload(preToolUse) }},
	{name: "codex", args: []string{"hook", "--harness", "codex"}, payload: codexPayload},
	{name: "gemini", args: []string{"hook", "--harness", "gemini"}, payload: geminiPayload},
	{name: "copilot", args: []string{"hook", "--harness", "copilot", "preToolUse"}, payload: copilotPayload},
}

// codexPayload: Codex sends no description (its payload is smaller than
// the others'); the command stays the short one, as the model writes it.
func codexPayload(b *bench, _ string) []byte {
	p, _ := json.Marshal(map[string]any{
		"session_id": "0a1b2c3d-codex-4e5f-8a9b-0c1d2e3f4a5b", "turn_id": "0a1b2c3d-turn-4e5f-8a9b-0c1d2e3f4a5b",
		"transcript_path": "/home/dev/.codex/sessions/2026/11/28/rollout-2026-11-28T10-00-00-0a1b2c3d.jsonl",
		"cwd":             b.dir, "hook_event_name": preToolUse, "model": "gpt-5.4", "permission_mode": "default",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "ls -la"},
		"tool_use_id": fmt.Sprintf("call_bench_%08d", b.seq),
	})
	return p
}

func geminiPayload(b *bench, desc string) []byte {
	p, _ := json.Marshal(map[string]any{
		"session_id": "1a2b3c4d-gemini-4e5f-8a9b-0c1d2e3f4a5b", "transcript_path": "/home/dev/.gemini/tmp/app/chats/session-1a2b3c4d.jsonl",
		"cwd": b.dir, "hook_event_name": "BeforeTool", "timestamp": time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC).Format(time.RFC3339Nano),
		"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "ls -la", "description": desc},
	})
	return p
}

func copilotPayload(b *bench, desc string) []byte {
	p, _ := json.Marshal(map[string]any{
		"sessionId": "2a3b4c5d-copilot-4e5f-8a9b-0c1d2e3f4a5b", "timestamp": 1795900000000 + b.seq, "cwd": b.dir,
		"toolName": "bash", "toolArgs": map[string]any{"command": "ls -la", "description": desc},
	})
	return p
}

// HarnessPhase is the per-CLI figures of one run.
type HarnessPhase struct {
	Rounds int       `json:"rounds"`
	Hooks  []Summary `json:"hooks"` // claude first
	Bare   Summary   `json:"bare_go"`
	// RatioToClaude is each CLI's p50 to Claude Code's, in Hooks' order.
	RatioToClaude []float64 `json:"ratio_p50_to_claude"`
	// InProcess is each CLI's hook work inside warden (the rows'
	// latency_us), in Hooks' order: what differs between the CLIs apart
	// from the noise of spawning.
	InProcess []Summary `json:"in_process"`
	RowsAdded int       `json:"rows_added"`
	Declines  int64     `json:"declines"`
}

func (b *bench) harnessPhase(p *nodeParent, o options) (*HarnessPhase, error) {
	before, _, err := b.countRows(nil)
	if err != nil {
		return nil, err
	}
	declinesBefore, err := b.declines()
	if err != nil {
		return nil, err
	}
	bare := len(harnessRuns)
	samples := make([][]float64, bare+1)
	runs := 0
	for r := 0; r < o.warmup+o.harnessRounds; r++ {
		for i := 0; i <= bare; i++ {
			k := (r + i) % (bare + 1) // rotate who goes first
			run := nodeRun{Path: o.bare}
			if k < bare {
				h := harnessRuns[k]
				b.seq++
				run = nodeRun{Path: o.warden, Args: h.args, Stdin: string(h.payload(b, b.desc))}
				runs++
			}
			ms, err := p.burst([]nodeRun{run})
			if err != nil {
				return nil, fmt.Errorf("harness phase: %w", err)
			}
			if r >= o.warmup {
				samples[k] = append(samples[k], ms...)
			}
		}
	}
	after, bad, err := b.settledRows(nil, before+runs)
	if err != nil {
		return nil, err
	}
	declinesAfter, err := b.declines()
	if err != nil {
		return nil, err
	}
	ph := &HarnessPhase{Rounds: o.harnessRounds, RowsAdded: after - before, Declines: declinesAfter - declinesBefore,
		Bare: summarize("bare Go", samples[bare])}
	if ph.RowsAdded != runs {
		return nil, fmt.Errorf("harness phase: %d warden runs added %d rows", runs, ph.RowsAdded)
	}
	if bad > 0 {
		return nil, fmt.Errorf("harness phase: %d rows are not a clean allow", bad)
	}
	for k, h := range harnessRuns {
		s := summarize("warden hook --harness "+h.name, samples[k])
		ph.Hooks = append(ph.Hooks, s)
	}
	for _, s := range ph.Hooks {
		ph.RatioToClaude = append(ph.RatioToClaude, s.Median/ph.Hooks[0].Median)
	}
	work, err := b.workByHarness(o.harnessRounds * len(harnessRuns))
	if err != nil {
		return nil, err
	}
	for _, h := range harnessRuns {
		ph.InProcess = append(ph.InProcess, summarize(h.name+" in-process", work[h.name]))
	}
	return ph, nil
}

// workByHarness is the in-process time (ms) of the last n rows, by harness.
func (b *bench) workByHarness(n int) (map[string][]float64, error) {
	conn, done, err := b.useConn(nil)
	if err != nil {
		return nil, err
	}
	defer done()
	rows, err := conn.QueryContext(context.Background(), `SELECT harness, latency_us FROM events ORDER BY rowid DESC LIMIT ?`, n)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]float64{}
	for rows.Next() {
		var h string
		var us int64
		if err := rows.Scan(&h, &us); err != nil {
			return nil, err
		}
		out[h] = append(out[h], float64(us)/1000)
	}
	return out, rows.Err()
}

func printHarnesses(w io.Writer, ph *HarnessPhase) {
	if ph == nil {
		return
	}
	fmt.Fprintf(w, "\nper harness, one caller from the Node parent with the store keeper, %d rounds, order rotated per round\n", ph.Rounds)
	fmt.Fprintf(w, "  %-34s %9s %9s %9s %12s\n", "ms", "median", "p90", "p99", "p50/claude")
	for i, s := range ph.Hooks {
		fmt.Fprintf(w, "  %-34s %9.2f %9.2f %9.2f %11.2f×\n", s.Name, s.Median, s.P90, s.P99, ph.RatioToClaude[i])
	}
	fmt.Fprintf(w, "  %-34s %9.2f %9.2f %9.2f\n", ph.Bare.Name, ph.Bare.Median, ph.Bare.P90, ph.Bare.P99)
	for _, s := range ph.InProcess {
		fmt.Fprintf(w, "  %-34s %9.2f %9.2f %9.2f\n", s.Name, s.Median, s.P90, s.P99)
	}
	fmt.Fprintf(w, "  %d rows, all clean allows; %d declined\n", ph.RowsAdded, ph.Declines)
}
