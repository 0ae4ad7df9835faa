package pace

import (
	"context"
	"os"
	"strconv"
	"time"

	"github.com/warden-dev/warden/internal/detach"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/reqenv"
)

// LeaseOAuth names the poll lease of the OAuth usage endpoint.
const LeaseOAuth = "oauth"

// PollDue reports whether the OAuth endpoint should be polled at now: the
// status line's figures are missing or older than the poll interval, and
// the lease allows a poll (interval, backoff and Retry-After all passed).
func PollDue(statusline *quota.Snapshot, lease quota.Lease, now time.Time, interval time.Duration) bool {
	if statusline != nil && statusline.Age(now) <= interval {
		return false
	}
	return !lease.Next.After(now)
}

// Spawn starts a detached process of this binary with the given arguments
// for the caller env (its environment and directory; Setsid, stdio on
// /dev/null, reaped when it exits); tests replace it.
var Spawn = func(env *reqenv.Env, args []string) error { return detach.StartFor(env, "", args...) }

// MaybePoll starts `warden pace poll` in the background when a poll or an
// estimate is due and a subscription token may exist (HasToken, a stat),
// after taking the lease itself, so of all the sessions on the machine
// exactly one starts a poller per interval:
//
//   - the OAuth lease allows a poll (interval, backoff, Retry-After):
//     `pace poll --holder H` (which falls back to the estimate when the
//     poll gives no figures and NeedsEstimate);
//   - otherwise, while the OAuth poll backs off, when NeedsEstimate and the
//     estimate lease allows: `pace poll --estimate-holder H` (the
//     transcript estimate alone).
//
// It never does network I/O or reads transcripts. It reports whether it
// started one.
func MaybePoll(ctx context.Context, st quota.Store, s Settings, now time.Time) (bool, error) {
	sl, err := st.LatestSnapshot(ctx, quota.SourceStatusline)
	if err != nil {
		return false, err
	}
	if sl != nil && sl.Age(now) <= s.PollInterval {
		return false, nil
	}
	caller := reqenv.From(ctx) // the hook's caller, in the resident server too
	if !HasToken(caller.Getenv) {
		return false, nil
	}
	lease, err := st.LeaseState(ctx, LeaseOAuth)
	if err != nil {
		return false, err
	}
	holder := "hook-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(now.UnixNano(), 36)
	if PollDue(sl, lease, now, s.PollInterval) {
		got, err := st.TryLease(ctx, LeaseOAuth, holder, now, s.PollInterval)
		if err != nil || !got {
			return false, err
		}
		if err := Spawn(caller, []string{"pace", "poll", "--holder", holder}); err != nil {
			return false, err
		}
		return true, nil
	}
	oa, err := st.LatestSnapshot(ctx, quota.SourceOAuth)
	if err != nil {
		return false, err
	}
	if !NeedsEstimate(sl, oa, now) {
		return false, nil
	}
	got, err := st.TryLease(ctx, LeaseEstimate, holder, now, s.PollInterval)
	if err != nil || !got {
		return false, err
	}
	if err := Spawn(caller, []string{"pace", "poll", "--estimate-holder", holder}); err != nil {
		return false, err
	}
	return true, nil
}
