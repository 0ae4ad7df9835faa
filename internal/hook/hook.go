// Package hook is the hot path: `warden hook` reads one Claude Code hook
// payload, runs the handlers for its event, writes the output Claude Code
// expects and records the event.
//
// It fails open: malformed input, an unusable store, a broken config, a
// panicking handler or a blown deadline all end in exit 0 with one line on
// stderr and (where the store works) a record of what went wrong. It never
// imports the daemon, web, MCP or orchestrator code (a test checks), so a
// hook process pays only for what it uses.
package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/detach"
	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/handlers"
	"github.com/warden-dev/warden/internal/harness"
	"github.com/warden-dev/warden/internal/hookio"
	"github.com/warden-dev/warden/internal/hookwire"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/pipeline"
	"github.com/warden-dev/warden/internal/redact"
	"github.com/warden-dev/warden/internal/reqenv"
	"github.com/warden-dev/warden/internal/session"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/usercmd"
)

// recordReserve is kept back from the event's budget for writing the record
// after the handlers are done.
const recordReserve = 400 * time.Millisecond

// Main runs one hook in this process and returns the exit code (0, or 2
// for a block).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return invoke(context.Background(), &invocation{
		args: args, env: reqenv.Process(), stdin: stdin, stdout: stdout, stderr: stderr,
		spawnKeeper: SpawnKeeper, signals: true,
	})
}

// Request is one hook a resident server (internal/hookserve) runs for a
// caller: everything about the caller is in it, nothing in the process.
type Request struct {
	// Args are the arguments after `hook` ([EVENT] --harness claude).
	Args []string
	// Env is the caller's environment and working directory.
	Env *reqenv.Env
	// Stdin, Stdout and Stderr are the caller's. Stdin should carry a read
	// deadline of its own where it can (a pipe); the runtime bounds the
	// read with hook.read_timeout_ms either way.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Store is the server's open store, shared and never closed here.
	Store store.Local
	// Handlers run for the event (nil: internal/handlers.All()).
	Handlers []pipeline.Handler
	// Answer, when set, gets the exit code as soon as it is final: after
	// the output is written, before the event is recorded (unless a
	// pacing sleep lies ahead, which is part of the hook's time). From
	// then on Run writes nothing to Stdin, Stdout or Stderr, so the
	// caller may close them: Claude Code waits for the hook's process
	// and its pipes, and need not wait for the record too. The record
	// still runs before Run returns, and the next hook of the session
	// waits for it (the session lock is held until the row is stored).
	Answer func(code int)
	// Late gets what the record has to say once Answer was called (the
	// caller's Stderr may be closed by then): a server's log. Nil:
	// discarded.
	Late io.Writer
}

// Run runs one hook for a caller of a resident server and returns its exit
// code. ctx ends when the caller is gone (its process was signalled) or
// the server stops hard: handlers and a pacing sleep end then, and the
// event is still recorded. Run never touches the process environment,
// working directory or signal handlers, so hooks run concurrently; the
// hooks of one session are ordered by the session lock.
func Run(ctx context.Context, req Request) int {
	env := req.Env
	if env == nil {
		env = reqenv.Process()
	}
	return invoke(ctx, &invocation{
		args: req.Args, env: env, stdin: req.Stdin, stdout: req.Stdout, stderr: req.Stderr, store: req.Store,
		handlers: req.Handlers, answer: req.Answer, late: req.Late,
	})
}

// invocation is one hook run: in its own process (Main) or for a caller
// of a resident server (Run), which shares its open store.
type invocation struct {
	args           []string
	env            *reqenv.Env
	stdin          io.Reader
	stdout, stderr io.Writer
	store          store.Local // open and shared; nil: open one, close it after
	spawnKeeper    bool
	signals        bool               // this process is the hook's: SIGTERM/SIGINT end a pacing sleep
	handlers       []pipeline.Handler // nil: handlers.All()
	answer         func(code int)     // Request.Answer
	late           io.Writer          // Request.Late
}

