package dashboard_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/dashboard"
	"github.com/warden-dev/warden/internal/dashboard/apitasks"
	"github.com/warden-dev/warden/internal/dashboard/storesource"
	"github.com/warden-dev/warden/internal/orchestrator"
	"github.com/warden-dev/warden/internal/pace"
	"github.com/warden-dev/warden/internal/server"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/testenv"
)

const testToken = "wdn_test_token_0123456789"

// env is a dashboard over a real store file in a temp warden home, served
// on a loopback port by a real http.Server that a test can restart.
type env struct {
	t      testing.TB
	home   string // WARDEN_HOME
	claude string // CLAUDE_CONFIG_DIR
	st     *sqlite.Store
	dash   *dashboard.Server
	addr   string
	srv    *http.Server
	api    *server.Server
	source *storesource.Source
	// project is where tasks added without one run; taskIDs names the
	// seeded tasks by the column they were put in.
	project string
	taskIDs map[string]string
	// now is the dashboard's clock.
	now func() time.Time
	// eventSource is what Options.EventSource says (zero at first: no
	// footer note), as a daemon's store switch would change it.
	eventSource atomic.Value
}

// src is the store source the dashboard reads.
func (e *env) src() *storesource.Source { return e.source }

// Its clock is testenv.Now: the wall clock, or the instant the suite's
// clock check pins.
func newEnv(t testing.TB) *env { t.Helper(); return newEnvAt(t, testenv.Now(), nil) }

// newEnvWith is newEnv with the API's options changed by mods (agent
// control, for instance).
func newEnvWith(t testing.TB, mods ...func(*server.Options)) *env {
	t.Helper()
	return newEnvAt(t, testenv.Now(), nil, mods...)
}

// newEnvAt is newEnv on a clock that starts at now and ticks from there,
// with daily usage in loc (nil: Local): what the pages and the pacing
// charts call now (env.now).
func newEnvAt(t testing.TB, now time.Time, loc *time.Location, mods ...func(*server.Options)) *env {
	t.Helper()
	created := time.Now()
	clock := func() time.Time { return now.Add(time.Since(created)) }
	home, claude := t.TempDir(), t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(home, "warden.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, home: home, claude: claude, st: st, project: t.TempDir(), taskIDs: map[string]string{}, now: clock}
	e.api = newAPI(t, st, mods...)
	// As `warden serve` composes it (internal/daemon/dashboard.go).
	src := storesource.New(st, storesource.Options{WardenHome: home, UserHome: "/home/dev", UsageDirs: []string{claude}, Now: clock, Loc: loc})
	e.source = src
	sources := src.Sources()
	sources.Tasks = apitasks.New(e.api, e.project)
	e.dash, err = dashboard.New(dashboard.Options{
		CheckToken: func(ctx context.Context, tok string) (bool, error) { return e.api.TokenValid(ctx, tok), nil },
		CookieName: server.CookieName,
		Sources:    sources, Version: "test", AttachHint: "warden agent attach {id}", Now: clock,
		EventSource: func() dashboard.EventStoreInfo { s, _ := e.eventSource.Load().(dashboard.EventStoreInfo); return s },
	})
	if err != nil {
		t.Fatal(err)
	}
	e.api.Mount("/", e.dash, true)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.addr = ln.Addr().String()
	e.serve(ln)
	t.Cleanup(func() { e.srv.Close() })
	return e
}

func (e *env) serve(ln net.Listener) {
	e.srv = server.HTTPServer(e.api, slog.New(slog.DiscardHandler))
	go e.srv.Serve(ln)
}

// newAPI is the daemon's API over the store with its real scheduler (not
// started, so tasks stay where the test puts them) and testToken as a
// valid API token.
func newAPI(t testing.TB, st *sqlite.Store, mods ...func(*server.Options)) *server.Server {
	t.Helper()
	ctx := context.Background()
	if err := st.AddToken(ctx, &store.APIToken{ID: "test", Name: "test", Hash: store.HashAPIToken(testToken), Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	ps := pace.DefaultSettings()
	sched, err := orchestrator.New(orchestrator.Options{Store: st, Settings: st,
		Runners: map[string]agent.Runner{agent.HeadlessName: &agent.Headless{Command: "/bin/false"}},
		Quota:   &orchestrator.PaceQuota{Settings: ps, Figures: orchestrator.StoreFigures(st, ps)},
		Owner:   "test:1", System: "test"})
	if err != nil {
		t.Fatal(err)
	}
	opts := server.Options{Tasks: st, Scheduler: sched, Tokens: st, Deliveries: st, Events: st, System: "test", Version: "test"}
	for _, m := range mods {
		m(&opts)
	}
	api, err := server.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// tasks lists the task store's tasks, oldest first.
func (e *env) tasks() []task.Task {
	e.t.Helper()
	ts, err := e.st.Tasks(context.Background(), task.Filter{Limit: 1000})
	if err != nil {
		e.t.Fatal(err)
	}
	slices.Reverse(ts)
	return ts
}

// path fills {running} and the like with the seeded tasks' ids.
func (e *env) path(p string) string {
	for k, id := range e.taskIDs {
		p = strings.ReplaceAll(p, "{"+k+"}", id)
	}
	return p
}

// restart stops the server, dropping every connection (open streams
// too), and serves again on the same port: a daemon restart.
func (e *env) restart(between func()) {
	e.t.Helper()
	e.srv.Close()
	if between != nil {
		between()
	}
	var ln net.Listener
	var err error
	for i := 0; i < 100; i++ {
		if ln, err = net.Listen("tcp", e.addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		e.t.Fatalf("listen again on %s: %v", e.addr, err)
	}
	e.serve(ln)
}

func (e *env) url(path string) string { return "http://" + e.addr + path }

// hook runs the real `warden hook` (front and warden-core, no keeper)
// against the env's store with payload on stdin.
func (e *env) hook(payload string) {
	e.t.Helper()
	bin := testenv.Binary(e.t, "warden")
	cmd := exec.Command(bin, "hook", "--harness", "claude")
	cmd.Env = append(os.Environ(), "WARDEN_HOME="+e.home, "WARDEN_KEEPER=off", "HOME="+e.home,
		"CLAUDE_CONFIG_DIR="+e.claude, "CLAUDE_PROJECT_DIR=")
	cmd.Stdin = strings.NewReader(payload)
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("warden hook: %v\n%s", err, out)
	}
}

// chromium finds Debian's chromium; without it the test skips, or fails
// under CI=true.
func chromium(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if testenv.InCI() {
		t.Fatal("chromium is required (apt-get install chromium; scripts/test-deps.sh installs it)")
	}
	t.Skip("chromium not installed")
	return ""
}

// browser is a headless Chromium tab that records console errors,
// uncaught exceptions and browser log errors (CSP violations, 404s).
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func newBrowser(t testing.TB, width, height int64, mobile bool) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(int(width), int(height)),
	}
	b := &browser{}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithListener(b.record))
	t.Cleanup(func() { cancelC(); cancelA() })
	b.ctx = ctx
	vp := chromedp.EmulateViewport(width, height)
	if mobile {
		vp = chromedp.EmulateViewport(width, height, chromedp.EmulateMobile, chromedp.EmulateScale(1))
	}
	if err := chromedp.Do(ctx, vp); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return b
}

// record keeps the errors the page reports; it runs on chromedp's reader
// goroutine, so it only appends.
func (b *browser) record(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			parts = append(parts, string(a.Value)+a.Description)
		}
		msg = "console: " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		msg = "exception: " + ev.ExceptionDetails.Text
		if ev.ExceptionDetails.Exception != nil {
			msg += " " + ev.ExceptionDetails.Exception.Description
		}
	case *log.EventEntryAdded:
		if ev.Entry.Level != log.EntryLevelError {
			return
		}
		msg = fmt.Sprintf("log: %s %s", ev.Entry.Text, ev.Entry.URL)
	default:
		return
	}
	b.mu.Lock()
	b.errors = append(b.errors, msg)
	b.mu.Unlock()
}

