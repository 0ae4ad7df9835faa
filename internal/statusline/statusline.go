// Package statusline renders warden's status line from the JSON Claude Code
// pipes to the statusLine command (claude-code-hooks.md §4): model, context
// use (with the context-threshold warning), session cost, git branch,
// badges and the pacing slot, in one line or two when COLUMNS is too
// narrow.
//
// It never fails: whatever goes wrong, it prints what it can and exits 0,
// with nothing on stderr (a non-zero exit blanks the line). Its own
// segments start no process: the branch is read from .git/HEAD. It runs
// the wrapped status line with --wrap (through /bin/sh, bounded), and
// starts one detached `warden handoff auto` when the context threshold is
// first crossed in a session.
package statusline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/warden-dev/warden/internal/pace/quota"
	"github.com/warden-dev/warden/internal/reqenv"
)

// Input is the part of the status line payload warden reads. It is decoded
// field by field, so one field of an unexpected type loses only itself.
type Input struct {
	SessionID      string
	TranscriptPath string
	Cwd            string
	ProjectDir     string
	Model          string
	// ContextPercent is nil before the first response.
	ContextPercent *float64
	CostUSD        *float64
}

// Decode reads a status line payload leniently.
func Decode(raw []byte) (Input, bool) {
	var in Input
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return in, false
	}
	str := func(m map[string]json.RawMessage, k string) string {
		var s string
		if json.Unmarshal(m[k], &s) != nil {
			return ""
		}
		return s
	}
	sub := func(k string) map[string]json.RawMessage {
		var m map[string]json.RawMessage
		json.Unmarshal(obj[k], &m)
		return m
	}
	num := func(m map[string]json.RawMessage, k string) *float64 {
		v := bytes.TrimSpace(m[k])
		if len(v) == 0 || string(v) == "null" {
			return nil
		}
		var f float64
		if err := json.Unmarshal(v, &f); err == nil {
			return &f
		}
		var s string // "74", "74%"
		if json.Unmarshal(m[k], &s) == nil {
			if f, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64); err == nil {
				return &f
			}
		}
		return nil
	}
	in.SessionID = str(obj, "session_id")
	in.TranscriptPath = str(obj, "transcript_path")
	in.Cwd = str(obj, "cwd")
	if ws := sub("workspace"); ws != nil {
		in.ProjectDir = str(ws, "project_dir")
		if in.Cwd == "" {
			in.Cwd = str(ws, "current_dir")
		}
	}
	if m := sub("model"); m != nil {
		in.Model = str(m, "display_name")
		if in.Model == "" {
			in.Model = str(m, "id")
		}
	} else if s := str(obj, "model"); s != "" {
		in.Model = s
	}
	if cw := sub("context_window"); cw != nil {
		in.ContextPercent = num(cw, "used_percentage")
	}
	if c := sub("cost"); c != nil {
		in.CostUSD = num(c, "total_cost_usd")
	}
	return in, true
}

// Project is the directory the session works in.
func (in Input) Project() string {
	if in.ProjectDir != "" {
		return in.ProjectDir
	}
	return in.Cwd
}

// Options control one render.
type Options struct {
	// Wrap is a status line command that was there before warden; its output
	// comes first and warden's segment is appended.
	Wrap string
	// WrapTimeout bounds the wrapped command.
	WrapTimeout time.Duration
	// Columns is the terminal width (COLUMNS); 0 means unlimited.
	Columns int
	// Color enables ANSI colours.
	Color bool
	// Threshold is context.threshold in percent (0: no threshold).
	Threshold func(project string) int
	// Fire is called when the context crosses the threshold; it returns
	// true when this render is the one that claimed the session's mark
	// (and spawned the handoff). The warning shows either way.
	Fire func(in Input, pct int)
	// Fired reports whether the session's threshold handoff was already
	// spawned: the warning then stays on even if the percentage dips.
	Fired func(in Input) bool
	// Branch returns the project's git branch ("" for none).
	Branch func(dir string) string
	// OpenStore is handed to badges and pacing through Env.
	OpenStore func() (StoreReader, bool)
	// Done runs after the render (closes what OpenStore opened).
	Done func()
	// Badges and Pacing are the segments other features plug in (safemode,
	// breaker and tempo badges; pacing), set by Live. They must be cheap
	// and do no I/O beyond reading a small cached file.
	Badges []func(e *Env) Segment
	Pacing func(e *Env) Segment
	// Now is the clock pacing's allowance is computed on (it counts
	// weekdays); nil: time.Now. Tests pin it.
	Now func() time.Time
	// Spawn starts `warden handoff auto …` detached for the caller (nil:
	// internal/detach with this binary); tests count the calls.
	Spawn func(env *reqenv.Env, args []string) error
	// Env is the caller: the wrapped command runs with its environment in
	// its directory, and Live resolves paths and config from it. nil: this
	// process.
	Env *reqenv.Env
	// ReadTimeout bounds reading the payload from stdin (default 2 s): a
	// stdin that never closes must not hold a render, least of all in the
	// resident server.
	ReadTimeout time.Duration
	// StoreBudget bounds each store access of a render (default 300 ms):
	// past it the render goes on without the store. Tests that check what
	// a render writes give a loaded machine more.
	StoreBudget time.Duration
}

