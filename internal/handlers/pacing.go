package handlers

import (
	"context"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pipeline"
)

// Pacing (SPEC.md §2): every PostToolUse applies the decision in force —
// cached in the store, recomputed when stale (pace.Current) — by asking the
// runtime to sleep its delay; the runtime bounds the sleep by the hook's
// deadline, wakes on SIGTERM and records slept_ms. When the delay is
// noticeable Claude is told why. When the status line's figures are older
// than the poll interval, the hook takes the poll lease and starts a
// detached `warden pace poll` (never network I/O here). A window passing
// 80 % or 95 % is told to the user once per window.
func pacingHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "pacing",
		Events: []event.Name{event.PostToolUse},
		Run:    runPacing,
	}
}

func runPacing(ctx context.Context, c *pipeline.Call) (event.Decision, error) {
	st := c.Store
	if st == nil {
		return event.Decision{}, nil
	}
	s := pace.SettingsFrom(c.Config)
	if !s.Enabled {
		return event.Decision{}, nil
	}
	now := c.Now
	switch c.Harness {
	case "", "claude":
	case "codex":
		return codexPacing(ctx, c, st, s)
	default:
		// Gemini CLI and Copilot CLI expose no quota; Claude Code's
		// figures are another account's.
		return event.Decision{}, nil
	}
	rec, fresh, err := pace.Current(ctx, st, s, c.Input.SessionID, now)
	if err != nil {
		return event.Decision{}, err
	}
	var d event.Decision
	if fresh {
		// Only the process that recomputed looks further, so the cost of a
		// poll check or a notice is paid once per DecisionTTL, not per call.
		if _, err := pace.MaybePoll(ctx, st, s, now); err != nil {
			return event.Decision{}, fmt.Errorf("start usage poll: %w", err)
		}
		if s.Notify {
			msgs, err := pace.Notices(ctx, st, rec.Figures, now)
			if err != nil {
				return event.Decision{}, err
			}
			for i, m := range msgs {
				if i > 0 {
					d.SystemMessage += "\n"
				}
				d.SystemMessage += m
			}
		}
	}
	return applyDelay(ctx, d, rec), nil
}

// applyDelay has the runtime sleep rec's delay (bounded by the hook's
// deadline), telling the model why when it is noticeable.
func applyDelay(ctx context.Context, d event.Decision, rec *pace.Record) event.Decision {
	if rec.DelaySeconds <= 0 {
		return d
	}
	delay := time.Duration(rec.DelaySeconds) * time.Second
	if dl, ok := ctx.Deadline(); ok {
		delay = min(delay, time.Until(dl))
	}
	if delay <= 0 {
		return d
	}
	d.Sleep = delay
	if delay >= pace.NoticeableDelay {
		d.Context = pacingContext(rec, delay)
	}
	return d
}

func pacingContext(rec *pace.Record, delay time.Duration) string {
	dec := rec.Decision
	win, util, target := "5-hour", dec.FiveHour.Utilization, dec.FiveHour.Target
	if dec.ConstrainedWindow != nil && *dec.ConstrainedWindow == pace.SevenDay {
		win, util, target = "7-day", dec.SevenDay.Utilization, dec.SevenDay.Target
	}
	safe := target * rec.Params.SafetyBufferPct / 100
	msg := fmt.Sprintf("warden pacing: waited %d s after this tool call because the %s usage window is at %.1f%% against a safe allowance of %.1f%% (strategy %s)",
		int(delay.Round(time.Second).Seconds()), win, util, safe, dec.Strategy)
	if rec.Sessions > 1 && rec.DelaySeconds != rec.AlgorithmDelay {
		msg += fmt.Sprintf("; %d sessions share the account", rec.Sessions)
	}
	return msg + ". Keep working on the task; prefer fewer, well-planned tool calls over many small ones."
}
