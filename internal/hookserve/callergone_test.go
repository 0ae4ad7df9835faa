//go:build unix

package hookserve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/handlers"
	"github.com/warden-dev/warden/internal/pipeline"
)

// TestClientGoneIsNamedInTheRecord: handlers still running when their
// client goes away end there, and the row says so — not that they blew
// the event's budget, as it did for a keeper that came back from a stall
// to a client that had stopped waiting ("did not finish within the 54.6s
// budget", 2 s in).
func TestClientGoneIsNamedInTheRecord(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop) // before the rig's shutdown, which waits for the hook
	stuck := pipeline.Handler{Name: "test-stuck", Events: []event.Name{event.Notification},
		Run: func(context.Context, *pipeline.Call) (event.Decision, error) {
			<-stop // past the request's end: only its context ends the wait
			return event.Decision{}, nil
		}}
	r := newRig(t, Options{Handlers: append(handlers.All(), stuck)})
	res := r.do(t, call{args: hookArgs(), stdin: `{"session_id":"g","hook_event_name":"Notification","message":"x"}`,
		hangUp: time.Millisecond})
	if res.err != nil || res.declined {
		t.Fatalf("%+v", res)
	}
	want := "handlers for Notification called off before they finished: " + errCallerGone.Error()
	var got string
	if !waitFor(10*time.Second, func() bool {
		if evs := r.events(t); len(evs) == 1 {
			got = evs[0].Error
		}
		return got != ""
	}) || !strings.Contains(got, want) {
		t.Fatalf("the row's error %q, want %q", got, want)
	}
}
