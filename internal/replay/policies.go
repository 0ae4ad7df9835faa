package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/warden-dev/warden/internal/config"
	"github.com/warden-dev/warden/internal/policy"
)

// ctxNoGit is the context replay evaluates in: its engines never run git
// (see noGit), so nothing waits on it.
var ctxNoGit = context.Background()

// Policy is one set of config and rules replay judges calls by: the
// user's as they are now, or a candidate. A call is judged by the engine
// its project would build — the user's config and rules plus the
// project's — made once per project.
type Policy struct {
	// Name says which it is in the report ("current", "candidate").
	Name string
	// UserConfig is the file read as the user's config
	// ($WARDEN_HOME/config.toml, or the candidate's --config).
	UserConfig string
	// WardenHome holds the user's rule files (rules/*.toml).
	WardenHome string
	// Extra are candidate rules: they join the user's and the project's,
	// and replace a rule of the same id.
	Extra []policy.Rule

	mu    sync.Mutex
	built map[string]*built
}

type built struct {
	eng   *policy.Engine
	cfg   *config.Config  // the effective config (the judges read it)
	rules map[string]bool // every policy rule id this engine knows, off ones too
	// modes are the rules' effective modes, defaults the modes they ship
	// with (or their file gives them).
	modes, defaults map[string]policy.Mode
	probs           []policy.Problem
}

// engine is the engine for calls in project, built on first use.
func (p *Policy) engine(project string) *built {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b := p.built[project]; b != nil {
		return b
	}
	if p.built == nil {
		p.built = map[string]*built{}
	}
	cfg, _ := config.Load(p.UserConfig, project)
	user, _, probs := policy.LoadUserRules(policy.RuleDirs(p.WardenHome, project))
	user = withExtra(user, p.Extra)
	eng := policy.New(policy.Builtin(), user, policy.OptionsFrom(cfg, p.WardenHome))
	noGit(eng)
	b := &built{eng: eng, cfg: cfg, rules: map[string]bool{}, modes: map[string]policy.Mode{}, defaults: map[string]policy.Mode{}, probs: probs}
	for _, pk := range policy.Builtin() {
		for _, r := range pk.Rules {
			b.rules[r.ID], b.defaults[r.ID] = true, r.Mode
		}
	}
	for _, r := range user {
		b.rules[r.ID], b.defaults[r.ID] = true, r.Mode
	}
	for _, r := range eng.Rules() {
		b.modes[r.ID] = r.Mode
	}
	p.built[project] = b
	return b
}

// Problems are the rule-file problems met while building engines (those
// rules were left out, as a hook leaves them out).
func (p *Policy) Problems() []policy.Problem {
	p.mu.Lock()
	defer p.mu.Unlock()
	seen := map[string]bool{}
	var out []policy.Problem
	for _, b := range p.built {
		for _, pr := range b.probs {
			if !seen[pr.String()] {
				seen[pr.String()] = true
				out = append(out, pr)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// noGit keeps replay free of side effects and of the present: `git
// status` may rewrite the index, and today's work tree says nothing about
// the one a call met. A rule that asks git gets "cannot tell", which
// makes it ask as it would when git fails in a hook — the same for both
// sides of a comparison.
func noGit(e *policy.Engine) {
	e.Git = func(context.Context, string) (bool, error) {
		return false, errors.New("replay does not run git")
	}
	e.GitBranch = func(context.Context, string) string { return "" }
}

func withExtra(user, extra []policy.Rule) []policy.Rule {
	if len(extra) == 0 {
		return user
	}
	replaced := map[string]bool{}
	for _, r := range extra {
		replaced[r.ID] = true
	}
	out := make([]policy.Rule, 0, len(user)+len(extra))
	for _, r := range user {
		if !replaced[r.ID] {
			out = append(out, r)
		}
	}
	return append(out, extra...)
}

// LoadRules reads candidate rule files: each path a rule file or a
// directory of them (*.toml). Any problem is an error: a candidate that
// does not load as written would be judged on less than the user meant.
func LoadRules(paths []string) ([]policy.Rule, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("--policy %s: %v", p, err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(p, "*.toml"))
		if len(m) == 0 {
			return nil, fmt.Errorf("--policy %s: no rule files (*.toml) in the directory", p)
		}
		sort.Strings(m)
		files = append(files, m...)
	}
	var rules []policy.Rule
	var msgs []string
	for _, f := range files {
		r, _, probs := policy.LoadRuleFile(f)
		for _, pr := range probs {
			msgs = append(msgs, pr.String())
		}
		rules = append(rules, r...)
	}
	if len(msgs) > 0 {
		return nil, fmt.Errorf("candidate rules do not load (fix them; `warden policy lint FILE` shows the same):\n  %s", strings.Join(msgs, "\n  "))
	}
	return rules, nil
}

// Outcome judges one call by the engine of its project.
func (p *Policy) Outcome(c policy.Call) Outcome {
	return Judge(p.engine(c.Project).eng, policy.Normalize(c))
}

// Knows reports whether rule is a policy rule for calls in project (a
// built-in rule, one of the user's or the project's): a recorded decision
// by anything else came from a gate, a judge or another handler.
func (p *Policy) Knows(project, rule string) bool {
	return p.engine(project).rules[rule]
}
