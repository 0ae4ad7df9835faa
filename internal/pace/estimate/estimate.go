// Package estimate is pacing's third quota source (SPEC.md §2): when a
// Claude subscription is detectable but neither the status line nor the
// OAuth usage endpoint gives figures, the 5-hour utilisation is estimated
// from the local transcripts' 5-hour blocks (internal/usage, ccusage's
// blocks) and recorded as a usage snapshot with source "estimate".
//
// The formula (ccusage's `blocks --token-limit max` idea):
//
//	5-hour utilisation ≈ 100 × current block / largest completed block
//
// measured in API-price dollars (cost), or in tokens when the reference
// block has no priced entries; capped at 100, and 100 when the current
// block logged "Claude AI usage limit reached". Its reset is that message's
// reset time when there is one, else the block's end (start floored to the
// hour + 5 h). The reference is the largest completed (not active, not gap)
// block that started in the last 30 days; at least MinBlocks of them are
// needed, and an active block.
//
// Weaknesses, which is why the figures are always marked estimated: the
// largest past block is a lower bound of the real limit (unless it hit the
// limit), so the estimate over-states utilisation for users who never came
// close (pacing throttles earlier than needed) and reads 100 % whenever the
// current block is the largest yet; API-price dollars are only a proxy for
// how Anthropic weighs models and cache reads; usage on other machines or
// on claude.ai is invisible; ccusage's blocks start at the hour of the first
// message, Anthropic's window may not. The 7-day window is not estimated:
// its start is anchored server-side and its limit has no known ratio to the
// 5-hour one, so the estimate leaves it unknown (it takes no part).
//
// It imports internal/usage and the store, so only warden-helper links it;
// the hook only reads the snapshot it leaves.
package estimate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/usage"
)

// Basis is the working of an estimate (kept in the store for the reports).
type Basis = pace.EstimateBasis

// MinBlocks is how many completed blocks the reference needs.
const MinBlocks = 3

// History is how far back completed blocks count (plans change; Claude
// Code keeps transcripts 30 days by default).
const History = 30 * 24 * time.Hour

// BlockLength is the 5-hour window.
const BlockLength = 5 * time.Hour

// Reasons no estimate is made.
var (
	ErrNoActiveBlock = errors.New("no active 5-hour block in the transcripts (no API responses in the last 5 hours)")
	ErrHistory       = fmt.Errorf("fewer than %d completed 5-hour blocks with usage in the last 30 days: too little history to estimate", MinBlocks)
)

// FromBlocks estimates the figures at now from the blocks (BuildBlocks'
// output, sorted by start). Pure.
func FromBlocks(blocks []usage.BlockAgg, now time.Time) (*quota.Snapshot, *Basis, error) {
	D := BlockLength.Milliseconds()
	nowMs := now.UnixMilli()
	var cur *usage.BlockAgg
	var done []*usage.BlockAgg
	for i := range blocks {
		b := &blocks[i]
		if b.Gap {
			continue
		}
		if nowMs-b.ActualEnd < D && nowMs < b.End {
			cur = b
			continue
		}
		if b.End <= nowMs && b.Start >= now.Add(-History).UnixMilli() && total(b) > 0 {
			done = append(done, b)
		}
	}
	if cur == nil {
		return nil, nil, ErrNoActiveBlock
	}
	basis := &Basis{Time: now.UTC(), BlockStart: time.UnixMilli(cur.Start).UTC(), ResetsAt: time.UnixMilli(cur.End).UTC(), Blocks: len(done)}
	var util float64
	if cur.Reset > 0 {
		// Claude Code logged the limit with its reset time: no estimate is
		// better than that.
		basis.LimitReached = true
		basis.ResetsAt = time.Unix(cur.Reset, 0).UTC()
		util = 100
	} else {
		if len(done) < MinBlocks {
			return nil, nil, ErrHistory
		}
		var ref *usage.BlockAgg
		for _, b := range done {
			if ref == nil || b.Cost > ref.Cost || (b.Cost == ref.Cost && total(b) > total(ref)) {
				ref = b
			}
		}
		basis.Unit, basis.Current, basis.Reference = "USD", cur.Cost, ref.Cost
		if ref.Cost <= 0 {
			// Unpriced models only: tokens.
			for _, b := range done {
				if total(b) > total(ref) {
					ref = b
				}
			}
			basis.Unit, basis.Current, basis.Reference = "tokens", float64(total(cur)), float64(total(ref))
		}
		basis.RefStart = time.UnixMilli(ref.Start).UTC()
		basis.RefHitLimit = ref.Reset > 0
		util = min(100, 100*basis.Current/basis.Reference)
	}
	util = math.Round(util*10) / 10
	basis.Util = util
	reset := basis.ResetsAt
	snap := &quota.Snapshot{Time: now.UTC(), Source: quota.SourceEstimate,
		FiveHour: quota.Window{Util: &util, ResetsAt: &reset}}
	return snap, basis, nil
}

func total(b *usage.BlockAgg) int64 { return b.In + b.Out + b.CacheCreate + b.Read }