func invoke(ctx context.Context, inv *invocation) (code int) {
	start := time.Now()
	stderr := inv.stderr
	r := &run{start: start, stderr: stderr, unlock: func() {}, env: inv.env, paths: paths.Of(inv.env.Getenv),
		shared: inv.store, base: ctx, signals: inv.signals, handlers: inv.handlers}
	if r.handlers == nil {
		r.handlers = handlers.All()
	}
	defer func() { r.unlock() }()
	defer func() {
		if p := recover(); p != nil { // fail open, whatever happened
			fmt.Fprintf(stderr, "warden: internal error, allowing: %v\n", p)
			code = 0
		}
	}()
	if err := r.parseArgs(inv.args); err != nil {
		fmt.Fprintf(stderr, "warden hook: %v; allowing\n", err)
		return 0
	}
	out := r.execute(inv.stdin)
	if len(out.Stdout) > 0 {
		inv.stdout.Write(out.Stdout)
	}
	if out.Stderr != "" {
		fmt.Fprintln(stderr, out.Stderr)
	}
	if inv.answer != nil && r.decision.Sleep <= 0 {
		inv.answer(out.Exit)
		// The caller's streams are its own again (they may be closed
		// now): what the record says goes to the server's log.
		r.stderr = inv.late
		if r.stderr == nil {
			r.stderr = io.Discard
		}
	}
	r.record(out)
	if inv.spawnKeeper {
		r.ensureKeeper()
	}
	return out.Exit
}

// SpawnKeeper is set by cmd/warden-core: only the real binary can start a
// keeper (`warden keeper`); a test binary calling Main must not start
// itself.
var SpawnKeeper bool

// ensureKeeper starts the store keeper when none runs (see
// internal/store/keeper): after the record, so a hook that starts one pays
// the process start once, and hooks that find one pay a flock.
func (r *run) ensureKeeper() {
	if r.st == nil || r.cfg == nil || !r.cfg.Hook.Keeper {
		return
	}
	StartKeeper()
}

// StartKeeper starts the keeper unless one runs or WARDEN_KEEPER=off; the
// status line, rendered in its own process because none answered, calls
// it too (with hook.keeper on and the store made).
func StartKeeper() {
	if hookwire.KeeperOff() {
		return
	}
	_, _ = keeper.Ensure(paths.KeeperLock(), func() error { return detach.Start("", "keeper") })
}

// run is the state of one hook invocation.
type run struct {
	start    time.Time
	stderr   io.Writer
	env      *reqenv.Env // the caller: environment and working directory
	paths    paths.Paths // resolved from env
	shared   store.Local // the server's store, never closed here
	base     context.Context
	signals  bool
	handlers []pipeline.Handler
	harness  harness.Name
	argEv    event.Name
	native   string // the CLI's own name for the event (its answer repeats it)
	skip     bool   // a twin of the CLI's own warden hook: say and record nothing

	ev       event.Name
	in       *event.Input
	cfg      *config.Config
	problems []config.Problem
	st       store.Local
	stErr    error
	key      []byte // signs session state; nil when unusable
	unlock   func() // releases the session lock once the state is saved (no-op without one)
	state    *session.State
	decision event.Decision
	// results are the handlers' outcomes and timings (for otel.traces).
	results  []pipeline.Result
	failure  []string // why warden failed open, for the record
	deadline time.Time
}

func (r *run) parseArgs(args []string) error {
	name := string(harness.Claude)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--harness" && i+1 < len(args):
			name = args[i+1]
			i++
		case strings.HasPrefix(a, "--harness="):
			name = strings.TrimPrefix(a, "--harness=")
		case strings.HasPrefix(a, "-"):
			return fmt.Errorf("unknown flag %s", a)
		case r.argEv == "":
			r.argEv = event.Name(a)
		default:
			return fmt.Errorf("unexpected argument %q", a)
		}
	}
	h, err := harness.Parse(name)
	if err != nil {
		return err
	}
	r.harness = h
	return nil
}

// fail notes a fail-open reason and says it once on stderr.
func (r *run) fail(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	r.failure = append(r.failure, msg)
	fmt.Fprintf(r.stderr, "warden: %s; allowing\n", msg)
}

