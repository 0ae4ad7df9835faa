package storesource

import (
	"context"

	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/store"
)

// Events implements dashboard.Events. With AfterID the oldest Limit
// events after it come back (a stream must not skip any); without, the
// newest Limit. Either way oldest first.
func (s *Source) Events(ctx context.Context, f dashboard.EventFilter) ([]store.Event, error) {
	return s.act.SearchEvents(ctx, store.EventQuery{SessionPrefix: f.Session, Event: f.Event, Tool: f.Tool,
		Decision: f.Decision, AfterID: f.AfterID, Limit: f.Limit})
}
