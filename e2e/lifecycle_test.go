package e2e

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// Lifecycle scenarios (issue #7): a session that ends and a second run's
// SessionStart briefing; a compaction; a subagent. Each first run goes
// through runScenario; follow-up runs reuse its HOME, store and project
// with rerun.

const e2eReminder = "WARDEN-E2E-REMINDER: delegate to subagents."

func TestLifecycleScenarios(t *testing.T) {
	t.Run("session-end-then-briefing", testSessionEndBriefing)
	t.Run("compaction", testCompaction)
	t.Run("subagent", testSubagent)
}

func testSessionEndBriefing(t *testing.T) {
	r := runScenario(t, Scenario{
		Name:   "lifecycle-end",
		Prompt: "Write hello.txt.",
		Script: Script{Steps: []Step{
			{Tools: []ToolUse{{ID: "toolu_write", Name: "Write",
				Input: map[string]any{"file_path": "${CWD}/hello.txt", "content": "hello\n"}}}},
			{Text: "Wrote hello.txt."},
		}},
		Check: func(t *testing.T, r *Run) {
			if r.ExitCode != 0 {
				t.Fatalf("claude exit %d", r.ExitCode)
			}
		},
	})
	if t.Failed() {
		return
	}
	// Run 1 ran outside a git repository: branch "", count 0.
	ls := readJSONFile(t, filepath.Join(r.Proj, ".warden", "state", "last-session.json"))
	if ls["branch"] != "" || ls["uncommitted_changes"] != float64(0) || ls["session_id"] != r.SessionID() {
		t.Errorf("run 1 last-session.json: %v (session %s)", ls, r.SessionID())
	}
	if _, err := time.Parse(time.RFC3339, fmt.Sprint(ls["ended_at"])); err != nil {
		t.Errorf("ended_at: %v", ls["ended_at"])
	}
	if _, err := os.Stat(filepath.Join(r.Proj, ".warden", "state", "learn-pending")); err != nil {
		t.Errorf("learn-pending not set: %v", err)
	}

	// Make the project a git repository with an uncommitted change, then
	// start a second session in it.
	testenv.Git(t, r.Proj, "init", "-q", "-b", "main")
	testenv.Git(t, r.Proj, "-c", "user.email=e@e", "-c", "user.name=e", "-c", "commit.gpgsign=false",
		"commit", "-q", "--allow-empty", "-m", "init")
	run2 := rerun(t, r, "Carry on.", nil, Script{Steps: []Step{{Text: "Carrying on."}}})
	if run2.ExitCode != 0 {
		t.Fatalf("run 2: exit %d\n%s", run2.ExitCode, run2.Stderr)
	}
	mains := run2.API.MainRequests()
	if len(mains) == 0 {
		t.Fatal("run 2 made no main request")
	}
	body := string(mains[0].Raw)
	for _, want := range []string{"warden briefing", "Last session ended", "/learn"} {
		if !strings.Contains(body, want) {
			t.Errorf("run 2's first model request lacks %q", want)
		}
	}
	ls = readJSONFile(t, filepath.Join(r.Proj, ".warden", "state", "last-session.json"))
	if ls["branch"] != "main" || ls["uncommitted_changes"] != float64(1) { // hello.txt is untracked
		t.Errorf("run 2 last-session.json: %v", ls)
	}
	var warned bool
	for _, e := range r.Events(t) {
		if e.Event == "SessionEnd" && e.Rule == "lifecycle:dirty-tree" && strings.Contains(e.Reason, "1 uncommitted change") {
			warned = true
		}
		if e.ErrorMsg != "" {
			t.Errorf("event %s recorded an error", e)
		}
	}
	if !warned {
		t.Error("SessionEnd with a dirty tree recorded no warning")
	}
}

