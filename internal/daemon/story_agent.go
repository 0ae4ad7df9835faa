package daemon

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/paths"
	"github.com/warden-dev/warden/internal/store"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/task"
	"github.com/warden-dev/warden/internal/usage"
)

// AgentStory is the agent's part of `warden task show`: its state history
// from its hooks, its branch and what the branch holds, its archive, and
// the tokens and cost of the sessions its hooks recorded.
type AgentStory struct {
	Agent    *store.Agent       `json:"agent"`
	History  []store.AgentState `json:"history"`
	Stat     *agent.Stat        `json:"diff,omitempty"`
	Sessions []string           `json:"sessions,omitempty"`
	Usage    *usage.Totals      `json:"usage,omitempty"`
	// Always lists the calls a person approved always for this task.
	Always []task.Allowance `json:"always,omitempty"`
}

// loadAgentStory reads it from the store on this machine (the CLI runs
// where the daemon does); nil when the task had no tmux agent.
func loadAgentStory(ctx context.Context, taskID string) (*AgentStory, error) {
	if _, err := os.Stat(paths.DB()); err != nil {
		return nil, nil
	}
	st, err := sqlite.Open(ctx, paths.DB())
	if err != nil {
		return nil, err
	}
	defer st.Close()
	m := agent.NewManager(agent.Config{}, st)
	s, err := m.Status(ctx, taskID)
	if err != nil || s == nil {
		return nil, err
	}
	as := &AgentStory{Agent: s.Agent, History: s.History}
	as.Always, _ = m.Allowances(ctx, taskID)
	if stat, err := agent.BranchStat(ctx, s.Project, s.BaseCommit, s.Branch); err == nil {
		as.Stat = &stat
	}
	evs, err := st.Events(ctx, store.Filter{TaskID: taskID})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, e := range evs {
		if e.SessionID != "" && !seen[e.SessionID] {
			seen[e.SessionID] = true
			as.Sessions = append(as.Sessions, e.SessionID)
		}
	}
	if len(seen) > 0 {
		as.Usage = sessionUsage(ctx, st, seen)
	}
	return as, nil
}

// sessionUsage totals the transcripts of the given sessions (subagents'
// included); nil when none is found.
func sessionUsage(ctx context.Context, st usage.CacheStore, sessions map[string]bool) *usage.Totals {
	files, err := usage.DiscoverStore(ctx, st, usage.ConfigDirs())
	if err != nil {
		return nil
	}
	var mine []usage.File
	for _, f := range files {
		if sessions[f.Session] {
			mine = append(mine, f)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	d, err := usage.Load(ctx, usage.Options{Files: mine})
	if err != nil {
		return nil
	}
	t := usage.Sessions(d, d.Select(usage.Filter{})).Totals
	return &t
}

// writeAgentStory prints the agent story after the task's own.
func writeAgentStory(w io.Writer, as *AgentStory) {
	if as == nil {
		return
	}
	a := as.Agent
	fmt.Fprintf(w, "\nagent (tmux window %s:%s, %s):\n", agent.SessionName, a.Window, a.Mode)
	fmt.Fprintf(w, "  branch:   %s from %s@%s\n", a.Branch, a.Base, short(a.BaseCommit))
	if as.Stat != nil {
		fmt.Fprintf(w, "  diff:     %s\n", as.Stat)
	}
	if a.Cleaned.IsZero() {
		fmt.Fprintf(w, "  worktree: %s\n", a.Worktree)
	} else {
		fmt.Fprintf(w, "  worktree: removed %s (the branch stays)\n", a.Cleaned.Local().Format("15:04:05"))
	}
	fmt.Fprintf(w, "  permissions: %s\n", agent.PermissionNote(a.PermissionMode, a.Mode))
	if p := agent.Pending(a); p != nil {
		fmt.Fprintf(w, "  waiting on: %s since %s (answer in its window: warden agent attach %s)\n", p, p.At.Local().Format("15:04:05"), a.TaskID)
	}
	for _, al := range as.Always {
		fmt.Fprintf(w, "  always allowed: %s `%s` (approved always %s)\n", al.Tool, al.Call, al.At.Local().Format("15:04:05"))
	}
	if a.Archive != "" {
		fmt.Fprintf(w, "  archive:  %s (uncommitted work)\n", a.Archive)
	}
	if len(a.Criteria) > 0 {
		fmt.Fprintf(w, "  criteria: %s\n", strings.Join(a.Criteria, ", "))
	}
	if u := as.Usage; u != nil {
		fmt.Fprintf(w, "  usage:    %d session(s), %d tokens (in %d, out %d, cache %d/%d), $%.4f\n", len(as.Sessions),
			u.TotalTokens, u.InputTokens, u.OutputTokens, u.CacheCreationTokens, u.CacheReadTokens, u.TotalCost)
	} else if len(as.Sessions) > 0 {
		fmt.Fprintf(w, "  usage:    %d session(s), no transcript found\n", len(as.Sessions))
	}
	if a.Tail != "" {
		fmt.Fprintln(w, "  last lines of its window:")
		for _, l := range strings.Split(a.Tail, "\n") {
			fmt.Fprintf(w, "    | %s\n", l)
		}
	}
	if next := agent.NextStep(a); next != "" {
		fmt.Fprintf(w, "  next:     %s\n", next)
	}
	fmt.Fprintln(w, "  states (from its hooks):")
	h := append([]store.AgentState(nil), as.History...)
	sort.SliceStable(h, func(i, j int) bool { return h[i].At.Before(h[j].At) })
	var prev time.Time
	for _, s := range h {
		took := ""
		if !prev.IsZero() {
			took = "+" + s.At.Sub(prev).Round(100*time.Millisecond).String()
		}
		prev = s.At
		fmt.Fprintf(w, "    %s %-8s %-9s %s\n", s.At.Local().Format("15:04:05"), took, s.State, s.Reason)
	}
}

func short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}
