package ship

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Report is the spool's state as `warden doctor` and the daemon's
// /health/db show it.
type Report struct {
	// Target is the shared store's URL, password removed.
	Target string `json:"shared_store"`
	// Reachable says whether the shared store answered; Error says why
	// not, in one line.
	Reachable bool   `json:"reachable"`
	Error     string `json:"error,omitempty"`
	// Permanent is true when the failure (the probe's, or the one the
	// shipper keeps retrying) is one retrying cannot mend: a refused
	// login, a missing database or rights (ship.Permanent).
	Permanent bool `json:"permanent,omitempty"`
	// Backlog is how many local events are not shipped yet, Oldest when
	// the oldest of them was recorded.
	Backlog    int64     `json:"backlog"`
	Oldest     time.Time `json:"oldest,omitzero"`
	OldestAgeS int64     `json:"oldest_age_s,omitempty"`
	// LastShipped is when the shipper last got through; Retrying is the
	// failure it keeps retrying since RetryingSince, as it left it in the
	// local store.
	LastShipped   time.Time `json:"last_shipped,omitzero"`
	Retrying      string    `json:"retrying,omitempty"`
	RetryingSince time.Time `json:"retrying_since,omitzero"`
	// RetentionDays is retention_days when CheckRetention ran; KeptEvents
	// and KeptSessions count the rows older than that which retention
	// keeps only because they are not shipped yet.
	RetentionDays int   `json:"retention_days,omitempty"`
	KeptEvents    int64 `json:"kept_past_retention_events,omitempty"`
	KeptSessions  int64 `json:"kept_past_retention_sessions,omitempty"`
	// Dropped are the latest prunings of rows never shipped (past
	// retention_days + store.unshipped_keep_days), newest first.
	Dropped []store.Dropped `json:"dropped,omitempty"`
}

// DroppedLine says what was pruned without ever being shipped; "" when
// nothing was.
func (r Report) DroppedLine() string {
	if len(r.Dropped) == 0 {
		return ""
	}
	d := r.Dropped[0]
	line := fmt.Sprintf("%s: %d event(s)", d.At.Local().Format("2006-01-02 15:04"), d.Events)
	if d.Events > 0 {
		line += fmt.Sprintf(" (ids %d–%d, recorded %s to %s)", d.FirstID, d.LastID, d.First.Local().Format("2006-01-02"), d.Last.Local().Format("2006-01-02"))
	}
	line += fmt.Sprintf(" and %d session state(s) never shipped were pruned, past retention_days + store.unshipped_keep_days", d.Sessions)
	if n := len(r.Dropped); n > 1 {
		line += fmt.Sprintf(" (%d prunings on record)", n)
	}
	return line
}

// CheckRetention counts what the local store keeps past retention_days
// (days) only because it is not shipped yet (sqlite.Store.PruneShipped),
// under a deadline of d. days <= 0 (no retention) counts nothing.
func (r *Report) CheckRetention(ctx context.Context, sp Spool, days int, now time.Time, d time.Duration) error {
	if days <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	ne, ns, err := sp.UnshippedBefore(ctx, now.Add(-time.Duration(days)*24*time.Hour))
	if err != nil {
		return err
	}
	r.RetentionDays, r.KeptEvents, r.KeptSessions = days, ne, ns
	return nil
}

// RetentionLine says what retention keeps only because it is not shipped
// yet; "" when nothing.
func (r Report) RetentionLine() string {
	if r.KeptEvents == 0 && r.KeptSessions == 0 {
		return ""
	}
	return fmt.Sprintf("%d event(s) and %d session state(s) older than the %d-day retention are kept only because they are not shipped yet",
		r.KeptEvents, r.KeptSessions, r.RetentionDays)
}

// Inspect reads the backlog and the shipper's notes from the local store
// and asks probe whether the shared store is reachable (probe nil: not
// asked). Every call has its own deadline of d.
func Inspect(ctx context.Context, sp Spool, target string, d time.Duration, probe func(context.Context) error) (Report, error) {
	r := Report{Target: Redact(target)}
	if probe != nil {
		pctx, cancel := context.WithTimeout(ctx, d)
		err := probe(pctx)
		cancel()
		r.Reachable = err == nil
		if err != nil {
			r.Error, r.Permanent = oneLine(err.Error()), Permanent(err)
		}
	}
	lctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var mark int64
	if v, ok, err := sp.Setting(lctx, SettingEvents); err != nil {
		return r, err
	} else if ok && v != "" {
		mark, _ = strconv.ParseInt(v, 10, 64)
	}
	n, oldest, err := sp.Backlog(lctx, mark)
	if err != nil {
		return r, err
	}
	r.Backlog, r.Oldest = n, oldest
	if !oldest.IsZero() {
		r.OldestAgeS = int64(time.Since(oldest).Seconds())
	}
	if v, _, err := sp.Setting(lctx, SettingLastOK); err == nil && v != "" {
		if us, err := strconv.ParseInt(v, 10, 64); err == nil {
			r.LastShipped = time.UnixMicro(us).UTC()
		}
	}
	if v, _, err := sp.Setting(lctx, SettingLastError); err == nil && v != "" {
		usStr, msg, _ := strings.Cut(v, " ")
		if us, err := strconv.ParseInt(usStr, 10, 64); err == nil {
			r.RetryingSince = time.UnixMicro(us).UTC()
		}
		r.Retrying = msg
		if v, _, err := sp.Setting(lctx, SettingPermanent); err == nil && v == "1" && (probe == nil || !r.Reachable) {
			r.Permanent = true
		}
	}
	drops, err := sp.Drops(lctx, 5)
	if err != nil {
		return r, err
	}
	r.Dropped = drops
	return r, nil
}

// BacklogLine says in words how much waits to be shipped.
func (r Report) BacklogLine() string {
	switch {
	case r.Backlog < 0:
		return "what waits to be shipped is unknown"
	case r.Backlog == 0:
		return "nothing waiting to be shipped"
	}
	return fmt.Sprintf("%d event(s) waiting to be shipped, the oldest from %s ago", r.Backlog, Age(time.Duration(r.OldestAgeS)*time.Second))
}

// Age is a duration rounded for people: 45s, 12m, 3h10m, 2d4h.
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}

var dsnPassword = regexp.MustCompile(`(?i)(password\s*=\s*)('[^']*'|\S+)`)

// Redact removes the password from a PostgreSQL URL or key=value string.
func Redact(u string) string {
	if p, err := url.Parse(u); err == nil && p.Scheme != "" {
		if _, has := p.User.Password(); has {
			p.User = url.UserPassword(p.User.Username(), "xxxxx")
		}
		q := p.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			p.RawQuery = q.Encode()
		}
		return p.String()
	}
	return dsnPassword.ReplaceAllString(u, "${1}xxxxx")
}

// Report is Inspect for a running shipper: whether the shared store is
// reachable comes from its last pass (at most Options.MaxBackoff old), so
// asking costs no connection.
func (s *Shipper) Report(ctx context.Context, target string) (Report, error) {
	st := s.Status()
	r, err := Inspect(ctx, s.o.Spool, target, s.o.CallTimeout, nil)
	// Before its first pass both stay false and empty: not known yet.
	r.Reachable, r.Error = st.Connected, st.Error
	return r, err
}
