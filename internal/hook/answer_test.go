package hook

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/handlers"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// servedStore is the store open as a resident server holds it.
func servedStore(t *testing.T, home string) *sqlite.Store {
	t.Helper()
	runHook(t, strings.NewReader(payload("Notification", `"message":"create the store"`)))
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func countEvents(t *testing.T, st store.Store) int {
	t.Helper()
	evs, err := st.Events(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(evs)
}

// TestServedHookAnswersBeforeItRecords: a served hook hands its exit code
// to Answer once its output is out, before its event row exists (the
// client need not wait for the write), and Run returns only after the row
// is written and the state saved.
func TestServedHookAnswersBeforeItRecords(t *testing.T) {
	home, _ := env(t)
	st := servedStore(t, home)
	before := countEvents(t, st)
	var out, errb bytes.Buffer
	answered, rowsAtAnswer, outAtAnswer := -1, -1, ""
	req := Request{Env: reqenv.Process(), Stdin: strings.NewReader(payload("PreToolUse",
		`"tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"git push --force origin main"}`)),
		Stdout: &out, Stderr: &errb, Store: st,
		Answer: func(code int) {
			answered, rowsAtAnswer, outAtAnswer = code, countEvents(t, st), out.String()
		}}
	code := Run(context.Background(), req)
	if code != answered {
		t.Fatalf("Run returned %d, Answer got %d", code, answered)
	}
	if !strings.Contains(outAtAnswer, `"deny"`) {
		t.Fatalf("the output was not out when the answer went: %q", outAtAnswer)
	}
	if rowsAtAnswer != before {
		t.Fatalf("%d rows at the answer, want %d: the record came first", rowsAtAnswer, before)
	}
	if n := countEvents(t, st); n != before+1 {
		t.Fatalf("%d rows after Run, want %d", n, before+1)
	}
	if errb.Len() > 0 {
		t.Fatalf("stderr: %s", errb.String())
	}
}

// TestServedPacingSleepIsPartOfTheAnswer: a throttled hook answers after
// its sleep, never before: the delay is what pacing asks of Claude Code.
func TestServedPacingSleepIsPartOfTheAnswer(t *testing.T) {
	home, _ := env(t)
	st := servedStore(t, home)
	var out, errb bytes.Buffer
	start := time.Now()
	var at time.Duration
	req := Request{Env: reqenv.Process(), Stdin: strings.NewReader(payload("Notification", `"message":"sleep:300ms"`)),
		Stdout: &out, Stderr: &errb, Store: st, Handlers: append(handlers.All(), sleepHandler()),
		Answer: func(int) { at = time.Since(start) }}
	Run(context.Background(), req)
	if at < 300*time.Millisecond {
		t.Fatalf("answered after %v, before the 300ms sleep ended", at)
	}
}

// TestMessagesAfterTheAnswerGoToTheLog: what the runtime says once the
// caller's stderr is closed (here: the store cannot take the record) goes
// to Request.Log.
func TestMessagesAfterTheAnswerGoToTheLog(t *testing.T) {
	home, _ := env(t)
	st := servedStore(t, home)
	var out, errb, log bytes.Buffer
	req := Request{Env: reqenv.Process(), Stdin: strings.NewReader(payload("Notification", `"message":"x"`)),
		Stdout: &out, Stderr: &errb, Store: st, Log: &log,
		Answer: func(int) { st.Close() }} // the store goes away between answer and record
	Run(context.Background(), req)
	if !strings.Contains(log.String(), "could not record the event") {
		t.Fatalf("log %q, stderr %q", log.String(), errb.String())
	}
	if strings.Contains(errb.String(), "could not record") {
		t.Fatalf("written to the caller's stderr after the answer: %q", errb.String())
	}
}
