package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/store/sqlite"
)

// A store removed under the daemon (or between two runs) must not be
// replaced by an empty one without anyone noticing: the tasks, the API
// tokens and the record would be gone, and the CLI's own token, added
// again at each start, would hide it. So the daemon leaves a mark beside
// serve.json, run/store.json: which store it served (an id kept in the
// store's settings), and what it held when it last looked. A start that
// finds the store missing, or another store in its place (a hook makes a
// new empty one when the file is gone), refuses and says what it expected
// and the two ways on: put the file back, or --new-store.

// storeIDSetting names the store: made on the daemon's first start on it,
// carried by a backup, absent from a new store.
const storeIDSetting = "store_id"

// storeMark is run/store.json.
type storeMark struct {
	Path    string    `json:"path"`
	StoreID string    `json:"store_id"`
	Tasks   int       `json:"tasks"`
	Tokens  int       `json:"tokens"`
	Seen    time.Time `json:"seen"`
}

// markPath is run/store.json, beside serve.json (statePath): not beside
// the store, where `rm warden.db*` would take it along.
func markPath(statePath string) string { return filepath.Join(filepath.Dir(statePath), "store.json") }

// checkStoreMark runs before the daemon opens (and so may create) the
// store: nil when there is no mark, the mark is another file's, the store
// is the one marked, or newStore accepts a new one.
func checkStoreMark(ctx context.Context, statePath, db string, newStore bool) error {
	b, err := os.ReadFile(markPath(statePath))
	if errors.Is(err, os.ErrNotExist) || newStore {
		return nil
	}
	if err != nil {
		return err
	}
	var m storeMark
	if err := json.Unmarshal(b, &m); err != nil || m.Path != db || m.StoreID == "" {
		return nil // unreadable or another store's: nothing to compare with
	}
	held := fmt.Sprintf("when warden serve last looked (%s) it held %d tasks and %d API tokens", m.Seen.UTC().Format(time.RFC3339), m.Tasks, m.Tokens)
	const ways = "put the file back from a backup (with its -wal file, if any) and start again; or start on a new store, without those tasks and tokens, with `warden serve --new-store` (then make new tokens: warden token create)"
	if _, err := os.Stat(db); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("the store %s is missing; %s (%s). To go on: %s", db, held, markPath(statePath), ways)
	}
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	id, _, err := st.Setting(ctx, storeIDSetting)
	if err != nil {
		return err
	}
	if id == m.StoreID {
		return nil
	}
	return fmt.Errorf("the store %s is not the one warden serve last ran on (store id %s; this one has %q, made after it was removed, by a hook or by hand); %s (%s). To go on: %s",
		db, m.StoreID, id, held, markPath(statePath), ways)
}

// storeMarker keeps the mark current: the daemon looks every second
// (watchStoreFile), and the file is written again only when the counts
// changed — two small queries a second, no write while nothing changes.
type storeMarker struct {
	st        *sqlite.Store
	statePath string
	last      storeMark
}

func (m *storeMarker) update(ctx context.Context) {
	cur, err := readStoreCounts(ctx, m.st)
	if err != nil || cur.Tasks == m.last.Tasks && cur.Tokens == m.last.Tokens && m.last.StoreID != "" {
		return
	}
	if err := writeStoreMark(ctx, m.st, m.statePath); err == nil {
		m.last = cur
		m.last.StoreID = "written"
	}
}

func readStoreCounts(ctx context.Context, st *sqlite.Store) (storeMark, error) {
	var m storeMark
	counts, err := st.CountTasks(ctx)
	if err != nil {
		return m, err
	}
	for _, n := range counts {
		m.Tasks += n
	}
	toks, err := st.Tokens(ctx)
	if err != nil {
		return m, err
	}
	m.Tokens = len(toks)
	return m, nil
}

// writeStoreMark names the store (once) and writes the mark with what it
// holds now.
func writeStoreMark(ctx context.Context, st *sqlite.Store, statePath string) error {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	if _, err := st.ClaimSetting(ctx, storeIDSetting, hex.EncodeToString(b)); err != nil {
		return err
	}
	id, _, err := st.Setting(ctx, storeIDSetting)
	if err != nil {
		return err
	}
	m, err := readStoreCounts(ctx, st)
	if err != nil {
		return err
	}
	m.Path, m.StoreID, m.Seen = st.Path(), id, time.Now().UTC()
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.MkdirAll(filepath.Dir(statePath), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(markPath(statePath), append(out, '\n'), 0o600)
}
