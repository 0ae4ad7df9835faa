package pace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/warden-dev/warden/internal/pace/quota"
)

// Quota source 3, the transcript estimate (internal/pace/estimate computes
// it in warden-helper; this file holds what the hook and the reports need).
//
// When it applies: a Claude subscription is detectable (an OAuth token is
// present: $CLAUDE_CODE_OAUTH_TOKEN or claudeAiOauth in a credentials
// file, even expired or refused), and there are no real figures from the
// last EstimateAfter (neither the status line's nor the OAuth endpoint's;
// for example the token expired, the endpoint refuses it or is
// unreachable). API-key users (no token) get no estimate: pacing says "no
// subscription limits known" and does nothing. Credentials kept only in the
// macOS Keychain are not detected (warden does not read the Keychain); the
// status line's rate_limits cover those users.

// EstimateAfter is how old the newest real figures (status line or OAuth)
// must be before the transcript estimate replaces them: a whole 5-hour
// window, after which they say nothing about the current one.
const EstimateAfter = 5 * time.Hour

// LeaseEstimate names the lease that lets one process per poll interval
// compute the estimate.
const LeaseEstimate = "estimate"

// SettingEstimate is the store setting holding the newest estimate's
// basis (JSON of EstimateBasis).
const SettingEstimate = "pace_estimate"

// EstimateBasis is the working of a transcript estimate: the current
// 5-hour block against the largest completed one.
type EstimateBasis struct {
	Time       time.Time `json:"time"`
	BlockStart time.Time `json:"block_start"`
	ResetsAt   time.Time `json:"resets_at"`
	// Unit is "USD" (API-price cost) or "tokens".
	Unit      string    `json:"unit"`
	Current   float64   `json:"current"`
	Reference float64   `json:"reference"`
	RefStart  time.Time `json:"reference_start"`
	// RefHitLimit: the reference block logged "usage limit reached", so it
	// measures the limit rather than a lower bound of it.
	RefHitLimit bool `json:"reference_hit_limit"`
	// LimitReached: the current block logged "usage limit reached".
	LimitReached bool    `json:"limit_reached"`
	Blocks       int     `json:"blocks"`
	Util         float64 `json:"util"`
}

// Text is the basis in words.
func (b *EstimateBasis) Text() string {
	if b.LimitReached {
		return fmt.Sprintf("the current 5-hour block (from %s UTC) logged \"usage limit reached\": 100%% until %s UTC; 7-day unknown",
			b.BlockStart.UTC().Format("Jan 2 15:04"), b.ResetsAt.UTC().Format("Jan 2 15:04"))
	}
	ref := "a lower bound of the real limit, so the estimate may over-state"
	if b.RefHitLimit {
		ref = "it reached the usage limit, so it measures the limit"
	}
	return fmt.Sprintf("5-hour ≈ current block (from %s UTC) %s / largest of %d completed blocks in 30 days %s (from %s UTC; %s) = %.1f%%; 7-day unknown (not estimated)",
		b.BlockStart.UTC().Format("Jan 2 15:04"), amount(b.Current, b.Unit), b.Blocks, amount(b.Reference, b.Unit),
		b.RefStart.UTC().Format("Jan 2 15:04"), ref, b.Util)
}

func amount(v float64, unit string) string {
	if unit == "USD" {
		return fmt.Sprintf("$%.2f at API prices", v)
	}
	return fmt.Sprintf("%.0f tokens", v)
}

// NeedsEstimate reports whether the real figures are missing or too old
// (EstimateAfter) to pace on, so the transcript estimate should be made.
func NeedsEstimate(statusline, oauth *quota.Snapshot, now time.Time) bool {
	for _, s := range []*quota.Snapshot{statusline, oauth} {
		if s != nil && s.Age(now) <= EstimateAfter {
			return false
		}
	}
	return true
}

// Subscription reports whether a Claude subscription is detectable: an
// OAuth token is present (it may be expired or refused). It reads the
// credentials file, so it is for warden-helper, not the hook (which uses
// HasToken, a stat).
func Subscription(getenv func(string) string) bool {
	_, err := ReadToken(getenv)
	return err == nil
}

// ErrNoSubscription is why an API-key user gets no estimate.
var ErrNoSubscription = errors.New("no Claude subscription detected (no OAuth token): " + "no subscription limits known")

// SettingReader reads one setting of the store.
type SettingReader interface {
	Setting(ctx context.Context, key string) (value string, ok bool, err error)
}

// LoadEstimateBasis reads the newest estimate's basis; nil when none.
func LoadEstimateBasis(ctx context.Context, st SettingReader) *EstimateBasis {
	if st == nil {
		return nil
	}
	v, ok, err := st.Setting(ctx, SettingEstimate)
	if err != nil || !ok {
		return nil
	}
	var b EstimateBasis
	if json.Unmarshal([]byte(v), &b) != nil {
		return nil
	}
	return &b
}
