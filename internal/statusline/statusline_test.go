package statusline

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-dev/warden/internal/lifecycle"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/testenv"
)

func TestRender(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"model and integer percent", `{"model":{"id":"claude-opus-4","display_name":"Opus"},"context_window":{"used_percentage":8}}`, "[Opus] ctx 8%"},
		{"fraction", `{"model":{"display_name":"Sonnet"},"context_window":{"used_percentage":0.74}}`, "[Sonnet] ctx 74%"},
		{"null early", `{"model":{"display_name":"Opus"},"context_window":{"used_percentage":null}}`, "[Opus]"},
		{"id when no display name", `{"model":{"id":"claude-x"}}`, "[claude-x]"},
		{"over 100 capped", `{"context_window":{"used_percentage":140}}`, "ctx 100%"},
		{"cost", `{"model":{"display_name":"Opus"},"cost":{"total_cost_usd":1.234}}`, "[Opus] $1.23"},
		{"wrong types lose only themselves", `{"model":"Opus","context_window":{"used_percentage":"12"},"cost":"x"}`, "[Opus] ctx 12%"},
		{"control chars stripped", `{"model":{"display_name":"Op\u001b[31mus"}}`, "[Op[31mus]"},
		{"garbage", `not json`, "warden"},
		{"empty", ``, "warden"},
		{"array", `[1,2]`, "warden"},
		{"null", `null`, "warden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Render([]byte(tt.in)); got != tt.want {
				t.Errorf("Render = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWrapRunsOldCommandFirst(t *testing.T) {
	var out bytes.Buffer
	Run(strings.NewReader(`{"model":{"display_name":"Opus"}}`), &out, Options{Wrap: `cat >/dev/null; printf 'old line\n'`})
	if got := out.String(); got != "old line │ [Opus]\n" {
		t.Errorf("got %q", got)
	}
}

func TestWrapFailureStillRenders(t *testing.T) {
	var out bytes.Buffer
	Run(strings.NewReader(`{"model":{"display_name":"Opus"}}`), &out, Options{Wrap: "exit 3"})
	if got := out.String(); got != "[Opus]\n" {
		t.Errorf("got %q", got)
	}
	out.Reset()
	Run(strings.NewReader(`{}`), &out, Options{Wrap: "sleep 5", WrapTimeout: 100e6})
	if got := out.String(); got != "warden\n" {
		t.Errorf("timed-out wrap: got %q", got)
	}
}

func TestFullLineColumnsAndColour(t *testing.T) {
	in := `{"model":{"display_name":"Opus"},"context_window":{"used_percentage":42},"cost":{"total_cost_usd":0.5}}`
	branch := func(string) string { return "feature/long-branch-name" }
	badges := []func(*Env) Segment{func(*Env) Segment { return Segment{Text: "SAFE", Color: "31"} },
		func(*Env) Segment { panic("a broken badge loses only itself") }}
	pacing := func(e *Env) Segment {
		if len(e.Raw) == 0 {
			t.Error("pacing gets the raw payload")
		}
		return Segment{Text: "pace +3%"}
	}

	var out bytes.Buffer
	Run(strings.NewReader(in), &out, Options{Branch: branch, Threshold: func(string) int { return 70 }, Badges: badges, Pacing: pacing})
	if got := out.String(); got != "[Opus] ctx 42% $0.50 ⎇ feature/long-branch-name SAFE pace +3%\n" {
		t.Errorf("one line: %q", got)
	}
	out.Reset()
	Run(strings.NewReader(in), &out, Options{Branch: branch, Columns: 30})
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 2 || lines[0] != "[Opus] ctx 42% $0.50" {
		t.Fatalf("two lines: %q", out.String())
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 30 {
			t.Errorf("line wider than COLUMNS (%d): %q", n, l)
		}
	}
	out.Reset()
	Run(strings.NewReader(in), &out, Options{Color: true})
	if !strings.Contains(out.String(), "\x1b[36m[Opus]\x1b[0m") {
		t.Errorf("colour: %q", out.String())
	}
	out.Reset()
	Run(strings.NewReader(in), &out, Options{})
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("colour without a capable terminal: %q", out.String())
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if ColorFromEnv(env(nil)) || ColorFromEnv(env(map[string]string{"TERM": "dumb"})) ||
		ColorFromEnv(env(map[string]string{"TERM": "xterm", "NO_COLOR": "1"})) || !ColorFromEnv(env(map[string]string{"TERM": "xterm-256color"})) {
		t.Error("ColorFromEnv")
	}
	if ColumnsFromEnv(env(map[string]string{"COLUMNS": "80"})) != 80 || ColumnsFromEnv(env(map[string]string{"COLUMNS": "x"})) != 0 {
		t.Error("ColumnsFromEnv")
	}
}

// liveEnv points WARDEN_HOME at a temp store and counts the spawns of
// renders made with Live(opts).
func liveEnv(t testing.TB) (spawned func() [][]string, opts Options) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("WARDEN_HOME", home)
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	opts.StoreBudget = time.Minute // what a render writes is the point, not how fast on a loaded machine
	var mu sync.Mutex
	var calls [][]string
	opts.Spawn = func(_ *reqenv.Env, args []string) error {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, args)
		return nil
	}
	return func() [][]string {
		mu.Lock()
		defer mu.Unlock()
		return append([][]string(nil), calls...)
	}, opts
}