// storeBudget is o.StoreBudget or the default.
func (o Options) storeBudget() time.Duration {
	if o.StoreBudget > 0 {
		return o.StoreBudget
	}
	return defaultStoreBudget
}

// maxInput bounds the payload read from stdin.
const maxInput = 1 << 20

// Run reads the payload from stdin and writes the line(s) to stdout.
func Run(stdin io.Reader, stdout io.Writer, opts Options) {
	defer func() { recover() }() // never fail, never print a trace
	if opts.Done != nil {
		defer opts.Done()
	}
	raw := readInput(stdin, opts.ReadTimeout)
	in, ok := Decode(raw)
	var lines []string
	if ok {
		env := &Env{In: in, Raw: raw, OpenStore: opts.OpenStore, Caller: opts.Env, Now: opts.Now, StoreBudget: opts.storeBudget()}
		lines = Layout(Segments(env, opts), opts.Columns, opts.Color)
	}
	if len(lines) == 0 {
		lines = []string{"warden"}
	}
	var prefix string
	if opts.Wrap != "" {
		caller := opts.Env
		if caller == nil {
			caller = reqenv.Process()
		}
		prefix = runWrapped(opts, raw, caller.Environ, caller.Cwd)
	}
	out := strings.Join(lines, "\n")
	switch {
	case prefix != "" && len(lines) == 1 && !strings.Contains(prefix, "\n") &&
		(opts.Columns <= 0 || visibleLen(prefix)+3+visibleLen(lines[0]) <= opts.Columns):
		fmt.Fprintf(stdout, "%s │ %s\n", prefix, out)
	case prefix != "":
		fmt.Fprintf(stdout, "%s\n%s\n", prefix, out)
	default:
		fmt.Fprintln(stdout, out)
	}
}

// readInput reads the payload, at most maxInput bytes, until EOF or the
// deadline (what came by then is used). The read goes on in the
// background past the deadline only until the caller closes stdin.
func readInput(stdin io.Reader, timeout time.Duration) []byte {
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	if f, ok := stdin.(interface{ SetReadDeadline(time.Time) error }); ok && f.SetReadDeadline(time.Now().Add(timeout)) == nil {
		b, _ := io.ReadAll(io.LimitReader(stdin, maxInput))
		return b
	}
	done := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(stdin, maxInput))
		done <- b
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case b := <-done:
		return b
	case <-t.C:
		return nil
	}
}

// Render is the plain one-line segment for raw (no colours, no width, no
// side effects): model and context use.
func Render(raw []byte) string {
	in, ok := Decode(raw)
	if !ok {
		return "warden"
	}
	lines := Layout(Segments(&Env{In: in, Raw: raw}, Options{}), 0, false)
	if len(lines) == 0 {
		return "warden"
	}
	return lines[0]
}

// Segment is one piece of the line. Line 2 holds the pieces that move to a
// second line when one line does not fit.
type Segment struct {
	Text  string
	Color string // ANSI SGR parameters, e.g. "33" or "1;31"
	Line2 bool
}

// Env is what a badge or the pacing segment sees: the decoded input, the
// raw payload (rate_limits and the rest) and, on demand, the store.
type Env struct {
	In  Input
	Raw []byte
	// OpenStore opens the event store once per render (bounded by a short
	// deadline); nil in tests and when there is none. Opening it costs a
	// few milliseconds per render: prefer a cached file where possible.
	OpenStore func() (StoreReader, bool)
	// Caller is the environment the render is for (nil: this process).
	Caller *reqenv.Env
	// Now is Options.Now (nil: time.Now).
	Now func() time.Time
	// StoreBudget bounds a segment's store access (Options.StoreBudget).
	StoreBudget time.Duration
}

// storeBudget is e.StoreBudget or the default.
func (e *Env) storeBudget() time.Duration {
	return Options{StoreBudget: e.StoreBudget}.storeBudget()
}

