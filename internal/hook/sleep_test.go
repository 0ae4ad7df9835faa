//go:build unix

package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/handlers"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/reqenv"
)

// sleepHandler is a test-only handler: a Notification whose message is
// "sleep:<duration>" asks the runtime to sleep that long, as pacing does
// in PostToolUse.
func sleepHandler() pipeline.Handler {
	return pipeline.Handler{
		Name:   "test-sleep",
		Events: []event.Name{event.Notification},
		Run: func(_ context.Context, c *pipeline.Call) (event.Decision, error) {
			var m struct {
				Message string `json:"message"`
			}
			json.Unmarshal(c.Input.Raw, &m)
			spec, ok := strings.CutPrefix(m.Message, "sleep:")
			if !ok {
				return event.Decision{}, nil
			}
			d, err := time.ParseDuration(spec)
			if err != nil {
				return event.Decision{}, nil
			}
			c.State.ToolCount += 100 // a state change that must be saved before the sleep
			return event.Decision{Sleep: d, Reason: "test pacing"}, nil
		},
	}
}

// runHookWith is runHook with the built-in handlers and extra ones.
func runHookWith(t *testing.T, extra []pipeline.Handler, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := invoke(context.Background(), &invocation{args: args, env: reqenv.Process(), stdin: stdin, stdout: &out, stderr: &errb,
		signals: true, handlers: append(handlers.All(), extra...)})
	return out.String(), errb.String(), code
}

func TestRuntimeSleepsAndRecordsIt(t *testing.T) {
	home, _ := env(t)
	start := time.Now()
	out, errs, code := runHookWith(t, []pipeline.Handler{sleepHandler()}, strings.NewReader(payload("Notification", `"message":"sleep:400ms"`)))
	el := time.Since(start)
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("code %d out %q err %q", code, out, errs)
	}
	if el < 400*time.Millisecond || el > 3*time.Second {
		t.Errorf("hook took %v, want about 400ms", el)
	}
	evs := events(t, home)
	if len(evs) != 1 || evs[0].SleptMS < 390 || evs[0].SleptMS > 2000 {
		t.Fatalf("slept_ms not recorded: %+v", evs)
	}
	if n := toolCount(t, home, "sess-1"); n != 100 {
		t.Errorf("state saved before the sleep: tool_count %d", n)
	}
}

func TestSleepForBounds(t *testing.T) {
	bg := context.Background()
	if got := sleepFor(bg, 5*time.Second, 50*time.Millisecond, true); got < 50*time.Millisecond || got > time.Second {
		t.Errorf("limit not honoured: slept %v", got)
	}
	if got := sleepFor(bg, time.Second, -time.Second, true); got != 0 {
		t.Errorf("past deadline must not sleep: %v", got)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	}()
	if got := sleepFor(bg, 10*time.Second, 10*time.Second, true); got > 3*time.Second {
		t.Errorf("SIGTERM did not end the sleep: %v", got)
	}
	// In a resident server the caller's going away (its context) ends it.
	ctx, cancel := context.WithCancel(bg)
	time.AfterFunc(100*time.Millisecond, cancel)
	if got := sleepFor(ctx, 10*time.Second, 10*time.Second, false); got > 3*time.Second {
		t.Errorf("a cancelled request did not end the sleep: %v", got)
	}
}
