// Package pool is what several `warden serve` workers sharing one
// PostgreSQL store need beyond the store itself: the registry of the
// workers (the store's systems table behind /api/systems, each row kept
// fresh by its worker's heartbeat, stale after missed beats so the others
// recover its tasks), the recovery lease the scheduler's Peers take, and the
// pacing ledger kept in step between each worker's local store and the
// shared one (Ledger). Waking on NOTIFY is the store's own
// (postgres.Store.ListenTasks). A single daemon on SQLite keeps its one
// row in the local store; nothing else here runs then. No SQL here: the
// stores own it.
package pool