func render(t *testing.T, opts Options, payload string) string {
	t.Helper()
	var out bytes.Buffer
	Run(strings.NewReader(payload), &out, Live(opts))
	return out.String()
}

func TestThresholdFiresOncePerSession(t *testing.T) {
	spawned, opts := liveEnv(t)
	t.Setenv("WARDEN_COLOR", "0")
	proj := t.TempDir()
	p := func(sess string, pct string) string {
		return `{"session_id":"` + sess + `","transcript_path":"/tmp/t.jsonl","cwd":"` + proj +
			`","model":{"display_name":"Opus"},"context_window":{"used_percentage":` + pct + `}}`
	}
	if got := render(t, opts, p("s1", "50")); !strings.Contains(got, "ctx 50%") || len(spawned()) != 0 {
		t.Fatalf("below threshold: %q %v", got, spawned())
	}
	if got := render(t, opts, p("s1", "0.74")); !strings.Contains(got, "⚠ CTX 74%") {
		t.Errorf("no warning: %q", got)
	}
	if got := render(t, opts, p("s1", "81")); !strings.Contains(got, "⚠ CTX 81%") {
		t.Errorf("no warning on the second render: %q", got)
	}
	if got := render(t, opts, p("s1", "60")); !strings.Contains(got, "⚠ CTX 60%") {
		t.Errorf("the warning stays on for the session once fired: %q", got)
	}
	calls := spawned()
	if len(calls) != 1 {
		t.Fatalf("two renders above the threshold spawned %d handoffs", len(calls))
	}
	want := []string{"handoff", "auto", "--session", "s1", "--project", proj, "--percent", "74", "--transcript", "/tmp/t.jsonl"}
	if strings.Join(calls[0], " ") != strings.Join(want, " ") {
		t.Errorf("spawn args %q", calls[0])
	}
	render(t, opts, p("s2", "90"))
	if len(spawned()) != 2 {
		t.Errorf("a new session must fire again: %v", spawned())
	}
	// SessionStart (after a compaction) clears the mark: s1 fires again.
	st, err := sqlite.Open(context.Background(), filepath.Join(os.Getenv("WARDEN_HOME"), "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	lifecycle.ClearThreshold(context.Background(), st, "s1")
	st.Close()
	render(t, opts, p("s1", "75"))
	render(t, opts, p("s1", "76"))
	if len(spawned()) != 3 {
		t.Errorf("after SessionStart cleared the mark: %d spawns, want 3", len(spawned()))
	}
	// The project's config sets the threshold.
	os.MkdirAll(filepath.Join(proj, ".warden"), 0o755)
	os.WriteFile(filepath.Join(proj, ".warden", "config.toml"), []byte("[context]\nthreshold = 95\n"), 0o644)
	if got := render(t, opts, p("s3", "90")); !strings.Contains(got, "ctx 90%") || len(spawned()) != 3 {
		t.Errorf("project threshold 95: %q", got)
	}
}

func TestConcurrentRendersSpawnOnce(t *testing.T) {
	spawned, opts := liveEnv(t)
	proj := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			render(t, opts, `{"session_id":"race","cwd":"`+proj+`","context_window":{"used_percentage":88}}`)
		}()
	}
	wg.Wait()
	if n := len(spawned()); n != 1 {
		t.Errorf("%d spawns", n)
	}
}