// Store is what an estimate reads and writes: the usage cache the blocks
// are read through, pacing snapshots and leases, and the setting that keeps
// the estimate's basis.
type Store interface {
	usage.CacheStore
	pace.SnapshotReader
	AddSnapshot(ctx context.Context, s *quota.Snapshot) (int64, error)
	TryLease(ctx context.Context, name, holder string, now time.Time, hold time.Duration) (bool, error)
	LeaseState(ctx context.Context, name string) (quota.Lease, error)
	FinishLease(ctx context.Context, name, holder string, now, next time.Time, failures int, status string) error
	SetSetting(ctx context.Context, key, value string) error
}

// LoadBlocks reads the 5-hour blocks of the transcripts under dirs (nil:
// usage.ConfigDirs()) through the store, as `warden usage blocks` does
// (usage.LoadBlocks): one read when no file changed, only the appended
// bytes after an append, a full read otherwise.
func LoadBlocks(ctx context.Context, st Store, dirs []string) ([]usage.BlockAgg, error) {
	if dirs == nil {
		dirs = usage.ConfigDirs()
	}
	aggs, _, err := usage.LoadBlocks(ctx, st, usage.Options{Dirs: dirs}, BlockLength)
	return aggs, err
}

// Record loads the blocks, estimates, and stores the snapshot and its
// basis (the setting pace.SettingEstimate). It returns what it stored, or
// why it did not.
func Record(ctx context.Context, st Store, dirs []string, now time.Time) (*quota.Snapshot, *Basis, error) {
	blocks, err := LoadBlocks(ctx, st, dirs)
	if err != nil {
		return nil, nil, fmt.Errorf("read transcripts: %w", err)
	}
	snap, basis, err := FromBlocks(blocks, now)
	if err != nil {
		return nil, nil, err
	}
	if _, err := st.AddSnapshot(ctx, snap); err != nil {
		return nil, nil, err
	}
	b, _ := json.Marshal(basis)
	if err := st.SetSetting(ctx, pace.SettingEstimate, string(b)); err != nil {
		return snap, basis, err
	}
	return snap, basis, nil
}

// Result is what IfDue did.
type Result struct {
	// Ran: the estimate was attempted (the lease was held).
	Ran      bool
	Snapshot *quota.Snapshot
	Basis    *Basis
	// Status says what happened in words ("ok", or why no estimate).
	Status string
	Err    error
}

// IfDue makes the estimate when it applies (see pace.NeedsEstimate and
// pace.Subscription): a subscription token is present and there are no
// real figures from the last pace.EstimateAfter. The estimate lease allows
// one estimate per interval on the machine; holder is the lease the caller
// (the hook) already took, or "" to take it here. dirs are the Claude Code
// config directories (nil: usage.ConfigDirs()).
func IfDue(ctx context.Context, st Store, interval time.Duration, holder string, getenv func(string) string, dirs []string, now time.Time) Result {
	if interval <= 0 {
		interval = 300 * time.Second
	}
	res := Result{}
	why := ""
	switch sl, oa, err := latestReal(ctx, st); {
	case err != nil:
		return Result{Status: err.Error(), Err: err}
	case !pace.Subscription(getenv):
		why = pace.ErrNoSubscription.Error()
	case !pace.NeedsEstimate(sl, oa, now):
		why = "not needed: the status line or the OAuth endpoint gave figures in the last " + pace.EstimateAfter.String()
	}
	if holder == "" {
		if why != "" {
			return Result{Status: why}
		}
		holder = fmt.Sprintf("estimate-%d", now.UnixNano())
		got, err := st.TryLease(ctx, pace.LeaseEstimate, holder, now, interval)
		if err != nil {
			return Result{Status: err.Error(), Err: err}
		}
		if !got {
			return Result{Status: "not due (another process estimated within the poll interval)"}
		}
	} else if l, err := st.LeaseState(ctx, pace.LeaseEstimate); err != nil || l.Holder != holder {
		return Result{Status: "lease lost", Err: err}
	}
	res.Ran = true
	if why != "" {
		res.Status = why
	} else {
		res.Snapshot, res.Basis, res.Err = Record(ctx, st, dirs, now)
		switch {
		case res.Err == nil:
			res.Status = fmt.Sprintf("ok: 5-hour ≈ %.1f%% (estimated)", res.Basis.Util)
		case errors.Is(res.Err, ErrNoActiveBlock) || errors.Is(res.Err, ErrHistory):
			// Not failures: the transcripts just cannot say.
			res.Status, res.Err = res.Err.Error(), nil
		default:
			res.Status = res.Err.Error()
		}
	}
	if err := st.FinishLease(ctx, pace.LeaseEstimate, holder, now, now.Add(interval), 0, res.Status); err != nil && res.Err == nil {
		res.Err = err
	}
	return res
}

func latestReal(ctx context.Context, st pace.SnapshotReader) (sl, oa *quota.Snapshot, err error) {
	if sl, err = st.LatestSnapshot(ctx, quota.SourceStatusline); err != nil {
		return nil, nil, err
	}
	oa, err = st.LatestSnapshot(ctx, quota.SourceOAuth)
	return sl, oa, err
}
