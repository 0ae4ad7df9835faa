package storesource

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/usage"
)

// Judgements implements dashboard.Judgements.
func (s *Source) Judgements(ctx context.Context, since time.Time, limit int) ([]dashboard.Judgement, error) {
	rows, err := s.st.Judgements(ctx, store.JudgementFilter{Since: since, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]dashboard.Judgement, 0, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		j := rows[i]
		out = append(out, dashboard.Judgement{ID: j.ID, Time: j.Time, SessionID: j.SessionID, Judge: j.Judge,
			Provider: j.Provider, Model: j.Model, Verdict: j.Verdict, Decision: j.Decision, Reason: j.Reason,
			Error: j.Error, TokensIn: j.TokensIn, TokensOut: j.TokensOut, CostUSD: j.CostUSD, LatencyMS: j.LatencyMS})
	}
	return out, nil
}

// Usage implements dashboard.Usage with the reports `warden usage`
// prints, through the same per-file cache in the store. A result is reused
// for UsageTTL; a refresh runs in the background under its own deadline,
// so a caller that stops waiting (the overview waits briefly) does not
// waste the scan, and concurrent callers share one.
func (s *Source) Usage(ctx context.Context) (*dashboard.UsageView, error) {
	s.usageMu.Lock()
	if s.usageView != nil && time.Since(s.usageAt) < s.opt.UsageTTL {
		v := s.usageView
		s.usageMu.Unlock()
		return v, nil
	}
	if s.usageDone == nil {
		done := make(chan struct{})
		s.usageDone = done
		go s.refreshUsage(done)
	}
	done := s.usageDone
	s.usageMu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, fmt.Errorf("usage reports still computing: %w", ctx.Err())
	}
	s.usageMu.Lock()
	defer s.usageMu.Unlock()
	return s.usageView, s.usageErr
}

// usageDeadline bounds one background scan of the transcripts.
const usageDeadline = 2 * time.Minute

func (s *Source) refreshUsage(done chan struct{}) {
	ctx, cancel := context.WithTimeout(context.Background(), usageDeadline)
	defer cancel()
	v, err := s.computeUsage(ctx)
	s.usageMu.Lock()
	if err == nil {
		s.usageView, s.usageAt = v, time.Now()
	}
	s.usageErr, s.usageDone = err, nil
	s.usageMu.Unlock()
	close(done)
}

func (s *Source) computeUsage(ctx context.Context) (*dashboard.UsageView, error) {
	files, err := usage.DiscoverStore(ctx, s.st, s.opt.UsageDirs)
	if err != nil {
		return nil, err
	}
	d, err := usage.Load(ctx, usage.Options{Files: files, Cache: usage.StoreCache{St: s.st}})
	if err != nil {
		return nil, err
	}
	now := s.opt.Now()
	es := d.Select(usage.Filter{Loc: s.opt.Loc})
	v := &dashboard.UsageView{Computed: now}
	v.Daily, v.DailyTotals = usage.Periods(d, es, usage.Daily, s.opt.Loc, time.Sunday)
	v.Sessions = usage.Sessions(d, es)
	v.Blocks = usage.Blocks(d, es, usage.BlockOptions{Now: now, Recent: true})
	today := now.In(s.opt.Loc).Format("2006-01-02")
	for _, r := range v.Daily {
		if r.Period == today {
			v.TodayCost = r.TotalCost
		}
	}
	return v, nil
}

// Settings implements dashboard.Settings: `warden config show`.
func (s *Source) Settings(ctx context.Context) ([]config.Setting, []config.Problem, error) {
	set, probs := config.Effective(filepath.Join(s.opt.WardenHome, "config.toml"), s.opt.ProjectDir)
	return set, probs, nil
}
