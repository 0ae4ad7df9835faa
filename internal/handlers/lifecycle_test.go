package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/lifecycle"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// harness runs hook events through the real pipeline for one session.
type harness struct {
	t     *testing.T
	proj  string
	state *session.State
	cfg   *config.Config
	st    store.Local
	now   time.Time
}

func newHarness(t *testing.T, proj string) *harness {
	t.Setenv("WARDEN_HOME", t.TempDir())
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &harness{t: t, proj: proj, state: &session.State{}, cfg: config.Defaults(), st: st,
		now: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
}

// fire runs ev with the JSON fields in kv (session_id "s1" unless given)
// and returns the combined decision.
func (h *harness) fire(ev event.Name, fields string) event.Decision {
	h.t.Helper()
	raw := fmt.Sprintf(`{"session_id":"s1","cwd":%q,"hook_event_name":%q%s}`, h.proj, ev, fields)
	in, err := event.Decode([]byte(raw))
	if err != nil {
		h.t.Fatalf("decode %s: %v", raw, err)
	}
	h.now = h.now.Add(time.Second)
	c := &pipeline.Call{Event: ev, Input: in, State: h.state, Config: h.cfg, Store: h.st,
		ProjectDir: h.proj, Enabled: true, Now: h.now}
	d, res := pipeline.Run(context.Background(), All(), c)
	for _, r := range res {
		if r.Err != nil {
			h.t.Errorf("%s handler %s: %v", ev, r.Handler, r.Err)
		}
	}
	return d
}

func readMap(t *testing.T, p string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return m
}

func TestStopAndSessionEndWriteLastSession(t *testing.T) {
	var warn bytes.Buffer
	lifecycleWarnOut = &warn
	defer func() { lifecycleWarnOut = os.Stderr }()

	proj := testenv.GitRepo(t, "a.txt", "a\n")
	h := newHarness(t, proj)
	h.fire(event.PostToolUse, `,"tool_name":"TodoWrite","tool_input":{"todos":[{"content":"ship it","status":"in_progress","activeForm":"x"}]}`)
	if d := h.fire(event.Stop, `,"stop_hook_active":false`); !d.IsZero() {
		t.Errorf("Stop on a clean tree said something: %+v", d)
	}
	p := filepath.Join(proj, ".warden", "state", "last-session.json")
	m := readMap(t, p)
	if _, err := time.Parse(time.RFC3339, m["ended_at"].(string)); err != nil {
		t.Errorf("ended_at not ISO-8601: %v", m["ended_at"])
	}
	if m["branch"] != "main" || m["uncommitted_changes"] != float64(0) || m["session_id"] != "s1" || m["task"] != "ship it" {
		t.Errorf("clean: %v", m)
	}
	for _, k := range []string{"ended_at", "branch", "uncommitted_changes", "phase", "task", "session_id"} {
		if _, ok := m[k]; !ok {
			t.Errorf("field %s missing", k)
		}
	}
	if _, ok := m["phase"].(string); !ok {
		t.Errorf("phase must be a string: %v", m["phase"])
	}
	if !lifecycle.LearnPending(proj) {
		t.Error("learn-pending not set")
	}

	// Dirty tree: SessionEnd warns with the count.
	os.WriteFile(filepath.Join(proj, "a.txt"), []byte("changed\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "b.txt"), []byte("new\n"), 0o644)
	d := h.fire(event.SessionEnd, `,"reason":"prompt_input_exit"`)
	m = readMap(t, p)
	if m["uncommitted_changes"] != float64(2) {
		t.Errorf("dirty count: %v", m)
	}
	if d.Verdict != event.Warn || !strings.Contains(d.Reason, "2 uncommitted changes") {
		t.Errorf("SessionEnd decision %+v", d)
	}
	if !strings.Contains(warn.String(), "2 uncommitted changes") {
		t.Errorf("no warning printed: %q", warn.String())
	}
	// The output stays valid for SessionEnd (no JSON fields it does not take).
	if out := hookio.Render(event.SessionEnd, d); out.Exit != 0 || out.Stderr != "" {
		t.Errorf("render %+v", out)
	}
	// A subagent's stop does not touch the file.
	before, _ := os.ReadFile(p)
	h.fire(event.Stop, `,"agent_id":"a1"`)
	if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
		t.Error("a subagent rewrote last-session.json")
	}
	// Atomic write: no temp files left.
	ents, _ := os.ReadDir(filepath.Join(proj, ".warden", "state"))
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temp file left: %s", e.Name())
		}
	}
}

func TestLastSessionOutsideRepo(t *testing.T) {
	proj := t.TempDir() // no .warden, no git
	h := newHarness(t, proj)
	if d := h.fire(event.SessionEnd, `,"reason":"other"`); !d.IsZero() {
		t.Errorf("decision %+v", d)
	}
	m := readMap(t, filepath.Join(proj, ".warden", "state", "last-session.json"))
	if m["branch"] != "" || m["uncommitted_changes"] != float64(0) {
		t.Errorf("outside a repo: %v", m)
	}
}

