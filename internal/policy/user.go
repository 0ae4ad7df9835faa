package policy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// Matcher is a declarative user rule: every field that is set must match.
type Matcher struct {
	Tools    []string `toml:"tools"`
	Commands []string `toml:"commands"`   // a command with one of these names runs
	Flags    []string `toml:"flags"`      // …with one of these flags
	Args     string   `toml:"args_regex"` // …whose joined arguments match
	Paths    []string `toml:"paths"`      // a touched path matches one of these globs (** for any depth)
	PathOps  []string `toml:"path_ops"`   // …with one of these ops (read, write, delete, arg)
	Regex    string   `toml:"regex"`      // on the command, written content or prompt
}

// declRule is a Matcher with its regexps, compiled on first use.
type declRule struct {
	Matcher
	argsRE  *regexp.Regexp
	textRE  *regexp.Regexp
	globs   []*regexp.Regexp
	once    sync.Once
	compErr error
}

// ruleFile is the TOML shape of a user rule file.
type ruleFile struct {
	Rule []struct {
		ID          string   `toml:"id"`
		Description string   `toml:"description"`
		Mode        string   `toml:"mode"`
		Fail        string   `toml:"fail"`
		Events      []string `toml:"events"`
		Reason      string   `toml:"reason"`
		Expr        string   `toml:"expr"`
		Matcher
	} `toml:"rule"`
	Case []TestCase `toml:"case"`
}

// TestCase is one rule test: an input and the decision expected.
type TestCase struct {
	// Command is a Bash command; Call a whole PreToolUse payload (JSON).
	Command string `toml:"command" json:"command,omitempty"`
	Call    string `toml:"call" json:"call,omitempty"`
	Expect  string `toml:"expect" json:"expect"`
	// Rule, if set, must be the rule that decides.
	Rule   string `toml:"rule" json:"rule,omitempty"`
	Source string `toml:"-" json:"source,omitempty"`
}

type exprRule struct {
	src  string
	line int // of `expr =` in its file
	once sync.Once
	prog *vm.Program
	err  error
}

var idRE = re(`^[a-z0-9]+(-[a-z0-9]+)*\.[a-z0-9]+(-[a-z0-9]+)*:[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidID reports whether id has the form <category>.<pack>:<rule>.
func ValidID(id string) bool { return idRE.MatchString(id) }

// Problem is something wrong in a rule file, with its place.
type Problem struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	Msg  string `json:"message"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return p.File + ": " + p.Msg
}

// RuleDirs are where user rule files live: $WARDEN_HOME/rules and
// <project>/.warden/rules (*.toml). A project file may only add rules:
// every mode tightens, and built-in ids cannot be redefined.
func RuleDirs(wardenHome, project string) []string {
	var out []string
	if wardenHome != "" {
		out = append(out, filepath.Join(wardenHome, "rules"))
	}
	if project != "" {
		out = append(out, filepath.Join(project, ".warden", "rules"))
	}
	return out
}

// LoadUserRules reads every *.toml in dirs. Rules with problems are left out
// and reported; a missing directory is no problem.
func LoadUserRules(dirs []string) ([]Rule, []TestCase, []Problem) {
	var files []string
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, "*.toml"))
		sort.Strings(m)
		files = append(files, m...)
	}
	var rules []Rule
	var cases []TestCase
	var probs []Problem
	for _, f := range files {
		r, c, p := LoadRuleFile(f)
		rules, cases, probs = append(rules, r...), append(cases, c...), append(probs, p...)
	}
	return rules, cases, probs
}

// LoadRuleFile parses one rule file.
func LoadRuleFile(file string) ([]Rule, []TestCase, []Problem) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, []Problem{{File: file, Msg: err.Error()}}
	}
	var rf ruleFile
	md, err := toml.Decode(string(b), &rf)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, nil, []Problem{{File: file, Line: pe.Position.Line, Msg: pe.Message}}
		}
		return nil, nil, []Problem{{File: file, Msg: err.Error()}}
	}
	text := string(b)
	var probs []Problem
	for _, k := range md.Undecoded() {
		probs = append(probs, Problem{File: file, Line: keyLine(text, k[len(k)-1], 0), Msg: fmt.Sprintf("unknown field %q", k.String())})
	}
	builtin := map[string]bool{}
	for _, p := range Builtin() {
		for _, r := range p.Rules {
			builtin[r.ID] = true
		}
	}
	var rules []Rule
	for i := range rf.Rule {
		u := &rf.Rule[i]
		line := nthLine(text, "[[rule]]", i)
		bad := func(msg string) { probs = append(probs, Problem{File: file, Line: line, Msg: msg}) }
		if !ValidID(u.ID) {
			bad(fmt.Sprintf("rule id %q must look like <category>.<pack>:<rule> in kebab-case", u.ID))
			continue
		}
		if builtin[u.ID] {
			bad(fmt.Sprintf("rule id %q is a built-in rule; set its mode with policy.modes instead", u.ID))
			continue
		}
		mode := Deny
		if u.Mode != "" {
			m, ok := ParseMode(u.Mode)
			if !ok || m == Off {
				bad(fmt.Sprintf("rule %s: mode %q must be deny, ask, warn or audit", u.ID, u.Mode))
				continue
			}
			mode = m
		}
		if u.Fail != "" && u.Fail != "closed" && u.Fail != "open" {
			bad(fmt.Sprintf("rule %s: fail must be \"closed\" or \"open\"", u.ID))
			continue
		}
		m := u.Matcher
		r := Rule{ID: u.ID, Desc: u.Description, Mode: mode, FailClosed: u.Fail == "closed",
			Events: u.Events, Tools: m.Tools, Source: fmt.Sprintf("%s:%d", file, line)}
		if len(m.Commands) > 0 && len(m.Tools) == 0 {
			r.Tools = []string{"Bash", "PowerShell"}
		}
		if len(m.Commands) > 0 {
			r.Cmds = m.Commands
		}
		if !m.empty() {
			r.decl = &declRule{Matcher: m}
		}
		if u.Expr != "" {
			r.expr = &exprRule{src: u.Expr, line: keyLine(text, "expr", line-1)}
		}
		if r.decl == nil && r.expr == nil {
			bad(fmt.Sprintf("rule %s has no matcher (tools, commands, paths, regex or expr)", u.ID))
			continue
		}
		if u.Reason != "" {
			r.Desc = u.Reason
		}
		rules = append(rules, r)
	}
	for i := range rf.Case {
		rf.Case[i].Source = fmt.Sprintf("%s:%d", file, nthLine(text, "[[case]]", i))
	}
	return rules, rf.Case, probs
}

