package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// defaultWorld is an agent world as a new user has it: Claude Code's
// onboarding done and an API key approved, but no bypass mode accepted,
// no permission mode configured — Claude Code's default (auto) mode,
// whose own check cannot run against the offline fake API. git knows
// who commits (the user's ~/.gitconfig), so the agent runs plain `git
// commit`.
func defaultWorld(t *testing.T, script Script) *agentWorld {
	t.Helper()
	bin := testenv.Binaries(t, "warden", "warden-helper")
	w := newAgentWorldWith(t, filepath.Join(bin, "warden"), "", script)
	path := filepath.Join(w.Home, ".claude.json")
	var cj map[string]any
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &cj) != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	delete(cj, "bypassPermissionsModeAccepted")
	b, _ = json.Marshal(cj)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(w.Home, ".gitconfig"), []byte("[user]\n\tname = Agent\n\temail = agent@example.com\n"), 0o644)
	return w
}

func addTask(t *testing.T, d *daemon, prompt string) string {
	t.Helper()
	out := d.warden(t, "task", "add", "-C", d.w.Project, "--json", prompt)
	var added struct{ ID string }
	if err := json.Unmarshal([]byte(out), &added); err != nil || added.ID == "" {
		t.Fatalf("task add: %v\n%s", err, out)
	}
	return added.ID
}

func finalStatus(s string) bool { return s == "done" || s == "failed" || s == "cancelled" }

// With default settings, real Claude Code in tmux and a scripted model,
// a task whose agent runs `echo hi > hello.txt && git add hello.txt &&
// git commit -m hello` reaches done unattended: warden's PreToolUse
// answers allow out loud, so Claude Code neither shows a dialog nor
// needs its server-side auto-mode check. The commit is on the branch.
func TestDefaultSettingsTaskDoneUnattended(t *testing.T) {
	w := defaultWorld(t, Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo hi > hello.txt && git add hello.txt && git commit -m hello"}}}},
		{Text: "Committed hello.txt."},
	}, DoneText: "Done."})
	d := startDaemonMode(t, w, "", "")
	id := addTask(t, d, "Add hello.txt and commit it.")
	start := time.Now()
	tj := d.waitTask(t, id, finalStatus, 150*time.Second)
	took := time.Since(start)
	story := d.warden(t, "task", "show", id)
	if tj.Task.Status != "done" || tj.Task.AgentState != "done" {
		t.Fatalf("task %s (agent %s): %s\n%s\nAPI:\n%s", tj.Task.Status, tj.Task.AgentState, tj.Task.Error, story, w.API.Summary())
	}
	if msg := strings.TrimSpace(testenv.Git(t, w.Project, "log", "-1", "--format=%s", "warden/"+id)); msg != "hello" {
		t.Errorf("branch tip %q, want the agent's commit", msg)
	}
	for _, h := range tj.AgentStory.History {
		if h.State == "waiting" {
			t.Errorf("the agent waited for a person:\n%s", story)
		}
	}
	// The tool ran (its result reached the model), with no dialog.
	res := w.API.ToolResults()
	if len(res) != 1 {
		t.Errorf("tool results %+v", res)
	}
	for _, r := range res {
		if r.IsError {
			t.Errorf("the Bash call failed: %s", r.ResultText())
		}
	}
	if !strings.Contains(story, "permissions: warden's policy answers every tool call") {
		t.Errorf("task show does not say who answers permissions:\n%s", story)
	}
	t.Logf("done unattended in %v\n%s", took.Round(100*time.Millisecond), story)
}

