package pipeline

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/session"
)

func list(hs ...Handler) []Handler { return hs }

func decide(v event.Verdict, rule string) func(context.Context, *Call) (event.Decision, error) {
	return func(context.Context, *Call) (event.Decision, error) {
		return event.Decision{Verdict: v, RuleID: rule}, nil
	}
}

func call(ev event.Name) *Call {
	return &Call{Event: ev, Input: &event.Input{}, State: &session.State{}, Config: config.Defaults(), Enabled: true}
}

func TestRunCombinesAndFiltersByEvent(t *testing.T) {
	reg := list(
		Handler{Name: "warn", Events: []event.Name{event.PreToolUse}, Run: decide(event.Warn, "w")},
		Handler{Name: "deny", Events: []event.Name{event.PreToolUse}, Run: decide(event.Deny, "d")},
		Handler{Name: "stop-only", Events: []event.Name{event.Stop}, Run: decide(event.Deny, "s")},
	)
	d, res := Run(context.Background(), reg, call(event.PreToolUse))
	if d.Verdict != event.Deny || d.RuleID != "d" || len(res) != 2 {
		t.Errorf("got %+v (%d results)", d, len(res))
	}
}

func TestFailOpenFailClosedAndPanics(t *testing.T) {
	boom := func(context.Context, *Call) (event.Decision, error) { return event.Decision{}, errors.New("boom") }
	reg := list(
		Handler{Name: "open", Run: boom},
		Handler{Name: "panics", Run: func(context.Context, *Call) (event.Decision, error) { panic("bad") }},
	)
	d, res := Run(context.Background(), reg, call(event.PreToolUse))
	if d.Verdict != event.Allow || res[0].Err == nil || res[1].Err == nil {
		t.Errorf("fail open: %+v %+v", d, res)
	}
	reg = list(Handler{Name: "closed", FailClosed: true, Run: boom})
	d, _ = Run(context.Background(), reg, call(event.PreToolUse))
	if d.Verdict != event.Deny || d.RuleID != "closed" {
		t.Errorf("fail closed: %+v", d)
	}
}

func TestOffAndDisabledHandlers(t *testing.T) {
	reg := list(
		Handler{Name: "guard", Run: decide(event.Deny, "g")},
		Handler{Name: "always", AlwaysOn: true, Run: decide(event.Warn, "a")},
	)
	c := call(event.PreToolUse)
	c.Enabled = false
	if d, _ := Run(context.Background(), reg, c); d.RuleID != "a" {
		t.Errorf("off: only AlwaysOn handlers run, got %+v", d)
	}
	c = call(event.PreToolUse)
	c.Config.DisabledHandlers = []string{"guard"}
	if d, _ := Run(context.Background(), reg, c); d.RuleID != "a" {
		t.Errorf("disabled_handlers ignored: %+v", d)
	}
}

func TestExpiredDeadlineStopsTheRun(t *testing.T) {
	reg := list(Handler{Name: "deny", Run: decide(event.Deny, "d")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, res := Run(ctx, reg, call(event.PreToolUse))
	if d.Verdict != event.Allow || len(res) != 1 || res[0].Err == nil {
		t.Errorf("got %+v %+v", d, res)
	}
}

func TestOrderAndPriorDecisions(t *testing.T) {
	var seen []string
	var prior event.Decision
	var priorN int
	late := func(_ context.Context, c *Call) (event.Decision, error) {
		seen = append(seen, "late")
		prior, priorN = c.PriorDecision(), len(c.Prior)
		return event.Decision{}, nil
	}
	early := func(name string, v event.Verdict) func(context.Context, *Call) (event.Decision, error) {
		return func(context.Context, *Call) (event.Decision, error) {
			seen = append(seen, name)
			return event.Decision{Verdict: v, RuleID: name}, nil
		}
	}
	// The late handler is registered first but runs after the others.
	reg := list(
		Handler{Name: "late", Order: OrderJudge, Run: late},
		Handler{Name: "a", Run: early("a", event.Warn)},
		Handler{Name: "b", Run: early("b", event.Deny)},
	)
	Run(context.Background(), reg, call(event.PreToolUse))
	if got := fmt.Sprint(seen); got != "[a b late]" {
		t.Errorf("run order %s, want [a b late]", got)
	}
	if priorN != 2 || prior.Verdict != event.Deny || prior.RuleID != "b" {
		t.Errorf("the late handler saw %d prior results, combined %+v; want 2 and b's deny", priorN, prior)
	}
}
