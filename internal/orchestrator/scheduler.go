package orchestrator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-dev/warden/internal/agent"
	"github.com/warden-dev/warden/internal/task"
)

// HoldSetting and Hold: see package task.
const HoldSetting = task.HoldSetting

// Hold is a quota hold (see package task).
type Hold = task.Hold

// Settings is the part of the store the scheduler writes besides tasks.
type Settings interface {
	SetSetting(ctx context.Context, key, value string) error
}

// Options configure a Scheduler; zero values take the defaults.
type Options struct {
	Store    task.Store
	Settings Settings
	// Runners by agent kind; Default runs tasks whose Agent is "".
	Runners map[string]agent.Runner
	Default string
	Quota   QuotaSource
	Clock   Clock
	Log     *slog.Logger
	// Owner names this daemon in claims (host:pid); System is the system
	// it serves (tasks pinned elsewhere are left alone).
	Owner, System string
	// MaxAgents is how many tasks run at once (default 4).
	MaxAgents int
	// MaxAttempts is how often a task is claimed before a lost agent
	// fails it (default 3).
	MaxAttempts int
	// Interval between scheduling steps when nothing wakes the loop
	// (default 1 s); StallAfter is when the watchdog restarts a loop that
	// made no step (default 30 s).
	Interval, StallAfter time.Duration
	// Peers, when set, shares the queue with other workers: their
	// orphaned tasks are recovered every RecoverEvery (default 5 s), and
	// tasks cancelled through them stop here.
	Peers        Peers
	RecoverEvery time.Duration
	// Gate, when set and returning an error, keeps the scheduler from
	// claiming and starting tasks: the daemon's store stopped taking
	// writes (storefault.go). Agents already running are still watched.
	Gate func() error
}

// Scheduler claims, starts, holds, resumes and finishes tasks.
type Scheduler struct {
	o    Options
	wake chan struct{}

	mu   sync.Mutex
	runs map[string]agent.Run // task id → live agent
	held *Hold                // quota hold in force
	// lastWait is the reason of the last recorded queue-wide wait, so a
	// wait is recorded when it changes, not every step.
	lastWait string
	// gateShut: Gate refused at the last look (its reason logged once).
	gateShut bool

	// limits are MaxAgents and MaxAttempts, changed by SetLimits.
	limits atomic.Pointer[[2]int]

	beat        atomic.Int64 // unix nanos of the last finished step
	lastRecover atomic.Int64 // unix nanos of the last peer recovery
	restarts    atomic.Int64
	steps       atomic.Int64
}

// New makes a Scheduler.
func New(o Options) (*Scheduler, error) {
	if o.Store == nil || o.Quota == nil || len(o.Runners) == 0 {
		return nil, errors.New("scheduler: store, quota source and a runner are required")
	}
	if o.Default == "" {
		o.Default = agent.HeadlessName
	}
	if o.Runners[o.Default] == nil {
		return nil, fmt.Errorf("scheduler: no runner %q for tasks without an agent kind", o.Default)
	}
	if o.Clock == nil {
		o.Clock = RealClock{}
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.MaxAgents <= 0 {
		o.MaxAgents = 4
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 3
	}
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	if o.StallAfter <= 0 {
		o.StallAfter = 30 * time.Second
	}
	if o.RecoverEvery <= 0 {
		o.RecoverEvery = 5 * time.Second
	}
	s := &Scheduler{o: o, wake: make(chan struct{}, 1), runs: map[string]agent.Run{}}
	s.SetLimits(o.MaxAgents, o.MaxAttempts)
	return s, nil
}

// Notify wakes the loop (a task was added or cancelled).
func (s *Scheduler) Notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Status is the scheduler's state for /api and /metrics.
type SchedStatus struct {
	Running   int       `json:"running"`
	MaxAgents int       `json:"max_agents"`
	Held      *Hold     `json:"held,omitempty"`
	LastStep  time.Time `json:"last_step"`
	Steps     int64     `json:"steps"`
	Restarts  int64     `json:"watchdog_restarts"`
}

// Status reports the scheduler's state.
func (s *Scheduler) Status() SchedStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := SchedStatus{Running: len(s.runs), MaxAgents: s.maxAgents(), Steps: s.steps.Load(), Restarts: s.restarts.Load()}
	if s.held != nil {
		h := *s.held
		st.Held = &h
	}
	if b := s.beat.Load(); b > 0 {
		st.LastStep = time.Unix(0, b).UTC()
	}
	return st
}

func (s *Scheduler) record(ctx context.Context, taskID, action, reason string) {
	now := s.o.Clock.Now()
	if s.o.Peers != nil {
		// Several workers write one record: say which one decided.
		reason += " [" + s.o.Owner + "]"
	}
	if err := s.o.Store.RecordDecision(ctx, task.Decision{Time: now, TaskID: taskID, Action: action, Reason: reason}); err != nil {
		s.o.Log.Error("record scheduling decision", "task", taskID, "action", action, "err", err)
	}
	s.o.Log.Info("scheduler", "task", taskID, "action", action, "reason", reason)
}

