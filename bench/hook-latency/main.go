// Command hook-latency measures what one `warden hook` process costs Claude
// Code, from outside: spawn, runtime start-up, the hook's work (config,
// store open, handlers, the event row) and exit.
//
// With the keeper (the default), `warden` hands the hook to the keeper
// process over a unix socket and the hook runs there; the in-process
// figure is then the keeper's work for it. Without (WARDEN_KEEPER=off),
// warden execs warden-core, which runs the hook itself.
//
// Absolute times depend on the machine (process spawn alone can cost
// several ms in a VM), so every figure is set against two baselines measured
// in the same run: /bin/true (the cost of any process) and a bare Go binary
// (the cost of any Go process). The ratio warden/bare-go is what regresses
// when the hook path links or initialises more than it should.
//
// The variants run in turn within each round, with the starting variant
// rotated per round, so drift (other load, CPU frequency, page cache) and
// any effect one process has on the next land on all variants alike.
//
// With -post (the default) a fourth variant runs beside them: `warden hook`
// on a PostToolUse payload of the same size, with pacing figures stored
// that call for no throttle, so every run reads the cached pacing decision
// (one per DecisionTTL recomputes it) without sleeping and without network.
// Beside the process times, each warden variant's in-process hook work
// (the latency_us its row records: config, store, handlers, up to the
// record) is summarised; the pacing target is PostToolUse under 5 ms
// median with no throttle.
//
// It is run by run.sh, which builds the binaries; see README there.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite" // only to count rows and to hold the DB open

	"github.com/warden-dev/warden/internal/store/keeper"
	"github.com/warden-dev/warden/internal/testenv"
)

// Exit codes: exitSlow is the regression check failing, exitBroken a run
// whose measurement cannot be trusted (a process failed, rows are missing).
const (
	exitSlow   = 1
	exitBroken = 2
)

// payloadSize matches the 1,983-byte PreToolUse Bash event the reference
// start-up measurements used (shared/reference/go-deps.md §2).
const payloadSize = 2000

