package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/hookwire/settle"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

// The review loop with real Claude Code 2.1.330 in tmux, the scripted
// model and a real `warden serve`: approve always, replies, merges.

func bashStep(cmd string) Step {
	return Step{Tools: []ToolUse{{Name: "Bash", Input: map[string]any{"command": cmd}}}}
}

// sawInMain reports whether a main-conversation request carried text in
// any of its messages.
func sawInMain(api *fakeAPI, text string) bool {
	for _, r := range api.MainRequests() {
		for _, m := range r.Messages() {
			if strings.Contains(m.Text(), text) {
				return true
			}
		}
	}
	return false
}

// `warden task approve --always` answers the dialog and lets the same
// call through for the rest of the task: the agent's second identical
// call does not wait. A reply to the agent while it waits on the call is
// refused (it would land in the dialog); a reply while it works is typed
// into its prompt and reaches the model.
func TestApproveAlwaysThenReplyToRunningAgent(t *testing.T) {
	// The third step works until the test has replied: it waits for a
	// marker the test writes after the reply (at most 90 s). A fixed sleep
	// raced the reply under a loaded CI run: the agent had finished and its
	// tmux server was gone before the reply was sent.
	replied := filepath.Join(t.TempDir(), "replied")
	w := defaultWorld(t, Script{Steps: []Step{
		bashStep("cat .env"),
		bashStep("cat .env"),
		bashStep("for i in $(seq 900); do [ -e " + replied + " ] && break; sleep 0.1; done"),
		bashStep("echo hi > hello.txt && git add hello.txt && git commit -m hello"),
		{Text: "Committed hello.txt."},
	}, DoneText: "Done."})
	d := startDaemonMode(t, w, "", "")
	id := addTask(t, d, "Read .env twice, then add hello.txt and commit it.")
	untilWaiting(t, d, id)

	out, err := runBin(d.bin, w.Env, w.Project, "task", "reply", id, "go on")
	if err == nil || !strings.Contains(out, "answer that first") || !strings.Contains(out, "warden task approve "+id) {
		t.Errorf("a reply to an agent waiting on a call: %v\n%s", err, out)
	}
	testenv.WaitFor(t, 30*time.Second, "warden task approve --always to find the dialog", func() bool {
		out, err = runBin(d.bin, w.Env, w.Project, "task", "approve", id, "--always")
		return err == nil
	})
	if !strings.Contains(out, "approved (always for this task): Bash `cat .env`") {
		t.Errorf("approve --always said %q", out)
	}

	// Reply while the third step works, then let it finish.
	testenv.WaitFor(t, 60*time.Second, "the agent to run the waiting step", func() bool {
		for _, r := range w.API.MainRequests() {
			if r.Step == 2 {
				return true
			}
		}
		return false
	})
	time.Sleep(time.Second)
	out = d.warden(t, "task", "reply", id, "REPLY-MARK: keep the commit message short")
	if !strings.Contains(out, "reply sent to the running agent") {
		t.Errorf("reply to the working agent said %q", out)
	}
	time.Sleep(2 * time.Second) // the TUI takes the typed reply in before the step ends
	if err := os.WriteFile(replied, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tj := d.waitTask(t, id, finalStatus, 150*time.Second)
	story := d.warden(t, "task", "show", id)
	if tj.Task.Status != "done" {
		t.Fatalf("task %s: %s\n%s\nAPI:\n%s", tj.Task.Status, tj.Task.Error, story, w.API.Summary())
	}
	waits := 0
	for _, h := range tj.AgentStory.History {
		if h.State == "waiting" {
			waits++
		}
	}
	if waits != 1 {
		t.Errorf("the agent waited %d times, want once (the second cat .env is allowed always)\n%s", waits, story)
	}
	res := w.API.ToolResults()
	if r, ok := res["toolu_e2e_01_0"]; !ok || strings.Contains(r.ResultText(), "rejected") {
		t.Errorf("the second cat .env: %+v (present %v), want it run", r, ok)
	}
	settle.Wait(w.WardenHome, 10*time.Second) // the hook server records after it answers
	st, err := sqlite.Open(context.Background(), filepath.Join(w.WardenHome, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	evs, err := st.Events(context.Background(), store.Filter{TaskID: id, Event: "PreToolUse"})
	if err != nil {
		t.Fatal(err)
	}
	var pre []string
	for _, e := range evs {
		if e.Tool == "Bash" {
			pre = append(pre, e.Decision+"/"+e.Rule)
		}
	}
	if len(pre) < 2 || !strings.HasPrefix(pre[0], "ask/core.secrets") || pre[1] != "allow/agent:always" {
		t.Errorf("PreToolUse decisions %v, want ask by core.secrets, then allow by agent:always", pre)
	}
	if !sawInMain(w.API, "REPLY-MARK: keep the commit message short") {
		t.Errorf("the model never read the reply:\n%s", w.API.Summary())
	}
	if !strings.Contains(story, "always allowed: Bash `cat .env`") {
		t.Errorf("task show does not list the allowance:\n%s", story)
	}
	if !strings.Contains(story, "scheduler reply") && !strings.Contains(story, "a person replied to the running agent") {
		t.Errorf("task show does not record the reply:\n%s", story)
	}
}

// A finished task takes a reply as a follow-up run on its branch: queued
// again, a new session in a new worktree on the same branch, with the
// reply and the task's context as its prompt, done with both runs'
// commits on the branch. Then merge: a conflict on main is refused naming
// the file and leaves main and its checkout as they were; --pr with a
// GitHub remote opens a pull request through gh (a script recording its
// argv); a clean merge lands the branch on main and the task shows
// merged. A cancelled task takes no reply.
func TestReplyFollowUpThenMerge(t *testing.T) {
	w := defaultWorld(t, Script{Steps: []Step{
		bashStep("echo hi > hello.txt && git add hello.txt && git commit -m hello"),
		{Text: "Committed hello.txt."},
	}, DoneText: "Done."})
	d := startDaemonMode(t, w, "", "")
	id := addTask(t, d, "Add hello.txt and commit it.")
	if tj := d.waitTask(t, id, finalStatus, 150*time.Second); tj.Task.Status != "done" {
		t.Fatalf("first run: %s %s\n%s", tj.Task.Status, tj.Task.Error, d.warden(t, "task", "show", id))
	}

	// The follow-up's session starts a new conversation.
	w.API.SetScript([]Step{
		bashStep("echo bye > bye.txt && git add bye.txt && git commit -m bye"),
		{Text: "Committed bye.txt too."},
	})
	out := d.warden(t, "task", "reply", id, "Also add bye.txt and commit it.")
	if !strings.Contains(out, id+" queued: a follow-up run on its branch starts with the reply") {
		t.Errorf("reply to a done task said %q", out)
	}
	tj := d.waitTask(t, id, func(s string) bool { return s == "done" || s == "failed" }, 150*time.Second)
	story := d.warden(t, "task", "show", id)
	if tj.Task.Status != "done" {
		t.Fatalf("follow-up run: %s %s\n%s\nAPI:\n%s", tj.Task.Status, tj.Task.Error, story, w.API.Summary())
	}
	if log := testenv.Git(t, w.Project, "log", "--format=%s", "main..warden/"+id); strings.Fields(log)[0] != "bye" || strings.Fields(log)[1] != "hello" {
		t.Errorf("branch log %q, want bye on hello", log)
	}
	first := w.API.MainRequests()
	var prompt string
	for _, r := range first {
		if r.Step == 0 {
			if m, ok := r.LastUser(); ok && strings.Contains(m.Text(), "follow-up on warden task") {
				prompt = m.Text()
			}
		}
	}
	for _, want := range []string{"Also add bye.txt and commit it.", "Add hello.txt and commit it.", "hello", "warden/" + id, "ended done"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the follow-up's prompt lacks %q:\n%s", want, prompt)
		}
	}
	if !strings.Contains(story, "follow-up run: Also add bye.txt") {
		t.Errorf("task show does not tell the follow-up:\n%s", story)
	}

	// Merge: a dry run changes nothing; a conflict on main is refused.
	mainBefore := strings.TrimSpace(testenv.Git(t, w.Project, "rev-parse", "main"))
	out = d.warden(t, "task", "merge", id, "--dry-run")
	if !strings.Contains(out, "would be merged into main in "+w.Project+": 2 commit(s), 2 file(s)") {
		t.Errorf("merge --dry-run said %q", out)
	}
	os.WriteFile(filepath.Join(w.Project, "hello.txt"), []byte("main's own\n"), 0o644)
	testenv.Git(t, w.Project, "add", "hello.txt")
	testenv.Git(t, w.Project, "commit", "--quiet", "-m", "main: hello")
	conflicted := strings.TrimSpace(testenv.Git(t, w.Project, "rev-parse", "main"))
	out, err := runBin(d.bin, w.Env, w.Project, "task", "merge", id)
	if err == nil || !strings.Contains(out, "conflicts in hello.txt") {
		t.Errorf("conflicting merge: %v\n%s", err, out)
	}
	if now := strings.TrimSpace(testenv.Git(t, w.Project, "rev-parse", "main")); now != conflicted {
		t.Error("the refused merge moved main")
	}
	if st := strings.TrimSpace(testenv.Git(t, w.Project, "status", "--porcelain")); st != "" {
		t.Errorf("the refused merge left the checkout changed:\n%s", st)
	}
	testenv.Git(t, w.Project, "reset", "--quiet", "--hard", mainBefore)

	// --pr: a GitHub remote (pushes go to a bare repository here) and gh.
	bare := filepath.Join(w.Dir, "app.git")
	testenv.Git(t, w.Project, "init", "--quiet", "--bare", bare)
	testenv.Git(t, w.Project, "remote", "add", "origin", "https://github.com/acme/app.git")
	testenv.Git(t, w.Project, "config", "url."+bare+".pushInsteadOf", "https://github.com/acme/app.git")
	ghLog := filepath.Join(w.Dir, "gh-argv")
	os.WriteFile(filepath.Join(w.Dir, "shim", "gh"), []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >> "+ghLog+"\n"+
		"[ \"$1\" = auth ] && exit 0\necho https://github.com/acme/app/pull/42\n"), 0o755)
	out = d.warden(t, "task", "merge", id, "--pr")
	if !strings.Contains(out, "pull request https://github.com/acme/app/pull/42 (warden/"+id+" into main)") {
		t.Errorf("merge --pr said %q", out)
	}
	argv, _ := os.ReadFile(ghLog)
	if !strings.Contains(string(argv), "auth status\npr create --repo acme/app --base main --head warden/"+id+" --title warden task "+id+": Add hello.txt and commit it.") {
		t.Errorf("gh was called with:\n%s", argv)
	}
	if got := strings.TrimSpace(testenv.Git(t, bare, "rev-parse", "warden/"+id)); got != strings.TrimSpace(testenv.Git(t, w.Project, "rev-parse", "warden/"+id)) {
		t.Error("the branch was not pushed")
	}
	if tj := d.waitTask(t, id, finalStatus, time.Minute); tj.Task.AgentState != "pr_open" {
		t.Errorf("after --pr the task's agent state is %q", tj.Task.AgentState)
	}

	// A clean merge lands both commits on main, in its checkout.
	var mj struct {
		Commit  string
		Commits []string
		Files   []string
	}
	if err := json.Unmarshal([]byte(d.warden(t, "task", "merge", id, "--json")), &mj); err != nil || len(mj.Commits) != 2 || len(mj.Files) != 2 {
		t.Fatalf("merge --json: %+v %v", mj, err)
	}
	if tip := strings.TrimSpace(testenv.Git(t, w.Project, "rev-parse", "main")); tip != mj.Commit {
		t.Errorf("main is at %s, the merge said %s", tip, mj.Commit)
	}
	for _, f := range []string{"hello.txt", "bye.txt"} {
		if _, err := os.Stat(filepath.Join(w.Project, f)); err != nil {
			t.Errorf("%s not in the project's checkout after the merge", f)
		}
	}
	tj = d.waitTask(t, id, finalStatus, time.Minute)
	story = d.warden(t, "task", "show", id)
	if tj.Task.AgentState != "merged" || !strings.Contains(story, "merged into main as") {
		t.Errorf("the task does not show the merge (agent state %q):\n%s", tj.Task.AgentState, story)
	}

	// A cancelled task takes no reply; an unknown one neither.
	id2 := addTask(t, d, "Something to cancel.")
	d.warden(t, "task", "cancel", id2)
	d.waitTask(t, id2, finalStatus, time.Minute)
	if out, err := runBin(d.bin, w.Env, w.Project, "task", "reply", id2, "carry on"); err == nil || !strings.Contains(out, "was cancelled") {
		t.Errorf("reply to a cancelled task: %v\n%s", err, out)
	}
	if out, err := runBin(d.bin, w.Env, w.Project, "task", "reply", "tnosuchtask", "hello"); err == nil || !strings.Contains(out, "no task tnosuchtask") {
		t.Errorf("reply to an unknown task: %v\n%s", err, out)
	}
	if out, err := runBin(d.bin, w.Env, w.Project, "task", "reply", id, "   "); err == nil || !strings.Contains(out, "empty") {
		t.Errorf("an empty reply: %v\n%s", err, out)
	}
}
