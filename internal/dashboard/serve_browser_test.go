package dashboard_test

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/warden-dev/warden/internal/testenv"
)

// daemon is a real `warden serve` (warden-helper serve) on a loopback port in a
// temp warden home, with a fake `claude` (a script) as its agent.
type daemon struct {
	home, url, token string
}

// startDaemon starts it; env adds to its environment.
func startDaemon(t *testing.T, env ...string) *daemon {
	t.Helper()
	dir := testenv.Binaries(t, "warden", "warden-helper")
	home := t.TempDir()
	fake := filepath.Join(home, "fake-claude")
	// The agent: works for a minute (unless cancelled), answers like `claude -p --output-format json`.
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nsleep 60\necho '{\"type\":\"result\",\"result\":\"done\",\"total_cost_usd\":0.01}'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The headless runner with a fake claude script (agents in tmux have
	// their own tests in internal/agent and e2e).
	cfg := "[serve]\naddr = \"127.0.0.1:0\"\nclaude_command = \"" + fake + "\"\nclaude_args = []\n\n[agent]\nrunner = \"claude-p\"\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(dir, "warden-helper"), "serve")
	cmd.Env = append(os.Environ(), "WARDEN_HOME="+home, "HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, "claude"))
	cmd.Env = append(cmd.Env, env...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	d := &daemon{home: home}
	deadline := time.Now().Add(30 * time.Second)
	for d.url == "" || d.token == "" {
		select {
		case <-done:
			t.Fatalf("warden serve exited:\n%s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("warden serve did not start within 30 s:\n%s", out.String())
		}
		var st struct {
			URL string `json:"url"`
		}
		if b, err := os.ReadFile(filepath.Join(home, "run", "serve.json")); err == nil && json.Unmarshal(b, &st) == nil {
			d.url = st.URL
		}
		if b, err := os.ReadFile(filepath.Join(home, "run", "cli.token")); err == nil {
			d.token = strings.TrimSpace(string(b))
		}
		time.Sleep(50 * time.Millisecond)
	}
	return d
}

// api calls the daemon's REST API with the bearer token.
func (d *daemon) api(t *testing.T, path string, out any) {
	t.Helper()
	req, _ := http.NewRequest("GET", d.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+d.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// TestServeDashboard runs the real daemon: its "/" is the dashboard
// behind its API tokens; a task added in the page is created through the
// API (GET /api/tasks lists it, from the dashboard) and cancelling it in
// the page cancels it there; a hook answered by
// the daemon shows in the live view within a second; the API routes are
// still the API's.
func TestServeDashboard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	d := startDaemon(t)
	b := newBrowser(t, 1280, 860, false)
	b.do(t, chromedp.Navigate(d.url+"/"), chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), "wdn_wrong"), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.ID("login-error")))
	b.do(t, chromedp.SendKeys(chromedp.ID("token"), d.token), chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.CSS(`nav[aria-label="Pages"]`)))

	project := t.TempDir()
	prompt := "dashboard task " + strconv.FormatInt(time.Now().UnixNano(), 36)
	b.open(t, d.url+"/tasks")
	b.do(t,
		chromedp.SendKeys(chromedp.ID("prompt"), prompt),
		chromedp.SendKeys(chromedp.CSS(`#add-task input[name="project"]`), project),
		chromedp.Click(chromedp.CSS(`#add-task button[type="submit"]`)),
	)
	b.waitFor(t, `!!document.querySelector('p.good[role="status"]')`, 10*time.Second)
	var list struct {
		Tasks []struct {
			ID, Prompt, Project, Source, Status string
		} `json:"tasks"`
	}
	d.api(t, "/api/tasks", &list)
	var id string
	for _, tk := range list.Tasks {
		if tk.Prompt == prompt {
			id = tk.ID
			if tk.Project != project || tk.Source != "dashboard" {
				t.Errorf("task through the API: %+v", tk)
			}
		}
	}
	if id == "" {
		t.Fatalf("GET /api/tasks does not list the task added in the page: %+v", list.Tasks)
	}
	if n := eval[int](t, b, `document.querySelectorAll('article[data-task="`+id+`"]').length`); n != 1 {
		t.Errorf("task %s not on the board", id)
	}
	// Cancel it in the page: the API says cancelled, the board moves it.
	if n := eval[int](t, b, `document.querySelectorAll('article[data-task="`+id+`"] button.danger').length`); n != 1 {
		t.Fatalf("no cancel button on task %s: %s", id, eval[string](t, b, `document.querySelector('article[data-task="`+id+`"]').outerHTML`))
	}
	b.do(t, chromedp.Click(chromedp.CSS(`article[data-task="`+id+`"] button.danger`)))
	b.waitFor(t, `location.pathname === "/tasks" && !!document.querySelector('section[data-state="failed"] article[data-task="`+id+`"]') || !!document.querySelector(".problem")`, 10*time.Second)
	if msg := eval[string](t, b, `(document.querySelector(".problem") || {}).textContent || ""`); msg != "" {
		t.Fatalf("cancel in the page: %s", msg)
	}
	var got struct {
		Task struct{ Status string } `json:"task"`
	}
	d.api(t, "/api/tasks/"+id, &got)
	if got.Task.Status != "cancelled" {
		t.Errorf("after cancel in the page the API says %q", got.Task.Status)
	}
	b.open(t, d.url+"/tasks/"+id)
	if n := eval[int](t, b, `document.querySelectorAll("ol.story li").length`); n < 2 {
		t.Errorf("task %s story has %d steps, want queued and cancelled at least", id, n)
	}

	// A hook, answered by the daemon (it holds the keeper's socket).
	b.open(t, d.url+"/live")
	b.waitFor(t, `document.getElementById("status").textContent === "live"`, 5*time.Second)
	sess := "serve-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	hook := exec.Command(testenv.Binary(t, "warden"), "hook", "--harness", "claude")
	hook.Env = append(os.Environ(), "WARDEN_HOME="+d.home, "HOME="+d.home)
	hook.Stdin = strings.NewReader(`{"session_id":"` + sess + `","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"s1","tool_input":{"command":"ls"}}`)
	if out, err := hook.CombinedOutput(); err != nil {
		t.Fatalf("warden hook: %v\n%s", err, out)
	}
	b.waitFor(t, `!!document.querySelector('#events details.ev[data-session="`+sess+`"]')`, time.Second)

	for _, p := range pages {
		if p.name == "explain" || p.name == "task" {
			continue
		}
		b.open(t, d.url+p.path)
	}
	if errs := b.takeErrors(); len(errs) > 0 {
		t.Errorf("browser errors: %q", errs)
	}
	// The API keeps its own answers (JSON 401, not the login page).
	resp, err := http.Get(d.url + "/api/tasks")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Errorf("GET /api/tasks without token: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
