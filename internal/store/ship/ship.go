package ship

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Target is the shared store the events go to (store.Shared has it):
// PostgreSQL, and SQLite too, so the shipper's tests run against both.
type Target interface {
	store.Importer
	// Check says whether the store is usable (reachable, schema current).
	Check(ctx context.Context) error
	Close() error
}

// Spool is the local store the events are read from and the marks kept in
// (sqlite.Store).
type Spool interface {
	EventsAfter(ctx context.Context, after int64, limit int) ([]store.Event, error)
	SessionsAfter(ctx context.Context, updatedUS int64, id string, limit int) ([]store.Session, error)
	Backlog(ctx context.Context, after int64) (int64, time.Time, error)
	// UnshippedBefore counts the rows past the marks older than before:
	// what retention keeps only because it is not shipped.
	UnshippedBefore(ctx context.Context, before time.Time) (events, sessions int64, err error)
	// DropUnshipped deletes the rows older than before, shipped or not,
	// and records what unshipped ones went (bound.go); Drops lists those
	// records, newest first.
	DropUnshipped(ctx context.Context, before time.Time, reason string) (store.Dropped, error)
	Drops(ctx context.Context, limit int) ([]store.Dropped, error)
	Setting(ctx context.Context, key string) (string, bool, error)
	SetSetting(ctx context.Context, key, value string) error
	ClaimSetting(ctx context.Context, key, value string) (bool, error)
}

// Settings of the local store the shipper keeps.
const (
	// SettingOrigin names this local store in the shared one: the host and
	// a random part, made once, so a store deleted and made again (ids
	// restarting at 1) is a new origin, not a duplicate of the old one.
	SettingOrigin = "ship.origin"
	// SettingEvents is the id of the newest local event shipped.
	SettingEvents = store.SettingShipEvents
	// SettingSessions is "<updated_us> <id>" of the newest session state
	// shipped.
	SettingSessions = store.SettingShipSessions
	// SettingLastOK is the unix time (µs) of the last pass that shipped
	// something or got through after failures. Passes that find nothing
	// write nothing: the keeper leaves once the store has been idle, and a
	// write per pass would keep it forever.
	SettingLastOK = "ship.last_ok"
	// SettingLastError is "<unix µs> <message>" of the failure the shipper
	// is retrying, "" once it got through again.
	SettingLastError = "ship.last_error"
	// SettingPermanent is "1" while that failure is one retrying cannot
	// mend (Permanent), "" otherwise: the keeper does not stay alive for
	// a backlog that cannot drain.
	SettingPermanent = store.SettingShipPermanent
)

// Options configure a Shipper; zero values take the defaults.
type Options struct {
	Spool Spool
	// Dial opens the shared store. It is called again after a failure: a
	// store that cannot be opened (down, wrong password) is retried with
	// back-off like a batch that failed.
	Dial func(ctx context.Context) (Target, error)
	// Origin overrides the origin name kept in the local store.
	Origin string
	// Batch is the most rows sent in one transaction (default 500).
	Batch int
	// Every is how often the shipper looks for new rows (default 1 s).
	Every time.Duration
	// CallTimeout bounds every call to either store (default 10 s).
	CallTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait after a failure, which
	// doubles per failure in a row (defaults 500 ms and 5 s: a try is one
	// connection attempt, and the spool should drain soon after the shared
	// store is back).
	MinBackoff, MaxBackoff time.Duration
	// Once the shared store has failed for LongOutage in a row (default
	// 5 min), the wait grows to at most LongBackoff (default 1 min): a
	// keeper staying alive for a backlog through an outage of hours must
	// not knock every few seconds, and shipping resumes at most that long
	// after the store is back (the daemon's /health/db probe, or
	// `warden ship --once`, ships at once).
	LongOutage, LongBackoff time.Duration
	// Retention is retention_days and UnshippedKeep store.unshipped_keep_days:
	// rows older than their sum go even when not shipped (bound.go).
	// Retention 0: no bound.
	Retention, UnshippedKeep time.Duration
	// Log gets one line per failure and per recovery (default: discarded).
	Log *slog.Logger
}

