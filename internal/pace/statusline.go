package pace

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// StatuslineRefresh is how often RecordStatusline writes unchanged figures
// (so their age stays low and the poller is not started needlessly).
const StatuslineRefresh = 60 * time.Second

// ParseRateLimits reads rate_limits.five_hour and .seven_day
// {used_percentage, resets_at (epoch seconds)} from a status line payload.
// ok is false when the payload has no rate_limits (API-key users, or
// before the first response).
func ParseRateLimits(raw []byte) (five, seven quota.Window, ok bool) {
	var p struct {
		RateLimits map[string]json.RawMessage `json:"rate_limits"`
	}
	if json.Unmarshal(raw, &p) != nil || p.RateLimits == nil {
		return five, seven, false
	}
	parse := func(b json.RawMessage) quota.Window {
		var w struct {
			Used    json.RawMessage `json:"used_percentage"`
			Resets  json.RawMessage `json:"resets_at"`
			UsedAlt json.RawMessage `json:"utilization"`
		}
		var out quota.Window
		if json.Unmarshal(b, &w) != nil {
			return out
		}
		if len(w.Used) == 0 {
			w.Used = w.UsedAlt
		}
		if f, ok := jsonNumber(w.Used); ok && f >= 0 && !math.IsInf(f, 0) {
			out.Util = &f
		}
		if f, ok := jsonNumber(w.Resets); ok && f > 0 {
			sec := int64(f)
			if sec > 1e12 { // milliseconds, defensively
				sec /= 1000
			}
			t := time.Unix(sec, 0).UTC()
			out.ResetsAt = &t
		}
		return out
	}
	five, seven = parse(p.RateLimits["five_hour"]), parse(p.RateLimits["seven_day"])
	return five, seven, five.Util != nil || seven.Util != nil
}

func jsonNumber(b json.RawMessage) (float64, bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return 0, false
	}
	var f float64
	if json.Unmarshal(b, &f) != nil || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// RecordStatusline persists the status line's rate_limits as a usage
// snapshot with source "statusline". It is cheap: it writes only when the
// figures changed or the last status line snapshot is older than
// StatuslineRefresh, and does nothing for a payload without rate_limits.
// It never touches the network.
func RecordStatusline(ctx context.Context, st quota.Store, raw []byte, now time.Time) error {
	five, seven, ok := ParseRateLimits(raw)
	if !ok {
		return nil
	}
	last, err := st.LatestSnapshot(ctx, quota.SourceStatusline)
	if err != nil {
		return err
	}
	if last != nil && now.Sub(last.Time) < StatuslineRefresh && now.Sub(last.Time) >= 0 &&
		sameWindow(last.FiveHour, five) && sameWindow(last.SevenDay, seven) {
		return nil
	}
	var sid struct {
		SessionID string `json:"session_id"`
	}
	json.Unmarshal(raw, &sid)
	_, err = st.AddSnapshot(ctx, &quota.Snapshot{Time: now.UTC(), Source: quota.SourceStatusline,
		SessionID: sid.SessionID, FiveHour: five, SevenDay: seven})
	return err
}

func sameWindow(a, b quota.Window) bool {
	eqF := (a.Util == nil) == (b.Util == nil) && (a.Util == nil || *a.Util == *b.Util)
	eqT := (a.ResetsAt == nil) == (b.ResetsAt == nil) && (a.ResetsAt == nil || a.ResetsAt.Equal(*b.ResetsAt))
	return eqF && eqT
}

// StatuslineSegment is pacing's part of the status line, from stored
// figures only (no network):
//
//	5h 42%/38% ▲  7d 61%/70% ▼ 3h12m ⏳21s
//
// Per window: utilisation / allowance and ▲ when ahead of the allowance
// (using quota faster than the pace) or ▼ when behind; then the time to the
// reset of the most constrained window, and the current delay per tool
// call when pacing throttles. "~" marks estimated figures and "(12m old)"
// figures older than the poll interval. Empty when nothing is known.
func StatuslineSegment(ctx context.Context, st quota.Store, now time.Time) string {
	s := DefaultSettings()
	var cached *Record
	if d, err := st.LatestDecision(ctx); err == nil && d != nil {
		if r, err := LoadRecord(d); err == nil {
			s.Params = r.Params
			if now.Sub(d.Time) < 2*time.Minute {
				cached = r
			}
		}
	}
	figures, err := LatestFigures(ctx, st, now, s.PollInterval)
	if err != nil || figures == nil {
		return ""
	}
	rec := Compute(figures, s, 1, now)
	if rec.Note != "" {
		return ""
	}
	return segmentText(rec, cached, now, s.PollInterval)
}

func segmentText(rec *Record, cached *Record, now time.Time, pollInterval time.Duration) string {
	d := rec.Decision
	var parts []string
	prefix := ""
	if rec.Figures.Source == quota.SourceEstimate {
		prefix = "~"
	}
	add := func(label string, w quota.Window, ws WindowStatus) {
		if w.Util == nil || w.ResetsAt == nil || ws.TimeElapsedPct == StaleTimePercent {
			return
		}
		marker := "▼"
		if ws.Utilization > ws.Target {
			marker = "▲"
		}
		parts = append(parts, fmt.Sprintf("%s %s%.0f%%/%.0f%% %s", label, prefix, ws.Utilization, ws.Target, marker))
	}
	add("5h", rec.Figures.FiveHour, d.FiveHour)
	add("7d", rec.Figures.SevenDay, d.SevenDay)
	if len(parts) == 0 {
		return ""
	}
	out := strings.Join(parts, "  ")
	reset := rec.Figures.FiveHour.ResetsAt
	if d.ConstrainedWindow != nil && *d.ConstrainedWindow == SevenDay {
		reset = rec.Figures.SevenDay.ResetsAt
	}
	if reset != nil && reset.After(now) {
		out += " " + shortDuration(reset.Sub(now))
	}
	if cached != nil && cached.DelaySeconds > 0 {
		out += fmt.Sprintf(" ⏳%ds", cached.DelaySeconds)
	}
	if age := rec.Figures.Age(now); age > pollInterval {
		out += " (" + shortDuration(age) + " old)"
	}
	return out
}

// shortDuration writes 3h12m, 2d4h, 45m, 30s.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
}

// SegmentFromPayload is the status line's pace segment computed from the
// payload's own rate_limits: no store, no network, a few microseconds. ""
// when the payload has no limits (API-key users, before the first reply).
func SegmentFromPayload(raw []byte, s Settings, now time.Time) string {
	five, seven, ok := ParseRateLimits(raw)
	if !ok {
		return ""
	}
	figures := &quota.Snapshot{Time: now.UTC(), Source: quota.SourceStatusline, FiveHour: five, SevenDay: seven}
	rec := Compute(figures, s, 1, now)
	if rec.Note != "" {
		return ""
	}
	return segmentText(rec, nil, now, s.PollInterval)
}
