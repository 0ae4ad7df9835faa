package pace

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// SourceText words where figures came from and how old they are.
func SourceText(f *quota.Snapshot, now time.Time) string {
	if f == nil {
		return "no figures"
	}
	var src string
	switch f.Source {
	case quota.SourceStatusline:
		src = "the status line (rate_limits)"
	case quota.SourceOAuth:
		src = "the OAuth usage endpoint"
	case quota.SourceEstimate:
		src = "an ESTIMATE from local transcripts"
	case quota.SourceCodex:
		src = "Codex's rollout (its API's x-codex-* rate limits)"
	default:
		src = f.Source
	}
	age := now.Sub(f.Time)
	if age < 0 {
		age = 0
	}
	return fmt.Sprintf("%s, %s old (observed %s UTC)", src, shortDuration(age.Truncate(time.Second)), f.Time.UTC().Format("2006-01-02 15:04:05"))
}

// WindowLine is one window's line for `warden status`: utilisation,
// allowance, safe allowance, pace ahead/behind in points, time to reset.
func WindowLine(name string, w Window, ws WindowStatus, p Params, now time.Time) string {
	switch {
	case w.ResetsAt == nil:
		return fmt.Sprintf("%s: no active window", name)
	case ws.TimeElapsedPct == StaleTimePercent:
		return fmt.Sprintf("%s: %.1f%% used, but its reset (%s) has passed: stale", name, ws.Utilization, w.ResetsAt.UTC().Format(time.RFC3339))
	}
	safe := ws.Target * p.SafetyBufferPct / 100
	dev := ws.Utilization - ws.Target
	pace := fmt.Sprintf("%.1f points ahead of pace", dev)
	if dev <= 0 {
		pace = fmt.Sprintf("%.1f points behind pace", -dev)
	}
	return fmt.Sprintf("%s: %.1f%% used, allowance %.1f%%, safe %.1f%%, %s, resets in %s",
		name, ws.Utilization, ws.Target, safe, pace, shortDuration(w.ResetsAt.Sub(now)))
}

// Ledger is what pacing's reports read: the ledger, and the settings the
// newest estimate's basis is kept in (store.Local has both).
type Ledger interface {
	quota.Store
	SettingReader
}

// StatusLines are pacing's lines for `warden status`: both windows, the
// source and age of the figures, the current delay and the active sessions.
// It reads the store only (the newest figures and decision); st may be nil.
// now is the clock the allowance is computed on (it counts weekdays).
func StatusLines(ctx context.Context, st Ledger, now time.Time) []string {
	qs := st
	if st == nil {
		return []string{"pacing: store not usable"}
	}
	now = now.UTC()
	s := DefaultSettings()
	if d, err := qs.LatestDecision(ctx); err == nil && d != nil {
		if r, err := LoadRecord(d); err == nil {
			s.Params, s.FairShare = r.Params, r.FairShare
		}
	}
	figures, err := LatestFigures(ctx, qs, now, s.PollInterval)
	if err != nil {
		return []string{"pacing: cannot read the figures: " + err.Error()}
	}
	sessions := 1
	if ids, err := qs.ActiveSessions(ctx, now.Add(-s.ActiveWindow)); err == nil {
		sessions = max(len(ids), 1)
	}
	rec := Compute(figures, s, sessions, now)
	if rec.Note != "" {
		out := []string{"pacing: " + rec.Note}
		if l, err := qs.LeaseState(ctx, LeaseEstimate); err == nil && l.LastStatus != "" {
			out = append(out, "pacing estimate: none ("+l.LastStatus+")")
		}
		return out
	}
	in := rec.Input()
	lines := []string{
		"pacing " + WindowLine("5-hour", in.FiveHour, rec.Decision.FiveHour, rec.Params, now),
		"pacing " + WindowLine("7-day", in.SevenDay, rec.Decision.SevenDay, rec.Params, now),
		"pacing figures: " + SourceText(figures, now),
	}
	if figures.Source == quota.SourceEstimate {
		lines[0] = "pacing " + WindowLine("5-hour (ESTIMATED)", in.FiveHour, rec.Decision.FiveHour, rec.Params, now)
		lines[1] = "pacing 7-day: unknown (the transcript estimate covers the 5-hour window only)"
		lines = append(lines, "pacing estimate: "+estimateText(ctx, st))
	}
	delay := fmt.Sprintf("pacing delay: %d s per tool call", rec.DelaySeconds)
	if rec.DelaySeconds > 0 {
		delay += fmt.Sprintf(" (%s window, strategy %s", *rec.Decision.ConstrainedWindow, rec.Decision.Strategy)
		if rec.DelaySeconds != rec.AlgorithmDelay {
			delay += fmt.Sprintf("; %d s for one session, shared by %d", rec.AlgorithmDelay, rec.Sessions)
		}
		delay += ")"
	}
	delay += fmt.Sprintf("; %d active session(s) in the last %s", sessions, shortDuration(s.ActiveWindow))
	lines = append(lines, delay)
	if lease, err := qs.LeaseState(ctx, LeaseOAuth); err == nil && lease.LastStatus != "" && lease.LastStatus != "ok" {
		lines = append(lines, "pacing poll: last OAuth poll "+lease.LastStatus)
	}
	return lines
}

