package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/testenv"
)

// The other agent CLIs, pinned like Claude Code and installed into the
// same cache (testenv.PinnedTools; make test-deps installs them).
var (
	codexCLI   = testenv.CodexCLI
	geminiCLI  = testenv.GeminiCLI
	copilotCLI = testenv.CopilotCLI
)

// copilotCache is where Copilot's executable unpacks its package on first
// run ($XDG_CACHE_HOME/copilot): shared by every test home.
func copilotCache() string { return testenv.CopilotCache() }

// otherCLI is how a test drives one CLI headless against fakeModels.
type otherCLI struct {
	harness string
	tool    *testenv.NPMTool
	// prepare writes the CLI's own settings a user would have, before
	// warden's install merges into them.
	prepare func(t *testing.T, home string)
	// command is the headless run of prompt; env is added to the test's.
	command func(bin, apiURL, prompt string) (args, env []string)
}

var otherCLIs = []otherCLI{
	{
		harness: "codex", tool: &codexCLI,
		command: func(bin, url, prompt string) ([]string, []string) {
			// danger-full-access: no Codex sandbox, so warden alone stands
			// between the model and the home. No hook-trust bypass: the
			// hook runs because install trusted it.
			return []string{"exec", "--skip-git-repo-check", "-s", "danger-full-access", "-m", "gpt-5.4",
					"-c", "model_provider=fake",
					"-c", `model_providers.fake={name="fake",base_url="` + url + `/v1",env_key="FAKE_API_KEY",wire_api="responses"}`,
					prompt},
				[]string{"FAKE_API_KEY=dummy"}
		},
	},
	{
		harness: "gemini", tool: &geminiCLI,
		prepare: func(t *testing.T, home string) {
			writeTestFile(t, filepath.Join(home, ".gemini", "settings.json"), `{
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "general": { "disableAutoUpdate": true },
  "security": { "folderTrust": { "enabled": false }, "auth": { "selectedType": "gemini-api-key" } }
}
`)
		},
		command: func(bin, url, prompt string) ([]string, []string) {
			// A pinned model: the default auto model first asks a router.
			// --yolo offers the shell tool in a headless run at all.
			return []string{"-m", "gemini-3.1-pro-preview", "-p", prompt, "--yolo"},
				[]string{"GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL=" + url}
		},
	},
	{
		harness: "copilot", tool: &copilotCLI,
		command: func(bin, url, prompt string) ([]string, []string) {
			return []string{"--no-auto-update", "-p", prompt, "--allow-all-tools"},
				[]string{"COPILOT_AUTO_UPDATE=false", "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + url + "/v1",
					"COPILOT_PROVIDER_API_KEY=dummy", "COPILOT_MODEL=gpt-5.4", "XDG_CACHE_HOME=" + copilotCache()}
		},
	},
}

// For each real CLI, offline against the scripted model, in a fresh home
// after `warden install --harness NAME` and with no trust-bypass flag: the
// model's `rm -rf ~` is denied (the model is told why) and the home
// survives; `echo hi > f` runs; both are in warden's log with the harness.
func TestOtherCLIsGovernedAfterInstall(t *testing.T) {
	for _, c := range otherCLIs {
		t.Run(c.harness, func(t *testing.T) {
			bin := c.tool.Require(t)
			w := newCLIHome(t, c)

			denied := w.run(t, c, bin, "rm -rf ~")
			if _, err := os.Stat(filepath.Join(w.home, "keep.txt")); err != nil {
				t.Fatalf("the home did not survive: %v", err)
			}
			if b, err := os.ReadFile(filepath.Join(w.dir, "markers", "rm")); err == nil {
				t.Fatalf("%s ran the rm (the e2e rm shim refused it: %s)", c.harness, b)
			}
			if res := strings.Join(denied.ToolResults(), "\n"); !strings.Contains(res, "warden") {
				t.Errorf("the model was not told warden denied it; tool results: %q", res)
			}

			ran := w.run(t, c, bin, "echo hi > f")
			if b, err := os.ReadFile(filepath.Join(w.proj, "f")); err != nil || strings.TrimSpace(string(b)) != "hi" {
				t.Errorf("the benign command did not run (f: %q, %v); tool results %q", b, err, ran.ToolResults())
			}

			evs := w.log(t, c.harness)
			var deny, allow bool
			for _, e := range evs {
				if e.Event != "PreToolUse" || e.Tool != "Bash" {
					continue
				}
				if e.Harness != c.harness {
					t.Errorf("recorded with harness %q: %+v", e.Harness, e)
				}
				// One shell call per run: the rm, then the echo.
				deny = deny || (e.Decision == "deny" && e.Rule != "")
				allow = allow || e.Decision == "allow"
			}
			if !deny || !allow {
				t.Errorf("warden log --harness %s: deny of rm %v, allow of echo %v; events:\n%s", c.harness, deny, allow, eventLines(evs))
			}
		})
	}
}