func main() {
	var o options
	flag.StringVar(&o.warden, "warden", "", "warden binary (required)")
	flag.StringVar(&o.wardenB, "warden-b", "", "a second warden build (warden-core beside it) measured from the Node parent in the same rounds as -warden, in a home and with a keeper of its own: an A/B of two builds under the same load")
	flag.StringVar(&o.bare, "bare", "", "bare Go binary, empty main (required)")
	flag.StringVar(&o.trueBin, "true", "/bin/true", "the no-op process baseline")
	flag.IntVar(&o.rounds, "rounds", 300, "measured rounds; each runs every variant once")
	flag.IntVar(&o.warmup, "warmup", 10, "rounds run and discarded first")
	flag.BoolVar(&o.alone, "alone", true, "measure warden with no store keeper (WARDEN_KEEPER=off): each hook runs in warden-core, which opens and, as the last connection, closes the store")
	flag.BoolVar(&o.daemon, "daemon", false, "also measure with `warden serve` holding the store and answering hooks (warden-helper must sit next to warden)")
	flag.BoolVar(&o.held, "held", false, "also measure warden while this process (not warden's keeper) holds the DB open")
	flag.BoolVar(&o.post, "post", true, "also measure a PostToolUse hook reading the cached pacing decision (figures stored, no throttle)")
	flag.BoolVar(&o.json, "json", false, "print JSON instead of a table")
	flag.StringVar(&o.parallel, "parallel", "4,8", "also measure these numbers of concurrent PreToolUse callers (one session) against as many bare Go processes at once, with the keeper; \"\" for none")
	flag.IntVar(&o.parallelRounds, "parallel-rounds", 100, "measured rounds per concurrency level")
	flag.StringVar(&o.node, "node", "node", "the Node program the Node-parent phase spawns hooks from, as Claude Code does; \"\" for none")
	flag.StringVar(&o.nodeCallers, "node-callers", "1,4", "numbers of callers started together from the Node parent")
	flag.IntVar(&o.nodeRounds, "node-rounds", 200, "measured rounds per number of callers from the Node parent")
	flag.IntVar(&o.harnessRounds, "harness-rounds", 100, "measured rounds of the per-harness phase (one hook of each CLI warden governs per round, from the Node parent); 0 for none")
	flag.Float64Var(&o.maxRatioClaude, "max-ratio-claude", 0, "exit 1 if another CLI's hook p50 exceeds this many times Claude Code's in the harness phase; 0 = no check")
	flag.BoolVar(&o.floor, "floor", true, "also measure the front against a stand-in keeper that answers at once (the round trip alone)")
	flag.BoolVar(&o.noUserConfig, "no-user-config", false, "measure without a user config.toml (every key at its default)")
	flag.IntVar(&o.exportRounds, "export-rounds", 100, "also measure this many hooks each with the OpenTelemetry export off and on (logs, metrics, traces to a local receiver; 0: none)")
	flag.IntVar(&o.pauseRounds, "pause-rounds", 12, "also measure this many hooks each after a pause, once the keeper checkpointed (0: none)")
	flag.StringVar(&o.pgURL, "pg-url", os.Getenv("WARDEN_BENCH_PG_URL"), "configure this PostgreSQL store ([store] url) in the bench's home: hooks still write locally, the keeper ships; the keeper phase also waits until every row was shipped")
	flag.Float64Var(&o.maxRatio, "max-ratio-bare", 0, "exit 1 if a warden/bare-go p50 ratio from the Node parent (exec form, store keeper answering) exceeds this at any -node-callers, or the keeper declined a hook; 0 = no check")
	flag.StringVar(&o.keeperProfile, "keeper-cpuprofile", "", "have the keeper write a CPU profile of its life to this file (WARDEN_KEEPER_CPUPROFILE; the -warden-b keeper's gets \".b\" appended); measure one keeper phase only (-pause-rounds 0 -floor=false -export-rounds 0 -alone=false), as each keeper started later writes the same file")
	flag.Parse()
	levels, err := parseLevels(o.parallel)
	if err == nil {
		o.nodeLevels, err = parseLevels(o.nodeCallers)
	}
	if err == nil && o.maxRatio > 0 && (o.node == "" || len(o.nodeLevels) == 0) {
		err = errors.New("-max-ratio-bare checks the Node parent's figures: give -node and -node-callers")
	}
	if o.warden == "" || o.bare == "" || o.rounds < 1 || o.warmup < 0 || o.parallelRounds < 1 || o.nodeRounds < 1 || err != nil {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		flag.Usage()
		testenv.Exit(exitBroken)
	}
	o.levels = levels
	// The run's processes get a home of their own, never the developer's
	// warden, config, figures or PATH (testenv.Isolate); run(o) then makes
	// the bench's own HOME and WARDEN_HOME inside it.
	end := testenv.Isolate()
	res, err := run(o)
	end()
	if err != nil {
		fmt.Fprintf(os.Stderr, "hook-latency: %v\n", err)
		testenv.Exit(exitBroken)
	}
	if o.json {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(res)
	} else {
		printTable(os.Stdout, res)
	}
	if res.Check != nil && !res.Check.Pass {
		testenv.Exit(exitSlow)
	}
}

type options struct {
	pauseRounds           int
	exportRounds          int
	noUserConfig, floor   bool
	warden, bare, trueBin string
	wardenB               string
	keeperProfile         string
	rounds, warmup        int
	alone, held, json     bool
	post, daemon          bool
	maxRatio              float64
	parallel              string
	parallelRounds        int
	levels                []int
	node, nodeCallers     string
	nodeRounds            int
	nodeLevels            []int
	harnessRounds         int
	maxRatioClaude        float64
	pgURL                 string
}

// Result is the whole run, as --json prints it. Times are milliseconds.
type Result struct {
	Rounds       int             `json:"rounds"`
	Warmup       int             `json:"warmup"`
	PayloadBytes int             `json:"payload_bytes"`
	WardenMB     float64         `json:"warden_mb"`
	Phases       []Phase         `json:"phases"`
	Parallel     []ParallelPhase `json:"parallel,omitempty"`
	Node         []NodePhase     `json:"node_parent,omitempty"`
	Harnesses    *HarnessPhase   `json:"harnesses,omitempty"`
	Pause        *PausePhase     `json:"pause,omitempty"`
	Floor        *FloorPhase     `json:"floor,omitempty"`
	Export       *ExportPhase    `json:"export,omitempty"`
	Check        *Check          `json:"check,omitempty"`
	Ship         *ShipCheck      `json:"ship,omitempty"`
}