func (o *Options) defaults() {
	if o.Batch <= 0 {
		o.Batch = 500
	}
	if o.Every <= 0 {
		o.Every = time.Second
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 10 * time.Second
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 500 * time.Millisecond
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(5*time.Second, o.MinBackoff)
	}
	if o.LongOutage <= 0 {
		o.LongOutage = 5 * time.Minute
	}
	if o.LongBackoff < o.MaxBackoff {
		o.LongBackoff = max(time.Minute, o.MaxBackoff)
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
}

// Shipper ships one local store to one shared store. Run it once; Drain
// and Status may be called beside it.
type Shipper struct {
	o Options

	pass       sync.Mutex // serialises passes (Run's and Drain's); guards the three below
	target     Target
	origin     string
	errWritten time.Time // when SettingLastError was last written
	// noted: this shipper has cleared (or found clear) the failure a
	// previous one left in the local store.
	noted bool

	mu     sync.Mutex // guards status, so reading it never waits for a pass
	status Status

	kick chan struct{} // Kick: start the next pass now

}

// Status is what the shipper knows from its own passes.
type Status struct {
	// Connected is true while the last call to the shared store succeeded.
	Connected bool `json:"connected"`
	// LastOK is when a pass last got through; zero before the first.
	LastOK time.Time `json:"last_ok,omitzero"`
	// Error is the failure being retried, "" when none.
	Error string `json:"error,omitempty"`
	// ErrorSince is when the failures in a row began.
	ErrorSince time.Time `json:"error_since,omitzero"`
	// Permanent is true when Error is one retrying cannot mend (a
	// refused login, a missing database): someone must fix the setting.
	Permanent bool `json:"permanent,omitempty"`
	// Shipped counts the rows this shipper inserted into the shared store.
	Shipped int64 `json:"shipped"`
}

// New makes a Shipper; nothing is opened until the first pass.
func New(o Options) (*Shipper, error) {
	if o.Spool == nil || o.Dial == nil {
		return nil, errors.New("ship: a spool and a dial function are required")
	}
	o.defaults()
	return &Shipper{o: o, kick: make(chan struct{}, 1)}, nil
}

// Status returns a copy of the shipper's status.
func (s *Shipper) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status
}

