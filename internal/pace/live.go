package pace

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/pace/quota"
)

// The live layer: the figures in the store, the cached decision every
// PostToolUse applies, and when to poll. It reads the store through
// quota.Store and never the network; polling is `warden pace poll`
// (internal/pace/oauth), started detached by the hook when it is due.

// DecisionTTL is how long a computed decision is reused. A decision is also
// recomputed at once when newer figures arrive or the parameters change.
const DecisionTTL = 30 * time.Second

// NoticeableDelay is the delay from which the model is told why it waited.
const NoticeableDelay = 5 * time.Second

// Settings are the live layer's tunables (the pacing.* config keys).
type Settings struct {
	Enabled      bool
	Params       Params
	PollInterval time.Duration
	ActiveWindow time.Duration
	FairShare    bool
	Notify       bool
	// HookTimeout is the PostToolUse timeout in seconds (max_delay is
	// capped 10 s below it).
	HookTimeout int
}

// DefaultSettings are the config defaults.
func DefaultSettings() Settings { return SettingsFrom(config.Defaults()) }

// SettingsFrom reads the pacing.* keys of cfg (nil: defaults).
func SettingsFrom(cfg *config.Config) Settings {
	if cfg == nil {
		cfg = config.Defaults()
	}
	pc := cfg.Pacing
	s := Settings{
		Enabled: pc.Enabled,
		Params: Params{
			PreloadHours: pc.PreloadHours, SafetyBufferPct: pc.SafetyBufferPct,
			BaseDelay: pc.BaseDelay, MaxDelay: pc.MaxDelay, ThresholdPercent: pc.ThresholdPercent,
			WeeklyLimit: pc.WeeklyLimit, FiveHourLimit: pc.FiveHourLimit,
		},
		PollInterval: time.Duration(pc.PollInterval) * time.Second,
		ActiveWindow: time.Duration(pc.ActiveWindow) * time.Minute,
		FairShare:    pc.FairShare,
		Notify:       pc.Notify,
		HookTimeout:  360,
	}
	if s.Params.Validate() != nil {
		// Each key is range-checked by config; a combination (max_delay
		// not above base_delay) can still be invalid: use the reference's.
		s.Params = DefaultParams()
	}
	s.Params, _ = CapMaxDelay(s.Params, s.HookTimeout)
	if s.PollInterval <= 0 {
		s.PollInterval = 300 * time.Second
	}
	if s.ActiveWindow <= 0 {
		s.ActiveWindow = 10 * time.Minute
	}
	return s
}

// Record is one computed pacing decision with everything needed to explain
// it later: the figures and where they came from, the parameters, the
// reference decision, and fair sharing. It is stored as the detail of a
// quota.Decision.
type Record struct {
	Now time.Time `json:"now"`
	// Figures is nil when no usage figures are known (API-key users, or
	// before the first status line render).
	Figures  *quota.Snapshot `json:"figures,omitempty"`
	Params   Params          `json:"params"`
	Decision Decision        `json:"decision"`
	// Sessions is how many sessions were active; AlgorithmDelay is
	// Decide's delay (one session) and DelaySeconds the delay after fair
	// sharing.
	Sessions       int  `json:"sessions"`
	FairShare      bool `json:"fair_share"`
	AlgorithmDelay int  `json:"algorithm_delay"`
	DelaySeconds   int  `json:"delay_seconds"`
	// EstimateCapped: the figures are the transcript estimate and the
	// delay was cut to EstimateMaxDelay.
	EstimateCapped bool `json:"estimate_capped,omitempty"`
	// Note says why there is no decision ("no subscription limits known").
	Note string `json:"note,omitempty"`
}

// EstimateMaxDelay caps the delay decided from estimated figures. The
// estimate's denominator (the largest past block) is only a lower bound of
// the real limit, so it over-states utilisation, most of all early in a
// block, where the reference's emergency branch would give the maximum
// delay (an estimated 50 % at minute 57 gave 350 s). Real figures are not
// capped.
const EstimateMaxDelay = 30

