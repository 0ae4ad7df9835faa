package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// The confirm judge is an agent: it reads the diff, may call Read, Glob
// and Grep (projectFS) for up to N turns, and ends with its verdict. The
// loop speaks the Messages API through the official SDK; tool calls are
// answered here, never by a shell.

// agentRun is what the loop did.
type agentRun struct {
	Text      string
	Model     string
	Turns     int
	Calls     []string // "Read main.go", "Grep TODO", …
	TokensIn  int64
	TokensOut int64
}

// agentMaxTokens is one turn's output: a tool call or the verdict.
const agentMaxTokens = 4096

func anthropicClient(getenv func(string) string) anthropic.Client {
	opts := []option.RequestOption{option.WithMaxRetries(0)}
	if k := getenv("ANTHROPIC_API_KEY"); k != "" {
		opts = append(opts, option.WithAPIKey(k))
	} else if t := getenv("ANTHROPIC_AUTH_TOKEN"); t != "" {
		opts = append(opts, option.WithAuthToken(t))
	}
	if u := getenv("ANTHROPIC_BASE_URL"); u != "" {
		opts = append(opts, option.WithBaseURL(u))
	}
	return anthropic.NewClient(opts...)
}

func agentTools() []anthropic.ToolUnionParam {
	var tools []anthropic.ToolUnionParam
	for _, t := range readToolSchemas {
		tp := anthropic.ToolParam{Name: t.Name, Description: anthropic.String(t.Description),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: t.Properties, Required: t.Required}}
		tools = append(tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	return tools
}

// runAgent drives the loop: each turn is one request; tool calls are
// answered from fsys and sent back; the turn budget's last request forbids
// tools so the model must answer. A model that is overloaded or fails
// hands the same turn to the next model of the chain.
func runAgent(ctx context.Context, client anthropic.Client, models []string, system, prompt string,
	fsys *projectFS, maxTurns int, done func(string) bool) (agentRun, error) {
	var run agentRun
	msgs := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(prompt))}
	tools := agentTools()
	mi, corrected := 0, false
	for run.Turns < maxTurns+1 {
		last := run.Turns >= maxTurns-1
		params := anthropic.MessageNewParams{Model: anthropic.Model(models[mi]), MaxTokens: agentMaxTokens,
			System: []anthropic.TextBlockParam{{Text: system}}, Messages: msgs, Tools: tools}
		if last {
			params.ToolChoice = anthropic.ToolChoiceUnionParam{OfNone: &anthropic.ToolChoiceNoneParam{}}
		}
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			if ctx.Err() != nil {
				return run, unavailable("no verdict before the deadline (%d turns done)", run.Turns)
			}
			if mi+1 < len(models) {
				mi++
				continue
			}
			return run, unavailable("%s", apiErrorText(err))
		}
		run.Turns++
		run.Model = string(msg.Model)
		run.TokensIn += msg.Usage.InputTokens + msg.Usage.CacheReadInputTokens + msg.Usage.CacheCreationInputTokens
		run.TokensOut += msg.Usage.OutputTokens
		msgs = append(msgs, msg.ToParam())
		var text strings.Builder
		var results []anthropic.ContentBlockParamUnion
		for _, b := range msg.Content {
			switch b.Type {
			case "text":
				text.WriteString(b.Text)
			case "tool_use":
				out, terr := fsys.call(b.Name, b.Input)
				run.Calls = append(run.Calls, describeCall(b.Name, b.Input))
				if terr != nil {
					results = append(results, anthropic.NewToolResultBlock(b.ID, terr.Error(), true))
				} else {
					results = append(results, anthropic.NewToolResultBlock(b.ID, out, false))
				}
			}
		}
		if len(results) > 0 {
			if run.Turns >= maxTurns {
				results = append(results, anthropic.NewTextBlock("No turns are left: give your verdict now, without tools."))
			} else if run.Turns == maxTurns-1 {
				results = append(results, anthropic.NewTextBlock("This is your last turn: give your verdict now."))
			}
			msgs = append(msgs, anthropic.NewUserMessage(results...))
			continue
		}
		run.Text = text.String()
		if done(run.Text) {
			return run, nil
		}
		if corrected || run.Turns > maxTurns {
			return run, unavailable("the judge's reply carries no verdict: %q", clip(strings.TrimSpace(run.Text), 200))
		}
		corrected = true
		msgs = append(msgs, anthropic.NewUserMessage(anthropic.NewTextBlock(confirmFormat)))
	}
	return run, unavailable("no verdict within %d turns", maxTurns)
}

// describeCall is a short line for the result: the tool and its target.
func describeCall(name string, input []byte) string {
	var in map[string]any
	_ = jsonUnmarshal(input, &in)
	for _, k := range []string{"path", "pattern"} {
		if v, ok := in[k].(string); ok && v != "" {
			return name + " " + clip(v, 120)
		}
	}
	return name
}

func apiErrorText(err error) string {
	var ae *anthropic.Error
	if errors.As(err, &ae) {
		return fmt.Sprintf("API error %d: %s", ae.StatusCode, firstLine(ae.Error()))
	}
	return firstLine(err.Error())
}
