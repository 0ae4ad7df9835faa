package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite/sqlitetest"
)

// env gives a test its own WARDEN_HOME and project directory.
func env(t *testing.T) (home, proj string) {
	t.Helper()
	home, proj = t.TempDir(), t.TempDir()
	t.Setenv("WARDEN_HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", proj)
	return home, proj
}

func runHook(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, stdin, &out, &errb)
	return out.String(), errb.String(), code
}

func payload(ev string, extra string) string {
	p := `{"session_id":"sess-1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"` + ev + `"`
	if extra != "" {
		p += "," + extra
	}
	return p + "}"
}

func events(t *testing.T, home string) []store.Event {
	t.Helper()
	settle.Wait(home, 10*time.Second) // a keeper records after it answers
	return sqlitetest.Events(t, filepath.Join(home, "warden.db"))
}

func TestAllowIsSilenceAndRecorded(t *testing.T) {
	home, _ := env(t)
	out, errs, code := runHook(t, strings.NewReader(payload("PreToolUse",
		`"tool_name":"Write","tool_use_id":"toolu_1","tool_input":{"file_path":"/tmp/x.go","content":"package x"}`)), "--harness", "claude")
	if out != "" || errs != "" || code != 0 {
		t.Fatalf("allow must be silent: out=%q err=%q code=%d", out, errs, code)
	}
	evs := events(t, home)
	if len(evs) != 1 {
		t.Fatalf("want 1 event, got %d", len(evs))
	}
	e := evs[0]
	if e.Event != "PreToolUse" || e.SessionID != "sess-1" || e.Tool != "Write" || e.ToolUseID != "toolu_1" ||
		e.Path != "/tmp/x.go" || e.Decision != "allow" || e.Error != "" || e.Harness != "claude" || e.LatencyUS <= 0 {
		t.Errorf("recorded %+v", e)
	}
	// Without capture only the call itself is kept (for warden replay),
	// not the rest of the payload.
	if want := `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/tmp/x.go","content":"package x"},"cwd":"/tmp"}`; string(e.Raw) != want {
		t.Errorf("recorded input %s, want %s", e.Raw, want)
	}
}

func TestEventArgumentOverridesPayload(t *testing.T) {
	home, _ := env(t)
	runHook(t, strings.NewReader(`{"session_id":"s"}`), "Notification")
	if evs := events(t, home); len(evs) != 1 || evs[0].Event != "Notification" {
		t.Fatalf("got %+v", evs)
	}
}

func TestUserCommandAnsweredAndBlocked(t *testing.T) {
	home, _ := env(t)
	out, _, code := runHook(t, strings.NewReader(payload("UserPromptSubmit", `"prompt":"  warden status "`)))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var o struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if o.Decision != "block" || !strings.Contains(o.Reason, "warden") || !strings.Contains(o.Reason, "store:") {
		t.Errorf("got %+v", o)
	}
	evs := events(t, home)
	if evs[0].Rule != "usercmd:status" || evs[0].Decision != "deny" {
		t.Errorf("recorded %+v", evs[0])
	}
	// An ordinary prompt that mentions warden goes to the model.
	out, _, _ = runHook(t, strings.NewReader(payload("UserPromptSubmit", `"prompt":"warden should log more"`)))
	if out != "" {
		t.Errorf("ordinary prompt intercepted: %s", out)
	}
}

func TestOffStillRecordsAndOnWorks(t *testing.T) {
	home, _ := env(t)
	out, _, _ := runHook(t, strings.NewReader(payload("UserPromptSubmit", `"prompt":"warden off"`)))
	if !strings.Contains(out, "warden is off") {
		t.Fatalf("off: %s", out)
	}
	runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
	// Counters are bookkeeping and keep running; guards would not.
	out, _, _ = runHook(t, strings.NewReader(payload("UserPromptSubmit", `"prompt":"pace-maker status"`)))
	if !strings.Contains(out, "OFF") {
		t.Errorf("status while off: %s", out)
	}
	out, _, _ = runHook(t, strings.NewReader(payload("UserPromptSubmit", `"prompt":"warden on"`)))
	if !strings.Contains(out, "warden is on") {
		t.Errorf("on: %s", out)
	}
	if n := len(events(t, home)); n != 4 {
		t.Errorf("every event recorded while off: want 4 rows, got %d", n)
	}
}

