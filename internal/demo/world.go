package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/fakeapi"
)

// world is the demo's throwaway machine.
type world struct {
	dir, home, wardenHome, project string
	bin                            string // the installed warden
	claude, claudeVersion          string
	tmuxSocket                     string
	env                            []string
	api                            *fakeapi.Server
}

func newWorld(ctx context.Context, o Options) (*world, error) {
	claude, err := findClaude(o.Claude)
	if err != nil {
		return nil, err
	}
	for _, need := range []struct{ bin, hint string }{
		{"git", "install git (apt install git, brew install git)"},
		{"tmux", "install tmux (apt install tmux, brew install tmux)"},
	} {
		if _, err := exec.LookPath(need.bin); err != nil {
			return nil, fmt.Errorf("the demo runs its agent with %s, which is not installed: %s", need.bin, need.hint)
		}
	}
	dir, err := os.MkdirTemp("", "warden-demo-")
	if err != nil {
		return nil, err
	}
	w := &world{dir: dir, home: filepath.Join(dir, "home"), project: filepath.Join(dir, "hello-project"), claude: claude}
	w.wardenHome = filepath.Join(w.home, ".warden")
	w.tmuxSocket = filepath.Join(dir, "tmux.sock")
	ok := false
	defer func() {
		if !ok {
			w.close(o.Keep)
		}
	}()
	for _, d := range []string{w.wardenHome, w.project, filepath.Join(w.home, ".claude")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	ver, err := exec.CommandContext(ctx, claude, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %v", claude, err)
	}
	w.claudeVersion = strings.Fields(string(ver) + " ?")[0]
	if err := w.writeFiles(); err != nil {
		return nil, err
	}
	if err := w.gitProject(ctx); err != nil {
		return nil, err
	}
	if w.api, err = fakeapi.Listen(Script(), nil); err != nil {
		return nil, fmt.Errorf("the scripted model: %w", err)
	}
	w.env = w.environ()
	// warden installed into the demo's home by its own installer: the
	// agent's Claude Code runs its hooks from there.
	install := exec.CommandContext(ctx, o.Bin, "install", "--scope", "user", "--yes")
	install.Dir, install.Env = w.project, w.env
	if b, err := install.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("warden install into the demo's home: %v\n%s", err, b)
	}
	w.bin = filepath.Join(w.wardenHome, "bin", "warden")
	if _, err := os.Stat(w.bin); err != nil {
		w.bin = o.Bin
	}
	ok = true
	return w, nil
}

// writeFiles writes warden's config and Claude Code's: its first-run
// dialogs (onboarding, the API key) answered as a user who used it before
// would have; folder trust is pre-accepted by warden for the worktree.
func (w *world) writeFiles() error {
	cfg := fmt.Sprintf(`# warden serve --demo: a throwaway config
[tempo]
enabled = false # the completion judge would need a real model

[serve]
addr = "127.0.0.1:0"

[agent]
runner = "tmux"
mode = "interactive"
claude = %q
tmux_socket = %q
criteria = ["committed", "clean"]
idle_timeout = 300
`, w.claude, w.tmuxSocket)
	if err := os.WriteFile(filepath.Join(w.wardenHome, "config.toml"), []byte(cfg), 0o600); err != nil {
		return err
	}
	cj, _ := json.Marshal(map[string]any{
		"hasCompletedOnboarding": true, "lastOnboardingVersion": w.claudeVersion, "theme": "dark",
		"customApiKeyResponses": map[string]any{"approved": []string{demoKey[len(demoKey)-20:]}, "rejected": []string{}},
	})
	if err := os.WriteFile(filepath.Join(w.home, ".claude.json"), cj, 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(w.home, ".gitconfig"), []byte("[user]\n\tname = warden demo\n\temail = demo@warden.invalid\n[init]\n\tdefaultBranch = main\n"), 0o600)
}

func (w *world) gitProject(ctx context.Context) error {
	if err := os.WriteFile(filepath.Join(w.project, "README.md"), []byte("# hello-project\n\nwarden's demo project.\n"), 0o644); err != nil {
		return err
	}
	env := append(os.Environ(), "HOME="+w.home, "GIT_CONFIG_NOSYSTEM=1")
	for _, args := range [][]string{{"init", "-q"}, {"add", "README.md"}, {"commit", "-q", "-m", "Start the demo project"}} {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir, cmd.Env = w.project, env
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, b)
		}
	}
	return nil
}

// environ is the demo's environment: the user's PATH and terminal, and
// nothing of their warden, Claude Code or Anthropic settings.
func (w *world) environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "WARDEN_"), strings.HasPrefix(k, "CLAUDE_"), strings.HasPrefix(k, "ANTHROPIC_"),
			strings.HasPrefix(k, "GIT_"), k == "HOME", k == "TMUX", k == "TMUX_PANE", k == "XDG_CONFIG_HOME", k == "XDG_DATA_HOME", k == "XDG_STATE_HOME", k == "XDG_CACHE_HOME":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+w.home, "WARDEN_HOME="+w.wardenHome,
		"ANTHROPIC_BASE_URL="+w.api.URL(), "ANTHROPIC_API_KEY="+demoKey,
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_BUG_COMMAND=1")
	if os.Getenv("TERM") == "" {
		env = append(env, "TERM=xterm-256color")
	}
	return env
}

// warden runs the demo's warden with args; stdout, or the output with
// the error.
func (w *world) warden(ctx context.Context, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.bin, args...)
	cmd.Dir, cmd.Env = w.project, w.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return append(b, stderr.Bytes()...), err
	}
	return b, nil
}

// close stops the scripted model and the demo's tmux server, and removes
// the directory unless kept.
func (w *world) close(keep bool) {
	if w.api != nil {
		w.api.Close()
	}
	kill := exec.Command("tmux", "-S", w.tmuxSocket, "kill-server")
	_ = kill.Run()
	if !keep {
		_ = os.RemoveAll(w.dir)
	}
}

// lockedBuffer is the daemon's log, written by its process and read here.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