func (r *run) execute(stdin io.Reader) hookio.Output {
	if r.harness == harness.Claude {
		if under, skip := harness.CopilotTwin(r.env.Getenv); skip {
			r.skip = true
			return hookio.Output{}
		} else if under {
			r.harness = harness.Copilot
		}
	}
	cwd := r.env.Cwd
	r.cfg, r.problems = config.Load(r.paths.UserConfig(), r.paths.ProjectDir(cwd))

	raw, err := readInput(stdin, time.Duration(r.cfg.Hook.ReadTimeoutMS)*time.Millisecond)
	if err != nil {
		r.ev = r.argEv
		r.fail("%v", err)
		return hookio.Output{}
	}
	payload, native, err := harness.In(r.harness, raw, string(r.argEv))
	r.native = native
	if err == nil {
		r.in, err = event.Decode(payload)
	}
	if err != nil {
		r.ev = harness.EventOf(r.harness, native)
		r.in = &event.Input{Raw: raw}
		r.fail("malformed hook input: %v", err)
		return hookio.Output{}
	}
	r.in.Raw = raw // the record keeps what the CLI sent
	r.ev = r.argEv
	if r.ev == "" || r.harness != harness.Claude {
		r.ev = r.in.HookEventName
	}
	if r.native == "" {
		r.native = string(r.ev)
	}
	if r.ev == "" {
		r.fail("no event: hook_event_name missing and no EVENT argument")
		return hookio.Output{}
	}
	if r.in.Cwd != "" && r.in.Cwd != cwd && r.env.Getenv("CLAUDE_PROJECT_DIR") == "" {
		// The payload knows the session's directory better than our cwd.
		r.cfg, r.problems = config.Load(r.paths.UserConfig(), r.env.Abs(r.in.Cwd))
	}

	spec := hookio.SpecFor(r.ev)
	r.deadline = r.start.Add(budget(spec, r.env.Getenv))
	ctx, cancel := context.WithDeadline(reqenv.Into(r.base, r.env), r.deadline.Add(-recordReserve))
	defer cancel()

	r.openStore(ctx)
	// What does not depend on the session's state is read before its lock:
	// the hooks of one session (parallel tool calls) queue on that lock,
	// so everything inside it is paid once per hook waiting behind. (The
	// on/off switch is global, not the session's; within a session only
	// a prompt flips it, and Claude Code runs no tool hook beside that.)
	projectDir := r.env.Abs(r.paths.ProjectDir(r.in.Cwd))
	ctx = r.preloadSettings(ctx, projectDir)
	enabled := usercmd.Enabled(ctx, r.st)
	if r.in.SessionID != "" && r.st != nil {
		key, err := session.LoadKey(r.paths.StateKey())
		if err != nil {
			r.fail("session state key: %v", err)
		}
		r.key = key
	}
	if r.in.SessionID != "" && r.st != nil {
		unlock, err := lockSession(ctx, r.paths.Home(), r.in.SessionID)
		if why := calledOff(ctx); err != nil && why != "" {
			r.fail("session lock not taken: %s", why)
		} else if err != nil {
			r.fail("session lock: %v", err)
		}
		r.unlock = sync.OnceFunc(unlock)
	}
	r.state = r.loadState(ctx)

	// The handlers get a copy of the state: one that overruns the budget
	// keeps writing to its copy while the record saves the state as it
	// was loaded, never a half-changed one (and never racing with it).
	work := cloneState(r.state)
	call := &pipeline.Call{
		Event: r.ev, Input: r.in, State: work, Config: r.cfg, ConfigProblems: r.problems,
		ProjectDir: projectDir, Env: r.env, Harness: string(r.harness),
		Enabled: enabled, Now: r.start,
	}
	if s := r.st; s != nil {
		call.Store = s
	}
	if !event.Known(r.ev) {
		// Newer than this warden: record and allow.
		return hookio.Output{}
	}

	type result struct {
		d   event.Decision
		res []pipeline.Result
	}
	done := make(chan result, 1)
	go func() {
		GrowStack()
		defer func() {
			if p := recover(); p != nil {
				done <- result{}
			}
		}()
		d, res := pipeline.Run(ctx, r.handlers, call)
		done <- result{d, res}
	}()
	select {
	case res := <-done:
		r.state = work
		r.decision = res.d
		r.results = res.res
		for _, hr := range res.res {
			if hr.Err != nil {
				r.fail("handler %s: %v", hr.Handler, hr.Err)
			}
		}
	case <-ctx.Done():
		if why := calledOff(ctx); why != "" {
			r.fail("handlers for %s called off before they finished: %s", r.ev, why)
		} else {
			r.fail("handlers did not finish within the %v budget for %s", budget(spec, r.env.Getenv)-recordReserve, r.ev)
		}
		return hookio.Output{}
	}
	r.decision = harness.Answered(r.harness, r.decision)
	return harness.Out(r.harness, r.native, r.ev, r.decision)
}