// Report is `warden pace` without figures: the decision in force now, from
// the stored figures, with the reasoning in words (window, allowance, safe
// allowance, burn rate, why this delay, fair sharing, where the figures
// came from and how old they are). It recomputes when the cached decision
// is stale.
func Report(ctx context.Context, st Ledger, s Settings, now time.Time) (string, error) {
	return report(ctx, st, s, now, false)
}

// ReportExplained is Report for `warden pace --explain`: with no figures
// stored it also says where figures come from, why none arrived and how
// to try a what-if (with figures, Report already gives the reasoning).
func ReportExplained(ctx context.Context, st Ledger, s Settings, now time.Time) (string, error) {
	return report(ctx, st, s, now, true)
}

// noFiguresExplained is the --explain text when pacing has nothing to go on.
const noFiguresExplained = `How figures reach warden, in order of preference:
- Claude Code's status line passes rate_limits (5-hour and 7-day utilisation
  and reset times) to ` + "`warden statusline`" + `, which stores them; ` + "`warden install`" + `
  registers that status line. Subscriptions only; the figures appear after the
  first model reply of a session.
- Without them, ` + "`warden pace poll`" + ` (started in the background at most every
  pacing.poll_interval) asks Anthropic's OAuth usage endpoint, using the
  subscription token Claude Code keeps in ~/.claude/.credentials.json or
  $CLAUDE_CODE_OAUTH_TOKEN.
- Without either but with a token, a 5-hour estimate from the local
  transcripts (marked ESTIMATED).
With an API key and no subscription there are no limits to pace against, and
pacing does nothing.
Try the decision for figures of your own:
  warden pace --five-hour-util 40 --seven-day-util 60 --explain`

