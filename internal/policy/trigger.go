package policy

import (
	"strings"

	"github.com/warden-dev/warden/internal/callfacts"
)

// A rule that is not about named programs (no Cmds) declares a Trigger:
// the facts a call must have for the rule to fire at all. The engine reads
// those facts once per call and runs only the rules whose trigger they
// meet, as Cmds indexes the rules about programs: an everyday line (git
// status, go test) then pays for the few rules that read every line, not
// for every rule written since.
//
// A trigger is a necessary condition, never a verdict: it must hold for
// every call the rule can fire on (TestTriggersAreSound runs every rule's
// catch cases; the corpora diff in bench/policy-cost checks the rest). When
// no cheap fact is necessary, the rule says so: Any("why").

// Fact is one cheap fact about a call, read once per call.
type Fact uint32

const (
	// FactPath: the call names a path (Facts.Paths): read, written, deleted
	// or an argument.
	FactPath Fact = 1 << iota
	// FactChange: a path the call names is not only read (written,
	// deleted, or an argument whose fate is unknown).
	FactChange
	// FactWrite: a path is written or deleted (OpWrite, OpDelete).
	FactWrite
	// FactHomeDot: a path lies in a dot-file or dot-directory right under
	// home (~/.ssh, ~/.aws, ~/.config, ~/.bashrc).
	FactHomeDot
	// FactEtc: a path lies under /etc (or macOS's /private/etc).
	FactEtc
	// FactPayload: a command carries inline code (python -c, sh -c, eval).
	FactPayload
	// FactFeedUnknown: a shell or interpreter runs text the line does not
	// show.
	FactFeedUnknown
	// FactFeed: a shell or interpreter runs what a fetcher or decoder
	// printed (Cmd.Feed).
	FactFeed
	// FactInterp: a command is a shell, an interpreter or a language
	// runtime (python, node, bash, php, deno…), whatever it is given.
	FactInterp
	// FactPipe: a command reads the output of an earlier one (Upstream).
	FactPipe
	// FactWrapped: a command runs under a wrapper (sudo, ssh, docker exec…).
	FactWrapped
	// FactRedirect: the line redirects output or input.
	FactRedirect
	// FactDeleteEffect: a command's own effect is a delete (Cmd.Effect).
	FactDeleteEffect
	// FactWriteEffect: a command's own effect is a write (Cmd.Effect):
	// files, packages, or something elsewhere it changes.
	FactWriteEffect
	// FactDerivation: the reading derived something (Facts.Derivation:
	// a script fed to a shell, text planted to run later).
	FactDerivation
	// FactNotShell: the tool is not a shell (Write, Edit, Read, MCP…).
	FactNotShell
	// FactTouch: the call has an effect on a path target (Facts.Touches):
	// read lazily, only for a rule whose cheaper facts did not already
	// decide (the verdict-table rules read Touches on every call anyway).
	FactTouch
	// FactTruncated: the reading stopped at its bounds (Facts.Truncated).
	FactTruncated
	// FactOddName: a command's program is named by a glob or a variable:
	// its name is glob-like (callfacts.GlobLike), or its name or argv[0]
	// as written starts with "$".
	FactOddName
	// FactGrepName: a command's program name ends in "grep" (grep, egrep,
	// zgrep, netmiko-grep…).
	FactGrepName
	// FactScriptPath: a command is run by a path (argv[0] as written holds
	// a "/": ./deploy.sh, scripts/x.py, /opt/t/run), or is PowerShell
	// (pwsh -File x.ps1): with FactInterp, every way the script rules
	// (scriptRun, deployScript) find a script the line runs.
	FactScriptPath
)

// Trigger says which calls a rule can fire on. Any non-empty reason means
// every call; otherwise the rule runs when the call has one of Facts, one
// of the programs Progs (a rule that is mostly about paths but also names
// a program or two), or one of Text in its command line (a rule whose
// Match first looks for a word in the line: HIST, /dev/tcp/, warden).
type Trigger struct {
	Facts Fact
	Progs []string
	Text  []string
	// Words are lower-case words one of the call's commands must hold in
	// an argument, read lowered as the rules read them (strings.ToLower
	// of Cmd.Args and Cmd.Pos): a rule about a subcommand or an option
	// value of any program (publish, upload, public-read) names its
	// words here instead of running on every line. Unlike Text, they are
	// read from the commands, so a command the reading found off the
	// line (a task runner's definition on disk) is read too.
	Words []string
	// AnyWhy, when set, runs the rule on every call of its tools and says
	// why no cheaper fact is necessary for it.
	AnyWhy string

	progs func(string) bool // Progs as a set, built when the engine indexes
	// zones, when not 0, narrows FactTouch to an effect on a path in one
	// of these zones (touchZoneTriggers): a write in the project wakes no
	// rule about start-up files, system or shared storage.
	zones zoneMask
}