// NoLimitsNote is what pacing says when it has no figures.
const NoLimitsNote = "no subscription limits known (no rate_limits from the status line, no OAuth usage figures): pacing does nothing"

// Input is the Decide input the record was computed from.
func (r *Record) Input() Input {
	in := Input{Now: r.Now}
	if r.Figures != nil {
		in.FiveHour = windowOf(r.Figures.FiveHour)
		in.SevenDay = windowOf(r.Figures.SevenDay)
	}
	return in
}

func windowOf(w quota.Window) Window {
	out := Window{ResetsAt: w.ResetsAt}
	if w.Util != nil {
		out.Utilization = *w.Util
	}
	if w.Util == nil {
		// A window without a figure takes no part.
		out.ResetsAt = nil
	}
	return out
}

// Compute decides for figures at now (pure: no store). sessions is the
// number of active sessions (at least 1).
func Compute(figures *quota.Snapshot, s Settings, sessions int, now time.Time) *Record {
	r := &Record{Now: now.UTC(), Figures: figures, Params: s.Params, Sessions: max(sessions, 1), FairShare: s.FairShare}
	if figures == nil || (figures.FiveHour.Util == nil && figures.SevenDay.Util == nil) {
		r.Note = NoLimitsNote
		return r
	}
	in := r.Input()
	if in.Validate() != nil {
		r.Note = "the stored usage figures are not numbers; pacing does nothing"
		return r
	}
	r.Decision = Decide(in, s.Params)
	r.AlgorithmDelay = r.Decision.DelaySeconds
	r.DelaySeconds = r.AlgorithmDelay
	if s.FairShare {
		r.DelaySeconds = FairShare(r.AlgorithmDelay, r.Sessions, s.Params.MaxDelay)
	}
	if figures.Source == quota.SourceEstimate && r.DelaySeconds > EstimateMaxDelay {
		r.DelaySeconds, r.EstimateCapped = EstimateMaxDelay, true
	}
	return r
}

// ChooseFigures picks the snapshot pacing uses, best source first: the
// status line's when it is at most pollInterval old; otherwise the newer
// of the status line's and the OAuth endpoint's; the transcript estimate
// (source 3, estimate.go) when neither exists, or when both are older than
// EstimateAfter and the estimate is newer.
func ChooseFigures(statusline, oauth, estimate *quota.Snapshot, now time.Time, pollInterval time.Duration) *quota.Snapshot {
	if statusline != nil && statusline.Age(now) <= pollInterval {
		return statusline
	}
	var real *quota.Snapshot
	switch {
	case statusline != nil && oauth != nil:
		real = statusline
		if oauth.Time.After(statusline.Time) {
			real = oauth
		}
	case statusline != nil:
		real = statusline
	case oauth != nil:
		real = oauth
	}
	if real == nil || (estimate != nil && real.Age(now) > EstimateAfter && estimate.Time.After(real.Time)) {
		return estimate
	}
	return real
}

// SnapshotReader is the part of the store LatestFigures reads (quota.Store
// has it).
type SnapshotReader interface {
	LatestSnapshot(ctx context.Context, source string) (*quota.Snapshot, error)
}

// LatestFigures reads the newest snapshot of each source and chooses.
func LatestFigures(ctx context.Context, st SnapshotReader, now time.Time, pollInterval time.Duration) (*quota.Snapshot, error) {
	var snaps [3]*quota.Snapshot
	for i, src := range []string{quota.SourceStatusline, quota.SourceOAuth, quota.SourceEstimate} {
		s, err := st.LatestSnapshot(ctx, src)
		if err != nil {
			return nil, err
		}
		snaps[i] = s
	}
	return ChooseFigures(snaps[0], snaps[1], snaps[2], now, pollInterval), nil
}