func report(ctx context.Context, st Ledger, s Settings, now time.Time, explain bool) (string, error) {
	qs := st
	if st == nil {
		return "", fmt.Errorf("the store is not usable; run `warden doctor`")
	}
	var b strings.Builder
	if !s.Enabled {
		b.WriteString("Pacing is switched off (pacing.enabled = false).\n")
	}
	rec, _, err := Current(ctx, qs, s, "", now)
	if err != nil {
		return "", err
	}
	if rec.Note != "" {
		b.WriteString("Pacing: " + rec.Note + ".\n")
		if lease, err := qs.LeaseState(ctx, LeaseOAuth); err == nil && lease.LastStatus != "" {
			fmt.Fprintf(&b, "Last OAuth poll %s: %s.\n", lease.Last.Format(time.RFC3339), lease.LastStatus)
		}
		if lease, err := qs.LeaseState(ctx, LeaseEstimate); err == nil && lease.LastStatus != "" {
			fmt.Fprintf(&b, "Last transcript estimate %s: %s.\n", lease.Last.Format(time.RFC3339), lease.LastStatus)
		}
		if explain {
			b.WriteString("\n" + noFiguresExplained + "\n")
		} else {
			b.WriteString("`warden pace --explain` says where figures come from; a what-if: warden pace --five-hour-util 40 --seven-day-util 60\n")
		}
		return strings.TrimRight(b.String(), "\n"), nil
	}
	in := rec.Input()
	d := Decide(in, rec.Params) // with its working (Trace), which is not stored
	if rec.Figures.Source == quota.SourceEstimate {
		b.WriteString("These figures are ESTIMATED from local transcripts, not measured by Anthropic.\n")
	}
	sum := Summary(in, d)
	if rec.Figures.Source == quota.SourceEstimate && rec.Figures.SevenDay.Util == nil {
		lines := strings.Split(sum, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "  7-day ") {
				lines[i] = "  7-day   unknown (the transcript estimate covers the 5-hour window only)"
			}
		}
		sum = strings.Join(lines, "\n")
	}
	b.WriteString(sum)
	fmt.Fprintf(&b, "Figures: %s.\n", SourceText(rec.Figures, now))
	if rec.Figures.Source == quota.SourceEstimate {
		fmt.Fprintf(&b, "Estimate: %s.\n", estimateText(ctx, st))
		b.WriteString("The estimate is used because a subscription token exists but neither the status line nor the OAuth endpoint gave figures in the last 5 hours; `warden install` (status line) or reopening Claude Code (token refresh) gives real ones.\n")
	}
	if rec.Figures.Source == quota.SourceStatusline && rec.Figures.Age(now) > s.PollInterval {
		fmt.Fprintf(&b, "The status line's figures are older than the poll interval (%s); the OAuth endpoint is polled in the background when a token is available.\n", shortDuration(s.PollInterval))
	}
	if lease, err := qs.LeaseState(ctx, LeaseOAuth); err == nil && !lease.Last.IsZero() {
		fmt.Fprintf(&b, "Last OAuth poll: %s ago, %s.\n", shortDuration(now.Sub(lease.Last)), orDash(lease.LastStatus))
	}
	b.WriteString("\nWhy:\n")
	for _, line := range Explain(in, rec.Params, d) {
		b.WriteString("- " + line + "\n")
	}
	switch {
	case !rec.FairShare:
		fmt.Fprintf(&b, "- Fair sharing is off (pacing.fair_share = false): every session waits the algorithm's %d s.\n", rec.AlgorithmDelay)
	case rec.AlgorithmDelay == 0:
		fmt.Fprintf(&b, "- %d active session(s); the account is on pace, so no session waits.\n", rec.Sessions)
	case rec.Sessions <= 1:
		fmt.Fprintf(&b, "- One active session: it waits the algorithm's %d s.\n", rec.AlgorithmDelay)
	default:
		fmt.Fprintf(&b, "- %d sessions share the account: each waits %d × %d s = %d s (at most max_delay %d s), so the account's gap between tool calls grows by the algorithm's %d s.\n",
			rec.Sessions, rec.Sessions, rec.AlgorithmDelay, FairShare(rec.AlgorithmDelay, rec.Sessions, rec.Params.MaxDelay), rec.Params.MaxDelay, rec.AlgorithmDelay)
	}
	if rec.EstimateCapped {
		fmt.Fprintf(&b, "- The figures are estimated, so the delay is capped at %d s (an estimate over-states utilisation early in a block).\n", EstimateMaxDelay)
	}
	fmt.Fprintf(&b, "Delay now: %d s after each tool call.", rec.DelaySeconds)
	return b.String(), nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Notices returns the 80 % / 95 % messages due for figures: one per window
// and level, once per window reset (claimed in the store). Crossing both
// levels at once says only the higher.
func Notices(ctx context.Context, st quota.Store, figures *quota.Snapshot, now time.Time) ([]string, error) {
	if figures == nil {
		return nil, nil
	}
	var out []string
	for _, w := range []struct {
		key, name string
		win       quota.Window
	}{{"five_hour", "5-hour", figures.FiveHour}, {"seven_day", "7-day", figures.SevenDay}} {
		if w.win.Util == nil || w.win.ResetsAt == nil || !w.win.ResetsAt.After(now.Add(-StaleGrace)) {
			continue
		}
		u := *w.win.Util
		msg := ""
		for _, level := range []int{80, 95} {
			if u < float64(level) {
				continue
			}
			got, err := st.ClaimNotice(ctx, w.key, *w.win.ResetsAt, level, now)
			if err != nil {
				return out, err
			}
			if got {
				msg = fmt.Sprintf("warden: the %s usage window is at %.0f%% of its limit (passed %d%%); it resets in %s.",
					w.name, u, level, shortDuration(w.win.ResetsAt.Sub(now)))
				if figures.Source == quota.SourceEstimate {
					msg = strings.TrimSuffix(msg, ".") + " (ESTIMATED from local transcripts; see `warden pace`)."
				}
			}
		}
		if msg != "" {
			out = append(out, msg)
		}
	}
	return out, nil
}

// estimateText is the newest estimate's basis in words.
func estimateText(ctx context.Context, st Ledger) string {
	if b := LoadEstimateBasis(ctx, st); b != nil {
		return b.Text()
	}
	return "5-hour ≈ current transcript block / largest completed block; 7-day unknown"
}