// Phase is one measurement: with warden's store keeper (the default), with
// none, or with the store held open by this process.
type Phase struct {
	Name       string    `json:"name"`
	Variants   []Summary `json:"variants"` // warden, true, bare-go
	RatioTrue  float64   `json:"ratio_warden_true"`
	RatioBare  float64   `json:"ratio_warden_bare_go"`
	WardenRuns int       `json:"warden_runs"` // warm-up included
	RowsAdded  int       `json:"rows_added"`
	// HookWork is each warden variant's in-process time (the rows'
	// latency_us, measured rounds only), by event.
	HookWork []Summary `json:"hook_work"`
	// Keeper is what the answering process spent per hook (keeper phase,
	// Linux only): CPU time and context switches over all its threads.
	Keeper *KeeperCost `json:"keeper,omitempty"`
}

// Summary is one variant's distribution.
type Summary struct {
	Name   string  `json:"name"`
	Median float64 `json:"median_ms"`
	P90    float64 `json:"p90_ms"`
	P99    float64 `json:"p99_ms"`
}

// Check is the start-up regression check: the Node parent's figures with
// the store keeper, the path users get.
type Check struct {
	// Ratios are warden (exec form) / bare Go at p50, per number of
	// callers from the Node parent.
	Ratios map[int]float64 `json:"ratios_p50_by_callers"`
	Max    float64         `json:"max"`
	// Declines by the keeper in the parallel and Node phases: any fails
	// the check.
	Declines int64 `json:"declines"`
	// HarnessRatios are each other CLI's hook p50 to Claude Code's, held
	// to MaxClaude when it is set.
	HarnessRatios map[string]float64 `json:"harness_ratios_p50_to_claude,omitempty"`
	MaxClaude     float64            `json:"max_ratio_claude,omitempty"`
	Pass          bool               `json:"pass"`
}

// bench holds what every spawn shares.
type bench struct {
	env    []string
	dir    string   // the processes' cwd, also the payload's cwd
	db     string   // $WARDEN_HOME/warden.db
	stdin  *os.File // the payload, rewritten before each warden run
	stdout *os.File // /dev/null, for the keeper the pause phase starts
	stderr *os.File // a file, so a complaint can be shown afterwards
	seq    int      // warden runs so far, for unique tool_use_ids
	// other is the -warden-b build's home (nil without one).
	other *bench
	// harnesses is the per-harness phase's result (keeper phase).
	harnesses *HarnessPhase
	desc      string // description padding that brings the payload to size
	pdesc     string // the same for the PostToolUse payload
}

type variant struct {
	name   string
	path   string
	args   []string
	warden bool
	event  string // warden variants: the payload's hook_event_name
}

