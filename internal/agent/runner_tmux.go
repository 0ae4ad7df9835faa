package agent

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/warden-dev/warden/internal/task"
)

// TmuxRunnerName is the agent kind of tasks run by internal/agent: a git
// worktree and a tmux window each, state from the agent's hooks.
const TmuxRunnerName = "tmux"

// TmuxRunner is the scheduler's Runner over a Manager. One poll
// loop, alive while it watches agents, brings their states up to date from
// their hook events, mirrors each state into the task (AgentState), and
// ends a task's Run once its agent reached a final state and was cleaned
// up — which frees the scheduler's slot.
type TmuxRunner struct {
	m        *Manager
	tasks    task.Store
	criteria []string
	interval time.Duration
	log      *slog.Logger
	// waiting, when set, is told of each agent that starts waiting for a
	// person (the notices: it returns at once).
	waiting func(ctx context.Context, id, reason string)

	mu      sync.Mutex
	runs    map[string]*tmuxRun
	polling bool
}

// NewTmuxRunner runs tasks as m's agents, mirroring their states into
// tasks; criteria are agent.criteria (added to each task's own); waiting,
// when set, is told of each agent that starts waiting for a person (it
// must return at once).
func NewTmuxRunner(m *Manager, tasks task.Store, criteria []string, log *slog.Logger, waiting func(ctx context.Context, id, reason string)) *TmuxRunner {
	return &TmuxRunner{m: m, tasks: tasks, criteria: criteria, interval: time.Second, log: log, waiting: waiting, runs: map[string]*tmuxRun{}}
}

func (r *TmuxRunner) Name() string { return TmuxRunnerName }

// Start implements Runner. A task whose agent already exists
// (claimed again after a daemon crash) is watched again rather than
// spawned twice.
func (r *TmuxRunner) Start(ctx context.Context, t *task.Task) (Run, error) {
	return r.start(ctx, t, "")
}

// start runs t's agent in mode ("" = agent.mode).
func (r *TmuxRunner) start(ctx context.Context, t *task.Task, mode string) (Run, error) {
	// The task's own criteria come on top of agent.criteria; its
	// operations go into the worktree's task.json for the agent's hooks.
	r.mu.Lock()
	crit := append(append([]string(nil), r.criteria...), t.Criteria...)
	r.mu.Unlock()
	spec := Spec{Task: t.ID, Project: t.Project, Prompt: t.Prompt, Criteria: crit, Allow: t.Allow, Deny: t.Deny, Mode: mode}
	// A finished task queued again by a person's reply: a follow-up run
	// of its agent on its branch (internal/agent/followup.go).
	if r.m.PendingFollowUp(t.ID) != nil {
		a, err := r.m.SpawnFollowUp(ctx, spec)
		if err != nil {
			r.m.DropFollowUp(t.ID)
			return nil, fmt.Errorf("follow-up run: %w", err)
		}
		r.mirror(ctx, t.ID, a.State, a.Reason)
		return r.track(t.ID), nil
	}
	if run, err := r.Reattach(ctx, t); err != nil || run != nil {
		return run, err
	}
	a, err := r.m.Spawn(ctx, spec)
	if err != nil {
		return nil, err
	}
	r.mirror(ctx, t.ID, a.State, a.Reason)
	return r.track(t.ID), nil
}

// Reattach implements Runner: the agent's window outlived the
// daemon, so it is watched again; an agent that ended meanwhile is
// reported as ended (its task finishes, it is not run twice); a task
// without an agent is queued again.
func (r *TmuxRunner) Reattach(ctx context.Context, t *task.Task) (Run, error) {
	s, err := r.m.Status(ctx, t.ID)
	if err != nil || s == nil {
		return nil, err
	}
	if t.Status == task.Claimed && State(s.Agent.State).Final() {
		// The claim's agent never started: this record is an earlier
		// attempt's (or a finished run a reply queued again).
		return nil, nil
	}
	return r.track(t.ID), nil
}

func (r *TmuxRunner) track(id string) *tmuxRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	if run := r.runs[id]; run != nil {
		return run
	}
	run := &tmuxRun{r: r, id: id, done: make(chan struct{})}
	r.runs[id] = run
	if !r.polling {
		r.polling = true
		go r.loop()
	}
	return run
}

// loop polls while any agent is watched.
func (r *TmuxRunner) loop() {
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		r.pollOnce()
		r.mu.Lock()
		if len(r.runs) == 0 {
			r.polling = false
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		<-t.C
	}
}

