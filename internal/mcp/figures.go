package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The figure tools ask warden-core, the binary behind every `warden`
// command, for exactly what the CLI prints (its --json where it has one):
// one implementation, the same answer in the terminal and to the agent.

// figureTimeout bounds one warden-core run (a usage report over a large
// transcript history is the slowest).
const figureTimeout = 60 * time.Second

// Figures is the output of status, pace, usage, events and explain.
type Figures struct {
	// Command is the warden command that produced the figures.
	Command string `json:"command" jsonschema:"the warden command that produced these figures"`
	// Data is the command's JSON output (absent when it prints text).
	Data any `json:"data,omitempty" jsonschema:"the command's JSON output"`
	// Text is the command's text output (status) or a note.
	Text string `json:"text,omitempty" jsonschema:"the command's text output"`
}

// StatusOut adds to status what the chain tools depend on.
type StatusOut struct {
	Figures
	Enabled bool `json:"enabled" jsonschema:"whether warden's handlers are on"`
	// Judge is the provider the judges (confirm, commit, validate_intent,
	// check's summary) would use, and why.
	Judge    string `json:"judge" jsonschema:"the LLM provider of the judges: anthropic, claude-cli or none"`
	JudgeWhy string `json:"judge_why" jsonschema:"why that provider"`
}

type noArgs struct{}

type PaceIn struct{}

type UsageIn struct {
	Report string `json:"report,omitempty" jsonschema:"daily, weekly, monthly, session or blocks (default daily)"`
	Since  string `json:"since,omitempty" jsonschema:"first day to include, YYYY-MM-DD or YYYYMMDD"`
}

type EventsIn struct {
	Limit   int    `json:"limit,omitempty" jsonschema:"how many recent events (1-500, default 20)"`
	Session string `json:"session,omitempty" jsonschema:"only this session id"`
	Event   string `json:"event,omitempty" jsonschema:"only this hook event, e.g. PreToolUse"`
	Since   string `json:"since,omitempty" jsonschema:"only events since a duration back (90m, 24h, 7d) or a date"`
}

type ExplainIn struct {
	Command string `json:"command" jsonschema:"the shell command to explain, e.g. git push --force origin main"`
}

var (
	usageReports = []string{"daily", "weekly", "monthly", "session", "blocks"}
	dateRe       = lazyRE(`^\d{4}-?\d{2}-?\d{2}$`)
	sinceRe      = lazyRE(`^(\d+(ns|us|ms|s|m|h|d)|\d{4}-\d{2}-\d{2})$`)
	eventNameRe  = lazyRE(`^[A-Za-z]+$`)
)