func TestSessionStateCarriesAcrossProcesses(t *testing.T) {
	home, _ := env(t)
	for i := 0; i < 3; i++ {
		runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
	}
	runHook(t, strings.NewReader(payload("SubagentStart", `"agent_id":"a1","agent_type":"Explore"`)))
	st := sqlitetest.Store(t, filepath.Join(home, "warden.db"))
	sess, err := st.Session(context.Background(), "sess-1")
	if err != nil || sess == nil {
		t.Fatalf("session: %v %v", sess, err)
	}
	var s struct {
		ToolCount     int `json:"tool_count"`
		SubagentDepth int `json:"subagent_depth"`
	}
	json.Unmarshal(sess.State, &s)
	if s.ToolCount != 3 || s.SubagentDepth != 1 {
		t.Errorf("state = %s", sess.State)
	}
}

func TestFailOpen(t *testing.T) {
	tests := []struct {
		name    string
		stdin   io.Reader
		args    []string
		wantErr string
	}{
		{"malformed JSON", strings.NewReader(`{"session_id":`), nil, "malformed hook input"},
		{"not an object", strings.NewReader(`[1,2,3]`), nil, "malformed hook input"},
		{"empty stdin", strings.NewReader(""), nil, "empty hook input"},
		{"no event anywhere", strings.NewReader(`{"session_id":"x"}`), nil, "no event"},
		{"unknown flag", strings.NewReader(payload("Stop", "")), []string{"--frobnicate"}, "unknown flag"},
		{"unknown harness", strings.NewReader(payload("Stop", "")), []string{"--harness", "cursor"}, "unknown harness"},
		{"too large", io.MultiReader(strings.NewReader(`{"prompt":"`), &zeros{n: MaxInput + 10}), nil, "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, _ := env(t)
			// None of these is about the read deadline: a slow run (the
			// race detector reading 10 MB) must not turn into one.
			os.WriteFile(filepath.Join(home, "config.toml"), []byte("[hook]\nread_timeout_ms = 10000\n"), 0o600)
			out, errs, code := runHook(t, tt.stdin, tt.args...)
			if code != 0 || out != "" {
				t.Errorf("must fail open: code=%d out=%q", code, out)
			}
			if !strings.Contains(errs, tt.wantErr) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("want one stderr line containing %q, got %q", tt.wantErr, errs)
			}
		})
	}
}

type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	n := min(len(p), z.n)
	for i := range p[:n] {
		p[i] = 'a'
	}
	z.n -= n
	return n, nil
}

func TestFailureIsRecorded(t *testing.T) {
	home, _ := env(t)
	runHook(t, strings.NewReader(`not json`), "PreToolUse")
	evs := events(t, home)
	if len(evs) != 1 || evs[0].Event != "PreToolUse" || !strings.Contains(evs[0].Error, "malformed") {
		t.Fatalf("failure not recorded: %+v", evs)
	}
}

func TestNeverClosingStdin(t *testing.T) {
	home, _ := env(t)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[hook]\nread_timeout_ms = 200\n"), 0o644)
	pr, pw := io.Pipe()
	defer pw.Close()
	pw2 := pw
	go pw2.Write([]byte(`{"hook_event_name":"PreToolUse"`)) // and never close
	done := make(chan struct{})
	var out, errs string
	var code int
	go func() {
		out, errs, code = runHook(t, pr)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("hook hung on a stdin that never closes")
	}
	if code != 0 || out != "" || !strings.Contains(errs, "stdin not closed") {
		t.Errorf("code=%d out=%q err=%q", code, out, errs)
	}
}

