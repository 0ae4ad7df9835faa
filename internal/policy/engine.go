package policy

import (
	"context"
	"fmt"
	"math/bits"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-dev/warden/internal/callfacts"
	"github.com/warden-dev/warden/internal/reqenv"
)

// Options are the config-derived settings of an engine.
type Options struct {
	// Disabled lists pack or rule ids switched off (policy.disabled).
	Disabled []string
	// Modes ("id=mode", id a rule, pack or category) set modes freely:
	// user config only (policy.modes).
	Modes []string
	// Raise entries only ever make a mode stricter; a project may add them
	// (policy.raise).
	Raise []string
	// Zones ("effect:zone=verdict") set cells of the verdict table
	// freely: user config only (policy.zones). ZonesRaise cells only make
	// the table stricter; a project may add them (policy.zones_raise).
	Zones, ZonesRaise []string
	zoneTable         ZoneTable // Zones and ZonesRaise applied, once per engine
	// ProtectedBranches may not be force-pushed, besides main and master.
	ProtectedBranches []string
	// MaxLinesWarn / MaxLinesDeny bound the lines of a written file.
	MaxLinesWarn, MaxLinesDeny int
	// SelfPaths are warden's own files (config, store, binary, keys).
	WardenHome string
	// Getenv reads the caller's environment (CLAUDE_CONFIG_DIR); nil means
	// this process's. The resident hook server sets it per request.
	Getenv func(string) string
}

