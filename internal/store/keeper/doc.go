// Package keeper keeps warden's SQLite store open between hooks.
//
// Every hook is a short process, and SQLite makes the last connection to a
// WAL database pay for closing it (a checkpoint with two fsyncs, then the WAL
// is deleted) and the first connection pay for opening it again (a fresh
// wal-index). With one idle process holding a connection, each hook is a
// middle connection and pays neither: measured here, a whole `warden hook`
// process goes from ~11 ms to ~8.8 ms (bench/hook-latency).
//
// The keeper is that process. A hook starts it (detached) when none runs;
// it holds an flock on $WARDEN_HOME/locks/keeper.lock so there is at most
// one per store, checkpoints the WAL itself once writes go quiet (so hooks
// rarely meet an automatic checkpoint), and exits after an idle time without
// commits, when the store file is removed or replaced, or on SIGTERM. When
// it is gone, hooks work as before, only slower: nothing depends on it.
// With a shared store configured it runs the shipper beside it and stays
// past its idle time while rows wait to be shipped (Options.Backlog), so a
// long outage's backlog drains when the shared store is back.
//
// WARDEN_KEEPER=off (or store.keeper = false in the user config) stops hooks
// from starting it; tests that create throwaway stores set it so no keeper
// outlives them.
package keeper
