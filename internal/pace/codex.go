package pace

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// Codex CLI's quota: its API's rate-limit headers, which Codex records in
// the rollout (internal/pace/codexrl reads them). They are OpenAI's limits,
// so they pace Codex sessions only, and Claude Code's figures never pace a
// Codex session: a Codex decision is computed from the newest "codex"
// snapshot alone, with the same maths and settings, and is not cached in
// the decision table (that cache is Claude Code's; Compute is cheap).
// Gemini CLI and Copilot CLI expose no quota to warden: their sessions are
// not paced (NoQuotaNote).

// NoQuotaNote says why a CLI's sessions are not paced.
func NoQuotaNote(title string) string {
	return title + " exposes no quota figures to warden (no rate limits in its transcripts or hook payloads): its sessions are not paced"
}

// NoCodexFiguresNote is a Codex decision's note before any figures.
const NoCodexFiguresNote = "no Codex rate limits known yet (Codex records them in its rollout after the first model reply; API-key providers without x-codex-* headers send none): pacing does nothing"

// RecordCodex stores figures read from a Codex rollout as a "codex"
// snapshot for session, unless nothing is new: the stored ones are as
// recent (the same line read again, or another session's newer line of
// the same account), or equal and younger than StatuslineRefresh. It
// returns the snapshot pacing should use.
func RecordCodex(ctx context.Context, st quota.Store, figures quota.Snapshot, session string) (*quota.Snapshot, error) {
	last, err := st.LatestSnapshot(ctx, quota.SourceCodex)
	if err != nil {
		return nil, err
	}
	if last != nil {
		same := sameWindow(last.FiveHour, figures.FiveHour) && sameWindow(last.SevenDay, figures.SevenDay)
		// Another session's figures are stored even when equal: the
		// sessions that stored figures lately are the ones sharing them.
		if !figures.Time.After(last.Time) || (same && last.SessionID == session && figures.Time.Sub(last.Time) < StatuslineRefresh) {
			return last, nil
		}
	}
	figures.Source, figures.SessionID = quota.SourceCodex, session
	if _, err := st.AddSnapshot(ctx, &figures); err != nil {
		return nil, err
	}
	return &figures, nil
}

// CodexDecision is the decision in force for a Codex session at now: the
// newest Codex figures, shared among the Codex sessions that recorded
// figures in the active window (and session itself).
func CodexDecision(ctx context.Context, st quota.Store, s Settings, session string, now time.Time) (*Record, error) {
	figures, err := st.LatestSnapshot(ctx, quota.SourceCodex)
	if err != nil {
		return nil, err
	}
	sessions := 1
	if s.FairShare {
		snaps, err := st.SnapshotsSince(ctx, now.Add(-s.ActiveWindow))
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		if session != "" {
			seen[session] = true
		}
		for _, sn := range snaps {
			if sn.Source == quota.SourceCodex && sn.SessionID != "" {
				seen[sn.SessionID] = true
			}
		}
		sessions = max(len(seen), 1)
	}
	rec := Compute(figures, s, sessions, now)
	if figures == nil {
		rec.Note = NoCodexFiguresNote
	}
	return rec, nil
}

// CodexReport is `warden pace --harness codex` in words: both windows,
// where the figures came from, and the delay each tool call gets.
func CodexReport(rec *Record, now time.Time) string {
	var b strings.Builder
	b.WriteString("Codex CLI pacing, by Codex's own rate limits:\n")
	if rec.Note != "" {
		b.WriteString(rec.Note + "\n")
		return b.String()
	}
	in := rec.Input()
	fmt.Fprintln(&b, WindowLine("5-hour", in.FiveHour, rec.Decision.FiveHour, rec.Params, now))
	fmt.Fprintln(&b, WindowLine("7-day", in.SevenDay, rec.Decision.SevenDay, rec.Params, now))
	fmt.Fprintln(&b, "figures: "+SourceText(rec.Figures, now))
	delay := fmt.Sprintf("delay: %d s after each Codex tool call", rec.DelaySeconds)
	if rec.DelaySeconds > 0 {
		delay += fmt.Sprintf(" (%s window, strategy %s", *rec.Decision.ConstrainedWindow, rec.Decision.Strategy)
		if rec.DelaySeconds != rec.AlgorithmDelay {
			delay += fmt.Sprintf("; %d s for one session, shared by %d", rec.AlgorithmDelay, rec.Sessions)
		}
		delay += ")"
	}
	fmt.Fprintln(&b, delay)
	return b.String()
}
