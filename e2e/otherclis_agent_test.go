package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/testenv"
)

// cliAgentConfig is the [agent] keys and the daemon's environment that
// point CLI c at the scripted model at url: what a user's own setup of
// that CLI would hold (a provider, a model), nothing that bypasses hooks.
func cliAgentConfig(c otherCLI, bin, url string) (keys string, env []string) {
	switch c.harness {
	case "codex":
		return fmt.Sprintf("codex = %q\ncodex_args = [\"-m\", \"gpt-5.4\", \"-c\", \"model_provider=fake\", \"-c\", %q]", bin,
				`model_providers.fake={name="fake",base_url="`+url+`/v1",env_key="FAKE_API_KEY",wire_api="responses"}`),
			[]string{"FAKE_API_KEY=dummy"}
	case "gemini":
		return fmt.Sprintf("gemini = %q\ngemini_args = [\"-m\", \"gemini-3.1-pro-preview\"]", bin),
			[]string{"GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL=" + url}
	}
	return fmt.Sprintf("copilot = %q", bin),
		[]string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + url + "/v1", "COPILOT_PROVIDER_API_KEY=dummy",
			"COPILOT_MODEL=gpt-5.4", "XDG_CACHE_HOME=" + copilotCache()}
}

// For each real CLI, offline against the scripted model: a task queued
// with `warden task add --agent NAME` runs that CLI in the task's own
// worktree and tmux window (the prompt on stdin, no trust-bypass flag),
// warden's hooks for it installed by the runner (they were uninstalled);
// the model's `rm -rf ~` is denied by warden's hook and the home
// survives; its next command writes a file and commits; the hook events
// are recorded with the harness and the task; the task ends done by the
// committed and clean criteria, with the commit on its branch.
func TestOtherCLIAgentTaskDone(t *testing.T) {
	for _, c := range otherCLIs {
		t.Run(c.harness, func(t *testing.T) {
			bin := c.tool.Require(t)
			w := newCLIHomeFrom(t, c, testenv.Binaries(t, "warden", "warden-helper"))
			// Installed, then taken out again: the runner must put warden's
			// hooks for the CLI back before its agent starts.
			if out, err := runBin(filepath.Join(w.home, ".warden", "bin", "warden"), w.env, w.proj, "uninstall", "--harness", c.harness, "--yes"); err != nil {
				t.Fatalf("warden uninstall --harness %s: %v\n%s", c.harness, err, out)
			}
			writeTestFile(t, filepath.Join(w.proj, "README.md"), "# demo\n")
			testenv.Git(t, w.proj, "add", "README.md")
			testenv.Git(t, w.proj, "-c", "user.name=u", "-c", "user.email=u@example.com", "commit", "-qm", "init")

			api := &fakeModels{Command: "rm -rf ~",
				Then:      []string{"printf 'hello from " + c.harness + "\\n' > hello.txt && git add hello.txt && git -c user.name=agent -c user.email=agent@example.com commit -qm hello"},
				FinalText: "Committed hello.txt."}
			api.srv = httptest.NewServer(api)
			t.Cleanup(api.Close)
			keys, extra := cliAgentConfig(c, bin, api.URL())

			sock, _ := os.MkdirTemp("", "wte2e")
			tm := &agent.Tmux{Socket: filepath.Join(sock, "s")}
			t.Cleanup(func() {
				_ = tm.KillServer(context.Background())
				os.RemoveAll(sock)
			})
			aw := &agentWorld{Dir: w.dir, Home: w.home, WardenHome: filepath.Join(w.home, ".warden"), Project: w.proj,
				Env: append(append([]string{}, w.env...), extra...), Tmux: tm, API: newFakeAPI(Script{}, nil)}
			t.Cleanup(aw.API.Close)
			d := startDaemonAgent(t, aw, keys)

			out := d.warden(t, "task", "add", "-C", w.proj, "--agent", c.harness, "--json", "Add hello.txt and commit it.")
			id := jsonID(t, out)
			tj := d.waitTask(t, id, finalStatus, 3*time.Minute)
			story := d.warden(t, "task", "show", id)
			if tj.Task.Status != "done" || tj.Task.AgentState != "done" {
				t.Fatalf("task %s (agent %s): %s\n%s\nrequests %v\ntool results %q", tj.Task.Status, tj.Task.AgentState, tj.Task.Error, story, api.Requests(), api.ToolResults())
			}
			if !strings.Contains(story, "criteria met") || !strings.Contains(story, ", "+c.harness+")") ||
				!strings.Contains(story, "installed warden's "+c.harness+" hooks") {
				t.Errorf("task show does not tell the %s agent's story:\n%s", c.harness, story)
			}
			if msg := strings.TrimSpace(testenv.Git(t, w.proj, "log", "-1", "--format=%s", "warden/"+id)); msg != "hello" {
				t.Errorf("branch tip %q, want the agent's commit", msg)
			}
			if _, err := os.Stat(filepath.Join(w.home, "keep.txt")); err != nil {
				t.Fatalf("the home did not survive: %v", err)
			}
			if b, err := os.ReadFile(filepath.Join(w.dir, "markers", "rm")); err == nil {
				t.Fatalf("%s ran the rm (the e2e rm shim refused it: %s)", c.harness, b)
			}
			if res := strings.Join(api.ToolResults(), "\n"); !strings.Contains(res, "warden") {
				t.Errorf("the model was not told warden denied the rm; tool results: %q", res)
			}

			// The hook events of the task, recorded with the harness.
			var deny, allow, stop bool
			evs := w.log(t, c.harness)
			for _, e := range evs {
				if e.TaskID != id {
					continue
				}
				switch {
				// One shell call each: the rm, then the commit.
				case e.Event == "PreToolUse" && e.Tool == "Bash" && e.Decision == "deny" && strings.HasPrefix(e.Rule, "core.shell:rm"):
					deny = true
				case e.Event == "PreToolUse" && e.Tool == "Bash" && e.Decision == "allow":
					allow = true
				case e.Event == "Stop":
					stop = true
				}
			}
			if !deny || !allow || !stop {
				t.Errorf("task %s's %s hook events: rm denied %v, commit allowed %v, Stop %v; events:\n%s", id, c.harness, deny, allow, stop, eventLines(evs))
			}
			t.Logf("%s task %s done; agent story:\n%s", c.harness, id, story)
		})
	}
}

// `warden task add --agent` refuses a kind warden does not run, listing
// the kinds, and queues nothing.
func TestTaskAddRefusesUnknownAgent(t *testing.T) {
	c := otherCLIs[0]
	w := newCLIHomeFrom(t, c, testenv.Binaries(t, "warden", "warden-helper"))
	warden := filepath.Join(w.home, ".warden", "bin", "warden")
	out, err := runBin(warden, w.env, w.proj, "task", "add", "--agent", "cursor", "Do it.")
	if err == nil || !strings.Contains(out, "tmux, claude-p, codex, gemini, copilot") {
		t.Fatalf("task add --agent cursor: %v\n%s", err, out)
	}
}

// jsonID is the id in `warden task add --json` output.
func jsonID(t *testing.T, out string) string {
	t.Helper()
	var added struct{ ID string }
	if err := json.Unmarshal([]byte(out), &added); err != nil || added.ID == "" {
		t.Fatalf("task add: %v\n%s", err, out)
	}
	return added.ID
}
