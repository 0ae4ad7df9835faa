package store

import "time"

// Dropped records one pruning of rows the shared store never took: with a
// shared store configured, retention keeps rows not shipped yet, but only
// for store.unshipped_keep_days past retention_days (internal/store/ship);
// past that they are deleted anyway and this says how many and which, so
// the loss is never silent (warden doctor, warden ship --status).
type Dropped struct {
	At time.Time `json:"at"`
	// Events counts the unshipped events deleted, ids FirstID..LastID
	// recorded First..Last; Sessions the unshipped session states.
	Events   int64     `json:"events"`
	FirstID  int64     `json:"first_id,omitempty"`
	LastID   int64     `json:"last_id,omitempty"`
	First    time.Time `json:"first,omitzero"`
	Last     time.Time `json:"last,omitzero"`
	Sessions int64     `json:"sessions"`
	// Reason is why: the bound and the error the shipper kept getting.
	Reason string `json:"reason"`
}