func (s *server) addFigureTools(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{Name: "status", Annotations: readOnly,
		Description: "warden's state: on or off, the store and its last 24 h, safemode, the circuit breaker, pacing windows, config health, and which LLM provider the judges use."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, StatusOut, error) {
			f, err := s.core(ctx, false, "status")
			if err != nil {
				return nil, StatusOut{}, err
			}
			out := StatusOut{Figures: f}
			first, _, _ := strings.Cut(f.Text, "\n")
			out.Enabled = !strings.Contains(first, "OFF")
			out.Judge, out.JudgeWhy = s.provider()
			return nil, out, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "pace", Annotations: readOnly,
		Description: "The pacing decision now: 5-hour and 7-day utilisation against their allowance, and the delay warden adds after each tool call."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ PaceIn) (*sdk.CallToolResult, Figures, error) {
			// Without what-if figures the CLI explains the stored decision
			// in words; --json is only for a what-if.
			f, err := s.core(ctx, false, "pace")
			return nil, f, err
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "usage", Annotations: readOnly,
		Description: "Token and cost report from Claude Code's transcripts (ccusage-compatible JSON)."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in UsageIn) (*sdk.CallToolResult, Figures, error) {
			report := in.Report
			if report == "" {
				report = "daily"
			}
			if !contains(usageReports, report) {
				return nil, Figures{}, argError("report", "%q is not a report; use one of %s", report, strings.Join(usageReports, ", "))
			}
			args := []string{"usage", report, "--json"}
			if in.Since != "" {
				if !dateRe().MatchString(in.Since) {
					return nil, Figures{}, argError("since", "%q is not a date; use YYYY-MM-DD or YYYYMMDD", in.Since)
				}
				args = append(args, "--since", strings.ReplaceAll(in.Since, "-", ""))
			}
			f, err := s.core(ctx, true, args...)
			return nil, f, err
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "events", Annotations: readOnly,
		Description: "warden's recorded hook events and decisions, newest last (what was denied, asked, warned, and why)."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in EventsIn) (*sdk.CallToolResult, Figures, error) {
			limit := in.Limit
			if limit == 0 {
				limit = 20
			}
			if limit < 1 || limit > 500 {
				return nil, Figures{}, argError("limit", "%d is out of range; use 1 to 500", in.Limit)
			}
			args := []string{"log", "--json", "-n", fmt.Sprint(limit)}
			if in.Session != "" {
				args = append(args, "--session", in.Session)
			}
			if in.Event != "" {
				if !eventNameRe().MatchString(in.Event) {
					return nil, Figures{}, argError("event", "%q is not a hook event name (e.g. PreToolUse)", in.Event)
				}
				args = append(args, "--event", in.Event)
			}
			if in.Since != "" {
				if !sinceRe().MatchString(in.Since) {
					return nil, Figures{}, argError("since", "%q is neither a duration (90m, 24h, 7d) nor a date (YYYY-MM-DD)", in.Since)
				}
				args = append(args, "--since", in.Since)
			}
			f, err := s.core(ctx, false, args...)
			if err != nil {
				return nil, f, err
			}
			// log --json prints one event per line.
			evs := []any{}
			sc := bufio.NewScanner(strings.NewReader(f.Text))
			sc.Buffer(make([]byte, 64<<10), 16<<20)
			for sc.Scan() {
				var e any
				if json.Unmarshal(sc.Bytes(), &e) == nil {
					evs = append(evs, e)
				}
			}
			return nil, Figures{Command: f.Command, Data: evs}, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "explain", Annotations: readOnly,
		Description: "The policy decision warden would make for a shell command: the rules that fire, their modes and reasons, and the parsed facts."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in ExplainIn) (*sdk.CallToolResult, Figures, error) {
			if strings.TrimSpace(in.Command) == "" {
				return nil, Figures{}, argError("command", "empty; give the shell command to explain")
			}
			f, err := s.core(ctx, true, "policy", "explain", "--json", "--", in.Command)
			return nil, f, err
		})
}

// core runs warden-core with args in the project and returns its output:
// parsed JSON in Data when asJSON, else the text.
func (s *server) core(ctx context.Context, asJSON bool, args ...string) (Figures, error) {
	f := Figures{Command: "warden " + strings.Join(args, " ")}
	ctx, cancel := context.WithTimeout(ctx, figureTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.o.Core, args...)
	cmd.Dir = s.o.Dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return f, fmt.Errorf("%s: no answer within %v", f.Command, figureTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return f, fmt.Errorf("%s: cannot run %s: %v (warden-core belongs next to warden-helper; make install puts it there)", f.Command, s.o.Core, err)
	}
	if err != nil {
		msg := firstLine(errb.String())
		if msg == "" {
			msg = firstLine(out.String())
		}
		return f, fmt.Errorf("%s failed (exit %d): %s", f.Command, ee.ExitCode(), msg)
	}
	if !asJSON {
		f.Text = trimLines(out.String())
		return f, nil
	}
	if err := json.Unmarshal(out.Bytes(), &f.Data); err != nil {
		return f, fmt.Errorf("%s printed no JSON: %v", f.Command, err)
	}
	return f, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
