// Package pool is what several `warden serve` workers sharing one
// PostgreSQL store need beyond the store itself: the registry of the
// workers (the systems table behind /api/systems, each row kept fresh by
// its worker's heartbeat, stale after missed beats so the others recover
// its tasks) and the LISTEN side of the queue's NOTIFY, so a worker wakes
// when a task is queued instead of polling. A single daemon on SQLite uses
// the in-memory registry and the in-process wake; nothing here runs then.
package pool