func TestCorruptStoreFailsOpen(t *testing.T) {
	home, _ := env(t)
	db := filepath.Join(home, "warden.db")
	os.WriteFile(db, bytes.Repeat([]byte("this is not a database "), 400), 0o600)
	before, _ := os.ReadFile(db)
	out, errs, code := runHook(t, strings.NewReader(payload("UserPromptSubmit", `"prompt":"warden status"`)))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errs, "store unusable") {
		t.Errorf("stderr %q", errs)
	}
	// Commands still answer, and say what is wrong.
	if !strings.Contains(out, "NOT USABLE") {
		t.Errorf("status with a corrupt store: %s", out)
	}
	after, _ := os.ReadFile(db)
	if !bytes.Equal(before, after) {
		t.Error("a corrupt store must not be overwritten")
	}
}

func TestLockedStoreFailsOpenWithinBudget(t *testing.T) {
	home, _ := env(t)
	ctx := context.Background()
	st := sqlitetest.Store(t, filepath.Join(home, "warden.db"))
	// Hold the write lock for longer than the retry budget.
	conn, err := sqlitetest.Open(t, st.Path()).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "ROLLBACK")
	start := time.Now()
	// Notification has a 10 s timeout: the hook must give up within it.
	out, errs, code := runHook(t, strings.NewReader(payload("Notification", `"message":"hi"`)))
	if code != 0 || out != "" {
		t.Errorf("code=%d out=%q", code, out)
	}
	if !strings.Contains(errs, "record") && !strings.Contains(errs, "store") && !strings.Contains(errs, "session") {
		t.Errorf("stderr should say the store was locked: %q", errs)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v, beyond the event's timeout", el)
	}
}

func TestBrokenConfigUsesDefaultsAndSaysSoOncePerSession(t *testing.T) {
	home, _ := env(t)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("retention_days = [oops\n"), 0o644)
	out, _, code := runHook(t, strings.NewReader(payload("SessionStart", `"source":"startup"`)))
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var o struct {
		SystemMessage string `json:"systemMessage"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil || !strings.Contains(o.SystemMessage, "config.toml:1") {
		t.Fatalf("want a systemMessage naming config.toml:1, got %q", out)
	}
	out, _, _ = runHook(t, strings.NewReader(payload("SessionStart", `"source":"resume"`)))
	if out != "" {
		t.Errorf("said twice in one session: %s", out)
	}
	// Hooks keep working with defaults.
	out, _, code = runHook(t, strings.NewReader(payload("PreToolUse", `"tool_name":"Bash","tool_input":{"command":"ls"}`)))
	if out != "" || code != 0 {
		t.Errorf("hook with broken config: %q %d", out, code)
	}
}

func TestCaptureRedactsSecrets(t *testing.T) {
	home, _ := env(t)
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("capture = true\n"), 0o644)
	runHook(t, strings.NewReader(payload("PreToolUse",
		`"tool_name":"Bash","tool_input":{"command":"curl -H 'x-api-key: sk-ant-api03-abcdefghijklmnop' https://x"}`)))
	evs := events(t, home)
	if len(evs) != 1 || len(evs[0].Raw) == 0 {
		t.Fatalf("raw not captured: %+v", evs)
	}
	if strings.Contains(string(evs[0].Raw), "abcdefghijklmnop") || !strings.Contains(string(evs[0].Raw), "[REDACTED]") {
		t.Errorf("secret not redacted: %s", evs[0].Raw)
	}
	if !json.Valid(evs[0].Raw) {
		t.Errorf("redacted raw is not valid JSON: %s", evs[0].Raw)
	}
}

func TestUnknownEventRecordedAndAllowed(t *testing.T) {
	home, _ := env(t)
	out, errs, code := runHook(t, strings.NewReader(`{"session_id":"s","hook_event_name":"BrandNewEvent","new_field":1}`))
	if out != "" || errs != "" || code != 0 {
		t.Errorf("out=%q err=%q code=%d", out, errs, code)
	}
	if evs := events(t, home); len(evs) != 1 || evs[0].Event != "BrandNewEvent" {
		t.Errorf("not recorded: %+v", evs)
	}
}
