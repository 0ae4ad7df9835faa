package orchestrator

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
)

// Quota is what the scheduler needs to know about the account's windows.
type Quota struct {
	// Critical: a window is over its safe allowance or at 95 % or more;
	// nothing new starts and running agents are asked to pause.
	Critical bool
	// Reason says why, with the figures ("5-hour window at 96.0% (≥ 95%)",
	// "pacing allows new work: 5-hour 40.0% of safe 52.3%").
	Reason string
	// ResumeAt is the reset of the critical window(s), the latest one
	// when both are; zero when not critical.
	ResumeAt time.Time
}

// QuotaSource tells the scheduler the quota state at now.
type QuotaSource interface {
	Quota(ctx context.Context, now time.Time) (Quota, error)
}

// CriticalUtil is the utilisation at which a window is critical whatever
// its allowance.
const CriticalUtil = 95.0

// PaceQuota judges the quota from usage figures with the pacing algorithm
// (internal/pace): the daemon reads the figures from the store
// (StoreFigures); tests give recorded ones.
type PaceQuota struct {
	Settings pace.Settings
	// Figures returns the best usage figures at now (nil: none known).
	Figures func(ctx context.Context, now time.Time) (*quota.Snapshot, error)
}

// StoreFigures reads the figures pacing uses from the store.
func StoreFigures(st quota.Store, s pace.Settings) func(context.Context, time.Time) (*quota.Snapshot, error) {
	return func(ctx context.Context, now time.Time) (*quota.Snapshot, error) {
		return pace.LatestFigures(ctx, st, now, s.PollInterval)
	}
}

// Quota implements QuotaSource.
func (p *PaceQuota) Quota(ctx context.Context, now time.Time) (Quota, error) {
	if !p.Settings.Enabled {
		return Quota{Reason: "pacing is off (pacing.enabled = false): quota does not hold work back"}, nil
	}
	figs, err := p.Figures(ctx, now)
	if err != nil {
		return Quota{}, err
	}
	rec := pace.Compute(figs, p.Settings, 1, now)
	if rec.Note != "" {
		return Quota{Reason: "pacing allows new work: " + rec.Note}, nil
	}
	return judge(rec, p.Settings.Params), nil
}

// judge applies the critical rule to a pacing record.
func judge(rec *pace.Record, prm pace.Params) Quota {
	type win struct {
		name    string
		on      bool
		st      pace.WindowStatus
		resets  *time.Time
		elapsed float64
	}
	var five, seven win
	five = win{name: "5-hour", on: prm.FiveHourLimit, st: rec.Decision.FiveHour}
	seven = win{name: "7-day", on: prm.WeeklyLimit, st: rec.Decision.SevenDay}
	if rec.Figures != nil {
		five.resets, seven.resets = rec.Figures.FiveHour.ResetsAt, rec.Figures.SevenDay.ResetsAt
	}
	var q Quota
	var why, fine []string
	for _, w := range []win{five, seven} {
		// A window without a future reset takes no part (stale or unknown).
		if !w.on || w.resets == nil || !w.resets.After(rec.Now) || w.st.TimeElapsedPct == pace.StaleTimePercent {
			continue
		}
		safe := pace.SafeAllowance(w.st.Target, prm.SafetyBufferPct) + prm.ThresholdPercent
		switch {
		case w.st.Utilization >= CriticalUtil:
			why = append(why, fmt.Sprintf("%s window at %.1f%% (≥ %.0f%%)", w.name, w.st.Utilization, CriticalUtil))
		case w.st.Utilization > safe:
			why = append(why, fmt.Sprintf("%s window at %.1f%%, over its safe allowance %.1f%%", w.name, w.st.Utilization, safe))
		default:
			fine = append(fine, fmt.Sprintf("%s %.1f%% of safe %.1f%%", w.name, w.st.Utilization, safe))
			continue
		}
		q.Critical = true
		if w.resets.After(q.ResumeAt) {
			q.ResumeAt = *w.resets
		}
	}
	if q.Critical {
		q.Reason = strings.Join(why, "; ") + fmt.Sprintf("; resumes by the reset at %s", q.ResumeAt.UTC().Format(time.RFC3339))
		return q
	}
	if len(fine) == 0 {
		q.Reason = "pacing allows new work: no active window"
	} else {
		q.Reason = "pacing allows new work: " + strings.Join(fine, ", ")
	}
	return q
}