// cliHome is one test's home: warden installed for one CLI, a project
// (a git repository) inside it, and the e2e rm shim first on PATH.
type cliHome struct {
	dir, home, proj string
	env             []string
}

func newCLIHome(t *testing.T, c otherCLI) *cliHome {
	t.Helper()
	return newCLIHomeFrom(t, c, testenv.Binaries(t, "warden"))
}

// newCLIHomeFrom installs warden from the binaries in bins (warden serve
// needs warden-helper beside them).
func newCLIHomeFrom(t *testing.T, c otherCLI, bins string) *cliHome {
	t.Helper()
	dir := t.TempDir()
	w := &cliHome{dir: dir, home: filepath.Join(dir, "home")}
	w.proj = filepath.Join(w.home, "proj")
	for _, d := range []string{w.proj, filepath.Join(dir, "shim"), filepath.Join(dir, "markers"), filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeTestFile(t, filepath.Join(w.home, "keep.txt"), "the home survives\n")
	testenv.Git(t, w.proj, "init", "-q")
	w.env = []string{
		"PATH=" + writeRmShim(t, dir, w.home),
		"HOME=" + w.home,
		"TERM=dumb", "NO_COLOR=1", "LANG=C.UTF-8",
		"TMPDIR=" + filepath.Join(dir, "tmp"),
		"WARDEN_HOME=" + filepath.Join(w.home, ".warden"),
		// Hooks run in their own process: no keeper left behind.
		"WARDEN_KEEPER=off",
	}
	if c.prepare != nil {
		c.prepare(t, w.home)
	}
	warden := filepath.Join(bins, "warden")
	out, err := runBin(warden, w.env, w.proj, "install", "--harness", c.harness, "--yes")
	if err != nil {
		t.Fatalf("warden install --harness %s: %v\n%s", c.harness, err, out)
	}
	return w
}

// run has the CLI's model ask for command once, and returns the API.
func (w *cliHome) run(t *testing.T, c otherCLI, bin, command string) *fakeModels {
	t.Helper()
	return w.runAPI(t, c, bin, &fakeModels{Command: command, FinalText: "All done."})
}

// runAPI runs the CLI headless against api (served here).
func (w *cliHome) runAPI(t *testing.T, c otherCLI, bin string, api *fakeModels) *fakeModels {
	t.Helper()
	api.srv = httptest.NewServer(api)
	t.Cleanup(api.Close)
	args, extra := c.command(bin, api.URL(), "Run the command the task needs.")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = w.proj
	cmd.Env = append(append([]string{}, w.env...), extra...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil || len(api.ToolResults()) == 0 {
		t.Fatalf("%s (%q): %v; requests %v; output:\n%s", c.harness, api.Command, err, api.Requests(), testenv.Tail(out, 4000))
	}
	return api
}

// log is `warden log --harness h --json`.
func (w *cliHome) log(t *testing.T, h string) []store.Event {
	t.Helper()
	warden := filepath.Join(w.home, ".warden", "bin", "warden")
	out, err := runBin(warden, w.env, w.proj, "log", "--harness", h, "--json", "-n", "0")
	if err != nil {
		t.Fatalf("warden log: %v\n%s", err, out)
	}
	var evs []store.Event
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e store.Event
		if json.Unmarshal([]byte(line), &e) == nil {
			evs = append(evs, e)
		}
	}
	return evs
}

func eventLines(evs []store.Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%s %s %s %s %q %s %s\n", e.Harness, e.Event, e.Tool, e.Decision, e.Detail, e.Rule, e.Error)
	}
	return b.String()
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
