package storeguard

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The store's mark: which store warden serve last ran on, and what it
// held, in run/store.json (beside serve.json, not beside the store, where
// `rm warden.db*` would take it along). A start, and warden doctor, compare
// the store they find with it (Mark.Compare), so a store that went
// missing, or a new empty one in its place, is never taken silently.

// StoreIDSetting is the setting that names a store: made on the daemon's
// first start on it, carried by a backup, absent from a new store.
const StoreIDSetting = "store_id"

// Mark is run/store.json.
type Mark struct {
	Path    string    `json:"path"`
	StoreID string    `json:"store_id"`
	Tasks   int       `json:"tasks"`
	Tokens  int       `json:"tokens"`
	Seen    time.Time `json:"seen"`
}

// MarkPath is the mark in the run directory runDir.
func MarkPath(runDir string) string { return filepath.Join(runDir, "store.json") }

// ReadMark reads the mark at path; nil (and no error) when there is none,
// or it is not readable as one (nothing to compare with).
func ReadMark(path string) (*Mark, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m Mark
	if json.Unmarshal(b, &m) != nil || m.StoreID == "" {
		return nil, nil
	}
	return &m, nil
}

// NewStoreFix is the two ways on from a store that is not the one marked.
const NewStoreFix = "put the file back from a backup (with its -wal file, if any) and start again; or start on a new store, without those tasks and tokens, with `warden serve --new-store` (then make new tokens: warden token create)"

// Compare checks the store at db against the mark (read from markPath):
// nil when the mark is another file's or the store is the one marked;
// else an error saying what is missing or replaced and what it held. id
// reads the store's StoreIDSetting ("" when absent); it is called only
// when the file exists.
func (m *Mark) Compare(db, markPath string, id func() (string, error)) error {
	if m == nil || m.Path != db {
		return nil
	}
	held := fmt.Sprintf("when warden serve last looked (%s) it held %d tasks and %d API tokens", m.Seen.UTC().Format(time.RFC3339), m.Tasks, m.Tokens)
	if _, err := os.Stat(db); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("the store %s is missing; %s (%s)", db, held, markPath)
	}
	got, err := id()
	if err != nil {
		return err
	}
	if got == m.StoreID {
		return nil
	}
	return fmt.Errorf("the store %s is not the one warden serve last ran on (store id %s; this one has %q, made after it was removed, by a hook or by hand); %s (%s)",
		db, m.StoreID, got, held, markPath)
}
