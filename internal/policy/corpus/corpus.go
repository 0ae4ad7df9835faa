// Package corpus is warden's own corpus of risky commands and their
// harmless look-alikes, one file per class of cause (text fed into shells,
// indirection, xargs, wrappers, interpreters, containers, destructive
// tools, self-protection, history, external systems, obfuscation,
// secrets, false flags). `warden policy test --report` and the package's
// test run it against the built-in rules and print recall per class.
//
// A line is "<expect> <command>": expect is flag (deny or ask), deny,
// ask, audit (recorded at least), allow (neither deny nor ask) or quiet
// (nothing at all). In a command ⏎ stands for a newline and ⇥ for a tab,
// so here-documents and makefiles fit on one line. # starts a comment;
// "@class NAME" puts the lines after it in that class (heldout/ holds a
// set written before the rules it measured were changed).
package corpus

import (
	"context"
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/warden-dev/warden/internal/policy"
)

//go:embed *.txt heldout/*.txt
var files embed.FS

// Case is one corpus line.
type Case struct {
	Class   string `json:"class"`
	Source  string `json:"source"` // file:line
	Expect  string `json:"expect"`
	Command string `json:"command"`
	// Labels are what a JSON-lines set says of the case (LabelKeys).
	Labels map[string]string `json:"labels,omitempty"`
}

// Risky reports whether the case is a risky command (counts for recall)
// rather than a look-alike (counts for false flags).
func (c Case) Risky() bool { return c.Expect != "allow" && c.Expect != "quiet" }

var expects = map[string]bool{"flag": true, "deny": true, "ask": true, "audit": true, "allow": true, "quiet": true}

// Load parses every corpus file: the class files, then the held-out set
// (heldout/: written before the rules it measures were changed; its
// lines join their classes).
func Load() ([]Case, error) {
	var out []Case
	for _, dir := range []string{".", "heldout"} {
		names, err := files.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, f := range names {
			if f.IsDir() || path.Ext(f.Name()) != ".txt" {
				continue
			}
			name := path.Join(dir, f.Name())
			b, err := files.ReadFile(name)
			if err != nil {
				return nil, err
			}
			cs, err := Parse(name, b)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
	}
	return out, nil
}

// Parse reads one corpus file. Its lines are in the class named by the
// file (destroy.txt: destroy) until an "@class NAME" line names another,
// so a set written in one file (a held-out set) keeps its classes.
func Parse(name string, b []byte) ([]Case, error) {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	class := strings.TrimSuffix(base, path.Ext(base))
	var out []Case
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if c, ok := strings.CutPrefix(line, "@class "); ok && strings.TrimSpace(c) != "" {
			class = strings.TrimSpace(c)
			continue
		}
		exp, cmd, ok := strings.Cut(line, " ")
		if !ok || !expects[exp] {
			return nil, fmt.Errorf("%s:%d: a line is \"<flag|deny|ask|audit|allow|quiet> <command>\" or \"@class NAME\", got %q", name, i+1, line)
		}
		cmd = strings.NewReplacer("⏎", "\n", "⇥", "\t").Replace(cmd)
		out = append(out, Case{Class: class, Source: fmt.Sprintf("%s:%d", name, i+1), Expect: exp, Command: cmd})
	}
	return out, nil
}

// Result is one case's outcome.
type Result struct {
	Case
	Got  string `json:"got"`
	Rule string `json:"rule,omitempty"`
	OK   bool   `json:"ok"`
	// Effect and Zone are what the case does, derived from its facts
	// (kindOf): the report's rows per effect and per zone.
	Effect string `json:"effect"`
	Zone   string `json:"zone"`
}

// Holds reports whether decision meets expect.
func Holds(expect, decision string) bool {
	switch expect {
	case "flag":
		return decision == "deny" || decision == "ask"
	case "deny", "ask", "quiet":
		return decision == expect || expect == "quiet" && decision == "allow"
	case "audit":
		return decision != "allow"
	case "allow":
		return decision != "deny" && decision != "ask"
	}
	return false
}

// Run evaluates the cases in the fixed test environment (policy.TestEngine:
// home /home/dev, project /home/dev/proj, a dirty tree on main).
func Run(e *policy.Engine, cases []Case) []Result {
	out := make([]Result, 0, len(cases))
	for _, c := range cases {
		r := Result{Case: c, Got: "allow"}
		call, err := policy.CaseCall(c.Command, policy.TestHome, policy.TestProject)
		if err != nil {
			r.Got = err.Error()
			out = append(out, r)
			continue
		}
		f := policy.Normalize(call)
		r.Effect, r.Zone = kindOf(f)
		res := e.Evaluate(context.Background(), f)
		if res.Decision != "" {
			r.Got = string(res.Decision)
		}
		if top := res.Top(); top != nil {
			r.Rule = top.ID
		}
		r.OK = Holds(c.Expect, r.Got)
		out = append(out, r)
	}
	return out
}

// ClassStats are one class's numbers.
type ClassStats struct {
	Class       string  `json:"class"`
	Risky       int     `json:"risky"`
	Caught      int     `json:"caught"`
	Recall      float64 `json:"recall"`
	LookAlikes  int     `json:"look_alikes"`
	FalseFlags  int     `json:"false_flags"`
	WrongDetail int     `json:"wrong"` // cases whose expectation failed
}

// Report sums results per class, sorted by class, with a "total" row last.
func Report(rs []Result) []ClassStats {
	return ReportBy(rs, func(r Result) string { return r.Class })
}

// ReportBy sums results per group (a class, an effect, a zone), sorted by
// group, with a "total" row last; the Class field holds the group.
func ReportBy(rs []Result, group func(Result) string) []ClassStats {
	by := map[string]*ClassStats{}
	total := &ClassStats{Class: "total"}
	for _, r := range rs {
		g := group(r)
		s := by[g]
		if s == nil {
			s = &ClassStats{Class: g}
			by[g] = s
		}
		for _, t := range []*ClassStats{s, total} {
			if r.Risky() {
				t.Risky++
				if r.OK {
					t.Caught++
				}
			} else {
				t.LookAlikes++
				if !r.OK {
					t.FalseFlags++
				}
			}
			if !r.OK {
				t.WrongDetail++
			}
		}
	}
	var out []ClassStats
	for _, s := range by {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Class < out[j].Class })
	out = append(out, *total)
	for i := range out {
		if out[i].Risky > 0 {
			out[i].Recall = float64(out[i].Caught) / float64(out[i].Risky)
		}
	}
	return out
}
