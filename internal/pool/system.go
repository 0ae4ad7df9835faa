package pool

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/warden-dev/warden/internal/store"
)

// System is one worker of the pool as its heartbeat reports it.
type System struct {
	// Owner is the worker's claim owner ("name:pid"): the key of its row
	// and what its tasks' Owner says.
	Owner string `json:"owner"`
	// Name is the system tasks are pinned to (serve.system, default the
	// host name); Host is the machine's host name.
	Name    string `json:"name"`
	Host    string `json:"host"`
	PID     int    `json:"pid"`
	Version string `json:"version"`
	// Agents running now, of MaxAgents slots.
	Agents    int `json:"agents"`
	MaxAgents int `json:"max_agents"`
	// Load1 is the machine's 1-minute load average (0 where unknown).
	Load1     float64   `json:"load1"`
	Started   time.Time `json:"started"`
	Heartbeat time.Time `json:"heartbeat"`
	// Stale: the worker missed enough heartbeats to count as gone (set
	// when listed, from the registry's staleness rule).
	Stale bool `json:"stale"`
}

// OwnerOf is the claim owner of the worker with this name and pid.
func OwnerOf(name string, pid int) string { return name + ":" + strconv.Itoa(pid) }

// SplitOwner splits a claim owner into its system name and pid (pid 0
// when the owner is not of that form).
func SplitOwner(owner string) (name string, pid int) {
	i := strings.LastIndexByte(owner, ':')
	if i < 0 {
		return owner, 0
	}
	n, err := strconv.Atoi(owner[i+1:])
	if err != nil {
		return owner, 0
	}
	return owner[:i], n
}

// Registry keeps the systems table.
type Registry interface {
	// Beat writes the worker's row (insert or replace) with Heartbeat set.
	Beat(ctx context.Context, s System) error
	// Systems lists every row, the live ones first, then by owner, with
	// Stale set by the registry's rule.
	Systems(ctx context.Context, now time.Time) ([]System, error)
	// Forget deletes the rows whose last heartbeat is older than before:
	// workers gone long ago (their tasks were recovered when their rows
	// went stale), so restarts do not pile up rows.
	Forget(ctx context.Context, before time.Time) error
}

// ForgetAfter is how long a gone worker stays listed (stale).
const ForgetAfter = time.Hour

// StaleAfter is when a row goes stale: Missed beats of Every missed.
func StaleAfter(every time.Duration, missed int) time.Duration {
	return every * time.Duration(missed)
}

// SystemStore is the part of the store that keeps the systems table
// (migration 0045; both stores implement it).
type SystemStore interface {
	BeatSystem(ctx context.Context, s store.System) error
	Systems(ctx context.Context) ([]store.System, error)
	LeaveSystem(ctx context.Context, owner string) error
}

// Stored is the registry in a store: the shared PostgreSQL store of a
// pool, or the local SQLite store of a daemon alone (its one row).
type Stored struct {
	St SystemStore
	// Stale is how old a heartbeat may be before its row is stale.
	Stale time.Duration
}

// Beat implements Registry.
func (r *Stored) Beat(ctx context.Context, s System) error {
	return r.St.BeatSystem(ctx, store.System{Owner: s.Owner, Name: s.Name, Host: s.Host, PID: s.PID, Version: s.Version,
		Agents: s.Agents, MaxAgents: s.MaxAgents, Load1: s.Load1, Started: s.Started.UTC(), Heartbeat: s.Heartbeat.UTC()})
}

// Systems implements Registry.
func (r *Stored) Systems(ctx context.Context, now time.Time) ([]System, error) {
	rows, err := r.St.Systems(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]System, 0, len(rows))
	for _, x := range rows {
		out = append(out, System{Owner: x.Owner, Name: x.Name, Host: x.Host, PID: x.PID, Version: x.Version,
			Agents: x.Agents, MaxAgents: x.MaxAgents, Load1: x.Load1, Started: x.Started, Heartbeat: x.Heartbeat,
			Stale: r.Stale > 0 && now.Sub(x.Heartbeat) > r.Stale})
	}
	sortSystems(out)
	return out, nil
}

// Forget implements Registry.
func (r *Stored) Forget(ctx context.Context, before time.Time) error {
	rows, err := r.St.Systems(ctx)
	if err != nil {
		return err
	}
	for _, x := range rows {
		if x.Heartbeat.Before(before) {
			if err := r.St.LeaveSystem(ctx, x.Owner); err != nil {
				return err
			}
		}
	}
	return nil
}

func sortSystems(s []System) {
	sort.SliceStable(s, func(i, j int) bool {
		if s[i].Stale != s[j].Stale {
			return !s[i].Stale
		}
		return s[i].Owner < s[j].Owner
	})
}

// Load1 reads the 1-minute load average (/proc/loadavg); 0 where there is
// none.
func Load1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	if _, err := fmt.Sscan(string(b), &l); err != nil {
		return 0
	}
	return l
}