// preloadSettings loads the settings this event's handlers read, in one
// query, into the hook's context (see store.WithSettings). No store, or an
// error, leaves ctx as it was: each is then read alone.
func (r *run) preloadSettings(ctx context.Context, projectDir string) context.Context {
	if r.st == nil {
		return ctx
	}
	keys := handlers.SettingsRead(r.ev, projectDir)
	vals, err := r.st.Settings(ctx, keys)
	if err != nil {
		return ctx
	}
	return store.WithSettings(ctx, keys, vals)
}

// openStore uses the server's store, else opens the local SQLite file:
// hooks always record there, never in a shared PostgreSQL store (the
// events are shipped on from it), so this is the hook path's one
// constructor.
func (r *run) openStore(ctx context.Context) {
	if r.shared != nil {
		r.st = r.shared
		return
	}
	st, err := sqlite.Open(ctx, r.paths.DB())
	if err != nil {
		r.stErr = err
		r.fail("store unusable: %v", err)
		return
	}
	r.st = st
}

func (r *run) loadState(ctx context.Context) *session.State {
	st := &session.State{}
	if r.st == nil || r.in == nil || r.in.SessionID == "" {
		return st
	}
	sess, err := r.st.Session(ctx, r.in.SessionID) // r.key: loaded before the lock
	if err != nil {
		r.fail("load session state: %v", err)
		return st
	}
	if sess == nil || len(sess.State) == 0 {
		return st
	}
	if r.key == nil || !session.Verify(r.key, sess.ID, sess.State, sess.Sig) {
		r.tampered(ctx, fmt.Sprintf("session %s: its saved state does not match its signature (edited outside warden, or the key %s was replaced); the state was reset",
			sess.ID, r.paths.StateKey()))
		return st
	}
	if err := json.Unmarshal(sess.State, st); err != nil {
		r.fail("session state unreadable, starting fresh: %v", err)
		return &session.State{}
	}
	return st
}

// tampered records detected tampering: in this event's record, and as a
// pending notice the next SessionStart shows the user.
func (r *run) tampered(ctx context.Context, what string) {
	r.fail("tamper: %s", what)
	prev, _, _ := r.st.Setting(ctx, store.SettingTamper)
	if prev != "" {
		what = prev + "\n" + what
	}
	_ = r.st.SetSetting(ctx, store.SettingTamper, what)
}