func (m *Matcher) empty() bool {
	return len(m.Tools) == 0 && len(m.Commands) == 0 && len(m.Flags) == 0 && m.Args == "" &&
		len(m.Paths) == 0 && len(m.PathOps) == 0 && m.Regex == ""
}

func (m *declRule) compile() error {
	m.once.Do(func() {
		var err error
		if m.Args != "" {
			if m.argsRE, err = regexp.Compile(m.Args); err != nil {
				m.compErr = fmt.Errorf("args_regex: %v", err)
				return
			}
		}
		if m.Regex != "" {
			if m.textRE, err = regexp.Compile(m.Regex); err != nil {
				m.compErr = fmt.Errorf("regex: %v", err)
				return
			}
		}
		for _, g := range m.Paths {
			re, err := globRE(g)
			if err != nil {
				m.compErr = fmt.Errorf("paths: %v", err)
				return
			}
			m.globs = append(m.globs, re)
		}
	})
	return m.compErr
}

// globRE turns a path glob into a regexp: ** any depth, * and ? within one
// segment; ~/ is the home directory (matched against normalized paths
// whose home prefix is replaced by ~).
func globRE(g string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch c := g[i]; c {
		case '*':
			if i+1 < len(g) && g[i+1] == '*' {
				b.WriteString(".*")
				i++
				if i+1 < len(g) && g[i+1] == '/' {
					i++
					b.WriteString("/?")
				}
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// matchUser evaluates a user rule: the declarative matcher, then the
// expression; both must hold when both are set.
func (r *Rule) matchUser(e *Env) string {
	if r.decl != nil {
		if err := r.decl.compile(); err != nil {
			e.Err = err
			return ""
		}
		if !r.decl.match(e.F) {
			return ""
		}
	}
	if r.expr != nil {
		e.F.DecodeInput() // an expression may read input, left undecoded for a shell call
		ok, err := r.expr.eval(e.F)
		if err != nil {
			e.Err = err
			return ""
		}
		if !ok {
			return ""
		}
	}
	if r.Desc != "" {
		return r.Desc
	}
	return "matched user rule " + r.ID
}

func (m *declRule) match(f *Facts) bool {
	if len(m.Tools) > 0 && !contains(m.Tools, f.Tool) {
		return false
	}
	if len(m.Commands) > 0 {
		found := false
		for _, c := range f.Cmds(m.Commands...) {
			if len(m.Flags) > 0 && !c.Has(m.Flags...) {
				continue
			}
			if m.argsRE != nil && !m.argsRE.MatchString(strings.Join(c.Args, " ")) {
				continue
			}
			found = true
			break
		}
		if !found {
			return false
		}
	}
	if len(m.globs) > 0 || len(m.PathOps) > 0 {
		found := false
		for _, p := range f.Paths {
			if len(m.PathOps) > 0 && !contains(m.PathOps, p.Op) {
				continue
			}
			if len(m.globs) > 0 && !anyGlob(m.globs, p.Path, f.Home) {
				continue
			}
			found = true
			break
		}
		if !found {
			return false
		}
	}
	if m.textRE != nil {
		if !m.textRE.MatchString(f.Command) && !m.textRE.MatchString(f.Content) && !m.textRE.MatchString(f.Prompt) {
			return false
		}
	}
	return true
}

func anyGlob(globs []*regexp.Regexp, p, home string) bool {
	alt := p
	if home != "" && under(p, home) {
		alt = "~" + p[len(home):]
	}
	for _, g := range globs {
		if g.MatchString(p) || g.MatchString(alt) {
			return true
		}
	}
	return false
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// compileExpr type-checks an expression against the facts.
func compileExpr(src string) (*vm.Program, error) {
	return expr.Compile(src, expr.Env(Facts{}), expr.AsBool())
}

func (x *exprRule) eval(f *Facts) (bool, error) {
	x.once.Do(func() { x.prog, x.err = compileExpr(x.src) })
	if x.err != nil {
		return false, x.err
	}
	out, err := expr.Run(x.prog, f)
	if err != nil {
		return false, err
	}
	b, _ := out.(bool)
	return b, nil
}

// neverTrue reports whether a compiled expression folded to false.
func neverTrue(p *vm.Program) bool {
	b, ok := p.Node().(*ast.BoolNode)
	return ok && !b.Value
}

// nthLine returns the 1-based line of the i-th occurrence of marker.
func nthLine(text, marker string, i int) int {
	off := 0
	for n := 0; ; n++ {
		j := strings.Index(text[off:], marker)
		if j < 0 {
			return 0
		}
		if n == i {
			return strings.Count(text[:off+j], "\n") + 1
		}
		off += j + len(marker)
	}
}

func keyLine(text, key string, from int) int {
	for i, l := range strings.Split(text, "\n") {
		if i >= from && strings.HasPrefix(strings.TrimSpace(l), key) {
			return i + 1
		}
	}
	return 0
}
