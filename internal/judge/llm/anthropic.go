package llm

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/warden-dev/warden/internal/judge"
)

// Anthropic asks the Messages API through the official SDK. The key is
// ANTHROPIC_API_KEY, else ANTHROPIC_AUTH_TOKEN (bearer); ANTHROPIC_BASE_URL
// moves the endpoint. The SDK's own retries are off: the engine decides
// (next model on 429/529, Retry-After only on the last one).
type Anthropic struct {
	client anthropic.Client
}

// NewAnthropic builds the provider from the environment.
func NewAnthropic(getenv func(string) string) *Anthropic {
	if getenv == nil {
		getenv = os.Getenv
	}
	opts := []option.RequestOption{option.WithMaxRetries(0)}
	if k := getenv("ANTHROPIC_API_KEY"); k != "" {
		opts = append(opts, option.WithAPIKey(k))
	} else if t := getenv("ANTHROPIC_AUTH_TOKEN"); t != "" {
		opts = append(opts, option.WithAuthToken(t))
	}
	if u := getenv("ANTHROPIC_BASE_URL"); u != "" {
		opts = append(opts, option.WithBaseURL(u))
	}
	return &Anthropic{client: anthropic.NewClient(opts...)}
}

func (a *Anthropic) Name() string { return judge.ProviderAnthropic }

func (a *Anthropic) Complete(ctx context.Context, c Call) (Completion, error) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(c.Model),
		MaxTokens: int64(c.MaxTokens),
	}
	if c.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: c.System}}
	}
	for _, m := range c.Messages {
		if m.Role == "assistant" {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(anthropic.NewTextBlock(m.Text)))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Text)))
		}
	}
	msg, err := a.client.Messages.New(ctx, params)
	if err != nil {
		var ae *anthropic.Error
		if errors.As(err, &ae) {
			out := &APIError{Status: ae.StatusCode, Type: string(ae.Type()), Message: firstLine(ae.Error())}
			if ae.Response != nil {
				out.RetryAfter = retryAfter(ae.Response.Header.Get("Retry-After"))
			}
			return Completion{}, out
		}
		return Completion{}, err
	}
	var sb strings.Builder
	for _, b := range msg.Content {
		if b.Type == "text" {
			sb.WriteString(b.Text)
		}
	}
	return Completion{Text: sb.String(), Model: string(msg.Model),
		TokensIn:  msg.Usage.InputTokens + msg.Usage.CacheReadInputTokens + msg.Usage.CacheCreationInputTokens,
		TokensOut: msg.Usage.OutputTokens}, nil
}

// retryAfter reads seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := time.Parse(time.RFC1123, v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return clip(s, 300)
}