// Run ships until ctx ends: a pass every Options.Every while the shared
// store answers, with back-off while it does not. The shared store stays
// open for a last Drain; Close releases it.
func (s *Shipper) Run(ctx context.Context) error {
	failures := 0
	var bounded time.Time
	for {
		wait := s.o.Every
		if _, err := s.Drain(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			failures++
			wait = backoff(s.o.MinBackoff, s.maxBackoff(time.Now()), failures)
		} else {
			failures = 0
		}
		// After the first pass, so the record says why rows went unshipped;
		// then hourly.
		if now := time.Now(); now.Sub(bounded) >= boundEvery {
			bounded = now
			if _, err := s.enforceBound(ctx, now); err != nil && ctx.Err() == nil {
				s.o.Log.Error("retention bound for unshipped rows", "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		case <-s.kick:
		}
	}
}

// Kick makes Run start its next pass now instead of after its wait (the
// shared store answered a probe while the shipper was backing off).
func (s *Shipper) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// maxBackoff is the longest wait after a failure at now: MaxBackoff, or
// LongBackoff once the failures in a row have lasted LongOutage.
func (s *Shipper) maxBackoff(now time.Time) time.Duration {
	st := s.Status()
	if st.Permanent {
		return s.o.LongBackoff // knocking sooner cannot help
	}
	if since := st.ErrorSince; !since.IsZero() && now.Sub(since) >= s.o.LongOutage {
		return s.o.LongBackoff
	}
	return s.o.MaxBackoff
}

// backoff doubles from lo per failure in a row up to hi, with ±20 % jitter
// so the shippers of many machines do not knock in step.
func backoff(lo, hi time.Duration, failures int) time.Duration {
	d := lo
	for i := 1; i < failures && d < hi; i++ {
		d *= 2
	}
	d = min(d, hi)
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// Drain ships everything the local store holds past the marks, batch after
// batch, and returns how many events the shared store inserted. An error
// leaves the marks at the last batch that committed.
func (s *Shipper) Drain(ctx context.Context) (int, error) {
	s.pass.Lock()
	defer s.pass.Unlock()
	n, err := s.drain(ctx)
	s.note(ctx, n, err)
	return n, err
}

func (s *Shipper) drain(ctx context.Context) (int, error) {
	origin, err := s.originName(ctx)
	if err != nil {
		return 0, err
	}
	t, err := s.dial(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	for {
		n, more, err := s.shipEvents(ctx, t, origin)
		total += n
		if err != nil {
			return total, err
		}
		if !more {
			break
		}
	}
	for {
		more, err := s.shipSessions(ctx, t)
		if err != nil || !more {
			return total, err
		}
	}
}

// shipEvents sends one batch past the mark; more is true when the batch
// was full (there may be more behind it).
func (s *Shipper) shipEvents(ctx context.Context, t Target, origin string) (n int, more bool, err error) {
	mark, err := s.intSetting(ctx, SettingEvents)
	if err != nil {
		return 0, false, err
	}
	evs, err := call(ctx, s.o.CallTimeout, func(ctx context.Context) ([]store.Event, error) {
		return s.o.Spool.EventsAfter(ctx, mark, s.o.Batch)
	})
	if err != nil || len(evs) == 0 {
		return 0, false, err
	}
	n, err = call(ctx, s.o.CallTimeout, func(ctx context.Context) (int, error) {
		return t.ImportEvents(ctx, origin, evs)
	})
	if err != nil {
		return 0, false, fmt.Errorf("ship %d events to the shared store: %w", len(evs), err)
	}
	// Committed: move the mark. Failing here (or crashing) only means the
	// batch is sent again, and the shared store skips what it has.
	last := evs[len(evs)-1].ID
	if err := s.setSetting(ctx, SettingEvents, strconv.FormatInt(last, 10)); err != nil {
		return n, false, err
	}
	s.mu.Lock()
	s.status.Shipped += int64(n)
	s.mu.Unlock()
	return n, len(evs) == s.o.Batch, nil
}

// shipSessions sends one batch of session states updated past the mark.
func (s *Shipper) shipSessions(ctx context.Context, t Target) (more bool, err error) {
	v, _, err := s.setting(ctx, SettingSessions)
	if err != nil {
		return false, err
	}
	usStr, id, _ := strings.Cut(v, " ")
	us, _ := strconv.ParseInt(usStr, 10, 64)
	ss, err := call(ctx, s.o.CallTimeout, func(ctx context.Context) ([]store.Session, error) {
		return s.o.Spool.SessionsAfter(ctx, us, id, s.o.Batch)
	})
	if err != nil || len(ss) == 0 {
		return false, err
	}
	if _, err := call(ctx, s.o.CallTimeout, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, t.ImportSessions(ctx, ss)
	}); err != nil {
		return false, fmt.Errorf("ship %d session states to the shared store: %w", len(ss), err)
	}
	last := ss[len(ss)-1]
	if err := s.setSetting(ctx, SettingSessions, fmt.Sprintf("%d %s", last.Updated.UnixMicro(), last.ID)); err != nil {
		return false, err
	}
	return len(ss) == s.o.Batch, nil
}

// dial returns the open shared store, opening it when needed.
func (s *Shipper) dial(ctx context.Context) (Target, error) {
	if s.target != nil {
		return s.target, nil
	}
	t, err := call(ctx, s.o.CallTimeout, s.o.Dial)
	if err != nil {
		return nil, fmt.Errorf("open the shared store: %w", err)
	}
	s.target = t
	return t, nil
}

// Close releases the shared store (a later pass opens it again).
func (s *Shipper) Close() {
	s.pass.Lock()
	defer s.pass.Unlock()
	if s.target != nil {
		_ = s.target.Close()
		s.target = nil
	}
}

// errRewrite is how often a changing failure is written to the store.
const errRewrite = 5 * time.Minute

// note records a pass's outcome in the status and, when it changed, in
// the local store for `warden doctor` (a setting written only on a change,
// so a long outage does not write on every retry).
func (s *Shipper) note(ctx context.Context, shipped int, err error) {
	now := time.Now()
	s.mu.Lock()
	prev, since := s.status.Error, s.status.ErrorSince
	if err == nil {
		s.status.Connected, s.status.LastOK, s.status.Error, s.status.ErrorSince, s.status.Permanent = true, now, "", time.Time{}, false
	} else if ctx.Err() == nil {
		if since.IsZero() {
			since = now
		}
		s.status.Connected, s.status.Error, s.status.ErrorSince, s.status.Permanent = false, oneLine(err.Error()), since, Permanent(err)
	}
	cur, permanent := s.status.Error, s.status.Permanent
	s.mu.Unlock()
	if err == nil {
		recovered := prev != ""
		if !s.noted { // a previous shipper's failure, mended meanwhile
			s.noted = true
			if v, _, err := s.setting(ctx, SettingLastError); err == nil && v != "" {
				recovered = true
			}
		}
		if recovered {
			s.o.Log.Info("shared store reachable again; shipping resumed")
			_ = s.setSetting(ctx, SettingLastError, "")
			_ = s.setSetting(ctx, SettingPermanent, "")
		}
		if recovered || shipped > 0 {
			_ = s.setSetting(ctx, SettingLastOK, strconv.FormatInt(now.UnixMicro(), 10))
		}
		return
	}
	if ctx.Err() != nil {
		return // stopping, not failing
	}
	// Logged and kept when it starts or changes; kept at most every few
	// minutes while it keeps changing (a message may carry a port or a
	// time), so a long outage does not write the store on every retry.
	if cur != prev && (prev == "" || now.Sub(s.errWritten) >= errRewrite) {
		if permanent {
			s.o.Log.Error("shipping to the shared store failed and retrying will not help until the setting or the server is fixed; events stay in the local store, retried once a minute",
				"err", cur, "key", "store.url / WARDEN_DATABASE_URL", "bound", "rows older than retention_days + store.unshipped_keep_days are pruned even if not shipped")
		} else {
			s.o.Log.Warn("shipping to the shared store failed; events stay in the local store and are retried", "err", cur)
		}
		_ = s.setSetting(ctx, SettingLastError, fmt.Sprintf("%d %s", since.UnixMicro(), cur))
		flag := ""
		if permanent {
			flag = "1"
		}
		_ = s.setSetting(ctx, SettingPermanent, flag)
		s.errWritten = now
	}
	// A broken connection is opened again on the next pass.
	if s.target != nil {
		_ = s.target.Close()
		s.target = nil
	}
}

// oneLine keeps the first line of a message.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// call runs f under a deadline of its own.
func call[T any](ctx context.Context, d time.Duration, f func(context.Context) (T, error)) (T, error) {
	cctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return f(cctx)
}

func (s *Shipper) setting(ctx context.Context, key string) (string, bool, error) {
	cctx, cancel := context.WithTimeout(ctx, s.o.CallTimeout)
	defer cancel()
	v, ok, err := s.o.Spool.Setting(cctx, key)
	if err != nil {
		return "", false, fmt.Errorf("local store: %w", err)
	}
	return v, ok, nil
}

func (s *Shipper) setSetting(ctx context.Context, key, value string) error {
	cctx, cancel := context.WithTimeout(ctx, s.o.CallTimeout)
	defer cancel()
	if err := s.o.Spool.SetSetting(cctx, key, value); err != nil {
		return fmt.Errorf("local store: %w", err)
	}
	return nil
}

func (s *Shipper) intSetting(ctx context.Context, key string) (int64, error) {
	v, ok, err := s.setting(ctx, key)
	if err != nil || !ok || v == "" {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("local store: setting %s = %q is not a number", key, v)
	}
	return n, nil
}
