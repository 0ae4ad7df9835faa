package task

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A task may carry its own completion criteria and its own allowed and
// denied operations; the tmux agent runner (internal/agent) checks the
// criteria when the agent stops and writes the operations into the
// worktree's .warden/task.json, where the agent policy pack
// (internal/policy) reads them for this task's hooks only.

// AllowOps are the operations every agent is denied unless its task
// allows them (the agent pack's git rules).
var AllowOps = []string{"push", "fetch", "pull", "checkout", "rebase", "merge", "worktree-remove"}

// DenyOps are operations agents may run unless their task denies them:
// network (commands and tools that reach the network), commit (git
// commit: the user commits) and write (any file change outside the
// temporary directory: a read-only task).
var DenyOps = []string{"network", "commit", "write"}

// Limits on a task's criteria.
const (
	MaxCriteria      = 20
	MaxCriterionSize = 2000
)

// checkRules validates a task's criteria and operations; the error names
// the value and the fix.
func (t *Task) checkRules() error {
	if len(t.Criteria) > MaxCriteria {
		return fmt.Errorf("%d criteria; the limit is %d", len(t.Criteria), MaxCriteria)
	}
	for _, c := range t.Criteria {
		c = strings.TrimSpace(c)
		switch {
		case c == "":
			return fmt.Errorf("a criterion is empty; give committed, clean, run:CMD or a sentence for the judge")
		case len(c) > MaxCriterionSize || !utf8.ValidString(c):
			return fmt.Errorf("criterion %.40q… is too long or not UTF-8 (limit %d bytes)", c, MaxCriterionSize)
		case strings.HasPrefix(c, "run:") && strings.TrimSpace(strings.TrimPrefix(c, "run:")) == "":
			return fmt.Errorf("criterion %q names no command; write run:CMD, e.g. run:go test ./...", c)
		}
	}
	for _, op := range t.Allow {
		if !slices.Contains(AllowOps, op) {
			if slices.Contains(DenyOps, op) {
				return fmt.Errorf("allow %q: agents may %s already; only %s can be allowed", op, op, strings.Join(AllowOps, ", "))
			}
			return fmt.Errorf("allow %q is not an operation; use one of %s", op, strings.Join(AllowOps, ", "))
		}
	}
	for _, op := range t.Deny {
		if !slices.Contains(DenyOps, op) {
			if slices.Contains(AllowOps, op) {
				return fmt.Errorf("deny %q: agents are denied %s already unless the task allows it; leave it out", op, op)
			}
			return fmt.Errorf("deny %q is not an operation; use one of %s", op, strings.Join(DenyOps, ", "))
		}
	}
	return nil
}

// HasRules reports whether the task carries criteria or operations of its
// own (runners without a worktree cannot enforce them).
func (t *Task) HasRules() bool { return len(t.Criteria)+len(t.Allow)+len(t.Deny) > 0 }

// RulesColumns encodes the criteria and operations as the stores keep
// them: three JSON arrays (never null).
func (t *Task) RulesColumns() (criteria, allow, deny string) {
	enc := func(v []string) string {
		if len(v) == 0 {
			return "[]"
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	return enc(t.Criteria), enc(t.Allow), enc(t.Deny)
}

// SetRulesColumns decodes what RulesColumns made.
func (t *Task) SetRulesColumns(criteria, allow, deny string) error {
	for _, c := range []struct {
		name string
		s    string
		to   *[]string
	}{{"criteria", criteria, &t.Criteria}, {"allow_ops", allow, &t.Allow}, {"deny_ops", deny, &t.Deny}} {
		*c.to = nil
		if c.s == "" || c.s == "[]" {
			continue
		}
		if err := json.Unmarshal([]byte(c.s), c.to); err != nil {
			return fmt.Errorf("task %s: column %s: %w", t.ID, c.name, err)
		}
	}
	return nil
}

// SameRules reports whether o carries the same criteria and operations:
// an idempotency key reused with other rules names a different task.
func (t *Task) SameRules(o *Task) bool {
	return slices.Equal(t.Criteria, o.Criteria) && slices.Equal(t.Allow, o.Allow) && slices.Equal(t.Deny, o.Deny)
}

// Profiles are named sets of operations, for a task added with a profile
// instead of (or besides) listing them: what it stands for is stored.
var Profiles = map[string]struct{ Allow, Deny []string }{
	"read-only": {Deny: []string{"write", "commit"}},            // reviews, research: change nothing
	"offline":   {Deny: []string{"network"}},                    // work only with what is here
	"sealed":    {Deny: []string{"write", "commit", "network"}}, // both
	"publish":   {Allow: []string{"push"}},                      // may push its branch
}

// WithProfile adds the operations of profile name ("" = none) to the
// task's own, without duplicates.
func (t *Task) WithProfile(name string) error {
	if name == "" {
		return nil
	}
	p, ok := Profiles[name]
	if !ok {
		names := make([]string, 0, len(Profiles))
		for n := range Profiles {
			names = append(names, n)
		}
		slices.Sort(names)
		return fmt.Errorf("profile %q is unknown; use one of %s (or --allow/--deny)", name, strings.Join(names, ", "))
	}
	for _, op := range p.Allow {
		if !slices.Contains(t.Allow, op) {
			t.Allow = append(t.Allow, op)
		}
	}
	for _, op := range p.Deny {
		if !slices.Contains(t.Deny, op) {
			t.Deny = append(t.Deny, op)
		}
	}
	return nil
}
