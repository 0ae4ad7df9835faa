// Package pipeline is the extension point of the hook runtime: every
// capability (pacing, policy, gates, judges, lifecycle…) is a Handler that
// gets the decoded input and the session state and returns a decision.
// Decisions combine with precedence deny > ask > warn > allow
// (event.Resolve). The handlers are a list the caller passes (the hook
// runtime passes internal/handlers.All()): no registry, no init().
package pipeline

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store"
)

// Call is everything a handler may look at for one hook event.
type Call struct {
	Event event.Name
	Input *event.Input
	// State is this session's state; handlers may change it and the runtime
	// saves it with the event.
	State *session.State
	// Config is the effective config (defaults where the files are broken).
	Config *config.Config
	// ConfigProblems lists what was wrong with the config files.
	ConfigProblems []config.Problem
	// Store is nil when the store could not be opened (hooks still run).
	Store store.Local
	// ProjectDir is CLAUDE_PROJECT_DIR, else the payload's cwd.
	ProjectDir string
	// Env is the caller: its environment and working directory (the
	// resident server runs many callers in one process, so a handler
	// never reads os.Getenv or the process's directory). nil means this
	// process's own. The context a handler gets carries it too
	// (reqenv.From), for packages that start programs.
	Env *reqenv.Env
	// Harness is the CLI that called ("claude", "codex", "gemini",
	// "copilot"; "" = claude): what the CLI exposes differs (pacing).
	Harness string
	// Enabled is false after `warden off`: only AlwaysOn handlers run.
	Enabled bool
	Now     time.Time
	// Prior are the results of the handlers that already ran for this
	// event, in run order (Run sets it before each handler). A late handler
	// (an LLM judge) reads it to leave alone what an earlier one decided.
	Prior []Result

	// memo holds what one handler worked out about this call for the
	// others (Once). It lives and dies with the call: a resident server
	// runs many callers at once and shares nothing between them.
	memo map[string]any
}

// Once returns what fn computes for key, computing it at most once per
// call (the call's facts are read by several gates). Handlers of a call
// run one after another, so no lock is needed.
func Once[T any](c *Call, key string, fn func() T) T {
	if v, ok := c.memo[key].(T); ok {
		return v
	}
	v := fn()
	if c.memo == nil {
		c.memo = map[string]any{}
	}
	c.memo[key] = v
	return v
}

// Paths resolves warden's and Claude Code's files for the caller.
func (c *Call) Paths() paths.Paths {
	if c.Env == nil {
		return paths.Of(nil)
	}
	return paths.Of(c.Env.Getenv)
}

// Caller is the caller's environment and directory (this process's when
// Env is nil).
func (c *Call) Caller() *reqenv.Env {
	if c.Env == nil {
		return reqenv.Process()
	}
	return c.Env
}

// Getenv reads the caller's environment.
func (c *Call) Getenv(key string) string { return c.Env.Getenv(key) }

// PriorDecision combines the decisions of the handlers that ran before
// the current one (allow when none did).
func (c *Call) PriorDecision() event.Decision {
	ds := make([]event.Decision, 0, len(c.Prior))
	for _, r := range c.Prior {
		ds = append(ds, r.Decision)
	}
	return event.Resolve(ds)
}

// Orders of handlers. Deterministic handlers keep the default; the LLM
// judges run after all of them, so that a call a rule or a gate already
// decided never costs a model call, and so that a judge can count the
// denials of the others (workaround detection).
const (
	OrderDefault = 0
	OrderJudge   = 100
)

// Handler is one capability plugged into the hook runtime.
type Handler struct {
	// Name identifies the handler in config (disabled_handlers) and records.
	Name string
	// Events the handler runs on; empty means every event.
	Events []event.Name
	// AlwaysOn handlers run even after `warden off` (the user must be able
	// to type `warden on` again).
	AlwaysOn bool
	// FailClosed turns an error from Run into a deny instead of an allow.
	FailClosed bool
	// Order places the handler in the run: lower orders run first,
	// registration order within one order (OrderDefault, OrderJudge).
	Order int
	// Run decides. It must respect ctx's deadline.
	Run func(ctx context.Context, c *Call) (event.Decision, error)
}

// Result is one handler's outcome, kept for the record.
type Result struct {
	Handler  string
	Decision event.Decision
	Err      error
	// Started is when the handler began (with the monotonic reading:
	// Started.Sub of the hook's start is exact); Elapsed how long it ran.
	Started time.Time
	Elapsed time.Duration
}

// For lists the handlers of hs that run for c, in run order: matching the
// event, enabled in config, and AlwaysOn when warden is off.
func For(hs []Handler, c *Call) []Handler {
	var out []Handler
	for _, h := range hs {
		if !runsOn(h, c.Event) {
			continue
		}
		if !c.Enabled && !h.AlwaysOn {
			continue
		}
		if c.Config != nil && !c.Config.HandlerEnabled(h.Name) && !h.AlwaysOn {
			continue
		}
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

func runsOn(h Handler, ev event.Name) bool {
	if len(h.Events) == 0 {
		return true
	}
	for _, e := range h.Events {
		if e == ev {
			return true
		}
	}
	return false
}

// Run runs the handlers of all that apply to c, in order, and combines
// their decisions. A handler that fails or panics is allowed past (fail
// open) unless it is FailClosed; either way the error is in its Result.
func Run(ctx context.Context, all []Handler, c *Call) (event.Decision, []Result) {
	hs := For(all, c)
	results := make([]Result, 0, len(hs))
	decisions := make([]event.Decision, 0, len(hs))
	for _, h := range hs {
		if ctx.Err() != nil {
			results = append(results, Result{Handler: h.Name, Err: ctx.Err(), Started: time.Now()})
			break
		}
		c.Prior = results[:len(results):len(results)] // capped: a handler cannot write into the run's results
		start := time.Now()
		d, err := safeRun(ctx, h, c)
		if err != nil {
			d = event.Decision{}
			if h.FailClosed {
				d = event.Decision{Verdict: event.Deny, RuleID: h.Name, Mode: "deny",
					Reason: fmt.Sprintf("%s failed and is set to fail closed: %v", h.Name, err)}
			}
		}
		results = append(results, Result{Handler: h.Name, Decision: d, Err: err, Started: start, Elapsed: time.Since(start)})
		decisions = append(decisions, d)
	}
	return event.Resolve(decisions), results
}

func safeRun(ctx context.Context, h Handler, c *Call) (d event.Decision, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("handler %s panicked: %v", h.Name, r)
		}
	}()
	return h.Run(ctx, c)
}
