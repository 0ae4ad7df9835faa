package storesource

import (
	"context"
	"path/filepath"
	"slices"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
)

// Chart sampling: every 5 minutes across the 5-hour window, every hour
// across the 7-day one (plus the weekend edges, where the weekly
// allowance bends).
const (
	fiveHourStep = 5 * time.Minute
	sevenDayStep = time.Hour
)

// settings are the pacing.* keys in force (user config only: every
// pacing key is user-only).
func (s *Source) settings() pace.Settings {
	cfg, _ := config.Load(filepath.Join(s.opt.WardenHome, "config.toml"), "")
	return pace.SettingsFrom(cfg)
}

// Pacing implements dashboard.Pacing with package pace's own functions:
// the figures pace would choose, pace.Compute's decision, and each
// window's allowance curve from the same allowance functions Decide uses.
func (s *Source) Pacing(ctx context.Context, now time.Time) (*dashboard.PacingView, error) {
	set := s.settings()
	now = now.UTC()
	figures, err := pace.LatestFigures(ctx, s.st, now, set.PollInterval)
	if err != nil {
		return nil, err
	}
	sessions := 1
	if ids, err := s.st.ActiveSessions(ctx, now.Add(-set.ActiveWindow)); err == nil {
		sessions = max(len(ids), 1)
	}
	rec := pace.Compute(figures, set, sessions, now)
	v := &dashboard.PacingView{Now: now, Note: rec.Note, Source: pace.SourceText(figures, now),
		DelaySeconds: rec.DelaySeconds, AlgorithmDelay: rec.AlgorithmDelay, Sessions: rec.Sessions,
		Strategy: string(rec.Decision.Strategy), Throttling: rec.DelaySeconds > 0}
	if figures == nil || rec.Note != "" {
		return v, nil
	}
	v.Estimated = figures.Source == quota.SourceEstimate
	if w := rec.Decision.ConstrainedWindow; w != nil {
		v.Window = string(*w)
	}
	in := rec.Input()
	history, err := s.st.SnapshotsSince(ctx, now.Add(-time.Duration(pace.SevenDayWindowHours*float64(time.Hour))))
	if err != nil {
		return nil, err
	}
	// Codex's figures are another account's (OpenAI's): not this chart's.
	history = slices.DeleteFunc(history, func(sn quota.Snapshot) bool { return sn.Source == quota.SourceCodex })
	for _, w := range []struct {
		name   pace.WindowName
		win    pace.Window
		status pace.WindowStatus
	}{
		{pace.FiveHour, in.FiveHour, rec.Decision.FiveHour},
		{pace.SevenDay, in.SevenDay, rec.Decision.SevenDay},
	} {
		if w.win.ResetsAt == nil || !w.win.ResetsAt.After(now) {
			continue // no active window, or stale figures
		}
		c := windowChart(w.name, *w.win.ResetsAt, w.status, set.Params, history)
		c.Constrained = v.Window == string(w.name)
		v.Windows = append(v.Windows, c)
		if v.NextReset == nil || w.win.ResetsAt.Before(*v.NextReset) {
			r := w.win.ResetsAt.UTC()
			v.NextReset = &r
		}
	}
	return v, nil
}

// windowChart samples one window's allowance and safe allowance from its
// start to its reset, and collects the observed utilisation of the same
// window (snapshots whose reset is this one).
func windowChart(name pace.WindowName, reset time.Time, st pace.WindowStatus, p pace.Params, history []quota.Snapshot) dashboard.WindowChart {
	reset = reset.UTC()
	hours, step := pace.FiveHourWindowHours, fiveHourStep
	allowance := func(start, t time.Time) float64 {
		return pace.ContinuousAllowance(start, t, pace.FiveHourWindowHours, pace.FiveHourPreloadHours)
	}
	if name == pace.SevenDay {
		hours, step = pace.SevenDayWindowHours, sevenDayStep
		allowance = func(start, t time.Time) float64 {
			return pace.WeekdayAllowance(start, t, pace.SevenDayWindowHours, p.PreloadHours)
		}
	}
	start := reset.Add(-time.Duration(hours * float64(time.Hour)))
	c := dashboard.WindowChart{Name: string(name), Start: start, Reset: reset, Util: st.Utilization,
		Target: st.Target, Safe: pace.SafeAllowance(st.Target, p.SafetyBufferPct)}
	var times []time.Time
	for t := start; !t.After(reset); t = t.Add(step) {
		times = append(times, t)
	}
	if name == pace.SevenDay {
		c.Weekends = weekends(start, reset)
		times = withEdges(times, c.Weekends)
	}
	for _, t := range times {
		a := allowance(start, t)
		c.Allowance = append(c.Allowance, dashboard.Point{T: t, V: a})
		c.SafeAllowance = append(c.SafeAllowance, dashboard.Point{T: t, V: pace.SafeAllowance(a, p.SafetyBufferPct)})
	}
	for _, snap := range history {
		w := snap.FiveHour
		if name == pace.SevenDay {
			w = snap.SevenDay
		}
		if w.Util == nil || w.ResetsAt == nil || snap.Time.Before(start) || absDur(w.ResetsAt.Sub(reset)) > 10*time.Minute {
			continue
		}
		c.Usage = append(c.Usage, dashboard.Point{T: snap.Time.UTC(), V: *w.Util})
	}
	return c
}

// weekends are the Saturday–Sunday spans (UTC, as Decide counts them)
// inside [start, end).
func weekends(start, end time.Time) []dashboard.Band {
	var out []dashboard.Band
	y, m, d := start.UTC().Date()
	for day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC); day.Before(end); day = day.AddDate(0, 0, 1) {
		if !pace.IsWeekend(day) {
			continue
		}
		from, to := maxTime(day, start), minTime(day.AddDate(0, 0, 1), end)
		if n := len(out); n > 0 && out[n-1].To.Equal(from) {
			out[n-1].To = to
			continue
		}
		out = append(out, dashboard.Band{From: from, To: to})
	}
	return out
}

// withEdges adds the weekend edges to the sample times, in order.
func withEdges(times []time.Time, bands []dashboard.Band) []time.Time {
	for _, b := range bands {
		times = append(times, b.From, b.To)
	}
	seen := map[int64]bool{}
	out := times[:0:0]
	for _, t := range times {
		if !seen[t.UnixNano()] {
			seen[t.UnixNano()] = true
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return out
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
