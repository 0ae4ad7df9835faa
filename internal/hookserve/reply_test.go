//go:build unix

package hookserve

import (
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/handlers"
)

// TestQuickHookAnswersInOneWrite: a hook done within AcceptGrace sends
// Accepted with its exit code, so its client wakes once.
func TestQuickHookAnswersInOneWrite(t *testing.T) {
	r := newRig(t, Options{})
	quick := 0
	for i := 0; i < 20; i++ {
		res := r.do(t, call{args: hookArgs(), stdin: preToolUse("quick", r.home, "ls")})
		if res.err != nil || res.declined || res.code != 0 {
			t.Fatalf("%+v", res)
		}
		if res.together {
			quick++
		}
	}
	// A loaded machine can stretch one past AcceptGrace; most must not.
	if quick < 15 {
		t.Fatalf("only %d of 20 quick hooks got Accepted and the code in one write", quick)
	}
}

// TestSlowHookIsAcceptedAtTheGrace: a hook still running at AcceptGrace
// (a pacing sleep here) tells its client it was taken then, and sends the
// code when done.
func TestSlowHookIsAcceptedAtTheGrace(t *testing.T) {
	r := newRig(t, Options{Handlers: append(handlers.All(), sleeper(700*time.Millisecond))})
	res := r.do(t, call{args: hookArgs(), stdin: `{"session_id":"slow","hook_event_name":"Notification","message":"x"}`})
	if res.err != nil || res.declined || res.code != 0 {
		t.Fatalf("%+v", res)
	}
	if res.together {
		t.Fatal("a 700 ms hook sent Accepted only with its code")
	}
	if res.acceptedAfter < AcceptGrace || res.acceptedAfter > 650*time.Millisecond {
		t.Fatalf("Accepted after %v, want about %v", res.acceptedAfter, AcceptGrace)
	}
}