// now is the render's clock.
func (e *Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// StoreReader is the part of the local store a segment may use: settings,
// and the pacing ledger the status line's figures go to.
type StoreReader interface {
	Setting(ctx context.Context, key string) (string, bool, error)
	quota.Store
}

// Segments builds every segment for in.
func Segments(env *Env, opts Options) []Segment {
	in := env.In
	var segs []Segment
	if in.Model != "" {
		segs = append(segs, Segment{Text: "[" + clean(in.Model, 40) + "]", Color: "36"})
	}
	if p, ok := ContextPercent(in.ContextPercent); ok {
		th := 0
		if opts.Threshold != nil {
			th = opts.Threshold(in.Project())
		}
		if th > 0 && (p >= th || (opts.Fired != nil && opts.Fired(in))) {
			if opts.Fire != nil {
				opts.Fire(in, p)
			}
			segs = append(segs, Segment{Text: fmt.Sprintf("⚠ CTX %d%%", p), Color: "1;33"})
		} else {
			color := "32"
			if th > 0 && p >= th*85/100 {
				color = "33"
			}
			segs = append(segs, Segment{Text: fmt.Sprintf("ctx %d%%", p), Color: color})
		}
	}
	if c := in.CostUSD; c != nil && !math.IsNaN(*c) && !math.IsInf(*c, 0) && *c > 0 && *c < 1e9 {
		segs = append(segs, Segment{Text: fmt.Sprintf("$%.2f", *c), Color: "35"})
	}
	if opts.Branch != nil {
		dir := in.Project()
		if in.Cwd != "" {
			dir = in.Cwd
		}
		if b := opts.Branch(dir); b != "" {
			segs = append(segs, Segment{Text: "⎇ " + clean(b, 40), Color: "34", Line2: true})
		}
	}
	for _, f := range opts.Badges {
		if s := safeSeg(f, env); s.Text != "" {
			s.Line2 = true
			segs = append(segs, s)
		}
	}
	if opts.Pacing != nil {
		if s := safeSeg(opts.Pacing, env); s.Text != "" {
			s.Line2 = true
			segs = append(segs, s)
		}
	}
	return segs
}

func safeSeg(f func(*Env) Segment, env *Env) (s Segment) {
	defer func() {
		if recover() != nil {
			s = Segment{}
		}
	}()
	return f(env)
}

// Layout joins segments into one line, or two (the Line2 segments below)
// when one does not fit in columns; each line is cut to columns.
func Layout(segs []Segment, columns int, color bool) []string {
	if len(segs) == 0 {
		return nil
	}
	join := func(ss []Segment) (string, int) {
		var b strings.Builder
		w := 0
		for i, s := range ss {
			if i > 0 {
				b.WriteByte(' ')
				w++
			}
			t := s.Text
			if columns > 0 && w+utf8.RuneCountInString(t) > columns {
				t = cut(t, columns-w)
			}
			w += utf8.RuneCountInString(t)
			if color && s.Color != "" {
				b.WriteString("\x1b[" + s.Color + "m" + t + "\x1b[0m")
			} else {
				b.WriteString(t)
			}
			if columns > 0 && w >= columns {
				break
			}
		}
		return b.String(), w
	}
	width := -1
	for _, s := range segs {
		width += 1 + utf8.RuneCountInString(s.Text)
	}
	if columns <= 0 || width <= columns {
		l, _ := join(segs)
		return []string{l}
	}
	var one, two []Segment
	for _, s := range segs {
		if s.Line2 {
			two = append(two, s)
		} else {
			one = append(one, s)
		}
	}
	var out []string
	for _, part := range [][]Segment{one, two} {
		if len(part) > 0 {
			l, _ := join(part)
			out = append(out, l)
		}
	}
	return out
}

func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	if n == 1 {
		return "…"
	}
	return string(r[:n-1]) + "…"
}

// clean removes control characters (a model name or branch must not carry
// escape sequences into the terminal) and bounds the length.
func clean(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
	return cut(s, n)
}

// visibleLen counts runes outside ANSI escape sequences.
func visibleLen(s string) int {
	n, esc := 0, false
	for _, r := range s {
		switch {
		case esc:
			if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
				esc = false
			}
		case r == 0x1b:
			esc = true
		default:
			n++
		}
	}
	return n
}

// ContextPercent normalises used_percentage, which arrives as a whole
// percentage (74) or, from some builds and wrappers, as a fraction (0.74);
// it is null before the first response.
func ContextPercent(v *float64) (int, bool) {
	if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 {
		return 0, false
	}
	p := *v
	if p > 0 && p < 1 {
		p *= 100
	}
	if p > 100 {
		p = 100
	}
	return int(math.Round(p)), true
}

// ColorFromEnv decides whether the terminal setting takes ANSI colours:
// not with NO_COLOR, not with TERM unset or "dumb"; WARDEN_COLOR=0/1
// overrides.
func ColorFromEnv(getenv func(string) string) bool {
	switch getenv("WARDEN_COLOR") {
	case "0", "false", "never":
		return false
	case "1", "true", "always":
		return true
	}
	if getenv("NO_COLOR") != "" {
		return false
	}
	t := getenv("TERM")
	return t != "" && t != "dumb"
}

// ColumnsFromEnv reads COLUMNS (0 when unset or invalid).
func ColumnsFromEnv(getenv func(string) string) int {
	n, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS")))
	if err != nil || n <= 0 || n > 10000 {
		return 0
	}
	return n
}

// runWrapped runs the previous status line command with the same payload
// and returns its output (empty on any failure or timeout).
func runWrapped(opts Options, raw []byte, environ []string, dir string) string {
	t := opts.WrapTimeout
	if t <= 0 {
		t = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), t)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", opts.Wrap)
	cmd.Stdin = bytes.NewReader(raw)
	cmd.Env, cmd.Dir = environ, dir
	cmd.Stderr = nil
	cmd.WaitDelay = 100 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimRight(string(out), "\n")
}
