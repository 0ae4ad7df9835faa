package judge

import (
	"os"
	"os/exec"
	"strings"

	"github.com/warden-dev/warden/internal/config"
)

// Request is what the hook sends warden-helper judge (JSON on stdin): one judge
// call, fully resolved so warden-helper judge needs no config of its own.
type Request struct {
	// Judge names the judge for the record: tempo, intent-review,
	// tool-approve, appeal, error-ack, plan-drift, style-drift, claude-md.
	Judge string `json:"judge"`
	Kind  Kind   `json:"kind"`
	Tier  string `json:"tier"`
	// Models is the fallback chain: the tier's model first.
	Models []string `json:"models"`
	// Provider is anthropic, claude-cli or none (already resolved from auto).
	Provider string `json:"provider"`
	System   string `json:"system,omitempty"`
	Prompt   string `json:"prompt"`
	// DeadlineMS bounds the whole call: fallbacks and format retries.
	DeadlineMS    int `json:"deadline_ms"`
	FormatRetries int `json:"format_retries"`
	MaxTokens     int `json:"max_tokens,omitempty"`
	// OnFail, when set, is run when this request's verdict fails (the
	// appeal of a tool denial); its verdict is final.
	OnFail *Request `json:"on_fail,omitempty"`

	SessionID string `json:"session_id,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	// Record asks warden-helper judge to record the call in the store.
	Record bool `json:"record,omitempty"`
	// Lazy marks a background run (recorded as such).
	Lazy bool `json:"lazy,omitempty"`
}

// Response is warden-helper judge's answer (JSON on stdout). A response that
// FailedOpen carries a passing verdict and the reason in Error.
type Response struct {
	Verdict    Verdict  `json:"verdict"`
	Judge      string   `json:"judge"`
	Provider   string   `json:"provider"`
	Model      string   `json:"model,omitempty"`
	TokensIn   int64    `json:"tokens_in"`
	TokensOut  int64    `json:"tokens_out"`
	CostUSD    float64  `json:"cost_usd"`
	LatencyMS  int64    `json:"latency_ms"`
	Attempts   int      `json:"attempts"`
	Fallbacks  []string `json:"fallbacks,omitempty"`
	FailedOpen bool     `json:"failed_open,omitempty"`
	Error      string   `json:"error,omitempty"`
	// Appeal is the OnFail request's response, when it ran.
	Appeal *Response `json:"appeal,omitempty"`
}

// Final is the verdict that counts: the appeal's when there was one.
func (r *Response) Final() *Response {
	if r.Appeal != nil {
		return r.Appeal.Final()
	}
	return r
}

// FailOpen builds a passing response for a call that could not be judged.
func FailOpen(req *Request, why string) Response {
	pass, _ := req.Kind.Words()
	return Response{Verdict: Verdict{Pass: true, Decision: pass}, Judge: req.Judge, Provider: req.Provider,
		FailedOpen: true, Error: why}
}

// NestedEnv is set in the environment of the claude -p a claude-cli judge
// runs: `warden hook` in that nested session skips every judge, so a judge
// never judges its own call.
const NestedEnv = "WARDEN_JUDGE_NESTED"

// Nested reports whether the caller with the environment getenv runs
// inside a judge's nested claude.
func Nested(getenv func(string) string) bool { return getenv(NestedEnv) != "" }

// Provider names.
const (
	ProviderAnthropic = "anthropic"
	ProviderClaudeCLI = "claude-cli"
	ProviderNone      = "none"
)

// ResolveProvider turns llm.provider into a concrete provider and says why:
// auto picks claude-cli when claude is on PATH, else anthropic when an API
// key or auth token is set, else none (judges off).
func ResolveProvider(setting string, getenv func(string) string, lookPath func(string) (string, error)) (string, string) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	hasKey := getenv("ANTHROPIC_API_KEY") != "" || getenv("ANTHROPIC_AUTH_TOKEN") != ""
	switch setting {
	case ProviderNone:
		return ProviderNone, "llm.provider = \"none\": judges are off"
	case ProviderAnthropic:
		if !hasKey {
			return ProviderNone, "llm.provider = \"anthropic\" but neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set"
		}
		return ProviderAnthropic, "llm.provider = \"anthropic\" (key from the environment)"
	case ProviderClaudeCLI:
		if _, err := lookPath("claude"); err != nil {
			return ProviderNone, "llm.provider = \"claude-cli\" but claude is not on PATH"
		}
		return ProviderClaudeCLI, "llm.provider = \"claude-cli\""
	}
	if p, err := lookPath("claude"); err == nil {
		return ProviderClaudeCLI, "auto: claude is on PATH (" + p + ")"
	}
	if hasKey {
		return ProviderAnthropic, "auto: claude is not on PATH; an Anthropic key is set"
	}
	return ProviderNone, "auto: claude is not on PATH and neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set, so judges are off"
}

// Chain is the fallback chain of model ids for a tier: opus falls back to
// sonnet, sonnet to haiku, haiku to sonnet (on 429/529/overload).
func Chain(c *config.Config, tier string) []string {
	m := map[string]string{"haiku": c.LLM.ModelHaiku, "sonnet": c.LLM.ModelSonnet, "opus": c.LLM.ModelOpus}
	order := map[string][]string{"opus": {"opus", "sonnet"}, "sonnet": {"sonnet", "haiku"}, "haiku": {"haiku", "sonnet"}}
	tiers, ok := order[tier]
	if !ok {
		tiers = order["sonnet"]
	}
	var out []string
	for _, t := range tiers {
		if id := strings.TrimSpace(m[t]); id != "" && !contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// NewRequest fills a request from the config: provider, model chain,
// deadline (llm.timeout_ms, or llm.review_timeout_ms for a review) and
// format retries.
func NewRequest(c *config.Config, provider, judge string, kind Kind, tier, prompt string) *Request {
	deadline := c.LLM.TimeoutMS
	if kind == KindReview {
		deadline = c.LLM.ReviewTimeoutMS
	}
	return &Request{Judge: judge, Kind: kind, Tier: tier, Models: Chain(c, tier), Provider: provider,
		Prompt: prompt, DeadlineMS: deadline, FormatRetries: c.LLM.FormatRetries, Record: true}
}