func (b *browser) do(t testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) and
// decodes its value.
func eval[T any](t testing.TB, b *browser, js string) T {
	t.Helper()
	v, err := tryEval[T](b, js)
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func tryEval[T any](b *browser, js string) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

// navigating: the evaluation met the page navigating away (a reload the
// test waits for); Chrome reports it as an error of the evaluation.
func navigating(err error) bool {
	return err != nil && strings.Contains(err.Error(), "navigated or closed")
}

// takeErrors returns and clears the recorded errors.
func (b *browser) takeErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.errors
	b.errors = nil
	return out
}

// open navigates and waits for the page's heading.
func (b *browser) open(t testing.TB, url string) {
	t.Helper()
	b.do(t, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("main h1")))
}

// login logs the browser in through the form.
func (b *browser) login(t testing.TB, e *env) {
	t.Helper()
	b.do(t,
		chromedp.Navigate(e.url("/login")),
		chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), testToken),
		chromedp.Submit(chromedp.ID("token")),
		chromedp.WaitVisible(chromedp.CSS(`nav[aria-label="Pages"]`)),
	)
}

// waitFor polls a JavaScript condition until it is true or within has
// passed; it returns how long it took.
func (b *browser) waitFor(t testing.TB, js string, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	// A document that has no body yet is still loading after a
	// navigation: not yet true, rather than the condition's TypeError.
	guarded := `(() => { try { return !!(` + js + `) } catch (e) { if (!document.body) return false; throw e } })()`
	for {
		ok, err := tryEval[bool](b, guarded)
		if err != nil && !navigating(err) {
			t.Fatalf("evaluate %s: %v", js, err)
		}
		if ok {
			return time.Since(start)
		}
		if time.Since(start) > within {
			t.Fatalf("not true within %s: %s", within, js)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
