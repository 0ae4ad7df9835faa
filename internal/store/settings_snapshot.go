package store

import (
	"context"
	"sync"
)

// A settings snapshot is the settings one hook reads (the on/off switch,
// safemode, the project's breaker), loaded in one query before its
// handlers run and carried in its context: three point reads would each
// take a read transaction of their own. A store's Setting answers a key
// the snapshot holds from it; a write through the store drops the key, so
// the hook then reads what it wrote. It lives only as long as the hook's
// context: other processes' changes are seen by the next hook.
type settingsSnapshot struct {
	mu   sync.Mutex
	vals map[string]snapEntry
}

type snapEntry struct {
	value string
	ok    bool // the setting exists
}

type snapshotKey struct{}

// WithSettings returns ctx carrying a snapshot of keys, whose stored
// values are loaded (a key missing from loaded is not set).
func WithSettings(ctx context.Context, keys []string, loaded map[string]string) context.Context {
	s := &settingsSnapshot{vals: make(map[string]snapEntry, len(keys))}
	for _, k := range keys {
		v, ok := loaded[k]
		s.vals[k] = snapEntry{value: v, ok: ok}
	}
	return context.WithValue(ctx, snapshotKey{}, s)
}

// SnapshotSetting is key's value in ctx's snapshot; held is false when
// the snapshot does not hold key (or there is none): read the store then.
func SnapshotSetting(ctx context.Context, key string) (value string, ok, held bool) {
	s, _ := ctx.Value(snapshotKey{}).(*settingsSnapshot)
	if s == nil {
		return "", false, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, held := s.vals[key]
	return e.value, e.ok, held
}

// ForgetSetting drops key from ctx's snapshot: a store calls it after
// writing key, so later reads in this hook go to the store.
func ForgetSetting(ctx context.Context, key string) {
	s, _ := ctx.Value(snapshotKey{}).(*settingsSnapshot)
	if s == nil {
		return
	}
	s.mu.Lock()
	delete(s.vals, key)
	s.mu.Unlock()
}