// zoneMask is a set of zones (zoneBit).
type zoneMask uint32

// zoneBit is z's bit; a zone no rule narrows to has the last bit, which
// no narrowing holds.
func zoneBit(z callfacts.Zone) zoneMask {
	switch z {
	case callfacts.ZoneProject:
		return 1 << 0
	case callfacts.ZoneRepo:
		return 1 << 1
	case callfacts.ZoneTemp:
		return 1 << 2
	case callfacts.ZoneCache:
		return 1 << 3
	case callfacts.ZoneHomeData:
		return 1 << 4
	case callfacts.ZoneHomeConfig:
		return 1 << 5
	case callfacts.ZoneCredentials:
		return 1 << 6
	case callfacts.ZoneSystem:
		return 1 << 7
	case callfacts.ZoneWarden:
		return 1 << 8
	case callfacts.ZoneAgent:
		return 1 << 9
	case callfacts.ZoneShared:
		return 1 << 10
	case callfacts.ZoneElsewhere:
		return 1 << 11
	case callfacts.ZoneUnknown:
		return 1 << 12
	case callfacts.ZoneUnknownSub:
		return 1 << 13
	}
	return 1 << 31
}

// zonesOf is the set of zs.
func zonesOf(zs ...callfacts.Zone) zoneMask {
	var m zoneMask
	for _, z := range zs {
		m |= zoneBit(z)
	}
	return m
}

// touchZones is the set of zones the call's effects on paths fall in,
// read once per call.
func (e *Env) touchZones() zoneMask {
	if !e.zonesRead {
		for _, tc := range e.Touches() {
			e.zones |= zoneBit(tc.Zone)
		}
		e.zonesRead = true
	}
	return e.zones
}

// On is a trigger on facts and programs.
func On(f Fact, progs ...string) Trigger { return Trigger{Facts: f, Progs: progs} }

// OrText adds words of the command line to a trigger.
func (t Trigger) OrText(words ...string) Trigger {
	t.Text = append(t.Text[:len(t.Text):len(t.Text)], words...)
	return t
}

// OrWords adds words of the commands' arguments to a trigger (Words).
func (t Trigger) OrWords(words ...string) Trigger {
	t.Words = append(t.Words[:len(t.Words):len(t.Words)], words...)
	return t
}

// Any is the trigger of a rule that must see every call of its tools, and
// why (it reads the whole line's text, every command's words, or a table
// of programs too long to index).
func Any(why string) Trigger { return Trigger{AnyWhy: why} }

// declared reports whether the trigger says anything.
func (t Trigger) declared() bool {
	return t.AnyWhy != "" || t.Facts != 0 || len(t.Progs) > 0 || len(t.Text) > 0 || len(t.Words) > 0
}

// shape is the call's cheap facts, read once per call.
type shape struct {
	facts   Fact
	touched int8 // FactTouch, read lazily: 0 not read, 1 no, 2 yes
}

func shapeOf(f *Facts) shape {
	var s Fact
	if f.Tool != "Bash" && f.Tool != "PowerShell" {
		s |= FactNotShell
	}
	home := f.Home
	for i := range f.Paths {
		p := &f.Paths[i]
		s |= FactPath
		if p.Op != OpRead {
			s |= FactChange
		}
		if p.Op == OpWrite || p.Op == OpDelete {
			s |= FactWrite
		}
		if homeDot(p.Path, home) {
			s |= FactHomeDot
		}
		if under(p.Path, "/etc") || under(p.Path, "/private/etc") {
			s |= FactEtc
		}
	}
	for i := range f.Commands {
		c := &f.Commands[i]
		if c.Payload != "" {
			s |= FactPayload
		}
		if c.FeedUnknown {
			s |= FactFeedUnknown
		}
		if c.Feed != "" {
			s |= FactFeed
		}
		if interpLike(c.Name) {
			s |= FactInterp
		}
		if len(c.Upstream) > 0 {
			s |= FactPipe
		}
		if len(c.Wrappers) > 0 {
			s |= FactWrapped
		}
		if oddName(c) {
			s |= FactOddName
		}
		if strings.HasSuffix(c.Name, "grep") {
			s |= FactGrepName
		}
		if strings.IndexByte(c.Raw, '/') >= 0 || psName(c.Name) {
			s |= FactScriptPath
		}
		switch c.Effect {
		case callfacts.EffectDelete:
			s |= FactDeleteEffect
		case callfacts.EffectWrite:
			s |= FactWriteEffect
		}
	}
	if len(f.Redirects) > 0 {
		s |= FactRedirect
	}
	if len(f.Derivation) > 0 {
		s |= FactDerivation
	}
	if f.Truncated {
		s |= FactTruncated
	}
	return shape{facts: s}
}