func (s *Scheduler) runnerFor(t *task.Task) agent.Runner {
	if t.Agent == "" {
		return s.o.Runners[s.o.Default]
	}
	return s.o.Runners[t.Agent]
}

// Step makes one round of decisions: finished agents are recorded, the
// quota hold is taken or lifted, and free slots are filled.
func (s *Scheduler) Step(ctx context.Context) error {
	defer func() { s.steps.Add(1); s.beat.Store(time.Now().UnixNano()) }()
	s.collect(ctx)
	now := s.o.Clock.Now()
	if s.o.Peers != nil {
		s.dropCancelled(ctx)
		if err := s.recoverPeers(ctx, now); err != nil {
			s.o.Log.Error("recover the tasks of gone workers", "err", err)
		}
	}
	q, err := s.o.Quota.Quota(ctx, now)
	if err != nil {
		// Pacing fails open, like the hooks: unknown quota holds nothing.
		q = Quota{Reason: "quota unknown (" + err.Error() + "): not holding work back"}
	}
	if q.Critical {
		s.hold(ctx, now, q)
		return nil
	}
	s.resume(ctx, q)
	return s.fill(ctx, q)
}

// collect records every agent that has ended.
func (s *Scheduler) collect(ctx context.Context) {
	s.mu.Lock()
	var ended []string
	for id, r := range s.runs {
		select {
		case <-r.Done():
			ended = append(ended, id)
		default:
		}
	}
	s.mu.Unlock()
	for _, id := range ended {
		s.mu.Lock()
		r := s.runs[id]
		delete(s.runs, id)
		s.mu.Unlock()
		if r == nil {
			continue
		}
		out := r.Outcome()
		c := task.Change{From: []task.Status{task.Claimed, task.Running, task.Paused}, To: out.Status, Time: s.o.Clock.Now(), Owner: s.o.Owner}
		action, reason := task.ActFinish, "the agent finished"
		if out.Status == task.Failed {
			action, reason = task.ActFail, "the agent failed: "+out.Error
			c.Error = &out.Error
		} else {
			c.Result = &out.Result
		}
		c.Reason = reason
		if _, err := s.o.Store.UpdateTask(ctx, id, c); err != nil {
			if !errors.Is(err, task.ErrConflict) { // cancelled or recovered meanwhile: its status stands
				s.o.Log.Error("finish task", "task", id, "err", err)
			}
			continue
		}
		s.record(ctx, id, action, reason)
	}
}

