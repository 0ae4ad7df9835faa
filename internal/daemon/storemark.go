package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/warden-dev/warden/internal/atomicfile"
	"github.com/warden-dev/warden/internal/store/sqlite"
	"github.com/warden-dev/warden/internal/storeguard"
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

// storeIDSetting names the store (storeguard.Mark).
const storeIDSetting = storeguard.StoreIDSetting

// storeMark is run/store.json.
type storeMark = storeguard.Mark

// markPath is run/store.json, beside serve.json (statePath).
func markPath(statePath string) string { return storeguard.MarkPath(filepath.Dir(statePath)) }

// checkStoreMark runs before the daemon opens (and so may create) the
// store: nil when there is no mark, the mark is another file's, the store
// is the one marked, or newStore accepts a new one.
func checkStoreMark(ctx context.Context, statePath, db string, newStore bool) error {
	if newStore {
		return nil
	}
	m, err := storeguard.ReadMark(markPath(statePath))
	if err != nil || m == nil {
		return err
	}
	err = m.Compare(db, markPath(statePath), func() (string, error) {
		st, err := sqlite.Open(ctx, db)
		if err != nil {
			return "", err
		}
		defer st.Close()
		id, _, err := st.Setting(ctx, storeIDSetting)
		return id, err
	})
	if err != nil {
		return fmt.Errorf("%w. To go on: %s", err, storeguard.NewStoreFix)
	}
	return nil
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