// untilWaiting polls the task until its agent waits (or the task ends).
func untilWaiting(t *testing.T, d *daemon, id string) taskJSON {
	t.Helper()
	var tj taskJSON
	deadline := time.Now().Add(90 * time.Second)
	for {
		tj = d.waitTask(t, id, func(string) bool { return true }, time.Minute)
		if tj.Task.AgentState == "waiting" || finalStatus(tj.Task.Status) || time.Now().After(deadline) {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if tj.Task.AgentState != "waiting" {
		t.Fatalf("agent %s, want waiting on the ask\n%s", tj.Task.AgentState, d.warden(t, "task", "show", id))
	}
	return tj
}

// askCommit reads .env (the policy asks: core.secrets:read-secret) and
// commits in the same call.
const askCommit = "cat .env; echo hi > hello.txt && git add hello.txt && git commit -m hello"

// A call the policy answers with ask puts the task in waiting with the
// pending call recorded and shown; `warden task approve` answers Claude
// Code's dialog; the call runs, the task is done with the call's commit
// on its branch, and `warden task diff` shows it.
func TestAskWaitsThenApprovedFromCLI(t *testing.T) {
	w := defaultWorld(t, Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": askCommit}}}},
		{Text: "Committed hello.txt."},
	}, DoneText: "Done."})
	d := startDaemonMode(t, w, "", "")
	id := addTask(t, d, "Read .env, then add hello.txt and commit it.")
	untilWaiting(t, d, id)
	asked := time.Now()
	story := d.warden(t, "task", "show", id)
	for _, want := range []string{"waiting on: Bash `" + askCommit + "` (core.secrets:read-secret", "why:      asks a person: Bash `cat .env;"} {
		if !strings.Contains(story, want) {
			t.Errorf("task show lacks %q:\n%s", want, story)
		}
	}
	// Nothing ran before the answer.
	if n := len(w.API.ToolResults()); n != 0 {
		t.Fatalf("%d tool results before the answer", n)
	}
	var out string
	testenv.WaitFor(t, 30*time.Second, "warden task approve to find the dialog", func() bool {
		o, err := runBin(d.bin, w.Env, w.Project, "task", "approve", id)
		out = o
		return err == nil
	})
	if !strings.Contains(out, "approved: Bash `cat .env;") {
		t.Errorf("approve said %q", out)
	}
	tj := d.waitTask(t, id, finalStatus, 120*time.Second)
	story = d.warden(t, "task", "show", id)
	if tj.Task.Status != "done" {
		t.Fatalf("task %s after the answer: %s\n%s", tj.Task.Status, tj.Task.Error, story)
	}
	t.Logf("asked → done %v after the approval", time.Since(asked).Round(100*time.Millisecond))
	if strings.Contains(story, "waiting on:") {
		t.Errorf("a finished task still shows a pending call:\n%s", story)
	}
	diff := d.warden(t, "task", "diff", id)
	for _, want := range []string{"1 commit(s), 1 file(s) changed, +1 -0", "hello (", "hello.txt | 1 +", "+hi"} {
		if !strings.Contains(diff, want) {
			t.Errorf("task diff lacks %q:\n%s", want, diff)
		}
	}
	var dj struct {
		Commits []string
		Stat    struct{ Files int }
	}
	if err := json.Unmarshal([]byte(d.warden(t, "task", "diff", id, "--json", "--stat")), &dj); err != nil || len(dj.Commits) != 1 || dj.Stat.Files != 1 {
		t.Errorf("task diff --json: %+v %v", dj, err)
	}
	if _, err := runBin(d.bin, w.Env, w.Project, "task", "approve", id); err == nil {
		t.Error("approving a finished task succeeded")
	}
}

// `warden task deny --reason` answers the dialog with No and tells the
// agent why: the call never runs, the model reads the reason, and the
// agent goes on to finish another way.
func TestAskDeniedFromCLIWithReason(t *testing.T) {
	w := defaultWorld(t, Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": askCommit}}}},
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo hi > hello.txt && git add hello.txt && git commit -m hello"}}}},
		{Text: "Committed hello.txt without reading .env."},
	}, DoneText: "Done."})
	d := startDaemonMode(t, w, "", "")
	id := addTask(t, d, "Read .env, then add hello.txt and commit it.")
	untilWaiting(t, d, id)
	var out string
	testenv.WaitFor(t, 30*time.Second, "warden task deny to find the dialog", func() bool {
		o, err := runBin(d.bin, w.Env, w.Project, "task", "deny", id, "--reason", "secrets stay out of this task")
		out = o
		return err == nil
	})
	if !strings.Contains(out, "denied: Bash `cat .env;") {
		t.Errorf("deny said %q", out)
	}
	tj := d.waitTask(t, id, finalStatus, 120*time.Second)
	if tj.Task.Status != "done" {
		t.Fatalf("task %s after the denial: %s\n%s\nAPI:\n%s", tj.Task.Status, tj.Task.Error, d.warden(t, "task", "show", id), w.API.Summary())
	}
	sawReason := false
	for _, r := range w.API.MainRequests() {
		if m, ok := r.LastUser(); ok && strings.Contains(m.Text(), "secrets stay out of this task") {
			sawReason = true
		}
	}
	// The call was rejected, never run; the model heard so.
	if r, ok := w.API.ToolResults()["toolu_e2e_00_0"]; !ok || !r.IsError || !strings.Contains(r.ResultText(), "rejected") {
		t.Errorf("the denied call's result %+v (present %v), want a rejection", r, ok)
	}
	if !sawReason {
		t.Errorf("the model never read the reason:\n%s", w.API.Summary())
	}
	if _, err := os.Stat(filepath.Join(w.Project, "hello.txt")); err == nil {
		t.Error("hello.txt in the project itself")
	}
}