// record writes the event row (and session state) after the output is out,
// within what is left of the budget. A store that cannot be written loses
// the row, never the decision.
func (r *run) record(out hookio.Output) {
	if r.skip {
		return
	}
	deadline := r.deadline
	if deadline.IsZero() {
		deadline = r.start.Add(hookio.SpecFor(r.ev).Budget())
	}
	// The record is written even when the caller went away: what happened
	// is kept. Only the deadline bounds it.
	ctx, cancel := context.WithDeadline(context.WithoutCancel(r.base), deadline)
	defer cancel()
	if r.st == nil && r.stErr == nil {
		// Failed before the store was opened (bad input): record that too.
		r.openStore(ctx)
	}
	if r.st == nil {
		return
	}
	if r.shared == nil {
		defer r.st.Close()
	}

	sess := r.sessionRow()
	var ev *store.Event
	var err error
	if d := r.decision.Sleep; d > 0 && len(r.failure) == 0 {
		// Save the state and release the session before sleeping, so the
		// hooks of parallel tool calls sleep side by side, not in a queue.
		if err := r.st.SaveSession(ctx, sess); err != nil {
			r.fail("save session state: %v", err)
		}
		r.unlock()
		slept := sleepFor(r.base, d, time.Until(deadline)-recordReserve, r.signals)
		ev = r.eventRow(out)
		ev.SleptMS = slept.Milliseconds()
		err = r.st.RecordHook(ctx, ev, nil)
	} else {
		ev = r.eventRow(out)
		err = r.st.RecordHook(ctx, ev, sess)
		r.unlock()
	}
	if err != nil {
		fmt.Fprintf(r.stderr, "warden: could not record the event: %v\n", err)
		return
	}
	if r.ev == event.SessionStart {
		sharedURL, _ := r.cfg.StoreURL() // rows not shipped there yet are kept
		prune(ctx, r.st, r.cfg.RetentionDays, r.cfg.Store.UnshippedKeepDays, sharedURL != "", r.start, r.paths.Locks())
	}
}

// sessionRow is the session's state as saved, signed; nil without a
// session.
func (r *run) sessionRow() *store.Session {
	if r.in == nil || r.in.SessionID == "" || r.state == nil {
		return nil
	}
	b, err := json.Marshal(r.state)
	if err != nil {
		return nil
	}
	sess := &store.Session{ID: r.in.SessionID, Cwd: r.in.Cwd, State: b}
	if r.key != nil {
		sess.Sig = session.Sign(r.key, sess.ID, b)
	}
	return sess
}

func (r *run) eventRow(out hookio.Output) *store.Event {
	ev := &store.Event{
		Time: r.start, Event: string(r.ev), Harness: string(r.harness), TaskID: r.taskID(),
		Decision: string(event.Allow), Error: strings.Join(r.failure, "; "),
	}
	if r.in != nil {
		in := r.in
		ev.SessionID, ev.Tool, ev.ToolUseID, ev.AgentID, ev.Cwd = in.SessionID, in.ToolName, in.ToolUseID, in.AgentID, in.Cwd
		ev.DurationMS = in.DurationMS
		ev.Path = filePath(in)
		addFileDetails(ev, r.ev, in)
		ev.Detail = in.Detail(r.ev)
		if r.cfg != nil && r.cfg.Capture && len(in.Raw) > 0 {
			ev.Raw = json.RawMessage(redact.String(string(in.Raw)))
		} else {
			ev.Raw = toolInputRecord(r.ev, in, r.cfg)
		}
	}
	if len(r.failure) == 0 {
		d := r.decision
		if d.Verdict != "" {
			ev.Decision = string(d.Verdict)
		}
		ev.Rule, ev.Mode, ev.Reason = d.RuleID, d.Mode, d.Reason
		if d.Verdict == event.Ask && r.ev == event.PreToolUse && ev.TaskID != "" && r.in != nil {
			ev.Detail = pendingCall(r.in)
		}
	}
	if out.Exit == 2 {
		ev.Decision = string(event.Deny)
	}
	ev.LatencyUS = time.Since(r.start).Microseconds()
	ev.Spans = r.spans()
	return ev
}

// filePath is the file a file tool works on, for the record.
func filePath(in *event.Input) string {
	for _, k := range []string{"file_path", "notebook_path"} {
		if p := in.ToolString(k); p != "" {
			return p
		}
	}
	return ""
}

// cloneState copies st deeply enough that writing to the copy (flags,
// values, counters) never touches st: values are replaced by Put, never
// changed in place.
func cloneState(st *session.State) *session.State {
	c := *st
	c.Flags = maps.Clone(st.Flags)
	c.Values = maps.Clone(st.Values)
	return &c
}
