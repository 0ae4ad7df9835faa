package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/event"
	"github.com/warden-dev/warden/internal/store"
)

// Poll brings every agent up to date and returns the state changes, in
// order: the hook events recorded for its task since the last poll move
// its state (Next); an allowed Stop is Done when the task's criteria hold
// and Error when not; a process that exited or a window that vanished
// without a final state is Error; no event for IdleTimeout is TimedOut.
// Agents in a final state are then cleaned up (Finish) — a cleanup that
// fails is retried on the next poll.
func (m *Manager) Poll(ctx context.Context) ([]Change, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	agents, err := m.st.Agents(ctx, false)
	if err != nil {
		return nil, err
	}
	var changes []Change
	var errs []error
	for _, a := range agents {
		if !State(a.State).Final() {
			cs, err := m.follow(ctx, a)
			changes = append(changes, cs...)
			if err != nil {
				errs = append(errs, fmt.Errorf("task %s: %w", a.TaskID, err))
				continue
			}
		}
		if State(a.State).Final() && a.Cleaned.IsZero() {
			if err := m.finish(ctx, a); err != nil {
				errs = append(errs, fmt.Errorf("task %s: cleanup: %w", a.TaskID, err))
			}
		}
	}
	return changes, errors.Join(errs...)
}

// follow applies a's new events and checks its process.
func (m *Manager) follow(ctx context.Context, a *store.Agent) ([]Change, error) {
	evs, err := m.st.Events(ctx, store.Filter{TaskID: a.TaskID, AfterID: a.LastEventID})
	if err != nil {
		return nil, err
	}
	var changes []Change
	set := func(to State, reason string, at time.Time) error {
		// An agent that ends without its allowed Stop (its Stop was
		// blocked for its criteria, then it quit) says what was missing.
		if to == Error || to == TimedOut {
			if unmet := CheckCriteria(ctx, a.Worktree, a.BaseCommit, GitCriteria(a.Criteria)); unmet != "" && !strings.Contains(reason, unmet) {
				reason += "; criteria not met: " + unmet
			}
			// What the agent last said, while its window is still there
			// (why.go).
			if tail := m.captureTail(ctx, a); tail != "" {
				a.Tail = tail
				if last := LastErrorLine(tail); last != "" && !strings.Contains(reason, last) {
					reason += "; last error: " + last
				}
			}
		}
		c := Change{Task: a.TaskID, From: State(a.State), To: to, Reason: reason}
		if to != Waiting {
			a.Pending = "" // answered: the agent moved on
		}
		a.State, a.Reason = string(to), reason
		if to.Final() {
			a.Ended = at
		}
		if err := m.st.UpdateAgent(ctx, a, &store.AgentState{State: string(to), At: at, Reason: reason}); err != nil {
			return err
		}
		changes = append(changes, c)
		return nil
	}
	for i := range evs {
		e := &evs[i]
		a.LastEventID = e.ID
		if e.Time.Before(a.Started) {
			// A late event of an earlier run of the task (its session's
			// end, recorded while a follow-up run starts): not this run's.
			continue
		}
		a.LastEvent = e.Time
		to, why := Next(State(a.State), e)
		if to == Waiting && event.Name(e.Event) == event.PreToolUse {
			a.Pending = encodePending(PendingFrom(e))
		}
		if to == StopAllowed {
			to, why = Done, "stopped with its criteria met"
			if unmet := CheckCriteria(ctx, a.Worktree, a.BaseCommit, a.Criteria); unmet != "" {
				to, why = Error, "stopped with criteria not met: "+unmet
			}
		}
		if to == State(a.State) {
			if why != "" && why != a.Reason {
				// A note with the state unchanged (an unknown
				// notification): recorded like a change, so task show
				// and the board carry it.
				if err := set(to, why, e.Time); err != nil {
					return changes, err
				}
			}
			continue
		}
		if err := set(to, why, e.Time); err != nil {
			return changes, err
		}
		if to.Final() {
			return changes, nil
		}
	}
	if len(evs) > 0 {
		if err := m.st.UpdateAgent(ctx, a, nil); err != nil { // remember how far we read
			return changes, err
		}
	}

	now := time.Now()
	w, err := m.cfg.Tmux.Window(ctx, a.Window)
	switch {
	case err != nil && !errors.Is(err, ErrNoTmux):
		// tmux did not answer: try again next poll; the idle timeout
		// still ends an agent that never comes back.
	case w == nil:
		why := "its tmux window is gone (tmux server killed or window closed by hand)"
		if mem := m.memoryKill(a, -1); mem != "" {
			why = mem + "; " + why
		}
		return changes, set(Error, why, now)
	case w.Dead:
		first, ok := m.deadSeen[a.TaskID]
		if !ok {
			m.deadSeen[a.TaskID] = now
		} else if now.Sub(first) >= m.cfg.ExitGrace {
			delete(m.deadSeen, a.TaskID)
			if w.DeadStatus < 0 {
				w.DeadStatus = m.savedExit(a.TaskID)
			}
			if w.DeadStatus == 0 {
				// Exit 0 is the agent's own "finished": Claude Code's Stop
				// is one signal of done, not the only one (a command agent
				// has no Stop hook). The task's criteria decide.
				if unmet := CheckCriteria(ctx, a.Worktree, a.BaseCommit, a.Criteria); unmet != "" {
					return changes, set(Error, "the agent exited 0 with criteria not met: "+unmet, now)
				}
				return changes, set(Done, "the agent exited 0 with its criteria met", now)
			}
			why := "the agent process exited before the task was done"
			if w.DeadStatus >= 0 {
				why = fmt.Sprintf("the agent process exited with status %d before the task was done", w.DeadStatus)
			}
			if mem := m.memoryKill(a, w.DeadStatus); mem != "" {
				why = mem
			}
			return changes, set(Error, why, now)
		}
	}
	last := a.LastEvent
	if last.IsZero() || last.Before(a.Started) {
		last = a.Started
	}
	if idle := now.Sub(last); idle >= m.cfg.IdleTimeout {
		return changes, set(TimedOut, fmt.Sprintf("no hook event for %v (agent_idle_timeout %v)", idle.Round(time.Second), m.cfg.IdleTimeout), now)
	}
	return changes, nil
}

// savedExit is the exit status a headless or command agent's launch script saved; -1
// when there is none.
func (m *Manager) savedExit(task string) int {
	b, err := os.ReadFile(m.exitFile(task))
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return -1
	}
	return n
}

// memoryKill names the memory limit when it is what ended the agent: the
// OOM killer counted kills in the agent's own cgroup, or — in a systemd
// scope, whose counters warden does not read — the agent died of SIGKILL
// (status 137) with a limit set. "" otherwise.
func (m *Manager) memoryKill(a *store.Agent, status int) string {
	if a.MemoryCgroup != "" {
		if n := cgroupOOMKills(a.MemoryCgroup); n > 0 {
			return fmt.Sprintf("killed by the memory limit (agent.memory_max %s): the kernel's OOM killer ended %d process(es) in %s",
				m.cfg.MemoryMax, n, a.MemoryCgroup)
		}
		return ""
	}
	if m.cfg.MemoryMax != "" && status == 128+9 {
		return fmt.Sprintf("the agent process was killed (SIGKILL, status 137) before the task was done, most likely by the memory limit (agent.memory_max %s)", m.cfg.MemoryMax)
	}
	return ""
}