func (o *Options) getenv(k string) string {
	if o == nil || o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

// Env is what a rule's Match sees.
type Env struct {
	F    *Facts
	Opts *Options
	ctx  context.Context
	// git reports whether the work tree at dir has uncommitted changes.
	git       func(ctx context.Context, dir string) (bool, error)
	gitBranch func(ctx context.Context, dir string) string
	branch    *string
	// OnceKey is set by a Once rule to what it asked about.
	OnceKey string
	// Err is set by a rule whose evaluation failed.
	Err error
	// Unsure is set by a rule whose match rests on a check that could not
	// be made (git could not say whether the tree is clean): its hit asks
	// even when the rule denies — unknown stays visible, but a failed
	// check never becomes a denial.
	Unsure bool
	// The per-call caches below are values with a flag, not pointers: a
	// pointer to a cached value is one more allocation per call.
	//
	// touches caches the call's effects on paths for the zone rules.
	touches     []callfacts.Touch
	touchesRead bool
	// zones caches the zones of touches (touchZones).
	zones     zoneMask
	zonesRead bool
	// zoneGate caches zoneGateOpen: 0 not read, 1 closed, 2 open.
	zoneGate uint8
	// exfil caches exfilReason, which two rules read.
	exfil     string
	exfilRead bool
	// typed caches typedSecretFind, which the two typed-secret rules read.
	typedCmd           *Cmd
	typedVal, typedSvc string
	typedRead          bool
	// cmdMemo caches, per command of the call, what every cmdRule asks
	// before its own match (cmdrule.go); memoBuf holds it for a line of
	// up to len(memoBuf) commands.
	cmdMemo []uint8
	memoBuf [8]uint8
	// absMemo caches abs for the call: a line's operands meet many rules
	// (rm's reach a dozen), and each NormPath of one allocates.
	absMemo [4]absEntry
	absNext uint8
	// secretMemo caches printsSecret per command of the call (up to
	// len(secretMemo) commands): the exfil, leak-file, send and capture
	// rules each ask it of the same commands, and the credential-word
	// tables it reads (callfacts/credwords.go) cost on every command.
	secretMemo [8]strMemo
	// appMemo caches appConsoleJudge per command: the deny rule, the
	// ask rule and the deployed-console rule all judge the same console
	// command (npm run build meets each).
	appMemo [8]appJudgeMemo
	// cur is the rule running; cmdSets[i], when cmdSetsKnown, is the set
	// of indexed rules naming the i-th command's program (Env.named).
	cur          *prepared
	cmdSets      [8]ruleSet
	cmdSetsKnown bool
	// dataWhy and dataProd cache dataDestroyOnce: the prod and the ask
	// rule of dataDestroyRule both read it.
	dataWhy            string
	dataProd, dataRead bool
	// prodRW caches prodRewrite: why the line rewrites, destroys or
	// disrupts production, read when a remote-change rule asks.
	prodRW     string
	prodRWRead bool
	// hostActs caches Cmd.HostAction per command: the deny and the ask
	// rule of hostActRules both read it of every command they name.
	hostActs [8]hostActMemo
	// downgrades caches Cmd.Downgrade per command: the deny and the ask
	// rule of downgradeRules both read it of every command they name
	// (git status meets both).
	downgrades [8]downgradeMemo
	// sqlMemo caches httpSQLJudge per command: the SQL-over-HTTP deny
	// and ask rules and the admin-API rule each judge the same curl.
	sqlMemo [8]sqlJudgeMemo
	// apiMemo caches readAPICall for the first len(apiMemo) HTTP clients
	// of the call (at: command index + 1, 0 unused): the SQL-over-HTTP
	// deny and ask rules, the admin-API rule and the secret-read rule
	// each read the same curl's options, URLs and body.
	apiMemo [2]slotMemo[apiCall]
	// partsMemo caches requestParts for the first len(partsMemo) HTTP
	// clients of the call (at as in apiMemo): the send-credential,
	// secret-var, captured-secret, token-file and typed-secret rules each
	// split the same curl's options into its request parts.
	partsMemo [2]slotMemo[[]reqPart]
	// remoteActs caches Cmd.RemoteAction per command: a dozen rules
	// about remote.txt's programs (ship, publish, notify, grant…) each
	// ask it of the same command, and each asking matches its word rules.
	remoteActs [8]strMemo
	// reqMemo caches reqShape per command: the request-gated rules
	// (reqgates.go) each ask it of the same curl.
	reqMemo [8]uint8
	// args caches argWords, the lowered arguments the rules with
	// Trigger.Words are selected by.
	args     string
	argsRead bool
	// taskMemo caches taskHits per command (taskKnown set once read):
	// the task-gated rules (taskgates.go) each ask it of the same make.
	taskMemo [8]uint8
	// urlMemo caches urlShape per command (urlKnown set once read): the
	// URL-gated rules (urlgates.go) each ask it of the same curl.
	urlMemo [8]urlGroup
}

// remoteAction is c.RemoteAction(), read once per command per call.
func (e *Env) remoteAction(c *Cmd) string {
	i := e.cmdIndex(c)
	if i < 0 || i >= len(e.remoteActs) {
		if a := c.RemoteAction(); a != "change" || !printsConfigOnly(c) {
			return a
		}
		return ""
	}
	m := &e.remoteActs[i]
	if !m.known {
		m.s, m.known = c.RemoteAction(), true
		if m.s == "change" && printsConfigOnly(c) {
			m.s = "" // puppet agent --configprint server: a setting printed (pack_runas_reads.go)
		}
	}
	return m.s
}

// slotMemo is one cached answer of a reader kept for the first few
// commands of a call that need it (at: command index + 1, 0 unused).
type slotMemo[T any] struct {
	at int
	v  T
}

// memoFor is read(c), read once per command per call while slots last:
// the answer is shared between its readers, who only read it.
func memoFor[T any](e *Env, slots []slotMemo[T], c *Cmd, read func(*Cmd) T) T {
	i := e.cmdIndex(c)
	if i < 0 {
		return read(c)
	}
	for k := range slots {
		m := &slots[k]
		if m.at == i+1 {
			return m.v
		}
		if m.at == 0 {
			m.at, m.v = i+1, read(c)
			return m.v
		}
	}
	return read(c)
}

// requestParts is requestParts(c), read once per command per call.
func (e *Env) requestParts(c *Cmd) []reqPart { return memoFor(e, e.partsMemo[:], c, requestParts) }

// apiCall is readAPICall(c), read once per command per call.
func (e *Env) apiCall(c *Cmd) apiCall { return memoFor(e, e.apiMemo[:], c, readAPICall) }

// strMemo is a per-command cached string answer.
type strMemo struct {
	known bool
	s     string
}

// hostActMemo is a per-command cached Cmd.HostAction.
type hostActMemo struct {
	known bool
	a     *callfacts.HostAct
}

// hostAction is c.HostAction(), read once per command per call.
func (e *Env) hostAction(c *Cmd) *callfacts.HostAct {
	i := e.cmdIndex(c)
	if i < 0 || i >= len(e.hostActs) {
		return c.HostAction()
	}
	m := &e.hostActs[i]
	if !m.known {
		m.known, m.a = true, c.HostAction()
	}
	return m.a
}

// downgradeMemo is a per-command cached Cmd.Downgrade.
type downgradeMemo struct {
	known      bool
	level, why string
}

// downgrade is c.Downgrade, read once per command of the call.
func (e *Env) downgrade(c *Cmd) (level, why string) {
	i := e.cmdIndex(c)
	if i < 0 || i >= len(e.downgrades) {
		return c.Downgrade()
	}
	m := &e.downgrades[i]
	if !m.known {
		m.level, m.why = c.Downgrade()
		m.known = true
	}
	return m.level, m.why
}

// sqlJudgeMemo is a per-command cached httpSQLJudge.
type sqlJudgeMemo struct {
	known bool
	v     Mode
	why   string
}

// appJudgeMemo is a per-command cached appConsoleJudge.
type appJudgeMemo struct {
	known bool
	v     byte
	why   string
}

// cmdIndex is the index of c in the call's commands when c is one of
// them (not a copy a rule made), else -1: only those answers are cached.
func (e *Env) cmdIndex(c *Cmd) int {
	if e == nil || e.F == nil {
		return -1
	}
	for i := range e.F.Commands {
		if c == &e.F.Commands[i] {
			return i
		}
	}
	return -1
}

// printsSecret is printsSecret(c), computed once per command per call.
func (e *Env) printsSecret(c *Cmd) string {
	i := e.cmdIndex(c)
	if i < 0 || i >= len(e.secretMemo) {
		return printsSecret(c)
	}
	m := &e.secretMemo[i]
	if !m.known {
		m.s, m.known = printsSecret(c), true
	}
	return m.s
}

// absEntry is one cached abs: argument a run in dir (the call's home is
// the Env's, one per call).
type absEntry struct{ a, dir, out string }

// Touches is the call's effects on path targets, read once per call.
func (e *Env) Touches() []callfacts.Touch {
	if !e.touchesRead {
		e.touches, e.touchesRead = e.F.Touches(), true
	}
	return e.touches
}

// zones is the verdict table the engine judges by.
func (o *Options) zones() ZoneTable {
	if o.zoneTable == nil {
		o.zoneTable = ZoneTableFor(o)
	}
	return o.zoneTable
}

// Dirty reports whether the project has uncommitted changes. Called only by
// rules whose command already matched: it runs git. When git cannot say,
// the answer is true (the rule then asks rather than silently allowing).
func (e *Env) Dirty() (bool, string) {
	dir := e.F.Cwd
	if dir == "" {
		dir = e.F.Project
	}
	dirty, err := e.git(e.ctx, dir)
	if err != nil {
		return true, "could not check for uncommitted changes (" + err.Error() + ")"
	}
	if dirty {
		return true, "there are uncommitted changes"
	}
	return false, ""
}

// gitDirty runs git status --porcelain with a short deadline.
func gitDirty(ctx context.Context, dir string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
	defer cancel()
	cmd := reqenv.From(ctx).Command(ctx, "git", []string{"-C", dir, "status", "--porcelain", "--untracked-files=normal"})
	out, err := cmd.Output()
	if err != nil {
		return false, fmt.Errorf("git status: %v", err)
	}
	return len(strings.TrimSpace(string(out))) > 0, nil
}

// gitCurrentBranch names the checked-out branch ("" when git cannot say).
func gitCurrentBranch(ctx context.Context, dir string) string {
	if b, ok := headBranch(dir); ok {
		return b // read from .git/HEAD (githead.go): no git process
	}
	ctx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
	defer cancel()
	out, err := reqenv.From(ctx).Command(ctx, "git", []string{"-C", dir, "rev-parse", "--abbrev-ref", "HEAD"}).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// Hit is a rule that fired.
type Hit struct {
	ID     string `json:"id"`
	Mode   Mode   `json:"mode"`
	Reason string `json:"reason"`
	// OnceKey is set for rules that ask once per session per key.
	OnceKey string `json:"once_key,omitempty"`
	// Err is set when the rule failed (it fires only if fail = "closed").
	Err string `json:"error,omitempty"`
}

// Result is the outcome of evaluating every rule.
type Result struct {
	Decision Mode   `json:"decision"` // deny, ask, warn, audit or "" (allow)
	Hits     []Hit  `json:"rules"`
	Facts    *Facts `json:"facts"`
}

// Top returns the hit that decides: highest mode, first in rule order.
func (r *Result) Top() *Hit {
	var top *Hit
	for i := range r.Hits {
		if top == nil || r.Hits[i].Mode.Rank() > top.Mode.Rank() {
			top = &r.Hits[i]
		}
	}
	return top
}

// Engine holds prepared rules. Build it once, evaluate many calls.
type Engine struct {
	rules []*prepared
	opts  Options
	// Git and GitBranch are replaceable for tests.
	Git       func(ctx context.Context, dir string) (bool, error)
	GitBranch func(ctx context.Context, dir string) string

	once    sync.Once
	indexed []*prepared // shell rules with a command prefilter (Cmds), in rule order
	always  []*prepared // every other rule
	// byCmd maps a program to its indexed rules, built once the engine has
	// served scanCalls calls (cmdIndex): a hook process that evaluates one
	// call scans the rules' names instead of building a map of thousands.
	calls     atomic.Int64
	byCmdOnce sync.Once
	byCmd     map[string]cmdRules
	// gates indexes the indexed rules' subcommand gates, built with byCmd
	// (subgateindex.go).
	gates *subGateIndex
	// trig indexes the always rules by their triggers, built with byCmd
	// (triggerindex.go); until then each rule's trigger is read in turn.
	trig *triggerIndex
	// ran, when set (tests), is told of every rule run on a call: the
	// rules-run counts of the benchmark's lines (runcount_test.go).
	ran func(r *prepared)
}

// cmdRules are the indexed rules naming one program, as entries in rule
// order and as a set by position in Engine.rules (Env.named).
type cmdRules struct {
	set ruleSet
	// ents are the rules as entries read without reading the rules: a
	// line whose commands close a rule's subcommand gate passes it over
	// without touching it (git status passes some thirty git rules)
	ents []cmdEntry
}

// cmdEntry is one rule of a cmdRules list: its position in Engine.rules
// and whether it has a subcommand gate (prepared.subs).
type cmdEntry struct {
	r        *prepared
	idx      int32
	subGated bool
}

type prepared struct {
	*Rule
	mode    Mode
	idx     int       // position in Engine.rules
	on      Trigger   // for rules in Engine.always: when they can fire
	subs    []string  // for rules in Engine.indexed: the subcommands of subProg they can fire on (subgates.go), nil for any
	subProg string    // the program subs gates
	req     reqGate   // for rules in Engine.indexed: what they need of a curl or wget command (reqgates.go), 0 for nothing
	task    taskGroup // for rules in Engine.indexed: the words their task test needs (taskgates.go), 0 for none
	url     urlGroup  // for rules in Engine.indexed: the URL shape they need of a command of their programs (urlgates.go), 0 for none
	act     string    // for rules in Engine.indexed: the remote action they need of a command of their programs (actgates.go), "" for none
	zoned   bool      // runs only on a line with a path outside the project and temp (zonegates.go)
	remote  bool      // its pack is about changes that leave this machine (Pack.Remote)
}

// trigger is r's declared trigger: its own, the built-in table's, or
// every call (a user rule, or a rule that declares none).
func trigger(r *Rule) Trigger {
	t := Any("declares no trigger")
	if r.On.declared() {
		t = r.On
	} else if bt, ok := builtinTriggers()[r.ID]; ok && r.Source == "" {
		t = bt
	}
	if len(t.Progs) > 0 {
		t.progs = nameSet(t.Progs)
	}
	if z, ok := touchZoneTriggers()[r.ID]; ok && r.Source == "" && t.Facts&FactTouch != 0 {
		t.zones = z
	}
	return t
}

// New prepares packs and user rules under opts: modes resolved, disabled
// rules dropped. Nothing is compiled here; expressions and regexps compile
// on first use.
func New(packs []Pack, user []Rule, opts Options) *Engine {
	e := &Engine{opts: opts, Git: gitDirty, GitBranch: gitCurrentBranch}
	e.opts.zoneTable = ZoneTableFor(&e.opts)
	add := func(r *Rule, remote bool) {
		m := ResolveMode(r, &opts)
		if m == Off {
			return
		}
		e.rules = append(e.rules, &prepared{Rule: r, mode: m, idx: len(e.rules), remote: remote})
	}
	for pi := range packs {
		for ri := range packs[pi].Rules {
			add(&packs[pi].Rules[ri], packs[pi].Remote)
		}
	}
	for i := range user {
		add(&user[i], false)
	}
	return e
}

// ResolveMode is a rule's effective mode: the most specific policy.modes
// entry (rule, then pack, then category) or the default, then raised by
// any policy.raise entry, never lowered by it. Disabled rules are Off.
func ResolveMode(r *Rule, o *Options) Mode {
	ids := []string{r.ID, packOf(r.ID), categoryOf(r.ID)}
	for _, d := range o.Disabled {
		if slices.Contains(ids, strings.TrimSpace(d)) {
			return Off
		}
	}
	m := r.Mode
	for _, id := range slices.Backward(ids) { // least specific first, so specific wins
		if v, ok := modeEntry(o.Modes, id); ok {
			m = v
		}
	}
	if m == Off {
		return Off
	}
	for _, id := range ids {
		if v, ok := modeEntry(o.Raise, id); ok && v.Rank() > m.Rank() {
			m = v
		}
	}
	return m
}

func modeEntry(entries []string, id string) (Mode, bool) {
	var out Mode
	found := false
	for _, e := range entries {
		k, v, ok := strings.Cut(e, "=")
		if !ok || strings.TrimSpace(k) != id {
			continue
		}
		if m, ok := ParseMode(v); ok {
			out, found = m, true
		}
	}
	return out, found
}

func (e *Engine) index() {
	for _, r := range e.rules {
		r.zoned = r.Source == "" && builtinZoneGates()[r.ID]
		if len(r.Cmds) > 0 && isShellOnly(r.Rule) {
			r.subs, r.subProg = gateFor(r.Rule)
			r.req = builtinEntry(r.Rule, builtinReqGates)
			r.task = builtinEntry(r.Rule, builtinTaskGates)
			r.url = builtinEntry(r.Rule, builtinURLGates)
			r.act = builtinEntry(r.Rule, builtinActGates)
			e.indexed = append(e.indexed, r)
			continue
		}
		r.on = trigger(r.Rule)
		e.always = append(e.always, r)
	}
}

// builtinEntry is a built-in rule's entry in a gate table (reqgates.go,
// taskgates.go, urlgates.go), zero for a user rule or one not listed.
func builtinEntry[V any](r *Rule, table func() map[string]V) V {
	if r.Source != "" {
		var none V
		return none
	}
	return table()[r.ID]
}

// scanCalls is how many calls an engine serves by scanning its rules'
// program names before it builds the map from names to rules: the scan
// costs a few µs a call, the map (thousands of names) ~0.5 ms once.
const scanCalls = 16

// cmdIndex is the map from program names to indexed rules and the index
// of the other rules' triggers, or nil while the engine scans (its first
// scanCalls calls).
func (e *Engine) cmdIndex() (map[string]cmdRules, *triggerIndex) {
	if e.calls.Add(1) <= scanCalls {
		return nil, nil
	}
	e.byCmdOnce.Do(func() {
		m := map[string]cmdRules{}
		for _, r := range e.indexed {
			for _, c := range r.Cmds {
				x := m[c]
				if x.set == nil {
					x.set = newRuleSet(len(e.rules))
				}
				x.ents = append(x.ents, cmdEntry{r: r, idx: int32(r.idx), subGated: r.subs != nil})
				x.set.add(r.idx)
				m[c] = x
			}
		}
		e.byCmd = m
		e.gates = newSubGateIndex(e.indexed, len(e.rules))
		e.trig = newTriggerIndex(e.always)
	})
	return e.byCmd, e.trig
}

func isShellOnly(r *Rule) bool {
	if len(r.Tools) == 0 {
		return false
	}
	for _, t := range r.Tools {
		if t != "Bash" && t != "PowerShell" {
			return false
		}
	}
	return true
}

// Rules lists the prepared rules with their effective modes.
func (e *Engine) Rules() []RuleInfo {
	out := make([]RuleInfo, 0, len(e.rules))
	for _, r := range e.rules {
		out = append(out, RuleInfo{ID: r.ID, Pack: r.Pack(), Mode: r.mode, Desc: r.Desc, Source: r.Source})
	}
	return out
}

// RuleInfo describes a rule for `warden policy list`.
type RuleInfo struct {
	ID     string `json:"id"`
	Pack   string `json:"pack"`
	Mode   Mode   `json:"mode"`
	Desc   string `json:"description"`
	Source string `json:"source,omitempty"`
}

// Evaluate runs every rule that can match f. ctx bounds the few rules that
// run a process (git status).
func (e *Engine) Evaluate(ctx context.Context, f *Facts) *Result {
	return e.evaluate(ctx, f, &e.opts)
}

// EvaluateFor is Evaluate for a caller whose environment is getenv (the
// resident hook server's callers), so one engine, built once and cached,
// serves callers with different environments.
func (e *Engine) EvaluateFor(ctx context.Context, f *Facts, getenv func(string) string) *Result {
	opts := e.opts
	opts.Getenv = getenv
	return e.evaluate(ctx, f, &opts)
}

// envPool holds the Envs of finished calls (Engine.evaluate).
var envPool = sync.Pool{New: func() any { return new(Env) }}

func (e *Engine) evaluate(ctx context.Context, f *Facts, opts *Options) *Result {
	e.once.Do(e.index)
	res := &Result{Facts: f}
	// a help or version request changes nothing (callfacts/help.go); what
	// a command does inside a dev, test or local place is the
	// developer's own (devplace.go)
	f = withoutDevPlaces(f.WithoutHelp())
	// the rules' Env (two kilobytes of per-call caches) is reused from
	// call to call: it lives only for this call, no hit keeps it. It is
	// cleared once, as it goes back (every Env in the pool is a zero
	// Env, so no call's facts stay reachable from it), not again here.
	env := envPool.Get().(*Env)
	defer func() { *env = Env{}; envPool.Put(env) }()
	env.F, env.Opts, env.ctx, env.git, env.gitBranch = f, opts, ctx, e.Git, e.GitBranch
	run := func(r *prepared) {
		if !r.runsOn(f.Event) || !r.forTool(f.Tool) {
			return
		}
		if e.ran != nil {
			e.ran(r)
		}
		env.OnceKey, env.Err, env.Unsure, env.cur = "", nil, false, r
		reason := e.match(r, env)
		if env.Err != nil {
			if !r.FailClosed {
				return
			}
			res.Hits = append(res.Hits, Hit{ID: r.ID, Mode: Deny, Err: env.Err.Error(),
				Reason: fmt.Sprintf("rule failed and is set to fail closed: %v", env.Err)})
			return
		}
		if reason == "" {
			return
		}
		if f.ParseError != "" && len(f.Commands) > 0 && f.Command != "" {
			reason += " (the command did not parse as shell; matched on its words conservatively)"
		}
		mode := r.mode
		if mode == Ask && r.remote {
			// a remote change that rewrites, destroys or disrupts a place
			// the line names as production is denied, whichever rule
			// found the change (prod_rewrite.go)
			if why := env.prodRewrite(); why != "" {
				mode = Deny
				reason += " — denied: " + why
			}
		}
		if env.Unsure && mode == Deny {
			mode = Ask
			reason += " (asked, not denied: the check could not be made)"
		}
		if f.Obfuscated && mode == Deny {
			// As written it cannot run; one edit makes it the command matched.
			mode = Ask
			reason += " (written with Unicode look-alikes: it cannot run as written, but is one edit from this)"
		}
		res.Hits = append(res.Hits, Hit{ID: r.ID, Mode: mode, Reason: reason, OnceKey: env.OnceKey})
	}
	byCmd, trig := e.cmdIndex()
	sh := shapeOf(f)
	if f.Tool == "Bash" || f.Tool == "PowerShell" {
		// per command in line order, its rules in rule order (a program met
		// again finds its rules already run; the rules of e.always are
		// none of these, and each is met once below)
		var seenBuf [16]uint64 // on the stack for up to 1,024 rules
		var seen ruleSet
		if w := (len(e.rules) + 63) / 64; w <= len(seenBuf) {
			seen = seenBuf[:w]
		} else {
			seen = newRuleSet(len(e.rules))
		}
		// the gated rules the line opens, read from its commands at the
		// first gated rule met (once the index is built)
		var openBuf [16]uint64
		var open ruleSet
		openHas := func(idx int) bool {
			if open == nil {
				if len(seen) <= len(openBuf) {
					open = openBuf[:len(seen)]
				} else {
					open = newRuleSet(len(e.rules))
				}
				e.gates.open(f, open)
			}
			return open.has(idx)
		}
		subOpen := func(r *prepared) bool {
			if byCmd == nil {
				return gateOpen(r, f)
			}
			return openHas(r.idx)
		}
		once := func(r *prepared) {
			if !seen.has(r.idx) {
				seen.add(r.idx)
				// a gated rule runs where it ran before, at the first
				// command of its program, if the line has one of its
				// subcommands anywhere: the hits keep their order
				// a request-gated rule runs only on a line whose
				// curl or wget may send something (reqgates.go), a
				// task-gated one where a task may have its words
				// (taskgates.go), a URL-gated one where a URL has
				// the shape it judges (urlgates.go)
				// a zone-gated one where a path lies outside the
				// project and temp (zonegates.go), an action-gated
				// one where a command has its remote action
				// (actgates.go)
				if (r.subs == nil || subOpen(r)) && (r.req == 0 || env.reqGateOpen(r)) && (r.task == 0 || env.taskGateOpen(r)) && (r.url == 0 || env.urlGateOpen(r)) && (r.act == "" || env.actGateOpen(r)) && (!r.zoned || env.zoneGateOpen(&sh)) {
					run(r)
				}
			}
		}
		// every command's rules are looked up before any runs: a rule
		// run at the first command reads the sets of the later ones
		var lists [len(env.cmdSets)][]cmdEntry
		if byCmd != nil && len(f.Commands) <= len(lists) {
			for i := range f.Commands {
				x := byCmd[f.Commands[i].Name]
				lists[i], env.cmdSets[i] = x.ents, x.set
			}
			env.cmdSetsKnown = true
		}
		for i := range f.Commands {
			name := f.Commands[i].Name
			if env.cmdSetsKnown {
				for _, x := range lists[i] {
					if idx := int(x.idx); x.subGated && !seen.has(idx) && !openHas(idx) {
						seen.add(idx) // as once does with a closed gate
						continue
					}
					once(x.r)
				}
				continue
			}
			if byCmd != nil {
				for _, x := range byCmd[name].ents {
					once(x.r)
				}
				continue
			}
			for _, r := range e.indexed {
				if slices.Contains(r.Cmds, name) {
					once(r)
				}
			}
		}
	}
	if trig != nil {
		var buf [4]uint64
		sel := ruleSet(buf[:])
		if w := (trig.n + 63) / 64; w <= len(buf) {
			sel = sel[:w]
		} else {
			sel = newRuleSet(trig.n)
		}
		trig.selectRules(&sh, env, sel)
		// the selected rules in rule order, read from the set's bits: most
		// of the always rules are not selected on an everyday line
		for w, bitsLeft := range sel {
			for ; bitsLeft != 0; bitsLeft &= bitsLeft - 1 {
				r := e.always[w*64+bits.TrailingZeros64(bitsLeft)]
				if !r.zoned || env.zoneGateOpen(&sh) {
					run(r)
				}
			}
		}
	} else {
		for _, r := range e.always {
			if r.on.fires(&sh, env) && (!r.zoned || env.zoneGateOpen(&sh)) {
				run(r)
			}
		}
	}
	if top := res.Top(); top != nil {
		res.Decision = top.Mode
	}
	return res
}

func (e *Engine) match(r *prepared, env *Env) (reason string) {
	defer func() {
		if p := recover(); p != nil {
			env.Err = fmt.Errorf("rule %s panicked: %v", r.ID, p)
			reason = ""
		}
	}()
	if r.Match != nil {
		return r.Match(env)
	}
	return r.matchUser(env)
}
