package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/testenv"
)

// `warden serve --demo` as a newcomer runs it: a home with nothing of
// warden's or Claude Code's, claude on PATH (the pinned release), no
// subscription. One task goes queued → working → done with real Claude
// Code in tmux against the built-in scripted model, the diff shows the
// committed file, and the throwaway directory is gone afterwards.
func TestServeDemoRunsOneTaskEndToEnd(t *testing.T) {
	if skipAll != "" {
		t.Skip(skipAll)
	}
	claude := requireClaude(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		if testenv.InCI() {
			t.Fatal("tmux is required (scripts/test-deps.sh installs it)")
		}
		t.Skip("tmux not installed")
	}
	bin := testenv.Binaries(t, "warden", "warden-core", "warden-helper")
	dir := t.TempDir()
	home, pathDir, tmp := filepath.Join(dir, "home"), filepath.Join(dir, "bin"), filepath.Join(dir, "tmp")
	for _, d := range []string{home, pathDir, tmp} {
		os.MkdirAll(d, 0o755)
	}
	if err := os.Symlink(claude, filepath.Join(pathDir, "claude")); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "PATH=" + pathDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"TERM=xterm-256color", "LANG=C.UTF-8", "TMPDIR=" + tmp}
	if os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "warden"), "serve", "--demo")
	cmd.Dir, cmd.Env = home, env
	start := time.Now()
	b, err := cmd.CombinedOutput()
	took := time.Since(start)
	out := string(b)
	t.Logf("warden serve --demo took %v:\n%s", took.Round(100*time.Millisecond), out)
	if err != nil {
		t.Fatalf("warden serve --demo: %v", err)
	}
	// The story in order.
	at := 0
	for _, want := range []string{"queued", "working", "done: branch warden/", "warden task diff", "Add hello.txt", "+Hello from the warden demo!"} {
		i := strings.Index(out[at:], want)
		if i < 0 {
			t.Errorf("output lacks %q after %q", want, out[:at])
			continue
		}
		at += i + len(want)
	}
	m := regexp.MustCompile(`throwaway project in (\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatal("the demo does not say where it ran")
	}
	if _, err := os.Stat(filepath.Dir(m[1])); !os.IsNotExist(err) {
		t.Errorf("the demo's directory %s is still there: %v", filepath.Dir(m[1]), err)
	}
	// Nothing of the demo in the user's home.
	if _, err := os.Stat(filepath.Join(home, ".warden")); !os.IsNotExist(err) {
		t.Errorf("the demo wrote the user's ~/.warden: %v", err)
	}
}

// Without Claude Code the demo says how to install it, and leaves nothing.
func TestServeDemoWithoutClaudeSaysHowToInstall(t *testing.T) {
	if skipAll != "" {
		t.Skip(skipAll)
	}
	bin := testenv.Binaries(t, "warden", "warden-core", "warden-helper")
	dir := t.TempDir()
	cmd := exec.Command(filepath.Join(bin, "warden"), "serve", "--demo")
	cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "TMPDIR=" + dir}
	b, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(b), "Claude Code") || !strings.Contains(string(b), "install") {
		t.Errorf("without claude: %v\n%s", err, b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}
