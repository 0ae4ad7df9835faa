package storesource

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/policy"
)

// Explain implements dashboard.Decisions: `warden policy explain` for a
// recorded event. With the raw input captured (capture = true) the call is
// evaluated again now, as the CLI would; without it the recorded decision
// is shown with the command to run by hand.
func (s *Source) Explain(ctx context.Context, id int64) (*dashboard.Explanation, error) {
	e, err := s.act.Event(ctx, id)
	if err != nil || e == nil {
		return nil, err
	}
	ex := &dashboard.Explanation{Event: *e}
	var payload struct {
		ToolName  string          `json:"tool_name"`
		ToolInput json.RawMessage `json:"tool_input"`
		Cwd       string          `json:"cwd"`
	}
	if len(e.Raw) == 0 || json.Unmarshal(e.Raw, &payload) != nil || payload.ToolName == "" {
		ex.Note = "The tool call's input was not captured (capture = false), so it cannot be evaluated again here; run the command below with the call."
		ex.Command = "warden policy explain -- '<the command>'"
		if e.Tool != "" && e.Tool != "Bash" {
			ex.Command = fmt.Sprintf(`warden policy explain --call '{"tool_name":%q,"tool_input":{…}}'`, e.Tool)
		}
		return ex, nil
	}
	call := policy.Call{Event: e.Event, Tool: payload.ToolName, Input: payload.ToolInput, Cwd: payload.Cwd,
		Home: s.opt.UserHome, Project: s.opt.ProjectDir}
	if call.Event == "" {
		call.Event = "PreToolUse"
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	f := policy.Normalize(call)
	res := s.engine().Evaluate(ctx, f)
	ex.Decision = string(res.Decision)
	if ex.Decision == "" {
		ex.Decision = "allow"
	}
	for _, h := range res.Hits {
		ex.Hits = append(ex.Hits, dashboard.ExplainHit{ID: h.ID, Mode: string(h.Mode), Reason: h.Reason})
	}
	if b, err := json.MarshalIndent(f, "", "  "); err == nil {
		ex.Facts = string(b)
	}
	callJSON, _ := json.Marshal(map[string]any{"tool_name": payload.ToolName, "tool_input": payload.ToolInput})
	ex.Command = "warden policy explain --call '" + strings.ReplaceAll(string(callJSON), "'", `'\''`) + "'"
	return ex, nil
}