// writeLower writes strings.ToLower(a) and a NUL to b, an ASCII a
// without a string of its own.
func writeLower(b *strings.Builder, a string) {
	for i := 0; i < len(a); i++ {
		if a[i] >= 0x80 {
			b.WriteString(strings.ToLower(a))
			b.WriteByte(0)
			return
		}
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	b.WriteByte(0)
}

// psName: name is PowerShell's, in any case (psScriptRun).
func psName(name string) bool {
	for _, n := range [...]string{"pwsh", "pwsh.exe", "powershell", "powershell.exe"} {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

// oddName: c's program is named by a glob or a variable (FactOddName),
// what core.indirect:unknown-command asks first of every command.
func oddName(c *Cmd) bool {
	return strings.HasPrefix(c.Name, "$") || strings.HasPrefix(c.Raw, "$") || callfacts.GlobLike(c.Name)
}

// interpLike: name runs code it is given: a shell, an interpreter or a
// language runtime (the sets the rules test: callfacts.IsShell,
// callfacts.IsInterpreter, isShellOrInterp's, runtimes).
func interpLike(name string) bool {
	return callfacts.IsShell(name) || callfacts.IsInterpreter(name) || isShellOrInterp(name)
}

// homeDot reports whether p is home/.NAME or lies under it: every
// credentials directory the path rules name (.ssh, .aws, .config/gcloud…)
// is such a path, and so are the rules' dot-files.
func homeDot(p, home string) bool {
	if home == "" {
		return false
	}
	if home == "/" {
		return strings.HasPrefix(p, "/.")
	}
	return len(p) > len(home)+1 && p[len(home)] == '/' && p[len(home)+1] == '.' && strings.HasPrefix(p, home)
}

// fires reports whether a rule with trigger t can fire on the call.
func (t *Trigger) fires(s *shape, e *Env) bool {
	if t.AnyWhy != "" || t.Facts&s.facts != 0 {
		return true
	}
	if t.Facts&FactTouch != 0 && t.zones != 0 {
		if t.zones&e.touchZones() != 0 {
			return true
		}
	} else if t.Facts&FactTouch != 0 {
		if s.touched == 0 {
			s.touched = 1
			if len(e.Touches()) > 0 {
				s.touched = 2
			}
		}
		if s.touched == 2 {
			return true
		}
	}
	if t.progs != nil {
		for i := range e.F.Commands {
			if t.progs(e.F.Commands[i].Name) {
				return true
			}
		}
	}
	for _, w := range t.Text {
		if strings.Contains(e.F.Command, w) {
			return true
		}
	}
	for _, w := range t.Words {
		if strings.Contains(e.argWords(), w) {
			return true
		}
	}
	return false
}

// argWords is every argument of the call's commands (Args, then Pos),
// lowered with strings.ToLower as the rules lower them, each followed
// by a NUL (no word holds one, so none is found across two arguments):
// read once per call, and only when a rule with Words is not already
// selected.
func (e *Env) argWords() string {
	if !e.argsRead {
		n := 0
		for i := range e.F.Commands {
			c := &e.F.Commands[i]
			for _, a := range c.Args {
				n += len(a) + 1
			}
			for _, a := range c.Pos {
				n += len(a) + 1
			}
		}
		var b strings.Builder
		b.Grow(n)
		for i := range e.F.Commands {
			c := &e.F.Commands[i]
			for _, a := range c.Args {
				writeLower(&b, a)
			}
			for _, a := range c.Pos {
				writeLower(&b, a)
			}
		}
		e.args, e.argsRead = b.String(), true
	}
	return e.args
}
