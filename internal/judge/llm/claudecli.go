package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/judge"
)

// ClaudeCLI asks `claude -p --output-format json --model X` (the user's
// subscription). The prompt goes on stdin. The nested session gets
// WARDEN_JUDGE_NESTED=1 so warden's hooks in it skip every judge.
type ClaudeCLI struct {
	// Path is the claude executable ("" looks it up on PATH).
	Path string
	// Env is the base environment (nil: this process's).
	Env []string
}

func (c *ClaudeCLI) Name() string { return judge.ProviderClaudeCLI }

type cliResult struct {
	Type         string  `json:"type"`
	Subtype      string  `json:"subtype"`
	IsError      bool    `json:"is_error"`
	Result       string  `json:"result"`
	TotalCostUSD float64 `json:"total_cost_usd"`
	Usage        struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	} `json:"usage"`
	APIErrorStatus int `json:"api_error_status"`
}

func (c *ClaudeCLI) Complete(ctx context.Context, call Call) (Completion, error) {
	bin := c.Path
	if bin == "" {
		p, err := exec.LookPath("claude")
		if err != nil {
			return Completion{}, fmt.Errorf("claude not on PATH: %w", err)
		}
		bin = p
	}
	cmd := exec.CommandContext(ctx, bin, "-p", "--output-format", "json", "--model", call.Model)
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(append([]string(nil), env...), judge.NestedEnv+"=1")
	cmd.Stdin = strings.NewReader(flatten(call))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	setProcessGroup(cmd)
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return Completion{}, ctx.Err()
	}
	var r cliResult
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &r); err != nil {
		why := strings.TrimSpace(stderr.String())
		if why == "" {
			why = clip(stdout.String(), 200)
		}
		if runErr != nil {
			return Completion{}, classifyCLI(fmt.Sprintf("claude -p failed (%v): %s", runErr, why), 0)
		}
		return Completion{}, fmt.Errorf("claude -p printed no JSON result: %s", why)
	}
	if r.IsError || r.Subtype != "" && r.Subtype != "success" {
		return Completion{}, classifyCLI("claude -p: "+firstNonEmpty(r.Result, r.Subtype), r.APIErrorStatus)
	}
	return Completion{Text: r.Result, Model: call.Model,
		TokensIn:  r.Usage.InputTokens + r.Usage.CacheReadInputTokens + r.Usage.CacheCreationInputTokens,
		TokensOut: r.Usage.OutputTokens, CostUSD: r.TotalCostUSD}, nil
}

// classifyCLI turns claude's error text into an APIError when it names a
// rate limit or an overload, so the engine falls back to the next model.
func classifyCLI(msg string, status int) error {
	low := strings.ToLower(msg)
	switch {
	case status == 429 || strings.Contains(low, "rate limit") || strings.Contains(low, "rate_limit") || strings.Contains(low, " 429"):
		return &APIError{Status: 429, Type: "rate_limit_error", Message: msg}
	case status == 529 || strings.Contains(low, "overloaded") || strings.Contains(low, " 529"):
		return &APIError{Status: 529, Type: "overloaded_error", Message: msg}
	case status != 0:
		return &APIError{Status: status, Message: msg}
	}
	return fmt.Errorf("%s", msg)
}

// flatten writes a conversation as one prompt for claude -p: the system
// text, then each turn (a corrective retry shows the previous reply).
func flatten(c Call) string {
	var b strings.Builder
	if c.System != "" {
		b.WriteString(c.System)
		b.WriteString("\n\n")
	}
	if len(c.Messages) == 1 {
		b.WriteString(c.Messages[0].Text)
		return b.String()
	}
	for _, m := range c.Messages {
		if m.Role == "assistant" {
			b.WriteString("\n\n---\nYour previous reply was:\n")
		} else if b.Len() > 0 {
			b.WriteString("\n\n---\n")
		}
		b.WriteString(m.Text)
	}
	return b.String()
}
