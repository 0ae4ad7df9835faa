// Package ship copies the local store's events and session states to the
// shared store (PostgreSQL) in batches, so hooks never wait on the network.
//
// Hooks keep writing the local SQLite store through the keeper or the
// daemon, exactly as without a shared store. A Shipper, running beside the
// hook server in the keeper and the daemon (never on a hook's request
// path), reads the local events past its high-water mark, sends them in
// batches of at most Options.Batch rows, each batch in one transaction of
// the shared store, and moves the mark (a setting of the local store) after
// the batch committed. The shared store recomputes its own audit chain as
// it inserts, and remembers each row's origin and local id, so a batch sent
// again — the shipper crashed, or the connection broke after the commit and
// before the answer — is inserted once.
//
// While the shared store is unreachable, the local store is the spool: it
// grows, the shipper retries with back-off (every call has a deadline), and
// when the shared store is back it drains in local id order, which is the
// order the hooks of every session happened in.
package ship
