// Package judge is the hook-side half of warden's LLM judges (SPEC §5):
// what a judge asks (prompt templates, rendered with the context each judge
// needs), how a verdict reads (plain text whose first line carries the
// decision), what the transcript says, and the deterministic parts that
// decide without a model (intent stage 1, tempo's caps, strict vs lazy).
//
// It never talks to a model itself and links neither the Anthropic SDK nor
// net/http: the hook process must stay small (README, "The hot path"). When
// a model is needed, Ask runs `warden-helper judge` (internal/helper/cmds,
// found next to the running warden executable, then on PATH) with a
// Request as JSON on stdin and reads a Response as JSON on stdout, under a
// deadline. Anything that goes wrong there fails open. The providers, model
// fallback, format retries and recording live in internal/judge/llm, which
// only warden-helper links.
package judge