func testCompaction(t *testing.T) {
	script := Script{
		Steps: []Step{
			{Tools: []ToolUse{{ID: "toolu_read", Name: "Read", Input: map[string]any{"file_path": "${CWD}/notes.txt"}}}},
			{Text: "The file has notes."},
		},
		SideRules: []SideRule{{Match: "summary of the conversation",
			Text: "<summary>E2E summary: the user asked to look at notes.txt and it was read.</summary>"}},
	}
	r := runScenario(t, Scenario{
		Name: "lifecycle-compact-setup", Prompt: "Say ok.",
		Script: Script{Steps: []Step{{Text: "ok"}}},
		Files:  map[string]string{"notes.txt": "some notes\n"},
	})
	if t.Failed() {
		return
	}
	run := rerun(t, r, "", []string{"Look at the file.", "/compact", "What next?"}, script)
	if run.ExitCode != 0 {
		t.Fatalf("exit %d\n%s", run.ExitCode, run.Stderr)
	}
	p := filepath.Join(r.Proj, ".warden", "state", "pre-compact-state.json")
	pc := readJSONFile(t, p)
	if _, err := time.Parse(time.RFC3339, fmt.Sprint(pc["captured_at"])); err != nil {
		t.Errorf("captured_at: %v", pc)
	}
	if !strings.Contains(fmt.Sprint(pc["recent_files"]), "notes.txt") {
		t.Errorf("recent_files lacks notes.txt: %v", pc)
	}
	if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("some notes")) {
		t.Error("pre-compact state contains file content")
	}
	var pre, start bool
	for _, e := range r.Events(t) {
		if e.SessionID != run.SessionID() {
			continue
		}
		switch e.Event {
		case "PreCompact":
			pre = true
		case "SessionStart":
			start = true
		}
	}
	if !pre || !start {
		t.Errorf("events: PreCompact %v SessionStart %v", pre, start)
	}
	// The note reaches the model after the compaction.
	found := false
	for _, q := range run.API.Requests() {
		if strings.Contains(string(q.Raw), "State before compaction") {
			found = true
		}
	}
	if !found {
		t.Error("no request after the compaction carries the pre-compaction note")
	}
}

func testSubagent(t *testing.T) {
	// The fake API routes by the number of assistant messages, so a
	// subagent gets the same steps as the main thread: it starts a nested
	// subagent (Claude Code allows a few levels, then refuses the Agent
	// call), and each level then runs a Bash call inside its subagent; the
	// main thread does the same Bash call after its subagent returned. The
	// Agent call runs in the foreground so the order is fixed.
	script := Script{Steps: []Step{
		{Tools: []ToolUse{{ID: "toolu_agent", Name: "Agent", Input: map[string]any{
			"description": "Run the check", "prompt": "E2E_SUBAGENT: run the check and report.",
			"subagent_type": "general-purpose", "run_in_background": false}}}},
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo step1", "description": "Check"}}}},
		{Text: "Done."},
	}}
	r := runScenario(t, Scenario{
		Name: "lifecycle-subagent", Prompt: "Delegate the check to a helper agent.", Script: script,
		Timeout: 150 * time.Second,
		Files: map[string]string{".warden/config.toml": fmt.Sprintf(
			"[reminders]\nsubagent_every = 1\nsubagent_text = %q\n", e2eReminder)},
	})
	if t.Failed() {
		return
	}
	sid := r.SessionID()
	starts, stops := 0, 0
	var subPost, mainPost int
	for _, e := range r.Events(t) {
		if e.SessionID != sid {
			continue
		}
		switch {
		case e.Event == "SubagentStart":
			starts++
		case e.Event == "SubagentStop":
			stops++
		case e.Event == "PostToolUse" && e.AgentID != "":
			subPost++
		case e.Event == "PostToolUse":
			mainPost++
		}
		if e.ErrorMsg != "" {
			t.Errorf("event %s recorded an error", e)
		}
	}
	if starts == 0 || stops != starts {
		t.Fatalf("SubagentStart %d, SubagentStop %d", starts, stops)
	}
	if starts < 2 {
		t.Logf("no nested subagent this time (%d level)", starts)
	}
	if d := sessionDepth(t, r, sid); d != 0 {
		t.Errorf("subagent depth at the end = %d, want 0", d)
	}
	// Reminders only in the main context: no request of the subagent carries
	// one; a main request after a main tool call does.
	var inMain, inSub int
	for _, q := range r.API.Requests() {
		isSub := strings.Contains(firstUserText(q), "E2E_SUBAGENT")
		if strings.Contains(string(q.Raw), "WARDEN-E2E-REMINDER") {
			if isSub {
				inSub++
			} else {
				inMain++
			}
		}
	}
	t.Logf("SubagentStart %d, SubagentStop %d; PostToolUse main %d / subagent %d; requests with the reminder: main %d, subagent %d",
		starts, stops, mainPost, subPost, inMain, inSub)
	if inSub != 0 {
		t.Errorf("%d subagent requests carry the main-context reminder", inSub)
	}
	if inMain == 0 {
		t.Error("no main request carries the reminder (subagent_every = 1)")
	}
}

