// Package oauth polls Claude Code's subscription usage endpoint
// (GET /api/oauth/usage, claude-code-hooks.md §6) for `warden pace poll`:
// at most once per poll interval across every process on the machine
// (a lease row in the store), honouring 429 Retry-After, backing off
// exponentially on failures, with a 5 s timeout. The token is read from
// Claude Code's credentials and never refreshed: a 401 means "open Claude
// Code to refresh".
//
// It imports net/http, so only the CLI links it; the hook starts
// `warden pace poll` as a detached process instead.
package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/version"
)

// DefaultBaseURL is the API host; WARDEN_OAUTH_BASE_URL (or
// Options.BaseURL) overrides it, for tests.
const DefaultBaseURL = "https://api.anthropic.com"

// Timeout bounds one request (Claude Code uses 5 s too).
const Timeout = 5 * time.Second

// MaxBackoff caps the exponential backoff after failures.
const MaxBackoff = time.Hour

// Options for a poll.
type Options struct {
	BaseURL  string
	Client   *http.Client
	Interval time.Duration
	Getenv   func(string) string
	// Holder, when set, is a lease the caller (the hook) already took.
	Holder string
}

// Result is what a poll did.
type Result struct {
	Polled   bool // a request was made
	Snapshot *quota.Snapshot
	Status   string
	Next     time.Time
	Err      error
}

// PollIfDue takes the lease (unless opt.Holder holds it already), fetches
// the usage, records it as a snapshot with source "oauth", and sets when
// the next poll may happen: now+interval on success, the Retry-After or
// exponential backoff on failure. With the lease held elsewhere it does
// nothing.
func PollIfDue(ctx context.Context, st quota.Store, opt Options, now time.Time) Result {
	if opt.Interval <= 0 {
		opt.Interval = 300 * time.Second
	}
	if opt.Getenv == nil {
		opt.Getenv = os.Getenv
	}
	holder := opt.Holder
	if holder == "" {
		holder = "poll-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(now.UnixNano(), 36)
		got, err := st.TryLease(ctx, pace.LeaseOAuth, holder, now, opt.Interval)
		if err != nil {
			return Result{Err: err}
		}
		if !got {
			return Result{Status: "not due (another process polled within the interval, or backing off)"}
		}
	} else {
		l, err := st.LeaseState(ctx, pace.LeaseOAuth)
		if err != nil {
			return Result{Err: err}
		}
		if l.Holder != holder {
			return Result{Status: "lease lost"}
		}
	}
	prev, _ := st.LeaseState(ctx, pace.LeaseOAuth)
	res := Result{Polled: true}
	tok, err := pace.ReadToken(opt.Getenv)
	var retryAfter time.Duration
	var snap *quota.Snapshot
	switch {
	case errors.Is(err, pace.ErrNoToken):
		err = errors.New("no OAuth token (API-key user, or credentials in the macOS Keychain): no subscription limits known")
		res.Polled = false
	case err != nil:
		res.Polled = false
	case !tok.ExpiresAt.IsZero() && tok.ExpiresAt.Before(now):
		err = errors.New("the OAuth token has expired: open Claude Code to refresh it")
		res.Polled = false
	default:
		snap, retryAfter, err = Fetch(ctx, opt, tok.Access, now)
	}
	failures := 0
	next := now.Add(opt.Interval)
	if err != nil {
		failures = prev.Failures + 1
		backoff := opt.Interval << min(failures-1, 10)
		if backoff > MaxBackoff || backoff <= 0 {
			backoff = MaxBackoff
		}
		next = now.Add(max(backoff, retryAfter))
		res.Status, res.Err = err.Error(), err
	} else {
		res.Status, res.Snapshot = "ok", snap
		if _, err := st.AddSnapshot(ctx, snap); err != nil {
			res.Err = err
		}
	}
	res.Next = next
	if err := st.FinishLease(ctx, pace.LeaseOAuth, holder, now, next, failures, res.Status); err != nil && res.Err == nil {
		res.Err = err
	}
	return res
}

// HTTPError is a non-200 answer.
type HTTPError struct {
	Code       int
	RetryAfter time.Duration
}

func (e *HTTPError) Error() string {
	switch e.Code {
	case http.StatusUnauthorized:
		return "http 401: the OAuth token was refused; open Claude Code to refresh it"
	case http.StatusTooManyRequests:
		return fmt.Sprintf("http 429: rate limited; retry after %s", e.RetryAfter)
	case http.StatusForbidden:
		return "http 403: the token may not read usage"
	}
	return fmt.Sprintf("http %d", e.Code)
}

// Fetch makes one request and parses the answer into a snapshot.
func Fetch(ctx context.Context, opt Options, token string, now time.Time) (*quota.Snapshot, time.Duration, error) {
	base := opt.BaseURL
	if base == "" && opt.Getenv != nil {
		base = opt.Getenv("WARDEN_OAUTH_BASE_URL")
	}
	if base == "" {
		base = DefaultBaseURL
	}
	client := opt.Client
	if client == nil {
		client = &http.Client{Timeout: Timeout}
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/api/oauth/usage", nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("anthropic-beta", "oauth-2025-04-20")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "claude-cli/"+version.Version+" (external, warden)")
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("usage endpoint: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, 0, fmt.Errorf("usage endpoint: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		he := &HTTPError{Code: resp.StatusCode, RetryAfter: retryAfter(resp.Header.Get("Retry-After"), now)}
		return nil, he.RetryAfter, he
	}
	snap, err := Parse(body, now)
	return snap, 0, err
}

// Parse reads the endpoint's answer: per-window objects {utilization
// (percent), resets_at (ISO-8601)}, any of them null.
func Parse(body []byte, now time.Time) (*quota.Snapshot, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("usage endpoint answered something that is not JSON: %w", err)
	}
	win := func(k string) (quota.Window, error) {
		var w struct {
			Utilization *float64 `json:"utilization"`
			ResetsAt    *string  `json:"resets_at"`
		}
		var out quota.Window
		if b := m[k]; len(b) == 0 || string(b) == "null" {
			return out, nil
		}
		if err := json.Unmarshal(m[k], &w); err != nil {
			return out, fmt.Errorf("usage endpoint: %s: %w", k, err)
		}
		out.Util = w.Utilization
		if w.ResetsAt != nil && *w.ResetsAt != "" {
			t, err := time.Parse(time.RFC3339Nano, *w.ResetsAt)
			if err != nil {
				return out, fmt.Errorf("usage endpoint: %s.resets_at %q: %w", k, *w.ResetsAt, err)
			}
			t = t.UTC()
			out.ResetsAt = &t
		}
		return out, nil
	}
	five, err := win("five_hour")
	if err != nil {
		return nil, err
	}
	seven, err := win("seven_day")
	if err != nil {
		return nil, err
	}
	return &quota.Snapshot{Time: now.UTC(), Source: quota.SourceOAuth, FiveHour: five, SevenDay: seven}, nil
}

// retryAfter reads Retry-After: seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