// hold stops new work and asks running agents to pause.
func (s *Scheduler) hold(ctx context.Context, now time.Time, q Quota) {
	s.mu.Lock()
	first := s.held == nil
	h := Hold{Since: now, Until: q.ResumeAt, Reason: q.Reason}
	if !first {
		h.Since = s.held.Since
	}
	changed := first || s.held.Until != h.Until
	s.held = &h
	ids := make([]string, 0, len(s.runs))
	for id := range s.runs {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	if !changed {
		return
	}
	if s.o.Settings != nil {
		b, _ := json.Marshal(h)
		if err := s.o.Settings.SetSetting(ctx, HoldSetting, string(b)); err != nil {
			s.o.Log.Error("set hold", "err", err)
		}
	}
	s.record(ctx, "", task.ActHold, "quota critical, starting nothing new and pausing running agents: "+q.Reason)
	for _, id := range ids {
		if _, err := s.o.Store.UpdateTask(ctx, id, task.Change{From: []task.Status{task.Running}, To: task.Paused,
			Time: now, Owner: s.o.Owner, Reason: "told to pause through its hooks: " + q.Reason}); err == nil {
			s.record(ctx, id, task.ActPause, q.Reason)
		}
	}
}

// resume lifts a hold once quota is no longer critical.
func (s *Scheduler) resume(ctx context.Context, q Quota) {
	s.mu.Lock()
	held := s.held
	s.held = nil
	ids := make([]string, 0, len(s.runs))
	for id := range s.runs {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	if held == nil {
		return
	}
	if s.o.Settings != nil {
		if err := s.o.Settings.SetSetting(ctx, HoldSetting, ""); err != nil {
			s.o.Log.Error("clear hold", "err", err)
		}
	}
	s.record(ctx, "", task.ActResume, "quota no longer critical: "+q.Reason)
	for _, id := range ids {
		if _, err := s.o.Store.UpdateTask(ctx, id, task.Change{From: []task.Status{task.Paused}, To: task.Running,
			Time: s.o.Clock.Now(), Owner: s.o.Owner, Reason: "resumed: " + q.Reason}); err == nil {
			s.record(ctx, id, task.ActResume, q.Reason)
		}
	}
}

// fill claims and starts tasks while a slot is free.
func (s *Scheduler) fill(ctx context.Context, q Quota) error {
	for {
		if s.gated() {
			return nil
		}
		s.mu.Lock()
		running := len(s.runs)
		s.mu.Unlock()
		if running >= s.maxAgents() {
			s.noteWait(ctx, fmt.Sprintf("all %d agent slots busy (serve.max_agents)", s.maxAgents()))
			return nil
		}
		why := fmt.Sprintf("slot free (%d of %d running); %s", running, s.maxAgents(), q.Reason)
		t, err := s.o.Store.ClaimNext(ctx, s.o.Owner, s.o.System, why, s.o.Clock.Now())
		if err != nil {
			return err
		}
		if t == nil {
			s.noteWait(ctx, "")
			return nil
		}
		if err := s.start(ctx, t, why); err != nil {
			return err
		}
	}
}

// noteWait records a queue-wide wait when its reason changes.
func (s *Scheduler) noteWait(ctx context.Context, reason string) {
	s.mu.Lock()
	same := s.lastWait == reason
	s.lastWait = reason
	s.mu.Unlock()
	if same || reason == "" {
		return
	}
	counts, err := s.o.Store.CountTasks(ctx)
	if err != nil || counts[task.Queued] == 0 {
		s.mu.Lock()
		s.lastWait = "" // nothing waits: record it when something does
		s.mu.Unlock()
		return
	}
	s.record(ctx, "", task.ActWait, fmt.Sprintf("%d queued: %s", counts[task.Queued], reason))
}

// start launches a claimed task's agent. The store takes the start before
// the agent runs and its running state right after; when it refuses
// either, no agent is left working unrecorded (storefault.go) and the
// error stops this round of claims.
func (s *Scheduler) start(ctx context.Context, t *task.Task, why string) error {
	// What happened is recorded even when the loop is being stopped
	// meanwhile: a started agent left "claimed" would cost its task an
	// attempt at the next start.
	ctx = context.WithoutCancel(ctx)
	if err := s.startRecorded(ctx, t, why); err != nil {
		return err
	}
	r := s.runnerFor(t)
	var run agent.Run
	err := fmt.Errorf("no runner for agent kind %q; known: %v", t.Agent, keys(s.o.Runners))
	if r != nil {
		run, err = r.Start(ctx, t)
	}
	now := s.o.Clock.Now()
	if err != nil {
		msg := err.Error()
		if _, uerr := s.o.Store.UpdateTask(ctx, t.ID, task.Change{From: []task.Status{task.Claimed}, To: task.Failed,
			Time: now, Owner: s.o.Owner, Reason: "the agent did not start: " + msg, Error: &msg}); uerr != nil {
			s.o.Log.Error("fail task", "task", t.ID, "err", uerr)
		}
		s.record(ctx, t.ID, task.ActFail, "the agent did not start: "+msg)
		return nil
	}
	ref := run.Ref()
	if _, err := s.o.Store.UpdateTask(ctx, t.ID, task.Change{From: []task.Status{task.Claimed}, To: task.Running,
		Time: now, Owner: s.o.Owner, Reason: "agent started (" + ref + ")", AgentRef: &ref}); err != nil {
		return s.unrecorded(ctx, t, run, err)
	}
	s.mu.Lock()
	s.runs[t.ID] = run
	s.mu.Unlock()
	go func() { <-run.Done(); s.Notify() }()
	return nil
}

// Cancel cancels task id: a queued task at once, a running one by stopping
// its agent. A finished task is ErrConflict.
func (s *Scheduler) Cancel(ctx context.Context, id, reason string) (*task.Task, error) {
	if reason == "" {
		reason = "cancelled"
	}
	s.mu.Lock()
	run := s.runs[id]
	delete(s.runs, id)
	s.mu.Unlock()
	t, err := s.o.Store.UpdateTask(ctx, id, task.Change{
		From: []task.Status{task.Queued, task.Claimed, task.Running, task.Paused},
		To:   task.Cancelled, Time: s.o.Clock.Now(), Reason: reason})
	if err != nil {
		if run != nil { // not ours to stop after all
			s.mu.Lock()
			s.runs[id] = run
			s.mu.Unlock()
		}
		return nil, err
	}
	if run != nil {
		if err := run.Stop(ctx); err != nil {
			s.o.Log.Error("stop agent", "task", id, "err", err)
		}
	}
	s.record(ctx, id, task.ActCancel, reason)
	s.Notify()
	return t, nil
}

// Shutdown stops watching agents; those that cannot outlive the daemon are
// stopped and their tasks handed back (handback.go); the others' tasks
// stay as they are in the store for the next start's reconciliation.
func (s *Scheduler) Shutdown(ctx context.Context) {
	s.mu.Lock()
	runs := s.runs
	s.runs = map[string]agent.Run{}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for id, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Shutdown(ctx); err != nil {
				s.o.Log.Error("shut down agent", "task", id, "err", err)
			}
			s.handBack(ctx, id, r)
		}()
	}
	wg.Wait()
}

func keys(m map[string]agent.Runner) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