func (r *TmuxRunner) pollOnce() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	changes, err := r.m.Poll(ctx)
	if err != nil {
		r.log.Error("agents poll", "err", err)
	}
	for _, c := range changes {
		r.log.Info("agent state", "task", c.Task, "from", c.From, "to", c.To, "reason", c.Reason)
		r.mirror(ctx, c.Task, string(c.To), c.Reason)
		if c.To == Waiting && c.From != Waiting && r.waiting != nil {
			r.waiting(ctx, c.Task, c.Reason)
		}
	}
	r.mu.Lock()
	runs := make([]*tmuxRun, 0, len(r.runs))
	for _, run := range r.runs {
		runs = append(runs, run)
	}
	r.mu.Unlock()
	for _, run := range runs {
		s, err := r.m.Status(ctx, run.id)
		if err != nil || s == nil {
			continue
		}
		// Ended: once cleaned up (the worktree removed, its work archived),
		// or after a minute of failed cleanups (retried by later polls) so
		// a stuck cleanup does not hold the slot.
		if State(s.State).Final() && (!s.Cleaned.IsZero() || time.Since(s.Ended) > time.Minute) {
			if s.Tail != "" {
				// The board and the task page show a failed agent's last
				// lines as its note.
				r.mirror(ctx, run.id, s.State, s.Tail)
			}
			run.end(outcomeOf(ctx, s))
		}
	}
}

// mirror records the agent's state and why it is there on its task (an
// agent state update keeps the task's status), for the board and the API.
func (r *TmuxRunner) mirror(ctx context.Context, id, state, note string) {
	if _, err := r.tasks.UpdateTask(ctx, id, task.Change{AgentState: &state, AgentNote: &note}); err != nil {
		r.log.Error("mirror agent state", "task", id, "err", err)
	}
}

// SetCriteria applies a reloaded agent.criteria to the tasks started
// from now on.
func (r *TmuxRunner) SetCriteria(c []string) {
	r.mu.Lock()
	r.criteria = c
	r.mu.Unlock()
}

func (r *TmuxRunner) forget(id string) {
	r.mu.Lock()
	delete(r.runs, id)
	r.mu.Unlock()
}

// outcomeOf turns an agent's end into its task's: done with what the
// branch holds, or failed with why (and where its work was archived).
func outcomeOf(ctx context.Context, s *Status) Outcome {
	if State(s.State) == Done {
		res := "branch " + s.Branch
		if st, err := BranchStat(ctx, s.Project, s.BaseCommit, s.Branch); err == nil {
			res += ": " + st.String()
		}
		return Outcome{Status: task.Done, Result: res}
	}
	msg := fmt.Sprintf("agent %s: %s", strings.ReplaceAll(s.State, "_", " "), s.Reason)
	if s.Archive != "" {
		msg += "; uncommitted work archived to " + s.Archive
	}
	if next := NextStep(s.Agent); next != "" {
		msg += ". Next: " + next
	}
	return Outcome{Status: task.Failed, Error: msg}
}

// tmuxRun is one watched agent.
type tmuxRun struct {
	r    *TmuxRunner
	id   string
	once sync.Once
	done chan struct{}
	mu   sync.Mutex
	out  Outcome
}

func (run *tmuxRun) Ref() string           { return "tmux:" + SessionName + ":" + run.id }
func (run *tmuxRun) Done() <-chan struct{} { return run.done }

func (run *tmuxRun) Outcome() Outcome {
	run.mu.Lock()
	defer run.mu.Unlock()
	return run.out
}

func (run *tmuxRun) end(out Outcome) {
	run.once.Do(func() {
		run.mu.Lock()
		run.out = out
		run.mu.Unlock()
		run.r.forget(run.id)
		close(run.done)
	})
}

// Stop implements Run (the task was cancelled): the agent
// ends in error with its work archived and its worktree removed.
func (run *tmuxRun) Stop(ctx context.Context) error {
	_, err := run.r.m.Kill(ctx, run.id, "task cancelled")
	s, _ := run.r.m.Status(ctx, run.id)
	if s != nil {
		run.r.mirror(ctx, run.id, s.State, s.Reason)
		run.end(outcomeOf(ctx, s))
	} else {
		run.end(Outcome{Status: task.Failed, Error: "stopped"})
	}
	return err
}

// Shutdown implements Run: the agent's tmux window outlives
// the daemon; the next daemon reattaches to it.
func (run *tmuxRun) Shutdown(ctx context.Context) error {
	run.r.forget(run.id)
	return nil
}