// Current is the decision in force at now. It reuses the newest stored
// decision while it is younger than DecisionTTL, was made from the newest
// snapshot and with the same parameters; otherwise it recomputes from the
// best figures, counts the active sessions, stores the new decision and
// reports fresh = true.
func Current(ctx context.Context, st quota.Store, s Settings, sessionID string, now time.Time) (rec *Record, fresh bool, err error) {
	cached, err := st.LatestDecision(ctx)
	if err != nil {
		return nil, false, err
	}
	if cached != nil && now.Sub(cached.Time) < DecisionTTL && now.Sub(cached.Time) >= 0 {
		if r, err := decodeRecord(cached.Detail); err == nil && r.Params == s.Params && r.FairShare == s.FairShare {
			newest, err := newestClaudeSnapshot(ctx, st)
			if err != nil {
				return nil, false, err
			}
			if newest == nil || newest.ID == cached.SnapshotID {
				return r, false, nil
			}
		}
	}
	return Recompute(ctx, st, s, sessionID, now)
}

// newestClaudeSnapshot is the newest snapshot of Claude Code's sources:
// one query, or one per source when the newest of all is Codex's (whose
// figures never make Claude Code's decision stale).
func newestClaudeSnapshot(ctx context.Context, st quota.Store) (*quota.Snapshot, error) {
	newest, err := st.LatestSnapshot(ctx, "")
	if err != nil || newest == nil || newest.Source != quota.SourceCodex {
		return newest, err
	}
	newest = nil
	for _, src := range []string{quota.SourceStatusline, quota.SourceOAuth, quota.SourceEstimate} {
		s, err := st.LatestSnapshot(ctx, src)
		if err != nil {
			return nil, err
		}
		if s != nil && (newest == nil || s.Time.After(newest.Time) || (s.Time.Equal(newest.Time) && s.ID > newest.ID)) {
			newest = s
		}
	}
	return newest, nil
}

// Recompute computes and stores the decision at now.
func Recompute(ctx context.Context, st quota.Store, s Settings, sessionID string, now time.Time) (*Record, bool, error) {
	figures, err := LatestFigures(ctx, st, now, s.PollInterval)
	if err != nil {
		return nil, false, err
	}
	sessions, err := activeSessions(ctx, st, sessionID, now.Add(-s.ActiveWindow))
	if err != nil {
		return nil, false, err
	}
	rec := Compute(figures, s, sessions, now)
	detail, err := json.Marshal(rec)
	if err != nil {
		return nil, false, err
	}
	row := &quota.Decision{Time: now.UTC(), Sessions: rec.Sessions, DelaySeconds: rec.DelaySeconds,
		AlgorithmDelay: rec.AlgorithmDelay, Strategy: string(rec.Decision.Strategy), Detail: detail}
	if figures != nil {
		row.SnapshotID = figures.ID
	}
	if w := rec.Decision.ConstrainedWindow; w != nil {
		row.Window = string(*w)
	}
	if _, err := st.SaveDecision(ctx, row); err != nil {
		return rec, true, err
	}
	return rec, true, nil
}

// activeSessions counts the sessions with an event in the active window,
// plus the caller's own session when it has none recorded yet.
func activeSessions(ctx context.Context, st quota.Store, self string, since time.Time) (int, error) {
	ids, err := st.ActiveSessions(ctx, since)
	if err != nil {
		return 0, err
	}
	n := len(ids)
	if self != "" {
		found := false
		for _, id := range ids {
			if id == self {
				found = true
				break
			}
		}
		if !found {
			n++
		}
	}
	return max(n, 1), nil
}

// LoadRecord decodes a stored decision's detail.
func LoadRecord(d *quota.Decision) (*Record, error) {
	var r Record
	if err := json.Unmarshal(d.Detail, &r); err != nil {
		return nil, fmt.Errorf("stored pacing decision %d is unreadable: %w", d.ID, err)
	}
	return &r, nil
}
