// Package loop is the iteration loop (SPEC §4, SaneProcess's saneloop): a
// task with acceptance criteria, checked at every Stop of a session in the
// project. Each Stop counts an iteration; while a criterion is unmet the
// stop is blocked with what is still missing, and the loop ends when every
// criterion holds or at the maximum, with a summary.
//
// The loop lives in the store (a setting per project), not in a file in the
// project: Claude can edit the project, and warden's self-protection keeps
// it away from the store.
package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Status of a loop.
const (
	Active   = "active"
	Done     = "done"    // every criterion held
	MaxedOut = "max"     // the maximum was reached first
	Stopped  = "stopped" // the user stopped it
)

// DefaultMax is the iteration cap when none is given.
const DefaultMax = 20

// Loop is one project's iteration loop.
type Loop struct {
	Project   string    `json:"project"`
	Task      string    `json:"task"`
	Criteria  []string  `json:"criteria,omitempty"`
	Checks    []string  `json:"checks,omitempty"`
	Max       int       `json:"max"`
	Iteration int       `json:"iteration"`
	Status    string    `json:"status"`
	Started   time.Time `json:"started"`
	Updated   time.Time `json:"updated"`
	// History is one entry per counted Stop, oldest first (the last 50).
	History []Iteration `json:"history,omitempty"`
}

// Iteration is what one Stop found.
type Iteration struct {
	N       int       `json:"n"`
	Time    time.Time `json:"time"`
	Session string    `json:"session,omitempty"`
	// Missing lists what did not hold (empty: all held).
	Missing []string `json:"missing,omitempty"`
}

// historyCap bounds the stored history.
const historyCap = 50

// Settings is the part of the store a loop needs (store.Store has it).
type Settings interface {
	Setting(ctx context.Context, key string) (string, bool, error)
	SetSetting(ctx context.Context, key, value string) error
}

// Key is the settings key of a project's loop.
// The path is resolved (symlinks), so the CLI's working directory and the
// hook's project directory name the same loop.
func Key(project string) string { return "loop:" + Canonical(project) }

// Canonical is the absolute, symlink-resolved form of a project path.
func Canonical(project string) string {
	if abs, err := filepath.Abs(project); err == nil {
		project = abs
	}
	if r, err := filepath.EvalSymlinks(project); err == nil {
		project = r
	}
	return filepath.Clean(project)
}

// Load reads a project's loop; nil when there is none.
func Load(ctx context.Context, s Settings, project string) (*Loop, error) {
	v, ok, err := s.Setting(ctx, Key(project))
	if err != nil || !ok || v == "" {
		return nil, err
	}
	var l Loop
	if err := json.Unmarshal([]byte(v), &l); err != nil {
		return nil, fmt.Errorf("loop of %s: unreadable record in the store (%v); start a new one with `warden loop start`", project, err)
	}
	return &l, nil
}

// Save writes the loop.
func Save(ctx context.Context, s Settings, l *Loop) error {
	l.Updated = time.Now().UTC()
	if len(l.History) > historyCap {
		l.History = l.History[len(l.History)-historyCap:]
	}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	return s.SetSetting(ctx, Key(l.Project), string(b))
}

// New validates the arguments of `warden loop start` and returns the loop.
func New(project, task string, criteria, checks []string, max int, now time.Time) (*Loop, error) {
	task = strings.TrimSpace(task)
	if task == "" {
		return nil, fmt.Errorf(`the task is empty: warden loop start "what to do" --criteria "…"`)
	}
	criteria = nonEmpty(criteria)
	checks = nonEmpty(checks)
	if len(criteria) == 0 && len(checks) == 0 {
		return nil, fmt.Errorf(`a loop needs at least one --criteria or --check (a command that exits 0 when the work is done)`)
	}
	if max < 1 || max > 1000 {
		return nil, fmt.Errorf("--max %d: must be 1..1000 iterations", max)
	}
	return &Loop{Project: Canonical(project), Task: task, Criteria: criteria, Checks: checks, Max: max,
		Status: Active, Started: now.UTC(), Updated: now.UTC()}, nil
}

func nonEmpty(in []string) []string {
	var out []string
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Count records one Stop's findings and moves the status: Done when
// nothing is missing, MaxedOut when the maximum is reached with something
// missing. It returns the new status.
func (l *Loop) Count(session string, missing []string, now time.Time) string {
	l.Iteration++
	l.History = append(l.History, Iteration{N: l.Iteration, Time: now.UTC(), Session: session, Missing: missing})
	switch {
	case len(missing) == 0:
		l.Status = Done
	case l.Iteration >= l.Max:
		l.Status = MaxedOut
	}
	return l.Status
}

// BlockReason is what Claude reads when a stop is blocked.
func (l *Loop) BlockReason(missing []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "warden loop: iteration %d of %d for the task %q. The acceptance criteria do not hold yet, so keep working. Still missing:\n",
		l.Iteration, l.Max, l.Task)
	for _, m := range missing {
		fmt.Fprintf(&b, "- %s\n", m)
	}
	b.WriteString("Fix what is missing, then stop again; the criteria are checked at every stop.")
	return b.String()
}

// Summary is the closing notice for the user (and `warden loop status`).
func (l *Loop) Summary() string {
	var b strings.Builder
	switch l.Status {
	case Done:
		fmt.Fprintf(&b, "warden loop done: %q met its criteria after %d iteration(s)", l.Task, l.Iteration)
	case MaxedOut:
		fmt.Fprintf(&b, "warden loop ended at its maximum of %d iterations: %q is NOT done", l.Max, l.Task)
	case Stopped:
		fmt.Fprintf(&b, "warden loop stopped by the user after %d iteration(s): %q", l.Iteration, l.Task)
	default:
		fmt.Fprintf(&b, "warden loop active: %q, iteration %d of %d", l.Task, l.Iteration, l.Max)
	}
	if n := len(l.History); n > 0 && len(l.History[n-1].Missing) > 0 {
		b.WriteString("; still missing at the last check: ")
		b.WriteString(strings.Join(firstLines(l.History[n-1].Missing), "; "))
	}
	b.WriteString(".")
	return b.String()
}

// firstLines keeps the first line of each entry (check output is long).
func firstLines(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i], _, _ = strings.Cut(s, "\n")
	}
	return out
}

// DoneMarker is how Claude declares the criteria met when there is neither
// a check command nor a judge to verify them.
const DoneMarker = "LOOP-CRITERIA-MET"

// Declared reports whether Claude's final message declares the criteria
// met.
func Declared(lastMessage string) bool { return strings.Contains(lastMessage, DoneMarker) }

// Undeclared is what is missing when the criteria can only be declared.
func Undeclared(criteria []string) []string {
	out := make([]string, 0, len(criteria)+1)
	for _, c := range criteria {
		out = append(out, "criterion: "+c)
	}
	out = append(out, "no check command or judge verifies these: when each one holds, say so criterion by criterion and end your message with "+DoneMarker)
	return out
}