// TestMain doubles as `warden statusline` for the process tests: with
// WARDEN_STATUSLINE_MAIN=1 the test binary renders stdin and exits. It
// is also the `warden handoff auto …` a render crossing the threshold
// starts detached (internal/detach runs this binary): that one exits at
// once — run as a test process it made a home of its own and ran the
// go command there after its parent's home was gone, leaving a folder of
// go's counters in the temp directory.
func TestMain(m *testing.M) {
	if os.Getenv("WARDEN_STATUSLINE_MAIN") == "1" {
		Run(os.Stdin, os.Stdout, Live(Options{}))
		os.Exit(0)
	}
	if len(os.Args) > 2 && os.Args[1] == "handoff" && os.Args[2] == "auto" {
		os.Exit(0)
	}
	testenv.Main(m)
}

// runProcess runs the render as its own process and checks the contract:
// exit 0, nothing on stderr.
func runProcess(t testing.TB, input []byte, env ...string) (string, time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), append([]string{"WARDEN_STATUSLINE_MAIN=1"}, env...)...)
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	el := time.Since(start)
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("input %q: err %v, stderr %q", input, err, stderr.String())
	}
	return stdout.String(), el
}

func TestProcessNeverFails(t *testing.T) {
	home := t.TempDir()
	inputs := append([]string{`{`, `{"context_window":{"used_percentage":"NaN"}}`,
		`{"session_id":"p","cwd":"/nonexistent/dir","context_window":{"used_percentage":99}}`,
		`{"model":{"display_name":` + strings.Repeat(`[`, 100000) + `}}`}, fuzzSeeds...)
	for _, in := range inputs {
		out, _ := runProcess(t, []byte(in), "WARDEN_HOME="+filepath.Join(home, "missing", "home"))
		if strings.TrimSpace(out) == "" {
			t.Errorf("%q: empty output", in)
		}
	}
}

func TestHandoffAutoEndToEndInProcess(t *testing.T) {
	// What the spawned `warden handoff auto` does with the render's args.
	// The handoff lands in the project's handoff directory under the
	// render's time, says which session and how full the context was, and
	// is what the next SessionStart takes, exactly once.
	proj := t.TempDir()
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	p, err := lifecycle.WriteSessionHandoff(context.Background(), lifecycle.SessionHandoff{Project: proj, SessionID: "s", Percent: 74, Now: now})
	if err != nil {
		t.Fatal(p, err)
	}
	if filepath.Dir(p) != lifecycle.HandoffDir(proj) || !strings.HasPrefix(filepath.Base(p), "handoff-") || !strings.HasSuffix(p, ".md") {
		t.Errorf("handoff at %s, want handoff-*.md in %s", p, lifecycle.HandoffDir(proj))
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Session handoff", "- Session: s", "- Written: 2026-03-04T05:06:07Z", "- Context used: 74%", "## Goal"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("handoff lacks %q:\n%s", want, data)
		}
	}
	r, content, ok := lifecycle.TakeResume(proj)
	if !ok || r.Path != p || r.SessionID != "s" || content == "" || !strings.Contains(content, "- Context used: 74%") {
		t.Errorf("TakeResume = %+v, %q, %v; want the handoff just written", r, content, ok)
	}
	if _, _, again := lifecycle.TakeResume(proj); again {
		t.Error("the resume was taken twice")
	}
}