// agent.permission_mode = "bypassPermissions" for a user who never
// accepted Claude Code's bypass warning: warden accepts it for the agent
// (on its command line, not in the user's config), the task reaches
// done, task show says so, and the user's own config is unchanged.
func TestBypassPermissionsWarningAcceptedForTheAgent(t *testing.T) {
	w := defaultWorld(t, Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo hi > hello.txt && git add hello.txt && git commit -m hello"}}}},
		{Text: "Committed hello.txt."},
	}, DoneText: "Done."})
	d := startDaemonMode(t, w, "bypassPermissions", "")
	id := addTask(t, d, "Add hello.txt and commit it.")
	tj := d.waitTask(t, id, finalStatus, 150*time.Second)
	story := d.warden(t, "task", "show", id)
	if tj.Task.Status != "done" {
		t.Fatalf("task %s: %s\n%s", tj.Task.Status, tj.Task.Error, story)
	}
	if !strings.Contains(story, "its one-time bypass warning was accepted by warden for this agent") {
		t.Errorf("task show does not say the warning was accepted:\n%s", story)
	}
	b, _ := os.ReadFile(filepath.Join(w.Home, ".claude.json"))
	if strings.Contains(string(b), "bypassPermissionsModeAccepted") {
		t.Errorf("the user's ~/.claude.json now accepts bypass mode for every session: %s", b)
	}
	if b, err := os.ReadFile(filepath.Join(w.Home, ".claude", "settings.json")); err == nil && strings.Contains(string(b), "skipDangerousModePermissionPrompt") {
		t.Errorf("the user's settings.json now skips the warning: %s", b)
	}
}

// With warden switched off (`warden off`), nothing answers the agent's
// tool calls and Claude Code's auto mode stops at its dialog, sending
// Notification agent_needs_input: the task shows waiting with that
// reason at once, not working until the idle timeout.
func TestAgentNeedsInputIsWaiting(t *testing.T) {
	w := defaultWorld(t, Script{Steps: []Step{
		{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo hi > hello.txt && git add hello.txt && git commit -m hello"}}}},
		{Text: "Committed hello.txt."},
	}, DoneText: "Done."})
	d := startDaemonMode(t, w, "", "")
	d.warden(t, "off")
	id := addTask(t, d, "Add hello.txt and commit it.")
	start := time.Now()
	var tj taskJSON
	for tj.Task.AgentState != "waiting" {
		if time.Since(start) > 90*time.Second || finalStatus(tj.Task.Status) {
			t.Fatalf("agent %s, want waiting\n%s", tj.Task.AgentState, d.warden(t, "task", "show", id))
		}
		time.Sleep(300 * time.Millisecond)
		tj = d.waitTask(t, id, func(string) bool { return true }, time.Minute)
	}
	story := d.warden(t, "task", "show", id)
	if !strings.Contains(story, "why:      Notification agent_needs_input: it waits for a person") {
		t.Errorf("task show does not say why it waits:\n%s", story)
	}
	t.Logf("waiting after %v", time.Since(start).Round(100*time.Millisecond))
	d.warden(t, "task", "cancel", id)
}
