package daemon

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// Where the dashboard and the API's event routes read the record. Hooks
// always write this machine's SQLite store and the spool ships its rows to
// the shared store, so with [store] url the shared store holds the events
// of every machine of the pool, and that is what a pool's dashboard must
// show. When the shared store stops answering, reads fall back to the
// local store (this machine's events only) and try the shared one again
// after sharedRetry; /health/db ("events"), the dashboard's footer and
// /api/events' "source" say which one answered.

// sharedReadTimeout bounds one read of the shared store, so an
// unreachable server (no answer at all, not just a refusal) costs a page
// at most this much before the local store answers instead.
const sharedReadTimeout = 2 * time.Second

// sharedRetry is how long reads stay on the local store after the shared
// one failed.
const sharedRetry = 15 * time.Second

// Event sources, as /health/db, /api/events and the dashboard name them.
const (
	sourceShared = "shared"
	sourceLocal  = "local"
)

// eventReads chooses the store the record is read from: shared when one
// is configured and answers, else local. Its ids are the chosen store's:
// they are unrelated between the two, so a reader paging by id starts
// again when the source changes (the dashboard's live stream reloads).
type eventReads struct {
	local, shared store.RecordReader // shared nil: none configured
	localWhere    string             // the SQLite file
	sharedWhere   string             // host:port/database, no password
	log           *slog.Logger
	now           func() time.Time

	mu        sync.Mutex
	downUntil time.Time // reads go local until then
	lastErr   string    // why the shared store was left
	// waitErr is set while a configured shared store has not answered
	// since the daemon started (shared is nil until it does).
	waitErr string
}

func newEventReads(local store.RecordReader, localWhere string, log *slog.Logger) *eventReads {
	return &eventReads{local: local, localWhere: localWhere, log: log, now: time.Now}
}

// useShared makes the shared store at where the source.
func (r *eventReads) useShared(st store.RecordReader, where string) {
	r.mu.Lock()
	r.shared, r.sharedWhere, r.waitErr = st, where, ""
	r.mu.Unlock()
}

// waiting records that the shared store at where has not answered yet
// (err: the last failure): reads stay local and the labels say why.
func (r *eventReads) waiting(where string, err error) {
	r.mu.Lock()
	r.sharedWhere, r.waitErr = where, err.Error()
	r.mu.Unlock()
}

// pick is the store to read now and whether it is the shared one.
func (r *eventReads) pick() (store.RecordReader, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.shared == nil || r.now().Before(r.downUntil) {
		return r.local, false
	}
	return r.shared, true
}

// fail records that the shared store did not answer: reads go local for
// sharedRetry.
func (r *eventReads) fail(err error) {
	r.mu.Lock()
	first := !r.now().Before(r.downUntil)
	r.downUntil, r.lastErr = r.now().Add(sharedRetry), err.Error()
	r.mu.Unlock()
	if first {
		r.log.Warn("shared store did not answer a read; reading the local store", "err", err, "retry_in", sharedRetry.String())
	}
}

// Source names the store reads go to now: "shared" or "local".
func (r *eventReads) Source() string {
	if _, shared := r.pick(); shared {
		return sourceShared
	}
	return sourceLocal
}

// Label is Source for people: which store, where, and why not the shared
// one.
func (r *eventReads) Label() string {
	_, shared := r.pick()
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case shared:
		return "events of every machine, from the shared store " + r.sharedWhere
	case r.shared != nil:
		return "this machine's events only: the shared store " + r.sharedWhere + " did not answer (" + r.lastErr + ")"
	case r.waitErr != "":
		return "this machine's events only: the shared store " + r.sharedWhere + " is not reachable yet (" + r.waitErr + "); tasks wait for it"
	default:
		return "this machine's events (no shared store configured)"
	}
}

// Status is the "events" part of /health/db: always up (the local store
// answers when the shared one does not), saying which one is used.
func (r *eventReads) Status(context.Context) (any, error) {
	_, shared := r.pick()
	r.mu.Lock()
	defer r.mu.Unlock()
	d := map[string]any{"source": sourceLocal, "where": r.localWhere}
	if shared {
		d["source"], d["where"] = sourceShared, r.sharedWhere
	} else if r.shared != nil {
		d["shared_error"], d["shared_retry_at"] = r.lastErr, r.downUntil.UTC()
	} else if r.waitErr != "" {
		d["shared_error"], d["shared_state"] = r.waitErr, "not reachable yet"
	}
	return d, nil
}

// read runs f on the chosen store; a shared store that fails (or does not
// answer within sharedReadTimeout) while the caller still waits is left
// for sharedRetry, and the local store answers.
func read[T any](ctx context.Context, r *eventReads, f func(context.Context, store.RecordReader) (T, error)) (T, error) {
	st, shared := r.pick()
	if !shared {
		return f(ctx, st)
	}
	sctx, cancel := context.WithTimeout(ctx, sharedReadTimeout)
	v, err := f(sctx, st)
	cancel()
	if err == nil || ctx.Err() != nil {
		return v, err
	}
	r.fail(err)
	return f(ctx, r.local)
}

// SessionSummaries implements store.ActivityReader.
func (r *eventReads) SessionSummaries(ctx context.Context, since time.Time) ([]store.SessionSummary, error) {
	return read(ctx, r, func(ctx context.Context, st store.RecordReader) ([]store.SessionSummary, error) {
		return st.SessionSummaries(ctx, since)
	})
}

// RuleDecisionCounts implements store.ActivityReader.
func (r *eventReads) RuleDecisionCounts(ctx context.Context, since time.Time) ([]store.RuleDecisions, error) {
	return read(ctx, r, func(ctx context.Context, st store.RecordReader) ([]store.RuleDecisions, error) {
		return st.RuleDecisionCounts(ctx, since)
	})
}

// Overrides implements store.ActivityReader.
func (r *eventReads) Overrides(ctx context.Context, since time.Time, within time.Duration) ([]store.Override, error) {
	return read(ctx, r, func(ctx context.Context, st store.RecordReader) ([]store.Override, error) {
		return st.Overrides(ctx, since, within)
	})
}

// SearchEvents implements store.ActivityReader.
func (r *eventReads) SearchEvents(ctx context.Context, q store.EventQuery) ([]store.Event, error) {
	return read(ctx, r, func(ctx context.Context, st store.RecordReader) ([]store.Event, error) {
		return st.SearchEvents(ctx, q)
	})
}

// Event implements store.ActivityReader.
func (r *eventReads) Event(ctx context.Context, id int64) (*store.Event, error) {
	return read(ctx, r, func(ctx context.Context, st store.RecordReader) (*store.Event, error) {
		return st.Event(ctx, id)
	})
}

// EventsPage is server.EventStore's page of events.
func (r *eventReads) EventsPage(ctx context.Context, after int64, session string, since time.Time, limit int) ([]store.Event, error) {
	return read(ctx, r, func(ctx context.Context, st store.RecordReader) ([]store.Event, error) {
		return st.EventsPage(ctx, after, session, since, limit)
	})
}

// SessionsPage is server.EventStore's list of sessions.
func (r *eventReads) SessionsPage(ctx context.Context, limit int) ([]store.Session, error) {
	return read(ctx, r, func(ctx context.Context, st store.RecordReader) ([]store.Session, error) {
		return st.SessionsPage(ctx, limit)
	})
}

// Check is server.EventStore's: the store reads go to answers.
func (r *eventReads) Check(ctx context.Context) error {
	_, err := read(ctx, r, func(ctx context.Context, st store.RecordReader) (struct{}, error) {
		return struct{}{}, st.Check(ctx)
	})
	return err
}