func run(o options) (*Result, error) {
	tmp, err := os.MkdirTemp("", "hook-latency-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	b, err := setup(tmp, o.noUserConfig)
	if err == nil && o.keeperProfile != "" {
		b.env = append(b.env, "WARDEN_KEEPER_CPUPROFILE="+o.keeperProfile)
	}
	if err != nil {
		return nil, err
	}
	defer b.stdin.Close()
	defer b.stdout.Close()
	defer b.stderr.Close()
	if o.pgURL != "" {
		if err := b.configurePG(o.pgURL); err != nil {
			return nil, err
		}
	}

	vs := []variant{
		{name: "warden hook", path: o.warden, args: []string{"hook", "--harness", "claude"}, warden: true, event: preToolUse},
		{name: "/bin/true", path: o.trueBin},
		{name: "bare Go", path: o.bare},
	}
	if o.post {
		// After the three the ratios are computed from.
		vs = append(vs, variant{name: "warden PostToolUse", path: o.warden, args: vs[0].args, warden: true, event: postToolUse})
	}
	if o.trueBin != "/bin/true" {
		vs[1].name = o.trueBin
	}
	// The first hook creates the store (schema, WAL switch), which is a
	// once-per-machine cost and not what we measure.
	if _, err := b.spawn(vs[0]); err != nil || b.stderrEmpty() != nil {
		return nil, errors.Join(errors.New("creating the store"), err, b.stderrEmpty())
	}
	if _, err := os.Stat(b.db); err != nil {
		return nil, fmt.Errorf("the first hook run left no store: %w", err)
	}

	res := &Result{Rounds: o.rounds, Warmup: o.warmup}
	if fi, err := os.Stat(o.warden); err == nil {
		res.WardenMB = float64(fi.Size()) / 1e6
	}
	res.PayloadBytes = len(b.payload(preToolUse))

	// The default path: the first hook starts warden's store keeper, which
	// holds the store open, so a hook is never the last connection (no
	// checkpoint at close, no WAL recovery at open).
	kept, par, node, ship, err := b.keeperPhase(vs, o)
	if err != nil {
		return nil, err
	}
	res.Ship = ship
	res.Phases = append(res.Phases, *kept)
	res.Parallel, res.Node, res.Harnesses = par, node, b.harnesses
	if o.pauseRounds > 0 {
		if res.Pause, err = b.pausePhase(o); err != nil {
			return nil, err
		}
	}
	if o.floor {
		if res.Floor, err = b.floorPhase(o); err != nil {
			return nil, err
		}
	}
	if o.exportRounds > 0 {
		if res.Export, err = exportPhase(tmp, o); err != nil {
			return nil, err
		}
	}

	// The daemon in the keeper's place: the same hook server, answered
	// from `warden serve` (SPEC §8): it must cost what the keeper costs.
	if o.daemon {
		served, err := b.daemonPhase(vs, o)
		if err != nil {
			return nil, err
		}
		res.Phases = append(res.Phases, *served)
	}

	// No keeper: every hook opens, writes, and as the last connection
	// closes the file (checkpoint, WAL removed).
	if o.alone {
		b.env = append(b.env, "WARDEN_KEEPER=off")
		alone, err := b.phase("no store keeper (WARDEN_KEEPER=off): warden → warden-core, in its own process", vs, o, nil)
		b.env = b.env[:len(b.env)-1]
		if err != nil {
			return nil, err
		}
		res.Phases = append(res.Phases, *alone)
	}

	// Held open by this process instead of the keeper: the same effect,
	// to tell the keeper's own cost apart.
	if o.held {
		b.env = append(b.env, "WARDEN_KEEPER=off")
		db, conn, err := openDB(b.db)
		if err != nil {
			return nil, err
		}
		held, err := b.phase("store held open by the bench, no keeper", vs, o, conn)
		conn.Close()
		db.Close()
		b.env = b.env[:len(b.env)-1]
		if err != nil {
			return nil, err
		}
		res.Phases = append(res.Phases, *held)
	}

	if o.maxRatio > 0 {
		c := &Check{Ratios: map[int]float64{}, Max: o.maxRatio, Pass: true}
		for _, p := range par {
			c.Declines += p.Declines
		}
		for _, p := range node {
			c.Declines += p.Declines
			c.Ratios[p.Callers] = p.RatioP50
			c.Pass = c.Pass && p.RatioP50 <= o.maxRatio
		}
		c.Pass = c.Pass && c.Declines == 0
		res.Check = c
	}
	if h := res.Harnesses; h != nil && (o.maxRatio > 0 || o.maxRatioClaude > 0) {
		if res.Check == nil {
			res.Check = &Check{Ratios: map[int]float64{}, Pass: true}
		}
		c := res.Check
		c.HarnessRatios, c.MaxClaude = map[string]float64{}, o.maxRatioClaude
		c.Declines += h.Declines
		c.Pass = c.Pass && h.Declines == 0
		for i, r := range h.RatioToClaude[1:] {
			c.HarnessRatios[harnessRuns[i+1].name] = r
			c.Pass = c.Pass && (o.maxRatioClaude <= 0 || r <= o.maxRatioClaude)
		}
	}
	return res, nil
}

// userConfig is a user config.toml as people keep one: a few keys in a
// few tables, none that changes the decision (every row stays a clean
// allow). Loading it is part of every hook's work (config.Load), so the
// bench measures with it.
const userConfig = `# ~/.warden/config.toml
retention_days = 90

[context]
threshold = 75

[pacing]
safety_buffer_pct = 10
notify = true

[policy]
protected_branches = ["main", "release"]
max_lines_warn = 400

[gates]
test_commands = ["go test ./...", "make test"]
`

// setup makes an isolated HOME, WARDEN_HOME and project directory, so no
// existing store shapes the result, with the user config above (written
// an hour "ago", as a config is: one written the moment before a hook is
// read again each time, see config.Load) unless noUserConfig.
func setup(tmp string, noUserConfig bool) (*bench, error) {
	home, proj := filepath.Join(tmp, "home"), filepath.Join(tmp, "project")
	for _, d := range []string{home, proj, filepath.Join(home, ".warden")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	if !noUserConfig {
		cfg := filepath.Join(home, ".warden", "config.toml")
		if err := os.WriteFile(cfg, []byte(userConfig), 0o600); err != nil {
			return nil, err
		}
		then := time.Now().Add(-time.Hour)
		if err := os.Chtimes(cfg, then, then); err != nil {
			return nil, err
		}
	}
	b := &bench{
		env: []string{
			"PATH=" + os.Getenv("PATH"),
			"HOME=" + home,
			"WARDEN_HOME=" + filepath.Join(home, ".warden"),
			"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		},
		dir: proj,
		db:  filepath.Join(home, ".warden", "warden.db"),
	}
	// Pad the description so the whole payload is payloadSize bytes.
	pad := strings.Repeat("List every file in the working directory, hidden ones included, with permissions, owner, size and modification time. ", payloadSize/100+1)
	if n := payloadSize - len(b.payload(preToolUse)); n > 0 {
		b.desc = pad[:n]
	}
	if n := payloadSize - len(b.payload(postToolUse)); n > 0 {
		b.pdesc = pad[:n]
	}
	var err error
	if b.stdin, err = os.Create(filepath.Join(tmp, "payload.json")); err != nil {
		return nil, err
	}
	if b.stdout, err = os.OpenFile(os.DevNull, os.O_WRONLY, 0); err != nil {
		return nil, err
	}
	if b.stderr, err = os.Create(filepath.Join(tmp, "stderr")); err != nil {
		return nil, err
	}
	return b, nil
}

const (
	preToolUse  = "PreToolUse"
	postToolUse = "PostToolUse"
)

// payload is a realistic Bash event for an allowed command: PreToolUse, or
// PostToolUse with the tool's response (each padded to payloadSize bytes).
// The tool_use_id is fixed-width, so every run's payload has the same size.
func (b *bench) payload(ev string) []byte {
	type toolInput struct {
		Command     string `json:"command"`
		Description string `json:"description"`
		Timeout     int    `json:"timeout"`
	}
	type toolResponse struct {
		Stdout      string `json:"stdout"`
		Stderr      string `json:"stderr"`
		Interrupted bool   `json:"interrupted"`
		IsImage     bool   `json:"isImage"`
	}
	desc := b.desc
	var resp *toolResponse
	if ev == postToolUse {
		desc = b.pdesc
		resp = &toolResponse{Stdout: "total 8\ndrwxr-xr-x 2 dev dev 4096 Nov 24 09:00 .\ndrwxr-xr-x 9 dev dev 4096 Nov 24 09:00 ..\n"}
	}
	p, _ := json.Marshal(struct {
		SessionID      string        `json:"session_id"`
		TranscriptPath string        `json:"transcript_path"`
		Cwd            string        `json:"cwd"`
		PermissionMode string        `json:"permission_mode"`
		HookEventName  string        `json:"hook_event_name"`
		ToolName       string        `json:"tool_name"`
		ToolInput      toolInput     `json:"tool_input"`
		ToolResponse   *toolResponse `json:"tool_response,omitempty"`
		ToolUseID      string        `json:"tool_use_id"`
		PromptID       string        `json:"prompt_id"`
		AgentType      string        `json:"agent_type"`
		Effort         string        `json:"effort"`
	}{
		SessionID:      "7f3c2a1e-5b9d-4e8f-a6c0-2d1b3e4f5a6b",
		TranscriptPath: "/home/dev/.claude/projects/-home-dev-src-app/7f3c2a1e-5b9d-4e8f-a6c0-2d1b3e4f5a6b.jsonl",
		Cwd:            b.dir,
		PermissionMode: "default",
		HookEventName:  ev,
		ToolName:       "Bash",
		ToolInput:      toolInput{Command: "ls -la", Description: desc, Timeout: 120000},
		ToolResponse:   resp,
		ToolUseID:      fmt.Sprintf("toolu_bench_%08d", b.seq),
		PromptID:       "c4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70",
		AgentType:      "main",
		Effort:         "high",
	})
	return p
}

// paceFigures stores usage figures as `warden statusline` does on every
// render: 5-hour 0 % with 4 h to its reset, 7-day 0 % with 3 days to go.
// Nothing used is below any allowance on any day with any safety buffer,
// so pacing decides no delay — at 10 % a Saturday's weekday-only allowance
// and the config's 10 % buffer made every hook sleep 350 s. It runs before
// each phase, so the figures stay fresh (no poll is considered).
func (b *bench) paceFigures(conn *sql.Conn) error {
	conn, done, err := b.useConn(conn)
	if err != nil {
		return err
	}
	defer done()
	now := time.Now().UTC()
	_, err = conn.ExecContext(context.Background(), `INSERT INTO usage_snapshots
		(ts_us, source, session_id, five_util, five_reset, seven_util, seven_reset) VALUES (?, 'statusline', '', 0, ?, 0, ?)`,
		now.UnixMicro(), now.Add(4*time.Hour).Unix(), now.Add(72*time.Hour).Unix())
	if err != nil {
		return fmt.Errorf("store pacing figures: %w", err)
	}
	return nil
}

// keeperPhase lets a hook start the keeper, waits until it holds the store,
// measures, and stops it. A keeper that does not come is an error: hooks
// would then all pay the slow path.
func (b *bench) keeperPhase(vs []variant, o options) (*Phase, []ParallelPhase, []NodePhase, *ShipCheck, error) {
	lock := filepath.Join(filepath.Dir(b.db), "locks", "keeper.lock")
	defer keeper.Stop(lock, 10*time.Second)
	if _, err := b.spawn(vs[0]); err != nil {
		return nil, nil, nil, nil, err
	}
	if !keeperUp(lock) {
		return nil, nil, nil, nil, errors.New("no store keeper came up after a hook (see internal/store/keeper)")
	}
	name := "with the store keeper (default)"
	if o.pgURL != "" {
		name += ", PostgreSQL store configured (the keeper ships)"
	}
	pid := keeperPID(lock)
	before, counted := totals(pid)
	p, err := b.phase(name, vs, o, nil)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if counted {
		p.Keeper = costSince(pid, before, p.WardenRuns)
	}
	var par []ParallelPhase
	for _, n := range o.levels {
		pp, err := b.parallelPhase(o, vs[0].path, n)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		par = append(par, *pp)
	}
	var node []NodePhase
	if o.node != "" && len(o.nodeLevels) > 0 {
		if o.wardenB != "" {
			stop, err := b.startOther(o, filepath.Join(filepath.Dir(b.dir), "warden-b"))
			if err != nil {
				return nil, nil, nil, nil, err
			}
			defer stop()
		}
		np, err := b.startNode(o.node)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		defer np.close()
		pidB := b.otherKeeperPID()
		for _, n := range o.nodeLevels {
			t0, counted := totals(pid)
			t0B, countedB := totals(pidB)
			rowsB := 0
			if b.other != nil {
				rowsB = b.other.seq
			}
			ph, err := b.nodePhase(np, o, n)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			if counted {
				ph.Keeper = costSince(pid, t0, ph.RowsAdded)
			}
			if countedB && pidB != 0 {
				ph.KeeperB = costSince(pidB, t0B, b.other.seq-rowsB)
			}
			node = append(node, *ph)
		}
		if o.harnessRounds > 0 {
			if b.harnesses, err = b.harnessPhase(np, o); err != nil {
				return nil, nil, nil, nil, err
			}
		}
	}
	var ship *ShipCheck
	if o.pgURL != "" {
		if ship, err = b.waitShipped(o.pgURL); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	return p, par, node, ship, nil
}

// keeperUp waits up to 10 s for a keeper to hold lock.
func keeperUp(lock string) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if running, _ := keeper.Running(lock); running {
			return true
		}
	}
	return false
}

// daemonPhase starts `warden serve` (after the keeper phase stopped the
// keeper), waits until it holds the store, measures, and stops it with
// SIGTERM.
func (b *bench) daemonPhase(vs []variant, o options) (*Phase, error) {
	lock := filepath.Join(filepath.Dir(b.db), "locks", "keeper.lock")
	cmd := exec.Command(o.warden, "serve", "--addr", "127.0.0.1:0")
	cmd.Env, cmd.Dir = b.env, b.dir
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	state := filepath.Join(filepath.Dir(b.db), "run", "serve.json")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, err := os.Stat(state)
		if running, _ := keeper.Running(lock); running && err == nil {
			break
		}
		if time.Now().After(deadline) {
			return nil, errors.New("warden serve did not take the store within 20 s (is warden-helper next to warden?)")
		}
	}
	return b.phase("with `warden serve` answering (the daemon)", vs, o, nil)
}

// phase runs warm-up and measured rounds of every variant and checks that
// each warden run left exactly one clean row. conn, when set, is the held
// connection (used for counting too, so it is never closed mid-phase).
func (b *bench) phase(name string, vs []variant, o options, conn *sql.Conn) (*Phase, error) {
	before, _, err := b.countRows(conn)
	if err != nil {
		return nil, err
	}
	if len(vs) > 3 {
		if err := b.paceFigures(conn); err != nil {
			return nil, err
		}
	}
	samples := make([][]float64, len(vs))
	runs := 0
	firstMeasured := 0 // the seq of the first measured warden run
	for r := 0; r < o.warmup+o.rounds; r++ {
		if r == o.warmup {
			firstMeasured = b.seq + 1
		}
		for i := range vs {
			k := (r + i) % len(vs) // rotate who goes first
			d, err := b.spawn(vs[k])
			if err != nil {
				return nil, errors.Join(fmt.Errorf("%s: %s: %w", name, vs[k].name, err), b.stderrEmpty())
			}
			if vs[k].warden {
				runs++
			}
			if r >= o.warmup {
				samples[k] = append(samples[k], float64(d.Microseconds())/1000)
			}
		}
	}
	if err := b.stderrEmpty(); err != nil {
		return nil, err
	}
	after, bad, err := b.settledRows(conn, before+runs)
	if err != nil {
		return nil, err
	}
	p := &Phase{Name: name, WardenRuns: runs, RowsAdded: after - before}
	if p.RowsAdded != runs {
		return nil, fmt.Errorf("%s: %d warden runs added %d rows", name, runs, p.RowsAdded)
	}
	if bad > 0 {
		return nil, fmt.Errorf("%s: %d rows are not a clean allow (fail-open, block or a pacing sleep)", name, bad)
	}
	for i, v := range vs {
		p.Variants = append(p.Variants, summarize(v.name, samples[i]))
	}
	if len(vs) > 3 {
		if err := b.pacedOnFigures(conn); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for _, v := range vs {
		if v.warden {
			ms, err := b.hookWork(conn, v.event, firstMeasured)
			if err != nil {
				return nil, err
			}
			p.HookWork = append(p.HookWork, summarize(v.event+" in-process", ms))
		}
	}
	p.RatioTrue = p.Variants[0].Median / p.Variants[1].Median
	p.RatioBare = p.Variants[0].Median / p.Variants[2].Median
	return p, nil
}

// spawn runs one process and returns its wall time. Stdin, stdout and
// stderr are files, so os/exec hands them over as they are: no pipes and no
// copying goroutines in this process to time along with the child.
func (b *bench) spawn(v variant) (time.Duration, error) {
	if v.warden {
		b.seq++
		p := b.payload(v.event)
		if _, err := b.stdin.WriteAt(p, 0); err != nil {
			return 0, err
		}
		if err := b.stdin.Truncate(int64(len(p))); err != nil {
			return 0, err
		}
	}
	// The child shares the file offset, so rewind for each run.
	if _, err := b.stdin.Seek(0, io.SeekStart); err != nil {
		return 0, err
	}
	cmd := exec.Command(v.path, v.args...)
	cmd.Env, cmd.Dir = b.env, b.dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = b.stdin, claudeStdout, b.stderr
	return runBounded(cmd)
}

// claudeStdout is where a measured process writes its output: a pipe
// read to its end (os/exec copies it, and Wait waits for the end), as
// Claude Code reads a hook's output. A served hook's exit code reaches its
// client, and its stdout closes, before the event is recorded, so a run
// may end a fraction of a millisecond before its row is stored: every
// count settles first (countRows).
var claudeStdout io.Writer = io.Discard

// stderrEmpty fails when any process complained: warden fails open with a
// line on stderr, and a fail-open run does not measure the real path.
func (b *bench) stderrEmpty() error {
	out, err := os.ReadFile(b.stderr.Name())
	if err != nil {
		return err
	}
	if len(out) > 0 {
		return fmt.Errorf("a process wrote to stderr:\n%s", out)
	}
	return nil
}