func TestPreCompactState(t *testing.T) {
	proj := testenv.GitRepo(t, "a.txt", "a\n")
	h := newHarness(t, proj)
	os.WriteFile(filepath.Join(proj, "a.txt"), []byte("SECRET CONTENT\n"), 0o644)
	h.fire(event.PostToolUse, fmt.Sprintf(`,"tool_name":"Read","tool_input":{"file_path":%q}`, filepath.Join(proj, "docs", "x.md")))
	h.fire(event.PostToolUse, `,"tool_name":"Edit","tool_input":{"file_path":"/elsewhere/y.go","old_string":"SECRET CONTENT","new_string":"z"}`)
	d := h.fire(event.PreCompact, `,"trigger":"auto","custom_instructions":null`)
	if out := hookio.Render(event.PreCompact, d); len(out.Stdout) != 0 || out.Exit != 0 {
		t.Errorf("PreCompact must not block or print: %+v", out)
	}
	p := filepath.Join(proj, ".warden", "state", "pre-compact-state.json")
	b, _ := os.ReadFile(p)
	if bytes.Contains(b, []byte("SECRET CONTENT")) || bytes.Contains(b, []byte("@@")) {
		t.Fatalf("contents leaked: %s", b)
	}
	m := readMap(t, p)
	if _, err := time.Parse(time.RFC3339, m["captured_at"].(string)); err != nil || m["branch"] != "main" || m["uncommitted_changes"] != float64(1) {
		t.Errorf("pre-compact: %v", m)
	}
	files := fmt.Sprint(m["recent_files"])
	for _, f := range []string{"a.txt", "docs/x.md", "/elsewhere/y.go"} {
		if !strings.Contains(files, f) {
			t.Errorf("recent_files lacks %s: %s", f, files)
		}
	}
	// The note reaches Claude at the SessionStart(compact) that follows.
	d = h.fire(event.SessionStart, `,"source":"compact"`)
	if !strings.Contains(d.Context, "State before compaction: branch main, 1 uncommitted") {
		t.Errorf("compact briefing: %q", d.Context)
	}
}