// rerun runs claude again in r's HOME and project with a new fake API:
// one prompt, or several fed as stream-json, each after the previous
// produced its result line.
func rerun(t *testing.T, r *Run, prompt string, prompts []string, script Script) *Run {
	t.Helper()
	claude := requireClaude(t)
	n := &Run{Dir: r.Dir, Home: r.Home, Proj: r.Proj}
	n.API = newFakeAPI(script, map[string]string{"CWD": r.Proj, "HOME": r.Home, "RUN": r.Dir})
	t.Cleanup(n.API.Close)
	env := []string{
		"PATH=" + filepath.Join(r.Dir, "shim") + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + r.Home, "TERM=" + envOr("TERM", "xterm"), "LANG=" + envOr("LANG", "C.UTF-8"),
		"TMPDIR=" + filepath.Join(r.Dir, "tmp"), "WARDEN_HOME=" + filepath.Join(r.Home, ".warden"),
		"ANTHROPIC_BASE_URL=" + n.API.URL(), "ANTHROPIC_API_KEY=sk-ant-e2e-fake-key-0000000000000000",
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_BUG_COMMAND=1",
	}
	if os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	args := []string{"-p"}
	if prompts == nil {
		args = append(args, prompt)
	} else {
		args = append(args, "--input-format", "stream-json")
	}
	args = append(args, "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions")
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir, cmd.Env = r.Proj, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	killGroupOnCancel(cmd)
	cmd.WaitDelay = 5 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdin *os.File
	if prompts != nil {
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin, stdin = pr, pw
		defer pr.Close()
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	send := func(p string) {
		b, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": p}})
		stdin.Write(append(b, '\n'))
	}
	if prompts != nil {
		send(prompts[0])
	}
	sent, results := 1, 0
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out bytes.Buffer
	for sc.Scan() {
		out.Write(sc.Bytes())
		out.WriteByte('\n')
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		n.Lines = append(n.Lines, m)
		if m["type"] == "result" && prompts != nil {
			results++
			if sent < len(prompts) {
				send(prompts[sent])
				sent++
			} else if results >= len(prompts) {
				stdin.Close()
			}
		}
	}
	if stdin != nil {
		stdin.Close()
	}
	err = cmd.Wait()
	n.Elapsed = time.Since(start)
	n.Stdout, n.Stderr = out.Bytes(), stderr.Bytes()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		n.ExitCode = ee.ExitCode()
	default:
		t.Fatalf("run claude: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("claude did not finish in time; stderr:\n%s", stderr.String())
	}
	t.Logf("rerun: claude ran %.1fs, exit %d, %d API requests", n.Elapsed.Seconds(), n.ExitCode, len(n.API.Requests()))
	return n
}

func readJSONFile(t *testing.T, p string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return m
}

func firstUserText(q APIRequest) string {
	for _, m := range q.Messages() {
		if m.Role == "user" {
			return m.Text()
		}
	}
	return ""
}

// sessionDepth reads subagent_depth from the session's saved state.
func sessionDepth(t *testing.T, r *Run, sid string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+r.DBPath()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var state string
	if err := db.QueryRow("SELECT state FROM sessions WHERE id = ?", sid).Scan(&state); err != nil {
		t.Fatalf("session %s: %v", sid, err)
	}
	var st struct {
		Depth int `json:"subagent_depth"`
	}
	json.Unmarshal([]byte(state), &st)
	return st.Depth
}

// TestStatuslineThresholdHandoff drives the real binary without Claude
// Code: `warden statusline` above context.threshold spawns one detached
// `warden handoff auto` per session, and the next SessionStart hook injects
// the handoff exactly once.
func TestStatuslineThresholdHandoff(t *testing.T) {
	if skipAll != "" {
		t.Skip(skipAll)
	}
	if wardenErr != nil {
		t.Fatalf("cannot build warden: %v", wardenErr)
	}
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	testenv.Git(t, proj, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(proj, "work.go"), []byte("package work\n"), 0o644)
	tr := filepath.Join(dir, "transcript.jsonl")
	os.WriteFile(tr, []byte(`{"type":"user","message":{"role":"user","content":"GOAL: port the parser to Go"}}`+"\n"+
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Half of it is ported."}]}}`+"\n"), 0o644)
	env := append(os.Environ(), "WARDEN_HOME="+filepath.Join(dir, "wh"), "HOME="+dir, "CLAUDE_PROJECT_DIR=", "NO_COLOR=1")
	statusline := func(sess string, pct any) string {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"session_id": sess, "transcript_path": tr, "cwd": proj,
			"workspace":      map[string]any{"current_dir": proj, "project_dir": proj},
			"model":          map[string]any{"display_name": "Opus"},
			"context_window": map[string]any{"used_percentage": pct}})
		cmd := exec.Command(wardenBin, "statusline")
		cmd.Env, cmd.Stdin = env, bytes.NewReader(b)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		if err := cmd.Run(); err != nil || errb.Len() > 0 {
			t.Fatalf("statusline: %v, stderr %q", err, errb.String())
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("statusline took %v: the handoff must not be waited on", el)
		}
		return out.String()
	}
	// handoffs waits until want handoffs exist and no `warden handoff
	// auto` of this test runs any more: a render spawns before it exits,
	// so once the renders returned and their spawns finished, every
	// handoff that will ever be written is there.
	handoffs := func(want int) []string {
		t.Helper()
		var m []string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			m, _ = filepath.Glob(filepath.Join(proj, ".warden", "handoffs", "handoff-*.md"))
			if len(m) >= want && !handoffRunning(t, filepath.Join(dir, "wh")) {
				break
			}
		}
		m, _ = filepath.Glob(filepath.Join(proj, ".warden", "handoffs", "handoff-*.md"))
		return m
	}
	if out := statusline("sess-a", 50); !strings.Contains(out, "ctx 50%") {
		t.Errorf("below: %q", out)
	}
	if out := statusline("sess-a", 0.74); !strings.Contains(out, "⚠ CTX 74%") {
		t.Errorf("at threshold: %q", out)
	}
	if out := statusline("sess-a", 80); !strings.Contains(out, "⚠ CTX 80%") {
		t.Errorf("second render: %q", out)
	}
	hs := handoffs(1)
	if len(hs) != 1 {
		t.Fatalf("two renders above 70%% in one session wrote %d handoffs", len(hs))
	}
	b, _ := os.ReadFile(hs[0])
	for _, w := range []string{"GOAL: port the parser to Go", "Half of it is ported.", "Branch: main", "work.go"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("handoff lacks %q:\n%s", w, b)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, ".warden", "state", "pending-resume.json")); err != nil {
		t.Fatalf("not registered: %v", err)
	}

	hook := func(sess string) string {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"session_id": sess, "cwd": proj, "hook_event_name": "SessionStart", "source": "startup"})
		cmd := exec.Command(wardenBin, "hook", "--harness", "claude")
		cmd.Env, cmd.Stdin, cmd.Dir = env, bytes.NewReader(b), proj
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hook: %v", err)
		}
		return string(out)
	}
	if out := hook("sess-b"); !strings.Contains(out, "GOAL: port the parser to Go") || !strings.Contains(out, `"hookEventName":"SessionStart"`) {
		t.Errorf("SessionStart did not inject the handoff: %s", out)
	}
	if out := hook("sess-c"); strings.Contains(out, "GOAL: port the parser") {
		t.Errorf("handoff injected twice: %s", out)
	}
	// A new session fires again.
	statusline("sess-b", 90)
	if hs := handoffs(2); len(hs) != 2 {
		t.Errorf("a new session above the threshold: %d handoffs, want 2", len(hs))
	}
}

// handoffRunning reports whether a `warden handoff auto` started for the
// warden home wh is still running (its command line and environment in
// /proc; exited ones, zombies included, have an empty command line).
func handoffRunning(t *testing.T, wh string) bool {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil || len(procs) == 0 {
		t.Fatalf("cannot list processes in /proc: %v", err)
	}
	for _, p := range procs {
		cmdline, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte("handoff\x00auto\x00")) {
			continue
		}
		if env, err := os.ReadFile(filepath.Join(p, "environ")); err == nil && bytes.Contains(env, []byte("WARDEN_HOME="+wh+"\x00")) {
			return true
		}
	}
	return false
}
