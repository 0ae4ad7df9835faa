package store

import "time"

// System is one `warden serve` worker as its heartbeat records it in the
// systems table (migration 0045): the pool's registry (internal/pool)
// reads who is alive, where, and how loaded.
type System struct {
	// Owner is the worker's claim owner ("name:pid"), the row's key.
	Owner string
	// Name is the system tasks are pinned to; Host the machine's name.
	Name, Host string
	PID        int
	Version    string
	// Agents running now, of MaxAgents slots.
	Agents, MaxAgents int
	// Load1 is the machine's 1-minute load average (0 where unknown).
	Load1              float64
	Started, Heartbeat time.Time
}