func TestSessionStartBriefing(t *testing.T) {
	proj := testenv.GitRepo(t, "a.txt", "a\n")
	h := newHarness(t, proj)
	if d := h.fire(event.SessionStart, `,"source":"startup"`); !d.IsZero() {
		t.Fatalf("nothing applies, got %+v", d)
	}
	if out := hookio.Render(event.SessionStart, event.Decision{}); len(out.Stdout) != 0 {
		t.Fatalf("silence expected: %s", out.Stdout)
	}
	h.fire(event.SessionEnd, `,"reason":"other"`)
	hp := filepath.Join(lifecycle.HandoffDir(proj), "handoff-20261122-100000.md")
	os.MkdirAll(filepath.Dir(hp), 0o755)
	os.WriteFile(hp, []byte("HANDOFF-BODY"), 0o644)
	lifecycle.RegisterResume(proj, hp, "s1", h.now)
	ctx := context.Background()
	lifecycle.ClaimThreshold(ctx, h.st, "s2", 75, h.now)

	h2 := newHarness(t, proj)
	h2.st = h.st
	d := h2.fire(event.SessionStart, `,"session_id":"s2","source":"startup"`)
	for _, w := range []string{"Last session ended", "on branch main", "working tree clean", "/learn", "HANDOFF-BODY"} {
		if !strings.Contains(d.Context, w) {
			t.Errorf("briefing lacks %q: %q", w, d.Context)
		}
	}
	out := hookio.Render(event.SessionStart, d)
	var o struct {
		HSO struct {
			Name string `json:"hookEventName"`
			Ctx  string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal(out.Stdout, &o) != nil || o.HSO.Name != "SessionStart" || !strings.Contains(o.HSO.Ctx, "HANDOFF-BODY") {
		t.Errorf("rendered %s", out.Stdout)
	}
	if lifecycle.ThresholdFired(ctx, h.st, "s2") {
		t.Error("SessionStart did not clear the context-threshold mark")
	}
	// Each source gets the briefing; the handoff and learn notice only once.
	for _, src := range []string{"resume", "clear", "compact"} {
		d := h2.fire(event.SessionStart, `,"session_id":"s2","source":"`+src+`"`)
		if strings.Contains(d.Context, "HANDOFF-BODY") || strings.Contains(d.Context, "/learn") {
			t.Errorf("%s: injected twice: %q", src, d.Context)
		}
		if src != "compact" && !strings.Contains(d.Context, "Last session ended") {
			t.Errorf("%s: no briefing: %q", src, d.Context)
		}
	}
	// Switched off piece by piece.
	h2.cfg.Briefing.LastSession = false
	if d := h2.fire(event.SessionStart, `,"session_id":"s2","source":"startup"`); !d.IsZero() {
		t.Errorf("switched off: %+v", d)
	}
}

func depth(h *harness) int {
	return h.state.SubagentDepth
}

func TestSubagentDepthNestedAndMissingStops(t *testing.T) {
	h := newHarness(t, t.TempDir())
	h.fire(event.SessionStart, `,"source":"startup"`)
	h.fire(event.SubagentStart, `,"agent_id":"A","agent_type":"x"`)
	h.fire(event.SubagentStart, `,"agent_id":"B","agent_type":"x"`)
	if depth(h) != 2 {
		t.Fatalf("nested depth %d", depth(h))
	}
	h.fire(event.SubagentStop, `,"agent_id":"B"`)
	h.fire(event.SubagentStop, `,"agent_id":"A"`)
	if depth(h) != 0 {
		t.Fatalf("after nested stops %d", depth(h))
	}
	// A stop for an agent never started (the compaction agent), and repeats: never negative.
	h.fire(event.SubagentStop, `,"agent_id":"compact-agent"`)
	h.fire(event.SubagentStop, `,"agent_id":"A"`)
	h.fire(event.SubagentStop, ``)
	if depth(h) != 0 {
		t.Fatalf("negative or wrong: %d", depth(h))
	}
	// A stop without an id removes one.
	h.fire(event.SubagentStart, `,"agent_id":"C"`)
	h.fire(event.SubagentStart, `,"agent_id":"D"`)
	h.fire(event.SubagentStop, ``)
	if depth(h) != 1 {
		t.Fatalf("id-less stop: %d", depth(h))
	}
	// Missing stop healed by the Agent tool's result in the main context.
	h.fire(event.PostToolUse, `,"tool_name":"Agent","tool_input":{},"tool_response":{"status":"completed","agentId":"D"}`)
	h.fire(event.PostToolUse, `,"tool_name":"Agent","tool_input":{},"tool_response":{"status":"completed","agentId":"C"}`)
	if depth(h) != 0 {
		t.Fatalf("after Agent results: %d", depth(h))
	}
	// Missing stop healed by the main Stop (no background tasks).
	h.fire(event.SubagentStart, `,"agent_id":"E"`)
	h.fire(event.Stop, `,"background_tasks":[{"id":"t","type":"agent"}]`)
	if depth(h) != 1 {
		t.Fatalf("background agent dropped at Stop: %d", depth(h))
	}
	h.fire(event.Stop, ``)
	if depth(h) != 0 {
		t.Fatalf("Stop did not heal a missing stop: %d", depth(h))
	}
	// And by a new SessionStart.
	h.fire(event.SubagentStart, `,"agent_id":"F"`)
	h.fire(event.SessionStart, `,"source":"resume"`)
	if depth(h) != 0 {
		t.Fatalf("SessionStart did not reset: %d", depth(h))
	}
	// And by age.
	h.fire(event.SubagentStart, `,"agent_id":"G"`)
	h.now = h.now.Add(3 * time.Hour)
	h.fire(event.PostToolUse, `,"tool_name":"Read","tool_input":{}`)
	if depth(h) != 0 {
		t.Fatalf("stale subagent kept: %d", depth(h))
	}
}

func TestSubagentReminderMainContextOnly(t *testing.T) {
	h := newHarness(t, t.TempDir())
	var reminders []int
	call := 0
	tool := func(fields string) {
		d := h.fire(event.PostToolUse, `,"tool_name":"Read","tool_input":{}`+fields)
		call++
		if strings.Contains(d.Context, "subagents") {
			reminders = append(reminders, call)
		}
	}
	for i := 0; i < 4; i++ {
		tool("")
	}
	// A subagent runs: its calls (agent_id) and main calls while it runs do not count.
	h.fire(event.SubagentStart, `,"agent_id":"A"`)
	for i := 0; i < 7; i++ {
		tool(`,"agent_id":"A"`)
	}
	h.fire(event.SubagentStop, `,"agent_id":"A"`)
	for i := 0; i < 6; i++ {
		tool("")
	}
	// Main calls are 1-4 and 12-17: the 5th main call is call 12, the 10th call 17.
	if fmt.Sprint(reminders) != "[12 17]" {
		t.Errorf("reminders at calls %v, want [12 17]", reminders)
	}
	// Configurable, and 0 switches it off.
	h.cfg.Reminders.SubagentEvery = 1
	h.cfg.Reminders.SubagentText = "CUSTOM"
	if d := h.fire(event.PostToolUse, `,"tool_name":"Read"`); d.Context != "CUSTOM" {
		t.Errorf("custom text: %q", d.Context)
	}
	h.cfg.Reminders.SubagentEvery = 0
	if d := h.fire(event.PostToolUse, `,"tool_name":"Read"`); d.Context != "" {
		t.Errorf("off: %q", d.Context)
	}
	// additionalContext is accepted at PostToolUse.
	out := hookio.Render(event.PostToolUse, event.Decision{Context: "x"})
	if !bytes.Contains(out.Stdout, []byte(`"additionalContext":"x"`)) {
		t.Errorf("render %s", out.Stdout)
	}
}
